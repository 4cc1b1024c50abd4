package theory

import (
	"fmt"
	"math"
	"slices"
)

// The bound ids, stable (flags, JSON, charts). a = √d/(εn), ρ = ε²/2,
// κ = β/μ, e = (2k−2)/k.
const (
	// SmoothConvexACSA, Theorem "thm: convex ACSA one pass" (complete
	// version): r̃₂D/√n + r̃_k·D·[a^((k−1)/k) + min{((βD/r̃_k)^(1/4)·a)^(4(k−1)/(5k−1)),
	// (βD/r̃_k)^((k−1)/(4k))·a^((k−1)/k)·n^((k−1)/(8k))}].
	SmoothConvexACSA = "smooth-convex-acsa"
	// SmoothSCSGD, Theorem "thm: strongly convex smooth upper bound":
	// (1/μ)(r̃₂²/n + r̃_k²(√(dκ ln n)/(εn))^e), if κ ≤ n/ln n.
	SmoothSCSGD = "smooth-sc-sgd"
	// NonsmoothConvexLocalized, Theorem "thm: localization convex" with
	// r̃_{2k} for R̃_{2k,n}: r̃_{2k}·D·(1/√n + (√(d ln n)/(εn))^((k−1)/k)),
	// if ε ≤ √d.
	NonsmoothConvexLocalized = "nonsmooth-convex-localized"
	// NonsmoothSCLocalized, Theorem "thm: localization strongly convex":
	// (r̃_{2k}²/μ)(1/n + (√(d ln n)/(εn))^e), if ε ≤ √d.
	NonsmoothSCLocalized = "nonsmooth-sc-localized"
	// PPLProxSGD, Theorem "thm: PL upper bound":
	// (1/μ)(r̃_k²(√d·κ·ln n/(εn))^e + r̃₂²·κ·ln n/n), if κ ≤ n/ln n.
	PPLProxSGD = "ppl-prox-sgd"
	// LowerConvex, Theorem "thm: convex lower bound" part 1:
	// D(r̃₂/√n + r̃_k·min{1, (√d/(√ρ·n))^((k−1)/k)}), if ρ ≤ d.
	LowerConvex = "lower-convex"
	// LowerSC, Theorem "thm: strongly convex lower bound" part 1:
	// (1/μ)(r̃₂²/n + r̃_k²·min{1, (√d/(√ρ·n))^e}), if ρ ≤ d.
	LowerSC = "lower-sc"
	// PriorKLZ21Convex, Kamath–Liu–Zhang Thm 5.4 as the paper restates it
	// for ε ≈ 1: r̃_k·D·√(d/n).
	PriorKLZ21Convex = "prior-klz21-convex"
	// PriorKLZ21SC, Kamath–Liu–Zhang Thm 5.6 as corrected in "app: wrong
	// proofs" (eq:iuj, r_k ↔ √d·γ_k^(1/k)):
	// (r̃_k²/μ)(κ_f³/n + (√(d·κ_f³)/(εn))^e).
	PriorKLZ21SC = "prior-klz21-sc"
	// PriorLipschitzConvex, uniformly L_f-Lipschitz DP-SCO (Bassily et al.
	// 2019): L_f·D·(1/√n + √d/(εn)).
	PriorLipschitzConvex = "prior-lipschitz-convex"
	// PriorLipschitzSC, uniformly L_f-Lipschitz strongly convex DP-SCO
	// (Feldman et al. 2020): (L_f²/μ)(1/n + d/(ε²n²)).
	PriorLipschitzSC = "prior-lipschitz-sc"
)

// vals are the resolved parameters of one evaluation, with derived
// quantities.
type vals struct {
	n, lnN, d, eps, k, u            float64 // u = 1/k (0 at k = ∞)
	diam, r2, rk, r2k, beta, mu, lf float64
	lfData                          float64 // the data's own L_f where lf was given (NaN otherwise)
	kf, rho, kappa, sqrtD, h, e     float64 // h = (k−1)/k, e = (2k−2)/k
	sdOverEps                       float64 // √d/ε, so that a = √d/(εn) = sdOverEps/n
	r2nc, rknc, r2knc               float64 // r_2, r_k, r_2k (ass:boundednoncentral)
	g2, gk, g2k                     float64 // γ_2^{1/2}, γ_k^{1/k}, γ_2k^{1/(2k)} (ass:coordinatewise)
	r2kEmp, r2kEmp4, delta          float64 // R̃_{2k,n}, R̃_{2k,n/4}, δ
}

