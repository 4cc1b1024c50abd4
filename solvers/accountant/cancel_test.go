package accountant

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestCalibrateCancelled: a cancelled context stops the calibration at
// its next evaluation of the accountant (dp-sgd's calibration at
// n = 10⁶ took 10–14 s and ignored Ctrl-C).
func TestCalibrateCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, k := range []Kind{RDP, PLD} {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			if _, err := CalibrateContext(ctx, k, ReplaceOne, 0.000256, 19531, 4.37718, 1e-5); !errors.Is(err, context.Canceled) {
				t.Errorf("%v: err = %v, want context.Canceled", k, err)
			}
		})
	}
}

// TestCalibrateUnreachableFailsFast: a target no σ ≤ MaxSigma meets is
// refused with ErrNoSigma after one evaluation at MaxSigma, not after the
// doubling search up to it (PLD: 36 s). The evaluations are counted by the
// calibration's observer.
func TestCalibrateUnreachableFailsFast(t *testing.T) {
	for _, k := range []Kind{RDP, PLD} {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			var steps []CalibrationStep
			ctx := WithCalibrationObserver(context.Background(), func(s CalibrationStep) { steps = append(steps, s) })
			_, err := CalibrateContext(ctx, k, ReplaceOne, 0.5, 100000, 1e-6, 1e-5)
			var ce *CalibrationError
			if !errors.Is(err, ErrNoSigma) || !errors.As(err, &ce) || ce.Steps != 100000 {
				t.Errorf("%v: err = %v, want ErrNoSigma in a CalibrationError", k, err)
			}
			if len(steps) != 1 || steps[0].Sigma != MaxSigma || steps[0].Meets {
				t.Errorf("%v: evaluations %+v, want one, at σ = MaxSigma, missing the target", k, steps)
			}
		})
	}
}
