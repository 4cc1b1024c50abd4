package theory

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// halfUnit is half a unit in the last decimal place of a reference value
// quoted with `decimals` digits after the point: agreement "to the
// precision given".
func halfUnit(decimals int) float64 { return 0.5 * math.Pow(10, -float64(decimals)) }

func TestDeltaGaussianPublishedValues(t *testing.T) {
	cases := []struct {
		source        string
		mu, epsPrime  float64
		want          float64
		decimalsGiven int
	}{
		// Google differential-privacy (Go), analytic Gaussian mechanism:
		// σ = 10, Δ = 1 (μ = Δ/σ = 0.1), ε' = 0.1.
		{"google-dp", 0.1, 0.1, 0.008751768145810, 15},
		// dp_accounting: σ = Δ = 1 (μ = 1).
		{"dp_accounting", 1, -1, 0.67881797, 8},
		{"dp_accounting", 1, 0, 0.38292492, 8},
		{"dp_accounting", 1, 1, 0.12693674, 8},
		{"dp_accounting", 1, 2, 0.020923636, 9},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s mu=%g eps'=%g", c.source, c.mu, c.epsPrime), func(t *testing.T) {
			got := DeltaGaussian(c.mu, c.epsPrime)
			if math.Abs(got-c.want) > halfUnit(c.decimalsGiven) {
				t.Errorf("%s: δ(μ=%g, ε'=%g) = %.17g, want %v", c.source, c.mu, c.epsPrime, got, c.want)
			}
		})
	}
}

func TestEpsExactPublishedValues(t *testing.T) {
	// μ-GDP at δ = 1e−5 (Dong, Roth & Su's conversion, as in dp_accounting's tests).
	for _, c := range []struct{ mu, want float64 }{{0.5, 1.99309}, {1, 4.37718}, {2, 9.99726}} {
		t.Run(fmt.Sprintf("mu=%g", c.mu), func(t *testing.T) {
			if got := EpsExact(c.mu, 1e-5); math.Abs(got-c.want) > halfUnit(5) {
				t.Errorf("EpsExact(%g, 1e-5) = %.10g, want %v", c.mu, got, c.want)
			}
		})
	}
	// OpenDP: ρ = 1/32, δ = 1e−3 by Canonne–Kamath–Steinke gives
	// 0.6880024554878086. The same minimization in 50-digit decimal
	// arithmetic (Python's decimal: bisection on the derivative's sign to
	// 200 halvings, then the objective) gives 0.68800245548780839432, whose
	// nearest float64 is 0.6880024554878084: OpenDP's figure carries ~1.5 ulp
	// of its own rounding. So: within 1 ulp (1.1e−16) of the exact value,
	// and within 3 ulps of OpenDP's.
	got := EpsCKS(1.0/32, 1e-3)
	if math.Abs(got-0.68800245548780839432) > 1.2e-16 {
		t.Errorf("EpsCKS(1/32, 1e-3) = %.17g, want 0.68800245548780839432 (50-digit reference)", got)
	}
	if math.Abs(got-0.6880024554878086) > 3.4e-16 {
		t.Errorf("EpsCKS(1/32, 1e-3) = %.17g, want OpenDP's 0.6880024554878086 within 3 ulps", got)
	}
}

func TestConversionOrdering(t *testing.T) {
	// exact ≤ CKS ≤ Bun–Steinke (each is valid for the Gaussian mechanism and
	// the exact curve is its tightest), and the exact ε' is tight: at
	// ε'(1 − 1e−9) the Gaussian's δ exceeds the target.
	for _, mu := range []float64{1e-3, 0.05, 0.3, 1, 2.5, 10, 100, 1e3} {
		for _, delta := range []float64{0.5, 1e-2, 1e-5, 1e-10, 1e-50, 1e-300} {
			rho := mu * mu / 2
			ex, cks, bs := EpsExact(mu, delta), EpsCKS(rho, delta), EpsBunSteinke(rho, delta)
			if !(ex <= cks*(1+1e-14) && cks <= bs*(1+1e-14)) {
				t.Errorf("μ=%g δ=%g: exact %.15g, CKS %.15g, Bun–Steinke %.15g: want increasing", mu, delta, ex, cks, bs)
			}
			if ex == 0 {
				if DeltaGaussian(mu, 0) > delta {
					t.Errorf("μ=%g δ=%g: ε' = 0 but δ(0) = %g", mu, delta, DeltaGaussian(mu, 0))
				}
				continue
			}
			if d := DeltaGaussian(mu, ex); d > delta {
				t.Errorf("μ=%g δ=%g: δ(ε'_exact = %g) = %g > δ", mu, delta, ex, d)
			}
			if d := DeltaGaussian(mu, ex*(1-1e-9)); d <= delta {
				t.Errorf("μ=%g δ=%g: not tight, δ(ε'(1−1e−9)) = %g ≤ δ", mu, delta, d)
			}
		}
	}
}

