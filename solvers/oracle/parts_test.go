package oracle

import (
	"fmt"
	"math"
	"testing"

	"dpso/solvers/ledger"

	"gonum.org/v1/gonum/floats"
)

// feedParts makes one call on batch, fed in the parts cut at the given
// positions (ascending, inside (0, s)), and returns the output and call.
func feedParts(t *testing.T, o Splitter, batch [][]float64, c float64, b ledger.Cost, cuts []int, seed uint64) ([]float64, Call) {
	t.Helper()
	d, s := len(batch[0]), len(batch)
	if err := o.Begin(d, s, c, b); err != nil {
		t.Fatal(err)
	}
	bounds := append(append([]int{0}, cuts...), s)
	p := o.NewPart()
	for i := 0; i+1 < len(bounds); i++ {
		lo, hi := bounds[i], bounds[i+1]
		o.StartPart(p, lo, hi)
		for _, z := range batch[lo:hi] {
			p.Add(z)
		}
		o.MergePart(p)
	}
	out := make([]float64, d)
	return out, o.Finish(out, newRand(seed))
}

// TestPartsMatchAdd: feeding a call in parts gives the batch statistics of
// feeding it with Add exactly (counts, histogram, and the quantiles: the
// stride sample is taken by rank among all finite norms, across parts) and
// the same estimate up to the rounding of a different summation order
// (relative 10⁻¹³: the sums have s ≤ 5000 terms of one sign pattern, each
// rounding contributes ≤ 2⁻⁵³ relative to the running sum's magnitude); one
// part is Add exactly, bit for bit. The batch has non-finite vectors at a
// part's first position and a stride larger than 1 (s = 5000 >
// NormSampleCap), so the merge's rank arithmetic is exercised.
func TestPartsMatchAdd(t *testing.T) {
	const s, d = 5000, 7
	nu := make([]float64, d)
	for j := range nu {
		nu[j] = float64(j) - 3
	}
	batch := studentBatch(newRand(1), s, nu, 3)
	for _, i := range []int{0, 999, 1000, 1001, 2500, 4999} {
		batch[i][i%d] = math.NaN()
	}
	for _, name := range []string{"clip-gaussian", "coordinate"} {
		o := newOracle(t, name, 1).(Splitter)
		c := o.Threshold(8, d)
		b := ledger.Cost{Rho: 0.5}
		want, wantCall := run(t, o, batch, c, b, newRand(9))
		for _, cuts := range [][]int{nil, {1000}, {1, 2, 3, 1000, 1001, 4999}, {333, 666, 999, 1332, 2000, 2500, 3001}} {
			t.Run(fmt.Sprintf("%s/%v", name, cuts), func(t *testing.T) {
				got, call := feedParts(t, o, batch, c, b, cuts, 9)
				st, ws := call.Stats, wantCall.Stats
				if st.Size != ws.Size || st.Clipped != ws.Clipped || st.NonFinite != ws.NonFinite || st.Hist != ws.Hist ||
					st.Under != ws.Under || st.Over != ws.Over || st.Quantiles != ws.Quantiles {
					t.Errorf("stats differ:\nparts %+v\nadd   %+v", st, ws)
				}
				for j := range got {
					if cuts == nil && got[j] != want[j] {
						t.Errorf("one part: coordinate %d = %v, Add gave %v (want the same bits)", j, got[j], want[j])
					}
					if math.Abs(got[j]-want[j]) > 1e-13*math.Max(1, math.Abs(want[j])) {
						t.Errorf("coordinate %d = %.17g, Add gave %.17g", j, got[j], want[j])
					}
				}
			})
		}
	}
}

