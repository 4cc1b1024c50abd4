package accountant

// The PLD accountant against golden values from the published tests of
// google/differential-privacy's dp_accounting
// (python/dp_accounting/dp_accounting/pld/...), Opacus (opacus/tests/...)
// and the PRV accountant's reference values, each cited beside its
// number, matched within the discretisation error PLDBounds reports.

import (
	"fmt"
	"math"
	"testing"
)

func TestPLDGolden(t *testing.T) {
	cases := []struct {
		name  string
		m     Mechanism
		delta float64
		want  float64
		tol   float64 // source's tolerance, added to ours
	}{
		// dp_accounting pld/pld_privacy_accountant_test.py, test_gaussian_basic:
		// Gaussian with noise multiplier √3 composed 3 times (μ = 1):
		// ε(0.126936) = 1 within 1e-3.
		{"dp_accounting test_gaussian_basic", Mechanism{Sigma: math.Sqrt(3), Q: 1, Steps: 3, Adjacency: AddRemove}, 0.126936, 1, 1e-3},
		// test_poisson_subsampled_gaussian and
		// test_self_composed_subsampled_gaussian: q = 0.2, noise multiplier
		// 0.5, 3 steps: ε(0.15594) = 1 within 1e-3.
		{"dp_accounting test_poisson_subsampled_gaussian", Mechanism{Sigma: 0.5, Q: 0.2, Steps: 3, Adjacency: AddRemove}, 0.15594, 1, 1e-3},
		// tensorflow_privacy compute_dp_sgd_privacy_test.py,
		// test_compute_dp_sgd_example_privacy (PLD; 1.2 epochs, σ = 0.7,
		// δ = 1e-5; the Gaussian cases compose ⌈1.2⌉ = 2 steps):
		{"tf-privacy no_microbatching_no_subsampling_pld", Mechanism{Sigma: 0.7, Q: 1, Steps: 2, Adjacency: AddRemove}, 1e-5, 10.1224946, 1e-7},
		{"tf-privacy microbatching_no_subsampling_pld", Mechanism{Sigma: 0.35, Q: 1, Steps: 2, Adjacency: AddRemove}, 1e-5, 24.7160779, 1e-7},
		{"tf-privacy no_microbatching_with_subsampling_pld", Mechanism{Sigma: 0.7, Q: 0.01, Steps: 120, Adjacency: AddRemove}, 1e-5, 2.4612381, 1e-7},
		{"tf-privacy microbatching_with_subsampling_pld", Mechanism{Sigma: 0.35, Q: 0.01, Steps: 120, Adjacency: AddRemove}, 1e-5, 18.6977407, 1e-7},
		// test_dp_sgd_privacy_statement_no_user_dp_with_pld: q = 0.0064, σ = 1,
		// 782 steps, δ = 1e-6: "1.199" (3 decimals).
		{"tf-privacy statement pld", Mechanism{Sigma: 1, Q: 0.0064, Steps: 782, Adjacency: AddRemove}, 1e-6, 1.199, 5e-4},
		// opacus/tests/accountants_test.py, test_prv_accountant: σ = 1.5,
		// q = 0.04, int(90 // 0.04) = 2249 steps, δ = 1e-5 → 6.777395712150674,
		// the PRV accountant's upper estimate with Opacus's default
		// eps_error = 0.01 (opacus/accountants/prv.py): above the exact ε by
		// at most about 2·eps_error.
		{"opacus test_prv_accountant", Mechanism{Sigma: 1.5, Q: 0.04, Steps: 2249, Adjacency: AddRemove}, 1e-5, 6.777395712150674, 0.02},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lo, hi, err := PLDBounds(c.m, c.delta, PLDOptions{})
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				return
			}
			gap := hi - lo
			if math.Abs(hi-c.want) > gap+c.tol || c.want < lo-c.tol {
				t.Errorf("%s: PLD ε ∈ [%.8g, %.8g] (gap %.2g), golden %.8g ± %g", c.name, lo, hi, gap, c.want, c.tol)
			}
		})
	}
	// The δ side: δ(1) = 0.126936 and 0.15594 (both within 1e-3).
	for _, c := range []struct {
		m    Mechanism
		want float64
	}{{Mechanism{Sigma: math.Sqrt(3), Q: 1, Steps: 3, Adjacency: AddRemove}, 0.126936}, {Mechanism{Sigma: 0.5, Q: 0.2, Steps: 3, Adjacency: AddRemove}, 0.15594}} {
		t.Run(fmt.Sprintf("sigma=%g q=%g", c.m.Sigma, c.m.Q), func(t *testing.T) {
			d, err := PLDDelta(c.m, 1, PLDOptions{})
			if err != nil || math.Abs(d-c.want) > 1e-3 {
				t.Errorf("%+v: δ(1) = %.8g (%v), want %g ± 1e-3", c.m, d, err, c.want)
			}
		})
	}
}

