package dist

import (
	"encoding/binary"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestXoshiroReferenceVector checks Uint64 against the first outputs of
// the reference implementation (xoshiro256plusplus.c by Blackman & Vigna)
// from the state {1, 2, 3, 4}, the vector every port checks (e.g.
// rust-random/rngs, rand_xoshiro/src/xoshiro256plusplus.rs, test
// reference).
func TestXoshiroReferenceVector(t *testing.T) {
	var key [32]byte
	for i, w := range []uint64{1, 2, 3, 4} {
		binary.LittleEndian.PutUint64(key[8*i:], w)
	}
	r := New(key)
	want := []uint64{41943041, 58720359, 3588806011781223, 3591011842654386,
		9228616714210784205, 9973669472204895162, 14011001112246962877,
		12406186145184390807, 15849039046786891736, 10450023813501588000}
	for i, w := range want {
		if got := r.Uint64(); got != w {
			t.Fatalf("output %d = %d, want %d", i, got, w)
		}
	}
	z := New([32]byte{})
	if a, b := z.Uint64(), z.Uint64(); a == 0 && b == 0 {
		t.Error("the all-zero key gives the stuck all-zero state")
	}
}

// TestZigguratTables checks the layer construction: x decreasing from
// x_0 = v/f(r) > r = x_1 to x_256 = 0, every layer of area v (the top one
// closes at the mode to 10⁻¹⁴: zigR is the root of that closure), and
// the acceptance bounds below 2⁵³.
func TestZigguratTables(t *testing.T) {
	f := func(x float64) float64 { return math.Exp(-x * x / 2) }
	v := zigV()
	if zigX[0] <= zigR || zigX[1] != zigR || zigX[256] != 0 {
		t.Fatalf("x_0 = %g, x_1 = %g, x_256 = %g", zigX[0], zigX[1], zigX[256])
	}
	for i := 1; i < 256; i++ {
		if !(zigX[i+1] < zigX[i]) {
			t.Fatalf("x_%d = %g is not below x_%d = %g", i+1, zigX[i+1], i, zigX[i])
		}
		// Layer i: [0, x_i] × [f(x_i), f(x_{i+1})].
		area := zigX[i] * (f(zigX[i+1]) - f(zigX[i]))
		if math.Abs(area-v) > 1e-14 {
			t.Errorf("layer %d has area %.17g, want v = %.17g", i, area, v)
		}
	}
	for i, k := range zigK {
		if k >= 1<<53 {
			t.Errorf("zigK[%d] = %d ≥ 2⁵³", i, k)
		}
	}
}

// normalSample draws n normals, half with Normals and half with
// NormFloat64 (the two must agree on the law; TestNormalsIsNormFloat64
// checks they give the same sequence).
func normalSample(seed uint64, n int) []float64 {
	r := newRand(seed)
	s := make([]float64, n)
	r.Normals(s[:n/2])
	for i := n / 2; i < n; i++ {
		s[i] = r.NormFloat64()
	}
	return s
}

func TestNormalsIsNormFloat64(t *testing.T) {
	a, b := newRand(5), newRand(5)
	buf := make([]float64, 100000)
	a.Normals(buf)
	for i, v := range buf {
		if w := b.NormFloat64(); w != v {
			t.Fatalf("draw %d: Normals %v, NormFloat64 %v", i, v, w)
		}
	}
	if a.Uint64() != b.Uint64() {
		t.Error("the two paths leave the generator in different states")
	}
	// The Go fast path (other architectures') gives the same draws as
	// Normals, for buffers of every length up to 40.
	c, e := newRand(7), newRand(7)
	for n := range 41 {
		x, y := make([]float64, n), make([]float64, n)
		c.Normals(x)
		for k := 0; k < n; k++ {
			m, u := normalsFastGeneric(e, y[k:])
			if k += m; k < n {
				y[k] = e.normSlow(u)
			}
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				t.Fatalf("length %d, draw %d: Normals %v, the Go fast path %v", n, i, x[i], y[i])
			}
		}
	}
	if c.Uint64() != e.Uint64() {
		t.Error("Normals and the Go fast path leave the generator in different states")
	}
}

