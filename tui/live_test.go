package tui

import (
	"dpso/tui/components/form"
	"dpso/tui/runs"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// liveModel is the explorer in live mode whose clock advances by step at
// every reading (so a run's measured time is a multiple of step).
func liveModel(t *testing.T, fr *fakeRunner, step time.Duration) *Model {
	opts := testOpts(t, fr, step)
	opts.Manual = false
	return newTestModelOpts(t, opts, &example1, 132, 42)
}

// TestLiveMode: after a run that took under a second,
// a change re-runs it by itself once the changes stop (debounced: two
// quick changes, one run); a comparison is re-run as a comparison.
func TestLiveMode(t *testing.T) {
	fr := &fakeRunner{points: 3}
	m := liveModel(t, fr, time.Millisecond)
	if !strings.Contains(screenText(m), "live on (a)") {
		t.Errorf("the status bar does not show live mode:\n%s", screenText(m))
	}
	// Before any run, a change starts nothing.
	m.form.SetFocus(form.Eps)
	formKeys(t, m, "right")
	if m.live.Gen != 0 {
		t.Error("a change before any run set the live timer")
	}
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Phase == runs.Done })
	if el := m.run().Elapsed(m.now()); el >= runs.DefaultLiveMax {
		t.Fatalf("the fake comparison took %v on the test clock", el)
	}
	// Two quick changes: one re-run, of the last Spec, after both timers.
	_, c1 := m.Update(press("right"))
	_, c2 := m.Update(press("right"))
	// Every timer set (liveGen counts them; a change delivered after a
	// newer one sets none) has fired, and the re-run finished.
	pump(t, m, tea.Batch(c1, c2), func() bool {
		return m.live.Gen > 0 && m.live.Ticks == m.live.Gen && m.run().ID == 2 && m.run().Phase == runs.Done
	})
	r := m.run()
	if !r.Live || !r.Compare || r.Spec.Spec.Eps != m.form.Resolved().Spec.Eps || r.Spec.Spec.Eps != 10 {
		t.Errorf("live re-run: live %v, compare %v, ε %v (form's %v)", r.Live, r.Compare, r.Spec.Spec.Eps, m.form.Resolved().Spec.Eps)
	}
	// The status bar says the run is a live re-run: run numbers count
	// those too, so a jump from #1 to #3 at the next preset is explained.
	if v := screenText(m); !strings.Contains(v, "run #2 (live re-run)") {
		t.Errorf("the status bar does not name the live re-run:\n%s", v)
	}
	fr.mu.Lock()
	if fr.compares != 2 {
		t.Errorf("%d comparisons ran, want 2 (the first and one live re-run)", fr.compares)
	}
	fr.mu.Unlock()
	// a turns live mode off: a change then waits for r.
	keyUntil(t, m, "a", func() bool { return strings.Contains(screenText(m), "live off (a)") })
	gen := m.live.Gen
	formKeys(t, m, "left")
	if m.live.Gen != gen {
		t.Error("live mode off, but a change set the timer")
	}
}

// TestLiveModeLeavesLongRunsManual: a run that took live mode's longest
// run (Options.LiveMax, 2 s by default) or more is not re-run by a
// change; the status bar says why, with both durations.
func TestLiveModeLeavesLongRunsManual(t *testing.T) {
	m := liveModel(t, &fakeRunner{points: 3}, 2*time.Second)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
	if el := m.run().Elapsed(m.now()); el < runs.DefaultLiveMax {
		t.Fatalf("the run took %v on the test clock, want ≥ %v", el, runs.DefaultLiveMax)
	}
	m.form.SetFocus(form.Eps)
	formKeys(t, m, "right")
	if m.live.Gen != 0 {
		t.Error("a change after a long run set the live timer")
	}
	if v := screenText(m); !strings.Contains(v, "live: manual (run 2.0 s ≥ 2.0 s)") || !strings.Contains(v, "parameters changed since: press r") {
		t.Errorf("the screen after a change that live mode leaves to r:\n%s", v)
	}
}

// TestLiveMaxIsSettable: with Options.LiveMax above a run's time, live
// mode repeats it after a change (the default, 2 s, would not: see
// TestLiveModeLeavesLongRunsManual).
func TestLiveMaxIsSettable(t *testing.T) {
	opts := testOpts(t, &fakeRunner{points: 3}, 2*time.Second)
	opts.Manual, opts.LiveMax = false, time.Minute
	m := newTestModelOpts(t, opts, &example1, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
	if el := m.run().Elapsed(m.now()); el < runs.DefaultLiveMax || el >= time.Minute {
		t.Fatalf("the run took %v on the test clock, want between %v and a minute", el, runs.DefaultLiveMax)
	}
	m.form.SetFocus(form.Eps)
	_, cmd := m.Update(press("right"))
	pump(t, m, cmd, func() bool { return m.live.Gen > 0 && m.live.Ticks == m.live.Gen && m.run().ID == 2 && settled(m) })
	if !m.run().Live {
		t.Error("the change did not re-run the run under the raised limit")
	}
}
