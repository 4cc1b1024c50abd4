package dist

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// newRand is a test stream: its key is four outputs of SplitMix64 from
// the seed (Steele, Lea & Flood 2014), the seeding the xoshiro authors
// recommend, so that nearby seeds give unrelated full states.
func newRand(seed uint64) *Rand {
	var key [32]byte
	for i := range 4 {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		binary.LittleEndian.PutUint64(key[8*i:], z^z>>31)
	}
	return New(key)
}

// ksStat is the Kolmogorov–Smirnov statistic sup_x |F_N(x) − F(x)| of a
// sample against a CDF.
func ksStat(sample []float64, cdf func(float64) float64) float64 {
	s := slices.Clone(sample)
	slices.Sort(s)
	n := float64(len(s))
	var d float64
	for i, x := range s {
		f := cdf(x)
		d = max(d, math.Abs(float64(i+1)/n-f), math.Abs(f-float64(i)/n))
	}
	return d
}

// ksCrit is the asymptotic KS critical value at level 10⁻⁴:
// √(ln(2/10⁻⁴)/2)/√N ≈ 2.23/√N. With fixed seeds the tests are
// deterministic; a correct sampler fails a given assertion with
// probability 10⁻⁴ over seeds, a wrong one (a shifted or mis-scaled law)
// exceeds it by orders of magnitude at N = 10⁵.
func ksCrit(n int) float64 { return math.Sqrt(math.Log(2/1e-4)/2) / math.Sqrt(float64(n)) }

func TestGammaMatchesGonum(t *testing.T) {
	const n = 100000
	for _, a := range []float64{0.2, 0.5, 1, 2.5, 10, 80} {
		t.Run(fmt.Sprintf("a=%g", a), func(t *testing.T) {
			r := newRand(uint64(a * 1000))
			s := make([]float64, n)
			var sum float64
			for i := range s {
				s[i] = Gamma(r, a)
				sum += s[i]
			}
			// Mean a, variance a: the sample mean is within 5 s.e. = 5√(a/N).
			mean := sum / n
			if se := math.Sqrt(a / n); math.Abs(mean-a) > 5*se {
				t.Errorf("Gamma(%g): sample mean %g, want %g ± %g", a, mean, a, 5*se)
			}
			g := distuv.Gamma{Alpha: a, Beta: 1}
			if d := ksStat(s, g.CDF); d > ksCrit(n) {
				t.Errorf("Gamma(%g): KS distance %g to gonum's CDF exceeds %g", a, d, ksCrit(n))
			}
		})
	}
	if !math.IsNaN(Gamma(newRand(1), 0)) || !math.IsNaN(Gamma(newRand(1), -1)) || !math.IsNaN(Gamma(newRand(1), math.NaN())) {
		t.Error("Gamma of a non-positive shape should be NaN")
	}
}

// TestGammaDrawIsMarsagliaTsang holds Draw, which keeps the generator's
// state in registers, to the method written with the generator's own
// calls (x = NormFloat64(), u = 1 − Float64()): the same draws to the bit
// and the generator left in the same state, for shapes below 1 (the
// boost), at 1 and above, and for the shape of the t scenarios (ν/2).
func TestGammaDrawIsMarsagliaTsang(t *testing.T) {
	ref := func(g GammaSampler, r *Rand) float64 {
		boost := 1.0
		if g.inv != 0 {
			boost = math.Pow(1-r.Float64(), g.inv)
		}
		for {
			x := r.NormFloat64()
			v := 1 + g.c*x
			if v <= 0 {
				continue
			}
			v = v * v * v
			u := 1 - r.Float64()
			x2 := x * x
			if u < 1-0.0331*x2*x2 || math.Log(u) < 0.5*x2+g.d*(1-v+math.Log(v)) {
				return boost * g.d * v
			}
		}
	}
	for _, a := range []float64{0.3, 1, 2.5, 3} {
		t.Run(fmt.Sprintf("a=%g", a), func(t *testing.T) {
			g := NewGamma(a)
			r, q := newRand(uint64(a*10)), newRand(uint64(a*10))
			for i := range 200000 {
				if x, y := g.Draw(r), ref(g, q); math.Float64bits(x) != math.Float64bits(y) {
					t.Fatalf("draw %d: Draw %v, the reference %v", i, x, y)
				}
			}
			if r.Uint64() != q.Uint64() {
				t.Error("Draw and the reference leave the generator in different states")
			}
		})
	}
}

