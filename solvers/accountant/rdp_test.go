package accountant

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
)

// The RDP accountant against golden values from the published tests of
// google/differential-privacy's dp_accounting
// (python/dp_accounting/dp_accounting/...), Opacus (opacus/tests/...) and
// TensorFlow Privacy (tensorflow_privacy/privacy/analysis/...), each cited
// beside its number, matched at 10⁻³ relative (most match to 10⁻⁸); the
// PLD accountant's are in pld_test.go.

func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }

// opacusOrders is Opacus's RDPAccountant.DEFAULT_ALPHAS
// (opacus/accountants/rdp.py): 1.1, …, 10.9, 12, …, 63.
func opacusOrders() []float64 {
	var o []float64
	for x := 1; x < 100; x++ {
		o = append(o, 1+float64(x)/10)
	}
	for a := 12; a < 64; a++ {
		o = append(o, float64(a))
	}
	return o
}

// absRDP is T·RDP with dp_accounting's own fractional series (the sum of
// the terms' absolute values, _compute_log_a_frac), for golden values that
// dp_accounting computed that way.
func absRDP(q, sigma float64, steps int, orders []float64) []float64 {
	out := make([]float64, len(orders))
	for i, a := range orders {
		switch {
		case q == 1:
			out[i] = float64(steps) * a / (2 * sigma * sigma)
		case a == math.Trunc(a):
			out[i] = float64(steps) * logAInt(q, sigma, int(a)) / (a - 1)
		default:
			la, _ := logAFrac(q, sigma, a, true)
			out[i] = float64(steps) * la / (a - 1)
		}
	}
	return out
}

// quadLogA is ln A_α by numerical quadrature of its definition
// ∫ φ_σ(z)(1 − q + q e^{(2z−1)/(2σ²)})^α dz (first principles; the check
// dp_accounting's test_compute_log_a_equals_mp makes with mpmath).
func quadLogA(q, sigma, alpha float64) float64 {
	f := func(z float64) float64 {
		return math.Exp(-z*z/(2*sigma*sigma)) / (sigma * math.Sqrt(2*math.Pi)) *
			math.Pow(1-q+q*math.Exp((2*z-1)/(2*sigma*sigma)), alpha)
	}
	lim := 40*sigma + 2*alpha
	return math.Log(quad.Fixed(f, -lim, lim, 40000, nil, 0))
}

func TestRDPPoissonSampledGaussianGolden(t *testing.T) {
	// rdp_privacy_accountant_test.py, test_compute_rdp_poisson_sampled_gaussian:
	// q = 0.01, noise multiplier 2.5, 50 steps, orders 1.5, 2.5, 5, 50, 100.
	orders := []float64{1.5, 2.5, 5, 50, 100}
	want := []float64{6.70579741e-04, 1.08548710e-03, 2.18075656e-03, 2.38460375e-02, 1.67416308e02}
	abs := absRDP(0.01, 2.5, 50, orders)
	ours := ComposedRDP(AddRemove, 0.01, 2.5, 50, orders)
	for i, a := range orders {
		if e := relErr(abs[i], want[i]); e > 1e-6 {
			t.Errorf("order %g: dp_accounting's series gives %.9g, want %.9g (rel. err %.2g)", a, abs[i], want[i], e)
		}
		// Our signed series is the exact A_α (checked against quadrature)
		// plus a proved tail bound: never above the absolute sum, and equal
		// to it at integer orders.
		if ours[i] > abs[i]*(1+1e-12) {
			t.Errorf("order %g: signed %.12g above the absolute sum %.12g", a, ours[i], abs[i])
		}
		if a == math.Trunc(a) && relErr(ours[i], want[i]) > 1e-6 {
			t.Errorf("integer order %g: %.9g, want %.9g", a, ours[i], want[i])
		}
		exact := 50 * quadLogA(0.01, 2.5, a) / (a - 1)
		if e := relErr(ours[i], exact); e > 1e-6 || ours[i] < exact*(1-1e-9) {
			t.Errorf("order %g: %.12g vs quadrature %.12g (rel. err %.2g; must be an upper bound)", a, ours[i], exact, e)
		}
	}
}

func TestLogAFractionalIsUpperBound(t *testing.T) {
	// The (q, σ, α) points of rdp_privacy_accountant_test.py,
	// test_compute_log_a_equals_mp, against quadrature (first principles)
	// where quadrature is accurate; fractional orders must never be below.
	cases := []struct{ q, sigma, alpha float64 }{
		{1e-4, 1, 1.5}, {1e-3, 1, 2}, {0.01, 10, 20}, {0.1, 100, 20.5},
		{0.04, 1.5, 1.1}, {0.3, 0.8, 3.7}, {0.5, 2, 1.25}, {0.9, 1, 7.3},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("q=%g sigma=%g alpha=%g", c.q, c.sigma, c.alpha), func(t *testing.T) {
			got := LogA(c.q, c.sigma, c.alpha)
			want := quadLogA(c.q, c.sigma, c.alpha)
			// Quadrature's own error at 40000 points is below 1e-13 relative
			// here; the series' tail bound adds at most 1e-13 of A_α.
			if got < want-1e-12*math.Abs(want) || math.Abs(got-want) > 1e-9*math.Abs(want)+1e-13 {
				t.Errorf("LogA(%g, %g, %g) = %.15g, quadrature %.15g", c.q, c.sigma, c.alpha, got, want)
			}
		})
	}
}

