package runs

import (
	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/backend"
	"testing"
)

// TestPartialSweepPoints: a running sweep's points are the means of the
// trials finished so far, in trial order.
func TestPartialSweepPoints(t *testing.T) {
	r := &Run{Job: Job{Call: backend.Call{Kind: backend.Sweep, Names: []string{"acsa"}, SweepSpec: engine.SweepSpec{Param: spec.SweepN, From: 100, To: 400, Points: 3}, Spec: spec.Resolved{Spec: spec.Spec{Trials: 3}}}}, finals: map[[3]int]float64{{0, 0, 0}: 1, {0, 2, 0}: 3, {0, 1, 2}: 5}}
	xs, ms, ns := r.PartialMeans(0)
	if len(xs) != 3 || ms[0] != 2 || ns[0] != 2 || ns[1] != 0 || ms[2] != 5 || ns[2] != 1 {
		t.Errorf("partialMeans: %v %v %v", xs, ms, ns)
	}
}

// TestOracleRunsCounted: a search's oracle-tuned reference counts, over
// every trial, the highest grid point each trial reported — a batch lost
// from the mailbox or delivered twice counts once — and nothing of the
// search's candidates or the prescribed runs.
func TestOracleRunsCounted(t *testing.T) {
	r := &Run{Job: Job{Call: backend.Call{Kind: backend.Tune, Names: []string{"acsa"}}}, evals: map[[3]int]int64{}}
	r.apply(ProgressMsg{Batch: []engine.Progress{
		{Solver: "acsa", Trial: 0, Iter: 3, Iters: 10, Phase: 1}, // a candidate
		{Solver: "acsa", Trial: 1, Iter: 2, Iters: 20, Phase: 2}, // the prescribed run's second phase
		{Solver: "acsa", Trial: 0, Iter: 1, Iters: 72, Phase: 2, Oracle: true},
		{Solver: "acsa", Trial: 0, Iter: 4, Iters: 72, Phase: 2, Oracle: true},
		{Solver: "acsa", Trial: 1, Iter: 2, Iters: 72, Phase: 2, Oracle: true},
	}})
	r.apply(ProgressMsg{Batch: []engine.Progress{{Solver: "acsa", Trial: 0, Iter: 4, Iters: 72, Phase: 2, Oracle: true}}})
	if got := r.OracleRuns(); got != 6 {
		t.Errorf("oracle runs %d, want 4 + 2", got)
	}
}
