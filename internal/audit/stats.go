package audit

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Clopper–Pearson one-sided bounds on a binomial proportion (Clopper &
// Pearson 1934): with k successes in n trials,
//
//	upper: p_u = Beta(k+1, n−k) quantile at 1 − β   (p_u = 1 when k = n),
//	lower: p_l = Beta(k, n−k+1) quantile at β       (p_l = 0 when k = 0),
//
// so that P(p > p_u) ≤ β and P(p < p_l) ≤ β for every true proportion p.
// The Beta quantiles are gonum's (distuv.Beta.Quantile, the inverse
// regularized incomplete beta function).

// cpUpper is the one-sided Clopper–Pearson upper bound at level β.
func cpUpper(k, n int64, beta float64) float64 {
	if k >= n {
		return 1
	}
	return distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - beta)
}

// cpLower is the one-sided Clopper–Pearson lower bound at level β.
func cpLower(k, n int64, beta float64) float64 {
	if k <= 0 {
		return 0
	}
	return distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(beta)
}

// MuOfRates is the Gaussian-DP parameter that one test's error rates
// imply: μ = Φ⁻¹(1 − FPR) − Φ⁻¹(FNR). A mechanism is μ-GDP exactly when
// every test between its outputs on neighbouring inputs has
// FNR ≥ Φ(Φ⁻¹(1 − FPR) − μ) (Dong, Roth & Su 2019, Definition 2.3 with the
// Gaussian trade-off function G_μ), i.e. when MuOfRates(FPR, FNR) ≤ μ for
// every test. For a Gaussian shift N(0, σ²) vs N(Δ, σ²) every threshold
// test gives exactly μ = Δ/σ. +Inf when FPR = 0 or FNR = 0, −Inf when
// FPR = 1 or FNR = 1 (NaN if both kinds meet).
func MuOfRates(fpr, fnr float64) float64 {
	return distuv.UnitNormal.Quantile(1-fpr) - distuv.UnitNormal.Quantile(fnr)
}

// TradeOff is the Gaussian trade-off function G_μ(α) = Φ(Φ⁻¹(1 − α) − μ):
// the smallest false-negative rate any test at false-positive rate α can
// have against a μ-GDP mechanism (Dong, Roth & Su 2019, eq. (2.6)). For
// dpso's zCDP ε, μ = ε.
func TradeOff(mu, alpha float64) float64 {
	return distuv.UnitNormal.CDF(distuv.UnitNormal.Quantile(1-alpha) - mu)
}

// EpsOfRates is the approximate-DP ε that one test's error rates imply at
// δ: an (ε, δ)-DP mechanism has FPR + e^ε·FNR ≥ 1 − δ and
// FNR + e^ε·FPR ≥ 1 − δ for every test (Kairouz, Oh & Viswanath 2015,
// Theorem 2.1), so
//
//	ε ≥ max{ ln((1 − δ − FNR)/FPR), ln((1 − δ − FPR)/FNR) }.
//
// The result is clamped at 0 (a test that proves nothing); +Inf when a
// rate is 0 with a positive numerator.
func EpsOfRates(fpr, fnr, delta float64) float64 {
	e := 0.0
	if num := 1 - delta - fnr; num > 0 {
		e = math.Max(e, math.Log(num/fpr))
	}
	if num := 1 - delta - fpr; num > 0 {
		e = math.Max(e, math.Log(num/fnr))
	}
	return e
}

// muSE is the standard error of the point estimate μ̂ = (ȳ − x̄)/s_p from
// n outputs on each side when both are Gaussian with a common variance:
// Var(ȳ − x̄)/σ² = 2/n and Var(s_p)/σ² ≈ 1/(2(2n − 2)) for the pooled
// standard deviation with 2n − 2 degrees of freedom, so by the delta method
// Var(μ̂) ≈ 2/n + μ²/(4(n − 1)).
func muSE(mu float64, n int64) float64 {
	nf := float64(n)
	return math.Sqrt(2/nf + mu*mu/(4*(nf-1)))
}
