package accountant

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Repetitions is the law of the number K of candidates of a private
// hyperparameter search (Papernot & Steinke, "Hyperparameter Tuning with
// Renyi Differential Privacy", ICLR 2022; arXiv:2110.03620): a candidate
// is one run of a private mechanism Q at hyperparameters drawn at random,
// the search runs Q K times and releases the best run only.
//
//   - Shape = η ∈ [0, ∞): the truncated negative binomial D_{η,γ} of their
//     Definition 1, P[K = k] = (1 − γ)^k/(γ^{−η} − 1)·Π_{ℓ<k}(ℓ + η)/(ℓ + 1)
//     for k ≥ 1, with γ ∈ (0, 1] set by the mean
//     E[K] = η(1 − γ)/(γ(1 − γ^η)); η = 0 is the logarithmic law
//     P[K = k] = (1 − γ)^k/(k ln(1/γ)), E[K] = (1 − γ)/(γ ln(1/γ)); η = 1 is
//     the geometric law, E[K] = 1/γ.
//   - Shape = +Inf: K ~ Poisson(Mean) (their Section 3.2; K = 0 happens,
//     and the search then releases nothing).
type Repetitions struct {
	Shape float64
	Mean  float64
}

// Poisson reports whether K is Poisson.
func (r Repetitions) Poisson() bool { return math.IsInf(r.Shape, 1) }

// Check refuses a law outside the theorems: η < 0 or NaN, a mean below 1
// (the truncated negative binomial has K ≥ 1), a mean that is not finite,
// or a Poisson mean ≤ 0.
func (r Repetitions) Check() error {
	switch {
	case math.IsNaN(r.Shape) || r.Shape < 0:
		return fmt.Errorf("accountant: the shape η = %g of K's law is not ≥ 0", r.Shape)
	case math.IsNaN(r.Mean) || math.IsInf(r.Mean, 0):
		return fmt.Errorf("accountant: the mean of K is %g, not a finite number", r.Mean)
	case r.Poisson() && r.Mean <= 0:
		return fmt.Errorf("accountant: a Poisson K needs a mean > 0, not %g", r.Mean)
	case !r.Poisson() && r.Mean < 1:
		return fmt.Errorf("accountant: the truncated negative binomial has K ≥ 1, so its mean is ≥ 1, not %g", r.Mean)
	}
	return nil
}

// TNBMean is E[K] for K ~ D_{η,γ} (Papernot & Steinke, Definition 1):
// η(1 − γ)/(γ(1 − γ^η)) for η > 0, (1 − γ)/(γ ln(1/γ)) for η = 0, 1 at
// γ = 1. Near γ = 1 and near η ln γ = 0 the quotients are evaluated as
// expm1 and log1p ratios, which keep full precision there. NaN outside
// γ ∈ (0, 1], η ≥ 0.
func TNBMean(gamma, shape float64) float64 {
	if !(gamma > 0 && gamma <= 1) || !(shape >= 0) || math.IsInf(shape, 1) {
		return math.NaN()
	}
	if gamma == 1 {
		return 1
	}
	lg := math.Log1p(-(1 - gamma)) // ln γ < 0 (1 − γ is exact for γ ≥ ½)
	ratio := lg / (gamma - 1)      // ln γ/(γ − 1) > 0
	if shape == 0 {
		return 1 / (gamma * ratio)
	}
	x := shape * lg
	em := math.Expm1(x) / x // (γ^η − 1)/(η ln γ) > 0
	return 1 / (gamma * em * ratio)
}

