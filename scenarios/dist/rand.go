package dist

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Rand is the generator of the scenarios' synthetic data streams:
// xoshiro256++ (Blackman & Vigna, "Scrambled linear pseudorandom number
// generators", ACM TOMS 47(4), 2021), period 2²⁵⁶ − 1, 64-bit outputs that
// pass BigCrush and PractRand, with exact samplers on top (the ziggurat
// normal of [Rand.NormFloat64], Marsaglia–Tsang gamma, …).
//
// It is a concrete type on purpose: the samplers' fast paths inline into the
// scenarios' draw loops, where a call through math/rand/v2's Source
// interface (ChaCha8) made the data stream most of a run's time. It is NOT
// cryptographically secure and must never draw privacy noise: the solvers'
// noise comes from solvers.NewRand (ChaCha8). A data stream only has to be
// a good simulation of its law.
//
// The zero value is not usable; build one with [New]. A Rand is not safe
// for concurrent use.
type Rand struct {
	s0, s1, s2, s3 uint64
}

// New returns the generator whose 256-bit state is key read as four
// little-endian words (solvers.StreamKey gives the key of a stream). The
// all-zero state, which xoshiro cannot leave, is replaced by a fixed
// non-zero one; a SHA-256 key is all zero with probability 2⁻²⁵⁶.
func New(key [32]byte) *Rand {
	r := &Rand{}
	r.Seed(key)
	return r
}

// Seed resets r to the state New(key) starts from.
func (r *Rand) Seed(key [32]byte) {
	r.s0 = binary.LittleEndian.Uint64(key[0:])
	r.s1 = binary.LittleEndian.Uint64(key[8:])
	r.s2 = binary.LittleEndian.Uint64(key[16:])
	r.s3 = binary.LittleEndian.Uint64(key[24:])
	if r.s0|r.s1|r.s2|r.s3 == 0 {
		r.s0 = 0x9e3779b97f4a7c15
	}
}

// Uint64 returns the next 64 uniformly random bits (xoshiro256++).
func (r *Rand) Uint64() uint64 {
	var out uint64
	out, r.s0, r.s1, r.s2, r.s3 = next(r.s0, r.s1, r.s2, r.s3)
	return out
}

// next is one step of xoshiro256++ on a state held in variables (a loop
// keeps it in registers): the output and the new state.
func next(s0, s1, s2, s3 uint64) (out, n0, n1, n2, n3 uint64) {
	out = bits.RotateLeft64(s0+s3, 23) + s0
	t := s1 << 17
	s2 ^= s0
	s3 ^= s1
	s1 ^= s2
	s0 ^= s3
	s2 ^= t
	return out, s0, s1, s2, bits.RotateLeft64(s3, 45)
}

// Float64 returns a uniform number in [0, 1): the top 53 bits of Uint64
// times 2⁻⁵³ (every multiple of 2⁻⁵³ in [0, 1) equally likely).
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) * 0x1p-53 }

// ExpFloat64 returns a standard exponential draw −ln(1 − U), U = Float64()
// (inversion; 1 − U ∈ (0, 1], so the result is finite).
func (r *Rand) ExpFloat64() float64 { return -math.Log(1 - r.Float64()) }

// The normal ziggurat (Marsaglia & Tsang, "The ziggurat method for
// generating random variables", J. Stat. Softw. 5(8), 2000) with 256 layers
// of equal area v under the half-normal curve f(x) = e^{−x²/2}:
// x_1 = zigR is the start of the tail, x_{i+1} = f⁻¹(v/x_i + f(x_i)), and
// the base layer (the rectangle [0, r]×[0, f(r)] plus the tail) has the
// pseudo-width x_0 = v/f(r). zigR is the root, to double precision, of
// x_256 = 0 (the top layer closes at the mode; TestZigguratTables checks
// the closure to 10⁻¹⁴).
//
// One 64-bit output gives the layer i (bits 0–7), the sign (bit 8) and an
// independent 53-bit uniform j (bits 11–63), so no bit serves twice (the
// flaw Doornik 2005 found in implementations that reuse the layer bits in
// the abscissa). The point x = j·x_i/2⁵³ is accepted at once when
// x < x_{i+1} (j < zigK[i], about 99% of draws); otherwise the wedge or the
// tail is sampled exactly (normSlow). The method is exact: the result has
// the normal law up to the 2⁻⁵³ grid of the uniform and the rounding of the
// tables.
const (
	zigR = 3.6541528853610088
)

