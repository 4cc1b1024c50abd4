package audit

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// sortedQuantiles is what pilotQuantiles must return, computed the direct
// way: sort a copy and read gonum's empirical quantiles off it.
func sortedQuantiles(x []float64) ([]float64, Histogram) {
	s := slices.Clone(x)
	slices.Sort(s)
	n := float64(len(s))
	var ts []float64
	for _, l := range thresholdLevels {
		if math.Min(l, 1-l)*n >= minTail {
			ts = append(ts, stat.Quantile(l, stat.Empirical, s, nil))
		}
	}
	ts = slices.Compact(ts)
	lo := stat.Quantile(0.001, stat.Empirical, s, nil)
	hi := stat.Quantile(0.999, stat.Empirical, s, nil)
	w := hi - lo
	if !(w > 0) {
		w = math.Max(math.Abs(lo), 1)
	}
	return ts, Histogram{Lo: lo - w/10, Hi: hi + w/10, Bins: histBins}
}

// TestPilotQuantilesAreTheSortedQuantiles: the thresholds and the
// histogram's range found by selection are, bit for bit, gonum's empirical
// quantiles of the sorted pilot, on continuous outputs, on outputs with
// many ties (the shuffle oracles' are discrete), at the smallest pilot,
// and on orders that defeat a naive pivot.
func TestPilotQuantilesAreTheSortedQuantiles(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gen := func(n int, f func(i int) float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = f(i)
		}
		return x
	}
	for _, c := range []struct {
		name string
		x    []float64
	}{
		{"gaussian pilot 2·2000", gen(4000, func(int) float64 { return r.NormFloat64() })},
		{"gaussian shift 2·100000", gen(200_000, func(i int) float64 { return r.NormFloat64() + float64(i/100_000) })},
		{"five values", gen(50_000, func(int) float64 { return float64(r.IntN(5) - 2) })},
		{"one value", gen(5000, func(int) float64 { return 0.25 })},
		{"one outlier", gen(5000, func(i int) float64 { return float64(min(i, 1)) })},
		{"ascending", gen(100_000, func(i int) float64 { return float64(i) })},
		{"descending", gen(100_000, func(i int) float64 { return -float64(i) })},
		{"organ pipe", gen(100_001, func(i int) float64 { return -math.Abs(float64(i - 50_000)) })},
		{"sawtooth", gen(100_000, func(i int) float64 { return float64(i % 97) })},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantTS, wantH := sortedQuantiles(c.x)
			ts, h, err := pilotQuantiles(context.Background(), slices.Clone(c.x))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(bitsOf(ts), bitsOf(wantTS)) {
				t.Errorf("thresholds %v, want %v", ts, wantTS)
			}
			if math.Float64bits(h.Lo) != math.Float64bits(wantH.Lo) || math.Float64bits(h.Hi) != math.Float64bits(wantH.Hi) || h.Bins != wantH.Bins {
				t.Errorf("histogram [%v, %v) in %d bins, want [%v, %v) in %d", h.Lo, h.Hi, h.Bins, wantH.Lo, wantH.Hi, wantH.Bins)
			}
		})
	}
}

func bitsOf(x []float64) []uint64 {
	b := make([]uint64, len(x))
	for i, v := range x {
		b[i] = math.Float64bits(v)
	}
	return b
}

// TestPilotQuantilesOneZero: ±0 are one value to the thresholds' tests,
// and a threshold at zero is +0 whichever signs the pilot's zeros had.
func TestPilotQuantilesOneZero(t *testing.T) {
	x := make([]float64, 4000)
	for i := range x {
		if i%3 == 0 {
			x[i] = math.Copysign(0, -1)
		}
	}
	ts, _, err := pilotQuantiles(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || math.Float64bits(ts[0]) != 0 {
		t.Errorf("thresholds %v (sign bits %v), want one +0", ts, bitsOf(ts))
	}
}

// TestOrderStatsFallsBackToSorting: a part left unresolved when the
// partition budget runs out is sorted, with the same order statistics.
func TestOrderStatsFallsBackToSorting(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 10_000)
	for i := range x {
		x[i] = float64(r.IntN(300))
	}
	s := slices.Clone(x)
	slices.Sort(s)
	ranks := []int{0, 17, 2500, 2501, 5000, 9998, 9999}
	for _, depth := range []int{0, 1, 2, 3} {
		out := make([]float64, len(ranks))
		if err := selectRanks(context.Background(), slices.Clone(x), 0, ranks, out, depth); err != nil {
			t.Fatal(err)
		}
		for i, rk := range ranks {
			if out[i] != s[rk] {
				t.Errorf("depth %d: rank %d = %v, want %v", depth, rk, out[i], s[rk])
			}
		}
	}
}

// TestOrderStatsStopsWhenCancelled: the selection over a large pilot
// checks its context (it is the serial step between the pilot and the
// main sample; a pilot holds up to 2·10⁷ outputs).
func TestOrderStatsStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := make([]float64, 1<<17)
	for i := range x {
		x[i] = float64(i % 1000)
	}
	if err := orderStats(ctx, x, []int{5, 1 << 16}, make([]float64, 2)); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