func TestConnectDotsGolden(t *testing.T) {
	// dp_accounting pld/privacy_loss_distribution_test.py,
	// test_gaussian_varying_standard_deviation_and_sensitivity_connect_dots
	// (value_discretization_interval = 1) and
	// test_gaussian_discretization_connect_dots (h = 0.5, 0.3); all with
	// log_mass_truncation_bound = ln 2 + ln Φ(−0.9). The mechanism's
	// (standard deviation, sensitivity) is our σ = sd/sensitivity.
	lm := math.Log(2) + logNormCDF(-0.9)
	type dist struct {
		probs map[int]float64
		inf   float64
	}
	cases := []struct {
		name        string
		sigma, q, h float64
		add, remove dist // remove empty: symmetric (q = 1)
	}{
		{"sd 1, sens 1, q 1", 1, 1, 1,
			dist{map[int]float64{2: 0.167710257, 1: 0.343270190, 0: 0.319116756, -1: 0.126282046, -2: 0.022697115}, 0.020923636}, dist{}},
		{"sd 1, sens 2, q 1", 0.5, 1, 1,
			dist{map[int]float64{4: 0.156393834, 3: 0.176732821, 2: 0.195352391, 1: 0.169838899, 0: 0.116146963, -1: 0.062480239, -2: 0.026438071, -3: 0.008799009, -4: 0.002864453}, 0.084953319}, dist{}},
		{"sd 1, sens 1, q 0.8", 1, 0.8, 1,
			dist{map[int]float64{1: 0.448021700, 0: 0.398104072, -1: 0.115544309, -2: 0.015193708}, 0.023136210},
			dist{map[int]float64{2: 0.112267164, 1: 0.314081995, 0: 0.398104072, -1: 0.164817973}, 0.010728796}},
		{"sd 5, sens 5, q 0.6", 1, 0.6, 1,
			dist{map[int]float64{1: 0.363466985, 0: 0.528456643, -1: 0.099555157, -2: 0.008521215}, 0},
			dist{map[int]float64{2: 0.062963737, 1: 0.270618975, 0: 0.528456643, -1: 0.133712031}, 0.004248614}},
		{"sd 1, sens 2, q 0.4", 0.5, 0.4, 1,
			dist{map[int]float64{1: 0.431999550, 0: 0.499732772, -1: 0.052519150, -2: 0.012224135, -3: 0.003524394}, 0},
			dist{map[int]float64{3: 0.070789342, 2: 0.090324817, 1: 0.142761851, 0: 0.499732772, -1: 0.158923753}, 0.037467466}},
		{"sd 3, sens 6, q 0.2", 0.5, 0.2, 1,
			dist{map[int]float64{1: 0.215999775, 0: 0.738200118, -1: 0.038917231, -2: 0.005650510, -3: 0.001232367}, 0},
			dist{map[int]float64{3: 0.024752755, 2: 0.041751932, 1: 0.105788001, 0: 0.738200118, -1: 0.079461876}, 0.010045317}},
		{"h 0.5", 1, 1, 0.5,
			dist{map[int]float64{3: 0.178515818, 2: 0.175063076, 1: 0.195400642, 0: 0.171573378, -1: 0.118516480, -2: 0.064402107, -3: 0.039832263}, 0.056696236}, dist{}},
		{"h 0.3", 1, 1, 0.3,
			dist{map[int]float64{5: 0.143933223, 4: 0.093801719, 3: 0.110114456, 2: 0.118295665, 1: 0.116301523, 0: 0.104639278, -1: 0.086158287, -2: 0.064922037, -3: 0.044769197, -4: 0.028252535, -5: 0.032115843}, 0.056696236}, dist{}},
	}
	check := func(name string, p *pmf, want dist) {
		// The golden values have 9 decimals.
		if math.Abs(p.inf-want.inf) > 2e-9 {
			t.Errorf("%s: mass at +∞ %.9f, want %.9f", name, p.inf, want.inf)
		}
		for i, pr := range p.probs {
			k := p.lower + i
			w := want.probs[k]
			if math.Abs(pr-w) > 2e-9 {
				t.Errorf("%s: mass at %d·h = %.9f, want %.9f", name, k, pr, w)
			}
		}
		for k := range want.probs {
			if k < p.lower || k >= p.lower+len(p.probs) {
				t.Errorf("%s: grid point %d missing (grid %d..%d)", name, k, p.lower, p.lower+len(p.probs)-1)
			}
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := newSGLoss(c.sigma, c.q, add).connectDots(c.h, lm)
			if err != nil {
				t.Fatal(err)
			}
			r, err := newSGLoss(c.sigma, c.q, remove).connectDots(c.h, lm)
			if err != nil {
				t.Fatal(err)
			}
			if c.remove.probs == nil {
				check(c.name+" (remove)", r, c.add) // q = 1: both directions alike
				check(c.name+" (add)", a, c.add)
				return
			}
			check(c.name+" (add)", a, c.add)
			check(c.name+" (remove)", r, c.remove)
		})
	}
}

func TestPRVValuesGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("the long compositions take a few seconds")
	}
	// opacus/tests/prv_accountant.py, PRVAccountantTest.test_values: ε at
	// δ = 1e-6 "computed from https://github.com/microsoft/prv_accountant"
	// for (σ, q, steps), matched by Opacus's PRV accountant to 4 places.
	// They are upper estimates with eps_error 0.01; each must lie within
	// our bracket widened by that error on the upper side.
	cases := []struct {
		sigma, q float64
		steps    int
		want     float64
	}{
		{0.8, 0.001, 100, 0.270403364058018680360362395731},
		{1.5, 0.001, 100, 0.0393694193095203287535710501288},
		{3.0, 0.001, 100, 0.0215200934390882663016508757892},
		{0.8, 0.05, 100, 6.74105193941409996938318727189},
		{1.5, 0.05, 100, 1.95385313568420015961635272106},
		{3.0, 0.2, 100, 3.38122051022184422208738396876},
		{2.0, 0.001, 1000, 0.0712187825381152272985474382949},
		{1.5, 0.05, 1000, 6.20996924657726712126759593957},
		{0.8, 0.001, 20000, 1.29600925757016161021795142005},
		{3.0, 0.05, 20000, 13.9611146992367061159256991232},
		{1.5, 0.001, 50000, 0.704218384555810095193351116905},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("sigma=%g q=%g steps=%d", c.sigma, c.q, c.steps), func(t *testing.T) {
			lo, hi, err := PLDBounds(Mechanism{Sigma: c.sigma, Q: c.q, Steps: c.steps, Adjacency: AddRemove}, 1e-6, PLDOptions{})
			if err != nil {
				t.Errorf("%+v: %v", c, err)
				return
			}
			if c.want < lo-1e-9 || c.want > hi+0.02 {
				t.Errorf("σ %g, q %g, %d steps: PLD ε ∈ [%.6g, %.6g], PRV %.6g", c.sigma, c.q, c.steps, lo, hi, c.want)
			}
		})
	}
}

// clamp01 is math.Min(1, math.Max(0, d)) bit for bit, signed zeros, NaN
// and infinities included.
func TestClamp01IsMinMax(t *testing.T) {
	for _, d := range []float64{math.NaN(), math.Inf(-1), -1, -1e-300, math.Copysign(0, -1), 0, 1e-300, 0.5, 1, math.Nextafter(1, 2), 7, math.Inf(1)} {
		got, want := clamp01(d), math.Min(1, math.Max(0, d))
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("clamp01(%g) = %g (bits %x), math.Min(1, math.Max(0, ·)) %g (bits %x)", d, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}

// PLDDelta is δ of m at ε' by the PLD accountant (pessimistic), for the
// published δ-side values (the accountant itself answers ε' only): the
// composed hockey-stick divergence, under add/remove the maximum over its
// two directions.
func PLDDelta(m Mechanism, epsPrime float64, o PLDOptions) (float64, error) {
	if err := m.check(); err != nil {
		return math.NaN(), err
	}
	if !(epsPrime >= 0) {
		return math.NaN(), fmt.Errorf("ε' = %g; want ε' ≥ 0", epsPrime)
	}
	if e, ok := m.trivial(); ok {
		if e == 0 {
			return 0, nil
		}
		return 1, nil
	}
	ps, _, err := composedPLD(m, o)
	if err != nil {
		return math.NaN(), err
	}
	var d float64
	for _, p := range ps {
		d = math.Max(d, p.deltaForEps(epsPrime))
	}
	return d, nil
}

// deltaForEps is the ε'-hockey-stick divergence of the distribution,
// δ(ε') = inf + Σ_{ℓ > ε'} (1 − e^{ε'−ℓ}) p_ℓ: the δ for which a mechanism
// with this privacy loss distribution is (ε', δ)-DP (Sommer et al. 2019,
// Observation 1 of dp_accounting's supplementary notes).
func (p *pmf) deltaForEps(eps float64) float64 {
	d := p.inf
	for i, pr := range p.probs {
		l := float64(p.lower+i) * p.h
		if l > eps && pr > 0 {
			d += -math.Expm1(eps-l) * pr
		}
	}
	return math.Min(1, d)
}