func TestInverses(t *testing.T) {
	for _, mu := range []float64{0.01, 0.2, 1, 3, 30} {
		for _, delta := range []float64{1e-3, 1e-6, 1e-12} {
			e := EpsExact(mu, delta)
			if back := EpsForTarget(e, delta); relErr(back, mu) > 1e-9 {
				t.Errorf("EpsForTarget(EpsExact(%g, %g)) = %.15g", mu, delta, back)
			}
		}
	}
	for _, target := range []float64{0, 0.1, 1, 3, 10} {
		for _, delta := range []float64{1e-3, 1e-6, 1e-12} {
			eps := EpsForTarget(target, delta)
			// The returned ε meets the target and is the largest that does.
			if got := DeltaGaussian(eps, target); got > delta {
				t.Errorf("target (%g, %g): ε = %g gives δ = %g", target, delta, eps, got)
			}
			if got := DeltaGaussian(eps*(1+1e-9), target); got <= delta {
				t.Errorf("target (%g, %g): ε = %g not the largest", target, delta, eps)
			}
			bs := EpsForTargetBunSteinke(target, delta)
			if bs > eps*(1+1e-14) {
				t.Errorf("target (%g, %g): Bun–Steinke inverse %g > exact %g", target, delta, bs, eps)
			}
			if back := EpsBunSteinke(Rho(bs), delta); math.Abs(back-target) > 1e-14*math.Max(1, target) {
				t.Errorf("Bun–Steinke round trip: %g → %g", target, back)
			}
		}
	}
	// ε' = 0 exactly: δ(0) = 2Φ(μ/2) − 1, so μ = 2Φ⁻¹((1 + δ)/2).
	delta := 0.01
	want := 2 * distuv.UnitNormal.Quantile((1+delta)/2)
	if got := EpsForTarget(0, delta); relErr(got, want) > 1e-9 {
		t.Errorf("EpsForTarget(0, %g) = %.15g, want %.15g", delta, got, want)
	}
}

// tailDelta evaluates δ = φ(a)·(M(a) − M(b)) with M(x) = Φ(x)/φ(x) from the
// asymptotic series M(−t) = (1/t)(1 − 1/t² + 3/t⁴ − 15/t⁶ + 105/t⁸ − 945/t¹⁰),
// independent of the continued fraction; for t ≥ 30 its truncation error is
// ≤ 10395/t¹² ≈ 2e−14 relative.
func tailDelta(mu, epsPrime float64) float64 {
	m := func(x float64) float64 {
		t2 := 1 / (x * x)
		return -1 / x * (1 + t2*(-1+t2*(3+t2*(-15+t2*(105-945*t2)))))
	}
	a := -epsPrime/mu + mu/2
	b := a - mu
	return math.Exp(-a*a/2) / math.Sqrt(2*math.Pi) * (m(a) - m(b))
}

