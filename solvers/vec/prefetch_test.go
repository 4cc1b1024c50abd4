package vec

import (
	"slices"
	"testing"
)

// TestPrefetchRows: the hint changes nothing (every row, of any stride,
// the first and the last included), allocates nothing, and refuses a row
// outside the data.
func TestPrefetchRows(t *testing.T) {
	for _, stride := range []int{1, 3, 8, 11, 17} {
		xs := make([]float64, 100*stride)
		for i := range xs {
			xs[i] = float64(i)
		}
		want := slices.Clone(xs)
		idx := []int{0, 1, 7, 50, 98, 99}
		if a := testing.AllocsPerRun(10, func() { PrefetchRows(xs, idx, stride) }); a != 0 {
			t.Errorf("stride %d: %v allocations", stride, a)
		}
		if !slices.Equal(xs, want) {
			t.Errorf("stride %d: the rows changed", stride)
		}
	}
	for _, bad := range []int{-1, 100} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("row %d of 100: no panic", bad)
				}
			}()
			PrefetchRows(make([]float64, 300), []int{0, bad}, 3)
		}()
	}
}
