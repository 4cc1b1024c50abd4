package accountant

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

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

// epsForDelta is the smallest ε' ≥ 0 with δ(ε') ≤ δ, where δ(ε') = inf +
// Σ_{ℓ > ε'} (1 − e^{ε'−ℓ}) p_ℓ is the ε'-hockey-stick divergence (+Inf
// when the mass at +∞ exceeds δ), by dp_accounting's _get_epsilon_for_delta: on
// the interval between two consecutive losses δ(ε') = U − e^{ε'}L with U,
// L the masses of μ_upper and μ_lower above it, so ε' = ln((U − δ)/L).
// L = Σ e^{−ℓ}p_ℓ is kept as its logarithm: past ℓ ≈ 745 (ε' in the
// hundreds of thousands, at a tiny σ) e^{−ℓ} underflows to 0, which made
// L = 0 and the answer the first loss with U ≥ δ, above the exact ε'.
//
// The scan keeps L relative to the current loss, B = e^{ℓ_i}·L = Σ_{j>i}
// p_j e^{−(j−i)h}, updated as B ← e^{−h}(B + p_{i+1}), so that a step costs
// a multiplication and an addition instead of a logarithm and an
// exponential; B ≤ 1, and where it falls below 10⁻²⁵⁰ (masses near
// float64's underflow) the scan is redone in logarithms (epsForDeltaLog).
func (p *pmf) epsForDelta(delta float64) float64 {
	if p.inf > delta {
		return math.Inf(1)
	}
	n := len(p.probs)
	eh := math.Exp(-p.h)
	up, B := p.inf, 0.0
	pos := false // a positive mass above the current loss
	for i := n - 1; i >= 0; i-- {
		if i < n-1 {
			B = eh * (B + p.probs[i+1])
		}
		if pos && B < 1e-250 {
			return p.epsForDeltaLog(delta)
		}
		l := float64(p.lower+i) * p.h
		if up > delta && pos && up-delta >= B {
			return math.Max(0, l+math.Log((up-delta)/B))
		}
		pr := p.probs[i]
		up += pr
		pos = pos || pr > 0
		if up >= delta && !pos {
			return math.Max(0, l)
		}
	}
	if up <= delta || !pos {
		return 0
	}
	// Every loss above ε': L = (B + p_0)·e^{−ℓ_0}.
	lnLo := math.Log(B+p.probs[0]) - float64(p.lower)*p.h
	if math.Log(up-delta) <= lnLo {
		return 0
	}
	return math.Max(0, math.Log(up-delta)-lnLo)
}

