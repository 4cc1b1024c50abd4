package vec

import (
	"slices"
	"testing"
)

// TestGatherRows: the rows idx are copied in order, exactly, whatever the
// rows asked for ahead (none, fewer than idx, as many, more than a group);
// the data are left as they were; nothing is allocated; a row outside the
// data panics.
func TestGatherRows(t *testing.T) {
	for _, stride := range []int{1, 3, 8, 11, 17} {
		xs := make([]float64, 100*stride)
		for i := range xs {
			xs[i] = float64(i) + 0.25
		}
		orig := slices.Clone(xs)
		idx := []int{0, 1, 7, 7, 50, 98, 99, 3, 4, 5, 6, 12}
		var want []float64
		for _, i := range idx {
			want = append(want, xs[i*stride:(i+1)*stride]...)
		}
		dst := make([]float64, len(idx)*stride+5)
		for _, tc := range []struct {
			name string
			next []int
		}{{"none", nil}, {"fewer", []int{3, 99}}, {"as many", []int{2, 4, 6, 8, 10, 12, 99, 0, 1, 2, 3, 4}}, {"more", make([]int, 30)}} {
			t.Run(tc.name, func(t *testing.T) {
				clear(dst)
				got := GatherRows(dst, xs, idx, tc.next, stride)
				if !slices.Equal(got, want) {
					t.Errorf("stride %d: got %v, want %v", stride, got, want)
				}
				if !slices.Equal(xs, orig) {
					t.Errorf("stride %d: the data changed", stride)
				}
				if a := testing.AllocsPerRun(10, func() { GatherRows(dst, xs, idx, tc.next, stride) }); a != 0 {
					t.Errorf("stride %d: %v allocations", stride, a)
				}
			})
		}
	}
	for _, tc := range []struct {
		name      string
		idx, next []int
	}{{"row -1", []int{0, -1}, nil}, {"row 100", []int{100}, nil}, {"ahead 100", []int{0}, []int{100}}, {"ahead -1", []int{0}, []int{-1}}} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%v ahead %v of 100 rows: no panic", tc.idx, tc.next)
				}
			}()
			GatherRows(make([]float64, 30), make([]float64, 300), tc.idx, tc.next, 3)
		})
	}
}
