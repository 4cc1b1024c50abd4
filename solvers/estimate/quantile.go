package estimate

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Grid is the geometric grid c_j = 2^{j/PerOctave}, j = Lo·PerOctave, …,
// Hi·PerOctave, on which Quantile answers: 2^Lo to 2^Hi with PerOctave
// points per doubling. The grid is public (it does not depend on the
// data), so releasing a grid point releases only the mechanism's choice.
type Grid struct {
	Lo, Hi    int
	PerOctave int
}

// DefaultGrid covers 2⁻⁴⁰ to 2⁶⁰ (about 10⁻¹² to 10¹⁸) with eight points
// per doubling (801 points, each 9.05% above the last; a factor 10 spans
// at least 26 steps).
var DefaultGrid = Grid{Lo: -40, Hi: 60, PerOctave: 8}

// Values lists the grid's points in increasing order.
func (g Grid) Values() []float64 {
	var out []float64
	for j := g.Lo * g.PerOctave; j <= g.Hi*g.PerOctave; j++ {
		out = append(out, math.Exp2(float64(j)/float64(g.PerOctave)))
	}
	return out
}

// StepsIn is the least number of grid points in [c, f·c] for any c
// between the grid's ends with f·c below its top: ⌊PerOctave·log₂ f⌋ (26
// for f = 10 on DefaultGrid).
func (g Grid) StepsIn(f float64) int {
	return int(math.Floor(float64(g.PerOctave)*math.Log2(f) + 1e-12))
}

// ThresholdShare is ε₁/β, the share of Quantile's bounded range β spent
// on the threshold's noise; each query's is ε₂ = (1 − ThresholdShare)β/2,
// so that ε₁ + 2ε₂ = β. 0.45 keeps the data-free bound on passing ten
// times the quantile, HighFail(ρ, 26), below 0.0066 at every ρ (0.0059 at
// ρ = 0.025; it rises to its limit 0.00655 as ρ → 0), and leaves the
// queries as much as that allows (their noise sets how early the scan may
// stop).
const ThresholdShare = 0.45

// MinRho is the least ρ Quantile, its laws and its bounds take: ρ at
// which the threshold noise's span U = ⌈20·ln 10/ε₁⌉ (thresholdSpan) is
// 10⁷ counts, ε₁ = ThresholdShare·√(8ρ). Below it the noises' scale 1/ε₁
// passes 2·10⁵ rows, and the bounds' sums over U terms (HighFail, LowFail,
// TopRank) would take seconds to minutes; at ρ → 0, U overflows an int64.
var MinRho = math.Pow(20*math.Ln10/(1e7*ThresholdShare), 2) / 8

// QuantileNoise is the noise of [Quantile] at ρ: β = √(8ρ), the threshold
// noise's rate ε₁ = ThresholdShare·β and each query noise's rate ε₂ =
// (β − ε₁)/2. A noise of rate ε is geometric on {0, 1, 2, …}:
// P(ν ≥ m) = e^{−εm}.
type QuantileNoise struct {
	Beta, Eps1, Eps2 float64
}

// NoiseFor is Quantile's noise at ρ (QuantileNoise).
func NoiseFor(rho float64) QuantileNoise {
	b := math.Sqrt(8 * rho)
	e1 := ThresholdShare * b
	return QuantileNoise{Beta: b, Eps1: e1, Eps2: (b - e1) / 2}
}

// ratios are the geometric noises' ratios p₁ = e^{−ε₁}, p₂ = e^{−ε₂}.
func (nz QuantileNoise) ratios() (p1, p2 float64) {
	return math.Exp(-nz.Eps1), math.Exp(-nz.Eps2)
}

// Rank is the rank r = ⌈q·n⌉ (in [1, n]) of the q-quantile of n values:
// the r-th smallest, x₍ᵣ₎, is what Quantile estimates.
func Rank(q float64, n int) int {
	return min(n, max(1, int(math.Ceil(q*float64(n)-1e-9))))
}

