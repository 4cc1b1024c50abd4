package accountant

import (
	"context"
	"fmt"
	"testing"
)

// TestLogAHighRateGolden: at sampling rates q ≥ ½ the fractional-order
// series' split point z₀ = σ² ln(1/q − 1) + ½ is ≤ ½ (−8.5·10¹¹ at
// q = 0.7, σ = 10⁶), where its tail bound once needed ~|z₀| terms (the
// calibration at q = 0.7 never returned). The golden values are
// testdata/high_rate_golden.py's (mpmath quadrature at 50 digits): each
// result must be an upper bound, within the series' tolerance (10⁻¹³ of
// A_α, plus rounding) where it converges, and within the log-convexity
// bound's looseness (at large σ, ln A_α ≈ cα(α − 1) against the chord's
// 2c(α − 1) at 1 < α < 2: a factor 2/α) at q = ½, σ = 10⁴, where it does
// not converge in maxFracTerms terms.
func TestLogAHighRateGolden(t *testing.T) {
	for _, c := range []struct {
		q, sigma, alpha, want, hi float64
	}{
		{0.7, 2, 1.5, 0.047639052961066032, 0},
		{0.7, 2, 3.25, 0.50719379187834466, 0},
		{0.7, 2, 10.5, 9.1572386285370832, 0},
		{0.99, 2, 1.5, 0.091994720348862335, 0},
		{0.7, 1e6, 1.5, 1.8375000000002754e-13, 0},
		{0.7, 1e6, 10.5, 2.4438750000049852e-11, 0},
		{0.5, 1e4, 1.5, 9.3750000234375e-10, 1.34 * 9.3750000234375e-10},
		{0.5, 1e4, 7.3, 5.7487500977287512e-8, 0},
	} {
		t.Run(fmt.Sprintf("q=%g sigma=%g alpha=%g", c.q, c.sigma, c.alpha), func(t *testing.T) {
			hi := c.hi
			if hi == 0 {
				hi = c.want*(1+1e-9) + 2e-13
			}
			got := LogA(c.q, c.sigma, c.alpha)
			if !(got >= c.want*(1-1e-12)) || !(got <= hi) {
				t.Errorf("ln A = %.17g, want in [%.17g, %.17g]", got, c.want, hi)
			}
		})
	}
}

// TestReplaceOneRDPHighRateGolden: StepRDPReplace at q ≥ ½ (its
// quadrature's closed-form bound reads LogA there) against
// testdata/high_rate_golden.py, within its proved error terms
// (TestReplaceOneRDPGolden's slack).
func TestReplaceOneRDPHighRateGolden(t *testing.T) {
	for _, c := range []struct{ q, sigma, alpha, want float64 }{
		{0.7, 2, 1.5, 0.34750098902594155},
		{0.7, 2, 10.5, 2.0221738610837015},
		{0.7, 1e6, 1.5, 1.4699999999996911e-12},
		{0.5, 1e4, 1.5, 7.49999998125e-9},
	} {
		t.Run(fmt.Sprintf("q=%g sigma=%g alpha=%g", c.q, c.sigma, c.alpha), func(t *testing.T) {
			got := StepRDPReplace(c.q, c.sigma, c.alpha)
			slack := 4e-12/(c.alpha-1) + 1e-13*c.want
			if !(got >= c.want*(1-1e-12)) || !(got <= c.want+slack) {
				t.Errorf("RDP %.17g, want %.17g (+ at most %.2g)", got, c.want, slack)
			}
		})
	}
}

// TestCalibrateHighSamplingRate: `dpso privacy --accountant pld
// --target-eps 4.37718 --sampling-rate 0.7 --steps 2` never returned; at
// q > ½ every accountant and adjacency calibrates, to a σ that meets the
// target (RDP: one that σ/(1 + CalibrateTol) misses), in a bounded number
// of evaluations (each of which is bounded: TestLogAHighRateGolden).
func TestCalibrateHighSamplingRate(t *testing.T) {
	const target, delta = 4.37718, 1e-5
	for _, k := range []Kind{RDP, PLD} {
		for _, adj := range []Adjacency{ReplaceOne, AddRemove} {
			for _, q := range []float64{0.5, 0.51, 0.7, 0.99} {
				t.Run(fmt.Sprintf("%v/%v/q=%g", k, adj, q), func(t *testing.T) {
					evals := 0
					ctx := WithCalibrationObserver(context.Background(), func(CalibrationStep) { evals++ })
					s, err := CalibrateContext(ctx, k, adj, q, 2, target, delta)
					if err != nil {
						t.Fatal(err)
					}
					m := Mechanism{Sigma: s, Q: q, Steps: 2, Adjacency: adj}
					if e, err := Epsilon(k, m, delta); err != nil || e > target {
						t.Errorf("σ = %g: ε' = %g (%v), above the target %g", s, e, err, target)
					}
					if k == RDP {
						m.Sigma = s / (1 + CalibrateTol)
						if e, err := Epsilon(k, m, delta); err != nil || e <= target {
							t.Errorf("σ/(1 + tol) = %g: ε' = %g (%v) meets the target: σ = %g is not the smallest", m.Sigma, e, err, s)
						}
					}
					if evals > 60 {
						t.Errorf("%d evaluations of the accountant", evals)
					}
				})
			}
		}
	}
}
