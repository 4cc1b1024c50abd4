package noise

import "math/rand/v2"

// source hands out a stream's random bits as 16-bit digits, four from each
// 64-bit word: most comparisons of two uniform deviates are decided by
// their first 16 bits, so a wider digit would mostly draw bits that are
// never read.
type source struct {
	r   *rand.Rand
	buf uint64
	n   uint // digits left in buf
}

// reset binds s to r and drops any bits left from before, so that a draw
// reads its stream from a word boundary.
func (s *source) reset(r *rand.Rand) { s.r, s.n = r, 0 }

// digit is the next 16 random bits.
func (s *source) digit() uint64 {
	if s.n == 0 {
		s.refill()
	}
	s.n--
	return s.buf >> (16 * s.n) & 0xffff
}

// refill draws the next word (apart from digit, so that digit inlines).
//
//go:noinline
func (s *source) refill() { s.buf, s.n = s.r.Uint64(), 4 }

// urand is a uniform deviate on [0, 1) known by a prefix of its base-2¹⁶
// digits (u = Σ_i d_i 2^{−16(i+1)}); further digits are drawn only when a
// comparison needs them, so every comparison between urands is exact
// (Karney 2016, Section 2: "u-rands").
type urand struct {
	d []uint64
}

// reset makes u a fresh deviate (no digit drawn yet), keeping its storage.
func (u *urand) reset() { u.d = u.d[:0] }

// set makes u a fresh deviate whose first digit is d0.
func (u *urand) set(d0 uint64) { u.d = append(u.d[:0], d0) }

// digit is u's i-th digit, drawn (with those before it) if not yet known.
func (u *urand) digit(i int, s *source) uint64 {
	for len(u.d) <= i {
		u.d = append(u.d, s.digit())
	}
	return u.d[i]
}

// word is u's l-th group of four digits as one 64-bit number: u's first
// 64(l+1) bits are Σ_{j≤l} word(j)·2^{−64(j+1)}.
func (u *urand) word(l int, s *source) uint64 {
	for len(u.d) < 4*l+4 {
		u.d = append(u.d, s.digit())
	}
	d := u.d[4*l : 4*l+4]
	return d[0]<<48 | d[1]<<32 | d[2]<<16 | d[3]
}

// less reports whether u < v, drawing digits of either as needed (u = v
// has probability 0).
func less(u, v *urand, s *source) bool {
	for i := 0; ; i++ {
		a, b := u.digit(i, s), v.digit(i, s)
		if a != b {
			return a < b
		}
	}
}

// normal draws exact standard normal variates (Karney 2016, Algorithm N).
// Its scratch deviates are reused, so a draw allocates nothing once they
// have grown to the digits a comparison needed.
type normal struct {
	src     source
	x       urand // the fraction of the latest draw
	p, q, v urand // scratch of the von Neumann runs
}

// draw returns an exact N(0, 1) variate from r as neg, k and the fraction
// in n.x: Z = ±(k + x), negative when neg. Algorithm N:
//
//  1. k ≥ 0 with probability e^{−k/2}(1 − e^{−1/2}): the number of
//     Bernoulli(e^{−1/2}) successes before the first failure;
//  2. accept k with probability e^{−k(k−1)/2} (k(k−1) more successes),
//     else restart: k now has probability ∝ e^{−k²/2};
//  3. x uniform on [0, 1), accepted with probability e^{−x(x+2k)/2} as
//     k+1 independent Bernoulli(e^{−x(x+2k)/(2k+2)}) all true, else
//     restart: k + x then has density ∝ e^{−k²/2}e^{−x(x+2k)/2} =
//     e^{−(k+x)²/2} on [k, k+1);
//  4. a fair sign.
func (n *normal) draw(r *rand.Rand) (neg bool, k uint64) {
	n.src.reset(r)
	for {
		k = 0
		for n.halfExp() {
			k++
		}
		if !n.halfExps(k * (k - 1)) { // k(k−1) is 0 for k = 0 (unsigned wrap times 0)
			continue
		}
		n.x.reset()
		ok := true
		for j := uint64(0); j <= k && ok; j++ {
			ok = n.fracExp(k)
		}
		if ok {
			return n.src.digit()&1 == 1, k
		}
	}
}

