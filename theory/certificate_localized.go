package theory

import (
	"fmt"
	"math"
	"strings"
)

// The localized method's certificates: one phase's Lemma "lem: subgrad
// ERM bound" and Corollary "cor: reg ERM excess risk", composed over the
// phases into Theorems "thm: localization convex" and "thm: localization
// strongly convex" at a run's own schedule.

// SubgradERMInput are one phase's numbers for Lemma "lem: subgrad ERM
// bound" (Algorithm "clipped GD" on F̂_λ(w) = (1/n)Σ f(w, x_i) +
// (λ/2)‖w − w₀‖² over a domain of diameter Diam).
type SubgradERMInput struct {
	K, Dim float64
	T      int     // iterations T ≥ 1
	Eta    float64 // step size η
	Lambda float64 // regularization λ > 0
	Clip   float64 // C ∈ (0, ∞]
	Sigma  float64 // per-coordinate noise σ (σ² = 4C²T/(n²ε²) as prescribed)
	Diam   float64 // the diameter of the domain the phase projects onto
	// Dist0 bounds ‖w₀ − ŵ‖ (≤ Diam), ŵ = argmin F̂_λ.
	Dist0 float64
	// EmpR2 and EmpRk are the empirical moments: EmpR2² ≥ sup_w
	// ‖(1/n)Σ∇f(w, x_i)‖² — the lemma's r̂_n(X) itself, or the square root
	// of the sup of the second empirical moment, as the proof of "thm:
	// localization convex" uses it — and EmpRk = r̂_n(X) = (sup_w
	// (1/n)Σ‖∇f(w, x_i)‖^k)^{1/k}; for an expected bound over the data pass
	// (ẽ^(2))^{1/2} and (ẽ^(2k))^{1/(2k)} = r̃_{2k,n} (see LocalizedConvex).
	EmpR2, EmpRk float64
}

func (in SubgradERMInput) check(id string) error {
	return firstErr(
		need(in.K >= 2, id, "k", "= %s is not in [2, ∞]", fmtNum(in.K)),
		need(in.Dim >= 1 && !math.IsInf(in.Dim, 1), id, "d", "= %s is not in [1, ∞)", fmtNum(in.Dim)),
		need(in.T >= 1, id, "T", "= %d is not ≥ 1", in.T),
		need(finitePos(in.Eta), id, "eta", "= %s is not in (0, ∞)", fmtNum(in.Eta)),
		need(finitePos(in.Lambda), id, "lambda", "= %s is not in (0, ∞)", fmtNum(in.Lambda)),
		need(pos(in.Clip), id, "clip", "= %s is not in (0, ∞]", fmtNum(in.Clip)),
		need(nonneg(in.Sigma), id, "sigma", "= %s is not in [0, ∞]", fmtNum(in.Sigma)),
		need(finitePos(in.Diam), id, "diam", "= %s is not in (0, ∞)", fmtNum(in.Diam)),
		need(nonneg(in.Dist0), id, "dist0", "= %s is not in [0, ∞)", fmtNum(in.Dist0)),
		need(nonneg(in.EmpR2), id, "emp-r2", "= %s is not in [0, ∞]", fmtNum(in.EmpR2)),
		need(nonneg(in.EmpRk), id, "emp-rk", "= %s is not in [0, ∞]", fmtNum(in.EmpRk)),
	)
}

// subgradTerms are the three terms of Lemma "lem: subgrad ERM bound".
func (in SubgradERMInput) terms() []Term {
	lam, eta := in.Lambda, in.Eta
	Bh := ClipBias(in.K, in.EmpRk, in.Clip)
	return []Term{
		{Name: "exp(−ληT/2)·‖w₀ − ŵ‖² (optimization)", Value: math.Exp(-lam*eta*float64(in.T)/2) * in.Dist0 * in.Dist0},
		{Name: "(8η/λ)(r̂² + λ²D² + dσ²) (noise)", Value: 8 * eta / lam * (mul(in.EmpR2, in.EmpR2) + lam*lam*in.Diam*in.Diam + mul(in.Dim, in.Sigma, in.Sigma))},
		{Name: "(20/λ²)·(r̂^(k)/((k−1)C^(k−1)))² (clipping bias)", Value: 20 * mul(Bh, Bh) / (lam * lam)},
	}
}

