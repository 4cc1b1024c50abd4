package theory

import (
	"math"
	"strings"
)

// The variant bound ids: the chart bounds restated under Assumption
// "ass:boundednoncentral" (r_k) or "ass:coordinatewise" (γ_k), with the
// empirical moments of the precise localization theorems, in the shuffle
// model, and in the regime of "rem: affine optimal". Same conventions as
// the chart bounds (constants 1, logs as stated, a = √d/(εn), ρ = ε²/2,
// h = (k−1)/k, e = (2k−2)/k).
const (
	// SmoothConvexACSAOptimal, Remark "rem: affine optimal" in general: for
	// β ≤ (r̃_k/D)·a^((k−1)/k) + (r̃₂/D)/√n (≲, constant 1) the bound of
	// "thm: convex ACSA one pass" is the optimal rate
	// r̃₂D/√n + r̃_k·D·a^((k−1)/k); β = 0 (affine losses) always qualifies.
	SmoothConvexACSAOptimal = "smooth-convex-acsa-optimal"
	// SmoothConvexACSAShuffle, SmoothSCSGDShuffle and PPLProxSGDShuffle are
	// smooth-convex-acsa, smooth-sc-sgd and ppl-prox-sgd with MeanOracle1
	// replaced by the ℓ2-clip shuffle oracle (Algorithm "sdp clip
	// MeanOracle" on P_vec): by Lemma "lem: pvec" and Lemma "bias and
	// variance of sdp bd14" its bias is MeanOracle1's and its noise variance
	// is O(dC²ln²(d/δ)/(ε²s²)) where MeanOracle1's is 4dC²/(ε²s²), so each
	// bound is its zCDP formula at ε̃ = ε/ln(d/δ) (ShuffleEps), the shuffle
	// ε and δ of an (ε, δ)-SDP run; conditions ε ≤ 15 and δ < 1/2 (lem: pvec),
	// then the base's, checked at ε̃ and written in ε̃ with its value (restate).
	SmoothConvexACSAShuffle = "smooth-convex-acsa-shuffle"
	SmoothSCSGDShuffle      = "smooth-sc-sgd-shuffle"
	PPLProxSGDShuffle       = "ppl-prox-sgd-shuffle"
	// SmoothConvexACSAShuffleCoord, SmoothSCSGDShuffleCoord and
	// PPLProxSGDShuffleCoord are smooth-convex-acsa, smooth-sc-sgd and
	// ppl-prox-sgd with MeanOracle1 replaced by the coordinate-wise shuffle
	// oracle (Algorithm "alg: CSDP MeanOracle", ShuffleMeanOracle2) under
	// Assumption "ass:coordinatewise": each is its chart bound with
	// r̃_k → √d·γ_k^(1/k), r̃₂ → √d·γ₂^(1/2) and ε → ε̃ = ε/ln(d/δ)
	// (shuffleCoordVariant says why, and what the paper leaves open);
	// conditions ε ≤ 8·ln(2d/δ) and δ < 1/2 (prop: sdp bias var) and
	// γ_k < ∞, then the base's, checked at the substituted inputs and
	// written in their symbols with their values (restate).
	SmoothConvexACSAShuffleCoord = "smooth-convex-acsa-shuffle-coord"
	SmoothSCSGDShuffleCoord      = "smooth-sc-sgd-shuffle-coord"
	PPLProxSGDShuffleCoord       = "ppl-prox-sgd-shuffle-coord"
	// NonsmoothConvexLocalizedEmp, the precise statement of "thm:
	// localization convex": R̃_{2k,n}·D·(1/√n + (√(d ln n)/(εn))^((k−1)/k)),
	// if ε ≤ √d; R̃_{2k,n} ≤ r̃_2k by "lem: empirical moments".
	NonsmoothConvexLocalizedEmp = "nonsmooth-convex-localized-emp"
	// NonsmoothSCLocalizedEmp, the precise statement of "thm: localization
	// strongly convex": (R̃_{2k,n/4}²/μ)(1/n + (√(d ln n)/(εn))^((2k−2)/k)),
	// if ε ≤ √d.
	NonsmoothSCLocalizedEmp = "nonsmooth-sc-localized-emp"
	// AsymptoticConvex and AsymptoticSC, Theorem "thm: asymptotic
	// optimality": for n ≥ N (not given) under its hypotheses,
	// r_2k·D·(1/√n + (√(d ln n)/(εn))^((k−1)/k)) and
	// (r_2k²/μ)(1/n + (√(d ln n)/(εn))^((2k−2)/k)).
	AsymptoticConvex = "asymptotic-convex"
	AsymptoticSC     = "asymptotic-sc"
	// AsymptoticConvexCoord and AsymptoticSCCoord, the corollary after
	// "thm: asymptotic optimality" under "ass:coordinatewise": r_2k replaced
	// by √d·γ_2k^(1/(2k)) (Lemma "lem: comparing assumptions").
	AsymptoticConvexCoord = "asymptotic-convex-coord"
	AsymptoticSCCoord     = "asymptotic-sc-coord"
	// LowerConvexNC and LowerConvexCoord, Theorem "thm: convex lower bound"
	// parts 2 and 3: D·(r₂/√n + r_k·min{1, (√d/(√ρn))^((k−1)/k)}) and
	// D·(γ₂^(1/2)·√(d/n) + γ_k^(1/k)·√d·min{1, (√d/(√ρn))^((k−1)/k)}).
	LowerConvexNC    = "lower-convex-nc"
	LowerConvexCoord = "lower-convex-coord"
	// LowerSCNC and LowerSCCoord, Theorem "thm: strongly convex lower bound"
	// parts 2 and 3: (1/μ)(r₂²/n + r_k²·min{1, (√d/(√ρn))^((2k−2)/k)}) and
	// (1/μ)(γ₂·d/n + γ_k^(2/k)·d·min{1, (√d/(√ρn))^((2k−2)/k)}).
	LowerSCNC    = "lower-sc-nc"
	LowerSCCoord = "lower-sc-coord"
)

