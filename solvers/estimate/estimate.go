package estimate

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"dpso/solvers/noise"
)

// Grid is the geometric grid c_j = 2^{j/PerOctave}, j = ⌈Lo·PerOctave⌉, …,
// ⌊Hi·PerOctave⌋, on which Quantile answers: 2^Lo to 2^Hi with PerOctave
// points per doubling. The grid is public (it does not depend on the
// data), so releasing a grid point releases only the mechanism's choice.
type Grid struct {
	Lo, Hi    int
	PerOctave int
}

// DefaultGrid covers 2⁻⁴⁰ to 2⁶⁰ (about 10⁻¹² to 10¹⁸) with four points per
// doubling (401 points, each 19% above the last).
var DefaultGrid = Grid{Lo: -40, Hi: 60, PerOctave: 4}

// Values lists the grid's points in increasing order.
func (g Grid) Values() []float64 {
	var out []float64
	for j := g.Lo * g.PerOctave; j <= g.Hi*g.PerOctave; j++ {
		out = append(out, math.Exp2(float64(j)/float64(g.PerOctave)))
	}
	return out
}

// EMEps is the ε of the exponential mechanism that is ρ-zCDP as a
// bounded-range mechanism: ε = √(8ρ) (Cesar & Rogers 2021, Lemma 3.2).
func EMEps(rho float64) float64 { return math.Sqrt(8 * rho) }

// TopRank is the number m of values above the quantile that Quantile is
// asked for, so that the exponential mechanism at ε = EMEps(ρ) over a grid
// of size |G| lands at or below the largest value except with probability
// about fail: m = ⌈2(ln|G| + ln(1/fail))/ε⌉ (the exponential mechanism's
// utility guarantee, McSherry & Talwar 2007: the chosen point's utility is
// within (2/ε)(ln|G| + ln(1/fail)) of the best with probability 1 − fail).
func TopRank(rho float64, gridSize int, fail float64) int {
	return int(math.Ceil(2 * (math.Log(float64(gridSize)) + math.Log(1/fail)) / EMEps(rho)))
}

