package engine

import (
	"context"
	"math"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
)

// TestCalibrationReportsProgress: a dp-sgd prescription under
// ObserveCalibration puts one report per evaluation of the accountant in
// the mailbox before it returns — numbered 1, 2, …, each with the latest
// σ tried and a bracket of the answer — and the last bracket holds the
// calibrated noise multiplier; without a mailbox the context is the
// caller's own.
func TestCalibrationReportsProgress(t *testing.T) {
	mb := NewMailbox[Progress](4096)
	ctx := ObserveCalibration(context.Background(), mb)
	// n = 3217: a sampling rate no other test calibrates (the accountant
	// caches its answers).
	p, err := Prescribe(ctx, resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 3217, Solver: "dp-sgd", Accountant: "rdp"}))
	if err != nil {
		t.Fatal(err)
	}
	got, dropped := mb.Take()
	if dropped != 0 || len(got) < 5 {
		t.Fatalf("%d reports (%d dropped), want the whole bisection", len(got), dropped)
	}
	for i, r := range got {
		c := r.Calibration
		if c == nil || c.Evals != i+1 || c.Accountant != "rdp" || !(c.Sigma > 0) {
			t.Fatalf("report %d: %+v, want evaluation %d of rdp", i, r, i+1)
		}
	}
	last := got[len(got)-1].Calibration
	// Params.Sigma = z·C/B, the noise on the mean of an expected batch B.
	z := p.Params.Sigma * float64(p.Params.Batch) / p.Params.Clip
	if !(last.Lo < z*(1+1e-9) && z <= last.Hi*(1+1e-9)) || math.IsInf(last.Hi, 1) {
		t.Errorf("last bracket (%g, %g], calibrated multiplier %g", last.Lo, last.Hi, z)
	}
	if bg := context.Background(); ObserveCalibration(bg, nil) != bg {
		t.Error("with no mailbox the context changed")
	}
}