// TestAddScaledMatchesAdd: AddScaled(k, ‖a‖², a) is Add(k·a) up to rounding
// (relative 10⁻¹⁴: |k|·‖a‖ and ‖k·a‖ differ by a few ulps), including
// clipped, zero, non-finite (0·∞, NaN slope) and overflowing cases, for
// the oracle and for a part.
func TestAddScaledMatchesAdd(t *testing.T) {
	big := math.MaxFloat64 / 4
	cases := []struct {
		k float64
		a []float64
	}{
		{0.5, []float64{1, 2, 3}}, // norm 1.87 < C
		{-40, []float64{1, 2, 3}}, // clipped
		{0, []float64{1, 2, 3}},   // zero vector
		{3, []float64{0, 0, 0}},   // zero vector
		{0, []float64{1, math.Inf(1), 3}},
		{math.NaN(), []float64{1, 2, 3}},
		{4, []float64{big, big, 0}},   // k·a overflows entries: non-finite
		{0.5, []float64{big, big, 1}}, // finite entries, overflowing norm
		{1e-300, []float64{1e-10, 2e-10, 0}},
	}
	const c = 5.0
	o := newOracle(t, "clip-gaussian", 1).(*ClipGaussian)
	for i, tc := range cases {
		t.Run(fmt.Sprintf("k=%g a=%v", tc.k, tc.a), func(t *testing.T) {
			z := make([]float64, len(tc.a))
			for j, v := range tc.a {
				z[j] = tc.k * v
			}
			call := func(feed func()) ([]float64, BatchStats) {
				if err := o.Begin(3, 1, c, ledger.Cost{Rho: math.Inf(1)}); err != nil {
					t.Fatal(err)
				}
				feed()
				out := make([]float64, 3)
				return out, o.Finish(out, newRand(1)).Stats
			}
			want, wst := call(func() { o.Add(z) })
			sq := []float64{floats.Dot(tc.a, tc.a)}
			got, st := call(func() { o.AddScaled([]float64{tc.k}, sq, tc.a, 3) })
			p := o.NewPart()
			gotP, stP := call(func() { o.StartPart(p, 0, 1); p.(ScaledAdder).AddScaled([]float64{tc.k}, sq, tc.a, 3); o.MergePart(p) })
			for _, g := range []struct {
				name string
				out  []float64
				st   BatchStats
			}{{"oracle", got, st}, {"part", gotP, stP}} {
				t.Run(g.name, func(t *testing.T) {
					if g.st.Clipped != wst.Clipped || g.st.NonFinite != wst.NonFinite || g.st.Hist != wst.Hist || g.st.Under != wst.Under || g.st.Over != wst.Over {
						t.Errorf("case %d %s: stats %+v, Add gave %+v", i, g.name, g.st, wst)
					}
					for j := range want {
						if math.Abs(g.out[j]-want[j]) > 1e-14*math.Abs(want[j]) || math.IsNaN(g.out[j]) {
							t.Errorf("case %d %s: %v, Add gave %v", i, g.name, g.out, want)
							break
						}
					}
				})
			}
		})
	}
}

// TestAddScaledCountsAsAdd: a block fed by AddScaled counts its vectors,
// the clipped and the non-finite ones as Add of each k_i·a_i does, with
// and without the detail, for the oracle and for a part: a block of finite
// rows (counted without reading the rows' norms) and blocks with a NaN or
// an overflowing row among them (the exact path).
func TestAddScaledCountsAsAdd(t *testing.T) {
	const d, c = 3, 5.0
	rows := [][]float64{{1, 2, 3}, {0.1, 0, 0}, {4, 4, 4}, {0.5, 0.5, 0.5}, {9, 0, 0}}
	for _, tc := range []struct {
		name string
		k    []float64
	}{
		{"finite", []float64{0.5, 2, 3, -1, 0}},
		{"NaN slope", []float64{0.5, math.NaN(), 3, -1, 0}},
		{"overflow", []float64{0.5, 2, math.MaxFloat64, -10, 0}},
	} {
		xs := make([]float64, 0, len(rows)*d)
		sq := make([]float64, len(rows))
		for i, a := range rows {
			xs = append(xs, a...)
			sq[i] = floats.Dot(a, a)
		}
		for _, detail := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s detail=%v", tc.name, detail), func(t *testing.T) {
				o := newOracle(t, "clip-gaussian", 1).(*ClipGaussian)
				o.SetDetail(detail)
				call := func(feed func()) BatchStats {
					if err := o.Begin(d, len(rows), c, ledger.Cost{Rho: math.Inf(1)}); err != nil {
						t.Fatal(err)
					}
					feed()
					return o.Finish(make([]float64, d), newRand(1)).Stats
				}
				want := call(func() {
					for i, a := range rows {
						z := make([]float64, d)
						for j, v := range a {
							z[j] = tc.k[i] * v
						}
						o.Add(z)
					}
				})
				got := call(func() { o.AddScaled(tc.k, sq, xs, d) })
				p := o.NewPart()
				gotP := call(func() {
					o.StartPart(p, 0, len(rows))
					p.(ScaledAdder).AddScaled(tc.k, sq, xs, d)
					o.MergePart(p)
				})
				if want.Clipped == 0 {
					t.Fatal("no row is clipped: the case tests nothing")
				}
				for _, g := range []struct {
					name string
					st   BatchStats
				}{{"oracle", got}, {"part", gotP}} {
					if g.st.Size != want.Size || g.st.Clipped != want.Clipped || g.st.NonFinite != want.NonFinite {
						t.Errorf("%s: size %d, clipped %d, non-finite %d; Add gave %d, %d, %d", g.name,
							g.st.Size, g.st.Clipped, g.st.NonFinite, want.Size, want.Clipped, want.NonFinite)
					}
				}
			})
		}
	}
}

