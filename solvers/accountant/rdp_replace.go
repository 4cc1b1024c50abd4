package accountant

import (
	"math"
	"slices"
	"sync"
)

// replaceMaxPoints caps the quadrature grid of [LogAReplace] at one order;
// an order that would need more takes the closed-form bound instead.
const replaceMaxPoints = 1 << 16

// replaceBuf holds the quadrature's values of ln f (up to
// replaceMaxPoints + 1), reused across calls.
var replaceBuf = sync.Pool{New: func() any { b := make([]float64, 0, 1024); return &b }}

// replaceTol is the absolute error [LogAReplace] allows each of its three
// error terms (tails, trapezoid) on A_α ≥ 1.
const replaceTol = 1e-12

// LogAReplace is an upper bound on ln A_α for one step of the
// Poisson-subsampled Gaussian mechanism under replace-one adjacency, with
// sampling rate q ∈ (0, 1), noise multiplier σ > 0 and order α > 1:
//
//	A_α = ∫ P(x)^α Q(x)^{1−α} dx,  P = (1−q)N(0, σ²) + qN(−1, σ²),
//	                               Q = (1−q)N(0, σ²) + qN(1, σ²),
//
// the pair dp_accounting's GaussianPrivacyLoss takes for
// AdjacencyType.REPLACE with sampling_prob q (pld/privacy_loss_mechanism.py)
// and Koskela, Jälkö & Honkela (AISTATS 2020, Section 5.2) for the
// substitution relation; the step is (α, ln A_α/(α − 1))-RDP. The pair is
// symmetric (x ↦ −x swaps P and Q), so D_α(P‖Q) = D_α(Q‖P).
// dp_accounting's RDP accountant has no replace-one rule for Poisson
// sampling (it refuses REPLACE_ONE for a PoissonSampledDpEvent); this one
// computes the integral itself.
//
// Method: the trapezoid rule on the whole line, h Σ_k f(x₀ + kh) with
// f = P^α Q^{1−α} = e^g, g = ln φ₀ + α ln(P/φ₀) − (α − 1) ln(Q/φ₀),
// P/φ₀ = 1 − q + q e^{(−½−x)/σ²}, Q/φ₀ = 1 − q + q e^{(x−½)/σ²}, with
// three proved error terms:
//
//   - Trapezoid (Trefethen & Weideman 2014, "The exponentially convergent
//     trapezoidal rule", Theorem 5.1): f extends analytically to the strip
//     |Im z| ≤ πσ²/2, where 1 + r e^{(±2z−1)/(2σ²)} (r = q/(1−q)) has a
//     real part ≥ 1, so that |Q(z)| ≥ (1−q)|φ₀(z)| and |P(z)| ≤
//     P(x)e^{y²/(2σ²)}; hence on the strip |Im z| ≤ a, for any a ≤ πσ²/2,
//     ∫|f(x+iy)|dx ≤ M(a) = e^{a²/(2σ²)}(1−q)^{1−α}A⁺_α with A⁺_α the
//     add/remove integral ([LogA], an upper bound), and |h Σ f − ∫ f| ≤
//     2M(a)/(e^{2πa/h} − 1). a is the half-width that allows the largest
//     h (a = σ√(2c) with c = ln(2(1−q)^{1−α}A⁺_α/10⁻¹²), or πσ²/2 if
//     smaller: the full strip's M grows like e^{π²σ²/8}, which at large σ
//     would force ever more points), and h makes the bound at most 10⁻¹².
//   - Tails: Q ≥ (1−q)φ₀ and P^α ≤ 2^{α−1}((1−q)^α φ₀^α + q^α φ₋₁^α)
//     give f ≤ K₁φ₀ + K₂φ₋α with K₁ = 2^{α−1}(1−q), K₂ = 2^{α−1}(1−q)^{1−α}
//     q^α e^{α(α−1)/(2σ²)} (φ₋₁^α φ₀^{1−α} = e^{α(α−1)/(2σ²)}φ₋α); the
//     grid's points left of L ≤ −α and right of R ≥ 0 sum to at most this
//     bound's integral beyond L and R (it is monotone there), in closed
//     form with Φ, and L, R are chosen to make each at most 10⁻¹².
//   - The grid stops at [replaceMaxPoints] points: an order that needs more
//     (large α at small σ, where A_α is astronomically large and the order
//     is never the one a conversion picks) takes the closed-form bound
//     A_α ≤ (1−q)^{1−α}A⁺_α instead (from Q ≥ (1−q)φ₀), as does any order
//     where that bound is smaller.
//
// So A_α ≤ h Σ_{grid} f + tails + trapezoid error in exact arithmetic; the
// floating-point rounding of the terms (relative 10⁻¹⁵ each) is not
// covered. LogAReplace returns NaN unless q ∈ (0, 1), σ > 0 and α > 1.
func LogAReplace(q, sigma, alpha float64) float64 {
	up, _ := logAReplace(q, sigma, alpha)
	return up
}

