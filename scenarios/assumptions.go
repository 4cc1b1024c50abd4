package scenarios

import (
	"context"
	"math"
	"slices"

	"dpso/theory"
)

// Noncentral is r_k = sup_{w∈W} (E‖∇f(w, x)‖^k)^{1/k} of Assumption
// "ass:boundednoncentral" (k = +Inf: sup_w ess sup ‖∇f(w, x)‖): the
// scenario's own constant (the overrides of r̃_k do not change it); NaN,
// "not computed", for user data. A value not yet computed may take
// seconds at large d (see SupMomentsContext).
func (in *Instance) Noncentral(k float64) SupEntry {
	e, _ := in.NoncentralContext(context.Background(), k)
	return e
}

// NoncentralContext is Noncentral computed under ctx: on cancellation it
// returns ctx's error.
func (in *Instance) NoncentralContext(ctx context.Context, k float64) (SupEntry, error) {
	if in.m.sup == nil {
		return notForData(k), nil
	}
	return in.m.sup.r.entry(ctx, k)
}

// Coordinate is γ_k^{1/k} with γ_k = sup_{w∈W} max_j E|∂_j f(w, x) −
// ∂_j F(w)|^k, the first clause of Assumption "ass:coordinatewise" (its
// second clause, L ≤ √d·γ_k^{1/k}, is checked by AssumptionChecks);
// NaN, "not computed", for user data.
func (in *Instance) Coordinate(k float64) SupEntry {
	e, _ := in.CoordinateContext(context.Background(), k)
	return e
}

// CoordinateContext is Coordinate computed under ctx: on cancellation it
// returns ctx's error.
func (in *Instance) CoordinateContext(ctx context.Context, k float64) (SupEntry, error) {
	if in.m.sup == nil {
		return notForData(k), nil
	}
	return in.m.sup.g.entry(ctx, k)
}

