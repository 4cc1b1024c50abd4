package tui

import (
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/runs"
)

// longFake is a fake runner whose comparisons at n above 1300 plan 10¹¹
// floats on one worker (3 min 40 s to 6 min 30 s at runs.PaceLow and
// PaceHigh: long), and whose smaller n is 1300 at 5·10⁹ floats (11 s to
// 19.5 s).
func longFake() *fakeRunner {
	return &fakeRunner{points: 4, long: 1e11, fitN: 1300, fitWork: 5e9}
}

// heldNoted: the current run is held at its long plan, nothing of it has
// run, the note shows it and its smaller n is known.
func heldNoted(m *Model) bool {
	r := m.run()
	return r != nil && r.Held != nil && m.overlay == m.long && strings.Contains(screenText(m), "run at n = "+theory.FormatCount(1300)+" instead")
}

// TestLongRunNote: c on a comparison whose plan is long holds it before
// its first trial and shows the note — the work, the estimate labelled
// as one with its pace and source, the smaller n that fits (computed by
// the runner's FitN) — at 80×24 and 132×42; s runs at that n (the form
// takes it), enter runs the held run as it is, esc cancels it.
func TestLongRunNote(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {132, 42}} {
		m := newTestModel(t, longFake(), &example1, sz[0], sz[1])
		keyUntil(t, m, "c", func() bool { return heldNoted(m) })
		if ev := m.run().TotalEvals(); ev != 0 {
			t.Errorf("%d gradient evaluations reported while held, want none", ev)
		}
		golden(t, "screen-longrun-"+itoa(sz[0])+"x"+itoa(sz[1]), m.render())
		keyUntil(t, m, "esc", func() bool { return m.run().Phase == runs.Cancelled }) // nothing left held
	}
	for _, tc := range []struct {
		key   string
		phase runs.Phase
		n     int
	}{
		{"s", runs.Done, 1300},
		{"enter", runs.Done, example1.N},
		{"esc", runs.Cancelled, example1.N},
	} {
		t.Run(tc.key, func(t *testing.T) {
			m := newTestModel(t, longFake(), &example1, 80, 24)
			keyUntil(t, m, "c", func() bool { return heldNoted(m) })
			held := m.run().ID
			keyUntil(t, m, tc.key, func() bool { r := m.run(); return r.Phase == tc.phase && (settled(m) || r.Phase == runs.Cancelled) })
			r := m.run()
			if r.Phase != tc.phase || r.Spec.Spec.N != tc.n || m.form.Spec().N != tc.n || m.overlay != nil {
				t.Errorf("after %s: run #%d %v at n = %d (form n = %d, overlay %v), want %v at n = %d", tc.key, r.ID, r.Phase, r.Spec.Spec.N, m.form.Spec().N, m.overlay != nil, tc.phase, tc.n)
			}
			if tc.key == "s" && r.ID == held {
				t.Errorf("s went on with the held run #%d, want a new run at the smaller n", held)
			}
			if tc.key != "s" && r.ID != held {
				t.Errorf("%s started run #%d, want the held run #%d to go on or end", tc.key, r.ID, held)
			}
		})
	}
}

// TestLongRunNoteEngine: on the real engine, r on acsa at n = 2·10⁶,
// d = 1000, 8 trials on one worker plans 8·1001·(2·10⁶ + its gradient
// evaluations) ≈ 3.2·10¹⁰ floats (past 30 s at 2.2 ns): the run is held
// before its first trial, and the smaller n the note offers is the
// engine's (engine.FitN: its plan within runs.FitWork of one core).
func TestLongRunNoteEngine(t *testing.T) {
	s := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, N: 2000000, D: 1000, Trials: 8, Workers: 1, Solver: "acsa"}
	m := newEngineModel(t, &s, 80, 24)
	keyUntil(t, m, "r", func() bool { return m.run() != nil && m.run().Held != nil && m.long.Fit() != nil })
	f := m.long.Fit()
	if f.Err != nil || f.N <= 0 || f.N >= s.N || f.Plan.Work > runs.FitWork(1) || !runs.Long(*m.run().Held) {
		t.Errorf("held plan %+v, smaller n %d at %+v (err %v): want a long plan and an n below %d within %v floats", *m.run().Held, f.N, f.Plan, f.Err, s.N, runs.FitWork(1))
	}
	if ev := m.run().TotalEvals(); ev != 0 {
		t.Errorf("%d gradient evaluations while held, want none", ev)
	}
	if !strings.Contains(screenText(m), "run at n = "+theory.FormatCount(f.N)+" instead") {
		t.Errorf("the note does not offer n = %d:\n%s", f.N, screenText(m))
	}
	keyUntil(t, m, "esc", func() bool { return m.run().Phase == runs.Cancelled && m.overlay == nil })
}
