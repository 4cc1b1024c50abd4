package audit

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestClopperPearsonClosedForm: at the ends the Beta quantiles have closed
// forms: k = 0 gives p_u = 1 − β^{1/n} (solve (1 − p)^n = β) and k = n
// gives p_l = β^{1/n} (solve p^n = β).
func TestClopperPearsonClosedForm(t *testing.T) {
	for _, n := range []int64{1, 10, 1000, 1_000_000} {
		for _, beta := range []float64{0.05, 1e-3, 1e-6} {
			up := cpUpper(0, n, beta)
			want := -math.Expm1(math.Log(beta) / float64(n))
			if math.Abs(up-want) > 1e-9*want {
				t.Errorf("cpUpper(0, %d, %g) = %.15g, want 1 − β^{1/n} = %.15g", n, beta, up, want)
			}
			lo := cpLower(n, n, beta)
			want = math.Exp(math.Log(beta) / float64(n))
			if math.Abs(lo-want) > 1e-9*want {
				t.Errorf("cpLower(%d, %d, %g) = %.15g, want β^{1/n} = %.15g", n, n, beta, lo, want)
			}
		}
		if cpUpper(n, n, 0.05) != 1 || cpLower(0, n, 0.05) != 0 {
			t.Errorf("n = %d: the trivial ends are not 1 and 0", n)
		}
	}
}

// TestClopperPearsonCoverage computes the bounds' exact non-coverage
// P(p > p_u(K)) and P(p < p_l(K)) for K ~ Binomial(n, p) by summing the
// binomial pmf: both are at most β for every p (Clopper–Pearson is exact
// in this sense), and not absurdly conservative (more than β/10 at p where
// the binomial is not degenerate).
func TestClopperPearsonCoverage(t *testing.T) {
	const n, beta = 60, 0.05
	for _, p := range []float64{0.003, 0.05, 0.2, 0.5, 0.77, 0.99} {
		t.Run(fmt.Sprintf("p=%g", p), func(t *testing.T) {
			b := distuv.Binomial{N: n, P: p}
			var missUp, missLo float64
			for k := int64(0); k <= n; k++ {
				pk := b.Prob(float64(k))
				if p > cpUpper(k, n, beta) {
					missUp += pk
				}
				if p < cpLower(k, n, beta) {
					missLo += pk
				}
			}
			if missUp > beta || missLo > beta {
				t.Errorf("p = %g: P(p > p_u) = %.4g, P(p < p_l) = %.4g, want both ≤ %g", p, missUp, missLo, beta)
			}
			if p >= 0.05 && p <= 0.77 && (missUp < beta/10 || missLo < beta/10) {
				t.Errorf("p = %g: non-coverage %.4g, %.4g is far below β = %g", p, missUp, missLo, beta)
			}
		})
	}
}

// TestMuOfRatesGaussianShift: for N(0, 1) against N(μ, 1) the test
// "output > a" has FPR = Φ(−a) and FNR = Φ(a − μ), and every threshold
// implies exactly μ (Dong, Roth & Su 2019, the Gaussian trade-off G_μ).
func TestMuOfRatesGaussianShift(t *testing.T) {
	phi := distuv.UnitNormal.CDF
	for _, mu := range []float64{0.1, 1, 3} {
		for _, a := range []float64{-1, 0, 0.5, 2} {
			got := MuOfRates(phi(-a), phi(a-mu))
			if math.Abs(got-mu) > 1e-9 {
				t.Errorf("μ = %g, a = %g: MuOfRates = %.12g", mu, a, got)
			}
			if fnr := TradeOff(mu, phi(-a)); math.Abs(fnr-phi(a-mu)) > 1e-12 {
				t.Errorf("TradeOff(%g, Φ(−%g)) = %.12g, want Φ(a − μ) = %.12g", mu, a, fnr, phi(a-mu))
			}
		}
	}
	// μ = 0: the trade-off is the identity line 1 − α.
	if got := TradeOff(0, 0.3); math.Abs(got-0.7) > 1e-12 {
		t.Errorf("TradeOff(0, 0.3) = %g, want 0.7", got)
	}
	if !math.IsInf(MuOfRates(0, 0.5), 1) || !math.IsInf(MuOfRates(1, 0.5), -1) {
		t.Error("MuOfRates at FPR = 0 and FPR = 1 should be +Inf and −Inf")
	}
}