func TestSamplersMatchGonumCDFs(t *testing.T) {
	const n = 100000
	cases := []struct {
		name string
		draw func(r *Rand) float64
		cdf  func(float64) float64
	}{
		{"t(1.5)", func(r *Rand) float64 { return StudentT(r, 1.5) }, distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 1.5}.CDF},
		{"t(6)", func(r *Rand) float64 { return StudentT(r, 6) }, distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 6}.CDF},
		{"pareto(3,2)", func(r *Rand) float64 { return Pareto(r, 3, 2) }, distuv.Pareto{Xm: 2, Alpha: 3}.CDF},
		{"chi2(7)", func(r *Rand) float64 { return ChiSquare(r, 7) }, distuv.ChiSquared{K: 7}.CDF},
		{"|sympareto(2.5,1)|", func(r *Rand) float64 { return math.Abs(SymPareto(r, 2.5, 1)) }, distuv.Pareto{Xm: 1, Alpha: 2.5}.CDF},
		{"truncnormal(1, 0.5)", func(r *Rand) float64 { return TruncNormal(r, 1, 0.5) }, func(x float64) float64 {
			phi := distuv.UnitNormal
			z := phi.CDF(0.5) - phi.CDF(-0.5)
			return (phi.CDF(min(max(x, -0.5), 0.5)) - phi.CDF(-0.5)) / z
		}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRand(uint64(100 + i))
			s := make([]float64, n)
			for j := range s {
				s[j] = c.draw(r)
			}
			if d := ksStat(s, c.cdf); d > ksCrit(n) {
				t.Errorf("%s: KS distance %g exceeds %g", c.name, d, ksCrit(n))
			}
		})
	}
	// The sign of SymPareto is fair: the count of negatives is Binomial(N, ½),
	// within 5 s.d. = 5·√N/2 of N/2.
	r := newRand(7)
	var neg int
	for range n {
		if SymPareto(r, 3, 1) < 0 {
			neg++
		}
	}
	if math.Abs(float64(neg)-n/2) > 5*math.Sqrt(n)/2 {
		t.Errorf("SymPareto: %d negatives of %d", neg, n)
	}
}

func TestMomentsAgainstGonum(t *testing.T) {
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
	for _, nu := range []float64{2.5, 3, 7.5, 30} {
		t.Run(fmt.Sprintf("nu=%g", nu), func(t *testing.T) {
			if got, want := StudentTAbsMoment(nu, 2), (distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}).Variance(); !close(got, want) {
				t.Errorf("E T² (ν=%g) = %g, gonum variance %g", nu, got, want)
			}
			// E (χ²_ν)^{-1} = 1/(ν−2).
			if got, want := InvChiSquareMoment(nu, 1), 1/(nu-2); !close(got, want) {
				t.Errorf("E 1/χ²_%g = %g, want %g", nu, got, want)
			}
		})
	}
	for _, c := range []struct{ alpha, xm float64 }{{2.5, 1}, {4, 3}, {10, 0.5}} {
		t.Run(fmt.Sprintf("alpha=%g xm=%g", c.alpha, c.xm), func(t *testing.T) {
			p := distuv.Pareto{Xm: c.xm, Alpha: c.alpha}
			if got, want := ParetoMoment(c.alpha, c.xm, 1), p.Mean(); !close(got, want) {
				t.Errorf("Pareto(%g,%g) mean %g, gonum %g", c.alpha, c.xm, got, want)
			}
			m1, m2 := ParetoMoment(c.alpha, c.xm, 1), ParetoMoment(c.alpha, c.xm, 2)
			if got, want := m2-m1*m1, p.Variance(); !close(got, want) {
				t.Errorf("Pareto(%g,%g) variance %g, gonum %g", c.alpha, c.xm, got, want)
			}
		})
	}
	for _, k := range []float64{1, 2, 5, 40} {
		t.Run(fmt.Sprintf("k=%g", k), func(t *testing.T) {
			if got, want := ChiMoment(k, 1), (distuv.Chi{K: k}).Mean(); !close(got, want) {
				t.Errorf("E χ_%g = %g, gonum %g", k, got, want)
			}
			if got := ChiMoment(k, 2); !close(got, k) {
				t.Errorf("E χ²_%g = %g, want %g", k, got, k)
			}
		})
	}
	for _, c := range []struct{ p, want float64 }{{0, 1}, {1, math.Sqrt(2 / math.Pi)}, {2, 1}, {3, 2 * math.Sqrt(2/math.Pi)}, {4, 3}, {8, 105}} {
		t.Run(fmt.Sprintf("p=%g", c.p), func(t *testing.T) {
			if got := ChiMoment(1, c.p); !close(got, c.want) { // χ_1 = |Z|
				t.Errorf("E|Z|^%g = E χ_1^%g = %g, want %g", c.p, c.p, got, c.want)
			}
		})
	}
	// Multivariate t in d = 1 is the univariate t.
	for _, p := range []float64{0.5, 1, 2.7} {
		t.Run(fmt.Sprintf("p=%g", p), func(t *testing.T) {
			if got, want := MVTNormMoment(6, 1, p), StudentTAbsMoment(6, p); !close(got, want) {
				t.Errorf("MVT d=1 p=%g: %g, want %g", p, got, want)
			}
		})
	}
	// E‖a‖² = d·ν/(ν−2).
	if got, want := MVTNormMoment(5, 7, 2), 7*5.0/3; !close(got, want) {
		t.Errorf("MVT E‖a‖² = %g, want %g", got, want)
	}
}