func newVals(p Params) vals {
	v := vals{n: p.N, d: p.Dim, eps: p.Eps, k: p.K, diam: p.Diam, r2: p.R2, rk: p.Rk,
		r2k: p.R2k, beta: p.Beta, mu: p.Mu, lf: p.Lf, lfData: p.LfData, kf: p.KappaF,
		r2nc: p.R2NC, rknc: p.RkNC, r2knc: p.R2kNC, g2: p.G2, gk: p.Gk, g2k: p.G2k,
		r2kEmp: p.R2kEmp, r2kEmp4: p.R2kEmp4, delta: p.Delta}
	v.lnN = math.Log(v.n)
	v.u = 1 / v.k // exact limits at k = ∞: every exponent below is written in u
	v.h = 1 - v.u
	v.e = 2 * (1 - v.u)
	v.rho = Rho(v.eps)
	v.kappa = v.beta / v.mu
	v.sqrtD = math.Sqrt(v.d)
	v.sdOverEps = v.sqrtD / v.eps
	return v
}

// withEps returns v with ε (and ρ, √d/ε) replaced by eps.
func (v vals) withEps(eps float64) vals {
	v.eps = eps
	v.rho = Rho(eps)
	v.sdOverEps = v.sqrtD / eps
	return v
}

// spec is one bound's definition.
type spec struct {
	id      string
	kind    Kind
	title   string
	label   string
	source  string
	formula string
	needs   []string
	eval    func(v vals) ([]powTerm, []Condition)
	// base is the chart bound (an id of classBounds) this one restates
	// under another assumption or privacy model, "" for a chart bound.
	base string
	// assumption is the moment assumption the bound's constants come from.
	assumption Assumption
	// shuffle is true for a bound of the shuffle model ((ε, δ)-SDP).
	shuffle bool
}

func sq(x float64) float64 { return x * x }

func cond(holds bool, format string, a ...any) Condition {
	return Condition{Text: fmt.Sprintf(format, a...), Holds: holds}
}

// kappaConds are the hypotheses on κ of the smooth strongly convex and
// proximal-PL theorems: κ ≤ n/ln n (stated), and κ ≥ 1, which β-smoothness
// with μ-strong convexity (or μ-PPL) forces.
func kappaConds(v vals) []Condition {
	lim := v.n / v.lnN // +Inf at n = 1
	return []Condition{
		cond(v.kappa <= lim, "κ ≤ n/ln n (κ = β/μ = %s, n/ln n = %s)", fmtNum(v.kappa), fmtNum(lim)),
		cond(v.kappa >= 1, "κ = β/μ ≥ 1 (β-smooth and μ-strongly convex or μ-PPL force β ≥ μ; κ = %s)", fmtNum(v.kappa)),
	}
}

func epsSqrtDCond(v vals) Condition {
	return cond(v.eps <= v.sqrtD, "ε ≤ √d (ε = %s, √d = %s)", fmtNum(v.eps), fmtNum(v.sqrtD))
}

func rhoCond(v vals) Condition {
	return cond(v.rho <= v.d, "ρ = ε²/2 ≤ d (ρ = %s, d = %s)", fmtNum(v.rho), fmtNum(v.d))
}

func dimCond(v vals) Condition {
	return cond(v.d >= 40, "d ≥ 40 (precise statement, app: lower bounds; d = %s)", fmtNum(v.d))
}