// lowerConvexTerms are the terms of the convex lower bound with statistical
// coefficient stat (of n^(−1/2)) and privacy coefficient priv (of
// min{1, (√d/(√ρn))^h}).
func lowerConvexTerms(v vals, statName string, stat float64, privName string, priv float64) []powTerm {
	s := v.sqrtD / math.Sqrt(v.rho)
	return []powTerm{
		{statName, stat, -0.5, 0},
		minOf(powTerm{privName, priv, 0, 0}, powTerm{privName, mul(priv, math.Pow(s, v.h)), -v.h, 0}, v.n, v.lnN),
	}
}

// lowerSCTerms: statistical coefficient of 1/n, privacy coefficient of
// min{1, (√d/(√ρn))^e}.
func lowerSCTerms(v vals, statName string, stat float64, privName string, priv float64) []powTerm {
	s := v.sqrtD / math.Sqrt(v.rho)
	return []powTerm{
		{statName, stat, -1, 0},
		minOf(powTerm{privName, priv, 0, 0}, powTerm{privName, mul(priv, math.Pow(s, v.e)), -v.e, 0}, v.n, v.lnN),
	}
}

// lowerConvexConds are the hypotheses of the precise convex lower bound.
func lowerConvexConds(v vals) []Condition {
	return []Condition{rhoCond(v), dimCond(v),
		cond(v.n > 7202, "n > 7202 (precise statement, app: lower bounds; n = %s)", fmtNum(v.n))}
}

// localizedConvexTerms: c·D·(1/√n + (√(d ln n)/(εn))^h), c the moment.
func localizedConvexTerms(v vals, sym string, c float64) []powTerm {
	return []powTerm{
		{sym + "·D/√n (statistical)", mul(c, v.diam), -0.5, 0},
		{sym + "·D·(√(d ln n)/(εn))^((k−1)/k) (privacy)", mul(c, v.diam, math.Pow(v.sdOverEps, v.h)), -v.h, v.h / 2},
	}
}

// localizedSCTerms: (c²/μ)(1/n + (√(d ln n)/(εn))^e), with sq the name of c².
func localizedSCTerms(v vals, sq string, c float64) []powTerm {
	cc := mul(c, c) / v.mu
	return []powTerm{
		{sq + "/(μn) (statistical)", cc, -1, 0},
		{"(" + sq + "/μ)·(√(d ln n)/(εn))^((2k−2)/k) (privacy)", mul(cc, math.Pow(v.sdOverEps, v.e)), -v.e, v.e / 2},
	}
}

