package accountant

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// pmf is a discretised privacy loss distribution: mass probs[i] at the
// privacy loss (lower + i)·h, and mass inf at +∞ (dp_accounting's
// DensePLDPmf).
type pmf struct {
	h     float64
	lower int
	probs []float64
	inf   float64
}

// deltaForEps is the ε'-hockey-stick divergence of the distribution,
// δ(ε') = inf + Σ_{ℓ > ε'} (1 − e^{ε'−ℓ}) p_ℓ: the δ for which a mechanism
// with this privacy loss distribution is (ε', δ)-DP (Sommer et al. 2019,
// Observation 1 of dp_accounting's supplementary notes).
func (p *pmf) deltaForEps(eps float64) float64 {
	d := p.inf
	for i, pr := range p.probs {
		l := float64(p.lower+i) * p.h
		if l > eps && pr > 0 {
			d += -math.Expm1(eps-l) * pr
		}
	}
	return math.Min(1, d)
}

// epsForDelta is the smallest ε' ≥ 0 with deltaForEps(ε') ≤ δ (+Inf when
// the mass at +∞ exceeds δ), by dp_accounting's _get_epsilon_for_delta: on
// the interval between two consecutive losses δ(ε') = U − e^{ε'}L with U,
// L the masses of μ_upper and μ_lower above it, so ε' = ln((U − δ)/L).
// L = Σ e^{−ℓ}p_ℓ is kept as its logarithm: past ℓ ≈ 745 (ε' in the
// hundreds of thousands, at a tiny σ) e^{−ℓ} underflows to 0, which made
// L = 0 and the answer the first loss with U ≥ δ, above the exact ε'.
func (p *pmf) epsForDelta(delta float64) float64 {
	if p.inf > delta {
		return math.Inf(1)
	}
	up, logLo := p.inf, math.Inf(-1)
	for i := len(p.probs) - 1; i >= 0; i-- {
		l := float64(p.lower+i) * p.h
		if up > delta && !math.IsInf(logLo, -1) && math.Log(up-delta)-logLo >= l {
			break
		}
		pr := p.probs[i]
		up += pr
		if pr > 0 {
			logLo = logAdd(logLo, math.Log(pr)-l)
		}
		if up >= delta && math.IsInf(logLo, -1) {
			return math.Max(0, l)
		}
	}
	if up <= delta || math.Log(up-delta) <= logLo {
		return 0
	}
	return math.Max(0, math.Log(up-delta)-logLo)
}

// selfCompose returns the distribution of the sum of T independent copies
// (the privacy loss of T-fold composition), by FFT with the tails truncated
// as dp_accounting's DensePLDPmf.self_compose with tail_mass_truncation τ:
// Chernoff bounds at 40 orders give an index window outside which the
// composed mass is at most τ/2 on each side; the FFT of a length L ≥ the
// window (L = 2^a 3^b 5^c) computes the window's masses plus the
// wrapped-around (non-negative) mass from outside it, and τ is added to the
// mass at +∞. Every δ(ε') of the result is an upper bound on the exact
// composition's (moving mass to +∞ only raises δ, the wrapped mass only
// adds), and exceeds it by at most 2τ.
func (p *pmf) selfCompose(T int, tau float64) (*pmf, error) {
	if T < 1 {
		return nil, fmt.Errorf("accountant: composition count %d < 1", T)
	}
	if T == 1 {
		return p, nil
	}
	n := len(p.probs)
	lo, hi := chernoffWindow(p.probs, T, tau)
	outLen := hi - lo + 1
	L := fastLen(max(outLen, n))
	if L > maxFFTLen {
		return nil, fmt.Errorf("%w: the composed privacy loss distribution needs %d grid points (more than %d); use a coarser discretisation", ErrGridTooLarge, L, maxFFTLen)
	}
	seq := make([]float64, L)
	copy(seq, p.probs)
	f := fourier.NewFFT(L)
	c := f.Coefficients(nil, seq)
	for k, v := range c {
		c[k] = cpow(v, T)
	}
	f.Sequence(seq, c)
	out := make([]float64, outLen)
	inv := 1 / float64(L)
	for k := range out {
		v := seq[(lo+k)%L] * inv
		if v > 0 { // FFT rounding leaves ±1e−17·max; a negative mass is 0
			out[k] = v
		}
	}
	// Mass at +∞ after T compositions: 1 − (1 − inf)^T.
	inf := -math.Expm1(float64(T)*math.Log1p(-p.inf)) + tau
	return &pmf{h: p.h, lower: p.lower*T + lo, probs: out, inf: math.Min(1, inf)}, nil
}

