package oracle

import (
	"fmt"
	"math"
	"testing"
)

// TestNoisySumAddScaledDetail: the noisy sum fed in factored form
// (AddScaled) gives the same sum, bit for bit, and the same counts (size,
// clipped, non-finite, unclipped) with its detail off as with it on, on
// blocks with every kind of row (clipped or not, non-finite, a norm that
// overflows, tiny, k = 0), and without noise the same estimate.
func TestNoisySumAddScaledDetail(t *testing.T) {
	for _, d := range []int{3, 10} {
		t.Run(fmt.Sprintf("d=%d", d), func(t *testing.T) {
			const s = 3001
			k, sq, xs, _ := scaledBatch(s, d)
			blocks := []int{1, 17, 256, 5, 1000}
			call := func(detail bool) ([]float64, BatchStats, int) {
				o := &NoisySum{Divisor: 7}
				o.SetDetail(detail)
				if err := o.Begin(d, s, 2.5); err != nil {
					t.Fatal(err)
				}
				for i, b := 0, 0; i < s; b++ {
					n := min(blocks[b%len(blocks)], s-i)
					o.AddScaled(k[i:i+n], sq[i:i+n], xs[i*(d+1):(i+n)*(d+1)], d+1)
					i += n
				}
				unclipped := o.Unclipped()
				out := make([]float64, d)
				return out, o.Finish(out, nil), unclipped
			}
			want, ws, wu := call(true)
			got, st, gu := call(false)
			for j := range want {
				if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
					t.Errorf("coordinate %d = %v without detail, %v with it (want the same bits)", j, got[j], want[j])
				}
			}
			if st.Size != ws.Size || st.Clipped != ws.Clipped || st.NonFinite != ws.NonFinite || gu != wu {
				t.Errorf("without detail size %d, clipped %d, non-finite %d, unclipped %d; with it %d, %d, %d, %d", st.Size, st.Clipped, st.NonFinite, gu, ws.Size, ws.Clipped, ws.NonFinite, wu)
			}
			if ws.NonFinite == 0 || ws.Clipped == 0 || wu == 0 {
				t.Errorf("the batch has %d non-finite, %d clipped and %d unclipped rows; want some of each", ws.NonFinite, ws.Clipped, wu)
			}
		})
	}
}