// TestHistBinMatchesLog10: the histogram bin found from the exponent and
// the edges is ⌊4·(log10 x + 4)⌋ wherever that formula is not within
// rounding of an edge, at every edge it is the bin the edge opens, and just
// below an edge it is the bin before.
func TestHistBinMatchesLog10(t *testing.T) {
	r := newRand(3)
	for range 200000 {
		x := math.Pow(10, HistMinExp+r.Float64()*(HistMaxExp-HistMinExp))
		f := (math.Log10(x) - HistMinExp) * HistPerDecade
		if math.Abs(f-math.Round(f)) < 1e-9 {
			continue
		}
		if got, want := histBin(x), int(math.Floor(f)); got != want {
			t.Fatalf("histBin(%g) = %d, want %d", x, got, want)
		}
	}
	for b := 0; b < HistBins; b++ {
		lo, _ := BinEdges(b)
		if got := histBin(lo); got != b {
			t.Errorf("histBin(edge %d = %g) = %d", b, lo, got)
		}
		if b > 0 {
			if got := histBin(math.Nextafter(lo, 0)); got != b-1 {
				t.Errorf("histBin(just below edge %d) = %d, want %d", b, got, b-1)
			}
		}
	}
}

// TestSetDetail: with the detail off a call's statistics are the same
// counts, with no histogram and NaN quantiles; back on, they are back.
func TestSetDetail(t *testing.T) {
	batch := studentBatch(newRand(4), 500, []float64{1, 2, 3}, 3)
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			o := newOracle(t, name, 1)
			qs := o.(DetailSetter)
			_, on := run(t, o, batch, o.Threshold(4, 3), noPrivacy(o), newRand(1))
			qs.SetDetail(false)
			_, off := run(t, o, batch, o.Threshold(4, 3), noPrivacy(o), newRand(1))
			for _, q := range off.Stats.Quantiles {
				if !math.IsNaN(q) {
					t.Errorf("%s: quantiles off gave %v", name, off.Stats.Quantiles)
					break
				}
			}
			if off.Stats.Hist != ([HistBins]int{}) || off.Stats.Under != 0 || off.Stats.Over != 0 {
				t.Errorf("%s: detail off kept a histogram: %+v", name, off.Stats)
			}
			off.Stats.Quantiles, off.Stats.Hist, off.Stats.Under, off.Stats.Over = on.Stats.Quantiles, on.Stats.Hist, on.Stats.Under, on.Stats.Over
			if off.Stats != on.Stats {
				t.Errorf("%s: the other statistics changed: %+v vs %+v", name, off.Stats, on.Stats)
			}
			qs.SetDetail(true)
			if _, again := run(t, o, batch, o.Threshold(4, 3), noPrivacy(o), newRand(1)); again.Stats != on.Stats {
				t.Errorf("%s: quantiles back on: %+v, want %+v", name, again.Stats, on.Stats)
			}
		})
	}
}
