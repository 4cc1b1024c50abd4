package theory

import (
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// Privacy conversions. dpso's privacy parameter is the zCDP ε: algorithms
// are ρ-zCDP with ρ = ε²/2. Every algorithm here is a composition of
// Gaussian mechanisms, hence μ-GDP with μ = √(2ρ) = ε, and its exact
// (ε', δ)-DP curve is that of a Gaussian mechanism (Dong, Roth & Su 2019;
// Balle & Wang 2018). Three conversions to (ε', δ)-DP are offered, from
// loosest to tightest: Bun–Steinke ([prop:bun1.3]), Canonne–Kamath–Steinke
// 2020 (valid for any ρ-zCDP mechanism), and the exact Gaussian curve.
//
// Functions return NaN for inputs outside their domain, as gonum's
// stat/distuv does, and +Inf where the quantity exceeds the float64 range.

// Rho is the zCDP parameter ρ = ε²/2 of dpso's ε (Proposition "prop:
// gauss": the Gaussian mechanism with σ² = Δ²/(2ρ) is ρ-zCDP). NaN for
// ε < 0.
func Rho(eps float64) float64 {
	if !(eps >= 0) {
		return math.NaN()
	}
	return eps * (eps / 2) // not ε·ε/2: ε·ε overflows for ε > 1.3·10¹⁵⁴, whose ρ is finite up to 1.9·10¹⁵⁴
}

// GDPMu is the Gaussian-DP parameter μ = √(2ρ) = ε of a composition of
// Gaussian mechanisms that is ε²/2-zCDP. NaN for ε < 0.
func GDPMu(eps float64) float64 {
	if !(eps >= 0) {
		return math.NaN()
	}
	return eps
}

// EpsBunSteinke is the (ε', δ)-DP guarantee of a ρ-zCDP mechanism by Bun &
// Steinke 2016, Proposition 1.3 ([prop:bun1.3]): ε' = ρ + 2√(ρ·ln(1/δ)).
// NaN unless ρ ≥ 0 and δ ∈ (0, 1).
func EpsBunSteinke(rho, delta float64) float64 {
	if !(rho >= 0) || !(delta > 0 && delta < 1) {
		return math.NaN()
	}
	return rho + 2*math.Sqrt(rho*math.Log(1/delta))
}

var invSqrt2Pi = 1 / math.Sqrt(2*math.Pi)

// normPDF is φ(x).
func normPDF(x float64) float64 { return math.Exp(-x*x/2) * invSqrt2Pi }

// mills is M(x) = Φ(x)/φ(x) for x ≤ −5, computed without underflow: for
// −20 < x ≤ −5 as the ratio (both factors are ≥ 1e−88, far from underflow),
// below by Laplace's continued fraction M(−t) = 1/(t+1/(t+2/(t+3/(t+…)))),
// which for t ≥ 20 converges to full precision within 60 levels.
func mills(x float64) float64 {
	if x > -20 {
		return distuv.UnitNormal.CDF(x) / normPDF(x)
	}
	t := -x
	f := t
	for j := 60; j >= 1; j-- {
		f = t + float64(j)/f
	}
	return 1 / f
}

// DeltaGaussian is the exact privacy profile of a μ-GDP mechanism (a
// Gaussian mechanism with sensitivity/σ = μ): the smallest δ for which it
// is (ε', δ)-DP,
//
//	δ(ε') = Φ(−ε'/μ + μ/2) − e^{ε'}·Φ(−ε'/μ − μ/2)
//
// (Balle & Wang 2018, Theorem 8; Dong, Roth & Su 2019, Corollary 2.13). With
// a = −ε'/μ + μ/2 and b = a − μ one has e^{ε'}φ(b) = φ(a), so the second term
// is φ(a)·Φ(b)/φ(b); in the tails this form (and δ = φ(a)·(M(a) − M(b)) with
// M = Φ/φ when both a and b are below −5) avoids the overflow of e^{ε'} and
// the cancellation of two nearly equal tiny numbers, so that δ keeps ~13
// significant digits down to 1e−300.
//
// Limits: μ = 0 gives max(0, 1 − e^{ε'}), μ = +Inf gives 1. NaN for μ < 0
// or NaN inputs.
func DeltaGaussian(mu, epsPrime float64) float64 {
	switch {
	case math.IsNaN(mu) || math.IsNaN(epsPrime) || mu < 0:
		return math.NaN()
	case mu == 0:
		return math.Max(0, -math.Expm1(epsPrime))
	case math.IsInf(mu, 1):
		return 1
	case math.IsInf(epsPrime, 1):
		return 0
	case math.IsInf(epsPrime, -1):
		return 1
	}
	a := -epsPrime/mu + mu/2
	b := a - mu
	var d float64
	switch {
	case b >= -5:
		// Here ε' = −μ(b + μ/2) ≤ 5μ − μ²/2 ≤ 12.5: e^{ε'} cannot overflow.
		d = distuv.UnitNormal.CDF(a) - math.Exp(epsPrime)*distuv.UnitNormal.CDF(b)
	case a >= -5:
		d = distuv.UnitNormal.CDF(a) - normPDF(a)*mills(b)
	default:
		d = normPDF(a) * (mills(a) - mills(b))
	}
	return math.Min(1, math.Max(0, d))
}

// EpsExact is the tightest ε' ≥ 0 for which a μ-GDP mechanism (for dpso,
// μ = ε) is (ε', δ)-DP: the root of DeltaGaussian(μ, ε') = δ, which is
// decreasing in ε'. It is 0 when DeltaGaussian(μ, 0) ≤ δ. Found by
// bisection between 0 and the Bun–Steinke value at ρ = μ²/2 (which is
// never tighter) to the last bit; the returned ε' satisfies
// DeltaGaussian(μ, ε') ≤ δ. NaN unless μ ≥ 0 and δ ∈ (0, 1); +Inf if the
// answer exceeds the float64 range.
func EpsExact(mu, delta float64) float64 {
	key := [2]float64{mu, delta}
	epsMemo.Lock()
	for i := range epsMemo.n {
		if epsMemo.keys[i] == key {
			v := epsMemo.vals[i]
			epsMemo.Unlock()
			return v
		}
	}
	epsMemo.Unlock()
	v := epsExact(mu, delta)
	epsMemo.Lock()
	i := epsMemo.next
	epsMemo.keys[i], epsMemo.vals[i] = key, v
	epsMemo.next = (i + 1) % len(epsMemo.keys)
	epsMemo.n = max(epsMemo.n, i+1)
	epsMemo.Unlock()
	return v
}

// epsMemo holds EpsExact's last answers (each a bisection of ~60
// evaluations of DeltaGaussian): resolving a run asks for the same (μ, δ)
// several times, and every command resolves. A NaN key never matches, so
// NaN inputs are recomputed (and answered NaN) every time.
var epsMemo struct {
	sync.Mutex
	keys    [16][2]float64
	vals    [16]float64
	n, next int
}

func epsExact(mu, delta float64) float64 {
	switch {
	case !(mu >= 0) || !(delta > 0 && delta < 1):
		return math.NaN()
	case mu == 0:
		return 0
	case math.IsInf(mu, 1):
		return math.Inf(1)
	}
	if DeltaGaussian(mu, 0) <= delta {
		return 0
	}
	hi := EpsBunSteinke(mu*mu/2, delta)
	for DeltaGaussian(mu, hi) > delta && !math.IsInf(hi, 1) {
		hi *= 2 // only if rounding put the Bun–Steinke value a hair too low
	}
	if math.IsInf(hi, 1) {
		return hi
	}
	return bisect(func(x float64) bool { return DeltaGaussian(mu, x) <= delta }, 0, hi)
}

// bisect returns the smallest float64 x in (lo, hi] (to the last bit) with
// ok(x), for ok monotone (false then true) with ok(hi) true.
func bisect(ok func(float64) bool, lo, hi float64) float64 {
	for i := 0; i < 2100; i++ {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// EpsCKS is the (ε', δ)-DP guarantee of a ρ-zCDP mechanism by Canonne,
// Kamath & Steinke 2020 ("The Discrete Gaussian for Differential Privacy",
// Corollary 13), as OpenDP computes it:
//
//	ε' = inf_{α>1} αρ + (ln(1/δ) + (α−1)·ln(1 − 1/α) − ln α)/(α − 1),
//
// clamped at 0. The objective's derivative has the sign of
// ρ(α−1)² − ln(1/δ) + ln α, increasing in α, so the minimizer is its root,
// found by bisection on (1, 1 + √(ln(1/δ)/ρ)]. It lies between EpsExact
// and EpsBunSteinke. NaN unless ρ ≥ 0 and δ ∈ (0, 1).
func EpsCKS(rho, delta float64) float64 {
	switch {
	case !(rho >= 0) || !(delta > 0 && delta < 1):
		return math.NaN()
	case rho == 0:
		return 0
	case math.IsInf(rho, 1):
		return math.Inf(1)
	}
	L := math.Log(1 / delta)
	if s := math.Sqrt(L / rho); s < 1e-4 {
		// The minimizer α = 1 + t has t ≤ √(L/ρ) too small for α to
		// hold it (at ρ ≳ 1e10, α − 1 rounds to 0 and the quotient to
		// NaN): solve for t itself, ρt² − L + ln(1+t) = 0, and write
		// ε' = (1+t)ρ + L/t + ln t − ln(1+t) − ln(1+t)/t.
		t := bisect(func(t float64) bool { return rho*t*t-L+math.Log1p(t) >= 0 }, 0, s)
		return math.Max(0, (1+t)*rho+L/t+math.Log(t)-math.Log1p(t)-math.Log1p(t)/t)
	}
	hi := 1 + math.Sqrt(L/rho)
	alpha := bisect(func(a float64) bool { return rho*(a-1)*(a-1)-L+math.Log(a) >= 0 }, 1, hi)
	eps := alpha*rho + (L+(alpha-1)*math.Log1p(-1/alpha)-math.Log(alpha))/(alpha-1)
	return math.Max(0, eps)
}

// EpsForTarget is the inverse of EpsExact: the zCDP ε (= GDP μ) whose
// exact Gaussian curve gives exactly (ε', δ)-DP, i.e. the root in μ of
// DeltaGaussian(μ, ε') = δ, which is increasing in μ. The bracket starts at
// the Bun–Steinke inverse (never larger) and doubles; bisection runs to the
// last bit and returns the largest ε that still satisfies the target.
// NaN unless ε' ≥ 0 and δ ∈ (0, 1).
func EpsForTarget(epsPrime, delta float64) float64 {
	switch {
	case !(epsPrime >= 0) || !(delta > 0 && delta < 1):
		return math.NaN()
	case math.IsInf(epsPrime, 1):
		return math.Inf(1)
	}
	lo := EpsForTargetBunSteinke(epsPrime, delta)
	hi := math.Max(2*lo, 1)
	for DeltaGaussian(hi, epsPrime) <= delta {
		lo, hi = hi, 2*hi
		if math.IsInf(hi, 1) {
			return hi
		}
	}
	// Largest μ with δ(μ) ≤ δ: bisect for the smallest μ with δ(μ) > δ and
	// step back one ulp.
	first := bisect(func(m float64) bool { return DeltaGaussian(m, epsPrime) > delta }, lo, hi)
	return math.Nextafter(first, 0)
}

// EpsForTargetBunSteinke is the zCDP ε whose Bun–Steinke conversion gives
// (ε', δ): ρ = (√(ln(1/δ) + ε') − √(ln(1/δ)))², written as
// (ε'/(√(ln(1/δ) + ε') + √(ln(1/δ))))² to avoid cancellation, and
// ε = √(2ρ). NaN unless ε' ≥ 0 and δ ∈ (0, 1).
func EpsForTargetBunSteinke(epsPrime, delta float64) float64 {
	if !(epsPrime >= 0) || !(delta > 0 && delta < 1) {
		return math.NaN()
	}
	L := math.Log(1 / delta)
	s := epsPrime / (math.Sqrt(L+epsPrime) + math.Sqrt(L))
	return math.Sqrt2 * s
}

// Privacy is the privacy guarantee of a zCDP ε, every way dpso shows it.
type Privacy struct {
	Eps           float64 // the zCDP ε
	Rho           float64 // ρ = ε²/2
	GDPMu         float64 // μ = ε
	Delta         float64 // the δ of the (ε', δ) conversions
	EpsBunSteinke float64 // ε' by Bun–Steinke
	EpsCKS        float64 // ε' by Canonne–Kamath–Steinke 2020
	EpsExact      float64 // ε' exact for a μ-GDP (Gaussian) mechanism
}

// Convert computes every conversion of the zCDP ε at δ. It returns an error
// naming the argument and its range unless ε ∈ (0, ∞) and δ ∈ (0, 1).
func Convert(eps, delta float64) (Privacy, error) {
	if !(eps > 0) || math.IsInf(eps, 1) {
		return Privacy{}, fmt.Errorf("eps (ε) = %s is not in (0, ∞)", fmtNum(eps))
	}
	if !(delta > 0 && delta < 1) {
		return Privacy{}, fmt.Errorf("delta (δ) = %s is not in (0, 1)", fmtNum(delta))
	}
	rho := Rho(eps)
	return Privacy{Eps: eps, Rho: rho, GDPMu: GDPMu(eps), Delta: delta,
		EpsBunSteinke: EpsBunSteinke(rho, delta), EpsCKS: EpsCKS(rho, delta),
		EpsExact: EpsExact(GDPMu(eps), delta)}, nil
}