// logAReplace is LogAReplace and a lower bound on the exact ln A_α: the
// grid's points are some of the trapezoid rule's infinite lattice, every
// one positive, so ∫ f ≥ h Σ_{grid} f − (the trapezoid error bound); with
// 10⁻⁹ taken off ln A_α for the rounding of the sum of at most
// [replaceMaxPoints] terms. −Inf where the grid was not computed.
func logAReplace(q, sigma, alpha float64) (up, lower float64) {
	if !(q > 0 && q < 1) || !(sigma > 0) || !(alpha > 1) || math.IsInf(alpha, 1) || math.IsInf(sigma, 1) {
		return math.NaN(), math.NaN()
	}
	s2 := sigma * sigma
	lnq, ln1q := math.Log(q), math.Log1p(-q)
	lnAar := LogA(q, sigma, alpha)
	closed := lnAar - (alpha-1)*ln1q // ln((1−q)^{1−α} A⁺_α)
	lnTol := math.Log(replaceTol)
	// The strip's half-width a and the step h: 2M(a)/(e^{2πa/h} − 1) ≤ tol
	// with ln M(a) = a²/(2σ²) + closed, so h = 2πa/ln(1 + 2M(a)/tol),
	// which a = σ√(2c) maximizes (c = ln 2 + closed − ln tol), within the
	// strip of analyticity a ≤ πσ²/2.
	c := math.Ln2 + closed - lnTol
	a := math.Min(math.Pi*s2/2, sigma*math.Sqrt(2*math.Max(c, 1)))
	lnM := a*a/(2*s2) + closed
	h := 2 * math.Pi * a / logAdd(0, math.Ln2+lnM-lnTol)
	// The window [L, R] from the tail bound's Chernoff form Φ(−u) ≤ e^{−u²/2}/2.
	lnK1 := (alpha-1)*math.Ln2 + ln1q
	lnK2 := (alpha-1)*math.Ln2 + (1-alpha)*ln1q + alpha*lnq + alpha*(alpha-1)/(2*s2)
	u := func(lnK float64) float64 { return math.Sqrt(2 * math.Max(0, lnK+math.Ln2-lnTol)) }
	u1, u2 := u(lnK1), u(lnK2)
	L := math.Min(-sigma*u1, -alpha-sigma*u2)
	R := math.Max(sigma*u1, -alpha+sigma*u2)
	R = math.Max(R, 0)
	n := math.Ceil((R - L) / h)
	if !(n <= replaceMaxPoints) {
		return closed, math.Inf(-1)
	}
	// ln f at x.
	lnPhi0 := -math.Log(sigma) - lnSqrt2Pi
	g := func(x float64) float64 {
		rem := logAdd(ln1q, lnq+(-0.5-x)/s2)  // ln(P/φ₀)
		addL := logAdd(ln1q, lnq+(-0.5+x)/s2) // ln(Q/φ₀)
		return lnPhi0 - x*x/(2*s2) + alpha*rem - (alpha-1)*addL
	}
	N := int(n)
	// g once per point, kept for the sum (the same values, in the same
	// order, as evaluating it twice).
	bp := replaceBuf.Get().(*[]float64)
	gs := slices.Grow((*bp)[:0], N+1)[:N+1]
	gmax := math.Inf(-1)
	for k := range gs {
		gs[k] = g(L + float64(k)*h)
		gmax = math.Max(gmax, gs[k])
	}
	var sum float64
	for _, v := range gs {
		sum += math.Exp(v - gmax)
	}
	*bp = gs
	replaceBuf.Put(bp)
	lnSum := gmax + math.Log(sum*h)
	// Tails beyond L (≤ −α) and R (≥ 0), and the trapezoid error.
	lnTailL := logAdd(lnK1+logNormCDF(L/sigma), lnK2+logNormCDF((L+alpha)/sigma))
	lnTailR := logAdd(lnK1+logNormCDF(-R/sigma), lnK2+logNormCDF(-(R+alpha)/sigma))
	lnErr := math.Ln2 + lnM - logSub(2*math.Pi*a/h, 0)
	up = logAdd(logAdd(lnSum, lnTailL), logAdd(lnTailR, lnErr))
	return math.Min(up, closed), logSub(lnSum, lnErr) - 1e-9
}

// StepRDPReplace is the Rényi DP ε_α of one step of the Poisson-subsampled
// Gaussian mechanism under replace-one adjacency at order α > 1: 0 when
// q = 0; +Inf when σ = 0 or α = +Inf; 2α/σ² when q = 1 (the Gaussian
// mechanism at sensitivity 2); ln A_α/(α − 1) otherwise ([LogAReplace]).
// NaN for invalid arguments.
func StepRDPReplace(q, sigma, alpha float64) float64 {
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
		return 2 * alpha / (sigma * sigma)
	}
	return LogAReplace(q, sigma, alpha) / (alpha - 1)
}
