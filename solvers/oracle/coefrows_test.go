package oracle

import (
	"fmt"
	"math"
	"testing"

	"dpso/solvers/ledger"

	"gonum.org/v1/gonum/floats"
)

// TestFastBlockSameBits: a block fed by AddScaledNorms without the detail
// (its coefficients from coefNorms or coefRoots alone) gives the sum of
// the block fed with the detail (clipScaledRows's full loop) bit for bit,
// for the oracle and for a part, with the norms given and with the roots
// taken; a block with a row off the fast path (a tiny row, whose norm is
// taken from the row, or a NaN slope: the exact path) falls back to the
// full loop, the same bits too.
func TestFastBlockSameBits(t *testing.T) {
	const d, s = 5, 300
	rng := newRand(3)
	xs := make([]float64, s*d)
	k := make([]float64, s)
	for i := range xs {
		xs[i] = rng.NormFloat64() / (0.05 + rng.Float64()) // heavy-tailed
	}
	for i := range k {
		k[i] = rng.NormFloat64() * 3
	}
	tiny := append([]float64(nil), xs...)
	for j := range d {
		tiny[7*d+j] = 1e-160 * float64(j+1)
	}
	nan := append([]float64(nil), k...)
	nan[11] = math.NaN()
	for _, tc := range []struct {
		name string
		xs   []float64
		k    []float64
	}{{"finite", xs, k}, {"tiny row", tiny, k}, {"NaN slope", xs, nan}} {
		sq, rn := make([]float64, s), make([]float64, s)
		for i := range s {
			a := tc.xs[i*d : (i+1)*d]
			sq[i] = floats.Dot(a, a)
			rn[i] = math.Sqrt(sq[i])
		}
		for _, norms := range [][]float64{nil, rn} {
			t.Run(fmt.Sprintf("%s/norms=%v", tc.name, norms != nil), func(t *testing.T) {
				sum := func(detail, part bool) []float64 {
					o := newOracle(t, "clip-gaussian", 1).(*ClipGaussian)
					o.SetDetail(detail)
					if err := o.Begin(d, s, 2, ledger.Cost{Rho: math.Inf(1)}); err != nil {
						t.Fatal(err)
					}
					var dst NormScaledAdder = o
					p := o.NewPart()
					if part {
						o.StartPart(p, 0, s)
						dst = p.(NormScaledAdder)
					}
					for lo := 0; lo < s; lo += 64 {
						hi := min(s, lo+64)
						var r []float64
						if norms != nil {
							r = norms[lo:hi]
						}
						dst.AddScaledNorms(tc.k[lo:hi], sq[lo:hi], r, tc.xs[lo*d:hi*d], d)
					}
					if part {
						o.MergePart(p)
					}
					out := make([]float64, d)
					o.Finish(out, newRand(1))
					return out
				}
				for _, part := range []bool{false, true} {
					want, got := sum(true, part), sum(false, part)
					for j := range want {
						if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
							t.Fatalf("part %v: without the detail %v, with it %v", part, got, want)
						}
					}
				}
			})
		}
	}
}
