package accountant

import (
	"context"
	"fmt"
	"math"
	"sync"
)

// AfterZCDPEpsilon is the ε' at δ of a ρ-zCDP release R followed by a
// mechanism A, which may read R's output, whose privacy profile is at most
// q (Profile.At): dpso's private estimates of the constants (ρ₀-zCDP,
// package estimate) and then dp-sgd's T steps read off their privacy loss
// distribution. It is [SelectionEpsilon]'s composition with a single run
// (K = 1: no selection, ε₂ = 0): conditioning on R's output o, with privacy
// loss ℓ(o), the pair's hockey-stick divergence at e^ε is at most
// E[h(ε − ℓ)] with h(ε) = min(1, q(ε)), non-decreasing in ℓ, and ρ-zCDP
// bounds the tail P[ℓ > t] ≤ e^{−(t−ρ)²/(4ρ)} for t ≥ ρ (Chernoff at the
// order (t + ρ)/(2ρ)); summation by parts on a grid from t₀ = ρ bounds the
// expectation. ρ = 0 is A alone. ε' is the smallest ε on a 2⁻²⁰ grid whose
// bound is at most δ (+Inf past 1024).
//
// Every step is an upper bound, so ε' is at least the exact ε' of the
// composition: for R the Gaussian mechanism at ρ = μ²/2 and A another at
// μ_A, the composition is exactly √(μ² + μ_A²)-GDP, whose ε' it
// overstates only by the Chernoff tail's slack.
func AfterZCDPEpsilon(q Profile, rho, delta float64) (float64, error) {
	if err := checkDelta(delta); err != nil {
		return math.NaN(), err
	}
	if !(rho >= 0) || math.IsInf(rho, 1) {
		return math.NaN(), fmt.Errorf("accountant: the first release's ρ = %g is not a finite ρ ≥ 0", rho)
	}
	h := func(e float64) float64 { return math.Min(1, q.At(e)) }
	return smallestEpsilon(afterZCDP(h, rho), delta), nil
}

// afterZCDP is the hockey-stick bound at e^ε of a ρ-zCDP release followed
// by a mechanism whose bound is h (non-increasing in ε, values in [0, 1]):
// E[h(ε − ℓ)] over the release's privacy loss ℓ, bounded by summation by
// parts against the zCDP tail on t₀ = ρ < t₁ < … < t_N (step
// min(2⁻⁹, ρ/64), up to a tail of e^{−800}):
//
//	E[g(ℓ)] ≤ g(t₀) + Σ_i (g(t_{i+1}) − g(t_i))·P[ℓ > t_i] + (1 − g(t_N))·P[ℓ > t_N],
//
// g(t) = h(ε − t) (see [SelectionEpsilon]). ρ = 0 is h itself.
func afterZCDP(h func(float64) float64, rho float64) func(float64) float64 {
	if !(rho > 0) {
		return h
	}
	dt := math.Min(1.0/512, rho/64)
	tN := rho + math.Sqrt(4*rho*800)
	n := int(math.Ceil((tN - rho) / dt))
	tail := func(t float64) float64 { return math.Exp(-(t - rho) * (t - rho) / (4 * rho)) }
	return func(e float64) float64 {
		prev := h(e - rho)
		sum := prev
		for i := 1; i <= n; i++ {
			t := rho + float64(i)*dt
			g := h(e - t)
			sum += (g - prev) * tail(t-dt)
			prev = g
		}
		sum += (1 - prev) * tail(rho+float64(n)*dt)
		return math.Min(1, sum)
	}
}

