package scenarios

import (
	"fmt"
	"math"

	"dpso/theory"
)

// The weighted expected empirical moment of the precise localization
// theorems ("subsub: notation"): for a batch X of m samples,
//
//	r̂_m(X)^{(k)} = sup_{w∈W} sup_{subgradients} (1/m) Σ_{i≤m} ‖∇f(w, x_i)‖^k,
//	ẽ_m^{(k)} = E r̂_m(X)^{(k)},  r̃_{k,m} = (ẽ_m^{(k)})^{1/k}  (r̃_{k,1} = r̃_k),
//	R̃_{k,n} = (Σ_{i=1}^{l} 2^{−i} r̃²_{k,n_i})^{1/2},
//
// with l = ⌊log₂ n⌋ and n_i = ⌊n/2^i⌋: the paper takes n = 2^l, and for
// other n dpso uses the phases Algorithm "localization" actually runs
// (solvers' locPhaseSizes: l = ⌊log₂ n⌋ phases on ⌊n/2^i⌋ samples), so
// n_l = 1 always. Lemma "lem: empirical moments": r̃_k = r̃_{k,1} ≥ r̃_{k,2}
// ≥ … ≥ r_k, hence R̃_{k,n} ≤ r̃_k·√(1 − 2^{−l}) ≤ r̃_k.

// EmpiricalEntry is R̃_{k,n} at one order k and sample size n.
type EmpiricalEntry struct {
	K float64 // the order (2k for the localization theorems)
	N int     // n
	L int     // l = ⌊log₂ n⌋, the number of phases n_i = ⌊n/2^i⌋
	// V is R̃_{k,n} when Exact, otherwise the certified upper end of its
	// bracket [Lo, V]: r̃_k·√(1 − 2^{−l}) by Lemma "lem: empirical
	// moments". NaN when not computed.
	V float64
	// Lo is a lower bound on R̃_{k,n} (= V when Exact; NaN when none is
	// known).
	Lo float64
	// SE is the Monte Carlo standard error of V, that of the r̃_k it is
	// computed from (0 when exact, +Inf when the estimator's variance is
	// infinite).
	SE float64
	// Exact: the sup over W is attained at one point for every batch at
	// once, so r̃_{k,m} = r̃_k for every m and V = R̃_{k,n} exactly (up to
	// r̃_k's own Monte Carlo error, SE).
	Exact bool
	// Method says how V and Lo were obtained.
	Method string
}

// Computed reports whether V is known.
func (e EmpiricalEntry) Computed() bool { return !math.IsNaN(e.V) }

// empiricalWeight is Σ_{i=1}^{l} 2^{−i} = 1 − 2^{−l}.
func empiricalWeight(l int) float64 { return -math.Expm1(-float64(l) * math.Ln2) }

// log2Floor is ⌊log₂ n⌋ for n ≥ 1.
func log2Floor(n int) int {
	l := 0
	for 1<<(l+1) <= n {
		l++
	}
	return l
}