// SupMomentsContext computes r_k and γ_k^{1/k} at the orders ks under ctx
// (each a certified search over an arc of W of up to supMaxEvals Monte
// Carlo moments, seconds in all at d = 10⁴), so that Noncentral,
// Coordinate, AssumptionChecks and EmpiricalMoment at those orders then
// read computed values at once; on cancellation it returns ctx's error
// within one Monte Carlo chunk, and nothing cut short is kept.
func (in *Instance) SupMomentsContext(ctx context.Context, ks []float64) error {
	for _, k := range ks {
		if _, err := in.NoncentralContext(ctx, k); err != nil {
			return err
		}
		if _, err := in.CoordinateContext(ctx, k); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func notForData(k float64) SupEntry {
	return SupEntry{K: k, V: math.NaN(), SE: math.NaN(), Lo: math.NaN(), Method: "not computed for user data"}
}

// GradSup is L = sup_{w∈W} ‖∇F(w)‖ (∇F⁰ for class ppl), whether it is
// exact (else an upper bound; NaN when unknown) and how it was obtained.
func (in *Instance) GradSup() (l float64, exact bool, method string) {
	if in.m.sup == nil {
		return math.NaN(), false, "not computed for user data"
	}
	return in.m.sup.l, in.m.sup.lExact, in.m.sup.lMethod
}

// AssumptionProfile is theory's MomentProfile of the instance at the
// orders ks: r̃_k (overrides applied), r_k, γ_k^{1/k}, L and L_f, at their
// values (a bracketed sup at its upper end).
func (in *Instance) AssumptionProfile(ks []float64) theory.MomentProfile {
	p, _, _ := in.profiles(ks, 0)
	return p
}

// profiles returns the profile at the estimates, and the profiles with
// every estimated entry moved z standard errors down (a bracket's lower
// end) and up.
func (in *Instance) profiles(ks []float64, z float64) (mid, lo, hi theory.MomentProfile) {
	l, lExact, _ := in.GradSup()
	lf := in.Moment(math.Inf(1)).R
	base := theory.MomentProfile{Dim: float64(in.m.d), L: l, Lf: lf}
	mid, lo, hi = base, base, base
	if !lExact && !math.IsNaN(l) {
		lo.L = 0 // an upper bound only
	}
	down := func(v, se, lower float64) float64 {
		if math.IsNaN(v) || math.IsInf(v, 1) {
			return v
		}
		if math.IsNaN(lower) {
			return 0
		}
		x := lower - z*se
		if !(x >= 0) { // NaN from an infinite s.e., or negative
			return 0
		}
		return x
	}
	up := func(v, se float64) float64 {
		if math.IsNaN(v) || math.IsInf(v, 1) {
			return v
		}
		x := v + z*se
		if math.IsNaN(x) {
			return math.Inf(1)
		}
		return x
	}
	for _, k := range ks {
		rt := in.Moment(k)
		r := in.Noncentral(k)
		g := in.Coordinate(k)
		mid.Orders = append(mid.Orders, theory.MomentOrder{K: k, RTilde: rt.R, R: r.V, G: g.V})
		lo.Orders = append(lo.Orders, theory.MomentOrder{K: k, RTilde: down(rt.R, rt.SE, rt.R), R: down(r.V, r.SE, r.Lo), G: down(g.V, g.SE, g.Lo)})
		hi.Orders = append(hi.Orders, theory.MomentOrder{K: k, RTilde: up(rt.R, rt.SE), R: up(r.V, r.SE), G: up(g.V, g.SE)})
	}
	return mid, lo, hi
}

// CheckZ is the number of standard errors each side of an inequality may
// move: an estimated inequality fails only when Lhs at its estimates
// minus 3 s.e. (a bracket's lower end minus 3 s.e.) exceeds Rhs plus 3
// s.e. Each side's estimate is within 3 s.e. with probability ≥ 99.7%
// (normal limit of the Monte Carlo mean), so a true inequality is flagged
// with probability < 0.3% per estimated side, whatever the correlation of
// the two (they may share random numbers).
const CheckZ = 3.0

// Verdicts of an AssumptionCheck.
const (
	// Holds: Lhs ≤ Rhs at the estimates, and within CheckZ s.e.
	Holds = "✓"
	// HoldsWithinError: Lhs > Rhs at the estimates, but not beyond
	// CheckZ standard errors of each side.
	HoldsWithinError = "✓ within error"
	// Fails: Lhs − CheckZ s.e. > Rhs + CheckZ s.e.
	Fails = "✗"
	// Undecided: the estimates' error is unbounded (an infinite variance)
	// and they do not satisfy the inequality.
	Undecided = "?"
	// HoldsUnboundedError: Lhs ≤ Rhs at the estimates, whose error is
	// unbounded.
	HoldsUnboundedError = "✓ at the estimates (error unbounded)"
)

// AssumptionCheck is one inequality of theory.AssumptionInequalities at the
// instance's profile, with its verdict.
type AssumptionCheck struct {
	theory.Inequality
	Verdict string
}

// Failed reports whether the verdict is Fails.
func (c AssumptionCheck) Failed() bool { return c.Verdict == Fails }

// AssumptionChecks evaluates theory.AssumptionInequalities (Lemma "lem:
// comparing assumptions", the assumptions' definitions, Jensen and
// Lyapunov) at the orders ks and decides each with the Monte Carlo errors
// (CheckZ). The inequality "ass:coordinatewise" (L ≤ √d·γ_k^{1/k}) is the
// assumption's second clause, not an implication: where it fails, the
// assumption holds only with γ_k ≥ (L/√d)^k, and the lemma's r_k ≤
// 4√d·γ_k^{1/k} (which assumes it) need not hold; the proof's r_k ≤
// 2(L^k + d^{k/2}γ_k)^{1/k} holds regardless.
func (in *Instance) AssumptionChecks(ks []float64) []AssumptionCheck {
	mid, lo, hi := in.profiles(ks, CheckZ)
	im, il, ih := theory.AssumptionInequalities(mid), theory.AssumptionInequalities(lo), theory.AssumptionInequalities(hi)
	out := make([]AssumptionCheck, len(im))
	for i, iq := range im {
		c := AssumptionCheck{Inequality: iq}
		within := il[i].Lhs <= ih[i].Rhs
		unbounded := (math.IsInf(ih[i].Rhs, 1) && !math.IsInf(iq.Rhs, 1)) || (il[i].Lhs == 0 && iq.Lhs > 0 && !(lo.L == 0 && iq.Lhs == mid.L))
		switch {
		case !within:
			c.Verdict = Fails
		case iq.Holds && unbounded:
			c.Verdict = HoldsUnboundedError
		case iq.Holds:
			c.Verdict = Holds
		case unbounded:
			c.Verdict = Undecided
		default:
			c.Verdict = HoldsWithinError
		}
		out[i] = c
	}
	return out
}

// CheckOrders are the orders AssumptionChecks is shown at for a run of
// order k: 2, k and 2k (the moments the prescriptions and bounds read),
// finite and distinct.
func CheckOrders(k float64) []float64 {
	ks := []float64{2}
	for _, x := range []float64{k, 2 * k} {
		if !math.IsInf(x, 1) && !slices.Contains(ks, x) {
			ks = append(ks, x)
		}
	}
	return ks
}