// Quantile returns a point of the grid g near the q-quantile x₍ᵣ₎ of xs, r =
// ⌈q·n⌉, by AboveThreshold over the grid's increasing points (Durfee 2023,
// "Unbounded differentially private quantile and maximum estimation",
// NeurIPS), with one-sided noise: with ν₀ drawn once and ν_j afresh for
// each point, geometric of rates ε₁ and ε₂ (NoiseFor(ρ)), it releases the
// first c_j, in increasing order, with
//
//	#{i: x_i ≤ c_j} + ν_j ≥ r + ν₀,
//
// and the grid's top if none. A NaN counts as +Inf.
//
// Privacy: replacing one value moves the counts of a contiguous run of
// points by 1, all in the same direction (monotone queries); since
// P(ν₀ = u − 1) ≤ e^{ε₁}P(ν₀ = u) and P(ν ≥ m − 1) ≤ e^{ε₂}P(ν ≥ m) for
// all u, m, the log-ratio of any output's probabilities between the two
// datasets lies in [−(ε₁ + ε₂), ε₂] or in [−ε₂, ε₁ + ε₂], a range of width
// ε₁ + 2ε₂ = β: the mechanism is β-bounded-range (Durfee & Rogers 2019),
// hence β²/8 = ρ-zCDP under replace-one (Cesar & Rogers 2021, Lemma 3.2).
// The derivation is in the package documentation; TestQuantileBoundedRange
// checks it on enumerated laws.
//
// How it fails: the scan halts for certain once the counts reach r + ν₀,
// so the release rarely runs far above x₍ᵣ₎ whatever lies above the data:
// P(release > f·x₍ᵣ₎) ≤ HighFail(ρ, g.StepsIn(f)) for every dataset, n and
// q. It can stop early (below x₍ᵣ₎) where the counts come within a few
// 1/ε₂ of r; QuantileLaw gives the exact law on given values.
func Quantile(xs []float64, q float64, g Grid, rho float64, rng *rand.Rand) (float64, error) {
	if err := checkQuantile(xs, q, g, rho); err != nil {
		return math.NaN(), err
	}
	r := int64(Rank(q, len(xs)))
	p1, p2 := NoiseFor(rho).ratios()
	thr := r + geometric(p1, rng)
	vals := g.Values()
	counts := countsAtMost(xs, vals)
	for j, c := range vals {
		if int64(counts[j])+geometric(p2, rng) >= thr {
			return c, nil
		}
	}
	return vals[len(vals)-1], nil
}

