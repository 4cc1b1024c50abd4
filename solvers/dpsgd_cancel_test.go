package solvers

import (
	"context"
	"errors"
	"testing"
)

// TestDPSGDCalibrationCancelled: dp-sgd's noise calibration, done by
// Prescribe and Run before any step, stops with the context's error
// (Config.Context for Prescribe, Run's own context for Run).
func TestDPSGDCalibrationCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// An ε no other test calibrates to, so that no cached σ answers.
	cfg := Config{Eps: 0.987654, K: 2, Seed: 3, Context: ctx}
	if _, err := (DPSGD{}).Prescribe(tpLinReg, 5000, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("Prescribe: err = %v, want context.Canceled", err)
	}
	cfg.Context = nil
	if _, err := (DPSGD{}).Run(ctx, tpLinReg, tpLinReg.samples(5000, 3, 0), cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("Run: err = %v, want context.Canceled", err)
	}
}
