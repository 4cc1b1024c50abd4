package tui

import (
	"fmt"
	"strings"
	"testing"

	"dpso/tui/presets"
	"dpso/tui/screens"
)

// TestTuneScreenScrollsWithT: preset 9 (the tuning screen, its search
// of n = 10⁴ run to its end) at the small terminal and the projector's
// size: the lines that do not fit are reached with the keys the
// screen's last line names — t, then j, as on every panel — and they
// hold the prescribed run's parameters and the search's privacy split
// (one candidate's ε', how far the whole search's is above it), which
// "↓ 6 more lines: a taller terminal shows them" left out with no key;
// the status line says where the keys went, and the help says it.
func TestTuneScreenScrollsWithT(t *testing.T) {
	nine, err := presets.Index("9")
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range [][2]int{{80, 24}, {120, 32}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := loadedPresetOn(t, &fakeRunner{tuneWorkers: 1, tuneMemo: &searches}, nine, sz[0], sz[1])
			if m.shownKind() != screens.TuneKind || !doneOf(m, screens.TuneKind) {
				t.Fatalf("preset 9: screen %s, run %+v", m.shownKind(), m.run())
			}
			ts := m.screens[m.active].screen
			view := func() []string { return strings.Split(stripANSI(ts.View()), "\n") }
			lines := view()
			last := strings.TrimSpace(lines[len(lines)-1])
			mt := scrollLine.FindStringSubmatch(last)
			if mt == nil || mt[2] != "t, then j" {
				t.Fatalf("the screen's last line %q does not name t, then j:\n%s", last, strings.Join(lines, "\n"))
			}
			var below int
			fmt.Sscan(mt[1], &below)
			m.Update(press("t"))
			if v := screenText(m); !strings.Contains(v, "scroll the tuning screen") {
				t.Errorf("after t the status line does not say the keys scroll the tuning screen:\n%s", v)
			}
			seen := strings.Join(lines, "\n")
			for range below {
				m.Update(press("j"))
				seen += "\n" + strings.Join(view(), "\n")
			}
			flat := strings.Join(strings.Fields(seen), " ")
			for _, want := range []string{"prescribed C", "one candidate", "above one candidate's"} {
				if !strings.Contains(flat, want) {
					t.Errorf("read to its end with t and j, the screen never shows %q:\n%s", want, seen)
				}
			}
			if v := view(); strings.Contains(v[len(v)-1], "↓") {
				t.Errorf("after %d presses of j the screen still says %q", below, v[len(v)-1])
			}
			if h := m.screens[m.active].def.Help; !strings.Contains(h, "t brings the scroll keys") {
				t.Errorf("the help's paragraph of the tuning screen does not say how t scrolls it: %q", h)
			}
		})
	}
}
