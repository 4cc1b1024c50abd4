package accountant

import (
	"fmt"
	"math"
)

// DefaultOrders is the Rényi order grid of dp_accounting's RdpAccountant
// (DEFAULT_RDP_ORDERS in python/dp_accounting/dp_accounting/rdp/
// rdp_privacy_accountant.py): 1.1, 1.2, …, 10.9, then 11, 12, …, 63, then
// 128, 256, 512, 1024. A fresh slice each call.
func DefaultOrders() []float64 {
	o := make([]float64, 0, 99+53+4)
	for x := 1; x < 100; x++ {
		o = append(o, 1+float64(x)/10)
	}
	for a := 11; a < 64; a++ {
		o = append(o, float64(a))
	}
	return append(o, 128, 256, 512, 1024)
}

// maxFracTerms caps the terms of the fractional-order series. Where the
// series has not converged by then (q = ½ at a large σ, where its terms
// decay like i^{−1−α} only), LogA returns the smaller of two proved upper
// bounds: the partial sum plus its tail bound, and the log-convexity bound
// between the neighbouring integer orders (see [LogA]).
const maxFracTerms = 2_000

// fracTailRel is the relative size of the omitted tail at which the
// fractional series stops: the bound then adds at most this fraction of A_α
// (at T = 10⁴ steps and α = 1.1 that is at most 10⁻⁸ in the composed RDP).
const fracTailRel = 1e-13

// LogA is ln A_α for the Poisson-subsampled Gaussian mechanism with sampling
// rate q ∈ (0, 1) and noise multiplier σ > 0, at order α > 1, where
//
//	A_α = E_{z∼μ₀}[((1 − q) + q·μ₁(z)/μ₀(z))^α],  μ₀ = N(0, σ²), μ₁ = N(1, σ²),
//
// so that one step is (α, ln A_α/(α − 1))-RDP for add/remove adjacency
// (Mironov, Talwar & Zhang 2019, "Rényi Differential Privacy of the Sampled
// Gaussian Mechanism", Sections 3.2–3.3).
//
// Integer α: the finite binomial sum A_α = Σ_{i=0}^{α} C(α,i) q^i
// (1−q)^{α−i} e^{(i²−i)/(2σ²)} (MTZ19 Sec. 3.2; dp_accounting's
// _compute_log_a_int), all terms positive, summed in log space: exact up to
// floating-point rounding.
//
// Fractional α: MTZ19 Sec. 3.3 split A_α = A₀ + A₁ at z₀ = σ² ln(1/q − 1) + ½
// and expand each part in a binomial series (dp_accounting's
// _compute_log_a_frac):
//
//	t₀ᵢ = C(α,i) q^i (1−q)^{α−i} e^{(i²−i)/(2σ²)} Φ((z₀ − i)/σ),
//	t₁ᵢ = C(α,i) q^{α−i} (1−q)^i e^{(j²−j)/(2σ²)} Φ((j − z₀)/σ),  j = α − i.
//
// The series stop at N terms: LogA returns ln(S_N + R_N), with S_N the
// signed partial sum of t₀ᵢ + t₁ᵢ (as Opacus sums it; dp_accounting sums
// the absolute values) and R_N a proved bound on the omitted absolute tail
// (its proof is in logAFrac), once R_N is below 10⁻¹³ of S_N's positive
// part or after 2 000 terms. A_α ≤ S_N + R_N holds in exact arithmetic;
// the floating-point rounding of the terms (relative error ~10⁻¹⁵ each)
// is not covered by the bound. Where the series has not converged after
// 2 000 terms, LogA returns the smaller of ln(S_N + R_N) and the
// log-convexity bound ln A_α ≤ (b − α) ln A_a + (α − a) ln A_b at the
// integer orders a = ⌊α⌋ < α < b = a + 1 (α ↦ ln E_{μ₀}[L^α], L the
// likelihood ratio, is convex by Hölder's inequality; ln A₁ = 0).
//
// LogA returns NaN unless q ∈ (0, 1), σ > 0 and α > 1.
func LogA(q, sigma, alpha float64) float64 {
	if !(q > 0 && q < 1) || !(sigma > 0) || !(alpha > 1) || math.IsInf(alpha, 1) || math.IsInf(sigma, 1) {
		return math.NaN()
	}
	if alpha == math.Trunc(alpha) && alpha < 1<<30 {
		return logAInt(q, sigma, int(alpha))
	}
	la, converged := logAFrac(q, sigma, alpha, false)
	if !converged && alpha < 1<<30 {
		a := math.Floor(alpha)
		var lower float64 // ln A₁ = 0
		if a > 1 {
			lower = logAInt(q, sigma, int(a))
		}
		la = math.Min(la, (a+1-alpha)*lower+(alpha-a)*logAInt(q, sigma, int(a)+1))
	}
	return la
}