// LocalizedPhase is one phase i of Algorithm "localization" as run.
type LocalizedPhase struct {
	N      float64 // n_i, the phase's batch
	T      int     // T_i
	Eta    float64 // η_i
	Lambda float64 // λ_i
	Radius float64 // D_i (+Inf: no localization ball)
	Clip   float64 // C_i ∈ (0, ∞]
	Sigma  float64 // σ_i
	// EmpR2 = (ẽ^(2)_{n_i})^{1/2} and EmpR2k = r̃_{2k,n_i} = (ẽ^(2k)_{n_i})^{1/(2k)}:
	// the expected sup-over-W empirical moments of a batch of n_i samples
	// ("subsub: notation"); r̃_2 and r̃_2k bound them (Lemma "lem:
	// empirical moments").
	EmpR2, EmpR2k float64
}

// LocalizedInput are a run's numbers for the composition in the proof of
// Theorem "thm: localization convex".
type LocalizedInput struct {
	K, Dim float64
	// Diam is the diameter D of W.
	Diam float64
	// Dist0 bounds E‖w₀ − w*‖² as its square root (Diam will do).
	Dist0 float64
	// L bounds sup_W ‖∇F‖ (r_k, r̃_k or r_2 will do: Jensen).
	L float64
	// RkTilde is r̃_k (Chebyshev on sup_w‖∇f(w, x)‖ for the localization
	// event).
	RkTilde float64
	// R2 is r_2 of "ass:boundednoncentral" (Proposition "cor: reg ERM
	// excess risk").
	R2     float64
	Phases []LocalizedPhase
}

// LocalizedConvex is the composition of the excess-risk proof of Theorem
// "thm: localization convex" (precise statement, app: localization) at the
// run's phases, with every constant the proof writes explicitly. With
// ŵ_i = argmin_W F̂_i, ŵ₀ = w*, and E_i the bound of Lemma "lem: subgrad
// ERM bound" on E‖w_i − ŵ_i‖² in expectation over the batch,
//
//	E_i = e^{−λ_iη_iT_i/2}·min(D, D_i)² + (8η_i/λ_i)(ẽ^(2)_{n_i} + λ_i²D_{W_i}² + dσ_i²)
//	      + 20·ẽ^(2k)_{n_i}/(λ_i²(k−1)²C_i^{2k−2}),   D_{W_i} = min(D, 2D_i),
//
// (on the event that every ŵ_i lies in W_i = W ∩ B(w_{i−1}, D_i), where
// ‖w_{i−1} − ŵ_i‖ ≤ D_i), the proof's decomposition
// E F(w_l) − F* = E[F(w_l) − F(ŵ_l)] + Σ_i E[F(ŵ_i) − F(ŵ_{i−1})] gives
//
//	L·√E_l + Σ_i 2r₂²/(λ_i n_i) + (λ₁/2)·E‖w₀ − w*‖² + Σ_{i≥2} (λ_i/2)·E_{i−1} + L·D·P_fail,
//
// the first by L-Lipschitz continuity of F, the sum by Proposition "cor:
// reg ERM excess risk" with y = ŵ_{i−1}, and the last term for the event
// that some ŵ_i ∉ W_i, where F(w_l) − F* ≤ L·D: by Chebyshev on the
// batch's mean sup-norm (as in the proof), P_fail ≤ min{1, Σ_i
// (2r̃_k/(λ_iD_i))^k}.
//
// Conditions: η_i ≤ 2/λ_i in every phase (the lemma's), E‖w₀ − w*‖ ≤ D.
// One step is the proof's, not checked: it applies the lemma conditionally
// on the localization event and then bounds the empirical moments by their
// unconditional expectations ẽ; the certificate follows the proof as
// written. The theorem's final rate (its choice of η and T_i and the bound
// by R̃_{2k,n}) hides constants and is not part of this certificate.
func LocalizedConvex(in LocalizedInput) (Certificate, error) {
	terms, conds, err := localizedTerms(CertLocalized, in)
	if err != nil {
		return Certificate{}, err
	}
	c := Certificate{ID: CertLocalized, Title: "localized noisy clipped subgradient method, composed over its phases", Label: "thm: localization convex",
		Source: "Lowy & Razaviyayn, proof of Theorem [thm: localization convex] (precise statement, [app: localization]): " +
			"Lemma [lem: subgrad ERM bound] per phase, Proposition [cor: reg ERM excess risk] between phases, Chebyshev for the localization event",
		Formula:    "L·√E_l + Σ 2r₂²/(λ_i n_i) + (λ₁/2)‖w₀ − w*‖² + Σ_{i≥2} (λ_i/2)·E_{i−1} + L·D·P_fail",
		Quantity:   "E F(w_l) − F*",
		Conditions: conds}
	return finish(c, terms), nil
}