func TestDeltaGaussianTails(t *testing.T) {
	// Both a and b ≤ −30: compare with the asymptotic series. The difference
	// M(a) − M(b) loses about log10(|a|/μ) digits to cancellation in both
	// computations, so 1e−11 relative.
	for _, mu := range []float64{2, 5, 20} {
		for _, a := range []float64{-30, -33, -37} {
			eps := mu * (mu/2 - a)
			got, want := DeltaGaussian(mu, eps), tailDelta(mu, eps)
			if relErr(got, want) > 1e-11 {
				t.Errorf("μ=%g ε'=%g: δ = %.15g, series %.15g", mu, eps, got, want)
			}
		}
	}
	// Where the naive formula Φ(a) − e^{ε'}Φ(b) is still accurate (b ≥ −37,
	// e^{ε'} finite, δ not much smaller than Φ(a)), the tail forms agree
	// with it: μ = 4, ε' = 15 gives a = −1.75, b = −5.75.
	for _, c := range []struct{ mu, eps float64 }{{4, 15}, {3, 14}, {6, 30}} {
		t.Run(fmt.Sprintf("mu=%g eps'=%g", c.mu, c.eps), func(t *testing.T) {
			naive := distuv.UnitNormal.CDF(-c.eps/c.mu+c.mu/2) - math.Exp(c.eps)*distuv.UnitNormal.CDF(-c.eps/c.mu-c.mu/2)
			if got := DeltaGaussian(c.mu, c.eps); relErr(got, naive) > 1e-12 {
				t.Errorf("μ=%g ε'=%g: δ = %.15g, naive %.15g", c.mu, c.eps, got, naive)
			}
		})
	}
	// Strictly decreasing in ε' across the switches between forms.
	for _, mu := range []float64{0.5, 3, 12} {
		t.Run(fmt.Sprintf("mu=%g", mu), func(t *testing.T) {
			prev := 2.0
			for eps := -5.0; eps < mu*mu/2+40*mu; eps += mu / 37 {
				d := DeltaGaussian(mu, eps)
				if d < 1e-300 { // below: subnormals, no relative precision left
					break
				}
				if !(d < prev) {
					t.Errorf("μ=%g: δ(%g) = %g not below δ at the previous ε' (%g)", mu, eps, d, prev)
				}
				prev = d
			}
		})
	}
	// The continued fraction agrees with Φ/φ where both are representable.
	for _, x := range []float64{-20, -25, -30, -37} {
		t.Run(fmt.Sprintf("x=%g", x), func(t *testing.T) {
			cf := mills(x - 1e-12) // just past the switch at −20
			ratio := distuv.UnitNormal.CDF(x) / normPDF(x)
			if relErr(cf, ratio) > 1e-12 {
				t.Errorf("M(%g): continued fraction %.16g, Φ/φ %.16g", x, cf, ratio)
			}
		})
	}
}

func TestPrivacyEdgeCasesAndClosedForms(t *testing.T) {
	// δ(0) = 2Φ(μ/2) − 1 = erf(μ/(2√2)).
	for _, mu := range []float64{0.01, 1, 4} {
		t.Run(fmt.Sprintf("mu=%g", mu), func(t *testing.T) {
			if got, want := DeltaGaussian(mu, 0), math.Erf(mu/(2*math.Sqrt2)); relErr(got, want) > 1e-14 {
				t.Errorf("δ(μ=%g, 0) = %.17g, want %.17g", mu, got, want)
			}
		})
	}
	if Rho(2) != 2 || GDPMu(0.7) != 0.7 {
		t.Error("ρ = ε²/2 or μ = ε wrong")
	}
	// Bun–Steinke by hand: ρ = 0.5, δ = e⁻² → 0.5 + 2√(0.5·2) = 2.5.
	if got := EpsBunSteinke(0.5, math.Exp(-2)); math.Abs(got-2.5) > 1e-15 {
		t.Errorf("EpsBunSteinke(0.5, e⁻²) = %.17g, want 2.5", got)
	}
	nan := []float64{
		Rho(-1), GDPMu(math.NaN()), EpsBunSteinke(-1, 0.1), EpsBunSteinke(1, 0), EpsBunSteinke(1, 1),
		DeltaGaussian(-1, 1), DeltaGaussian(math.NaN(), 1), EpsExact(1, 0), EpsExact(1, 1.5), EpsExact(-1, 0.1),
		EpsCKS(-1, 0.1), EpsCKS(1, 1), EpsForTarget(-1, 0.1), EpsForTarget(1, 0), EpsForTargetBunSteinke(1, 2),
	}
	for i, x := range nan {
		if !math.IsNaN(x) {
			t.Errorf("invalid input %d gave %g, want NaN", i, x)
		}
	}
	if DeltaGaussian(0, 1) != 0 || DeltaGaussian(0, -1) != -math.Expm1(-1) || DeltaGaussian(math.Inf(1), 3) != 1 {
		t.Error("μ = 0 or ∞ limits wrong")
	}
	if EpsExact(0, 0.1) != 0 || !math.IsInf(EpsExact(math.Inf(1), 0.1), 1) || EpsCKS(0, 0.1) != 0 {
		t.Error("ε' at μ = 0 or ∞ wrong")
	}
	// δ large enough that δ(0) ≤ δ: ε' = 0.
	if EpsExact(0.1, 0.5) != 0 {
		t.Errorf("EpsExact(0.1, 0.5) = %g, want 0", EpsExact(0.1, 0.5))
	}
	// Huge μ: finite, ordered, no hang.
	if e := EpsExact(1e6, 1e-5); !(e > 4.99e11 && e < EpsBunSteinke(5e11, 1e-5)) {
		t.Errorf("EpsExact(1e6, 1e−5) = %g", e)
	}
}