// lipCond is the hypothesis of prior work's uniformly Lipschitz bounds,
// L_f < ∞. Where L_f is a value the user gave in place of the data's own
// (v.lfData known), it is met only if the given value bounds the data's
// gradients: a given L_f = 10⁴ on data whose L_f is ∞ evaluates the
// formula but does not put the data under the theorem.
func lipCond(v vals) Condition {
	if !math.IsNaN(v.lfData) && v.lfData > v.lf {
		return cond(false, "L_f < ∞ (f(·, x) uniformly L_f-Lipschitz): evaluated at the given L_f = %s, but these data's own L_f = %s", fmtNum(v.lf), fmtNum(v.lfData))
	}
	return cond(!math.IsInf(v.lf, 1), "L_f < ∞ (f(·, x) uniformly L_f-Lipschitz; L_f = %s)", fmtNum(v.lf))
}

// acsaT is the iteration count of the complete version of "thm: convex
// ACSA one pass": T = ⌈min{(βD/r̃_k)^(2k/(5k−1))·(εn/√d)^((2k−2)/(5k−1)),
// √(βD/r̃_k)·n^(1/4)}⌉.
func acsaT(v vals) float64 {
	x := v.beta * v.diam / v.rk // 0 when r̃_k = ∞
	if x == 0 {
		return 0
	}
	a := math.Pow(x, 2/(5-v.u)) * math.Pow(v.n/v.sdOverEps, 2*(1-v.u)/(5-v.u))
	b := math.Sqrt(x) * math.Pow(v.n, 0.25)
	return math.Ceil(math.Min(a, b))
}

// specs are every bound, ordered by kind (upper, lower, prior) and, within
// a kind, the chart bounds first, then their variants.
var specs = orderByKind(slices.Concat(coreSpecs, variantSpecs))

// orderByKind sorts stably by kind: upper, lower, prior.
func orderByKind(ss []spec) []spec {
	rank := func(k Kind) int {
		switch k {
		case Lower:
			return 1
		case Prior:
			return 2
		}
		return 0
	}
	out := make([]spec, 0, len(ss))
	for r := range 3 {
		for i := range ss {
			if rank(ss[i].kind) == r {
				out = append(out, ss[i])
			}
		}
	}
	return out
}

