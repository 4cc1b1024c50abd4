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
