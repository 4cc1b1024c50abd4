package engine

import (
	"context"
	"math"
	"runtime"

	"dpso/internal/spec"
)

// PlanCompare is the Plan that Compare(ctx, r, names, set) would give
// set.Plan, computed without running a trial: the problem built and every
// solver prescribed as Compare does (the same budget split, the same
// refusals), so that a caller can say what a comparison costs, and offer
// a smaller one, before it starts. Work is Σ over trials of
// (d + 1)·(n + Σ over the solvers that run of their planned gradient
// evaluations) (see Plan); Workers is r.Spec.Workers, or GOMAXPROCS.
func PlanCompare(ctx context.Context, r spec.Resolved, names []string) (Plan, error) {
	if len(names) == 0 {
		names = []string{r.Solver.Name()}
	}
	names, _ = spec.CanonicalNames(names)
	if err := splitAllowed(r, names); err != nil {
		return Plan{}, err
	}
	r, err := r.ForReleases(r.Releases(len(names), 1))
	if err != nil {
		return Plan{}, err
	}
	u, err := newUnit(ctx, r, names, 0, nil)
	if err != nil {
		return Plan{}, err
	}
	workers := r.Spec.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	pl := Plan{Jobs: r.Spec.Trials, Workers: workers, Work: float64(r.Spec.Trials) * u.cost()}
	for range r.Spec.Trials {
		pl.Reads = u.planReads(pl.Reads)
	}
	return pl, nil
}

// MinFitN is the smallest n FitN offers.
const MinFitN = 100

// FitN is the largest n below r's, written with two significant digits,
// at which the comparison of names plans at most maxWork floats
// (PlanCompare at r.At(n)), with that plan; 0 when none from MinFitN up
// does: a multi-pass solver's work budget that binds at every n, a d or a
// number of trials whose draws alone pass maxWork, a rule of the Spec or
// of a solver that refuses the smaller n, or user data (their n is the
// file's rows). The search steps down by the ratio of the work to
// maxWork (work grows at least linearly in n, so a step undershoots only
// where it grows faster), then halves the log-interval between the
// largest n that fits and the smallest that does not, a few plans in all.
func FitN(ctx context.Context, r spec.Resolved, names []string, maxWork float64) (int, Plan, error) {
	if r.UserRows() || r.Spec.N <= MinFitN || !(maxWork > 0) {
		return 0, Plan{}, nil
	}
	plan := func(n int) (Plan, bool, error) {
		rn, err := r.At(spec.SweepN, float64(n))
		if err != nil {
			return Plan{}, false, nil // the Spec's rules refuse this n
		}
		pl, err := PlanCompare(ctx, rn, names)
		if ctx.Err() != nil {
			return Plan{}, false, ctx.Err()
		}
		if err != nil {
			return Plan{}, false, nil
		}
		return pl, pl.Work <= maxWork, nil
	}
	hi, hiWork := r.Spec.N, 0.0 // the smallest n known not to fit
	if pl, ok, err := plan(hi); err != nil || ok {
		return 0, Plan{}, err // it fits: nothing smaller to offer
	} else {
		hiWork = pl.Work
	}
	lo, loPlan := 0, Plan{}
	for range 12 {
		if lo > 0 && hi <= lo+lo/8 {
			break // within one eighth: two digits say no more
		}
		var n int
		if lo == 0 {
			n = int(float64(hi) * min(0.9, maxWork/hiWork))
		} else {
			n = int(math.Sqrt(float64(lo) * float64(hi)))
		}
		n = max(MinFitN, twoDigits(n))
		if n >= hi || n == lo {
			break
		}
		pl, ok, err := plan(n)
		if err != nil {
			return 0, Plan{}, err
		}
		if ok {
			lo, loPlan = n, pl
			continue
		}
		if n == MinFitN || pl.Work == 0 {
			break // not even the smallest fits, or the Spec refuses it
		}
		hi, hiWork = n, pl.Work
	}
	return lo, loPlan, nil
}

// twoDigits is n rounded down to two significant digits (137 456 →
// 130 000).
func twoDigits(n int) int {
	p := 1
	for n/p >= 100 {
		p *= 10
	}
	return n / p * p
}