func TestConvert(t *testing.T) {
	p, err := Convert(1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	if p.Rho != 0.5 || p.GDPMu != 1 || p.Delta != 1e-5 || p.EpsExact != EpsExact(1, 1e-5) ||
		p.EpsBunSteinke != EpsBunSteinke(0.5, 1e-5) || p.EpsCKS != EpsCKS(0.5, 1e-5) {
		t.Errorf("Convert(1, 1e-5) = %+v", p)
	}
	for _, c := range []struct {
		eps, delta float64
		field      string
	}{{0, 0.1, "eps"}, {math.NaN(), 0.1, "eps"}, {math.Inf(1), 0.1, "eps"}, {1, 0, "delta"}, {1, 1, "delta"}} {
		t.Run(fmt.Sprintf("eps=%g delta=%g", c.eps, c.delta), func(t *testing.T) {
			if _, err := Convert(c.eps, c.delta); err == nil || !strings.HasPrefix(err.Error(), c.field) {
				t.Errorf("Convert(%g, %g): %v, want an error on %s", c.eps, c.delta, err, c.field)
			}
		})
	}
}

func BenchmarkEpsExact(b *testing.B) {
	for b.Loop() {
		EpsExact(1, 1e-5)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	p := P2.params()
	for b.Loop() {
		_, _ = Evaluate(SmoothConvexACSA, p)
	}
}

// TestEpsCKSLargeRho: at a huge ρ the minimizer α = 1 + t has t below
// float64's resolution at 1; EpsCKS then solves for t itself and stays
// finite, between the exact ε' and Bun–Steinke's (so `privacy --eps
// 1e100` prints a number, not NaN), and continuous where it switches.
func TestEpsCKSLargeRho(t *testing.T) {
	for _, c := range []struct{ rho, delta float64 }{{5e199, 1e-300}, {5e19, 1e-5}, {1e12, 1e-10}, {3e9, 1e-6}} {
		t.Run(fmt.Sprintf("rho=%g delta=%g", c.rho, c.delta), func(t *testing.T) {
			cks, ex, bs := EpsCKS(c.rho, c.delta), EpsExact(math.Sqrt(2*c.rho), c.delta), EpsBunSteinke(c.rho, c.delta)
			if math.IsNaN(cks) || math.IsInf(cks, 0) || cks < ex*(1-1e-12) || cks > bs*(1+1e-12) {
				t.Errorf("EpsCKS(%g, %g) = %g, want finite within [exact %g, Bun–Steinke %g]", c.rho, c.delta, cks, ex, bs)
			}
		})
	}
	// Across the switch (√(L/ρ) = 1e-4) the value is continuous: ε' is
	// ~ρ, and one ulp of ρ either side moves it by ~1e-16 relative.
	L := math.Log(1 / 1e-5)
	rho := L / 1e-8
	lo, hi := EpsCKS(math.Nextafter(rho, 0)*(1-1e-12), 1e-5), EpsCKS(rho*(1+1e-12), 1e-5)
	if math.Abs(hi-lo) > 1e-9*lo {
		t.Errorf("EpsCKS jumps at the switch: %.17g below, %.17g above", lo, hi)
	}
}
