package oracle

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// scaledBatch is a block of rows a_i (d features and a label, stride d+1)
// with slopes k_i, and the vectors z_i = k_i·a_i they stand for: t₃
// features and slopes, with rows whose z_i is zero, not finite (a NaN
// slope, an infinite feature, an overflowing product) or has a norm that
// overflows.
func scaledBatch(s, d int) (k, sq, xs []float64, z [][]float64) {
	r := newRand(11)
	rows := studentBatch(r, s, make([]float64, d+1), 3)
	slopes := studentBatch(r, s, []float64{0}, 3)
	big := math.MaxFloat64 / 4
	k, sq, xs = make([]float64, s), make([]float64, s), make([]float64, 0, s*(d+1))
	for i, a := range rows {
		k[i] = 3 * slopes[i][0]
		switch i % 500 {
		case 7:
			k[i] = math.NaN()
		case 8:
			a[1] = math.Inf(-1)
		case 9:
			k[i], a[0] = 8, big // k·a overflows
		case 10:
			k[i], a[0], a[1] = 0.5, big, big // finite, its norm overflows
		case 11:
			k[i] = 0
		}
		xs = append(xs, a...)
		sq[i] = floats.Dot(a[:d], a[:d])
		zi := make([]float64, d)
		for j := range zi {
			zi[j] = k[i] * a[j]
		}
		z = append(z, zi)
	}
	return k, sq, xs, z
}

// TestCoordinateAddScaledIsAdd: feeding the coordinate oracle k_i·a_i in
// factored form (AddScaled, blocks of any size, in one call or in parts)
// gives the estimate of Add(k_i·a_i) bit for bit, after a call of another
// size on the same oracle too — the same products,
// clipped and summed in the same order — and the same counts; with the
// detail on, the same histogram and the quantiles up to the rounding of
// |k|·√‖a‖² against ‖k·a‖ (relative 10⁻¹⁴).
func TestCoordinateAddScaledIsAdd(t *testing.T) {
	for _, d := range []int{3, 10} {
		testCoordinateAddScaledIsAdd(t, d)
	}
}

func testCoordinateAddScaledIsAdd(t *testing.T, d int) {
	const s = 3001
	k, sq, xs, z := scaledBatch(s, d)
	blocks := []int{1, 17, 256, 5, 1000}
	feed := func(add func(z []float64), addScaled func(k, sq, xs []float64), lo, hi int, scaled bool) {
		for i, b := lo, 0; i < hi; b++ {
			n := min(blocks[b%len(blocks)], hi-i)
			if scaled {
				addScaled(k[i:i+n], sq[i:i+n], xs[i*(d+1):(i+n)*(d+1)])
			} else {
				for _, zi := range z[i : i+n] {
					add(zi)
				}
			}
			i += n
		}
	}
	for _, detail := range []bool{true, false} {
		for _, cuts := range [][]int{nil, {1000, 1001, 2999}} {
			t.Run(fmt.Sprintf("d=%d/detail=%v/cuts=%v", d, detail, cuts), func(t *testing.T) {
				call := func(scaled bool) ([]float64, BatchStats) {
					o := &Coordinate{M: 7}
					o.SetDetail(detail)
					if scaled {
						// A call of another size (another layout of the
						// groups: 7 of 71 or 72 rows) before the one compared.
						if err := o.Begin(d, 500, 2.5, noPrivacy(o)); err != nil {
							t.Fatal(err)
						}
						o.AddScaled(k[:500], sq[:500], xs[:500*(d+1)], d+1)
						o.Finish(make([]float64, d), newRand(2))
					}
					if err := o.Begin(d, s, 2.5, noPrivacy(o)); err != nil {
						t.Fatal(err)
					}
					if cuts == nil {
						feed(o.Add, func(k, sq, xs []float64) { o.AddScaled(k, sq, xs, d+1) }, 0, s, scaled)
					} else {
						bounds := append(append([]int{0}, cuts...), s)
						p := o.NewPart()
						for i := 0; i+1 < len(bounds); i++ {
							o.StartPart(p, bounds[i], bounds[i+1])
							feed(p.Add, func(k, sq, xs []float64) { p.(ScaledAdder).AddScaled(k, sq, xs, d+1) }, bounds[i], bounds[i+1], scaled)
							o.MergePart(p)
						}
					}
					out := make([]float64, d)
					return out, o.Finish(out, newRand(1)).Stats
				}
				want, ws := call(false)
				got, st := call(true)
				for j := range want {
					if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
						t.Errorf("coordinate %d = %v, Add gave %v (want the same bits)", j, got[j], want[j])
					}
				}
				if st.Size != ws.Size || st.Clipped != ws.Clipped || st.NonFinite != ws.NonFinite || st.Hist != ws.Hist || st.Under != ws.Under || st.Over != ws.Over {
					t.Errorf("stats %+v, Add gave %+v", st, ws)
				}
				if ws.NonFinite != 3*6 || ws.Clipped == 0 {
					t.Errorf("the batch has %d non-finite and %d clipped rows; want 18 (6 of each kind) and some", ws.NonFinite, ws.Clipped)
				}
				for i, q := range ws.Quantiles {
					g := st.Quantiles[i]
					if (math.IsNaN(q) != math.IsNaN(g)) || math.Abs(g-q) > 1e-14*math.Abs(q) {
						t.Errorf("quantile %d = %v, Add gave %v", i, g, q)
					}
				}
			})
		}
	}
}
