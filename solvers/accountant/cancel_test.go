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
// doubling search up to it (PLD: 36 s). The evaluations are counted
// through the context's Err, which every evaluation reads once.
func TestCalibrateUnreachableFailsFast(t *testing.T) {
	for _, k := range []Kind{RDP, PLD} {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			ctx := &countingCtx{Context: context.Background()}
			_, err := CalibrateContext(ctx, k, ReplaceOne, 0.5, 100000, 1e-6, 1e-5)
			var ce *CalibrationError
			if !errors.Is(err, ErrNoSigma) || !errors.As(err, &ce) || ce.Steps != 100000 {
				t.Errorf("%v: err = %v, want ErrNoSigma in a CalibrationError", k, err)
			}
			// PLD asks RDP first (its fail-fast); each asks σ = MaxSigma once.
			if want := map[Kind]int{RDP: 1, PLD: 2}[k]; ctx.n > want+2 {
				t.Errorf("%v: %d evaluations, want about %d", k, ctx.n, want)
			}
		})
	}
}

// countingCtx counts the calls of Err.
type countingCtx struct {
	context.Context
	n int
}

func (c *countingCtx) Err() error { c.n++; return nil }
