package accountant

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Golden values for replace-one adjacency, computed independently of this
// package by testdata/replace_one_golden.py (Python with mpmath only; no
// code shared with the Go, different methods), which says how each is
// made; run it to reproduce them. The pair is P = (1−q)N(0, σ²) + qN(−1, σ²)
// against Q = (1−q)N(0, σ²) + qN(1, σ²) (one record's clipped vector
// replaced: the sampled components 2 apart, each 1 from the unsampled one).

func TestReplaceOneStepDeltaGolden(t *testing.T) {
	// "step": δ(ε) of one step exactly, by mpmath.findroot on ℓ(x) = ε at
	// 40 digits and δ = P(X ≤ x*) − e^ε Q(X ≤ x*).
	for _, c := range []struct{ sigma, q, eps, want float64 }{
		{0.77608, 0.0256, 0.5, 0.00028638368167613612},
		{0.77608, 0.0256, 0.05, 0.0077816233089251488},
		{2.0, 0.1, 0.1, 0.0085320897202729778},
		{0.5, 0.3, 1.5, 0.094796652489754133},
	} {
		t.Run(fmt.Sprintf("sigma=%g q=%g eps=%g", c.sigma, c.q, c.eps), func(t *testing.T) {
			got := newSGLoss(c.sigma, c.q, replace).delta(c.eps)
			if e := relErr(got, c.want); e > 1e-9 {
				t.Errorf("σ = %g, q = %g: δ(%g) = %.17g, want %.17g (relative error %.2g)", c.sigma, c.q, c.eps, got, c.want, e)
			}
		})
	}
}

func TestReplaceOneLossInverse(t *testing.T) {
	// inverseReplace solves ℓ(x) = ε in closed form; ℓ is odd (ℓ(−x) =
	// −ℓ(x): x ↦ −x swaps P and Q), and q = 1 is the Gaussian mechanism at
	// sensitivity 2, ℓ(x) = −2x/σ².
	for _, c := range []struct{ sigma, q float64 }{{0.77608, 0.0256}, {4, 0.01}, {0.03, 0.5}, {1.5, 1}} {
		t.Run(fmt.Sprintf("sigma=%g q=%g", c.sigma, c.q), func(t *testing.T) {
			g := newSGLoss(c.sigma, c.q, replace)
			for _, x := range []float64{-7, -1, -0.3, 0, 0.2, 1, 6, -0.6 / c.sigma, 0.55 / c.sigma} {
				x *= c.sigma
				l := g.loss(x)
				if d := math.Abs(g.loss(-x) + l); d > 1e-12*math.Max(1, math.Abs(l)) {
					t.Errorf("σ = %g, q = %g: ℓ(%g) + ℓ(%g) = %g, want 0", c.sigma, c.q, x, -x, d)
				}
				// Where ℓ is flat to rounding (|x| ≪ ½ at a small σ) the
				// inverse is ill-conditioned; it is checked where ℓ moves.
				if back := g.inverse(l); math.Abs(l) > 1e-6 && math.Abs(back-x) > 1e-9*math.Max(1, math.Abs(x)) {
					t.Errorf("σ = %g, q = %g: inverse(ℓ(%g) = %g) = %g", c.sigma, c.q, x, l, back)
				}
				if c.q == 1 {
					if want := -2 * x / (c.sigma * c.sigma); math.Abs(l-want) > 1e-12*math.Max(1, math.Abs(want)) {
						t.Errorf("q = 1, σ = %g: ℓ(%g) = %g, want −2x/σ² = %g", c.sigma, x, l, want)
					}
				}
			}
		})
	}
}

