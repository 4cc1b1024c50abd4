package scenarios

import (
	"context"
	"fmt"
	"math"

	"dpso/scenarios/dist"
	"dpso/theory"
)

// The lower bounds' hard instances (mean-hard, affine-hard): their
// builders, for the catalogue (catalogue.go); the model type and the
// shared helpers are in builders.go.

// ---- lower-bound instances ----

// buildMeanHard builds the hard instance of the strongly convex lower
// bound (Theorem "strongly convex lower bound", proof of part 1, private
// term, eq:harddist): unscaled X = 0 with probability 1 − p and p^{−1/k}ν
// with probability p, p = min(1, √d/(n√ρ)); scaled by s = r̃/(2μ√d) with
// f̃ = μ·½‖w̃ − x̃‖², so x̃ ∈ {0, s p^{−1/k}ν}, ‖s p^{−1/k}ν‖ = r̃p^{−1/k}/(2μ)
// and E x̃ = s p^{1−1/k}ν.
//
// The domain deviates from the proof's, which is W = B(0, √d p^{−1/k})
// (scaled: radius r̃p^{−1/k}/(2μ)). There sup_{w∈W}‖μ(w − x̃)‖ equals μ times
// the radius at the atom x̃ = 0, so the proof's step
// E sup_w‖∇f‖^k ≤ E‖2μx̃‖^k = r̃^k fails, by a factor ≈ 1/(p2^k) (see
// TestMeanHardProofDomain). dpso uses the smallest ball that keeps the
// proof's reduction F(w) − F* = (μ/2)‖w − E x̃‖² (it needs E x̃ ∈ W):
// W = B(0, R) with R = ‖E x̃‖ = r̃p^{1−1/k}/(2μ). Projecting any estimator
// onto it does not increase ‖w − E x̃‖, so the lower bound is unchanged,
// and now the proof's moment claim holds: with a = μR, b = r̃p^{−1/k}/2,
//
//	r̃_j^j = (1 − p)a^j + p(a + b)^j,   r̃_k ≤ r̃,   L_f = a + b,
//
// (at j = k: (r̃/2)^k[(1 − p)p^{k−1} + (1 + p)^k] ≤ r̃^k), and
// F(w) = (μ/2)‖w − E x̃‖² + (μ/2)(E‖x̃‖² − ‖E x̃‖²), β = μ.
// meanHardDiam is mean-hard's diameter D = 2R = r̃p^{1−1/k}/μ (see
// buildMeanHard).
func meanHardDiam(s *ProblemDef) float64 {
	p := hardP(s.D, s.N, s.Eps)
	return s.Params["r"] * p * powInvK(p, s.K) / s.Params["curvature"]
}

func buildMeanHard(_ context.Context, s *ProblemDef) (*model, error) {
	d, k := s.D, s.K
	r, mu := s.Params["r"], s.Params["curvature"]
	p := hardP(d, s.N, s.Eps)
	pk := powInvK(p, k)
	sc := r / (2 * mu * math.Sqrt(float64(d)))
	atomNorm := sc * math.Sqrt(float64(d)) * pk
	R := p * atomNorm
	atom := make([]float64, d)
	mean := make([]float64, d)
	h := make([]float64, d)
	for j := range atom {
		atom[j] = sc * pk * hardSign(j)
		mean[j] = p * atom[j]
		h[j] = mu
	}
	ex2 := p * atomNorm * atomNorm
	m := &model{obj: &meanQuad{d: d, mu: mu}, d: d, sdim: d, radius: R, beta: mu, mu: mu, betaF: mu}
	m.draw = eachRow(m.sdim, func(rr *dist.Rand, x []float64) {
		if rr.Float64() < p {
			copy(x, atom)
		} else {
			clear(x)
		}
	})
	m.risk = newQuadRisk(h, mean, mu/2*(ex2-sqnorm(mean)), 0, 0, R)
	m.twoPoint = &twoPointLaw{p: p, atom: atom}
	a, b := mu*R, mu*atomNorm
	m.prof = &profile{lf: a + b, kmax: math.Inf(1), method: "exact (two-point law)",
		eval: func(j float64) (float64, float64) {
			// ((1−p)a^j + p(a+b)^j)^{1/j}, factored to avoid overflow.
			t := (1-p)*math.Pow(a/(a+b), j) + p
			return (a + b) * math.Pow(t, 1/j), 0
		}}
	m.sup = meanHardSup(mu, R, sc*pk, p, m.prof)
	m.notes = append(m.notes,
		fmt.Sprintf("the proof's p = min(1, √d/(n√ρ)) = %s; ν_j = (−1)^j", theory.Sig4.Format(p)),
		fmt.Sprintf("W = B(0, ‖E x‖) with D = r̃p^{1−1/k}/μ = %s, not the proof's B(0, r̃p^{−1/k}/(2μ)), on which its moment bound fails at the atom x = 0; the lower bound is unchanged", theory.Sig4.Format(2*R)),
	)
	if d < 40 {
		m.notes = append(m.notes, "the lower-bound theorem assumes d ≥ 40; this is its distribution, but its constant is not guaranteed here")
	}
	return m, nil
}