// coreSpecs are the chart bounds (those of classBounds), in their order
// under the Assumption "ass:tilde" constants and zCDP.
var coreSpecs = []spec{
	{
		id: SmoothConvexACSA, kind: Upper, title: "noisy clipped AC-SA (smooth convex)",
		label:   "thm: convex ACSA one pass",
		source:  "Lowy & Razaviyayn, Theorem [thm: convex ACSA one pass] (complete version in [app: convex accel]), Algorithm [alg: ACSA]",
		formula: "r̃₂·D/√n + r̃_k·D·[a^((k−1)/k) + min{((βD/r̃_k)^(1/4)·a)^(4(k−1)/(5k−1)), (βD/r̃_k)^((k−1)/(4k))·a^((k−1)/k)·n^((k−1)/(8k))}], a = √d/(εn)",
		needs:   []string{"n", "d", "eps", "k", "diam", "r2", "rk", "beta"},
		eval: func(v vals) ([]powTerm, []Condition) {
			eA := 4 * (1 - v.u) / (5 - v.u) // 4(k−1)/(5k−1)
			g := (1 - v.u) / 4              // (k−1)/(4k)
			nB := (1 - v.u) / 8             // (k−1)/(8k)
			bD := v.beta * v.diam
			name3 := "r̃_k·D·min{…} (smoothness)"
			// r̃_k·((βD/r̃_k)^(1/4)·a)^eA = (βD)^(eA/4)·r̃_k^(1−eA/4)·a^eA, written
			// so that r̃_k = ∞ and β = 0 give their limits (∞, resp. 0).
			brA := powTerm{name3, mul(math.Pow(bD, eA/4), math.Pow(v.rk, 1-eA/4), v.diam, math.Pow(v.sdOverEps, eA)), -eA, 0}
			brB := powTerm{name3, mul(math.Pow(bD, g), math.Pow(v.rk, 1-g), v.diam, math.Pow(v.sdOverEps, v.h)), -v.h + nB, 0}
			terms := []powTerm{
				{"r̃₂·D/√n (statistical)", mul(v.r2, v.diam), -0.5, 0},
				{"r̃_k·D·a^((k−1)/k) (privacy)", mul(v.rk, v.diam, math.Pow(v.sdOverEps, v.h)), -v.h, 0},
				minOf(brA, brB, v.n, v.lnN),
			}
			T := acsaT(v)
			return terms, []Condition{cond(v.n >= T,
				"n ≥ T = ⌈min{(βD/r̃_k)^(2k/(5k−1))·(εn/√d)^((2k−2)/(5k−1)), √(βD/r̃_k)·n^(1/4)}⌉ (complete version; T = %s)", fmtNum(T))}
		},
	},
	{
		id: SmoothSCSGD, kind: Upper, title: "noisy clipped SGD (smooth strongly convex)",
		label:   "thm: strongly convex smooth upper bound",
		source:  "Lowy & Razaviyayn, Theorem [thm: strongly convex smooth upper bound] (precise statement in [app: strongly convex]), Algorithm [alg: vanilla SGD]",
		formula: "(1/μ)·(r̃₂²/n + r̃_k²·(√(d·κ·ln n)/(εn))^((2k−2)/k)), κ = β/μ",
		needs:   []string{"n", "d", "eps", "k", "r2", "rk", "beta", "mu"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return []powTerm{
				{"r̃₂²/(μn) (statistical)", sq(v.r2) / v.mu, -1, 0},
				{"(r̃_k²/μ)·(√(dκ ln n)/(εn))^((2k−2)/k) (privacy)", mul(sq(v.rk)/v.mu, math.Pow(math.Sqrt(v.d*v.kappa)/v.eps, v.e)), -v.e, v.e / 2},
			}, kappaConds(v)
		},
	},
	{
		id: NonsmoothConvexLocalized, kind: Upper, title: "localized noisy clipped subgradient (convex)",
		label:   "thm: localization convex",
		source:  "Lowy & Razaviyayn, Theorem [thm: localization convex] with r̃_2k in place of R̃_{2k,n} ≤ r̃_2k (precise statement in [app: localization]), Algorithm [alg: localization]",
		formula: "r̃_2k·D·(1/√n + (√(d·ln n)/(εn))^((k−1)/k))",
		needs:   []string{"n", "d", "eps", "k", "diam", "r2k"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return []powTerm{
				{"r̃_2k·D/√n (statistical)", mul(v.r2k, v.diam), -0.5, 0},
				{"r̃_2k·D·(√(d ln n)/(εn))^((k−1)/k) (privacy)", mul(v.r2k, v.diam, math.Pow(v.sdOverEps, v.h)), -v.h, v.h / 2},
			}, []Condition{epsSqrtDCond(v)}
		},
	},
	{
		id: NonsmoothSCLocalized, kind: Upper, title: "localized noisy clipped subgradient (strongly convex)",
		label:   "thm: localization strongly convex",
		source:  "Lowy & Razaviyayn, Theorem [thm: localization strongly convex] with r̃_2k in place of R̃_{2k,n/4} ≤ r̃_2k (reduction in [app: localization strongly])",
		formula: "(r̃_2k²/μ)·(1/n + (√(d·ln n)/(εn))^((2k−2)/k))",
		needs:   []string{"n", "d", "eps", "k", "r2k", "mu"},
		eval: func(v vals) ([]powTerm, []Condition) {
			c := sq(v.r2k) / v.mu
			return []powTerm{
				{"r̃_2k²/(μn) (statistical)", c, -1, 0},
				{"(r̃_2k²/μ)·(√(d ln n)/(εn))^((2k−2)/k) (privacy)", mul(c, math.Pow(v.sdOverEps, v.e)), -v.e, v.e / 2},
			}, []Condition{epsSqrtDCond(v)}
		},
	},
	{
		id: PPLProxSGD, kind: Upper, title: "noisy clipped proximal SGD (proximal-PL)",
		label:   "thm: PL upper bound",
		source:  "Lowy & Razaviyayn, Theorem [thm: PL upper bound] (precise statement in [app: PL]), Algorithm [alg: zCSDP SGD]",
		formula: "(1/μ)·(r̃_k²·(√d·κ·ln n/(εn))^((2k−2)/k) + r̃₂²·κ·ln n/n), κ = β/μ",
		needs:   []string{"n", "d", "eps", "k", "r2", "rk", "beta", "mu"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return []powTerm{
				{"(r̃_k²/μ)·(√d·κ·ln n/(εn))^((2k−2)/k) (privacy)", mul(sq(v.rk)/v.mu, math.Pow(v.sdOverEps*v.kappa, v.e)), -v.e, v.e},
				{"r̃₂²·κ·ln n/(μn) (statistical)", mul(sq(v.r2), v.kappa/v.mu), -1, 1},
			}, kappaConds(v)
		},
	},
	{
		id: LowerConvex, kind: Lower, title: "lower bound (convex)",
		label:   "thm: convex lower bound",
		source:  "Lowy & Razaviyayn, Theorem [thm: convex lower bound] part 1 (precise statement in [app: lower bounds])",
		formula: "D·(r̃₂/√n + r̃_k·min{1, (√d/(√ρ·n))^((k−1)/k)}), ρ = ε²/2",
		needs:   []string{"n", "d", "eps", "k", "diam", "r2", "rk"},
		eval: func(v vals) ([]powTerm, []Condition) {
			name := "D·r̃_k·min{1, (√d/(√ρ·n))^((k−1)/k)} (privacy)"
			s := v.sqrtD / math.Sqrt(v.rho)
			return []powTerm{
					{"D·r̃₂/√n (statistical)", mul(v.diam, v.r2), -0.5, 0},
					minOf(powTerm{name, mul(v.diam, v.rk), 0, 0}, powTerm{name, mul(v.diam, v.rk, math.Pow(s, v.h)), -v.h, 0}, v.n, v.lnN),
				}, []Condition{rhoCond(v), dimCond(v),
					cond(v.n > 7202, "n > 7202 (precise statement, app: lower bounds; n = %s)", fmtNum(v.n))}
		},
	},
	{
		id: LowerSC, kind: Lower, title: "lower bound (strongly convex)",
		label:   "thm: strongly convex lower bound",
		source:  "Lowy & Razaviyayn, Theorem [thm: strongly convex lower bound] part 1 (precise statement in [app: lower bounds])",
		formula: "(1/μ)·(r̃₂²/n + r̃_k²·min{1, (√d/(√ρ·n))^((2k−2)/k)}), ρ = ε²/2",
		needs:   []string{"n", "d", "eps", "k", "r2", "rk", "mu"},
		eval: func(v vals) ([]powTerm, []Condition) {
			name := "(r̃_k²/μ)·min{1, (√d/(√ρ·n))^((2k−2)/k)} (privacy)"
			s := v.sqrtD / math.Sqrt(v.rho)
			c := sq(v.rk) / v.mu
			return []powTerm{
				{"r̃₂²/(μn) (statistical)", sq(v.r2) / v.mu, -1, 0},
				minOf(powTerm{name, c, 0, 0}, powTerm{name, mul(c, math.Pow(s, v.e)), -v.e, 0}, v.n, v.lnN),
			}, []Condition{rhoCond(v), dimCond(v)}
		},
	},
	{
		id: PriorKLZ21Convex, kind: Prior, title: "Kamath–Liu–Zhang (convex)",
		label:   "sec: contributions",
		source:  "Kamath, Liu & Zhang (ICML 2022), Theorem 5.4, restated by Lowy & Razaviyayn for ε ≈ 1 with γ_k^(1/k)·d → r̃_k·√d ([sec: contributions])",
		formula: "r̃_k·D·√(d/n)",
		needs:   []string{"n", "d", "eps", "diam", "rk"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return []powTerm{
					{"r̃_k·D·√(d/n)", mul(v.rk, v.diam, v.sqrtD), -0.5, 0},
				}, []Condition{cond(v.eps >= 0.5 && v.eps <= 2,
					"ε ≈ 1 (the paper restates this bound for ε ≈ 1 only, taken here as 1/2 ≤ ε ≤ 2; ε = %s)", fmtNum(v.eps))}
		},
	},
	{
		id: PriorKLZ21SC, kind: Prior, title: "Kamath–Liu–Zhang, corrected (strongly convex)",
		label:   "app: wrong proofs",
		source:  "Kamath, Liu & Zhang (2022), Theorem 5.6 as corrected in Lowy & Razaviyayn [app: wrong proofs], eq. [eq:iuj], with r_k ↔ √d·γ_k^(1/k)",
		formula: "(r̃_k²/μ)·(κ_f³/n + (√(d·κ_f³)/(εn))^((2k−2)/k)), κ_f = β_f/μ",
		needs:   []string{"n", "d", "eps", "k", "rk", "mu", "kappa-f"},
		eval: func(v vals) ([]powTerm, []Condition) {
			c := sq(v.rk) / v.mu
			k3 := v.kf * v.kf * v.kf
			return []powTerm{
					{"r̃_k²·κ_f³/(μn) (statistical)", mul(c, k3), -1, 0},
					{"(r̃_k²/μ)·(√(d·κ_f³)/(εn))^((2k−2)/k) (privacy)", mul(c, math.Pow(math.Sqrt(v.d*k3)/v.eps, v.e)), -v.e, 0},
				}, []Condition{cond(!math.IsInf(v.kf, 1),
					"κ_f < ∞ (f(·, x) uniformly β_f-smooth; κ_f = %s)", fmtNum(v.kf))}
		},
	},
	{
		id: PriorLipschitzConvex, kind: Prior, title: "uniformly Lipschitz DP-SCO (convex)",
		label:   "app: related work",
		source:  "Bassily, Feldman, Talwar & Thakurta (2019), optimal rate for uniformly L_f-Lipschitz convex DP-SCO, at ρ = ε²/2 ([app: related work])",
		formula: "L_f·D·(1/√n + √d/(εn))",
		needs:   []string{"n", "d", "eps", "diam", "lf"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return []powTerm{
				{"L_f·D/√n (statistical)", mul(v.lf, v.diam), -0.5, 0},
				{"L_f·D·√d/(εn) (privacy)", mul(v.lf, v.diam, v.sdOverEps), -1, 0},
			}, []Condition{lipCond(v)}
		},
	},
	{
		id: PriorLipschitzSC, kind: Prior, title: "uniformly Lipschitz DP-SCO (strongly convex)",
		label:   "app: related work",
		source:  "Feldman, Koren & Talwar (2020), optimal rate for uniformly L_f-Lipschitz μ-strongly convex DP-SCO, at ρ = ε²/2 ([app: related work])",
		formula: "(L_f²/μ)·(1/n + d/(ε²n²))",
		needs:   []string{"n", "d", "eps", "mu", "lf"},
		eval: func(v vals) ([]powTerm, []Condition) {
			c := sq(v.lf) / v.mu
			return []powTerm{
				{"L_f²/(μn) (statistical)", c, -1, 0},
				{"L_f²·d/(μ·ε²n²) (privacy)", mul(c, sq(v.sdOverEps)), -2, 0},
			}, []Condition{lipCond(v)}
		},
	},
}

