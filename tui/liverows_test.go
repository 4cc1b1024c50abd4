package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"dpso/internal/spec"
	"dpso/tui/components/form"
	"dpso/tui/components/statusbar"
	"dpso/tui/runs"
)

// TestLiveModeStartsNoRunOnUserRows: with live mode on, a change of a
// field after a short run re-runs it on a scenario's public draws, but on
// the user's rows it starts no run — each run on them is a new release of
// the rows, which composes with every earlier one, so only r starts it —:
// the run shown is marked stale and the state line says, whole (on a row of its own at 80
// columns), that r runs the new release.
func TestLiveModeStartsNoRunOnUserRows(t *testing.T) {
	for _, c := range []struct {
		name  string
		spec  func(*testing.T) spec.Spec
		rerun bool
	}{
		{"scenario", func(*testing.T) spec.Spec { return example1 }, true},
		{"user rows", userDataSpec, false},
	} {
		for _, sz := range [][2]int{{80, 24}, {120, 32}} {
			t.Run(fmt.Sprintf("%s/%dx%d", c.name, sz[0], sz[1]), func(t *testing.T) {
				fr := &fakeRunner{points: 3}
				opts := testOpts(t, fr, time.Millisecond)
				opts.Manual = false
				sp := c.spec(t)
				m := newTestModelOpts(t, opts, &sp, sz[0], sz[1])
				keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
				if el := m.run().Elapsed(m.now()); el >= runs.DefaultLiveMax {
					t.Fatalf("the fake run took %v on the test clock", el)
				}
				m.form.SetFocus(form.Eps)
				_, cmd := m.Update(press("right"))
				if !c.rerun {
					pump(t, m, cmd, func() bool { return m.specRev == m.form.Rev() && prescReady(m) })
					if m.live.Gen != 0 || m.run().ID != 1 {
						t.Fatalf("a change on the user's rows set %d live timers, run #%d shown", m.live.Gen, m.run().ID)
					}
					v := screenText(m)
					for _, want := range []string{"parameters changed since", "live: manual (your rows)"} {
						if !strings.Contains(v, want) {
							t.Errorf("the screen does not say %q:\n%s", want, v)
						}
					}
					// Beside the state where it fits (120 columns), else
					// on a row of its own, whole.
					if !strings.Contains(v, statusbar.RowsReleaseNote) || sz[0] == 80 && !hasLine(v, statusbar.RowsReleaseNote) {
						t.Errorf("the screen does not say %q whole:\n%s", statusbar.RowsReleaseNote, v)
					}
					return
				}
				pump(t, m, cmd, func() bool {
					return m.live.Gen > 0 && m.live.Ticks == m.live.Gen && m.run().ID == 2 && settled(m)
				})
				if !m.run().Live {
					t.Error("the change on a scenario did not re-run live")
				}
				if strings.Contains(screenText(m), statusbar.RowsReleaseNote) {
					t.Error("a scenario's screen speaks of the user's rows")
				}
			})
		}
	}
}

// hasLine says whether a row of v, trimmed, is line.
func hasLine(v, line string) bool {
	for _, l := range strings.Split(v, "\n") {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}