// asymptoticConds are the hypotheses of "thm: asymptotic optimality" that
// can be stated at one n: none of them can be verified, since the theorem
// holds only from an N it does not give.
func asymptoticConds(v vals) []Condition {
	cs := []Condition{
		cond(false, "n ≥ N for the theorem's unspecified N (not verifiable: thm: asymptotic optimality holds for n large enough; "+
			"its hypotheses — ‖∇f(w, x)‖^(2k) subexponential, sup‖∇f‖^(2k) ≤ n^q·r_2k^(2k), β-Lipschitz subgradients — are not checked here; n = %s)", fmtNum(v.n)),
		epsSqrtDCond(v),
	}
	if !math.IsNaN(v.r2k) {
		cs = append(cs, cond(!math.IsInf(v.r2k, 1), "r̃_2k < ∞ (thm: asymptotic optimality; r̃_2k = %s)", fmtNum(v.r2k)))
	}
	return cs
}

// empiricalCond is "lem: empirical moments" at the given R̃, when r̃_2k is
// given.
func empiricalCond(v vals, sym string, x float64) []Condition {
	if math.IsNaN(v.r2k) {
		return nil
	}
	return []Condition{cond(x <= v.r2k, "%s ≤ r̃_2k (lem: empirical moments; %s = %s, r̃_2k = %s)", sym, sym, fmtNum(x), fmtNum(v.r2k))}
}

// coreSpec is the chart bound id's spec.
func coreSpec(id string) spec {
	for _, s := range coreSpecs {
		if s.id == id {
			return s
		}
	}
	panic("theory: no core spec " + id) // unreachable: ids are constants of this package
}

// ShuffleEps is the ε at which a zCDP formula reproduces the noise of an
// (ε, δ)-shuffle-DP run of a MeanOracle1-based algorithm: ε̃ = ε/ln(d/δ).
// Lemma "lem: pvec" (Cheu et al., Theorem 3.2) gives P_vec's error
// variance O(dC²·ln²(d/δ)/ε²) for a sum of s vectors of norm ≤ C, where
// the Gaussian mechanism of MeanOracle1 has 4dC²/ε² (σ = 2C/(sε) on the
// mean): the clipping bias is the same (Lemma "bias and variance of sdp
// bd14"), so every analysis carries over with ε → ε/ln(d/δ) up to the
// lemma's hidden constant. A shuffle run prescribes T and C by the zCDP
// formulas at this ε (the solvers' prescriptions). NaN unless ε > 0,
// d ≥ 1 and δ ∈ (0, 1/2) (where ln(d/δ) ≥ ln 2 > 0).
func ShuffleEps(eps, d, delta float64) float64 {
	if !(eps > 0) || !(d >= 1) || !(delta > 0 && delta < 0.5) {
		return math.NaN()
	}
	return eps / math.Log(d/delta)
}

// substitution is one input of a base theorem that a variant evaluates
// at another quantity: the base's symbol (from), the variant's (to, as
// written inside a formula), the variant's quantity with its definition
// (def) and its value.
type substitution struct {
	from, to, def string
	value         float64
}

// epsTilde is the shuffle variants' ε → ε̃ = ε/ln(d/δ), at value et.
func epsTilde(et float64) substitution {
	return substitution{from: "ε", to: "ε̃", def: "ε̃ = ε/ln(d/δ)", value: et}
}

// replacer rewrites the base symbols of subs into the variant's in one
// pass, leaving a symbol that is already the variant's (ε̃ contains ε)
// as it is.
func replacer(subs []substitution) *strings.Replacer {
	var pairs []string
	for _, s := range subs {
		if s.to != s.from && strings.HasPrefix(s.to, s.from) {
			pairs = append(pairs, s.to, s.to) // listed first: matched first
		}
	}
	for _, s := range subs {
		pairs = append(pairs, s.from, s.to)
	}
	return strings.NewReplacer(pairs...)
}

// renameTerms writes the base's term names in the variant's symbols.
func renameTerms(terms []powTerm, subs []substitution) {
	r := replacer(subs)
	for i := range terms {
		terms[i].name = r.Replace(terms[i].name)
	}
}

