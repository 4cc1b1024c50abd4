package audit

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"sort"
)

// pilotQuantiles returns the thresholds and the histogram's range chosen
// on the pooled pilot outputs x (finite; reordered, and −0 made +0):
//
//   - the thresholds are the distinct empirical quantiles of x at
//     thresholdLevels, keeping the levels l with min(l, 1 − l)·|x| ≥
//     minTail (at least minTail pilot outputs beyond them);
//   - the histogram spans the 0.1% to 99.9% quantiles, widened by a tenth
//     of their distance on each side.
//
// The empirical quantile at level l of n values is gonum's
// (stat.Quantile(l, stat.Empirical, sorted x, nil)): the smallest sorted
// value x₍ᵢ₎ (0-based i) with i + 1 ≥ l·n, i.e. the order statistic of
// rank quantileRank(l, n). It is found by selection (orderStats), in
// O(|x|) expected time instead of a sort's O(|x| log |x|): the order
// statistics of a multiset do not depend on how they are found, so the
// values are a sort's, bit for bit.
func pilotQuantiles(ctx context.Context, x []float64) ([]float64, Histogram, error) {
	for i, v := range x {
		if v == 0 {
			x[i] = 0 // one zero: a sort leaves ±0 in no defined order
		}
	}
	n := len(x)
	var levels []float64
	for _, l := range thresholdLevels {
		if math.Min(l, 1-l)*float64(n) >= minTail {
			levels = append(levels, l)
		}
	}
	const histLo, histHi = 0.001, 0.999
	levels = append(levels, histLo, histHi)
	ranks := make([]int, len(levels))
	for i, l := range levels {
		ranks[i] = quantileRank(l, n)
	}
	distinct := slices.Clone(ranks)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	vals := make([]float64, len(distinct))
	if err := orderStats(ctx, x, distinct, vals); err != nil {
		return nil, Histogram{}, err
	}
	at := func(l int) float64 {
		i, _ := slices.BinarySearch(distinct, ranks[l])
		return vals[i]
	}
	k := len(levels) - 2
	ts := make([]float64, k)
	for i := range k {
		ts[i] = at(i)
	}
	ts = slices.Compact(ts) // sorted already: levels increase

	lo, hi := at(k), at(k+1)
	w := hi - lo
	if !(w > 0) {
		w = math.Max(math.Abs(lo), 1)
	}
	return ts, Histogram{Lo: lo - w/10, Hi: hi + w/10, Bins: histBins}, nil
}

// quantileRank is the 0-based rank of the empirical quantile at level
// l ∈ [0, 1] of n ≥ 1 values (stat.Empirical): the smallest i with
// i + 1 ≥ l·n (l·n computed in float64, as gonum does), i.e.
// max(1, ⌈l·n⌉) − 1. l·n ≤ n, since rounding is monotone.
func quantileRank(l float64, n int) int {
	return max(1, int(math.Ceil(l*float64(n)))) - 1
}

// orderStats sets out[i] to the order statistic of rank ranks[i] of x
// (0-based: rank 0 is the smallest), for ranks increasing and distinct in
// [0, |x|), x free of NaN; it reorders x. It is Hoare's quickselect
// (Hoare 1961, "Algorithm 65: Find") for several ranks at once: a
// three-way partition around the median of three values puts the values
// below, equal to and above the pivot in that order, the ranks in the
// middle part are the pivot, and the outer parts are searched for the
// ranks they hold (ranks in neither are dropped). Expected time is
// O(|x|·(1 + log |ranks|)); a part still unresolved after 2·log₂|x|
// partitions is sorted instead, which bounds the worst case by a sort's
// O(|x| log |x|). ctx is checked at every partition of 2¹⁶ values or more
// (a few milliseconds apart).
func orderStats(ctx context.Context, x []float64, ranks []int, out []float64) error {
	return selectRanks(ctx, x, 0, ranks, out, 2*bits.Len(uint(len(x))))
}

// selectRanks is orderStats on the part x of the whole, which starts at
// index off, with depth partitions left.
func selectRanks(ctx context.Context, x []float64, off int, ranks []int, out []float64, depth int) error {
	for len(ranks) > 0 {
		if len(x) <= 32 || depth == 0 {
			slices.Sort(x)
			for i, r := range ranks {
				out[i] = x[r-off]
			}
			return nil
		}
		if len(x) >= 1<<16 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		depth--
		p := median3(x[0], x[len(x)/2], x[len(x)-1])
		lt, gt := partition3(x, p)
		a := sort.SearchInts(ranks, off+lt) // ranks[:a] lie below the pivot
		b := sort.SearchInts(ranks, off+gt) // ranks[a:b] are the pivot
		for i := a; i < b; i++ {
			out[i] = p
		}
		if err := selectRanks(ctx, x[:lt], off, ranks[:a], out[:a], depth); err != nil {
			return err
		}
		x, off, ranks, out = x[gt:], off+gt, ranks[b:], out[b:]
	}
	return nil
}

// median3 is the median of a, b and c.
func median3(a, b, c float64) float64 {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}

// partition3 reorders x so that x[:lt] < p, x[lt:gt] == p and x[gt:] > p
// (Dijkstra's Dutch national flag).
func partition3(x []float64, p float64) (lt, gt int) {
	lt, i, gt := 0, 0, len(x)
	for i < gt {
		switch v := x[i]; {
		case v < p:
			x[lt], x[i] = v, x[lt]
			lt++
			i++
		case v > p:
			gt--
			x[gt], x[i] = v, x[gt]
		default:
			i++
		}
	}
	return lt, gt
}