// localizedTerms evaluates the composition of LocalizedConvex.
func localizedTerms(id string, in LocalizedInput) ([]Term, []Condition, error) {
	if err := firstErr(
		need(in.K >= 2, id, "k", "= %s is not in [2, ∞]", fmtNum(in.K)),
		need(in.Dim >= 1 && !math.IsInf(in.Dim, 1), id, "d", "= %s is not in [1, ∞)", fmtNum(in.Dim)),
		need(finitePos(in.Diam), id, "diam", "= %s is not in (0, ∞)", fmtNum(in.Diam)),
		need(nonneg(in.Dist0) && !math.IsInf(in.Dist0, 1), id, "dist0", "= %s is not in [0, ∞)", fmtNum(in.Dist0)),
		need(nonneg(in.L), id, "L", "= %s is not in [0, ∞]", fmtNum(in.L)),
		need(nonneg(in.RkTilde), id, "rk", "= %s is not in [0, ∞]", fmtNum(in.RkTilde)),
		need(nonneg(in.R2), id, "r2", "= %s is not in [0, ∞]", fmtNum(in.R2)),
		need(len(in.Phases) >= 1, id, "phases", "is empty"),
	); err != nil {
		return nil, nil, err
	}
	D := in.Diam
	var gen, loc, pfail, prevE, lastE float64
	worst := 0.0 // max η_iλ_i/2
	for i, ph := range in.Phases {
		if ph.N < 1 || math.IsInf(ph.N, 1) || !pos(ph.Radius) {
			return nil, nil, need(false, id, fmt.Sprintf("phase %d", i+1), "has n_i = %s, D_i = %s (want n_i ≥ 1, D_i > 0)", fmtNum(ph.N), fmtNum(ph.Radius))
		}
		sub := SubgradERMInput{K: in.K, Dim: in.Dim, T: ph.T, Eta: ph.Eta, Lambda: ph.Lambda, Clip: ph.Clip, Sigma: ph.Sigma,
			Diam: math.Min(D, 2*ph.Radius), Dist0: math.Min(D, ph.Radius), EmpR2: ph.EmpR2, EmpRk: ph.EmpR2k}
		if err := sub.check(fmt.Sprintf("%s phase %d", id, i+1)); err != nil {
			return nil, nil, err
		}
		worst = math.Max(worst, ph.Eta*ph.Lambda/2)
		E := 0.0
		for _, t := range sub.terms() {
			E += t.Value
		}
		gen += 2 * mul(in.R2, in.R2) / (ph.Lambda * ph.N)
		if i == 0 {
			loc += ph.Lambda / 2 * in.Dist0 * in.Dist0
		} else {
			loc += mul(ph.Lambda/2, prevE)
		}
		prevE, lastE = E, E
		// Chebyshev: P(mean sup-norm of the batch > λ_iD_i/2) ≤ (2r̃_k/(λ_iD_i))^k.
		if !math.IsInf(ph.Radius, 1) {
			r := 2 * in.RkTilde / (ph.Lambda * ph.Radius)
			switch {
			case math.IsInf(in.K, 1):
				if r > 1 {
					pfail += 1
				}
			default:
				pfail += math.Pow(r, in.K)
			}
		}
	}
	pfail = math.Min(1, pfail)
	conds := []Condition{
		cond(worst <= 1, "η_i ≤ 2/λ_i in every phase (lem: subgrad ERM bound; max η_iλ_i/2 = %s)", fmtNum(worst)),
		cond(in.Dist0 <= D, "‖w₀ − w*‖ ≤ D (%s ≤ %s)", fmtNum(in.Dist0), fmtNum(D)),
	}
	terms := []Term{
		{Name: "L·√E‖w_l − ŵ_l‖² (last phase's optimization error)", Value: mul(in.L, math.Sqrt(lastE))},
		{Name: "Σ_i 2r₂²/(λ_i·n_i) (generalization of regularized ERM)", Value: gen},
		{Name: "(λ₁/2)‖w₀ − w*‖² + Σ_{i≥2} (λ_i/2)·E‖w_{i−1} − ŵ_{i−1}‖² (localization)", Value: loc},
		{Name: "L·D·P(some ŵ_i ∉ W_i) (localization event)", Value: mul(in.L, D, pfail)},
	}
	return terms, conds, nil
}