// EmpiricalMoment is R̃_{k,n} of "subsub: notation" (see the comment
// above EmpiricalEntry) for the instance's distribution, at a finite
// order k and n ≥ 2:
//
//   - exact where one point of W attains every sample's sup at once, so
//     that r̂_m(X)^{(k)} = (1/m) Σ sup_w ‖∇f(w, x_i)‖^k for every batch,
//     ẽ_m^{(k)} = r̃_k^k for every m and R̃_{k,n} = r̃_k·√(1 − 2^{−l}):
//     affine-hard (∇f = −x does not depend on w); mean-hard
//     (∇f = μ(w − x) with x ∈ {0, cν}, c > 0, one direction ν:
//     ‖w − x‖ ≤ R + ‖x‖ with equality for both atoms at w = −Rν/‖ν‖);
//     hinge-t with λ₂ = 0 (every subgradient is −t·y·a, t ∈ [0, 1], y = ±1,
//     so ‖∇f‖ ≤ ‖a‖, with equality for every sample at w = 0, where
//     y⟨0, a⟩ = 0 < 1 puts every sample on the active piece); absreg-t
//     with λ₂ = 0 (every subgradient is s·a, |s| ≤ 1, with |s| = 1 for
//     every sample at w = 0, where ⟨0, a⟩ − y = −y ≠ 0 almost surely). The
//     code's choice of subgradient 0 at a kink does not matter: the sups
//     are attained off the kinks;
//   - bracketed elsewhere on the scenarios (hinge-t, absreg-t with λ₂ > 0):
//     upper end r̃_k·√(1 − 2^{−l}) (the lemma), lower end from
//     ẽ_m^{(k)} ≥ E‖∇f(w₀, x)‖^k for any fixed w₀ ∈ W (the sup over W of
//     the batch mean is at least its value at w₀), i.e. r̃_{k,m} ≥ the lower
//     end of r_k ([Instance.Noncentral], a value at a point of W), with
//     r̃_{k,1} = r̃_k exact for the last phase (n_l = 1):
//     Lo = (Σ_{i<l} 2^{−i} r_k,lo² + 2^{−l} r̃_k²)^{1/2};
//   - not computed (NaN) on user data, for a user-given r̃_k, at k = ∞,
//     for n < 2, and for the smooth losses (no localized theorem reads it).
func (in *Instance) EmpiricalMoment(k float64, n int) EmpiricalEntry {
	e := EmpiricalEntry{K: k, N: n, V: math.NaN(), Lo: math.NaN(), SE: math.NaN()}
	switch {
	case in.def.Data != "":
		e.Method = "not computed for user data"
		return e
	case !(k > 0) || math.IsInf(k, 1):
		e.Method = "not computed at this order"
		return e
	case n < 2:
		e.Method = "not computed for n < 2"
		return e
	case (k == in.def.K && in.def.Rk > 0) || (k == 2 && in.def.R2 > 0) || (k == 2*in.def.K && in.def.R2k > 0):
		e.Method = "not computed: r̃_k at this order is user-given"
		return e
	}
	e.L = log2Floor(n)
	w := empiricalWeight(e.L)
	o := in.m.obj
	exact := ""
	switch {
	case o.affine():
		exact = "∇f = −x does not depend on w"
	case in.def.Scenario == MeanHard:
		exact = "the atoms share one direction ν: w = −Rν/‖ν‖ attains ‖∇f‖ = μ(R + ‖x‖) for every sample at once"
	case o.inLossL2() == 0 && in.def.Scenario == HingeT:
		exact = "λ₂ = 0: ‖∇f‖ ≤ ‖a‖, attained by every sample at once at w = 0 (all on the hinge's active piece)"
	case o.inLossL2() == 0 && in.def.Scenario == AbsRegT:
		exact = "λ₂ = 0: ‖∇f‖ ≤ ‖a‖, attained by every sample at once at w = 0"
	}
	if exact == "" && !o.nonsmooth() {
		e.Method = "not computed for a smooth loss"
		return e
	}
	r, se := in.m.prof.at(k)
	if math.IsInf(r, 1) {
		e.V, e.Lo, e.SE, e.Method = r, r, 0, "r̃_k does not exist"
		return e
	}
	if exact != "" {
		e.Exact = true
		e.V = r * math.Sqrt(w)
		e.Lo, e.SE = e.V, se*math.Sqrt(w)
		e.Method = fmt.Sprintf("exact: r̃_{k,m} = r̃_k for every m (%s), so R̃_{k,n} = r̃_k·√(1 − 2^−%s)", exact, theory.FormatCount(e.L))
		return e
	}
	e.V, e.SE = r*math.Sqrt(w), se*math.Sqrt(w)
	e.Method = "upper end r̃_k·√(1 − 2^−" + theory.FormatCount(e.L) + ") (lem: empirical moments)"
	if lo := in.Noncentral(k).Lo; lo >= 0 && lo <= r {
		last := math.Exp2(-float64(e.L))
		e.Lo = math.Sqrt((w-last)*lo*lo + last*r*r)
		e.Method += fmt.Sprintf("; lower end from r̃_{k,m} ≥ E‖∇f(w₀, x)‖^k at a point w₀ of W (r_k ≥ %s) and r̃_{k,1} = r̃_k", theory.Sig6.Format(lo))
	}
	return e
}

// ClassEmpirical is the empirical moment that class c's localized theorem
// reads at moment order k and sample size n, and its symbol: R̃_{2k,n} for
// the non-smooth convex class, R̃_{2k,⌊n/4⌋} ("R̃_{2k,n/4}") for the
// non-smooth strongly convex one; ok is false for the other classes, whose
// theorems read none. The entry may still be not computed
// ([EmpiricalEntry.Computed]); its Method says why.
func (in *Instance) ClassEmpirical(c theory.Class, k float64, n int) (e EmpiricalEntry, sym string, ok bool) {
	switch c {
	case theory.NonsmoothConvex:
		return in.EmpiricalMoment(2*k, n), "R̃_{2k,n}", true
	case theory.NonsmoothSC:
		return in.EmpiricalMoment(2*k, n/4), "R̃_{2k,n/4}", true
	}
	return EmpiricalEntry{}, "", false
}

// What is a sentence saying what V is, for a bound's source: sym = V
// exactly (with r̃_k's standard error when estimated), or the upper end of
// the bracket [Lo, V].
func (e EmpiricalEntry) What(sym string) string {
	l := theory.FormatCount(e.L)
	se := ""
	if e.SE > 0 {
		se = " ± " + theory.Sig6.Format(e.SE) + " (Monte Carlo s.e. of r̃)"
	}
	if math.IsInf(e.SE, 1) {
		se = " (Monte Carlo, its error unbounded: E‖∇f‖^(4k) = ∞)"
	}
	if e.Exact {
		return fmt.Sprintf("%s = %s%s, exact: r̃_{2k,m} = r̃_2k for every m on this scenario, so %s = r̃_2k·√(1 − 2^−%s)", sym, theory.Sig6.Format(e.V), se, sym, l)
	}
	if math.IsNaN(e.Lo) {
		return fmt.Sprintf("%s ≤ %s%s = r̃_2k·√(1 − 2^−%s), the upper bound of lem: empirical moments (not computed exactly)", sym, theory.Sig6.Format(e.V), se, l)
	}
	return fmt.Sprintf("%s ∈ [%s, %s]%s, taken at its upper end r̃_2k·√(1 − 2^−%s) (lem: empirical moments; lower end: r̃_{2k,m} ≥ (E‖∇f(w₀, x)‖^(2k))^(1/(2k)) at a point w₀ of W, and r̃_{2k,1} = r̃_2k)", sym, theory.Sig6.Format(e.Lo), theory.Sig6.Format(e.V), se, l)
}
