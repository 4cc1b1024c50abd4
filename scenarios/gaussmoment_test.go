package scenarios

import (
	"fmt"
	"math"
	"testing"

	"dpso/scenarios/dist"
	"dpso/solvers"
)

// binomSum is Σ_j C(k, j) a^{k−j} b^j m(j) for an integer k.
func binomSum(k int, a, b float64, m func(j int) float64) float64 {
	var s float64
	for j := 0; j <= k; j++ {
		s += binom(k, j) * math.Pow(a, float64(k-j)) * math.Pow(b, float64(j)) * m(j)
	}
	return s
}

// absCoordMoment is E|t|^p for t a coordinate of a uniform point on
// S^{d−1}: Γ(d/2)Γ((p+1)/2)/(√π Γ((d+p)/2)).
func absCoordMoment(d int, p float64) float64 {
	a, _ := math.Lgamma(float64(d) / 2)
	b, _ := math.Lgamma((p + 1) / 2)
	c, _ := math.Lgamma((float64(d) + p) / 2)
	return math.Exp(a + b - c - 0.5*math.Log(math.Pi))
}

// TestGaussSupClosedForms checks E H^k, H = ‖z‖(R‖z‖ + |ω z₁ + σζ|), where
// it has a closed form: with ω = 0 (z ⟂ ζ) and σ = 0 (H = ‖z‖²(R + ω|t|),
// t = z₁/‖z‖ ⟂ ‖z‖) by the binomial expansion for integer k, and with
// R = 0 for any k (H = σ‖z‖|ζ|, or ω‖z‖²|t|); ω = σ = 0 is
// R^k E(χ²_d)^k.
func TestGaussSupClosedForms(t *testing.T) {
	chi := func(d int, p float64) float64 { return dist.ChiMoment(float64(d), p) }
	for _, d := range []int{1, 2, 3, 7, 50, 2000} {
		for _, k := range []int{2, 3, 4, 8, 16} {
			kf := float64(k)
			// dist.ChiMoment(1, p) is E|Z|^p (χ_1 = |Z|).
			cases := []struct {
				r, omega, sigma, want float64
			}{
				{1.5, 0, 2, binomSum(k, 1.5, 2, func(j int) float64 { return chi(d, float64(2*k-j)) * dist.ChiMoment(1, float64(j)) })},
				{0.5, 3, 0, chi(d, 2*kf) * binomSum(k, 0.5, 3, func(j int) float64 { return absCoordMoment(d, float64(j)) })},
				{0, 0, 2, math.Pow(2, kf) * chi(d, kf) * dist.ChiMoment(1, kf)},
				{0, 3, 0, math.Pow(3, kf) * chi(d, 2*kf) * absCoordMoment(d, kf)},
				{2, 0, 0, math.Pow(2, kf) * chi(d, 2*kf)},
			}
			for _, c := range cases {
				got := math.Exp(newGaussSup(d, c.r, c.omega, c.sigma).logMoment(kf))
				if !(math.Abs(got-c.want) <= 1e-11*c.want) {
					t.Errorf("d = %d, k = %d, R = %g, ω = %g, σ = %g: E H^k = %.15g, closed form %.15g (rel. %.2g)", d, k, c.r, c.omega, c.sigma, got, c.want, got/c.want-1)
				}
			}
		}
	}
}

// TestGaussSupConverged checks the rule against one with panels a third as
// wide (nine times the nodes) over the range of the linear regressions'
// parameters: they agree to 10⁻¹⁰ relative.
func TestGaussSupConverged(t *testing.T) {
	t.Parallel()
	for _, d := range []int{1, 2, 3, 10, 200, 10000} {
		for _, p := range [][3]float64{{1, 0.5, 1}, {1, 1000, 0.01}, {0.01, 1, 100}, {50, 0.3, 0.001}, {1, 3, 3}} {
			g := newGaussSup(d, p[0], p[1], p[2])
			fine := map[float64]*sphereRule{}
			for _, k := range []float64{2, 2.5, 3, 7.3, 16, 31, 99} {
				kcap := 16.0
				for kcap < k {
					kcap *= 2
				}
				if fine[kcap] == nil {
					fine[kcap] = g.rule(kcap, 3)
				}
				got := g.logSphereMoment(k)
				fine := fine[kcap].logMoment(k)
				if !(math.Abs(got-fine) <= 1e-10) {
					t.Errorf("d = %d, (R, ω, σ) = %v, k = %g: ln E H(θ)^k = %.15g, finer rule %.15g", d, p, k, got, fine)
				}
			}
		}
	}
}

// TestGaussSupMatchesMonteCarlo checks E H^k against 2¹⁸ plain draws of
// H = ‖z‖(R‖z‖ + |ω z₁ + σζ|) with every coordinate of z drawn (not the
// rule's reduction to the sphere): within 5 standard errors (finite: every
// moment of H exists).
func TestGaussSupMatchesMonteCarlo(t *testing.T) {
	const n = 1 << 18
	for _, c := range []struct {
		d               int
		r, omega, sigma float64
	}{{1, 1, 0.5, 1}, {2, 1, 2, 0.3}, {5, 1, 0.5, 1}, {12, 0.2, 5, 0.1}} {
		t.Run(fmt.Sprintf("d=%d r=%g omega=%g sigma=%g", c.d, c.r, c.omega, c.sigma), func(t *testing.T) {
			r := dist.New(solvers.StreamKey(solvers.Seeded, 1, 0, fmt.Sprintf("gauss-sup/%d", c.d)))
			z := make([]float64, c.d)
			h := make([]float64, n)
			for i := range h {
				r.Normals(z)
				var n2 float64
				for _, v := range z {
					n2 += v * v
				}
				nz := math.Sqrt(n2)
				h[i] = nz * (c.r*nz + math.Abs(c.omega*z[0]+c.sigma*r.NormFloat64()))
			}
			g := newGaussSup(c.d, c.r, c.omega, c.sigma)
			for _, k := range []float64{2, 2.5, 4} {
				var s1, s2 float64
				for _, v := range h {
					p := math.Pow(v, k)
					s1 += p
					s2 += p * p
				}
				mean := s1 / n
				se := math.Sqrt((s2/n - mean*mean) / n)
				got := math.Exp(g.logMoment(k))
				if math.Abs(got-mean) > 5*se {
					t.Errorf("d = %d, (R, ω, σ) = (%g, %g, %g), k = %g: quadrature %g, Monte Carlo %g ± %g", c.d, c.r, c.omega, c.sigma, k, got, mean, se)
				}
			}
		})
	}
}