func TestReplaceOneRDPGolden(t *testing.T) {
	// "rdp": D_α(P‖Q) = ln(∫ P^α Q^{1−α})/(α − 1) by mpmath.quad
	// (tanh-sinh at 30 digits, breakpoints at −α, −1, 0, 1). StepRDPReplace
	// is an upper bound whose proved error terms are 10⁻¹² each on
	// A_α ≥ 1: it must lie within [golden, golden + 4·10⁻¹²/(α − 1)] up to
	// rounding.
	for _, c := range []struct{ sigma, q, alpha, want float64 }{
		{0.77608, 0.0256, 1.5, 0.0042184235062503966},
		{0.77608, 0.0256, 2, 0.0057666753456766431},
		{0.77608, 0.0256, 3.5, 0.012399207446446774},
		{0.77608, 0.0256, 8, 2.4787745423522133},
		{0.77608, 0.0256, 32, 22.807366853107531},
		{4.0, 0.01, 20, 0.00025005086177974419},
		{1.0, 0.2, 5.25, 0.94954209206261562},
	} {
		t.Run(fmt.Sprintf("sigma=%g q=%g alpha=%g", c.sigma, c.q, c.alpha), func(t *testing.T) {
			got := StepRDPReplace(c.q, c.sigma, c.alpha)
			slack := 4e-12/(c.alpha-1) + 1e-13*c.want
			if got < c.want-1e-13*c.want || got > c.want+slack {
				t.Errorf("σ = %g, q = %g, α = %g: RDP %.17g, want %.17g (+ at most %.2g)", c.sigma, c.q, c.alpha, got, c.want, slack)
			}
		})
	}
}

func TestReplaceOneRDPEdges(t *testing.T) {
	// q = 1: the Gaussian mechanism at sensitivity 2, α·2²/(2σ²); q = 0 and
	// σ = ∞: nothing released; σ = 0: no noise. And at these parameters
	// replace-one costs at least what add/remove does at every default
	// order (its two sampled components are 2 apart instead of 1).
	if got, want := StepRDPReplace(1, 2, 3), 3*4/(2*4.0); got != want {
		t.Errorf("q = 1: %g, want %g", got, want)
	}
	if StepRDPReplace(0, 1, 2) != 0 || StepRDPReplace(0.1, math.Inf(1), 2) != 0 || !math.IsInf(StepRDPReplace(0.1, 0, 2), 1) {
		t.Error("q = 0, σ = ∞, σ = 0: want 0, 0, +Inf")
	}
	if !math.IsNaN(StepRDPReplace(0.1, 1, 1)) || !math.IsNaN(StepRDPReplace(-0.1, 1, 2)) {
		t.Error("α ≤ 1 or q < 0: want NaN")
	}
	for _, a := range DefaultOrders() {
		ro, ar := StepRDPReplace(0.01, 1.1, a), StepRDP(0.01, 1.1, a)
		if !(ro >= ar*(1-1e-12)) {
			t.Errorf("α = %g: replace-one RDP %g below add/remove's %g", a, ro, ar)
		}
	}
	// The small-q limit at order 2: D₂ = ln(1 + χ²), and to order q²
	// χ²(P‖Q) = q²·E_{N(0,σ²)}[(φ₋₁/φ₀ − φ₁/φ₀)²] = 2q²(e^{1/σ²} − e^{−1/σ²})
	// against add/remove's χ²((1−q)φ₀ + qφ₁‖φ₀) = q²(e^{1/σ²} − 1); at
	// q = 10⁻⁴, σ = 4 the ratio of the two RDPs is theirs within 10⁻³.
	ro, ar := StepRDPReplace(1e-4, 4, 2), StepRDP(1e-4, 4, 2)
	if r, want := ro/ar, 2*(math.Exp(1/16.0)-math.Exp(-1/16.0))/(math.Exp(1/16.0)-1); math.Abs(r/want-1) > 1e-3 {
		t.Errorf("q = 10⁻⁴: replace-one/add-remove RDP = %g, want about %g", r, want)
	}
}

