package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"dpso/tui/presets"
)

// bareT is a text naming t alone as the key of a panel ("(t)", ", t,"):
// t moves the scroll keys along a ring, so one press reaches the theorem
// panel at some sizes and leaves it at others.
var bareT = regexp.MustCompile(`\(t\)|, t,`)

// TestTheoremPanelKeysWork: no preset text names t alone as the theorem
// panel's key; each that sends the reader to the theorem panel names
// presets.TheoremKeys. Driven as written on preset 5 at 80×24, 120×32
// and 132×42, from the preset as loaded and after every number of
// earlier presses of t: t pressed until the Theorem panel has the scroll
// keys gets there within one turn of the ring, and j then scrolls it.
func TestTheoremPanelKeysWork(t *testing.T) {
	for i, p := range presets.All {
		for _, tpl := range p.AllTemplates() {
			if bareT.MatchString(tpl.Text) {
				t.Errorf("preset %d's %s names t alone for a panel: %q", i+1, tpl.What, bareT.FindString(tpl.Text))
			}
			if strings.Contains(strings.ToLower(tpl.Text), "read the theorem panel") && !strings.Contains(tpl.Text, presets.TheoremKeys) {
				t.Errorf("preset %d's %s sends the reader to the theorem panel without its keys: %q", i+1, tpl.What, tpl.Text)
			}
		}
	}
	const preset = 4 // preset 5: k → ∞
	if !strings.Contains(presets.All[preset].Next(), presets.TheoremKeys) {
		t.Fatalf("preset 5's next step %q does not name %q", presets.All[preset].Next(), presets.TheoremKeys)
	}
	for _, sz := range wordSizes {
		w, h := sz[0], sz[1]
		m := loadedPreset(t, preset, w, h)
		screen := m.screens[m.active].screen
		turn := len(m.ring(screen))
		for before := range turn {
			t.Run(fmt.Sprintf("%dx%d after %d t", w, h, before), func(t *testing.T) {
				for range before {
					m.Update(press("t"))
				}
				theorem := func() bool { return m.stopName(screen, m.at(screen)) == "the Theorem panel" }
				n := 0
				for ; !theorem() && n < turn; n++ {
					m.Update(press("t"))
				}
				if !theorem() {
					t.Fatalf("%d presses of t never give the Theorem panel the scroll keys (at %s)", n, m.stopName(screen, m.at(screen)))
				}
				v := m.panel().View()
				if !strings.Contains(v, "more line") {
					t.Fatalf("the Theorem panel has nothing to scroll at %d×%d:\n%s", w, h, v)
				}
				m.Update(press("j"))
				if m.panel().View() == v {
					t.Errorf("j does not scroll the Theorem panel:\n%s", v)
				}
				m.Update(press("k"))
			})
		}
	}
}