// Quantile returns a point of the grid g near the q-quantile of xs by the
// exponential mechanism: c_j with probability ∝ exp(ε·u_j/2), u_j =
// −|#{i: x_i ≤ c_j} − q·n|, ε = EMEps(ρ); ρ-zCDP under replace-one (a
// replaced value moves each count by at most 1). A NaN counts as +Inf
// (above every point). It samples by the Gumbel-max trick (the argmax of
// ε·u_j/2 + Gumbel noise has exactly that law).
func Quantile(xs []float64, q float64, g Grid, rho float64, rng *rand.Rand) (float64, error) {
	if !(q > 0 && q < 1) {
		return math.NaN(), fmt.Errorf("estimate: quantile %g is not in (0, 1)", q)
	}
	if !(rho > 0) || math.IsInf(rho, 1) {
		return math.NaN(), fmt.Errorf("estimate: ρ = %g is not a finite ρ > 0", rho)
	}
	if len(xs) == 0 {
		return math.NaN(), errors.New("estimate: no values")
	}
	sorted := make([]float64, len(xs))
	for i, x := range xs {
		if math.IsNaN(x) {
			x = math.Inf(1)
		}
		sorted[i] = x
	}
	slices.Sort(sorted)
	eps := EMEps(rho)
	target := q * float64(len(xs))
	best, bestScore := math.NaN(), math.Inf(-1)
	for _, c := range g.Values() {
		count := sort.SearchFloat64s(sorted, math.Nextafter(c, math.Inf(1))) // #{x ≤ c}
		u := -math.Abs(float64(count) - target)
		score := eps*u/2 + gumbel(rng)
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best, nil
}

// gumbel is a standard Gumbel variate −ln(−ln U), U uniform on (0, 1).
func gumbel(rng *rand.Rand) float64 {
	u := rng.Float64()
	for u == 0 {
		u = rng.Float64()
	}
	return -math.Log(-math.Log(u))
}

// ClippedMean is the Gaussian mechanism on the mean of xs clipped to
// [0, clip]: (1/n)Σ min(max(x_i, 0), clip) + N(0, σ²), σ = clip/(n√(2ρ))
// (sensitivity clip/n under replace-one; a NaN counts as clip), the noise
// drawn by g (exact on a lattice when g's Noise is, package
// dpso/solvers/noise). It returns the noisy mean and the noise's standard
// deviation (σ, or the lattice's σ̃ ≥ σ).
func ClippedMean(xs []float64, clip, rho float64, g *noise.Stream) (mean, sigma float64, err error) {
	if !(clip > 0) || math.IsInf(clip, 1) {
		return math.NaN(), math.NaN(), fmt.Errorf("estimate: clip %g is not a finite value > 0", clip)
	}
	if !(rho > 0) || math.IsInf(rho, 1) {
		return math.NaN(), math.NaN(), fmt.Errorf("estimate: ρ = %g is not a finite ρ > 0", rho)
	}
	if len(xs) == 0 {
		return math.NaN(), math.NaN(), errors.New("estimate: no values")
	}
	var s float64
	for _, x := range xs {
		switch {
		case math.IsNaN(x) || x > clip:
			x = clip
		case x < 0:
			x = 0
		}
		s += x
	}
	n := float64(len(xs))
	sigma = clip / (n * math.Sqrt(2*rho))
	return g.Gaussian(s/n, sigma), g.Noise.Sigma(sigma), nil
}

// SecondMoment is the Gaussian mechanism on the second-moment matrix of
// the n vectors row(0), …, row(n−1) of length d, each scaled to squared
// norm at most clip (ā = a·min(1, √(clip/‖a‖²)); a vector with a non-finite
// entry counts as 0): S = (1/n)Σ āāᵀ + Z with Z symmetric, its entries on
// and above the diagonal i.i.d. N(0, σ²), σ = clip/(n√ρ). It returns S and
// σ. ρ-zCDP under replace-one: replacing a vector changes the upper
// triangle by at most ‖āāᵀ − b̄b̄ᵀ‖_F/n ≤ √(‖ā‖⁴ + ‖b̄‖⁴)/n ≤ √2·clip/n in ℓ2.
// The noise is drawn by g, and the σ returned is its standard deviation
// (σ̃ ≥ σ on a lattice, as ClippedMean's).
func SecondMoment(row func(i int) []float64, n, d int, clip, rho float64, g *noise.Stream) (*mat.SymDense, float64, error) {
	if !(clip > 0) || math.IsInf(clip, 1) {
		return nil, math.NaN(), fmt.Errorf("estimate: clip %g is not a finite value > 0", clip)
	}
	if !(rho > 0) || math.IsInf(rho, 1) {
		return nil, math.NaN(), fmt.Errorf("estimate: ρ = %g is not a finite ρ > 0", rho)
	}
	if n <= 0 || d <= 0 {
		return nil, math.NaN(), fmt.Errorf("estimate: %d vectors of length %d", n, d)
	}
	const block = 256
	s := mat.NewSymDense(d, nil)
	buf := make([]float64, block*d)
	flush := func(m int) {
		if m > 0 {
			s.SymRankK(s, 1/float64(n), mat.NewDense(m, d, buf[:m*d]).T())
		}
	}
	m := 0
	for i := range n {
		a := row(i)[:d]
		dst := buf[m*d : (m+1)*d]
		var sq float64
		finite := true
		for _, v := range a {
			sq += v * v
			finite = finite && !math.IsNaN(v) && !math.IsInf(v, 0)
		}
		scale := 1.0
		switch {
		case !finite || math.IsInf(sq, 1):
			scale = 0
		case sq > clip:
			scale = math.Sqrt(clip / sq)
		}
		for j, v := range a {
			dst[j] = v * scale
			if scale == 0 {
				dst[j] = 0
			}
		}
		m++
		if m == block {
			flush(m)
			m = 0
		}
	}
	flush(m)
	sigma := clip / (float64(n) * math.Sqrt(rho))
	for i := range d {
		for j := i; j < d; j++ {
			s.SetSym(i, j, g.Gaussian(s.At(i, j), sigma))
		}
	}
	return s, g.Noise.Sigma(sigma), nil
}

// Extremes are the smallest and largest eigenvalues of a symmetric matrix
// (gonum's EigenSym).
func Extremes(s *mat.SymDense) (lo, hi float64, err error) {
	var eig mat.EigenSym
	if !eig.Factorize(s, false) {
		return math.NaN(), math.NaN(), errors.New("estimate: eigen-decomposition failed")
	}
	v := eig.Values(nil)
	return v[0], v[len(v)-1], nil
}

// Release is one statistic a private estimate released.
type Release struct {
	// What names the statistic ("c", "r̃_2", "β, μ", …).
	What string
	// Rho is its zCDP cost.
	Rho float64
	// Value is what was released (the grid point, the noisy mean, the
	// extreme eigenvalue).
	Value float64
	// Sigma is the Gaussian noise's standard deviation (NaN for the
	// exponential mechanism).
	Sigma float64
	// Method says how, with its citation.
	Method string
}

// Estimates are the constants of one dataset estimated under
// zCDP (scenarios.Instance.EstimatePrivately). None is a certified bound: a clipped mean is
// biased down by the mass above the clip, and a heavy tail admits no
// finite-sample upper confidence bound on a moment; the theorem's
// guarantee holds for a prescription built on them only if each true
// constant is at most its estimate.
type Estimates struct {
	// Rho is ρ₀, the sum of the releases' ρ (zCDP composition).
	Rho float64
	// Rows is the number of rows read.
	Rows int
	// Q is the quantile the clip was asked for, Clip the released grid
	// point c.
	Q, Clip float64
	// K is the run's moment order.
	K float64
	// R2, Rk, R2k are the estimates of r̃_2, r̃_k, r̃_2k (NaN when not
	// estimated: k = 2 for Rk, a flag gave it, or no solver reads it).
	R2, Rk, R2k float64
	// Beta and Mu are the estimates of β and μ (NaN when not estimated).
	Beta, Mu float64
	// Releases are the statistics released, in order.
	Releases []Release
}

// Summary lists the estimates in words ("r̃_2 = 12.3, β = 1.52"), each
// number by num.
func (e Estimates) Summary(num func(float64) string) string {
	var parts []string
	for _, v := range []struct {
		sym string
		x   float64
	}{{"r̃_2", e.R2}, {"r̃_k", e.Rk}, {"r̃_2k", e.R2k}, {"β", e.Beta}, {"μ", e.Mu}} {
		if !math.IsNaN(v.x) {
			parts = append(parts, v.sym+" = "+num(v.x))
		}
	}
	return strings.Join(parts, ", ")
}
