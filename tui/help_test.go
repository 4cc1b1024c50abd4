package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// TestShortHelpFitsAndEndsWithHelp: the one-line help fits the terminal
// at 80 and 132 columns, with whole keys only, and always ends with "?
// all keys" and "q quit" (the full help lists the rest).
func TestShortHelpFitsAndEndsWithHelp(t *testing.T) {
	for _, w := range []int{80, 100, 132} {
		t.Run(fmt.Sprintf("width=%d", w), func(t *testing.T) {
			m := newTestModel(t, &fakeRunner{points: 3}, &example1, w, 24)
			lines := strings.Split(screenText(m), "\n")
			keys := strings.TrimRight(lines[len(lines)-1], " ")
			if lipgloss.Width(keys) > w || !strings.HasSuffix(keys, "? all keys • q quit") || strings.Contains(keys, "…") {
				t.Errorf("%d columns: the key line %q", w, keys)
			}
		})
	}
}

// TestHelpWordsWhole: at 80×24, 120×32 and 132×42 every line of the help,
// read page by page, is whole: a key's description wider than the screen
// wraps under itself, never cut with "…".
func TestHelpWordsWhole(t *testing.T) {
	for _, sz := range wordSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := loadedPreset(t, 0, sz[0], sz[1])
			m.Update(press("?"))
			for range 40 {
				for _, l := range strings.Split(screenText(m), "\n") {
					if cutWord.MatchString(l) && !stateEllipsis.MatchString(l) && !strings.Contains(l, "(? full)") {
						t.Errorf("a line of the help is cut: %q", strings.TrimSpace(l))
					}
				}
				before := screenText(m)
				m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
				if screenText(m) == before {
					break
				}
			}
		})
	}
}
