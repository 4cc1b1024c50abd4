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

// TestCoefNormsAsGo: coefNorms (on amd64 two rows at a time in assembly,
// then the Go loop) gives coefNormsGo's coefficients, rows done and
// clipped count bit for bit, and coefRoots coefRootsGo's: rows that clip and rows that do not, c =
// +Inf and a c whose quotients underflow to 0, zero and negative slopes,
// and rows off the fast path (a tiny or huge ‖a‖², a NaN or infinite
// slope, an overflowing ‖z‖) first or second in their pair, at odd and
// even lengths.
func TestCoefNormsAsGo(t *testing.T) {
	rng := newRand(5)
	const n = 41
	base := func() (k, sq, rn []float64) {
		k, sq, rn = make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			k[i] = rng.NormFloat64() * math.Exp(3*rng.NormFloat64())
			if i%9 == 4 {
				k[i] = 0
			}
			sq[i] = math.Exp(4 * rng.NormFloat64())
			rn[i] = math.Sqrt(sq[i])
		}
		return k, sq, rn
	}
	type mod func(k, sq, rn []float64)
	at := func(i int, f func(k, sq, rn []float64, i int)) mod {
		return func(k, sq, rn []float64) { f(k, sq, rn, i) }
	}
	tiny := func(_, sq, rn []float64, i int) { sq[i], rn[i] = 1e-280, 1e-140 }
	huge := func(_, sq, rn []float64, i int) { sq[i], rn[i] = 1e280, 1e140 }
	nan := func(k, _, _ []float64, i int) { k[i] = math.NaN() }
	inf := func(k, _, _ []float64, i int) { k[i] = math.Inf(-1) }
	over := func(k, sq, rn []float64, i int) { k[i], sq[i], rn[i] = 1e200, 1e260, 1e130 }
	cases := map[string]mod{"fast": func(_, _, _ []float64) {}}
	for name, f := range map[string]func(k, sq, rn []float64, i int){"tiny": tiny, "huge": huge, "NaN": nan, "Inf": inf, "overflow": over} {
		cases[name+" first"] = at(10, f)
		cases[name+" second"] = at(11, f)
	}
	for name, m := range cases {
		for _, c := range []float64{0.7, 50, math.Inf(1), 1e-310} {
			for _, length := range []int{n, n - 1, 1, 0} {
				t.Run(fmt.Sprintf("%s/c=%g/n=%d", name, c, length), func(t *testing.T) {
					k, sq, rn := base()
					m(k, sq, rn)
					k, sq, rn = k[:length], sq[:length], rn[:length]
					got, want := make([]float64, length), make([]float64, length)
					gd, gc := coefNorms(got, k, sq, rn, c, 1.0/3)
					wd, wc := coefNormsGo(want, k, sq, rn, c, 1.0/3)
					if gd != wd || gc != wc {
						t.Fatalf("done %d, clipped %d; the Go loop %d, %d", gd, gc, wd, wc)
					}
					for i := range wd {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
							t.Fatalf("row %d: %v, the Go loop %v", i, got[i], want[i])
						}
					}
					got, want = make([]float64, length), make([]float64, length)
					gd, gc = coefRoots(got, k, sq, c, 1.0/3)
					wd, wc = coefRootsGo(want, k, sq, c, 1.0/3)
					if gd != wd || gc != wc {
						t.Fatalf("roots: done %d, clipped %d; the Go loop %d, %d", gd, gc, wd, wc)
					}
					for i := range wd {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
							t.Fatalf("roots: row %d: %v, the Go loop %v", i, got[i], want[i])
						}
					}
				})
			}
		}
	}
}
