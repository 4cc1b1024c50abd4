package noise

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
)

// GridBits is the lattice's resolution: S = ⌈σ/γ⌉ lies in [2^GridBits,
// 2^(GridBits+1)], so γ ≤ σ·2^−GridBits.
const GridBits = 20

// Grid is the lattice of an exact draw at standard deviation σ > 0: the
// spacing γ = 2^e with σ/γ ∈ [2²⁰, 2²¹) (e = ⌊log₂σ⌋ − 20; γ is held at
// 2⁻¹⁰²², the smallest normal float64, for σ < 2⁻¹⁰⁰²), and S = ⌈σ/γ⌉, so
// that the noise's standard deviation is σ̃ = S·γ, the smallest multiple
// of γ at or above σ: σ ≤ σ̃ < σ·(1 + 2⁻²⁰). Both are exact (σ/γ and S·γ
// scale by a power of two).
func Grid(sigma float64) (gamma float64, s uint64) {
	_, e := math.Frexp(sigma) // σ = f·2^e, f ∈ [1/2, 1)
	e = max(e-GridBits-1, -1022)
	gamma = math.Ldexp(1, e)
	return gamma, uint64(math.Ceil(sigma / gamma))
}

// Tilde is σ̃ = S·γ, the standard deviation of an exact draw at σ
// ([Grid]).
func Tilde(sigma float64) float64 {
	gamma, s := Grid(sigma)
	return float64(s) * gamma
}

// Sampler draws Gaussian privacy noise for one stream (see the package
// documentation). The zero value draws floating-point noise; SetExact(true)
// makes it draw exact lattice noise. A Sampler is not safe for concurrent
// use.
type Sampler struct {
	exact bool
	n     normal
	// The grid of the latest exact draw's σ (a call draws every
	// coordinate at one σ): γ = 2^e and S.
	sigma, gamma float64
	e            int
	sc           uint64
}

// SetExact chooses exact lattice noise (on) or floating-point noise.
func (s *Sampler) SetExact(on bool) { s.exact = on }

// Exact reports whether s draws exact lattice noise.
func (s *Sampler) Exact() bool { return s.exact }

// Sigma is the standard deviation of the noise Add draws at σ: σ itself
// in floating point, σ̃ = [Tilde](σ) exactly (σ itself outside
// (0, 2¹⁰⁰⁰], as Add).
func (s *Sampler) Sigma(sigma float64) float64 {
	if !s.exact || !(sigma > 0 && sigma <= 0x1p1000) {
		return sigma
	}
	return Tilde(sigma)
}

// Add returns v plus Gaussian noise of standard deviation σ > 0 drawn from
// r: v + σ·r.NormFloat64() in floating point; exactly, round_γ(v + σ̃Z)
// with Z ~ N(0, 1) exact, σ̃ and γ from [Grid](σ). In exact mode a v that
// is not finite is returned as is (no lattice holds it), and σ outside
// (0, 2¹⁰⁰⁰] (where σ̃ could overflow) draws floating-point noise.
func (s *Sampler) Add(v, sigma float64, r *rand.Rand) float64 {
	if !s.exact {
		return v + sigma*r.NormFloat64()
	}
	return s.addExact(v, sigma, r)
}

