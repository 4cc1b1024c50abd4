package tui

import (
	"fmt"
	"testing"
	"time"
)

// TestPresetRunNumbersConsecutive: loading one preset after another from
// the presets list (live mode on, as the program starts) starts exactly
// one run each, so the status bar's run numbers follow on (#1, #2): no
// hidden run is started and cancelled in between.
func TestPresetRunNumbersConsecutive(t *testing.T) {
	for _, seq := range [][2]string{{"2", "3"}, {"3", "2"}, {"1", "2"}, {"2", "4"}} {
		t.Run(fmt.Sprintf("preset %s then %s", seq[0], seq[1]), func(t *testing.T) {
			opts := testOpts(t, &fakeRunner{points: 3}, 10*time.Millisecond)
			opts.Manual = false
			m := newTestModelOpts(t, opts, nil, 80, 24)
			for i, k := range seq {
				keyUntil(t, m, "p", func() bool { return m.overlay != nil })
				keyUntil(t, m, k, func() bool { return settled(m) && m.run().ID == i+1 })
				// Let every message already under way arrive (the spec, the
				// prescription, a live timer if one was set).
				pump(t, m, nil, func() bool { return prescReady(m) && m.specRev == m.form.Rev() })
			}
			if id := m.run().ID; id != 2 {
				t.Errorf("presets %v: %d runs started, want 2", seq, id)
			}
		})
	}
}