var (
	zigK [256]uint64  // ⌊2⁵³·x_{i+1}/x_i⌋: j < zigK[i] ⇔ x < x_{i+1}
	zigW [256]float64 // x_i·2⁻⁵³
	zigF [257]float64 // f(x_i) (the wedges of layers i ≥ 1 lie between f(x_i) and f(x_{i+1}))
	zigX [257]float64 // x_i, x_256 = 0
	// The wedge of layer i ≥ 1 is x ∈ [x_{i+1}, x_i), y = f(x_i) + U·h_i,
	// h_i = f(x_{i+1}) − f(x_i), accepted iff y < f(x). The chord of f over
	// the wedge is U = (x_i − x)·zigInvDX[i]; f lies within zigBand[i] (in
	// units of h_i) of it, on its upper side where f is concave (x_i ≤ 1,
	// zigSide = +1), on its lower side where f is convex (x_{i+1} ≥ 1,
	// zigSide = −1); zigSide = 0 for the layer that holds the inflection
	// point x = 1. Points outside the band are decided without computing f.
	zigInvDX [256]float64
	zigBand  [256]float64
	zigSide  [256]int8
	// The fast path's tables are indexed by the low 9 bits s of an output,
	// the layer i = s mod 256 and the sign bit 8: zigKS[s] = zigK[i], and
	// zigWS[s] = ±zigW[i], negative when bit 8 is set, so that
	// float64(j)·zigWS[s] is the signed draw (IEEE multiplication rounds
	// symmetrically: it is −(float64(j)·zigW[i]) to the bit, −0 for j = 0).
	zigKS [512]uint64
	zigWS [512]float64
)

func init() { initZiggurat() }

// zigV is the common area of the layers: r f(r) + ∫_r^∞ f.
func zigV() float64 {
	return zigR*math.Exp(-zigR*zigR/2) + math.Sqrt(math.Pi/2)*math.Erfc(zigR/math.Sqrt2)
}

// initZiggurat fills the tables (257 exp/log/sqrt, a few µs).
func initZiggurat() {
	f := func(x float64) float64 { return math.Exp(-x * x / 2) }
	v := zigV()
	zigX[0] = v / f(zigR)
	zigX[1] = zigR
	for i := 1; i < 255; i++ {
		zigX[i+1] = math.Sqrt(-2 * math.Log(v/zigX[i]+f(zigX[i])))
	}
	zigX[256] = 0
	for i := range 257 {
		zigF[i] = f(zigX[i])
	}
	for i := range 256 {
		zigK[i] = uint64(zigX[i+1] / zigX[i] * 0x1p53)
		zigW[i] = zigX[i] * 0x1p-53
	}
	for s := range 512 {
		zigKS[s] = zigK[s&0xff]
		zigWS[s] = zigW[s&0xff]
		if s&0x100 != 0 {
			zigWS[s] = -zigW[s&0xff]
		}
	}
	for i := 1; i < 256; i++ {
		lo, hi := zigX[i+1], zigX[i]
		dx := hi - lo
		zigInvDX[i] = 1 / dx
		// |f − chord| ≤ (Δx)²/8 · max|f''| with f'' = (x² − 1)e^{−x²/2}, and
		// max|x² − 1| ≤ max(|lo² − 1|, |hi² − 1|), e^{−x²/2} ≤ f(lo); the
		// factor 2 covers the rounding of the tables and of the test.
		m := math.Max(math.Abs(lo*lo-1), math.Abs(hi*hi-1)) * f(lo)
		zigBand[i] = 2 * dx * dx / 8 * m / (zigF[i+1] - zigF[i])
		switch {
		case hi <= 1:
			zigSide[i] = 1
		case lo >= 1:
			zigSide[i] = -1
		}
	}
}

// NormFloat64 returns a standard normal draw (the ziggurat above).
func (r *Rand) NormFloat64() float64 {
	u := r.Uint64()
	i := u & 0xff
	j := u >> 11
	if j < zigK[i] {
		// x ≥ 0; bit 8 of u becomes the sign bit.
		return math.Float64frombits(math.Float64bits(float64(int64(j))*zigW[i]) | (u&0x100)<<55)
	}
	return r.normSlow(u)
}