// TestNormalLayerBins is a χ² goodness-of-fit test of the ziggurat on the
// bins where it could go wrong: the 512 intervals ±[x_{i+1}, x_i] between
// the layers' edges (including the tails ±[r, ∞)), each sign separately,
// with the exact probabilities of gonum's normal CDF. A wrong table entry,
// a wrong wedge test or a wrong tail shows as a bin off by far more than
// its Poisson error. N = 2²² draws; the χ² statistic with 511 degrees of
// freedom is compared with its 1 − 10⁻⁶ quantile (distuv.ChiSquared), so
// a correct sampler fails this fixed-seed test with probability 10⁻⁶ over
// seeds.
func TestNormalLayerBins(t *testing.T) {
	const n = 1 << 22
	s := normalSample(11, n)
	phi := distuv.UnitNormal
	// edges[b] ascending: −∞, −x_1, …, −x_255, 0, x_255, …, x_1, +∞.
	edges := []float64{math.Inf(-1)}
	for i := 1; i <= 255; i++ {
		edges = append(edges, -zigX[i])
	}
	edges = append(edges, 0)
	for i := 255; i >= 1; i-- {
		edges = append(edges, zigX[i])
	}
	edges = append(edges, math.Inf(1))
	bins := len(edges) - 1
	count := make([]float64, bins)
	for _, x := range s {
		// binary search: the last edge ≤ x
		lo, hi := 0, bins
		for hi-lo > 1 {
			m := (lo + hi) / 2
			if edges[m] <= x {
				lo = m
			} else {
				hi = m
			}
		}
		count[lo]++
	}
	var chi2 float64
	for b := range bins {
		p := phi.CDF(edges[b+1]) - phi.CDF(edges[b])
		e := p * n
		chi2 += (count[b] - e) * (count[b] - e) / e
	}
	crit := distuv.ChiSquared{K: float64(bins - 1)}.Quantile(1 - 1e-6)
	if chi2 > crit {
		t.Errorf("χ² over the %d layer bins = %.1f > %.1f (the 1 − 10⁻⁶ quantile)", bins, chi2, crit)
	}
}

// TestNormalMomentsAndKS: mean 0, variance 1 and E Z⁴ = 3 within 5
// standard errors (Var Z = 1, Var Z² = 2, Var Z⁴ = E Z⁸ − 9 = 96, so the
// s.e. are 1/√N, √2/√N, √96/√N), and the KS distance to gonum's CDF below
// its 10⁻⁴ critical value.
func TestNormalMomentsAndKS(t *testing.T) {
	const n = 1 << 20
	s := normalSample(12, n)
	var m1, m2, m4 float64
	for _, x := range s {
		x2 := x * x
		m1 += x
		m2 += x2
		m4 += x2 * x2
	}
	m1, m2, m4 = m1/n, m2/n, m4/n
	rt := math.Sqrt(n)
	for _, c := range []struct {
		name      string
		got, want float64
		se        float64
	}{{"E Z", m1, 0, 1 / rt}, {"E Z²", m2, 1, math.Sqrt2 / rt}, {"E Z⁴", m4, 3, math.Sqrt(96) / rt}} {
		t.Run(c.name, func(t *testing.T) {
			if math.Abs(c.got-c.want) > 5*c.se {
				t.Errorf("%s = %.5f, want %g ± %.2g", c.name, c.got, c.want, 5*c.se)
			}
		})
	}
	if d := ksStat(s, distuv.UnitNormal.CDF); d > ksCrit(n) {
		t.Errorf("KS distance %g to the normal CDF exceeds %g", d, ksCrit(n))
	}
}