func TestMomentsInfinitePastTailIndex(t *testing.T) {
	cases := []struct {
		name string
		got  float64
		inf  bool
	}{
		{"t ν=3 p=2.99", StudentTAbsMoment(3, 2.99), false},
		{"t ν=3 p=3", StudentTAbsMoment(3, 3), true},
		{"t ν=3 p=8", StudentTAbsMoment(3, 8), true},
		{"pareto α=2.5 p=2.4", ParetoMoment(2.5, 1, 2.4), false},
		{"pareto α=2.5 p=2.5", ParetoMoment(2.5, 1, 2.5), true},
		{"mvt ν=4 d=10 p=4", MVTNormMoment(4, 10, 4), true},
		{"mvt ν=4 d=10 p=3.9", MVTNormMoment(4, 10, 3.9), false},
		{"invchi ν=6 q=3", InvChiSquareMoment(6, 3), true},
		{"chi k=3 p=-3", ChiMoment(3, -3), true},
		{"chi k=1 p=-1", ChiMoment(1, -1), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if math.IsInf(c.got, 1) != c.inf || math.IsNaN(c.got) {
				t.Errorf("%s = %g, want infinite: %v", c.name, c.got, c.inf)
			}
		})
	}
	for _, v := range []float64{StudentTAbsMoment(-1, 1), ParetoMoment(2, 0, 1), MVTNormMoment(3, 0, 1), ChiMoment(0, 1)} {
		if !math.IsNaN(v) {
			t.Errorf("invalid parameters gave %g, want NaN", v)
		}
	}
}

// TestAnalyticMomentsMatchMonteCarlo checks the closed forms against the
// samplers. The tolerance is 5 standard errors, from the analytic variance
// Var |X|^p = E|X|^{2p} − (E|X|^p)², finite because every case has 2p below
// the tail index (so the CLT applies); with fixed seeds this cannot flake,
// and a wrong constant in a formula is off by far more.
func TestAnalyticMomentsMatchMonteCarlo(t *testing.T) {
	const n = 200000
	cases := []struct {
		name   string
		p      float64
		moment func(p float64) float64
		draw   func(r *Rand, buf []float64) float64
	}{
		{"t(6) p=2.5", 2.5, func(p float64) float64 { return StudentTAbsMoment(6, p) },
			func(r *Rand, _ []float64) float64 { return math.Abs(StudentT(r, 6)) }},
		{"t(9) p=4", 4, func(p float64) float64 { return StudentTAbsMoment(9, p) },
			func(r *Rand, _ []float64) float64 { return math.Abs(StudentT(r, 9)) }},
		{"sympareto(5,1) p=2", 2, func(p float64) float64 { return ParetoMoment(5, 1, p) },
			func(r *Rand, _ []float64) float64 { return math.Abs(SymPareto(r, 5, 1)) }},
		{"mvt(7) d=5 p=3", 3, func(p float64) float64 { return MVTNormMoment(7, 5, p) },
			func(r *Rand, buf []float64) float64 { MVT(r, 7, buf[:5]); return norm(buf[:5]) }},
		{"mvt(12) d=40 p=5", 5, func(p float64) float64 { return MVTNormMoment(12, 40, p) },
			func(r *Rand, buf []float64) float64 { MVT(r, 12, buf[:40]); return norm(buf[:40]) }},
		{"radialpareto(6,2) d=3 p=2.5", 2.5, func(p float64) float64 { return ParetoMoment(6, 2, p) },
			func(r *Rand, buf []float64) float64 { RadialPareto(r, 6, 2, buf[:3]); return norm(buf[:3]) }},
	}
	buf := make([]float64, 64)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRand(uint64(1000 + i))
			var sum float64
			for range n {
				sum += math.Pow(c.draw(r, buf), c.p)
			}
			mc := sum / n
			want := c.moment(c.p)
			se := math.Sqrt((c.moment(2*c.p) - want*want) / n)
			if math.IsInf(se, 0) || math.IsNaN(se) {
				t.Fatalf("%s: test case has infinite variance", c.name)
			}
			if math.Abs(mc-want) > 5*se {
				t.Errorf("%s: Monte Carlo %g, analytic %g (5 s.e. = %g)", c.name, mc, want, 5*se)
			}
		})
	}
}

func norm(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

func TestSamplersDoNotAllocate(t *testing.T) {
	r := newRand(1)
	buf := make([]float64, 16)
	allocs := testing.AllocsPerRun(100, func() {
		_ = Gamma(r, 0.7) + StudentT(r, 3) + SymPareto(r, 3, 1) + TruncNormal(r, 1, 1e10)
		MVT(r, 5, buf)
		RadialPareto(r, 5, 1, buf)
	})
	if allocs != 0 {
		t.Errorf("samplers allocate %g times per call", allocs)
	}
}