// restate writes a base theorem's conditions, which the variant checked at
// the substituted inputs, in the variant's symbols, and appends to each
// that uses a substituted symbol the values it was checked at ("…; T = 3;
// at ε̃ = ε/ln(d/δ) = 0.054287)"), so that the text says what was checked:
// the numbers a base condition prints are already the substituted ones.
func restate(conds []Condition, subs []substitution) []Condition {
	r := replacer(subs)
	out := make([]Condition, len(conds))
	for i, c := range conds {
		var at []string
		for _, s := range subs {
			if strings.Contains(c.Text, s.from) {
				at = append(at, s.def+" = "+fmtNum(s.value))
			}
		}
		text := r.Replace(c.Text)
		if len(at) > 0 {
			note := "at " + strings.Join(at, ", ")
			if strings.HasSuffix(text, ")") {
				text = strings.TrimSuffix(text, ")") + "; " + note + ")"
			} else {
				text += " (" + note + ")"
			}
		}
		out[i] = Condition{Text: text, Holds: c.Holds}
	}
	return out
}

// shuffleVariant builds the shuffle-model spec of a MeanOracle1 chart bound.
func shuffleVariant(id, baseID string) spec {
	b := coreSpec(baseID)
	return spec{
		id: id, kind: b.kind, base: baseID, shuffle: true,
		title: b.title + ", shuffle model",
		label: "lem: pvec",
		source: "Lowy & Razaviyayn, [" + b.label + "] with the ℓ2-clip shuffle oracle of [app: SDP mean estimators] " +
			"(Lemma [lem: pvec], Lemma [lem: bias and variance of sdp bd14]): the zCDP bound at ε̃ = ε/ln(d/δ)",
		formula: replacer([]substitution{epsTilde(0)}).Replace(b.formula) + ", ε̃ = ε/ln(d/δ) (ε, δ: the shuffle-DP parameters)",
		needs:   append(append([]string{}, b.needs...), "delta"),
		eval: func(v vals) ([]powTerm, []Condition) {
			et := ShuffleEps(v.eps, v.d, v.delta)
			if math.IsNaN(et) { // δ ≥ 1/2: the lemma does not apply; evaluate at ln(d/δ) anyway
				et = v.eps / math.Log(v.d/v.delta)
			}
			terms, conds := b.eval(v.withEps(et))
			subs := []substitution{epsTilde(et)}
			renameTerms(terms, subs)
			conds = append([]Condition{
				cond(v.eps <= 15, "ε ≤ 15 (lem: pvec; ε = %s)", fmtNum(v.eps)),
				cond(v.delta < 0.5, "δ < 1/2 (lem: pvec; δ = %s)", fmtNum(v.delta)),
			}, restate(conds, subs)...)
			return terms, conds
		},
	}
}

// coordSubs are the substitutions of a chart bound's ass:tilde constants
// by their ass:coordinatewise counterparts (r_k ↔ √d·γ_k^(1/k), Lemma
// "lem: comparing assumptions" with constant 1), in names, formulas and
// conditions, at the values w (w.rk = √d·γ_k^(1/k), w.r2 = √d·γ₂^(1/2)),
// after ε → ε̃ at w.eps.
func coordSubs(w vals) []substitution {
	return []substitution{epsTilde(w.eps),
		{from: "r̃_k", to: "(√d·γ_k^(1/k))", def: "√d·γ_k^(1/k)", value: w.rk},
		{from: "r̃₂", to: "(√d·γ₂^(1/2))", def: "√d·γ₂^(1/2)", value: w.r2}}
}

