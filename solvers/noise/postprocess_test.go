package noise

import (
	"math"
	"testing"
)

// gaussDelta is the hockey-stick divergence of the Gaussian mechanism with
// sensitivity/σ = μ: δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Balle &
// Wang 2018, Theorem 8), written as differences of upper tails.
func gaussDelta(mu, eps float64) float64 {
	return phi(-eps/mu+mu/2) - math.Exp(eps)*phi(-eps/mu-mu/2)
}

// hockey is Σ_j max(0, P(j) − e^ε Q(j)), the smallest δ for which the
// pair (P, Q) is (ε, δ)-indistinguishable in that direction.
func hockey(p, q []float64, eps float64) float64 {
	var d float64
	for j := range p {
		d += math.Max(0, p[j]-math.Exp(eps)*q[j])
	}
	return d
}

// renyi is D_α(P‖Q) = ln(Σ_j P(j)^α Q(j)^{1−α})/(α − 1), over the j
// where both probabilities are representable (the terms of the sum follow
// a Gaussian profile centred (α − 1)Δ from P's centre, so with
// (α − 1)Δ ≤ 6σ̃ what underflows is below e^{−200} of the sum).
func renyi(p, q []float64, alpha float64) float64 {
	var s float64
	for j := range p {
		if p[j] > 0 && q[j] > 0 {
			s += math.Exp(alpha*math.Log(p[j]) + (1-alpha)*math.Log(q[j]))
		}
	}
	return math.Log(s) / (alpha - 1)
}

// TestRoundingIsPostProcessing, the accounting of the rounding from first
// principles: the release round_γ(v + σ̃Z) of two neighbouring values v,
// v + Δ has, on the lattice, the laws P(j) = Φ((j + 1/2 − v/γ)/S) −
// Φ((j − 1/2 − v/γ)/S) and Q likewise (the law TestRoundedNormalLaw checks
// the sampler against). Its privacy loss is at most the Gaussian
// mechanism's at μ = Δ/σ̃ ≤ Δ/σ, whatever Δ and the offset of v on the
// lattice: every hockey-stick divergence δ(ε) on a grid of ε, both
// directions, is at most the Gaussian curve's, and every Rényi divergence
// of order α ∈ {1.5, 2, 3} at most αμ²/2 (ρ-zCDP with ρ = μ²/2). So the
// rounding costs no sensitivity: nothing is added to Δ, nor a correction
// to ρ. The lattice is made coarse here (S = σ̃/γ = 2, 3, 5 instead of
// 2²⁰), where a rounding that leaked would show most.
//
// The control: the discrete Gaussian N_ℤ(0, s²) of Canonne, Kamath &
// Steinke (2020) shifted by an integer Δ — ρ-zCDP at ρ = Δ²/(2s²) by their
// Theorem 14 — is not bounded by the Gaussian curve: at s = 3, Δ = 10 its
// δ(ε) exceeds the curve's, so the comparison can fail, and dpso's exact
// (ε', δ) statements (the Gaussian curve) would not cover that mechanism.
func TestRoundingIsPostProcessing(t *testing.T) {
	lawAt := func(c, s float64, lo, hi int) []float64 {
		p := make([]float64, hi-lo+1)
		for j := lo; j <= hi; j++ {
			a, b := (float64(j)-0.5-c)/s, (float64(j)+0.5-c)/s
			if a > 0 {
				p[j-lo] = phi(-a) - phi(-b)
			} else {
				p[j-lo] = phi(b) - phi(a)
			}
		}
		return p
	}
	for _, tc := range []struct{ s, v, delta float64 }{
		{2, 0, 1}, {2, 0.3, 0.7}, {3, -0.41, 2.5}, {3, 0.5, 3}, {5, 0.12, 1.37}, {5, 0.77, 9.9},
	} {
		lo, hi := int(-40*tc.s-tc.delta), int(40*tc.s+tc.delta)
		p := lawAt(tc.v, tc.s, lo, hi)
		q := lawAt(tc.v+tc.delta, tc.s, lo, hi)
		mu := tc.delta / tc.s
		for e := 0.0; e <= mu*mu/2+6*mu; e += mu / 20 {
			g := gaussDelta(mu, e)
			for dir, d := range []float64{hockey(p, q, e), hockey(q, p, e)} {
				if d > g+1e-13 {
					t.Errorf("S = %g, v = %g, Δ = %g, direction %d: δ(%.3f) = %.6g above the Gaussian curve's %.6g", tc.s, tc.v, tc.delta, dir, e, d, g)
				}
			}
		}
		for _, alpha := range []float64{1.5, 2, 3} {
			if d, bound := renyi(p, q, alpha), alpha*mu*mu/2; d > bound*(1+1e-9) {
				t.Errorf("S = %g, v = %g, Δ = %g: D_%g = %.6g above αμ²/2 = %.6g", tc.s, tc.v, tc.delta, alpha, d, bound)
			}
		}
	}

	// The control: N_ℤ(0, 9) against N_ℤ(10, 9).
	const s, delta = 3.0, 10
	lo, hi := -200, 200
	p, q := make([]float64, hi-lo+1), make([]float64, hi-lo+1)
	var zp, zq float64
	for j := lo; j <= hi; j++ {
		p[j-lo] = math.Exp(-float64(j*j) / (2 * s * s))
		q[j-lo] = math.Exp(-float64((j-delta)*(j-delta)) / (2 * s * s))
		zp += p[j-lo]
		zq += q[j-lo]
	}
	for j := range p {
		p[j] /= zp
		q[j] /= zq
	}
	mu := delta / s
	worst := 0.0
	for e := 0.0; e <= mu*mu/2+6*mu; e += mu / 200 {
		worst = math.Max(worst, hockey(p, q, e)-gaussDelta(mu, e))
	}
	if worst < 1e-3 {
		t.Errorf("the discrete Gaussian's δ(ε) exceeds the Gaussian curve by at most %.3g: the control should fail the comparison", worst)
	}
}