func TestEpsFromRDPGolden(t *testing.T) {
	// rdp_privacy_accountant_test.py, test_compute_epsilon_delta_pure_dp:
	// orders 2..32, RDP 1.1 at each, δ = 1e-5 → ε = 1.32783806176 at order
	// 32; and back, δ(1.32783806176) = 1e-5.
	var orders, rdp []float64
	for a := 2; a <= 32; a++ {
		orders = append(orders, float64(a))
		rdp = append(rdp, 1.1)
	}
	eps, ord, err := EpsFromRDP(orders, rdp, 1e-5)
	if err != nil || relErr(eps, 1.32783806176) > 1e-9 || ord != 32 {
		t.Errorf("pure DP: ε = %.12g at order %g (%v), want 1.32783806176 at 32", eps, ord, err)
	}
	d, ord, err := DeltaFromRDP(orders, rdp, 1.32783806176)
	if err != nil || relErr(d, 1e-5) > 1e-8 || ord != 32 {
		t.Errorf("pure DP: δ = %.12g at order %g (%v), want 1e-5 at 32", d, ord, err)
	}

	// test_compute_epsilon_delta_gaussian: q = 1, noise multiplier
	// 4.530877117 chosen to give exactly (1, 1e-6)-DP; orders 1.000 … 99.999
	// step 0.001 → ε ≈ 1 (7 places), δ(1) ≈ 1e-6.
	orders, rdp = orders[:0], rdp[:0]
	for i := 1000; i < 100000; i++ {
		a := 0.001 * float64(i)
		orders = append(orders, a)
		rdp = append(rdp, StepRDP(1, 4.530877117, a))
	}
	eps, _, _ = EpsFromRDP(orders, rdp, 1e-6)
	if math.Abs(eps-1) > 5e-8 {
		t.Errorf("Gaussian: ε = %.10g, want 1", eps)
	}
	d, _, _ = DeltaFromRDP(orders, rdp, 1)
	if math.Abs(d-1e-6) > 5e-8 {
		t.Errorf("Gaussian: δ = %.10g, want 1e-6", d)
	}
}

