package tui

import (
	"strings"
	"testing"

	"dpso/tui/runs"
)

// TestUnfinishedSweepPrivacyPanel: while a sweep runs or is paused, its
// privacy panel says first that its points release on one draw — where it
// gave the point shown's budget alone ("at ε = 3.16 … ε' = 17.9") with
// the sweep's total nowhere — and, for a clip sweep, whose points also
// run without noise on the same draw, that what it shows is not private.
func TestUnfinishedSweepPrivacyPanel(t *testing.T) {
	for _, c := range []struct{ key, want string }{
		{"v", "ε sweep paused: its "},
		{"x", "C sweep paused: its "},
	} {
		t.Run(c.key, func(t *testing.T) {
			m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
			_, cmd := m.Update(press(c.key))
			pump(t, m, cmd, func() bool { return m.run() != nil && m.run().Active() })
			m.Update(press("space"))
			r := m.run()
			if r == nil || r.Phase != runs.Paused {
				t.Fatalf("the sweep is not paused: %+v", r)
			}
			lines := strings.Split(stripANSI(m.privacy.View()), "\n")
			top := strings.Join(strings.Fields(strings.Join(lines[1:min(4, len(lines))], " ")), " ")
			if !strings.HasPrefix(top, c.want) {
				t.Errorf("the panel does not begin %q:\n%s", c.want, strings.Join(lines, "\n"))
			}
			if c.key == "x" && !strings.Contains(top, "not private (each point also runs without noise on the same draw)") {
				t.Errorf("the clip sweep's panel does not say it is not private:\n%s", strings.Join(lines, "\n"))
			}
		})
	}
}