// buildAffineHard builds the hard instance of the convex lower bound
// (Theorem "convex lower bound", part 1, private term): f(w, x) = −⟨w, x⟩
// on W = B(0, D/2), x = (r̃/√d)·X with X = 0 with probability 1 − p and
// p^{−1/k}ν with probability p, the distribution the proof takes from
// [klz21, Theorem 6.4] (same p = min(1, √d/(n√ρ)) as eq:harddist). ∇f = −x
// does not depend on w, so, exactly as the proof states,
//
//	r̃_j = (p (r̃ p^{−1/k})^j)^{1/j} = r̃ p^{1/j − 1/k}  (r̃_k = r̃),
//	L_f = r̃ p^{−1/k},  F(w) = −⟨w, E x⟩,  F* = −(D/2) r̃ p^{1−1/k}.
//
// f is linear, so β = 0 (it is β_f-smooth for every β_f ≥ 0).
func buildAffineHard(_ context.Context, s *ProblemDef) (*model, error) {
	d, k, R := s.D, s.K, s.Diam/2
	r := s.Params["r"]
	p := hardP(d, s.N, s.Eps)
	pk := powInvK(p, k)
	atom := make([]float64, d)
	mean := make([]float64, d)
	for j := range atom {
		atom[j] = r / math.Sqrt(float64(d)) * pk * hardSign(j)
		mean[j] = p * atom[j]
	}
	m := &model{obj: &linear{d: d}, d: d, sdim: d, radius: R, betaF: 0}
	m.draw = eachRow(m.sdim, func(rr *dist.Rand, x []float64) {
		if rr.Float64() < p {
			copy(x, atom)
		} else {
			clear(x)
		}
	})
	m.risk = &linRisk{m: mean, radius: R}
	m.twoPoint = &twoPointLaw{p: p, atom: atom}
	m.prof = &profile{lf: r * pk, kmax: math.Inf(1), method: "exact (two-point law)",
		eval: func(j float64) (float64, float64) {
			if math.IsInf(k, 1) {
				return r * math.Pow(p, 1/j), 0
			}
			return r * math.Pow(p, 1/j-1/k), 0
		}}
	m.sup = affineHardSup(r/math.Sqrt(float64(d))*pk, p, p*r*pk, m.prof)
	m.notes = append(m.notes,
		fmt.Sprintf("the proof's p = min(1, √d/(n√ρ)) = %s; ν_j = (−1)^j; r̃_k = r̃ exactly, as the proof states", theory.Sig4.Format(p)),
		"f is linear: β = 0 (every β_f ≥ 0 is a valid smoothness constant)")
	if d < 40 || s.N <= 7202 {
		m.notes = append(m.notes, "the convex lower-bound theorem assumes d ≥ 40 and n > 7202; this is its distribution, but its constant is not guaranteed here")
	}
	return m, nil
}
