package tui

import (
	"fmt"
	"strings"
	"testing"

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