// countsAtMost returns counts[j] = #{i : xs[i] ≤ vals[j]} (a NaN counted
// as +Inf) for vals in increasing order: each value's first grid point at
// or above it found by binary search, then the running sums — the counts
// a scan of xs sorted gives, without sorting (n·log₂|vals| comparisons
// where the sort made n·log₂ n and moved every value).
func countsAtMost(xs, vals []float64) []int {
	counts := make([]int, len(vals)+1) // the last: values above every point
	for _, x := range xs {
		if math.IsNaN(x) {
			x = math.Inf(1)
		}
		lo, hi := 0, len(vals) // the first j with x ≤ vals[j] lies in [lo, hi]
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if vals[mid] < x {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		counts[lo]++
	}
	for j := 1; j < len(vals); j++ {
		counts[j] += counts[j-1]
	}
	return counts[:len(vals)]
}

func checkQuantile(xs []float64, q float64, g Grid, rho float64) error {
	switch {
	case !(q > 0 && q < 1):
		return fmt.Errorf("estimate: quantile %g is not in (0, 1)", q)
	case !(rho > 0) || math.IsInf(rho, 1):
		return fmt.Errorf("estimate: ρ = %g is not a finite ρ > 0", rho)
	case rho < MinRho:
		return fmt.Errorf("estimate: ρ = %g is below the quantile's least ρ, %g", rho, MinRho)
	case len(xs) == 0:
		return errors.New("estimate: no values")
	case g.PerOctave < 1 || g.Hi < g.Lo:
		return fmt.Errorf("estimate: grid %+v is empty", g)
	}
	return nil
}

// sortedValues is xs sorted, a NaN as +Inf.
func sortedValues(xs []float64) []float64 {
	s := make([]float64, len(xs))
	for i, x := range xs {
		if math.IsNaN(x) {
			x = math.Inf(1)
		}
		s[i] = x
	}
	slices.Sort(s)
	return s
}

// geometric is ⌊ln U / ln p⌋, U uniform on (0, 1]: P(k) = (1 − p)p^k on
// {0, 1, …}, P(ν ≥ m) = p^m.
func geometric(p float64, rng *rand.Rand) int64 {
	u := 1 - rng.Float64()
	return int64(math.Floor(math.Log(u) / math.Log(p)))
}

// geomTail is P(ν ≥ m) = p^{max(m, 0)}.
func geomTail(p float64, m int64) float64 {
	if m <= 0 {
		return 1
	}
	return math.Pow(p, float64(m))
}

// geomPMF is P(ν = u) = (1 − p)p^u, u ≥ 0.
func geomPMF(p float64, u int64) float64 {
	return (1 - p) * math.Pow(p, float64(u))
}

// thresholdSpan is the U with P(ν₀ > U) = p₁^{U+1} ≤ 10⁻²⁰.
func thresholdSpan(eps1 float64) int64 {
	return int64(math.Ceil(20 * math.Ln10 / eps1))
}

// Law is the exact output law of Quantile on given values: P[j] is the
// probability that the release is Values[j] (the last point includes the
// runs that never halt). Values is the grid's points, Counts[j] = #{i: x_i
// ≤ Values[j]}, R the rank r and Q the true quantile x₍ᵣ₎. The sum over
// the threshold's noise is cut at ν₀ ≤ U with P(ν₀ > U) ≤ 10⁻²⁰, so each
// P[j] is exact to within 10⁻²⁰ plus rounding.
type Law struct {
	Values []float64
	Counts []int
	P      []float64
	R      int
	Q      float64
}

// QuantileLaw enumerates the output law of Quantile(xs, q, g, ρ, ·):
//
//	P(release = c_k) = Σ_u P(ν₀ = u) · Π_{j<k} P(ν < r + u − n_j) · P(ν ≥ r + u − n_k),
//
// n_j the count at c_j (plus, at the top, the mass of never halting).
func QuantileLaw(xs []float64, q float64, g Grid, rho float64) (Law, error) {
	if err := checkQuantile(xs, q, g, rho); err != nil {
		return Law{}, err
	}
	s := sortedValues(xs)
	n := len(s)
	r := Rank(q, n)
	law := Law{Values: g.Values(), R: r, Q: s[r-1]}
	law.Counts = make([]int, len(law.Values))
	i := 0
	for j, c := range law.Values {
		for i < n && s[i] <= c {
			i++
		}
		law.Counts[j] = i
	}
	law.P = make([]float64, len(law.Values))
	nz := NoiseFor(rho)
	p1, p2 := nz.ratios()
	span := thresholdSpan(nz.Eps1)
	// tail[m − lo] = P(ν ≥ m) for m = r + u − n_j in [r − n, r + span].
	lo := int64(r - n)
	tail := make([]float64, int64(n)+span+1)
	for k := range tail {
		tail[k] = geomTail(p2, lo+int64(k))
	}
	last := len(law.P) - 1
	for u := range span + 1 {
		cont := geomPMF(p1, u)
		for j, c := range law.Counts {
			b := tail[int64(r)+u-int64(c)-lo]
			law.P[j] += cont * b
			cont *= 1 - b
			if cont < 1e-300 {
				cont = 0
				break
			}
		}
		law.P[last] += cont
	}
	return law, nil
}

// Above is P(release > x), Below P(release < x).
func (l Law) Above(x float64) float64 {
	var s float64
	for j, c := range l.Values {
		if c > x {
			s += l.P[j]
		}
	}
	return s
}

// Below is P(release < x).
func (l Law) Below(x float64) float64 {
	var s float64
	for j, c := range l.Values {
		if c < x {
			s += l.P[j]
		}
	}
	return s
}

// Median is the smallest grid point at which the law's CDF reaches ½.
func (l Law) Median() float64 {
	var s float64
	for j, p := range l.P {
		s += p
		if s >= 0.5 {
			return l.Values[j]
		}
	}
	return l.Values[len(l.Values)-1]
}

// HighFail bounds, for every dataset, n and q, the probability that
// Quantile at ρ passes L consecutive grid points whose counts are all at
// least r without halting: each is passed with probability P(ν < r + ν₀ −
// n_j) ≤ P(ν < ν₀), so the bound is E[P(ν < ν₀ | ν₀)^L] = Σ_u P(ν₀ = u)·
// (1 − p₂^u)^L. The release exceeds f·x₍ᵣ₎ only if it passed every grid
// point of [x₍ᵣ₎, f·x₍ᵣ₎], at least g.StepsIn(f) of them:
// P(release > f·x₍ᵣ₎) ≤ HighFail(ρ, g.StepsIn(f)).
func HighFail(rho float64, L int) float64 {
	nz := NoiseFor(rho)
	p1, p2 := nz.ratios()
	span := thresholdSpan(nz.Eps1)
	s := math.Pow(p1, float64(span+1)) // the cut tail, counted as passing
	for u := range span + 1 {
		s += geomPMF(p1, u) * math.Pow(1-geomTail(p2, u), float64(L))
	}
	return s
}

// TopRank is the least m ≥ 0 such that a grid point whose count is r + m
// is passed with probability at most fail: P(ν < ν₀ − m) ≤ fail, where
// P(ν < ν₀ − m) = Σ_u P(ν₀ = u)·(1 − p₂^{u−m}) over u > m. Asked for rank
// r ≤ n − m, Quantile releases a point above the first grid point at or
// above the largest value with probability at most fail, on any data.
// It reads ρ ≥ MinRho.
func TopRank(rho, fail float64) int {
	nz := NoiseFor(rho)
	p1 := math.Exp(-nz.Eps1)
	span := thresholdSpan(nz.Eps1)
	// P(ν < ν₀ − m) = Σ_{u>m} (1−p₁)p₁^u (1 − p₂^{u−m}) sums to
	// p₁^{m+1}·(1−p₂)/(1−p₁p₂); the tail p₁^{U+1} ≤ 10⁻²⁰ past the span U
	// is counted as passing, as HighFail counts it.
	c := math.Expm1(-nz.Eps2) / math.Expm1(-nz.Eps1-nz.Eps2)
	tail := math.Pow(p1, float64(span+1))
	pass := func(m int64) float64 { return math.Pow(p1, float64(m+1))*c + tail }
	// pass decreases in m: the least m with pass(m) ≤ fail (at most the
	// span), from the logarithm's estimate and a step either way for its
	// rounding.
	m := int64(0)
	if est := math.Ceil(math.Log(fail/c)/math.Log(p1)) - 1; est > 0 {
		m = int64(min(est, float64(span)))
	}
	for m > 0 && pass(m-1) <= fail {
		m--
	}
	for m < span && pass(m) > fail {
		m++
	}
	return int(m)
}

// EmptyStretch is the stretch of grid LowFail reads: 100 points, 12.5
// octaves of DefaultGrid.
const EmptyStretch = 100

// LowFail is the probability that Quantile at ρ, asked for rank r, stops
// on one of L consecutive grid points whose counts are all 0 — a stretch of
// the grid below every value, which a grid spanning 2⁻⁴⁰ … 2⁶⁰ holds below
// data of any scale: 1 − Σ_u p₁(u)·(1 − p₂^{r+u})^L. It reads n, q (through
// r) and ρ only, so it can be said of a run without reading its data; near
// 1, the release says nothing of the data's scale (it stops below them).
func LowFail(rho float64, r, L int) float64 {
	nz := NoiseFor(rho)
	p1, p2 := nz.ratios()
	span := thresholdSpan(nz.Eps1)
	s := math.Pow(p1, float64(span+1)) // the cut tail, counted as passing
	for u := range span + 1 {
		s += geomPMF(p1, u) * math.Pow(1-geomTail(p2, int64(r)+u), float64(L))
	}
	return 1 - s
}
