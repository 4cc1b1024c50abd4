package tui

import (
	"strings"
	"testing"
)

// statusLine is the status bar's first line as shown.
func statusLine(m *Model) string {
	return strings.Split(screenText(m), "\n")[m.height-3]
}

// TestStatusDescribesTheShownRun: after a run, a comparison and a sweep,
// going back to the chart (s again) shows the comparison, and the status
// bar, the help's outcome and the privacy panel describe it — not the
// sweep, the last job started; on the sweep screen they describe the
// sweep, on the clipping screen the clipping sweep, on the moment profile
// (whose r runs on the chart) the chart's run.
func TestStatusDescribesTheShownRun(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 5}, &example1, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone })
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().compare && m.run().phase == phaseDone })
	cmpID := m.run().id
	keyUntil(t, m, "s", func() bool { return sweepSettled(m) })
	if got := statusLine(m); !strings.HasPrefix(got, "✓ done sweep") {
		t.Errorf("on the sweep screen after its sweep: %q", got)
	}
	for _, step := range []struct {
		key, want string
		id        int
	}{
		{"s", "✓ done comparison", cmpID}, // back to the chart
		{"m", "✓ done comparison", cmpID}, // the moment profile: r runs on the chart
		{"esc", "✓ done comparison", cmpID},
		{"s", "✓ done sweep", cmpID + 1},
	} {
		keyUntil(t, m, step.key, func() bool { return true })
		got := statusLine(m)
		if !strings.HasPrefix(got, step.want) || !strings.Contains(got, "run #"+itoa(step.id)) {
			t.Errorf("after %s (screen %d): status %q, want %q of run #%d", step.key, m.active, got, step.want, step.id)
		}
		if r := m.privacy.runs.shown(); r == nil || r.id != step.id {
			t.Errorf("after %s: the privacy panel does not describe run #%d", step.key, step.id)
		}
	}
	// The help repeats the outcome of the run on screen: on the chart the
	// comparison's (solvers above w₀), not the sweep's (none).
	keyUntil(t, m, "s", func() bool { return m.active == 0 })
	msgs := m.help.messages()
	if len(msgs) == 0 || !strings.HasPrefix(msgs[0].text, "run #"+itoa(cmpID)+": ") {
		t.Errorf("the help's outcome on the chart: %+v", msgs)
	}
	// A clipping sweep, then the chart: the chart's comparison again.
	keyUntil(t, m, "x", func() bool { return clipSettled(m) })
	if got := statusLine(m); !strings.HasPrefix(got, "✓ done clipping sweep") {
		t.Errorf("on the clipping screen: %q", got)
	}
	keyUntil(t, m, "x", func() bool { return m.active == 0 })
	if got := statusLine(m); !strings.HasPrefix(got, "✓ done comparison") {
		t.Errorf("back on the chart after the clipping sweep: %q", got)
	}
}