// smallestEpsilon is the smallest ε ≥ 0 on a 2⁻²⁰ grid with total(ε) ≤ δ
// (total does not increase in ε), +Inf where none up to 1024 is.
func smallestEpsilon(total func(float64) float64, delta float64) float64 {
	if total(0) <= delta {
		return 0
	}
	lo, hi := 0.0, 1.0
	for total(hi) > delta {
		lo, hi = hi, 2*hi
		if hi > 1024 {
			return math.Inf(1)
		}
	}
	for hi-lo > 1.0/(1<<20) {
		mid := (lo + hi) / 2
		if total(mid) <= delta {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// AfterZCDPMechanismEpsilon is the ε' at δ of a ρ-zCDP release followed by
// m (T Poisson-subsampled Gaussian steps), by accountant k. RDP: the
// conversion ([EpsFromRDP]) of the summed Rényi curves ρ·α + T·ε_step(α)
// at [DefaultOrders] (zCDP is RDP of ρ·α at every order α > 1, and RDP
// composes additively: Mironov 2017, Proposition 1). PLD: the smaller of
// that and [AfterZCDPEpsilon] on m's profile ([SubsampledGaussianProfile]),
// both upper bounds on the exact ε' (neither is below the other
// everywhere: on Gaussian steps at q = 1, add/remove, δ = 10⁻⁵, the
// profile's is 2.65 against RDP's 2.61 at ρ = 0.05, z = 2, T = 1, and 3.73
// against 3.74 at z = 4, T = 9; the exact ε' are 2.41 and 3.45). Cached:
// every trial of a run asks the same question.
func AfterZCDPMechanismEpsilon(k Kind, m Mechanism, rho, delta float64) (float64, error) {
	if err := m.check(); err != nil {
		return math.NaN(), err
	}
	key := afterKey{k, m.Adjacency, m.Q, m.Sigma, m.Steps, rho, delta}
	if v, ok := afterCache.Load(key); ok {
		return v.(float64), nil
	}
	if k != PLD && k != RDP {
		return math.NaN(), fmt.Errorf("unknown accountant %v", k)
	}
	orders := DefaultOrders()
	curve := ComposedRDP(m.Adjacency, m.Q, m.Sigma, m.Steps, orders)
	for i, a := range orders {
		curve[i] += rho * a
	}
	e, _, err := EpsFromRDP(orders, curve, delta)
	if err != nil {
		return math.NaN(), err
	}
	if k == PLD {
		p, err := SubsampledGaussianProfile(m, PLDOptions{})
		if err != nil {
			return math.NaN(), err
		}
		ep, err := AfterZCDPEpsilon(p, rho, delta)
		if err != nil {
			return math.NaN(), err
		}
		e = math.Min(e, ep)
	}
	afterCache.Store(key, e)
	return e, nil
}

type afterKey struct {
	k          Kind
	adj        Adjacency
	q, sigma   float64
	steps      int
	rho, delta float64
}

// afterCache maps an afterKey to its ε'.
var afterCache sync.Map

// CalibrateAfterZCDP is the smallest noise multiplier σ (to relative
// [CalibrateTol]) at which a ρ-zCDP release followed by T = steps
// Poisson-subsampled Gaussian steps at rate q under adjacency adj meets
// (ε', δ) by accountant k ([AfterZCDPMechanismEpsilon]): the calibration
// of dp-sgd after dpso's private estimates of the constants on the same
// rows, so that estimates and run together spend the target. The search
// starts at [CalibrateContext]'s σ for the steps alone (the first release
// only adds loss, so the answer is not below it), grows by 5% until the
// target is met and bisects on ln σ; the σ returned was evaluated and
// meets the target. ρ = 0 is CalibrateContext. It is cancelled by ctx
// between evaluations.
func CalibrateAfterZCDP(ctx context.Context, k Kind, adj Adjacency, q float64, steps int, rho, epsPrime, delta float64) (float64, error) {
	if rho == 0 {
		return CalibrateContext(ctx, k, adj, q, steps, epsPrime, delta)
	}
	if !(rho > 0) || math.IsInf(rho, 1) {
		return math.NaN(), fmt.Errorf("accountant: the first release's ρ = %g is not a finite ρ ≥ 0", rho)
	}
	s0, err := CalibrateContext(ctx, k, adj, q, steps, epsPrime, delta)
	if err != nil {
		return math.NaN(), err
	}
	meets := func(s float64) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		e, err := AfterZCDPMechanismEpsilon(k, Mechanism{Sigma: s, Q: q, Steps: steps, Adjacency: adj}, rho, delta)
		return e <= epsPrime, err
	}
	return bisectSigma(meets, s0, 1.05, CalibrateTol)
}
