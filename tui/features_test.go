package tui

import (
	"math"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// typeKeys presses the runes of text one by one (a value typed in one
// sequence), then pumps until the form's Spec reached the root.
func typeKeys(t *testing.T, m *Model, text string, then ...string) {
	t.Helper()
	var cmds []tea.Cmd
	for _, r := range text {
		_, c := m.Update(press(string(r)))
		cmds = append(cmds, c)
	}
	for _, k := range then {
		_, c := m.Update(press(k))
		cmds = append(cmds, c)
	}
	pump(t, m, tea.Batch(cmds...), func() bool { return m.specRev == m.form.rev && prescReady(m) })
}

// TestTypedValues (issue 14, wish 11): on a numeric field, digits type a
// value in place; enter sets it, with the flag's parsing (300000, 3e5, and
// the explorer's own 3·10⁵) and the Spec's resolution; esc cancels; ← →
// still step the grid.
func TestTypedValues(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	f := m.form
	f.SetFocus(fN)
	for _, text := range []string{"3·10⁵", "300000", "3e5", "3×10^5"} {
		formKeys(t, m, "left") // back to the grid: 5000
		if f.Resolved().Spec.N == 300000 {
			t.Fatal("n did not leave 3·10⁵")
		}
		typeKeys(t, m, text, "enter")
		if got := f.Resolved().Spec.N; got != 300000 || f.Editing() {
			t.Errorf("n typed as %q: %d (editing %v, refusal %q)", text, got, f.Editing(), f.refused)
		}
	}
	formKeys(t, m, "right")
	if got := f.Resolved().Spec.N; got != 500000 {
		t.Errorf("→ from a typed n = 3·10⁵: %d, want the grid's 5·10⁵", got)
	}
	f.SetFocus(fSeed)
	typeKeys(t, m, "1234", "enter")
	f.SetFocus(fTrials)
	typeKeys(t, m, "50", "enter")
	f.SetFocus(fK)
	typeKeys(t, m, "inf", "enter")
	if rs := f.Resolved().Spec; rs.Seed != 1234 || rs.Trials != 50 || !math.IsInf(rs.K, 1) {
		t.Errorf("seed %d, trials %d, k %v; want 1234, 50, ∞", rs.Seed, rs.Trials, rs.K)
	}
	if got := m.status.reproduce(); !strings.Contains(got, "--n 500000") || !strings.Contains(got, "--seed 1234") || !strings.Contains(got, "--trials 50") {
		t.Errorf("the reproduce line does not carry the typed values: %q", got)
	}

	// Refusals: the flag's range for a typed 0 (which the Spec reads as its
	// default), integers, the Spec's own rules; the Spec is unchanged.
	for _, c := range []struct {
		field fieldID
		text  string
		want  string
	}{
		{fN, "0", "n: n = 0 is outside [2, 10⁸]"},
		{fN, "2.5", `n: "2.5" is not an integer in [2, 10⁸]`}, // the CLI's --n message
		{fN, "2e8", "n: n = 200000000 is outside [2, 10⁸]"},
		{fN, "1e99", "n: n = 10⁹⁹ is outside [2, 10⁸]"}, // not 100 digits
		{fN, "1..2", `n: "1..2" is not an integer in [2, 10⁸]`},
		{fTrials, "1x", `trials: "1x" is not an integer in [1, 10000]`},
		{fEps, "1abc", `ε: "1abc" is not a number in [10⁻¹⁰⁰, ∞]`},
		{fK, "2,5", `k: "2,5" is not a number in [2, ∞]`},
		{fK, "1", "k: k = 1 is outside [2, ∞]"},
		{fEps, "0", "ε: ε = 0 is outside [10⁻¹⁰⁰, ∞]"},
		{fTrials, "0", "trials: trials = 0 is outside [1, 10000]"},
		{fD, "5", "d: example1 is defined with d = 1; it cannot be changed"},
		{fSeed, "1.5", `seed: "1.5" is not an integer in [0, 2⁶⁴−1]`},
	} {
		f.SetFocus(c.field)
		before := runKey(f.Resolved())
		typeKeys(t, m, c.text, "enter")
		if _, msg := f.Refusal(); !strings.Contains(msg, c.want) || runKey(f.Resolved()) != before {
			t.Errorf("%s typed %q: refusal %q, want %q; Spec changed %v", fields[c.field].label, c.text, msg, c.want, runKey(f.Resolved()) != before)
		}
	}

	// esc cancels; letters go into the value while it is typed, not to the
	// explorer's keys.
	f.SetFocus(fN)
	before := f.Resolved().Spec.N
	typeKeys(t, m, "7s", "esc")
	if f.Editing() || f.Resolved().Spec.N != before || m.active != 0 || m.run() != nil {
		t.Errorf("esc: editing %v, n %d, screen %d, run %v", f.Editing(), f.Resolved().Spec.N, m.active, m.run())
	}
	// Non-numeric fields do not type.
	f.SetFocus(fClass)
	m.Update(press("3"))
	if f.Editing() {
		t.Error("the class field started typing")
	}
}

// liveModel is the explorer in live mode whose clock advances by step at
// every reading (so a run's measured time is a multiple of step).
func liveModel(t *testing.T, fr *fakeRunner, step time.Duration) *Model {
	opts := testOpts(t, fr, step)
	opts.Manual = false
	return newTestModelOpts(t, opts, &example1, 132, 42)
}

// TestLiveMode (issue 14, wish 13): after a run that took under a second,
// a change re-runs it by itself once the changes stop (debounced: two
// quick changes, one run); a comparison is re-run as a comparison.
func TestLiveMode(t *testing.T) {
	fr := &fakeRunner{points: 3}
	m := liveModel(t, fr, time.Millisecond)
	if !strings.Contains(screenText(m), "live on (a)") {
		t.Errorf("the status bar does not show live mode:\n%s", screenText(m))
	}
	// Before any run, a change starts nothing.
	m.form.SetFocus(fEps)
	formKeys(t, m, "right")
	if m.live.gen != 0 {
		t.Error("a change before any run set the live timer")
	}
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().phase == phaseDone })
	if el := m.run().elapsed(m.now()); el >= defaultLiveMax {
		t.Fatalf("the fake comparison took %v on the test clock", el)
	}
	// Two quick changes: one re-run, of the last Spec, after both timers.
	_, c1 := m.Update(press("right"))
	_, c2 := m.Update(press("right"))
	// Every timer set (liveGen counts them; a change delivered after a
	// newer one sets none) has fired, and the re-run finished.
	pump(t, m, tea.Batch(c1, c2), func() bool {
		return m.live.gen > 0 && m.live.ticks == m.live.gen && m.run().id == 2 && m.run().phase == phaseDone
	})
	r := m.run()
	if !r.live || !r.compare || r.spec.Spec.Eps != m.form.Resolved().Spec.Eps || r.spec.Spec.Eps != 10 {
		t.Errorf("live re-run: live %v, compare %v, ε %v (form's %v)", r.live, r.compare, r.spec.Spec.Eps, m.form.Resolved().Spec.Eps)
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
	gen := m.live.gen
	formKeys(t, m, "left")
	if m.live.gen != gen {
		t.Error("live mode off, but a change set the timer")
	}
}

// TestLiveModeLeavesLongRunsManual: a run that took live mode's longest
// run (Options.LiveMax, 2 s by default) or more is not re-run by a
// change; the status bar says why, with both durations.
func TestLiveModeLeavesLongRunsManual(t *testing.T) {
	m := liveModel(t, &fakeRunner{points: 3}, 2*time.Second)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone })
	if el := m.run().elapsed(m.now()); el < defaultLiveMax {
		t.Fatalf("the run took %v on the test clock, want ≥ %v", el, defaultLiveMax)
	}
	m.form.SetFocus(fEps)
	formKeys(t, m, "right")
	if m.live.gen != 0 {
		t.Error("a change after a long run set the live timer")
	}
	if v := screenText(m); !strings.Contains(v, "live: manual (run 2.0 s ≥ 2.0 s)") || !strings.Contains(v, "parameters changed since: press r") {
		t.Errorf("the screen after a change that live mode leaves to r:\n%s", v)
	}
}
