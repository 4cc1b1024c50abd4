package accountant

import (
	"context"
	"testing"
)

// TestCalibrationObserverSeesTheBisection: an RDP calibration under an
// observer reports every evaluation, numbered 1, 2, …; the σ it returns
// is one it tried that met the target, and a σ within CalibrateTol below
// it was tried and missed (the bisection's invariant, seen from outside);
// the same question again is answered from the cache, with no step.
func TestCalibrationObserverSeesTheBisection(t *testing.T) {
	var steps []CalibrationStep
	ctx := WithCalibrationObserver(context.Background(), func(s CalibrationStep) { steps = append(steps, s) })
	const q, T, eps, delta = 0.0123, 1234, 1.37, 1e-6
	sigma, err := CalibrateContext(ctx, RDP, ReplaceOne, q, T, eps, delta)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) < 5 {
		t.Fatalf("%d steps, want the whole bisection (≥ 5)", len(steps))
	}
	met, missedBelow := false, false
	for i, s := range steps {
		if s.Evals != i+1 || s.Accountant != RDP {
			t.Errorf("step %d: %+v, want evaluation %d of RDP", i, s, i+1)
		}
		met = met || (s.Meets && s.Sigma == sigma)
		missedBelow = missedBelow || (!s.Meets && s.Sigma < sigma && s.Sigma >= sigma/(1+CalibrateTol)*(1-1e-12))
	}
	if !met || !missedBelow {
		t.Errorf("σ = %g: tried and met %v, a σ within tol below tried and missed %v", sigma, met, missedBelow)
	}
	steps = nil
	if again, err := CalibrateContext(ctx, RDP, ReplaceOne, q, T, eps, delta); err != nil || again != sigma || len(steps) != 0 {
		t.Errorf("cached calibration: σ = %g, %v, %d steps; want %g, nil, 0", again, err, len(steps), sigma)
	}
}