func TestRDPEpsilonGolden(t *testing.T) {
	tfOrders := append([]float64{1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5}, func() []float64 {
		var o []float64
		for a := 5; a < 64; a++ {
			o = append(o, float64(a))
		}
		return append(o, 128, 256, 512)
	}()...)
	cases := []struct {
		name            string
		q, sigma        float64
		steps           int
		delta           float64
		orders          []float64
		absSeries       bool // the golden value used dp_accounting's absolute-value series
		want, wantOrder float64
	}{
		// opacus/tests/accountants_test.py, AccountingTest.test_rdp_accountant:
		// σ = 1.5, q = 0.04, steps = int(90/0.04) = 2250, δ = 1e-5, Opacus's
		// alphas (signed series) → 7.32911117143.
		{"opacus test_rdp_accountant", 0.04, 1.5, 2250, 1e-5, opacusOrders(), false, 7.32911117143, math.NaN()},
		// tensorflow_privacy/privacy/analysis/compute_dp_sgd_privacy_test.py,
		// test_compute_dp_sgd_privacy Test0: n = 60000, batch 150 (q = 0.0025),
		// σ = 1.3, 15 epochs (steps ⌈15·60000/150⌉ = 6000), δ = 1e-5 →
		// 0.7242234026109595 at order 19.
		{"tf-privacy Test0", 150.0 / 60000, 1.3, 6000, 1e-5, tfOrders, true, 0.7242234026109595, 19},
		// Test1: n = 100000, batch 100, σ = 1.0, 30 epochs (30000 steps),
		// δ = 1e-7 → 1.4154988495444842 at order 13.
		{"tf-privacy Test1", 100.0 / 100000, 1.0, 30000, 1e-7, tfOrders, true, 1.4154988495444842, 13},
		// Test2: n = 1e8, batch 1024, σ = 0.1, 10 epochs (⌈1e9/1024⌉ = 976563
		// steps), δ = 1e-7 → 5907982.3113984 at order 1.25.
		{"tf-privacy Test2", 1024.0 / 1e8, 0.1, 976563, 1e-7, tfOrders, true, 5907982.3113984, 1.25},
		// compute_dp_sgd_privacy_test.py, test_compute_dp_sgd_example_privacy
		// (RDP, dp_accounting's default orders; 1.2 epochs, σ = 0.7, δ = 1e-5):
		// no subsampling: Gaussian, ⌈1.2⌉ = 2 steps → 10.8602036;
		{"tf-privacy no_microbatching_no_subsampling_rdp", 1, 0.7, 2, 1e-5, nil, true, 10.8602036, math.NaN()},
		// microbatching halves σ: → 26.2880374;
		{"tf-privacy microbatching_no_subsampling_rdp", 1, 0.35, 2, 1e-5, nil, true, 26.2880374, math.NaN()},
		// q = 0.01, ⌈1.2/0.01⌉ = 120 steps → 3.2392676;
		{"tf-privacy no_microbatching_with_subsampling_rdp", 0.01, 0.7, 120, 1e-5, nil, true, 3.2392676, math.NaN()},
		// microbatching with q = 0.01 → 22.6248601.
		{"tf-privacy microbatching_with_subsampling_rdp", 0.01, 0.35, 120, 1e-5, nil, true, 22.6248601, math.NaN()},
		// test_dp_sgd_privacy_statement_no_user_dp_with_rdp: 10000 examples,
		// batch 64 (q = 0.0064), σ = 2.0 halved by microbatching, 5 epochs
		// (⌈5/0.0064⌉ = 782 steps), δ = 1e-6: "Epsilon assuming Poisson
		// sampling (*): 1.616" (printed to 3 decimals).
		{"tf-privacy statement rdp", 64.0 / 10000, 1.0, 782, 1e-6, nil, true, 1.616, math.NaN()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orders := c.orders
			if orders == nil {
				orders = DefaultOrders()
			}
			var rdp []float64
			if c.absSeries {
				rdp = absRDP(c.q, c.sigma, c.steps, orders)
			} else {
				rdp = ComposedRDP(AddRemove, c.q, c.sigma, c.steps, orders)
			}
			eps, ord, err := EpsFromRDP(orders, rdp, c.delta)
			tol := 1e-3
			if c.name == "tf-privacy statement rdp" {
				tol = 5e-4 / 1.616 // printed to 3 decimals
			}
			if err != nil || relErr(eps, c.want) > tol {
				t.Errorf("%s: ε = %.10g, want %.10g (rel. err %.2g, %v)", c.name, eps, c.want, relErr(eps, c.want), err)
			}
			if !math.IsNaN(c.wantOrder) && ord != c.wantOrder {
				t.Errorf("%s: optimal order %g, want %g", c.name, ord, c.wantOrder)
			}
			// The package's own (signed, certified) series is never looser.
			mine, _, _ := RDPEpsilon(Mechanism{Sigma: c.sigma, Q: c.q, Steps: c.steps, Adjacency: AddRemove}, c.delta, orders)
			if mine > eps*(1+1e-12) {
				t.Errorf("%s: signed series ε = %.12g above the absolute-sum ε = %.12g", c.name, mine, eps)
			}
		})
	}
}

func TestOpacusNoiseMultiplierGolden(t *testing.T) {
	// opacus/tests/accountants_test.py, test_get_noise_multiplier_rdp_epochs
	// (ε = 8, δ = 1e-5, q = 0.04, 90 epochs = int(90/0.04) = 2250 steps →
	// 1.416) and test_get_noise_multiplier_rdp_steps (2000 steps → 1.3562).
	// Opacus stops its bisection once ε(σ_high) is within
	// epsilon_tolerance = 0.01 below the target (opacus/accountants/utils.py),
	// so its answer satisfies 7.99 ≤ ε(σ) ≤ 8 at Opacus's orders; ours is
	// the smallest σ to 1e-4 and can only be smaller.
	for _, c := range []struct {
		steps int
		want  float64
	}{{2250, 1.416}, {2000, 1.3562}} {
		t.Run(fmt.Sprintf("steps=%d", c.steps), func(t *testing.T) {
			m := Mechanism{Sigma: c.want, Q: 0.04, Steps: c.steps, Adjacency: AddRemove}
			e, _, err := RDPEpsilon(m, 1e-5, opacusOrders())
			if err != nil || e > 8 || e < 7.99-5e-4 { // Opacus rounds σ to 4 places: ±5e-5 in σ
				t.Errorf("Opacus σ = %g, %d steps: ε = %.6g (%v), want in [7.99, 8]", c.want, c.steps, e, err)
			}
			s, err := CalibrateContext(context.Background(), RDP, AddRemove, 0.04, c.steps, 8, 1e-5)
			if err != nil || s > c.want+5e-5 {
				t.Errorf("%d steps: calibrated σ = %.6g (%v), want ≤ Opacus's %g", c.steps, s, err, c.want)
			}
		})
	}
}