// LocalizedSCInput are a run's numbers for the strongly convex reduction
// of "app: localization strongly": stage j runs Algorithm "localization"
// from the previous stage's output.
type LocalizedSCInput struct {
	// Mu is the strong convexity of f(·, x) (hence of F).
	Mu float64
	// Delta0 bounds F(w₀) − F*.
	Delta0 float64
	// Stages are the stages' inputs; their Dist0 is ignored (the chain
	// sets it).
	Stages []LocalizedInput
}

// LocalizedSC composes LocalizedConvex over the stages of the strongly
// convex reduction, following the proof of Theorem "thm: localization
// strongly convex" (app: localization strongly) with its absolute
// constant a replaced by the explicit composition: with Δ_j the bound on
// E F(w_j) − F*, strong convexity gives E‖w_j − w*‖² ≤ 2Δ_j/μ (the proof's
// D_j² ≤ 2Δ_j/μ), which enters stage j+1 only through its term
// (λ₁/2)·E‖w_j − w*‖²; so stage j+1 is LocalizedConvex with
// E‖w_j − w*‖² ≤ min(D², 2Δ_j/μ), from Δ_0 = Delta0. The value is Δ_M; its
// terms are the last stage's. The reduction's own statement (constants a
// and 2^A) is not used. Conditions: every stage's.
func LocalizedSC(in LocalizedSCInput) (Certificate, error) {
	id := CertLocalizedSC
	if err := firstErr(
		need(finitePos(in.Mu), id, "mu", "= %s is not in (0, ∞)", fmtNum(in.Mu)),
		need(nonneg(in.Delta0) && !math.IsInf(in.Delta0, 1), id, "delta0", "= %s is not in [0, ∞)", fmtNum(in.Delta0)),
		need(len(in.Stages) >= 1, id, "stages", "is empty"),
	); err != nil {
		return Certificate{}, err
	}
	delta := in.Delta0
	var terms []Term
	var conds []Condition
	for j, st := range in.Stages {
		st.Dist0 = math.Sqrt(math.Min(st.Diam*st.Diam, 2*delta/in.Mu))
		t, cs, err := localizedTerms(fmt.Sprintf("%s stage %d", id, j+1), st)
		if err != nil {
			return Certificate{}, err
		}
		for _, c := range cs {
			c.Text = fmt.Sprintf("stage %d: %s", j+1, c.Text)
			conds = append(conds, c)
		}
		delta = 0
		for _, x := range t {
			delta += x.Value
		}
		terms = t
	}
	c := Certificate{ID: id, Title: "localized method, strongly convex reduction, composed over its stages", Label: "thm: localization strongly convex",
		Source: "Lowy & Razaviyayn, proof of Theorem [thm: localization strongly convex] ([app: localization strongly]) with each stage bounded by the composition of the proof of [thm: localization convex] " +
			"and E‖w_j − w*‖² ≤ 2Δ_j/μ (strong convexity)",
		Formula:    "Δ_M, Δ_{j+1} = localized-convex of stage j+1 with E‖w_j − w*‖² ≤ min(D², 2Δ_j/μ), Δ_0 ≥ F(w₀) − F*",
		Quantity:   "E F(w_M) − F*",
		Conditions: conds}
	for i := range terms {
		terms[i].Name = strings.Replace(terms[i].Name, "(λ₁/2)‖w₀ − w*‖²", "(λ₁/2)·min(D², 2Δ_{M−1}/μ)", 1)
	}
	return finish(c, terms), nil
}