// Normals fills x with independent standard normal draws: the same
// sequence as len(x) calls of NormFloat64. Its fast path (xoshiro256++ and
// the ziggurat's inner rectangles, about 99% of draws) keeps the
// generator's state in registers: SSE2/integer assembly on amd64
// (normals_amd64.s), normalsFastGeneric elsewhere; a draw outside them is
// finished by normSlow. It is small enough to be inlined into the
// samplers' row loops: the common case is one call of the fast path.
func (r *Rand) Normals(x []float64) {
	if n, u := normalsFast(r, x); n < len(x) {
		r.normalsRest(x, n, u)
	}
}

// normalsRest finishes Normals(x) after the fast path stopped at x[k],
// whose first output was u: normSlow for that draw, then the fast path
// again for the rest.
func (r *Rand) normalsRest(x []float64, k int, u uint64) {
	for {
		x[k] = r.normSlow(u)
		x = x[k+1:]
		var n int
		if n, u = normalsFast(r, x); n == len(x) {
			return
		}
		k = n
	}
}

// normalsFastGeneric fills x from its start with draws that the ziggurat
// accepts in a layer's inner rectangle, and stops at the first draw that
// needs normSlow: it returns how many it filled and, when n < len(x), that
// draw's 64 bits (the generator has moved past them). It is the platform
// fallback of the assembly (normals_other.go runs it off amd64) and the
// reference its tests hold the assembly to; on amd64 only the tests call
// it.
func normalsFastGeneric(r *Rand, x []float64) (n int, u uint64) {
	s0, s1, s2, s3 := r.s0, r.s1, r.s2, r.s3
	for k := range x {
		u = bits.RotateLeft64(s0+s3, 23) + s0
		t := s1 << 17
		s2 ^= s0
		s3 ^= s1
		s1 ^= s2
		s0 ^= s3
		s2 ^= t
		s3 = bits.RotateLeft64(s3, 45)
		sl := u & 0x1ff // layer and sign
		j := u >> 11
		if j >= zigKS[sl] {
			r.s0, r.s1, r.s2, r.s3 = s0, s1, s2, s3
			return k, u
		}
		x[k] = float64(int64(j)) * zigWS[sl]
	}
	r.s0, r.s1, r.s2, r.s3 = s0, s1, s2, s3
	return len(x), 0
}

// normSlow finishes a draw whose first output u fell outside the layer's
// inner rectangle: the tail beyond r for the base layer (Marsaglia 1964:
// x = −ln(U₁)/r, y = −ln(U₂) until 2y ≥ x², return r + x), the wedge
// between x_{i+1} and x_i otherwise (accept x if a uniform height in
// [f(x_i), f(x_{i+1})] falls under f(x)); a rejected wedge point restarts
// the whole draw.
func (r *Rand) normSlow(u uint64) float64 {
	for {
		i := u & 0xff
		j := u >> 11
		neg := u&0x100 != 0
		var x float64
		switch {
		case j < zigK[i]:
			x = float64(int64(j)) * zigW[i]
		case i == 0:
			for {
				t := -math.Log(1-r.Float64()) / zigR
				y := -math.Log(1 - r.Float64())
				if 2*y >= t*t {
					x = zigR + t
					break
				}
			}
		default:
			x = float64(int64(j)) * zigW[i]
			if !wedgeAccept(i, x, r.Float64()) {
				u = r.Uint64()
				continue
			}
		}
		if neg {
			return -x
		}
		return x
	}
}

// wedgeAccept reports whether the point (x, f(x_i) + uy·h_i) of the wedge of
// layer i ≥ 1 lies under f: exactly y < e^{−x²/2}, decided by the chord and
// its band where that suffices (most points) and by the exponential
// otherwise (see zigBand).
func wedgeAccept(i uint64, x, uy float64) bool {
	t := (zigX[i] - x) * zigInvDX[i] // the chord, in units of U
	switch side := zigSide[i]; {
	case side > 0 && uy < t: // under the chord, under a concave f
		return true
	case side > 0 && uy >= t+zigBand[i]:
		return false
	case side < 0 && uy >= t: // over the chord, over a convex f
		return false
	case side < 0 && uy < t-zigBand[i]:
		return true
	}
	return wedgeExact(i, x, uy)
}

// wedgeExact is wedgeAccept's exact test.
func wedgeExact(i uint64, x, uy float64) bool {
	return zigF[i]+uy*(zigF[i+1]-zigF[i]) < math.Exp(-x*x/2)
}