// classBounds is ForClass's table: the paper's upper bound for the class,
// the lower bound that applies (smooth strongly convex losses are μ-PPL,
// so the strongly convex lower bound applies to PPL; linear losses are
// non-smooth convex ones, so the convex lower bound applies there), and the
// prior bounds of the same class.
var classBounds = map[Class][]string{
	SmoothConvex:    {SmoothConvexACSA, LowerConvex, PriorKLZ21Convex, PriorLipschitzConvex},
	SmoothSC:        {SmoothSCSGD, LowerSC, PriorKLZ21SC, PriorLipschitzSC},
	NonsmoothConvex: {NonsmoothConvexLocalized, LowerConvex, PriorLipschitzConvex},
	NonsmoothSC:     {NonsmoothSCLocalized, LowerSC, PriorLipschitzSC},
	PPL:             {PPLProxSGD, LowerSC, PriorLipschitzSC},
}

// IDs lists every bound id: the paper's upper bounds, its lower bounds,
// then the prior bounds.
func IDs() []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.id
	}
	return out
}

// ForClass lists the ids of the bounds that belong on a chart of class c
// (its upper bound first, then the lower bound, then prior work), or nil
// for an unknown class.
func ForClass(c Class) []string {
	return slices.Clone(classBounds[c])
}