// TestEpsOfRates: hand values and the Laplace mechanism, whose tail tests
// attain ε exactly.
func TestEpsOfRates(t *testing.T) {
	tests := []struct{ fpr, fnr, delta, want float64 }{
		{0.1, 0.2, 0, math.Log(8)},      // max(ln(0.8/0.1), ln(0.9/0.2))
		{0.2, 0.1, 0, math.Log(8)},      // symmetric
		{0.1, 0.2, 0.05, math.Log(7.5)}, // (1 − 0.05 − 0.2)/0.1
		{0.5, 0.5, 0, 0},                // a coin flip proves nothing
		{0.6, 0.6, 0, 0},                // worse than a coin: clamped at 0
		{0, 0.5, 0, math.Inf(1)},        // a perfect test
		{0.3, 0.3, 0.5, 0},              // 1 − δ − FNR = 0.2 < FPR: ln < 0, clamped
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("fpr=%g fnr=%g delta=%g", tc.fpr, tc.fnr, tc.delta), func(t *testing.T) {
			if got := EpsOfRates(tc.fpr, tc.fnr, tc.delta); math.Abs(got-tc.want) > 1e-12 && got != tc.want {
				t.Errorf("EpsOfRates(%g, %g, %g) = %.12g, want %.12g", tc.fpr, tc.fnr, tc.delta, got, tc.want)
			}
		})
	}
	// Laplace(0, b) against Laplace(Δ, b) with b = Δ/ε is ε-DP, and any
	// threshold t ≥ Δ gives FPR = ½e^{−t/b}, 1 − FNR = ½e^{−(t−Δ)/b}:
	// (1 − FNR)/FPR = e^{Δ/b} = e^ε.
	const delta, eps = 1.0, 0.7
	b := delta / eps
	for _, tt := range []float64{1, 2.5, 6} {
		t.Run(fmt.Sprintf("t=%g", tt), func(t *testing.T) {
			fpr := 0.5 * math.Exp(-tt/b)
			fnr := 1 - 0.5*math.Exp(-(tt-delta)/b)
			if got := EpsOfRates(fpr, fnr, 0); math.Abs(got-eps) > 1e-9 {
				t.Errorf("Laplace, t = %g: EpsOfRates = %.12g, want ε = %g", tt, got, eps)
			}
		})
	}
}

// TestClaimCurve: the curve runs from (0, 1) to (1, 0), decreases, and at
// μ = 1 passes through the symmetric point α = FNR = Φ(−1/2).
func TestClaimCurve(t *testing.T) {
	r := &Result{MuClaim: 1}
	a, f := r.ClaimCurve(101)
	if a[0] != 0 || f[0] != 1 || a[100] != 1 || f[100] != 0 {
		t.Errorf("ends (%g, %g), (%g, %g)", a[0], f[0], a[100], f[100])
	}
	for i := 1; i < len(f); i++ {
		if f[i] > f[i-1] {
			t.Fatalf("not decreasing at α = %g", a[i])
		}
	}
	p := distuv.UnitNormal.CDF(-0.5)
	if got := TradeOff(1, p); math.Abs(got-p) > 1e-12 {
		t.Errorf("G_1(Φ(−1/2)) = %.15g, want %.15g", got, p)
	}
}

// TestClopperPearsonJaxPrivacyGrid: jax_privacy's Clopper–Pearson check
// (google-deepmind/jax_privacy, tests/auditing_test.py at commit 8967688,
// test_clopper_pearson_upper) draws 10⁶ binomials at p_u for n ∈ {10,
// 100, 1000}, k = k_frac·n with k_frac ∈ {0.3, 0.4, 0.5, 0.8, 0.9} and
// significance ∈ {0.1, 0.03, 0.01}, and wants P(K ≤ k) = significance to
// a relative 0.05. Here the same grid is held to the definition without
// Monte Carlo error: P(Binomial(n, p_u) ≤ k) = β to 10⁻⁹ relative (the
// binomial's CDF is gonum's regularized incomplete beta, not the Beta
// quantile cpUpper inverts).
func TestClopperPearsonJaxPrivacyGrid(t *testing.T) {
	for _, n := range []int64{10, 100, 1000} {
		for _, frac := range []float64{0.3, 0.4, 0.5, 0.8, 0.9} {
			for _, beta := range []float64{0.1, 0.03, 0.01} {
				k := int64(math.Round(frac * float64(n)))
				p := cpUpper(k, n, beta)
				if got := (distuv.Binomial{N: float64(n), P: p}).CDF(float64(k)); math.Abs(got-beta) > 1e-9*beta {
					t.Errorf("n = %d, k = %d, β = %g: p_u = %.15g, P(K ≤ k) = %.15g", n, k, beta, p, got)
				}
			}
		}
	}
}