// shuffleCoordVariant builds the spec of a one-pass chart bound run with
// the coordinate-wise shuffle oracle (Algorithm "alg: CSDP MeanOracle").
//
// What the paper states: Proposition "prop: sdp bias var" gives that
// oracle's bias Õ(√d(γ_k^(1/k)/√s + (2/τ)^(k−1)γ_k)) and noise variance
// Õ(τ²d·ln²(d/δ)/(s²ε²) + d(γ_k^(2/k)/s + γ_k²(2/τ)^(2k−2))), for
// ε ≤ 8·ln(2d/δ), δ ∈ (0, 1/2) and τ ≥ 2L; Remark "rem: sdp has same bias
// var" says these are the KLZ oracle's (Lemma "lem: priv bias var klz")
// up to logs, so that it gives "the same excess risk bounds as one would
// get by using" the KLZ oracle; the appendix's opening says both shuffle
// oracles attain the main body's upper bounds up to logs, and the remark
// after "lem: comparing assumptions" restates those bounds under
// ass:coordinatewise with r_k ↔ √d·γ_k^(1/k). No theorem of the paper
// writes the resulting excess risk out; this bound is that claim made
// explicit: with τ = C/√d, the KLZ oracle's clipping bias
// √d·γ_k(2/τ)^(k−1) = 2^(k−1)(√d·γ_k^(1/k))^k/C^(k−1) and noise
// dσ² ∝ m²·dC²/(s²ε²) are MeanOracle1's (Lemma "lem: bias and variance of
// bd14") at r_k = √d·γ_k^(1/k), up to constants and m = Õ(1), so the chart
// bound applies with those constants, at ε̃ = ε/ln(d/δ) as for the ℓ2
// shuffle oracle. Two caveats, stated in the source text: (1) the
// proposition's variance term τ²d·ln²(d/δ)/(s²ε²) sums its own
// per-coordinate bound m⁴τ²d·ln²(d/δ)/(s²ε²) over the d coordinates
// without the factor d; with it (τ²d²…, which is the KLZ oracle's dσ², as
// the remark requires) the noise is the Gaussian's at ε/ln(d/δ), the ε̃
// used here; (2) the lemmas count the median-of-means error
// √d·γ_k^(1/k)/√s as bias, and plugged as such into Proposition "prop:
// ACSA generic" (B·D) or "prop: strongly convex biased sgd" (2B²/μ) with
// s = n/T it would cost a factor √T (resp. T) over the statistical term;
// the remark's claim treats it as the sampling error it is. Constants 1,
// logs as stated; τ ≥ 2L (the oracle's threshold against
// L = sup‖∇F‖) is the proposition's choice of τ and is not checked by
// the rate.
func shuffleCoordVariant(id, baseID string) spec {
	b := coreSpec(baseID)
	var needs []string
	for _, n := range b.needs {
		switch n {
		case "r2":
			n = "g2"
		case "rk":
			n = "gk"
		}
		needs = append(needs, n)
	}
	return spec{
		id: id, kind: b.kind, base: baseID, shuffle: true, assumption: Coordinatewise,
		title: b.title + ", coordinate-wise shuffle oracle",
		label: "prop: sdp bias var",
		source: "Lowy & Razaviyayn, [" + b.label + "] with the coordinate-wise shuffle oracle of [app: SDP mean estimators] " +
			"(Algorithm [alg: CSDP MeanOracle], Proposition [prop: sdp bias var], Remark [rem: sdp has same bias var]: " +
			"the KLZ oracle's bias and variance, Lemma [lem: priv bias var klz], up to logs) under Assumption [ass:coordinatewise] " +
			"(r_k ↔ √d·γ_k^(1/k), remark after Lemma [lem: comparing assumptions]): the zCDP bound at ε̃ = ε/ln(d/δ). " +
			"The paper states this only as Õ(·), as a remark, with no theorem: evaluated with constants 1 and logs as stated; " +
			"it reads the proposition's variance with the factor d its proof drops (τ²d²·ln²(d/δ)/(s²ε²), the KLZ oracle's dσ²), " +
			"and the median-of-means error √d·γ_k^(1/k)/√s as sampling error (counted as bias, as the lemma states it, " +
			"it would add a factor √T in the convex case and T in the strongly convex ones); τ ≥ 2L is not checked",
		formula: replacer(coordSubs(vals{})).Replace(b.formula) + ", ε̃ = ε/ln(d/δ) (ε, δ: the shuffle-DP parameters)",
		needs:   append(needs, "delta"),
		eval: func(v vals) ([]powTerm, []Condition) {
			w := v.withEps(v.eps / math.Log(v.d/v.delta)) // at δ ≥ 1/2 the proposition does not apply; evaluated anyway
			w.rk, w.r2 = mul(v.sqrtD, v.gk), mul(v.sqrtD, v.g2)
			terms, conds := b.eval(w)
			subs := coordSubs(w)
			renameTerms(terms, subs)
			lim := 8 * math.Log(2*v.d/v.delta)
			conds = append([]Condition{
				cond(v.eps <= lim, "ε ≤ 8·ln(2d/δ) (prop: sdp bias var; ε = %s, 8·ln(2d/δ) = %s)", fmtNum(v.eps), fmtNum(lim)),
				cond(v.delta < 0.5, "δ < 1/2 (prop: sdp bias var; δ = %s)", fmtNum(v.delta)),
				cond(!math.IsInf(v.gk, 1) && !math.IsInf(v.g2, 1),
					"γ_k < ∞ and γ₂ < ∞ (ass:coordinatewise, prop: sdp bias var; γ_k^(1/k) = %s, γ₂^(1/2) = %s)", fmtNum(v.gk), fmtNum(v.g2)),
			}, restate(conds, subs)...)
			return terms, conds
		},
	}
}

