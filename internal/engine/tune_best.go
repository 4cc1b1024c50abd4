package engine

import "math"

// PrivateRun is one private run of a tuning call: a solver's tuned
// search or its prescribed run, each meeting the same (ε', δ).
type PrivateRun struct {
	Solver string
	// Tuned: the search's released candidate; else the prescribed run.
	Tuned  bool
	Excess Estimate
	// trials are the per-trial excess risks, in trial order.
	trials []float64
}

// BestPrivate is the private run of the call with the smallest mean
// excess risk over the trials, the runner-up, and their paired difference
// (runner-up minus best, trial by trial on the same draws: mean ± s.e.,
// s.e. NaN with one trial, and the differences' median and quartiles).
type BestPrivate struct {
	Best, Next PrivateRun
	// HasNext: there is a runner-up (a call of one solver without the
	// references has none).
	HasNext bool
	Diff    Estimate
}

// Paired is the paired difference of two runs over the same draws: a −
// b trial by trial (both in trial order), its mean ± s.e. (s.e. NaN with
// one trial) with its median and quartiles; all NaN where the lengths
// differ or there is none. The test of dpso tune's verdicts: a
// difference is clear where its mean is more than 2 s.e. from 0.
func Paired(a, b []float64) Estimate {
	if len(a) != len(b) || len(a) == 0 {
		return nanEstimate()
	}
	d := make([]float64, len(a))
	for i := range d {
		d[i] = a[i] - b[i]
	}
	return estimate(d)
}

// Apart reports whether the best run's lead is more than twice the
// standard error of the paired difference (false with one trial).
func (b BestPrivate) Apart() bool { return b.HasNext && b.Diff.Mean > 2*b.Diff.SE }

// BestPrivate is the call's best private run: among every solver's tuned
// search and, with the references, its prescribed run (both meet the
// budget, tuning included), the one with the smallest mean excess risk
// over the trials; ok is false when no run has one. The choice reads the
// excess risks: on a scenario they are functions of the private outputs
// (population risks), on user rows a non-private diagnostic.
func (r *TuneReport) BestPrivate() (b BestPrivate, ok bool) {
	var runs []PrivateRun
	for _, ts := range r.Solvers {
		if ts.Refused == "" && !math.IsNaN(ts.Tuned.Excess.Mean) {
			xs := make([]float64, len(ts.Tuned.Trials))
			for i, t := range ts.Tuned.Trials {
				xs[i] = t.Excess
			}
			runs = append(runs, PrivateRun{Solver: ts.Solver, Tuned: true, Excess: ts.Tuned.Excess, trials: xs})
		}
		if p := ts.Prescribed; p != nil && p.Refused == "" && !math.IsNaN(p.Excess.Mean) {
			xs := make([]float64, len(p.Trials))
			for i, t := range p.Trials {
				xs[i] = t.Excess
			}
			runs = append(runs, PrivateRun{Solver: ts.Solver, Excess: p.Excess, trials: xs})
		}
	}
	if len(runs) == 0 {
		return b, false
	}
	best := 0
	for i, x := range runs {
		if x.Excess.Mean < runs[best].Excess.Mean {
			best = i
		}
	}
	b.Best = runs[best]
	next := -1
	for i, x := range runs {
		if i != best && (next < 0 || x.Excess.Mean < runs[next].Excess.Mean) {
			next = i
		}
	}
	if next >= 0 && len(runs[next].trials) == len(b.Best.trials) {
		b.Next, b.HasNext = runs[next], true
		b.Diff = Paired(b.Next.trials, b.Best.trials)
	}
	return b, true
}