// logAbsBinom is ln|C(α, i)| = ln|Γ(α+1)| − ln Γ(i+1) − ln|Γ(α−i+1)|.
func logAbsBinom(alpha float64, i int) float64 {
	a, _ := math.Lgamma(alpha + 1)
	b, _ := math.Lgamma(float64(i) + 1)
	c, _ := math.Lgamma(alpha - float64(i) + 1)
	return a - b - c
}

func logAInt(q, sigma float64, alpha int) float64 {
	lq, l1q := math.Log(q), math.Log1p(-q)
	s2 := 2 * sigma * sigma
	la := math.Inf(-1)
	for i := 0; i <= alpha; i++ {
		fi := float64(i)
		t := logAbsBinom(float64(alpha), i) + fi*lq + float64(alpha-i)*l1q + (fi*fi-fi)/s2
		la = logAdd(la, t)
	}
	return la
}

// logAFrac is the fractional-order series of LogA, ln(S_N + R_N), and
// whether its bound fell below the tolerance before [maxFracTerms] terms.
// With abs it sums the terms' absolute values, as dp_accounting's
// _compute_log_a_frac does (its tests' golden values are of that sum),
// still adding the tail bound R_N.
func logAFrac(q, sigma, alpha float64, abs bool) (float64, bool) {
	// The tail bound. Both series converge absolutely, so A_α ≤ S_N + R_N
	// with S_N = Σ_{i<N} (t₀ᵢ + t₁ᵢ), the signed partial sum (the signs of
	// C(α,i) alternate from i = ⌈α⌉ + 1 on; Opacus sums them signed,
	// dp_accounting sums their absolute values, through gammaln's ln|Γ|,
	// which is larger by 2Σ|negative terms|), and R_N a proved bound on the
	// omitted absolute tail Σ_{i≥N} (|t₀ᵢ| + |t₁ᵢ|): for every N > α,
	//
	//	R_N = (1 + N/α)(|t₀_N| + |t₁_N|).
	//
	// Proof. The first series expands (1 − q + q·r)^α, r = μ₁/μ₀, on
	// z < z₀ in powers of y = q·r/(1 − q) < 1, and t₀ᵢ = ∫_{z<z₀} μ₀
	// (1−q)^α C(α,i) yⁱ; the second expands it on z > z₀ in powers of
	// x = (1 − q)/(q·r) < 1, t₁ᵢ = ∫_{z>z₀} μ₀ (q·r)^α C(α,i) xⁱ. For
	// i ≥ N > α, |C(α,i+1)|/|C(α,i)| = (i − α)/(i + 1) ≤ (i/(i + 1))^{1+α}
	// (Bernoulli's inequality), so |C(α,i)| ≤ |C(α,N)|(N/i)^{1+α}; with
	// yⁱ ≤ y^N and xⁱ ≤ x^N on the domains and Σ_{i≥N} (N/i)^{1+α} ≤
	// 1 + N/α, the omitted part of each series is at most (1 + N/α) times
	// its N-th term's absolute value. The bound holds wherever z₀ lies
	// (z₀ < 0 at q > ½: the second series then converges geometrically, at
	// the rate (1 − q)/q, while i grows past α; no condition on i − z₀).
	// Once i > ⌈α⌉ + 1, i > z₀ and α − i < z₀, a tighter bound holds: both
	// series are then alternating with decreasing magnitudes (|C(α,i)| and
	// the Mills ratio R both decrease), so by Leibniz's rule the tail is at
	// most max(0, t₀ᵢ + t₁ᵢ). The series stops when the bound in use is
	// below 10⁻¹³ of S_N's positive part, or after maxFracTerms terms (the
	// bound is then added as it is, still an upper bound), and LogA returns
	// ln(S_N + bound).
	//
	// What is certified: A_α ≤ S_N + R_N holds in exact arithmetic; the
	// computed value carries the floating-point rounding of the terms (each
	// from math.Lgamma, math.Erfc, math.Exp, of relative error ~10⁻¹⁵), which
	// the bound does not cover. The terms with i > z₀ (resp. j < z₀) are
	// evaluated through the Mills ratio, e^{i ln((1−q)/q) − z₀²/(2σ²)}·R(u)/√(2π),
	// so that no two huge exponents cancel.
	lq, l1q := math.Log(q), math.Log1p(-q)
	s2 := 2 * sigma * sigma
	z0 := sigma*sigma*(l1q-lq) + 0.5
	// ln of the common factor (1−q)^α e^{−z₀²/(2σ²)}/√(2π) of the Mills forms.
	lMills := alpha*l1q - z0*z0/s2 - lnSqrt2Pi
	lBinomA, _ := math.Lgamma(alpha + 1)
	stop := math.Log(fracTailRel)
	pos, neg := math.Inf(-1), math.Inf(-1) // ln of the positive and negative parts
	for i := 0; ; i++ {
		fi := float64(i)
		lgi, _ := math.Lgamma(fi + 1)
		lgj, sign := math.Lgamma(alpha - fi + 1) // sign of C(α, i) = sign of Γ(α−i+1)
		lc := lBinomA - lgi - lgj
		j := alpha - fi
		var s0, s1 float64
		if fi > z0 {
			s0 = lc + lMills + math.Log(millsRatio((fi-z0)/sigma))
		} else {
			s0 = lc + fi*lq + j*l1q + (fi*fi-fi)/s2 + logNormCDF((z0-fi)/sigma)
		}
		if j < z0 {
			s1 = lc + lMills + math.Log(millsRatio((z0-j)/sigma))
		} else {
			s1 = lc + j*lq + fi*l1q + (j*j-j)/s2 + logNormCDF((j-z0)/sigma)
		}
		// From i on, with i > ⌈α⌉ + 1, i > z₀ and j < z₀, both series are
		// in their Mills form: |t₀ᵢ| ∝ |C(α,i)|·R((i−z₀)/σ) and
		// |t₁ᵢ| ∝ |C(α,i)|·R((z₀−j)/σ) decrease, and the signs of C(α,i)
		// alternate, so (Leibniz) each remaining tail has the sign of its
		// first term t and magnitude at most |t|: A_α ≤ S_i + max(0, t₀ᵢ + t₁ᵢ).
		t := logAdd(s0, s1)
		if !abs && fi > math.Ceil(alpha)+1 && fi > z0 && j < z0 {
			if t < pos+stop || i >= maxFracTerms {
				if sign > 0 {
					pos = logAdd(pos, t)
				}
				return logSub(pos, neg), i < maxFracTerms
			}
		} else if fi > alpha {
			// The absolute tail from i on: R_i = (1 + i/α)(|t₀ᵢ| + |t₁ᵢ|).
			if lR := math.Log1p(fi/alpha) + t; lR < pos+stop || i >= maxFracTerms {
				// S_i + R_i = pos − neg + R_i; neg < pos (the signed partial
				// sums of a convergent alternating tail stay positive).
				return logSub(logAdd(pos, lR), neg), i < maxFracTerms
			}
		}
		if sign > 0 || abs {
			pos = logAdd(pos, t)
		} else {
			neg = logAdd(neg, t)
		}
	}
}

