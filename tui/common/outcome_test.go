package common

import (
	"errors"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/runs"
)

// TestFailureTextReadsItsPoint: a failed sweep's message names its point
// as the explorer writes numbers, its parameter by the explorer's symbol
// (the engine writes it exactly, as a command line takes it); a failed
// run that is not a sweep keeps the engine's words.
func TestFailureTextReadsItsPoint(t *testing.T) {
	sweep := func(sw engine.SweepSpec, err error) *runs.Run {
		return &runs.Run{Job: runs.Job{Call: backend.Call{Kind: backend.Sweep, SweepSpec: sw}}, Phase: runs.Failed, Err: err}
	}
	for _, tc := range []struct {
		name string
		r    *runs.Run
		want string
	}{
		{"k", sweep(engine.SweepSpec{Param: spec.SweepK, From: 2, To: 8, Points: 5},
			&spec.SpecError{Field: "lf", Msg: "at k = 5.656854249492381: L_f = 10000 < r̃_2k = ∞"}),
			"lf: at k = 5.66: L_f = 10000 < r̃_2k = ∞"},
		{"eps", sweep(engine.SweepSpec{Param: spec.SweepEps, From: 0.1, To: 10, Points: 5},
			&spec.SpecError{Field: "to", Msg: "at eps = 0.316227766016838: no"}),
			"to: at ε = 0.316: no"},
		{"not a sweep", &runs.Run{Phase: runs.Failed, Err: errors.New("at k = 5.656854249492381: x")},
			"at k = 5.656854249492381: x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FailureText(tc.r); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestAboveStartNamesOnlyWhatIsDrawn: a solver that ended above the start
// line is named with that line where it is drawn (F(w₀) − F* > 0); where
// F(w₀) − F* = 0 — the start is the optimum, as in preset 3 — the chart
// draws no start line (the log scale, the legend's "(not drawn)"), so the
// sentence gives the start's value and names no line.
func TestAboveStartNamesOnlyWhatIsDrawn(t *testing.T) {
	run := func(w0 float64, excess ...float64) *runs.Run {
		c := &engine.Comparison{}
		for i, e := range excess {
			c.Reports = append(c.Reports, &engine.Report{Solver: []string{"acsa", "dp-sgd"}[i], Excess: engine.Estimate{Mean: e}, W0: engine.Estimate{Mean: w0}})
		}
		return &runs.Run{Phase: runs.Done, Result: backend.Result{Comparison: c}}
	}
	for _, tc := range []struct {
		name string
		r    *runs.Run
		want string
	}{
		{"drawn, one", run(4, 5), "above w₀ (the start line, 4) at 5: worse than doing nothing"},
		{"drawn, two", run(4, 5, 3), "acsa above w₀ (the start line, 4): worse than doing nothing"},
		{"at the optimum, one", run(0, 0.5), "above w₀'s excess risk 0 (the start is the optimum) at 0.5: worse than doing nothing"},
		{"at the optimum, two", run(0, 0.5, 0.25), "acsa, dp-sgd above w₀'s excess risk 0 (the start is the optimum): worse than doing nothing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := OutcomeOf(tc.r).Text; got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
