package estimate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestQuantileCountsAsSorted: Quantile's counts at the grid points
// (countsAtMost, by binary search) are those of a scan of the values
// sorted, a NaN as +Inf, so its release is the scan's bit for bit on the
// same stream: values on grid points, between them, below and above the
// grid, zeros, negatives, ±Inf and NaN.
func TestQuantileCountsAsSorted(t *testing.T) {
	g := DefaultGrid
	vals := g.Values()
	rng := rand.New(rand.NewPCG(8, 9))
	mixed := make([]float64, 5000)
	for i := range mixed {
		switch i % 7 {
		case 0:
			mixed[i] = vals[rng.IntN(len(vals))] // on a grid point
		case 1:
			mixed[i] = []float64{0, -1, math.Inf(1), math.Inf(-1), math.NaN(), 1e300, 1e-300}[rng.IntN(7)]
		default:
			mixed[i] = math.Exp(6 * rng.NormFloat64())
		}
	}
	for _, tc := range []struct {
		name string
		xs   []float64
	}{{"mixed", mixed}, {"one", []float64{3}}, {"NaN", []float64{math.NaN(), 2}}, {"above", []float64{1e300, math.Inf(1)}}} {
		t.Run(tc.name, func(t *testing.T) {
			s := sortedValues(tc.xs)
			got := countsAtMost(tc.xs, vals)
			i := 0
			for j, c := range vals {
				for i < len(s) && s[i] <= c {
					i++
				}
				if got[j] != i {
					t.Fatalf("at %g (point %d): count %d, the sorted scan %d", c, j, got[j], i)
				}
			}
			for seed := range uint64(20) {
				for _, q := range []float64{0.1, 0.5, 0.9} {
					a, errA := Quantile(tc.xs, q, g, 0.5, rand.New(rand.NewPCG(seed, 1)))
					b, errB := quantileSorted(tc.xs, q, g, 0.5, rand.New(rand.NewPCG(seed, 1)))
					if fmt.Sprint(errA) != fmt.Sprint(errB) || math.Float64bits(a) != math.Float64bits(b) {
						t.Fatalf("seed %d, q %g: %v (%v), the sorted scan %v (%v)", seed, q, a, errA, b, errB)
					}
				}
			}
		})
	}
}

// quantileSorted is Quantile with its counts from the values sorted.
func quantileSorted(xs []float64, q float64, g Grid, rho float64, rng *rand.Rand) (float64, error) {
	if err := checkQuantile(xs, q, g, rho); err != nil {
		return math.NaN(), err
	}
	s := sortedValues(xs)
	r := int64(Rank(q, len(s)))
	p1, p2 := NoiseFor(rho).ratios()
	thr := r + geometric(p1, rng)
	vals := g.Values()
	i := 0
	for _, c := range vals {
		for i < len(s) && s[i] <= c {
			i++
		}
		if int64(i)+geometric(p2, rng) >= thr {
			return c, nil
		}
	}
	return vals[len(vals)-1], nil
}
