package estimate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"dpso/solvers/noise"
)

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