// classesOf lists the classes whose charts show id.
func classesOf(id string) []Class {
	var out []Class
	for _, c := range Classes {
		if slices.Contains(classBounds[c], id) {
			out = append(out, c)
		}
	}
	return out
}

func specOf(id string) (*spec, bool) {
	for i := range specs {
		if specs[i].id == id {
			return &specs[i], true
		}
	}
	return nil, false
}

// Needs lists the inputs (the field names of Params' doc) that the bound id
// needs, or nil for an unknown id. At k = ∞, r̃_k and r̃_2k may come from
// L_f instead (see Evaluate).
func Needs(id string) []string {
	s, ok := specOf(id)
	if !ok {
		return nil
	}
	return slices.Clone(s.needs)
}

// Evaluate evaluates the bound id at p.
//
// Every hidden absolute constant is 1 and log factors are as the theorem
// writes them (natural log). The value is computed by the formula even when
// the theorem's conditions fail; they are reported in Conditions. At
// k = ∞ the exponents take their limits exactly ((k−1)/k → 1,
// (2k−2)/k → 2, 4(k−1)/(5k−1) → 4/5, (k−1)/(4k) → 1/4, (k−1)/(8k) → 1/8),
// and r̃_k, r̃_2k and L_f are one quantity (Assumption 1: r̃_∞ = L_f): any
// of them not given is taken from the others. A moment that is +Inf makes
// every term that carries it +Inf, and the bound +Inf; a term with a factor
// that is exactly 0 (β = 0, ln 1 = 0) is 0 even if another factor is +Inf
// (its limit, not NaN).
//
// Errors: an unknown id; a [*MissingError] if a needed input is NaN; a
// [*ParamError] if a needed input is out of range.
func Evaluate(id string, p Params) (Bound, error) {
	s, ok := specOf(id)
	if !ok {
		return Bound{}, fmt.Errorf("unknown bound id %s (want one of %v)", Quote(id), IDs())
	}
	p = p.resolved()
	if err := checkInputs(id, s.needs, p); err != nil {
		return Bound{}, err
	}
	v := newVals(p)
	terms, conds := s.eval(v)
	b := Bound{ID: s.id, Kind: s.kind, Title: s.title, Label: s.label, Source: s.source,
		Classes: classesOf(s.id), Formula: s.formula, Conditions: conds}
	if b.Conditions == nil {
		b.Conditions = []Condition{}
	}
	assemble(&b, terms, v.n)
	return b, nil
}

