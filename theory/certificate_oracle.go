package theory

import "math"

// Mean oracles: the bias B (‖b_t‖ ≤ B) and variance Σ² (E‖N_t‖² ≤ Σ²) that
// the propositions take.

// OracleBound is a mean oracle's guarantee at one call: ‖E ν̃ − ν‖ ≤ B and
// E‖ν̃ − E ν̃‖² ≤ Sigma2, for every point at which it is called.
type OracleBound struct {
	B, Sigma2 float64
	// Source cites the lemma the two numbers come from.
	Source string
}

// ClipBias is the clipping bias of Lemma "lem: bias and variance of bd14":
// for z with E‖z‖^k ≤ r^k, ‖E Π_C(z) − E z‖ ≤ r^k/((k−1)C^{k−1}), computed
// as C·(r/C)^k/(k−1). Limits: C = +Inf (no clipping) gives 0; k = +Inf
// gives 0 when r ≤ C (nothing is clipped: r = r̃_∞ = L_f) and +Inf
// otherwise; r = +Inf (the moment does not exist) gives +Inf. NaN for
// k < 2, C ≤ 0 or r < 0.
func ClipBias(k, r, C float64) float64 {
	switch {
	case !(k >= 2) || !(C > 0) || !(r >= 0):
		return math.NaN()
	case math.IsInf(C, 1):
		return 0
	case math.IsInf(r, 1):
		return math.Inf(1)
	case math.IsInf(k, 1):
		if r <= C {
			return 0
		}
		return math.Inf(1)
	}
	return C * math.Pow(r/C, k) / (k - 1)
}

// MeanOracle1Input are the numbers of one call of MeanOracle1, or of the
// ℓ2-clip shuffle oracle (Algorithm "sdp clip MeanOracle"): its bias is the
// same and its noise is unbiased (Lemma "bias and variance of sdp bd14"),
// so pass Sigma² = E‖ν̃ − ν̂‖²/d, the protocol's own per-call noise variance
// per coordinate — Lemma "lem: pvec" states it only as O(dC²ln²(d/δ)/(ε²s²)),
// with a constant it does not give.
type MeanOracle1Input struct {
	K     float64 // moment order k ∈ [2, ∞]
	Dim   float64 // d
	Batch float64 // s, the samples of the call (the smallest batch of a run)
	Clip  float64 // C ∈ (0, ∞]
	Sigma float64 // the per-coordinate noise σ actually added (≥ 0)
	// Rk and R2 bound the gradient moments at every point the oracle is
	// called: sup_w E‖∇f(w, x)‖^k ≤ Rk^k and sup_w E‖∇f(w, x)‖² ≤ R2², i.e.
	// r_k and r_2 of "ass:boundednoncentral" (or r̃_k, r̃_2, which bound
	// them).
	Rk, R2 float64
}

// MeanOracle1Bound is Lemma "lem: bias and variance of bd14" (Barber &
// Duchi) for one call: B = Rk^k/((k−1)C^{k−1}) (ClipBias) and
// Σ² = dσ² + R2²/s.
func MeanOracle1Bound(in MeanOracle1Input) (OracleBound, error) {
	const id = "MeanOracle1"
	if err := firstErr(
		need(in.K >= 2, id, "k", "= %s is not in [2, ∞]", fmtNum(in.K)),
		need(in.Dim >= 1 && !math.IsInf(in.Dim, 1), id, "d", "= %s is not in [1, ∞)", fmtNum(in.Dim)),
		need(in.Batch >= 1 && !math.IsInf(in.Batch, 1), id, "batch", "= %s is not in [1, ∞)", fmtNum(in.Batch)),
		need(pos(in.Clip), id, "clip", "= %s is not in (0, ∞]", fmtNum(in.Clip)),
		need(nonneg(in.Sigma), id, "sigma", "= %s is not in [0, ∞]", fmtNum(in.Sigma)),
		need(nonneg(in.Rk), id, "rk", "= %s is not in [0, ∞]", fmtNum(in.Rk)),
		need(nonneg(in.R2), id, "r2", "= %s is not in [0, ∞]", fmtNum(in.R2)),
	); err != nil {
		return OracleBound{}, err
	}
	return OracleBound{
		B:      ClipBias(in.K, in.Rk, in.Clip),
		Sigma2: mul(in.Dim, in.Sigma, in.Sigma) + mul(in.R2, in.R2)/in.Batch,
		Source: "Lemma [lem: bias and variance of bd14]: B = r_k^k/((k−1)C^(k−1)), Σ² = dσ² + r₂²/s",
	}, nil
}