func TestReplaceOnePLDGolden(t *testing.T) {
	// "compose": ε'(δ = 10⁻⁵) of T = 196 steps at q = 256/10000 (dp-sgd at
	// --eps 1), bracketed by privacy buckets rounded up and down on a grid
	// of h = 2.5·10⁻⁵ composed by a pure-Python FFT (the script's doc
	// says how): the exact ε' lies in [lo, hi]. The PLD accountant's
	// pessimistic ε' is an upper bound on the exact one, so it is ≥ lo; its
	// own lower bound is ≤ hi; and it is tight (within the bracket).
	// σ = 0.77608 is the noise multiplier that add/remove accounting
	// calibrates to 4.37718: under
	// replace-one it gives 5.41; σ = 0.8602554 is where the default grid's
	// bisection calibrates under replace-one, whose ε' must meet 4.37718.
	for _, c := range []struct{ sigma, lo, hi float64 }{
		{0.77608, 5.407906808406615, 5.412806803262722},
		{0.8602553796463461, 4.3739888030773955, 4.378888799018501},
	} {
		t.Run(fmt.Sprintf("sigma=%g", c.sigma), func(t *testing.T) {
			lower, upper, err := PLDBounds(Mechanism{Sigma: c.sigma, Q: 0.0256, Steps: 196}, 1e-5, PLDOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if upper < c.lo || upper > c.hi || lower > c.hi {
				t.Errorf("σ = %g: PLD [%.6f, %.6f], independent bracket [%.6f, %.6f]", c.sigma, lower, upper, c.lo, c.hi)
			}
		})
	}
	const target = 4.3771780956812245 // theory.EpsExact(1, 1e-5)
	z, err := CalibrateContext(context.Background(), PLD, ReplaceOne, 0.0256, 196, target, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	e, err := PLDEpsilon(Mechanism{Sigma: z, Q: 0.0256, Steps: 196}, 1e-5, PLDOptions{})
	// 0.8602553796463461 is the default grid's bisection answer; the fast
	// path's lies at most PredictMargin above it (and within the
	// bisection's width below).
	const bisection = 0.8602553796463461
	if err != nil || e > target || z < bisection/(1+CalibrateTol) || z > bisection*(1+PredictMargin)*(1+CalibrateTol) {
		t.Errorf("replace-one calibration: σ = %.8g (want within [%.8g, %.8g]), ε' = %.6f (want ≤ %.6f), %v", z, bisection/(1+CalibrateTol), bisection*(1+PredictMargin)*(1+CalibrateTol), e, target, err)
	}
}

func TestReplaceEpsilonSkipsOnlyLosingOrders(t *testing.T) {
	// RDPEpsilon under replace-one computes only the orders that can attain
	// the minimum (replaceEpsilon); its ε' and order must be, bit for bit,
	// those of the conversion over every order (EpsFromRDP of ComposedRDP),
	// over random mechanisms (fixed seed) and the default and a sparse
	// order grid.
	r := rand.New(rand.NewPCG(7, 26))
	sparse := []float64{1.5, 2, 4, 8, 16, 32, 64, 256}
	for i := range 24 {
		q := math.Exp(math.Log(1e-4) + r.Float64()*math.Log(5000))
		sigma := 0.3 + 4*r.Float64()
		T := int(math.Exp(r.Float64() * math.Log(50000)))
		delta := math.Pow(10, -3-6*r.Float64())
		orders := DefaultOrders()
		if i%3 == 2 {
			orders = sparse
		}
		m := Mechanism{Sigma: sigma, Q: q, Steps: T, Adjacency: ReplaceOne}
		got, gotOrder, err := RDPEpsilon(m, delta, orders)
		want, wantOrder, werr := EpsFromRDP(orders, ComposedRDP(ReplaceOne, q, sigma, T, orders), delta)
		if err != nil || werr != nil || got != want || gotOrder != wantOrder {
			t.Errorf("q = %.4g, σ = %.4g, T = %d, δ = %.3g: ε' = %.17g at α = %g (%v), every order gives %.17g at α = %g (%v)",
				q, sigma, T, delta, got, gotOrder, err, want, wantOrder, werr)
		}
	}
}
