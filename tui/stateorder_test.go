package tui

import (
	"strings"
	"testing"
	"time"

	"dpso/internal/engine"
	"dpso/internal/statestring"
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// TestStateRunWaitsForItsConstants: a state string opened (a broadcast
// accepted, dpso explore --state, a browser link) starts its run — the
// one it names, or the sweep or search its screen runs when shown — only
// after its Spec's constants have come, as a preset's action does: the
// status bar says "◌ computing the constants, then …" meanwhile, and the
// events come in the order constants asked, constants came, run asked.
// Also where the state's screen is the one already shown.
func TestStateRunWaitsForItsConstants(t *testing.T) {
	clip := presets.All[3] // preset 4: its screen is the clipping sweep
	cases := []struct {
		name   string
		st     statestring.State
		before runs.ScreenKind // the screen shown when it is opened
	}{
		{"clip screen", statestring.State{Spec: clip.Spec, Screen: string(screens.ClipKind)}, screens.ChartKind},
		{"clip screen, already shown", statestring.State{Spec: clip.Spec, Screen: string(screens.ClipKind)}, screens.ClipKind},
		{"chart with r", statestring.State{Spec: clip.Spec, Screen: string(screens.ChartKind), Run: statestring.RunKey}, screens.ChartKind},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := &orderRunner{fakeRunner: &fakeRunner{points: 3}, reports: make(chan engine.Queue)}
			opts := testOpts(t, o.fakeRunner, 100*time.Millisecond)
			opts.Runner = o
			opts.Preset = 2 // another preset's constants: none of the state's are cached
			m := newTestModelOpts(t, opts, nil, 120, 32)
			if c.before != screens.ChartKind {
				m.display(m.screenIndex(c.before), false)
			}
			o.mu.Lock()
			o.log = nil
			o.mu.Unlock()
			o.gate = make(chan struct{})
			_, cmd := m.Update(OpenState(c.st))
			pump(t, m, cmd, func() bool {
				return o.events() == "constants asked" && strings.Contains(statusLine(m), "◌ computing the constants, then ")
			})
			if m.run() != nil {
				t.Fatalf("a run is asked for while its constants are computed: %s", o.events())
			}
			close(o.gate)
			pump(t, m, nil, func() bool { return settled(m) && m.run() != nil && !m.run().Active() })
			if got, want := o.events(), "constants asked, constants came, run asked"; got != want {
				t.Errorf("events %q, want %q", got, want)
			}
			if got := m.shownKind(); got != runs.ScreenKind(c.st.Screen) {
				t.Errorf("opened on %s, want %s", got, c.st.Screen)
			}
		})
	}
}