// StepRDP is the Rényi DP ε_α of one step of the Poisson-subsampled Gaussian
// mechanism under add/remove adjacency at order α ≥ 1 (dp_accounting's
// _compute_rdp_poisson_subsampled_gaussian): 0 when q = 0; +Inf when σ = 0
// or α = +Inf; α/(2σ²) when q = 1 (the Gaussian mechanism); ln A_α/(α − 1)
// otherwise ([LogA]). NaN for invalid arguments, including α ≤ 1 (the
// conversions never need order 1).
func StepRDP(q, sigma, alpha float64) float64 {
	switch {
	case math.IsNaN(q) || q < 0 || q > 1 || math.IsNaN(sigma) || sigma < 0 || !(alpha > 1):
		return math.NaN()
	case q == 0:
		return 0
	case sigma == 0 || math.IsInf(alpha, 1):
		return math.Inf(1)
	case math.IsInf(sigma, 1):
		return 0
	case q == 1:
		return alpha / (2 * sigma * sigma)
	}
	return LogA(q, sigma, alpha) / (alpha - 1)
}

// ComposedRDP is the RDP of T steps at each order under adjacency adj:
// T·StepRDP(q, σ, α) for add/remove, T·StepRDPReplace(q, σ, α) for
// replace-one (Mironov 2017, Proposition 1: RDP composes additively).
func ComposedRDP(adj Adjacency, q, sigma float64, steps int, orders []float64) []float64 {
	step := StepRDP
	if adj == ReplaceOne {
		step = StepRDPReplace
	}
	out := make([]float64, len(orders))
	for i, a := range orders {
		out[i] = float64(steps) * step(q, sigma, a)
	}
	return out
}