// TestNormalTail checks the tail sampler (|Z| > r, probability 2.6·10⁻⁴)
// on its own: the KS distance of the draws beyond r to the conditional
// law P(|Z| ≤ x | |Z| > r) = (Φ(x) − Φ(r))/(1 − Φ(r)), and their number
// against its binomial mean within 5 standard deviations.
func TestNormalTail(t *testing.T) {
	const n = 1 << 24
	r := newRand(13)
	buf := make([]float64, 1<<16)
	var tail []float64
	for range n / len(buf) {
		r.Normals(buf)
		for _, x := range buf {
			if math.Abs(x) > zigR {
				tail = append(tail, math.Abs(x))
			}
		}
	}
	phi := distuv.UnitNormal
	q := 1 - phi.CDF(zigR)
	p := 2 * q
	if mean, sd := n*p, math.Sqrt(n*p*(1-p)); math.Abs(float64(len(tail))-mean) > 5*sd {
		t.Errorf("%d draws beyond r, want %.0f ± %.0f", len(tail), mean, 5*sd)
	}
	cdf := func(x float64) float64 { return (phi.CDF(x) - phi.CDF(zigR)) / q }
	if d := ksStat(tail, cdf); d > ksCrit(len(tail)) {
		t.Errorf("tail: KS distance %g over %d draws exceeds %g", d, len(tail), ksCrit(len(tail)))
	}
}

func TestUniformAndExponential(t *testing.T) {
	const n = 1 << 20
	r := newRand(14)
	u := make([]float64, n)
	e := make([]float64, n)
	for i := range u {
		u[i] = r.Float64()
		if u[i] < 0 || u[i] >= 1 {
			t.Fatalf("Float64 = %v outside [0, 1)", u[i])
		}
		e[i] = r.ExpFloat64()
	}
	if d := ksStat(u, distuv.Uniform{Min: 0, Max: 1}.CDF); d > ksCrit(n) {
		t.Errorf("uniform: KS distance %g exceeds %g", d, ksCrit(n))
	}
	if d := ksStat(e, distuv.Exponential{Rate: 1}.CDF); d > ksCrit(n) {
		t.Errorf("exponential: KS distance %g exceeds %g", d, ksCrit(n))
	}
}

func TestRandDoesNotAllocate(t *testing.T) {
	r := newRand(1)
	buf := make([]float64, 64)
	g := NewGamma(2.5)
	if a := testing.AllocsPerRun(100, func() {
		r.Normals(buf)
		_ = r.NormFloat64() + r.Float64() + r.ExpFloat64() + g.Draw(r)
	}); a != 0 {
		t.Errorf("%g allocations per call", a)
	}
}

// TestWedgeBounds: the chord-and-band shortcut of the wedge test decides
// every point as the exact test does (the band bounds |f − chord|), on
// 4000 points of every layer's wedge, and it leaves fewer than 5% of the
// points to the exponential (2% measured; most of them in the top layers,
// where the band is widest), so the shortcut is worth having.
func TestWedgeBounds(t *testing.T) {
	r := newRand(21)
	var exact, total int
	for i := uint64(1); i < 256; i++ {
		lo, hi := zigX[i+1], zigX[i]
		for range 4000 {
			x := lo + r.Float64()*(hi-lo)
			uy := r.Float64()
			// Skip ties within rounding of the curve itself.
			y := zigF[i] + uy*(zigF[i+1]-zigF[i])
			if math.Abs(y-math.Exp(-x*x/2)) < 1e-13 {
				continue
			}
			total++
			if got, want := wedgeAccept(i, x, uy), wedgeExact(i, x, uy); got != want {
				t.Fatalf("layer %d, x = %g, U = %g: shortcut %v, exact %v", i, x, uy, got, want)
			}
			tc := (zigX[i] - x) * zigInvDX[i]
			if zigSide[i] == 0 || math.Abs(uy-tc) < zigBand[i] {
				exact++
			}
		}
	}
	if frac := float64(exact) / float64(total); frac > 0.05 {
		t.Errorf("%.1f%% of wedge points need the exponential", 100*frac)
	}
}
