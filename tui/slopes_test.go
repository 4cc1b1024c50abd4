package tui

import (
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/theory"
	"dpso/tui/style"
)

// TestSlopesNotesWrap: a bound's rate note is wrapped in full when the
// panel has the rows (mean-hard's sweep cut it at "lf from 4.239…",
// before the explanation, over three empty rows); on a panel too short
// for every note wrapped, each note keeps one line and the closing
// sentence stays.
func TestSlopesNotesWrap(t *testing.T) {
	st := style.New(true, true)
	note := "local rate withheld: the scenario's constants change with n here (lf from 4.239 to 16.96), so the analytic rate at fixed constants is not the slope along this sweep; the fitted slope is that of the bound's values along this grid"
	rep := &engine.SweepReport{
		Solvers: []string{"clipped-sgd"},
		Slopes:  []engine.Slope{{Solver: "clipped-sgd", Slope: -1, Lo: -1.02, Hi: -0.98, Points: 5}},
		Bounds:  []engine.BoundSlope{{ID: "lipschitz", Kind: theory.Prior, Slope: -0.03, RateNote: note}},
		Points:  []engine.SweepPoint{{Value: 625}, {Value: 10000}},
	}
	for _, tc := range []struct {
		w, h int
		full bool
	}{{84, 16, true}, {84, 6, false}} {
		p := &slopesPanel{sweepPanel: sweepPanel{common: common{st: &st}}, axis: &sweepNAxis}
		p.SetSize(tc.w, tc.h)
		p.set(rep, "")
		v := style.StripANSI(p.View())
		flat := strings.Join(strings.Fields(v), " ")
		if got := strings.Contains(flat, note); got != tc.full {
			t.Errorf("%d×%d: the whole note shown = %v, want %v:\n%s", tc.w, tc.h, got, tc.full, v)
		}
		if !strings.Contains(flat, "compare slopes") && tc.h > 4 {
			t.Errorf("%d×%d: the closing sentence is missing:\n%s", tc.w, tc.h, v)
		}
	}
}

// TestOneTrialIsSingular: a one-trial run's chart title says "1 trial"
// (explore --data runs one trial by default; it said "1 trials"), and so
// does the comparison's.
func TestOneTrialIsSingular(t *testing.T) {
	sp := example1
	sp.Trials = 1
	for _, k := range []string{"r", "c"} {
		m := newTestModel(t, &fakeRunner{points: 4}, &sp, 132, 42)
		keyUntil(t, m, k, func() bool { return settled(m) })
		if v := screenText(m); strings.Contains(v, "1 trials") || !strings.Contains(v, "#1 · 1 trial") {
			t.Errorf("%s with one trial:\n%s", k, v)
		}
	}
	if got := trialCount(1) + ", " + trialCount(5); got != "1 trial, 5 trials" {
		t.Errorf("trialCount: %q", got)
	}
}