// EpsFromRDP converts RDP guarantees (orders[i], rdp[i]) to the smallest
// ε' ≥ 0 for which the mechanism is (ε', δ)-DP, and the order attaining it,
// as dp_accounting's compute_epsilon does: at each order
//
//	ε'(α) = rdp + ln(1 − 1/α) − (ln δ + ln α)/(α − 1)
//
// (Canonne, Kamath & Steinke 2020, Proposition 12; Asoodeh et al. 2020),
// used only for α > 1.01 where it is numerically stable, and ε'(α) = 0 when
// δ² > 1 − e^{−rdp} (the KL bound δ ≤ √(1 − e^{−KL}) with KL ≤ rdp). It
// returns (+Inf, NaN) when no order gives a finite value.
func EpsFromRDP(orders, rdp []float64, delta float64) (eps, order float64, err error) {
	if len(orders) != len(rdp) || len(orders) == 0 {
		return math.NaN(), math.NaN(), fmt.Errorf("accountant: %d orders and %d RDP values", len(orders), len(rdp))
	}
	if !(delta > 0 && delta < 1) {
		return math.NaN(), math.NaN(), fmt.Errorf("accountant: δ = %g is not in (0, 1)", delta)
	}
	eps, order = math.Inf(1), math.NaN()
	for i, a := range orders {
		if e, ok := epsAtOrder(a, rdp[i], delta); ok && e < eps {
			eps, order = e, a
		}
	}
	return math.Max(0, eps), order, nil
}

// epsAtOrder is EpsFromRDP's ε'(α) at one order (ok = false: the order is
// skipped).
func epsAtOrder(a, r, delta float64) (e float64, ok bool) {
	switch {
	case math.IsNaN(r) || !(a >= 1):
		return 0, false
	case r < 0:
		return 0, true
	case delta*delta+math.Expm1(-r) > 0:
		return 0, true
	case a > 1.01:
		return r + math.Log1p(-1/a) - math.Log(delta*a)/(a-1), true
	}
	return math.Inf(1), true
}