// TNBGamma is the γ of the truncated negative binomial with shape η and
// mean E[K] ≥ 1: the inverse of TNBMean (decreasing in γ), by bisection
// to relative width 10⁻¹², returning the lower end of the last interval so
// that TNBMean(γ) ≥ mean (the conservative side: a smaller γ is a larger
// ln(1/γ) in Theorem 2). Exactly 1/mean for η = 1.
func TNBGamma(shape, mean float64) float64 {
	if !(shape >= 0) || math.IsInf(shape, 1) || !(mean >= 1) || math.IsInf(mean, 1) {
		return math.NaN()
	}
	if shape == 1 {
		return 1 / mean
	}
	if mean == 1 {
		return 1
	}
	// mean ≤ 2(η + 1)/γ (dp_accounting's bracket), so γ ≤ 2(η + 1)/mean.
	lo, hi := 0.0, math.Min(1, 2*(shape+1)/mean)
	for hi > lo*(1+1e-12) {
		mid := (lo + hi) / 2
		if TNBMean(mid, shape) < mean {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo
}

// Gamma is γ of a truncated negative binomial law (NaN for Poisson).
func (r Repetitions) Gamma() float64 {
	if r.Poisson() {
		return math.NaN()
	}
	return TNBGamma(r.Shape, r.Mean)
}

// PMF is P[K = k].
func (r Repetitions) PMF(k int) float64 {
	if k < 0 {
		return 0
	}
	return r.Probs(k)[k]
}

// Probs is P[K = k] for k = 0, …, kmax. For the truncated negative
// binomial P[K = 1] = (1 − γ)·η/(γ^{−η} − 1) (→ (1 − γ)/ln(1/γ) as η → 0)
// and P[K = j + 1] = P[K = j]·(1 − γ)(j + η)/(j + 1), in logarithms.
func (r Repetitions) Probs(kmax int) []float64 {
	out := make([]float64, max(kmax, 0)+1)
	if r.Poisson() {
		p := distuv.Poisson{Lambda: r.Mean}
		for k := range out {
			out[k] = p.Prob(float64(k))
		}
		return out
	}
	if kmax < 1 {
		return out
	}
	g := r.Gamma()
	if g == 1 {
		out[1] = 1
		return out
	}
	L := -math.Log(g)
	var lp float64
	if r.Shape == 0 {
		lp = math.Log1p(-g) - math.Log(L)
	} else {
		lp = math.Log1p(-g) + math.Log(r.Shape) - math.Log(math.Expm1(r.Shape*L))
	}
	out[1] = math.Exp(lp)
	for j := 1; j < kmax; j++ {
		lp += math.Log1p(-g) + math.Log((float64(j)+r.Shape)/float64(j+1))
		out[j+1] = math.Exp(lp)
	}
	return out
}

// maxDraw caps a drawn K: the law's mass beyond it is below float64's
// resolution for any mean dpso accepts (MaxRepetitionsMean).
const maxDraw = 1_000_000

// MaxRepetitionsMean is the largest mean of K dpso's searches accept.
const MaxRepetitionsMean = 10_000

// Sample draws K by inversion of its distribution function with one
// uniform from rng (for Poisson, gonum's sampler on rng).
func (r Repetitions) Sample(rng *rand.Rand) int {
	if r.Poisson() {
		return int(distuv.Poisson{Lambda: r.Mean, Src: rng}.Rand())
	}
	u := rng.Float64()
	g := r.Gamma()
	if g == 1 {
		return 1
	}
	p := r.Probs(1)[1]
	cum := p
	k := 1
	for cum < u && k < maxDraw && p > 0 {
		p *= (1 - g) * (float64(k) + r.Shape) / float64(k+1)
		k++
		cum += p
	}
	return k
}

// ErrOrders is the error of an order grid the theorems cannot use.
var ErrOrders = errors.New("accountant: the Rényi orders and values do not match, or no order is > 1")

// RepeatAndSelectRDP is the Rényi DP, at each order of orders, of running
// a mechanism Q whose RDP is rdp (rdp[i] at orders[i]) K ~ r times and
// releasing the best run (Papernot & Steinke 2022):
//
//   - truncated negative binomial (Theorem 2): for every λ > 1 and every
//     λ̂ ≥ 1 on the grid,
//     ε'(λ) = ε(λ) + (1 + η)(1 − 1/λ̂)ε(λ̂) + (1 + η) ln(1/γ)/λ̂ + ln E[K]/(λ − 1),
//     with the best λ̂ of the grid;
//   - Poisson (Theorem 6): if Q is (ε̂, δ̂)-DP with e^{ε̂} ≤ 1 + 1/(λ − 1),
//     ε'(λ) = ε(λ) + E[K]·δ̂ + ln E[K]/(λ − 1), at ε̂ = ln(1 + 1/(λ − 1)) and
//     δ̂ the RDP curve's δ there (DeltaFromRDP).
//
// Then, since Rényi divergence is non-decreasing in its order, each value
// is lowered to the smallest value at any order not below it. Orders ≤ 1
// get +Inf (the formulas need λ > 1). This is the bound that
// google/differential-privacy's dp_accounting computes in
// _compute_rdp_repeat_and_select (rdp_privacy_accountant.py), written here
// from the paper.
func RepeatAndSelectRDP(orders, rdp []float64, r Repetitions) ([]float64, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	if len(orders) != len(rdp) || len(orders) == 0 {
		return nil, ErrOrders
	}
	out := make([]float64, len(orders))
	for i := range out {
		out[i] = math.Inf(1)
	}
	found := false
	if r.Poisson() {
		for i, lam := range orders {
			if !(lam > 1) || math.IsNaN(rdp[i]) {
				continue
			}
			epsHat := math.Log1p(1 / (lam - 1))
			deltaHat, _, err := DeltaFromRDP(orders, rdp, epsHat)
			if err != nil {
				return nil, err
			}
			out[i] = rdp[i] + r.Mean*deltaHat + math.Log(r.Mean)/(lam-1)
			found = true
		}
	} else {
		eta, g := r.Shape, r.Gamma()
		logInvGamma := -math.Log(g)
		// The constant term: (1 + η)·min over λ̂ ≥ 1 of (1 − 1/λ̂)ε(λ̂) + ln(1/γ)/λ̂.
		c := math.Inf(1)
		for j, lh := range orders {
			if !(lh >= 1) || math.IsNaN(rdp[j]) {
				continue
			}
			c = math.Min(c, (1-1/lh)*rdp[j]+logInvGamma/lh)
		}
		c *= 1 + eta
		for i, lam := range orders {
			if !(lam > 1) || math.IsNaN(rdp[i]) {
				continue
			}
			out[i] = rdp[i] + math.Log(r.Mean)/(lam-1) + c
			found = true
		}
	}
	if !found {
		return nil, ErrOrders
	}
	// Monotonicity in the order.
	low := make([]float64, len(out))
	for i, lam := range orders {
		low[i] = math.Inf(1)
		for j, mu := range orders {
			if mu >= lam {
				low[i] = math.Min(low[i], out[j])
			}
		}
	}
	return low, nil
}

// ErrNoRho is LargestRho's failure: no ρ down to hi·10⁻¹² meets the
// target.
var ErrNoRho = errors.New("accountant: no ρ down to 10⁻¹² of the upper end meets the target")

// LargestRho is the largest ρ in (0, hi] (to relative precision 10⁻⁶) for
// which the RDP curve curve(ρ) on orders converts (EpsFromRDP) to an ε' at
// most epsTarget at δ, assuming the converted ε' does not decrease as ρ
// grows. Bisection keeps the invariant that the lower end meets the target,
// and returns it, so the result never overshoots. It fails when even
// ρ = hi·10⁻¹² misses the target.
func LargestRho(curve func(rho float64) ([]float64, error), orders []float64, epsTarget, delta, hi float64) (float64, error) {
	if !(hi > 0) || math.IsInf(hi, 1) {
		return math.NaN(), fmt.Errorf("accountant: the upper end ρ = %g is not a finite ρ > 0", hi)
	}
	meets := func(rho float64) (bool, error) {
		c, err := curve(rho)
		if err != nil {
			return false, err
		}
		e, _, err := EpsFromRDP(orders, c, delta)
		if err != nil {
			return false, err
		}
		return e <= epsTarget, nil
	}
	if ok, err := meets(hi); err != nil || ok {
		return hi, err
	}
	lo := hi
	for {
		lo /= 2
		if lo < hi*1e-12 {
			return math.NaN(), fmt.Errorf("%w (down to ρ = %g; ε' = %g at δ = %g)", ErrNoRho, lo, epsTarget, delta)
		}
		ok, err := meets(lo)
		if err != nil {
			return math.NaN(), err
		}
		if ok {
			break
		}
	}
	up := lo * 2
	for up/lo-1 > 1e-6 {
		mid := (lo + up) / 2
		ok, err := meets(mid)
		if err != nil {
			return math.NaN(), err
		}
		if ok {
			lo = mid
		} else {
			up = mid
		}
	}
	return lo, nil
}