// Unevaluable is bound id where it cannot be evaluated at all (an input
// its statement is about is unknown for the run, and no other constant
// may stand in for it): its description, Value and RateN NaN (JSON null),
// no terms, and one failing condition that says why. It errs only for an
// unknown id.
func Unevaluable(id, why string) (Bound, error) {
	s, ok := specOf(id)
	if !ok {
		return Bound{}, fmt.Errorf("unknown bound id %s (want one of %v)", Quote(id), IDs())
	}
	return Bound{ID: s.id, Kind: s.kind, Title: s.title, Label: s.label, Source: s.source,
		Classes: classesOf(s.id), Formula: s.formula, Value: math.NaN(), RateN: math.NaN(),
		Terms: []Term{}, Conditions: []Condition{{Text: NotEvaluated + why, Holds: false}}}, nil
}

// NotEvaluated begins the one condition of an [Unevaluable] bound.
const NotEvaluated = "not evaluated: "

// checkInputs returns a [*MissingError] naming what (of needs) is NaN in
// p, else a [*ParamError] for the first needed input out of range.
func checkInputs(id string, needs []string, p Params) error {
	var missing []string
	for _, name := range needs {
		f, _ := fieldByName(name)
		if math.IsNaN(*f.get(&p)) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return &MissingError{ID: id, Missing: missing}
	}
	for _, name := range needs {
		f, _ := fieldByName(name)
		if x := *f.get(&p); !f.iv.Contains(x) {
			return &ParamError{Field: name, Value: x, Range: f.iv.String()}
		}
	}
	return nil
}
