package estimate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"dpso/solvers/noise"
)

// TestQuantileLaw checks that Quantile's output has the exponential
// mechanism's law exactly: on a three-point grid the frequencies of 2·10⁵
// draws match exp(ε·u_j/2)/Σ within four binomial standard errors
// √(p(1 − p)/N).
func TestQuantileLaw(t *testing.T) {
	g := Grid{Lo: 0, Hi: 2, PerOctave: 1} // 1, 2, 4
	xs := []float64{0.5, 1.5, 1.7, 3, 3.5, 9}
	const q, rho = 0.5, 0.3
	eps := EMEps(rho)
	// counts #{x ≤ c}: c = 1: 1, c = 2: 3, c = 4: 5; target q·n = 3.
	us := []float64{-2, 0, -2}
	var z float64
	ps := make([]float64, 3)
	for j, u := range us {
		ps[j] = math.Exp(eps * u / 2)
		z += ps[j]
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const N = 200000
	got := map[float64]int{}
	for range N {
		c, err := Quantile(xs, q, g, rho, rng)
		if err != nil {
			t.Fatal(err)
		}
		got[c]++
	}
	for j, c := range g.Values() {
		p := ps[j] / z
		f := float64(got[c]) / N
		if se := math.Sqrt(p * (1 - p) / N); math.Abs(f-p) > 4*se {
			t.Errorf("P[c = %g] = %.5f, want %.5f ± %.5f", c, f, p, 4*se)
		}
	}
}

// TestQuantileAccuracy checks the utility guarantee on 10⁴ uniform values:
// with ρ = 0.01 the chosen point's rank is within TopRank(ρ, |G|, 10⁻³) of
// q·n in each of 200 seeded draws (the guarantee fails with probability
// 10⁻³ per draw, so 200 draws all pass with probability 0.82; the seed is
// fixed).
func TestQuantileAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	xs := make([]float64, 10000)
	for i := range xs {
		xs[i] = 1000 * rng.Float64()
	}
	const rho, q = 0.01, 0.9
	m := TopRank(rho, len(DefaultGrid.Values()), 1e-3)
	for range 200 {
		c, err := Quantile(xs, q, DefaultGrid, rho, rng)
		if err != nil {
			t.Fatal(err)
		}
		// Rank of c among the values: 10 per unit of value.
		rank := math.Min(c, 1000) * 10
		// The grid's spacing (19%) can put the nearest point up to 19%
		// of c away from the quantile in value.
		lo, hi := (q*10000-float64(m))/1.19, (q*10000+float64(m))*1.19
		if rank < lo || rank > hi {
			t.Fatalf("quantile %g at rank %.0f, outside [%.0f, %.0f]", c, rank, lo, hi)
		}
	}
}

// TestClippedMean checks the noise's scale σ = clip/(n√(2ρ)) (σ̃, the
// lattice's, for exact noise: within 2⁻²⁰ above σ) and that the release is
// unbiased for the clipped mean: the mean of 4·10⁴ releases is within four
// standard errors σ/√N of it, with floating-point and with exact noise.
func TestClippedMean(t *testing.T) {
	xs := []float64{-1, 0.5, 2, 7, math.NaN(), math.Inf(1)}
	const clip, rho = 3, 0.2
	want := (0 + 0.5 + 2 + 3 + 3 + 3) / 6.0
	for _, exact := range []bool{false, true} {
		t.Run(fmt.Sprint("exact=", exact), func(t *testing.T) {
			g := noise.NewStream(rand.New(rand.NewPCG(7, 8)), exact)
			const N = 40000
			var s float64
			var sigma float64
			for range N {
				m, sg, err := ClippedMean(xs, clip, rho, g)
				if err != nil {
					t.Fatal(err)
				}
				s += m
				sigma = sg
			}
			w := clip / (6 * math.Sqrt(2*rho))
			if exact {
				w = noise.Tilde(w)
			}
			if math.Abs(sigma-w) > 1e-15 {
				t.Errorf("σ = %g, want %g", sigma, w)
			}
			if got := s / N; math.Abs(got-want) > 4*sigma/math.Sqrt(N) {
				t.Errorf("mean release %.5f, want %.5f ± %.5f", got, want, 4*sigma/math.Sqrt(N))
			}
		})
	}
}

// TestSecondMomentSensitivity checks the sensitivity bound the noise is
// calibrated to: for neighbouring sets of vectors (one replaced by an
// adversarial one), the noiseless matrices' upper triangles differ by at
// most √2·clip/n in ℓ2.
func TestSecondMomentSensitivity(t *testing.T) {
	const n, d, clip = 5, 3, 4.0
	base := [][]float64{{1, 0, 0}, {0, 1, 1}, {3, 0, 0}, {0.1, 0.2, 0.3}, {1, 1, 1}}
	for _, repl := range [][]float64{{-10, 0, 0}, {0, 0, 100}, {2, -2, 0}, {math.NaN(), 0, 0}} {
		t.Run(fmt.Sprint(repl), func(t *testing.T) {
			nb := append([][]float64(nil), base...)
			nb[2] = repl
			// ρ so large that the noise is far below the tolerance.
			a, _, _ := SecondMoment(func(i int) []float64 { return base[i] }, n, d, clip, 1e30, noise.NewStream(rand.New(rand.NewPCG(1, 1)), false))
			b, _, _ := SecondMoment(func(i int) []float64 { return nb[i] }, n, d, clip, 1e30, noise.NewStream(rand.New(rand.NewPCG(1, 1)), false))
			var ss float64
			for i := range d {
				for j := i; j < d; j++ {
					x := a.At(i, j) - b.At(i, j)
					ss += x * x
				}
			}
			if l2 := math.Sqrt(ss); l2 > math.Sqrt2*clip/n*(1+1e-9) {
				t.Errorf("replacing with %v moves the upper triangle by %g > √2·clip/n = %g", repl, l2, math.Sqrt2*clip/n)
			}
		})
	}
}

// TestSecondMomentExtremes: with negligible noise the extreme eigenvalues
// are those of the clipped vectors' second moment (here diag(2, 0.5)).
func TestSecondMomentExtremes(t *testing.T) {
	rows := [][]float64{{2, 0}, {-2, 0}, {0, 1}, {0, -1}}
	s, _, err := SecondMoment(func(i int) []float64 { return rows[i] }, 4, 2, 100, 1e30, noise.NewStream(rand.New(rand.NewPCG(1, 2)), false))
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, err := Extremes(s)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(lo-0.5) > 1e-9 || math.Abs(hi-2) > 1e-9 {
		t.Errorf("extremes %g, %g; want 0.5, 2", lo, hi)
	}
}