// epsForDeltaLog is epsForDelta's scan with L kept as its logarithm.
func (p *pmf) epsForDeltaLog(delta float64) float64 {
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

// selfComposeIn returns the distribution of the sum of T independent copies
// (the privacy loss of T-fold composition), by FFT with the tails truncated
// as dp_accounting's DensePLDPmf.self_compose with tail_mass_truncation τ:
// Chernoff bounds (chernoffWindowHint) give an index window outside which the
// composed mass is at most τ/2 on each side; the FFT of a length L ≥ the
// window (L = 2^a 3^b 5^c) computes the window's masses plus the
// wrapped-around (non-negative) mass from outside it, and τ is added to the
// mass at +∞. Every δ(ε') of the result is an upper bound on the exact
// composition's (moving mass to +∞ only raises δ, the wrapped mass only
// adds), and exceeds it by at most 2τ.
// The FFT comes from s and the result lies in s's output buffer number
// slot (s nil: buffers of its own).
func (p *pmf) selfComposeIn(T int, tau float64, s *pldScratch, slot int) (*pmf, error) {
	if T < 1 {
		return nil, fmt.Errorf("accountant: composition count %d < 1", T)
	}
	if T == 1 {
		return p, nil
	}
	var hint *[2]int
	if s != nil {
		hint = &s.chernoff[slot]
	}
	lo, hi, L := composeWindow(p.probs, T, tau, hint)
	outLen := hi - lo + 1
	if L > maxFFTLen {
		return nil, fmt.Errorf("%w: the composed privacy loss distribution needs %d grid points (more than %d); use a coarser discretisation", ErrGridTooLarge, L, maxFFTLen)
	}
	if err := s.err(); err != nil {
		return nil, err
	}
	w := s.fft(L)
	// The sequence, its inverse transform and the result share one buffer
	// (the FFT copies its input before transforming it).
	seq, c := s.output(slot, L), w.c
	copy(seq, p.probs)
	clear(seq[len(p.probs):])
	w.f.Coefficients(c, seq)
	for k, v := range c {
		c[k] = cpow(v, T)
	}
	if err := s.err(); err != nil {
		return nil, err
	}
	w.f.Sequence(seq, c)
	// out[k] = seq[(lo + k) mod L]: rotated left by lo mod L in place
	// (three reversals), then cut to the window.
	if r := lo % L; r > 0 {
		slices.Reverse(seq[:r])
		slices.Reverse(seq[r:])
		slices.Reverse(seq)
	}
	out := seq[:outLen]
	inv := 1 / float64(L)
	// FFT rounding leaves ±1e−17·max; a negative mass is 0 (a comparison,
	// not math.Max, which is a call a point on amd64).
	for k, v := range out {
		if v *= inv; v < 0 {
			v = 0
		}
		out[k] = v
	}
	// Mass at +∞ after T compositions: 1 − (1 − inf)^T.
	inf := -math.Expm1(float64(T)*math.Log1p(-p.inf)) + tau
	return &pmf{h: p.h, lower: p.lower*T + lo, probs: out, inf: math.Min(1, inf)}, nil
}

// fftWork is an FFT of one length with its buffer of coefficients.
type fftWork struct {
	f *fourier.FFT
	c []complex128
}

// pldScratch is the working memory of a sequence of PLD computations (one
// calibration's, tens of them): the FFTs by length (setting one up
// computes its twiddle factors, and its buffers are megabytes) and the
// buffer of one step's discretisation, reused from one computation to the
// next; what a computation returns is never in it. Not safe for
// concurrent use; a nil *pldScratch allocates afresh.
type pldScratch struct {
	ffts [2]*fftWork // the two most recently used lengths, the latest first
	ds   []float64
	outs [2][]float64 // the composed masses, one per adjacency direction
	// chernoff is each direction's latest Chernoff window's best λ
	// (chernoffWindowHint's hint).
	chernoff [2][2]int
	// ctx, when set, cancels a computation between its stages and every
	// few thousand grid points (a computation on a large grid takes
	// seconds where the machine is loaded).
	ctx context.Context
}

// err is the context's error (nil without one).
func (s *pldScratch) err() error {
	if s == nil || s.ctx == nil {
		return nil
	}
	return s.ctx.Err()
}

func (s *pldScratch) fft(L int) *fftWork {
	if s == nil {
		return newFFTWork(L)
	}
	for i, w := range s.ffts {
		if w != nil && w.f.Len() == L {
			s.ffts[0], s.ffts[i] = w, s.ffts[0]
			return w
		}
	}
	w := newFFTWork(L)
	s.ffts[1], s.ffts[0] = s.ffts[0], w
	return w
}

func newFFTWork(L int) *fftWork {
	return &fftWork{f: fourier.NewFFT(L), c: make([]complex128, L/2+1)}
}

// output returns output buffer number slot, of length n.
func (s *pldScratch) output(slot, n int) []float64 {
	if s == nil {
		return make([]float64, n)
	}
	if cap(s.outs[slot]) < n {
		s.outs[slot] = make([]float64, n)
	}
	return s.outs[slot][:n]
}

// take returns probs for the caller to keep: one of s's output buffers
// is handed over (s allocates another at its next use), any other slice
// is copied (a fresh composition's 3.5 MB at dp-sgd's defaults is then
// neither copied nor faulted in twice).
func (s *pldScratch) take(probs []float64) []float64 {
	for i, o := range s.outs {
		if len(probs) > 0 && cap(o) > 0 && &o[:1][0] == &probs[0] {
			s.outs[i] = nil
			return probs
		}
	}
	return slices.Clone(probs)
}

// buffer returns the discretisation's buffer, of length n.
func (s *pldScratch) buffer(n int) []float64 {
	if s == nil {
		return make([]float64, n)
	}
	if cap(s.ds) < n {
		s.ds = make([]float64, n)
	}
	return s.ds[:n]
}

// composeWindow is selfComposeIn's window of indices [lo, hi] and its FFT
// length L, the window's search started from hint (nil: none; see
// chernoffWindowHint).
func composeWindow(probs []float64, T int, tau float64, hint *[2]int) (lo, hi, L int) {
	lo, hi = chernoffWindowHint(probs, T, tau, hint)
	return lo, hi, fastLen(max(hi-lo+1, len(probs)))
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

// chernoffWindowHint is the index window [lo, hi] of the T-fold
// self-convolution of probs (indices 0..T(n−1)) outside which the mass is
// at most τ/2 on each side, by the Chernoff bound P(S ≥ a) ≤ e^{−λa}M(λ)^T
// for λ > 0 (and P(S ≤ a) ≤ e^{−λa}M(λ)^T for λ < 0), M the moment
// generating function of one index: a ≥ (T ln M(λ) + ln(2/τ))/λ, the least
// over 32 values of λ on each side, |λ|·(n − 1) = 2^{−2}, 2^{−1.5}, …,
// 2^{13.5}. dp_accounting's compute_self_convolve_bounds takes the same
// bound at λ = ±1/n, …, ±20/n only, which on dp-sgd's grids (where the
// privacy loss's moment generating function is best bounded at |λ| of a
// few per unit of loss, hundreds of times 1/n) leaves a window two to three
// times wider than the bound allows, and the FFT that long. Any λ gives a
// valid window; a narrower one drops less rounding noise into the result
// and moves no mass the bound does not allow.
//
// The bound b(λ) = f(λ)/λ, f(λ) = T ln M(λ) + ln(2/τ), is quasiconvex in
// λ > 0 (f is convex, so {λ : f(λ) ≤ cλ} is an interval for every c), and
// likewise on the other side: its values at the 32 points fall and then
// rise, and a local minimum among them is the least. So not every λ is
// evaluated (each costs a pass over probs): the search starts at the
// hint's index (the previous window's best λ, which moves little from one
// σ to the next of a calibration, and not with the grid width, |λ|(n − 1)
// being λ per unit of loss times the loss's range), else at every eighth
// point, and evaluates neighbours four at a time until the best point
// evaluated has both neighbours evaluated and no better. hint (nil: none)
// is updated to the best indices (each plus one; 0: none).
func chernoffWindowHint(probs []float64, T int, tau float64, hint *[2]int) (lo, hi int) {
	n := len(probs)
	hi = (n - 1) * T
	if tau <= 0 || n < 2 {
		return 0, hi
	}
	lt := math.Log(2 / tau)
	top := float64(n - 1)
	for side := range 2 {
		// b[j] is the bound at index j (NaN: not evaluated; +Inf: no
		// bound), as an upper end on side 0 and as minus a lower end on
		// side 1, so that the least is the best on both.
		var b [chernoffOrders]float64
		for j := range b {
			b[j] = math.NaN()
		}
		eval := func(js []int) {
			var mu [4]float64
			var at [4]int
			k := 0
			for _, j := range js {
				if j < 0 || j >= chernoffOrders || !math.IsNaN(b[j]) || slices.Contains(at[:k], j) {
					continue
				}
				at[k], mu[k] = j, math.Exp2(float64(j-4)/2)/top
				k++
			}
			if k == 0 {
				return
			}
			for i := k; i < 4; i++ {
				mu[i] = mu[0] // a lane to spare
			}
			lm := sumExpDecay(probs, side == 0, mu)
			for i, j := range at[:k] {
				m := mu[i]
				var v float64
				if side == 0 {
					v = (float64(T)*(m*top+lm[i]) + lt) / m
				} else {
					v = (float64(T)*lm[i] + lt) / m
				}
				if math.IsNaN(v) || math.IsInf(v, 0) {
					v = math.Inf(1)
				}
				b[j] = v
			}
		}
		if hint != nil && hint[side] > 0 {
			j := hint[side] - 1
			eval([]int{j - 1, j, j + 1, j + 2})
		} else {
			eval([]int{3, 11, 19, 27})
		}
		unseen := func(j int) bool { return j >= 0 && j < chernoffOrders && math.IsNaN(b[j]) }
		var best int
		for {
			best = -1
			for j, v := range b {
				if !math.IsNaN(v) && (best < 0 || v < b[best]) {
					best = j
				}
			}
			if !unseen(best-1) && !unseen(best+1) {
				break // both neighbours evaluated (or off the grid), none better
			}
			eval([]int{best - 1, best + 1, best - 2, best + 2})
		}
		if hint != nil {
			hint[side] = best + 1
		}
		if v := b[best]; !math.IsInf(v, 1) {
			if side == 0 {
				hi = min(hi, int(math.Ceil(v)))
			} else {
				lo = max(lo, int(math.Floor(-v)))
			}
		}
	}
	if lo > hi {
		lo = hi
	}
	return lo, hi
}

// chernoffOrders is the number of λ chernoffWindowHint tries on each side.
const chernoffOrders = 32

// sumExpDecay returns ln Σ_k p_k e^{−μ_j k} for four μ_j at once (four
// independent chains in one pass), k counting from the last index down
// when fromTop, else from the first up.
func sumExpDecay(probs []float64, fromTop bool, mu [4]float64) (out [4]float64) {
	r0, r1, r2, r3 := math.Exp(-mu[0]), math.Exp(-mu[1]), math.Exp(-mu[2]), math.Exp(-mu[3])
	w0, w1, w2, w3 := 1.0, 1.0, 1.0, 1.0
	var s0, s1, s2, s3 float64
	if fromTop {
		for i := len(probs) - 1; i >= 0; i-- {
			pr := probs[i]
			s0 += pr * w0
			s1 += pr * w1
			s2 += pr * w2
			s3 += pr * w3
			w0 *= r0
			w1 *= r1
			w2 *= r2
			w3 *= r3
		}
	} else {
		for _, pr := range probs {
			s0 += pr * w0
			s1 += pr * w1
			s2 += pr * w2
			s3 += pr * w3
			w0 *= r0
			w1 *= r1
			w2 *= r2
			w3 *= r3
		}
	}
	return [4]float64{math.Log(s0), math.Log(s1), math.Log(s2), math.Log(s3)}
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
