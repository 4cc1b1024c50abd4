package estimate

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"dpso/solvers/noise"
)

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
	// Flags say, one sentence each, which release failed or would have
	// made the prescription impossible, and what was used instead
	// (post-processing of the releases) or why nothing could be; empty
	// when none.
	Flags []string
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