// halfExp is true with probability e^{−1/2}, by von Neumann's method: with
// U₁, U₂, … uniform, let m be the largest count with
// 1/2 > U₁ > U₂ > … > U_m; P(m ≥ j) = (1/2)^j/j!, so P(m even) =
// Σ_j (−1)^j (1/2)^j/j! = e^{−1/2}. Each U is compared by its first
// digit; two first digits tie with probability 2⁻¹⁶, and then
// [normal.halfExpRun] compares them further.
func (n *normal) halfExp() bool {
	p := n.src.digit() // U₁
	if p>>15 == 1 {    // U₁ ≥ 1/2: m = 0
		return true
	}
	for j := 1; ; j += 2 { // U_j = p
		q := n.src.digit()
		if q == p {
			return n.halfExpRun(j, p, q)
		}
		if q > p { // m = j, odd
			return false
		}
		p = n.src.digit()
		if p == q {
			return n.halfExpRun(j+1, q, p)
		}
		if p > q { // m = j + 1, even
			return true
		}
	}
}

// halfExpRun finishes halfExp from the comparison of U_{j+1} with U_j,
// whose first digits (next and prev) tie: neither has a later digit yet
// (every comparison before was decided by first digits), so both are
// urands known by one digit, compared digit by digit from here on.
func (n *normal) halfExpRun(j int, prev, next uint64) bool {
	p, q := &n.p, &n.q
	p.set(prev)
	q.set(next)
	for {
		if !less(q, p, &n.src) { // m = j
			return j%2 == 0
		}
		j++
		n.p, n.q = n.q, n.p
		q.reset()
	}
}

// halfExps is true with probability e^{−m/2}: m independent halfExp, all
// true.
func (n *normal) halfExps(m uint64) bool {
	for ; m > 0; m-- {
		if !n.halfExp() {
			return false
		}
	}
	return true
}

// fracExp is true with probability e^{−x·f}, f = (x+2k)/(2k+2), for the
// fraction x of the draw in progress: von Neumann's method generalized
// (Karney 2016, Algorithm B): let m be the largest count with
// x > U₁ > U₂ > … > U_m and V_i < f for every i ≤ m (U, V independent
// uniforms); P(m ≥ j) = (xf)^j/j!, so P(m even) = e^{−xf}. The test
// V < f = (2k + x)/(2k + 2) draws an integer c uniform on [0, 2k+2): true
// if c < 2k, false if c = 2k+1, and V' < x for a fresh uniform V' if
// c = 2k. Deviates are compared by their first digits until two tie
// (probability 2⁻¹⁶ per comparison); [normal.fracExpRun] goes on from
// there digit by digit.
func (n *normal) fracExp(k uint64) bool {
	x0 := n.x.digit(0, &n.src)
	prev := x0 // U_j's first digit (U₀ = x)
	for j := 0; ; j++ {
		u := n.src.digit()
		if u == prev {
			return n.fracExpRun(k, j, prev, u, false, 0)
		}
		if u > prev {
			return j%2 == 0
		}
		c := n.src.r.Uint64N(2*k + 2)
		if c == 2*k+1 {
			return j%2 == 0
		}
		if c == 2*k {
			v := n.src.digit()
			if v == x0 {
				return n.fracExpRun(k, j, prev, u, true, v)
			}
			if v > x0 {
				return j%2 == 0
			}
		}
		prev = u
	}
}

// fracExpRun finishes fracExp digit by digit from step j + 1 (U_{j+1} has
// first digit next; U_j has first digit prev, or is x itself when j = 0).
// Either U_{j+1} tied U_j (vTie false), or it passed and the V' drawn
// against x, of first digit v, tied x. No U has a later digit yet, and x
// keeps the digits any comparison drew.
func (n *normal) fracExpRun(k uint64, j int, prev, next uint64, vTie bool, v uint64) bool {
	p, q, s := &n.p, &n.q, &n.src
	p.set(prev)
	q.set(next)
	uj := p
	if j == 0 {
		uj = &n.x
	}
	if !vTie {
		if !less(q, uj, s) {
			return j%2 == 0
		}
		if c := s.r.Uint64N(2*k + 2); c == 2*k+1 {
			return j%2 == 0
		} else if c == 2*k {
			n.v.reset()
			if !less(&n.v, &n.x, s) {
				return j%2 == 0
			}
		}
	} else {
		n.v.set(v)
		if !less(&n.v, &n.x, s) {
			return j%2 == 0
		}
	}
	// U_{j+1} (in q) passed both tests: the run goes on from it.
	for j++; ; j++ {
		n.p, n.q = n.q, n.p // p: U_j
		q.reset()
		if !less(q, p, s) {
			return j%2 == 0
		}
		if c := s.r.Uint64N(2*k + 2); c == 2*k+1 {
			return j%2 == 0
		} else if c == 2*k {
			n.v.reset()
			if !less(&n.v, &n.x, s) {
				return j%2 == 0
			}
		}
	}
}