// ErrGridTooLarge is the error of a PLD computation whose grid would exceed
// the package's memory caps (a privacy loss spanning a huge range: tiny σ,
// large q or T).
var ErrGridTooLarge = errors.New("accountant: PLD grid too large")

// maxFFTLen caps the FFT length (2²² points, about 200 MB of float64s,
// complex coefficients and the FFT's work space together).
const maxFFTLen = MaxGridPoints

// MaxGridPoints caps the PLD accountant's grids: the points of one step's
// privacy loss and the length of the composition's FFT.
const MaxGridPoints = 1 << 22

// chernoffWindow is dp_accounting's compute_self_convolve_bounds: index
// bounds [lo, hi] of the T-fold self-convolution of probs (indices 0..T(n−1))
// outside which the mass is at most τ/2 on each side, by the Chernoff bound
// P(S ≥ a) ≤ e^{−λa} M(λ)^T at λ = ±1/n, …, ±20/n (M the moment generating
// function of the index).
func chernoffWindow(probs []float64, T int, tau float64) (lo, hi int) {
	n := len(probs)
	hi = (n - 1) * T
	if tau <= 0 {
		return 0, hi
	}
	lt := math.Log(2 / tau)
	for k := -20; k <= 20; k++ {
		if k == 0 {
			continue
		}
		lam := float64(k) / float64(n)
		// ln M(λ) = ln Σ p_i e^{iλ}; e^{iλ} stays within [e^{−20}, e^{20}].
		r, w := math.Exp(lam), 1.0
		var s float64
		for _, pr := range probs {
			s += pr * w
			w *= r
		}
		lm := math.Log(s)
		b := (float64(T)*lm + lt) / lam
		if math.IsNaN(b) || math.IsInf(b, 0) {
			continue
		}
		if k > 0 {
			hi = min(hi, int(math.Ceil(b)))
		} else {
			lo = max(lo, int(math.Floor(b)))
		}
	}
	if lo > hi {
		lo = hi
	}
	return lo, hi
}

// fastLen is the smallest 2^a 3^b 5^c ≥ m (FFTPACK's fast lengths) that
// gonum's FFTPACK can factor: it splits a length into factors 4, 2, 3 and 5
// and keeps at most [maxFFTFactors] of them (its factor array has 15 slots,
// two of them for bookkeeping, as in the original FFTPACK), and panics on a
// length with more (3¹⁴ = 4782969 does).
func fastLen(m int) int {
	best := math.MaxInt
	for p5, c := 1, 0; p5 < best; p5, c = p5*5, c+1 {
		for p3, b := p5, 0; p3 < best; p3, b = p3*3, b+1 {
			p, a := p3, 0
			for p < m {
				p *= 2
				a++
			}
			if fftFactors(a, b, c) <= maxFFTFactors {
				best = min(best, p)
			}
			if p3 > math.MaxInt/3 {
				break
			}
		}
		if p5 > math.MaxInt/5 {
			break
		}
	}
	return best
}

// maxFFTFactors is the most factors gonum's FFTPACK keeps for one length.
const maxFFTFactors = 13

// fftFactors is the number of factors FFTPACK splits 2^a 3^b 5^c into:
// ⌊a/2⌋ fours, a mod 2 twos, b threes and c fives.
func fftFactors(a, b, c int) int { return a/2 + a%2 + b + c }

// cpow is z^T by binary powering (log₂T complex multiplications, so the
// relative error stays ~log₂T ulps where cmplx.Pow's exp(T ln z) loses
// T·|arg z| ulps).
func cpow(z complex128, T int) complex128 {
	r := complex(1, 0)
	for T > 0 {
		if T&1 == 1 {
			r *= z
		}
		z *= z
		T >>= 1
	}
	return r
}