// addExact is Add's exact draw.
func (s *Sampler) addExact(v, sigma float64, r *rand.Rand) float64 {
	if !(sigma > 0 && sigma <= 0x1p1000) {
		return v + sigma*r.NormFloat64()
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	if sigma != s.sigma {
		s.gamma, s.sc = Grid(sigma)
		_, s.e = math.Frexp(s.gamma) // γ = 2^(e−1)
		s.e--
		s.sigma = sigma
	}
	gamma, sc, e := s.gamma, s.sc, s.e
	switch a := math.Abs(v); {
	case a >= 0x1p52*gamma:
		// v is a multiple of γ (its last bit is worth ≥ γ): the lattice
		// point is v + m·γ, m the nearest integer to ±S(k + x), and its
		// float64 is that sum correctly rounded.
		return v + float64(s.offset(frac{}, sc, r))*gamma
	case a < 0x1p-1000*gamma:
		// v/γ would leave the normal range: its lattice offset is m, from
		// cf = v·2^−e held as v and the scale −e.
		return float64(s.offset(frac{v, -e}, sc, r)) * gamma
	}
	c := v / gamma // exact: γ is a power of two and 2⁻¹⁰⁰⁰ ≤ |c| < 2⁵²
	ci := math.Trunc(c)
	return (ci + float64(s.offset(frac{c - ci, 0}, sc, r))) * gamma
}

// frac is a number cf = w·2^scale in (−1, 1) held exactly: the fractional
// part of v/γ (scale 0), or v with the scale of 1/γ where v/γ is too small
// for a float64 to hold.
type frac struct {
	w     float64
	scale int
}

// offset draws Z ~ N(0, 1) exactly and returns m = ⌊cf + 1/2 + S·Z⌋, the
// nearest integer to cf + S·Z.
func (s *Sampler) offset(cf frac, sc uint64, r *rand.Rand) int64 {
	neg, k := s.n.draw(r)
	return roundOffset(cf, sc, neg, k, &s.n.x, &s.n.src)
}

// roundOffset is ⌊cf + 1/2 + Z·S⌋ for Z = ±(k + x), x the urand (its
// digits drawn from src as needed). With
// u = S(k + x) ≥ 0 and τ = 2 + cf + 1/2 (Z ≥ 0) or τ = 2 − cf − 1/2
// (Z < 0), τ ∈ (1/2, 7/2), it computes ⌊V⌋ for V = u + τ > 0: then
// m = ⌊V⌋ − 2 for Z ≥ 0, and for Z < 0, ⌊cf + 1/2 − u⌋ = −⌊u − cf − 1/2⌋ − 1
// = 1 − ⌊V⌋ (u − cf − 1/2 is an integer with probability 0). With X the
// first 64 bits of x and T = ⌊τ·2⁶⁴⌋, V·2⁶⁴ lies in [N, N + S + 1) for
// N = S·k·2⁶⁴ + S·X + T, so ⌊V⌋ = ⌊N/2⁶⁴⌋ as soon as N and N + S have the
// same high word; otherwise more bits of x decide ([floorSlow]).
func roundOffset(cf frac, sc uint64, neg bool, k uint64, x *urand, src *source) int64 {
	tauHi, tauLo := tauFixed(cf, neg)
	hi, lo := bits.Mul64(sc, x.word(0, src))
	var carry uint64
	lo, carry = bits.Add64(lo, tauLo, 0)
	hi, _ = bits.Add64(hi, tauHi, carry)
	hi += sc * k // S·k < 2⁶³: k ≥ 2⁴² has probability below e^{−2⁸³}
	var f int64
	if _, c := bits.Add64(lo, sc, 0); c == 0 {
		f = int64(hi)
	} else {
		f = floorSlow(cf, sc, neg, k, x, src)
	}
	if neg {
		return 1 - f
	}
	return f - 2
}

// tauFixed is ⌊τ·2⁶⁴⌋ as a 128-bit (hi, lo) for τ = 5/2 + cf (neg false)
// or τ = 3/2 − cf (neg true): with y = ±cf, it adds ⌊y·2⁶⁴⌋, which is
// ⌊|y|·2⁶⁴⌋ for y > 0 and −⌈|y|·2⁶⁴⌉ for y < 0.
func tauFixed(cf frac, neg bool) (hi, lo uint64) {
	y := cf.w
	hi, lo = 2, 1<<63 // 5/2
	if neg {
		y = -y
		hi = 1 // 3/2
	}
	if y == 0 {
		return hi, lo
	}
	f, e := math.Frexp(math.Abs(y)) // |y| = f·2^(e+scale), f ∈ [1/2, 1)
	m := uint64(f * (1 << 53))      // exact: |y| = m·2^(e+scale−53)
	var fl, ce uint64               // ⌊|y|·2⁶⁴⌋ and ⌈|y|·2⁶⁴⌉
	if sh := e + cf.scale - 53 + 64; sh >= 0 {
		fl = m << uint(sh) // < 2⁶⁴ since |y| < 1
		ce = fl
	} else if -sh < 64 {
		fl = m >> uint(-sh)
		ce = fl
		if m&(1<<uint(-sh)-1) != 0 {
			ce++
		}
	} else {
		fl, ce = 0, 1
	}
	var b uint64
	if y > 0 {
		lo, b = bits.Add64(lo, fl, 0)
		hi += b
	} else {
		lo, b = bits.Sub64(lo, ce, 0)
		hi -= b
	}
	return hi, lo
}

// floorSlow is ⌊V⌋ of [roundOffset] in exact big-integer arithmetic,
// drawing further digits of x until its first 64L bits decide it: with
// X_L their value and T_L = ⌊τ·2^{64L}⌋, V·2^{64L} lies in
// [N_L, N_L + S + 1) for N_L = S·k·2^{64L} + S·X_L + T_L. It is reached with
// probability about S/2⁶⁴ per draw (and starts at L = 1, so that it also
// answers every case the fast path decides, which the tests check).
func floorSlow(cf frac, sc uint64, neg bool, k uint64, x *urand, src *source) int64 {
	const prec = 2200 // holds τ exactly: cf's bits reach 2⁻²¹⁰⁰ at most
	y := new(big.Float).SetPrec(prec).SetFloat64(cf.w)
	y.SetMantExp(y, cf.scale)
	tau := new(big.Float).SetPrec(prec)
	if neg {
		tau.SetFloat64(1.5).Sub(tau, y)
	} else {
		tau.SetFloat64(2.5).Add(tau, y)
	}
	S := new(big.Int).SetUint64(sc)
	xl := new(big.Int)
	for l := 1; ; l++ {
		xl.Lsh(xl, 64)
		xl.Or(xl, new(big.Int).SetUint64(x.word(l-1, src)))
		shift := uint(64 * l)
		t, _ := new(big.Float).SetPrec(prec).SetMantExp(tau, int(shift)).Int(nil) // ⌊τ·2^{64L}⌋, τ > 0
		n := new(big.Int).Lsh(new(big.Int).Mul(S, new(big.Int).SetUint64(k)), shift)
		n.Add(n, new(big.Int).Mul(S, xl))
		n.Add(n, t)
		lo := new(big.Int).Rsh(n, shift)
		hi := new(big.Int).Rsh(n.Add(n, S), shift)
		if lo.Cmp(hi) == 0 {
			return lo.Int64()
		}
	}
}

// Stream is a random stream with the way its Gaussian noise is drawn: what
// a private estimator that releases several values from one stream takes
// (its other draws, such as an exponential mechanism's, read the embedded
// *rand.Rand).
type Stream struct {
	*rand.Rand
	Noise Sampler
}

// NewStream is the stream r with exact Gaussian noise when exact is set.
func NewStream(r *rand.Rand, exact bool) *Stream {
	s := &Stream{Rand: r}
	s.Noise.SetExact(exact)
	return s
}

// Gaussian returns v plus Gaussian noise of standard deviation σ drawn
// from the stream ([Sampler.Add]).
func (s *Stream) Gaussian(v, sigma float64) float64 { return s.Noise.Add(v, sigma, s.Rand) }
