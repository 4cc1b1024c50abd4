package accountant

import (
	"context"
	"sync/atomic"
)

// CalibrationStep is one evaluation of the accountant inside a
// calibration ([CalibrateContext]): the noise multiplier tried, whether
// ε'(σ) met the target there, and how many evaluations the calibrations
// under the observer's context have made so far (this one included). A
// PLD calibration first calibrates with RDP (its fail-fast check), then
// bisects on a coarse grid and checks the answer on the fine one: its
// steps say which accountant made them.
type CalibrationStep struct {
	Accountant Kind
	Sigma      float64
	Meets      bool
	Evals      int
}

type observerKey struct{}

type observer struct {
	f     func(CalibrationStep)
	evals atomic.Int64
}

// WithCalibrationObserver returns a context carrying f: a calibration
// under it calls f after each evaluation of the accountant (a calibration
// at large T takes seconds: a progress display). f runs on the
// calibrating goroutine, possibly on several at once (the trials of a
// sweep): it must be safe for that and return quickly. A result served
// from the cache makes no step.
func WithCalibrationObserver(ctx context.Context, f func(CalibrationStep)) context.Context {
	return context.WithValue(ctx, observerKey{}, &observer{f: f})
}

// observeStep reports one evaluation to ctx's observer, if any.
func observeStep(ctx context.Context, k Kind, sigma float64, meets bool) {
	if o, ok := ctx.Value(observerKey{}).(*observer); ok {
		o.f(CalibrationStep{Accountant: k, Sigma: sigma, Meets: meets, Evals: int(o.evals.Add(1))})
	}
}
