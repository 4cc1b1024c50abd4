package engine

import (
	"context"
	"math"
	"sync"
	"time"

	"dpso/solvers/accountant"
)

// Calibration is the state of the noise calibrations of a call's
// prescriptions (dp-sgd's: the accountant's bisection on the noise
// multiplier σ, seconds at large T), as a progress report carries it.
type Calibration struct {
	// Accountant is the accountant of the latest evaluation ("rdp",
	// "pld"); Evals counts the evaluations so far.
	Accountant string
	Evals      int
	// Sigma is the latest σ tried. Lo and Hi bracket the answer from the
	// latest accountant's evaluations: the largest σ tried that missed
	// the target (0 when none yet) and the smallest that met it (+Inf
	// when none yet); Lo ≥ Hi where two grids of the PLD accountant
	// disagree (the bisection then continues on the finer one).
	Sigma, Lo, Hi float64
}

// ObserveCalibration returns ctx carrying an observer that puts a
// Progress with Calibration set into mb after each evaluation of the
// accountant that a calibration under ctx makes (Elapsed counts from this
// call); with mb nil it returns ctx. A calibration answered from the
// accountant's cache reports nothing.
func ObserveCalibration(ctx context.Context, mb *Mailbox[Progress]) context.Context {
	if mb == nil {
		return ctx
	}
	start := time.Now()
	var mu sync.Mutex
	c := Calibration{Hi: math.Inf(1)}
	return accountant.WithCalibrationObserver(ctx, func(s accountant.CalibrationStep) {
		mu.Lock()
		if name := s.Accountant.String(); name != c.Accountant {
			c = Calibration{Accountant: name, Hi: math.Inf(1)}
		}
		c.Evals, c.Sigma = s.Evals, s.Sigma
		if s.Meets {
			c.Hi = math.Min(c.Hi, s.Sigma)
		} else {
			c.Lo = math.Max(c.Lo, s.Sigma)
		}
		snap := c
		mu.Unlock()
		mb.Put(Progress{Calibration: &snap, Elapsed: time.Since(start)})
	})
}
