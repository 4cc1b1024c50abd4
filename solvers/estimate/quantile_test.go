package estimate

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// quantileGolden is testdata/quantile_golden.json, written by
// testdata/quantile_golden.py (numpy and scipy.stats.geom, independent
// of this package): seeded data sets, the mechanism's exact law on each,
// HighFail and TopRank.
type quantileGolden struct {
	// Data are the data sets by name ("t2.5-loss/150").
	Data  map[string][]float64
	Cases []struct {
		Data     string
		Q, Rho   float64
		R        int
		Quantile float64
		Above10Q float64 `json:"above_10q"`
		BelowQ10 float64 `json:"below_q10"`
		Median   float64
		// CDF is P(release ≤ 2^{k + 7/8}) for k = −40, …, 59.
		CDF []float64
	}
	HighFail []struct {
		Rho      float64
		L        int
		HighFail float64 `json:"high_fail"`
	} `json:"high_fail"`
	TopRank []struct {
		Rho, Fail float64
		M         int
	} `json:"top_rank"`
	LowFail []struct {
		Rho     float64
		R, L    int
		LowFail float64 `json:"low_fail"`
	} `json:"low_fail"`
}

func readGolden(t *testing.T) quantileGolden {
	t.Helper()
	b, err := os.ReadFile("testdata/quantile_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g quantileGolden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// close reports whether got is within 10⁻¹² absolute or 10⁻⁹ relative of
// want: the two enumerations sum the same terms in different orders and
// with different closed forms of the discrete Laplace law.
func closeTo(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12+1e-9*math.Abs(want)
}

// TestQuantileLawGolden checks QuantileLaw against the independent
// enumeration on every data set of the golden file (Student-t losses and
// norms at ν = 2.5 and 3, negative-binomial counts with many ties, constant
// ln 2; n = 20, 150, 1500; q = ½, 0.9; ρ = 0.025): the CDF at the end of
// every octave, P(release > 10·x₍ᵣ₎), P(release < x₍ᵣ₎/10) and the median.
func TestQuantileLawGolden(t *testing.T) {
	g := readGolden(t)
	for _, c := range g.Cases {
		t.Run(fmt.Sprintf("%s/q=%g", c.Data, c.Q), func(t *testing.T) {
			law, err := QuantileLaw(g.Data[c.Data], c.Q, DefaultGrid, c.Rho)
			if err != nil {
				t.Fatal(err)
			}
			if law.R != c.R || law.Q != c.Quantile {
				t.Fatalf("rank %d, quantile %g; want %d, %g", law.R, law.Q, c.R, c.Quantile)
			}
			var cdf float64
			for j, p := range law.P {
				cdf += p
				if j%8 == 7 && !closeTo(cdf, c.CDF[j/8]) {
					t.Errorf("P(release ≤ %g) = %.15g, want %.15g", law.Values[j], cdf, c.CDF[j/8])
				}
			}
			if got := law.Above(10 * law.Q); !closeTo(got, c.Above10Q) {
				t.Errorf("P(release > 10·x₍ᵣ₎) = %.15g, want %.15g", got, c.Above10Q)
			}
			if got := law.Below(law.Q / 10); !closeTo(got, c.BelowQ10) {
				t.Errorf("P(release < x₍ᵣ₎/10) = %.15g, want %.15g", got, c.BelowQ10)
			}
			if got := law.Median(); math.Abs(got/c.Median-1) > 1e-14 { // numpy's 2**(j/8) and math.Exp2 differ in the last bit
				t.Errorf("median release %g, want %g", got, c.Median)
			}
		})
	}
}

// TestQuantileFailsLow is the target on the exact laws: at n = 150 and
// ρ = 0.025 (and at every other n of the golden file) P(release > 10·x₍ᵣ₎)
// ≤ 0.01 on every data set, and at most the data-free bound
// HighFail(ρ, DefaultGrid.StepsIn(10)).
func TestQuantileFailsLow(t *testing.T) {
	bound := HighFail(0.025, DefaultGrid.StepsIn(10))
	if bound > 0.006 {
		t.Fatalf("HighFail(0.025, %d) = %g, above 0.006", DefaultGrid.StepsIn(10), bound)
	}
	g := readGolden(t)
	for _, c := range g.Cases {
		t.Run(fmt.Sprintf("%s/q=%g", c.Data, c.Q), func(t *testing.T) {
			law, err := QuantileLaw(g.Data[c.Data], c.Q, DefaultGrid, c.Rho)
			if err != nil {
				t.Fatal(err)
			}
			if p := law.Above(10 * law.Q); p > 0.01 || p > bound {
				t.Errorf("P(release > 10·x₍ᵣ₎) = %g, above 0.01 or the bound %g", p, bound)
			}
		})
	}
}

// TestQuantileConstant: when every value is the same v, the release is v up
// to the grid's resolution. At ρ = 0.025, q = ½ and 0.9: it lies above the
// third grid point at or above v with probability ≤ 0.01 for every n;
// below v, with probability ≤ 0.05 at n = 150 (q = ½: the 290 points below
// ln 2, count 0, each halting with P(ν − ν₀ ≥ 75) ≈ 1.5·10⁻⁴) and ≤ 10⁻⁶
// at n = 1500. At n = 20 the noise's scale (t₂ = 8.9 ranks) is that of the
// data, and the release falls below v/10 with probability ≥ 0.9 (asserted,
// so that this stays said).
func TestQuantileConstant(t *testing.T) {
	for _, c := range []struct {
		n       int
		maxLow  float64
		failLow bool
	}{{20, 1, true}, {150, 0.05, false}, {1500, 1e-6, false}} {
		for _, q := range []float64{0.5, 0.9} {
			xs := make([]float64, c.n)
			for i := range xs {
				xs[i] = math.Ln2
			}
			law, err := QuantileLaw(xs, q, DefaultGrid, 0.025)
			if err != nil {
				t.Fatal(err)
			}
			if hi := law.Above(math.Ln2 * math.Exp2(3.0/8)); hi > 0.01 {
				t.Errorf("n = %d, q = %g: P(release beyond three grid points above v) = %g > 0.01", c.n, q, hi)
			}
			if low := law.Below(math.Ln2); low > c.maxLow {
				t.Errorf("n = %d, q = %g: P(release < v) = %g > %g", c.n, q, low, c.maxLow)
			}
			if c.failLow && law.Below(math.Ln2/10) < 0.9 {
				t.Errorf("n = %d, q = %g: P(release < v/10) = %g; the test says it fails low", c.n, q, law.Below(math.Ln2/10))
			}
		}
	}
}

// TestHighFailGolden, TestLowFailGolden and TestTopRankGolden: the
// data-free bounds against the independent script.
func TestHighFailGolden(t *testing.T) {
	for _, c := range readGolden(t).HighFail {
		if got := HighFail(c.Rho, c.L); !closeTo(got, c.HighFail) {
			t.Errorf("HighFail(%g, %d) = %.15g, want %.15g", c.Rho, c.L, got, c.HighFail)
		}
	}
}

func TestLowFailGolden(t *testing.T) {
	for _, c := range readGolden(t).LowFail {
		if got := LowFail(c.Rho, c.R, c.L); !closeTo(got, c.LowFail) {
			t.Errorf("LowFail(%g, %d, %d) = %.15g, want %.15g", c.Rho, c.R, c.L, got, c.LowFail)
		}
	}
}

func TestTopRankGolden(t *testing.T) {
	for _, c := range readGolden(t).TopRank {
		if got := TopRank(c.Rho, c.Fail); got != c.M {
			t.Errorf("TopRank(%g, %g) = %d, want %d", c.Rho, c.Fail, got, c.M)
		}
	}
}

// TestMinRho: MinRho is where the threshold span reaches 10⁷ counts
// (20·ln 10/ε₁ with ε₁ = 0.45·√(8ρ): ρ = (20·ln 10/(0.45·10⁷))²/8 ≈
// 1.3094·10⁻¹¹), and Quantile refuses a ρ below it.
func TestMinRho(t *testing.T) {
	want := math.Pow(20*2.302585092994046/(0.45e7), 2) / 8
	if math.Abs(MinRho-want) > 1e-9*want {
		t.Fatalf("MinRho = %g, want %g", MinRho, want)
	}
	if span := thresholdSpan(NoiseFor(MinRho).Eps1); span < 1e7-1 || span > 1e7+1 {
		t.Fatalf("span at MinRho = %d, want 10⁷", span)
	}
	xs := []float64{1, 2, 3}
	if _, err := Quantile(xs, 0.5, DefaultGrid, MinRho/2, rand.New(rand.NewPCG(1, 2))); err == nil {
		t.Errorf("Quantile at ρ = MinRho/2: no error")
	}
	if _, err := Quantile(xs, 0.5, DefaultGrid, MinRho, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Errorf("Quantile at ρ = MinRho: %v", err)
	}
}

// TestTopRankSmallRho: at small ρ (m in the thousands, past the goldens)
// TopRank is the least m whose pass probability, summed term by term from
// its definition, Σ_{u>m} P(ν₀ = u)(1 − p₂^{u−m}) over the span plus the
// cut tail, is at most fail.
func TestTopRankSmallRho(t *testing.T) {
	for _, rho := range []float64{1e-6, 1e-8} {
		nz := NoiseFor(rho)
		p1, p2 := nz.ratios()
		span := thresholdSpan(nz.Eps1)
		pass := func(m int64) float64 {
			s := math.Pow(p1, float64(span+1))
			for u := m + 1; u <= span; u++ {
				s += geomPMF(p1, u) * (1 - geomTail(p2, u-m))
			}
			return s
		}
		m := int64(TopRank(rho, 1e-3))
		if m < 1 || pass(m) > 1e-3 || pass(m-1) <= 1e-3 {
			t.Errorf("TopRank(%g, 10⁻³) = %d: pass there %g, one below %g", rho, m, pass(m), pass(m-1))
		}
	}
}

// TestHighFailBoundsWorstCase: the bound is attained where the counts sit
// at r over the whole factor (a gap in the data just above x₍ᵣ₎): 135 ones
// and 15 values of 10⁶ at q = 0.9, so x₍ᵣ₎ = 1 is a grid point and the
// grid's points in [1, 10] are 27; the law's P(release > 10) is
// HighFail(ρ, 27) less at most the chance of halting below 1.
func TestHighFailBoundsWorstCase(t *testing.T) {
	xs := make([]float64, 150)
	for i := range xs {
		xs[i] = 1
		if i >= 135 {
			xs[i] = 1e6
		}
	}
	law, err := QuantileLaw(xs, 0.9, DefaultGrid, 0.025)
	if err != nil {
		t.Fatal(err)
	}
	got, want := law.Above(10), HighFail(0.025, 27)
	if low := law.Below(1); got > want || got < want-low {
		t.Errorf("P(release > 10) = %.15g, want HighFail(ρ, 27) = %.15g less at most P(release < 1) = %.3g", got, want, low)
	}
}

// TestQuantileSampler checks that Quantile draws from the law QuantileLaw
// enumerates: 10⁵ seeded draws on a small grid (2⁰ … 2⁶, two points per
// doubling) and 40 values with ties; each point's frequency within four
// binomial standard errors √(p(1 − p)/N) of its probability, and no draw
// where the law puts no mass.
func TestQuantileSampler(t *testing.T) {
	g := Grid{Lo: 0, Hi: 6, PerOctave: 2}
	xs := make([]float64, 40)
	for i := range xs {
		xs[i] = float64(1 + (i*i)%23)
	}
	const q, rho, N = 0.75, 0.2, 100000
	law, err := QuantileLaw(xs, q, g, rho)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(31, 1))
	got := map[float64]int{}
	for range N {
		c, err := Quantile(xs, q, g, rho, rng)
		if err != nil {
			t.Fatal(err)
		}
		got[c]++
	}
	for j, c := range law.Values {
		p := law.P[j]
		f := float64(got[c]) / N
		if se := math.Sqrt(p * (1 - p) / N); math.Abs(f-p) > 4*se+1e-12 {
			t.Errorf("P(release = %g) = %.5f, want %.5f ± %.5f", c, f, p, 4*se)
		}
	}
}

// TestQuantileBoundedRange checks the privacy claim on enumerated laws:
// for 2000 seeded neighbouring pairs (n ≤ 10 integer values, one replaced;
// grids of 3 to 14 points; any rank; noise scales as at ρ from 10⁻³ to 2)
// the log-ratio ln P_D(c)/P_D'(c) over the outputs spans at most β = √(8ρ)
// (β-bounded range, hence ρ-zCDP) and never exceeds ε₁ + ε₂ = ¾β in size.
func TestQuantileBoundedRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 31))
	for trial := range 2000 {
		n := 2 + rng.IntN(9)
		pts := 3 + rng.IntN(12)
		g := Grid{Lo: 0, Hi: pts - 1, PerOctave: 1} // 1, 2, 4, …
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = math.Exp2(float64(rng.IntN(pts+1))) - 0.5
		}
		ys := append([]float64(nil), xs...)
		ys[rng.IntN(n)] = math.Exp2(float64(rng.IntN(pts+1))) - 0.5
		q := (float64(rng.IntN(n)) + 0.5) / float64(n)
		rho := math.Exp(math.Log(1e-3) + rng.Float64()*math.Log(2e3))
		a, _ := QuantileLaw(xs, q, g, rho)
		b, _ := QuantileLaw(ys, q, g, rho)
		lo, hi := math.Inf(1), math.Inf(-1)
		for j := range a.P {
			if a.P[j] < 1e-250 || b.P[j] < 1e-250 {
				continue // both vanish together; below float64's resolution
			}
			l := math.Log(a.P[j] / b.P[j])
			lo, hi = math.Min(lo, l), math.Max(hi, l)
		}
		beta := NoiseFor(rho).Beta
		if hi-lo > beta*(1+1e-9) || math.Max(hi, -lo) > 0.75*beta*(1+1e-9) {
			t.Fatalf("pair %d (%v → %v, q = %g, ρ = %g): log-ratios in [%g, %g], β = %g", trial, xs, ys, q, rho, lo, hi, beta)
		}
	}
}

// TestHighFailEveryRho: the data-free bound on passing ten times the
// quantile stays below 0.0066 from ρ = 10⁻⁶ to 10³ (ThresholdShare's
// documentation).
func TestHighFailEveryRho(t *testing.T) {
	for e := -6.0; e <= 3; e += 0.5 {
		rho := math.Pow(10, e)
		if h := HighFail(rho, DefaultGrid.StepsIn(10)); h >= 0.0066 {
			t.Errorf("HighFail(%g, 26) = %g ≥ 0.0066", rho, h)
		}
	}
}