// affineBeta is the smoothness below which Remark "rem: affine optimal"
// says Algorithm "ACSA" attains the optimal rate:
// β* = (r̃_k/D)·(√d/(εn))^((k−1)/k) + (r̃₂/D)/√n (the remark's ≲ with
// constant 1). At k = ∞, r̃_k = L_f.
func affineBeta(v vals) float64 {
	return mul(v.rk/v.diam, math.Pow(v.sdOverEps/v.n, v.h)) + v.r2/v.diam/math.Sqrt(v.n)
}

var variantSpecs = []spec{
	{
		id: SmoothConvexACSAOptimal, kind: Upper, base: SmoothConvexACSA,
		title:   "noisy clipped AC-SA at small β (optimal rate)",
		label:   "rem: affine optimal",
		source:  "Lowy & Razaviyayn, Remark [rem: affine optimal] (with Theorem [thm: convex ACSA one pass]): for sufficiently small β the optimal rate of [thm: convex lower bound] is attained",
		formula: "r̃₂·D/√n + r̃_k·D·a^((k−1)/k), if β ≤ (r̃_k/D)·a^((k−1)/k) + (r̃₂/D)/√n, a = √d/(εn)",
		needs:   []string{"n", "d", "eps", "k", "diam", "r2", "rk", "beta"},
		eval: func(v vals) ([]powTerm, []Condition) {
			bs := affineBeta(v)
			T := acsaT(v)
			return []powTerm{
					{"r̃₂·D/√n (statistical)", mul(v.r2, v.diam), -0.5, 0},
					{"r̃_k·D·a^((k−1)/k) (privacy)", mul(v.rk, v.diam, math.Pow(v.sdOverEps, v.h)), -v.h, 0},
				}, []Condition{
					cond(v.beta <= bs, "β ≤ r̃_k·a^((k−1)/k)/D + r̃₂/(D·√n) (rem: affine optimal, constant 1; β = %s, threshold %s)", fmtNum(v.beta), fmtNum(bs)),
					cond(v.n >= T, "n ≥ T of thm: convex ACSA one pass (complete version; T = %s)", fmtNum(T)),
				}
		},
	},
	shuffleVariant(SmoothConvexACSAShuffle, SmoothConvexACSA),
	shuffleVariant(SmoothSCSGDShuffle, SmoothSCSGD),
	shuffleVariant(PPLProxSGDShuffle, PPLProxSGD),
	shuffleCoordVariant(SmoothConvexACSAShuffleCoord, SmoothConvexACSA),
	shuffleCoordVariant(SmoothSCSGDShuffleCoord, SmoothSCSGD),
	shuffleCoordVariant(PPLProxSGDShuffleCoord, PPLProxSGD),
	{
		id: NonsmoothConvexLocalizedEmp, kind: Upper, base: NonsmoothConvexLocalized,
		title:   "localized noisy clipped subgradient (convex), empirical moments",
		label:   "thm: localization convex",
		source:  "Lowy & Razaviyayn, Theorem [thm: localization convex], precise statement in [app: localization] with R̃_{2k,n} of [subsub: notation] (Lemma [lem: empirical moments]: R̃_{2k,n} ≤ r̃_2k)",
		formula: "R̃_{2k,n}·D·(1/√n + (√(d·ln n)/(εn))^((k−1)/k))",
		needs:   []string{"n", "d", "eps", "k", "diam", "r2k-emp"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return localizedConvexTerms(v, "R̃_{2k,n}", v.r2kEmp),
				append([]Condition{epsSqrtDCond(v)}, empiricalCond(v, "R̃_{2k,n}", v.r2kEmp)...)
		},
	},
	{
		id: NonsmoothSCLocalizedEmp, kind: Upper, base: NonsmoothSCLocalized,
		title:   "localized noisy clipped subgradient (strongly convex), empirical moments",
		label:   "thm: localization strongly convex",
		source:  "Lowy & Razaviyayn, Theorem [thm: localization strongly convex], precise statement in [app: localization strongly] with R̃_{2k,n/4} of [subsub: notation]",
		formula: "(R̃_{2k,n/4}²/μ)·(1/n + (√(d·ln n)/(εn))^((2k−2)/k))",
		needs:   []string{"n", "d", "eps", "k", "mu", "r2k-emp4"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return localizedSCTerms(v, "R̃_{2k,n/4}²", v.r2kEmp4),
				append([]Condition{epsSqrtDCond(v)}, empiricalCond(v, "R̃_{2k,n/4}", v.r2kEmp4)...)
		},
	},
	{
		id: AsymptoticConvex, kind: Upper, base: NonsmoothConvexLocalized, assumption: Noncentral,
		title:   "localized noisy clipped subgradient (convex), asymptotic",
		label:   "thm: asymptotic optimality",
		source:  "Lowy & Razaviyayn, Theorem [thm: asymptotic optimality] ([app: asymptotic]): for n ≥ N, under Assumption [ass:boundednoncentral] and subexponential gradients",
		formula: "r_2k·D·(1/√n + (√(d·ln n)/(εn))^((k−1)/k)), n ≥ N",
		needs:   []string{"n", "d", "eps", "k", "diam", "r2k-nc"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return localizedConvexTerms(v, "r_2k", v.r2knc), asymptoticConds(v)
		},
	},
	{
		id: AsymptoticSC, kind: Upper, base: NonsmoothSCLocalized, assumption: Noncentral,
		title:   "localized noisy clipped subgradient (strongly convex), asymptotic",
		label:   "thm: asymptotic optimality",
		source:  "Lowy & Razaviyayn, Theorem [thm: asymptotic optimality] ([app: asymptotic]), strongly convex part: for n ≥ N",
		formula: "(r_2k²/μ)·(1/n + (√(d·ln n)/(εn))^((2k−2)/k)), n ≥ N",
		needs:   []string{"n", "d", "eps", "k", "mu", "r2k-nc"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return localizedSCTerms(v, "r_2k²", v.r2knc), asymptoticConds(v)
		},
	},
	{
		id: AsymptoticConvexCoord, kind: Upper, base: NonsmoothConvexLocalized, assumption: Coordinatewise,
		title:   "localized noisy clipped subgradient (convex), asymptotic, coordinate-wise moments",
		label:   "thm: asymptotic optimality",
		source:  "Lowy & Razaviyayn, Theorem [thm: asymptotic optimality] under Assumption [ass:coordinatewise]: r_2k ↔ √d·γ_2k^(1/(2k)) (Lemma [lem: comparing assumptions])",
		formula: "√d·γ_2k^(1/(2k))·D·(1/√n + (√(d·ln n)/(εn))^((k−1)/k)), n ≥ N",
		needs:   []string{"n", "d", "eps", "k", "diam", "g2k"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return localizedConvexTerms(v, "√d·γ_2k^(1/(2k))", mul(v.sqrtD, v.g2k)), asymptoticConds(v)
		},
	},
	{
		id: AsymptoticSCCoord, kind: Upper, base: NonsmoothSCLocalized, assumption: Coordinatewise,
		title:   "localized noisy clipped subgradient (strongly convex), asymptotic, coordinate-wise moments",
		label:   "thm: asymptotic optimality",
		source:  "Lowy & Razaviyayn, Theorem [thm: asymptotic optimality] under Assumption [ass:coordinatewise]: r_2k ↔ √d·γ_2k^(1/(2k)) (Lemma [lem: comparing assumptions])",
		formula: "(d·γ_2k^(1/k)/μ)·(1/n + (√(d·ln n)/(εn))^((2k−2)/k)), n ≥ N",
		needs:   []string{"n", "d", "eps", "k", "mu", "g2k"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return localizedSCTerms(v, "d·γ_2k^(1/k)", mul(v.sqrtD, v.g2k)), asymptoticConds(v)
		},
	},
	{
		id: LowerConvexNC, kind: Lower, base: LowerConvex, assumption: Noncentral,
		title:   "lower bound (convex), non-central moments",
		label:   "thm: convex lower bound",
		source:  "Lowy & Razaviyayn, Theorem [thm: convex lower bound] part 2 (precise statement in [app: lower bounds]), Assumption [ass:boundednoncentral]",
		formula: "D·(r₂/√n + r_k·min{1, (√d/(√ρ·n))^((k−1)/k)}), ρ = ε²/2",
		needs:   []string{"n", "d", "eps", "k", "diam", "r2-nc", "rk-nc"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return lowerConvexTerms(v, "D·r₂/√n (statistical)", mul(v.diam, v.r2nc),
				"D·r_k·min{1, (√d/(√ρ·n))^((k−1)/k)} (privacy)", mul(v.diam, v.rknc)), lowerConvexConds(v)
		},
	},
	{
		id: LowerConvexCoord, kind: Lower, base: LowerConvex, assumption: Coordinatewise,
		title:   "lower bound (convex), coordinate-wise moments",
		label:   "thm: convex lower bound",
		source:  "Lowy & Razaviyayn, Theorem [thm: convex lower bound] part 3 (precise statement in [app: lower bounds]), Assumption [ass:coordinatewise]",
		formula: "D·(γ₂^(1/2)·√(d/n) + γ_k^(1/k)·√d·min{1, (√d/(√ρ·n))^((k−1)/k)}), ρ = ε²/2",
		needs:   []string{"n", "d", "eps", "k", "diam", "g2", "gk"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return lowerConvexTerms(v, "D·γ₂^(1/2)·√(d/n) (statistical)", mul(v.diam, v.g2, v.sqrtD),
				"D·γ_k^(1/k)·√d·min{1, (√d/(√ρ·n))^((k−1)/k)} (privacy)", mul(v.diam, v.gk, v.sqrtD)), lowerConvexConds(v)
		},
	},
	{
		id: LowerSCNC, kind: Lower, base: LowerSC, assumption: Noncentral,
		title:   "lower bound (strongly convex), non-central moments",
		label:   "thm: strongly convex lower bound",
		source:  "Lowy & Razaviyayn, Theorem [thm: strongly convex lower bound] part 2 (precise statement in [app: lower bounds]), Assumption [ass:boundednoncentral]",
		formula: "(1/μ)·(r₂²/n + r_k²·min{1, (√d/(√ρ·n))^((2k−2)/k)}), ρ = ε²/2",
		needs:   []string{"n", "d", "eps", "k", "mu", "r2-nc", "rk-nc"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return lowerSCTerms(v, "r₂²/(μn) (statistical)", sq(v.r2nc)/v.mu,
				"(r_k²/μ)·min{1, (√d/(√ρ·n))^((2k−2)/k)} (privacy)", sq(v.rknc)/v.mu), []Condition{rhoCond(v), dimCond(v)}
		},
	},
	{
		id: LowerSCCoord, kind: Lower, base: LowerSC, assumption: Coordinatewise,
		title: "lower bound (strongly convex), coordinate-wise moments",
		label: "thm: strongly convex lower bound",
		source: "Lowy & Razaviyayn, Theorem [thm: strongly convex lower bound] part 3 (precise statement in [app: lower bounds]), Assumption [ass:coordinatewise]; " +
			"the statement's γ₂^(2/k) is read as (γ₂^(1/2))² = γ₂, the image of part 2's r₂² under r₂ ↔ √d·γ₂^(1/2)",
		formula: "(1/μ)·(γ₂·d/n + γ_k^(2/k)·d·min{1, (√d/(√ρ·n))^((2k−2)/k)}), ρ = ε²/2",
		needs:   []string{"n", "d", "eps", "k", "mu", "g2", "gk"},
		eval: func(v vals) ([]powTerm, []Condition) {
			return lowerSCTerms(v, "γ₂·d/(μn) (statistical)", mul(sq(v.g2), v.d)/v.mu,
				"(γ_k^(2/k)·d/μ)·min{1, (√d/(√ρ·n))^((2k−2)/k)} (privacy)", mul(sq(v.gk), v.d)/v.mu), []Condition{rhoCond(v), dimCond(v)}
		},
	},
}