// replaceEpsilon is EpsFromRDP(orders, ComposedRDP(ReplaceOne, q, σ, T,
// orders), δ) for q ∈ (0, 1), σ ∈ (0, ∞) and increasing orders, the same
// ε' and order, without computing the orders that cannot attain the
// minimum. The Rényi divergence is non-decreasing in its order (van Erven
// & Harremoës 2014, Theorem 3), so a lower bound lb on the exact one-step
// divergence at an order already computed ([logAReplace]'s) bounds it at
// every larger order, and ε'(α) ≥ T·lb + ln(1 − 1/α) − (ln δ + ln α)/(α − 1)
// there (the conversion grows with the RDP; its KL branch, ε' = 0, needs an
// RDP below −ln(1 − δ²), which T·lb excludes). An order whose bound
// exceeds the least ε' so far by more than the rounding of the computed
// values is skipped: its computed ε', an upper bound on its exact one,
// cannot be the least. The quadrature of the large orders (tens of
// thousands of points each, where ε' is astronomically large) is what this
// saves.
func replaceEpsilon(q, sigma float64, steps int, orders []float64, delta float64) (eps, order float64) {
	T := float64(steps)
	eps, order = math.Inf(1), math.NaN()
	lb := math.Inf(-1)
	kl := -math.Log1p(-delta * delta)
	for _, a := range orders {
		if a > 1.01 && T*lb > 2*kl {
			if bound := T*lb + math.Log1p(-1/a) - math.Log(delta*a)/(a-1); bound > eps+1e-9*(1+math.Abs(eps)) {
				continue
			}
		}
		var r float64
		if a > 1 && !math.IsInf(a, 1) {
			up, lo := logAReplace(q, sigma, a)
			r = T * (up / (a - 1))
			lb = math.Max(lb, lo/(a-1))
		} else {
			r = T * StepRDPReplace(q, sigma, a)
		}
		if e, ok := epsAtOrder(a, r, delta); ok && e < eps {
			eps, order = e, a
		}
	}
	return math.Max(0, eps), order
}

// DeltaFromRDP is the smallest δ for which RDP guarantees (orders, rdp) give
// (ε', δ)-DP, and the order attaining it, as dp_accounting's compute_delta:
// ln δ(α) = (α − 1)(rdp − ε' + ln(1 − 1/α)) − ln α for α > 1.01, and the KL
// bound ln δ ≤ ½ ln(1 − e^{−rdp}) at every order; capped at 1.
func DeltaFromRDP(orders, rdp []float64, epsPrime float64) (delta, order float64, err error) {
	if len(orders) != len(rdp) || len(orders) == 0 {
		return math.NaN(), math.NaN(), fmt.Errorf("accountant: %d orders and %d RDP values", len(orders), len(rdp))
	}
	if !(epsPrime >= 0) {
		return math.NaN(), math.NaN(), fmt.Errorf("accountant: ε' = %g is not ≥ 0", epsPrime)
	}
	best, order := math.Inf(1), math.NaN()
	for i, a := range orders {
		r := rdp[i]
		var ld float64
		switch {
		case math.IsNaN(r) || !(a >= 1):
			continue
		case r <= 0:
			ld = math.Inf(-1)
		default:
			ld = 0.5 * math.Log1p(-math.Exp(-r))
		}
		if a > 1.01 && !math.IsInf(r, 1) {
			ld = math.Min(ld, (a-1)*(r-epsPrime+math.Log1p(-1/a))-math.Log(a))
		}
		if ld < best {
			best, order = ld, a
		}
	}
	return math.Min(math.Exp(best), 1), order, nil
}
