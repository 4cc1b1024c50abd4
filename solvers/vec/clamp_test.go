package vec

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkClampAddRows times each kernel of ClampAddRows on klz-gd's block
// at preset 7 (lasso-t: d = 10, a row of 11 floats with its label, 372
// rows a block, m = 13 group means, rows known finite), in ns a row; the
// rows stay in cache, so this is the arithmetic alone.
func BenchmarkClampAddRows(b *testing.B) {
	const d, stride, n, m = 10, 11, 372, 13
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, n*stride)
	for i := range xs {
		xs[i] = r.NormFloat64()
	}
	k, inv, off := make([]float64, n), make([]float64, n), make([]int, n)
	for i := range k {
		k[i], off[i], inv[i] = 100*r.NormFloat64(), (i%m)*d, 1.0/float64(n/m)
	}
	y, flag := make([]float64, m*d), make([]uint8, n)
	for _, impl := range []struct {
		name string
		f    func(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8, ahead []float64)
	}{{"sse2", clampAddRowsChecked}, {"avx", clampAddRowsAVXChecked}} {
		b.Run(impl.name, func(b *testing.B) {
			if impl.name == "avx" && !hasAVX {
				b.Skip("no AVX")
			}
			b.ReportAllocs()
			for b.Loop() {
				for i := range flag {
					flag[i] = 3
				}
				impl.f(y, off, inv, k, xs, stride, d, 150, flag, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
		})
	}
}

// TestClampAddRowsRange: a destination row outside y panics, one at the
// last offset that holds d entries does not.
func TestClampAddRowsRange(t *testing.T) {
	const d = 3
	xs, k, inv := []float64{1, 2, 3}, []float64{1}, []float64{1}
	for _, c := range []struct {
		name  string
		ylen  int
		off   int
		panic bool
	}{{"first", 6, 0, false}, {"last", 6, 3, false}, {"past the end", 6, 4, true}, {"negative", 6, -1, true}, {"y shorter than a row", 2, 0, true}} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if got := recover() != nil; got != c.panic {
					t.Fatalf("panicked: %v, want %v", got, c.panic)
				}
			}()
			ClampAddRows(make([]float64, c.ylen), []int{c.off}, inv, k, xs, d, d, 1, []uint8{0}, nil)
		})
	}
}
