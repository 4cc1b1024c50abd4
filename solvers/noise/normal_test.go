package noise

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func newRand(seed uint64) *rand.Rand {
	var key [32]byte
	key[0] = byte(seed)
	key[1] = byte(seed >> 8)
	return rand.New(rand.NewChaCha8(key))
}

// phi is the standard normal CDF Φ(x) = erfc(−x/√2)/2, accurate in both
// tails.
func phi(x float64) float64 { return math.Erfc(-x/math.Sqrt2) / 2 }

// roundedLaw is the law of ⌊cf + 1/2 + S·Z⌋ (the nearest integer to
// cf + S·Z, Z ~ N(0, 1)) on the integers j = lo…hi, with the mass below lo
// added to lo's and above hi to hi's:
// P(j) = Φ((j + 1/2 − cf)/S) − Φ((j − 1/2 − cf)/S).
func roundedLaw(cf, s float64, lo, hi int) []float64 {
	p := make([]float64, hi-lo+1)
	for j := lo; j <= hi; j++ {
		a, b := (float64(j)-0.5-cf)/s, (float64(j)+0.5-cf)/s
		if j == lo {
			p[0] = phi(b)
			continue
		}
		if j == hi {
			p[j-lo] = phi(-a)
			continue
		}
		if a > 0 { // the upper tail: differences of Φ(−·) keep their digits
			p[j-lo] = phi(-a) - phi(-b)
		} else {
			p[j-lo] = phi(b) - phi(a)
		}
	}
	return p
}

// chiSquare is Pearson's statistic of counts against probabilities p over
// N draws, with its degrees of freedom, after pooling neighbouring cells
// until each expects at least 20 draws.
func chiSquare(counts []int, p []float64, N int) (stat float64, df int) {
	var c, e float64
	cells := 0
	flush := func() {
		stat += (c - e) * (c - e) / e
		cells++
		c, e = 0, 0
	}
	for i := range p {
		c += float64(counts[i])
		e += p[i] * float64(N)
		if e >= 20 {
			flush()
		}
	}
	if e > 0 {
		flush()
	}
	return stat, cells - 1
}

// chiThreshold is the χ² level that a correct sampler passes with
// probability 1 − 10⁻⁶ (the χ²_df quantile; the statistic is χ²_df in
// the limit, and each cell expects ≥ 20 draws).
func chiThreshold(df int) float64 {
	return distuv.ChiSquared{K: float64(df)}.Quantile(1 - 1e-6)
}

// TestRoundedNormalLaw: the exact sampler's rounding ⌊cf + 1/2 + S·Z⌋
// against its law, by Pearson's χ² at fixed seeds, 10⁶ draws per case,
// with the 1 − 10⁻⁶ quantile of χ²_df as the threshold. Coarse lattices
// (S = 1, 3, 5) test the rounding of the fraction cf (of either sign, and
// one below 2⁻⁶⁴, where only its sign reaches the first 64 bits); S = 2²⁰,
// the resolution of every release, with cells of width S/8, tests Z's law
// itself at resolution 2⁻²⁰. The power check asserts that the same draws
// would fail against the law at 1.02·S (2% more noise): the expected
// statistic N·Σ(p − q)²/q of that error is above three times the
// threshold.
func TestRoundedNormalLaw(t *testing.T) {
	const N = 1_000_000
	for i, tc := range []struct {
		name  string
		cf    frac
		s     uint64
		cells int // cells of width cellW around 0 on each side
		cellW int
	}{
		{"S=1 cf=0.3", frac{0.3, 0}, 1, 7, 1},
		{"S=3 cf=-0.77", frac{-0.77, 0}, 3, 20, 1},
		{"S=5 cf=2^-70", frac{0x1p-20, -50}, 5, 30, 1},
		{"S=5 cf=-2^-70", frac{-0x1p-20, -50}, 5, 30, 1},
		{"S=2^20 cf=0.49", frac{0.49, 0}, 1 << 20, 40, 1 << 17},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var smp Sampler
			r := newRand(uint64(100 + i))
			cf := tc.cf.w * math.Ldexp(1, tc.cf.scale)
			lo, hi := -tc.cells, tc.cells
			counts := make([]int, hi-lo+1)
			for range N {
				m := smp.offset(tc.cf, tc.s, r)
				cell := int(math.Floor(float64(m)/float64(tc.cellW) + 0.5))
				counts[min(max(cell, lo), hi)-lo]++
			}
			// The law of the cell: m's law summed over each cell.
			law := func(s float64) []float64 {
				if tc.cellW == 1 {
					return roundedLaw(cf, s, lo, hi)
				}
				p := make([]float64, hi-lo+1)
				w := float64(tc.cellW)
				for c := lo; c <= hi; c++ {
					a, b := (float64(c)-0.5)*w-0.5-cf, (float64(c)+0.5)*w-0.5-cf // m ∈ [c·w − w/2, c·w + w/2)
					switch c {
					case lo:
						p[c-lo] = phi(b / s)
					case hi:
						p[c-lo] = phi(-a / s)
					default:
						p[c-lo] = phi(b/s) - phi(a/s)
					}
				}
				return p
			}
			p := law(float64(tc.s))
			stat, df := chiSquare(counts, p, N)
			if thr := chiThreshold(df); stat > thr {
				t.Errorf("χ² = %.1f with %d degrees of freedom, above %.1f", stat, df, thr)
			}
			q := law(1.02 * float64(tc.s))
			var nc float64
			for j := range p {
				nc += float64(N) * (p[j] - q[j]) * (p[j] - q[j]) / q[j]
			}
			if thr := chiThreshold(df); nc < 3*thr {
				t.Errorf("power: a 2%% error in σ moves χ² by %.1f on average, not above 3 × %.1f", nc, thr)
			}
		})
	}
}

// TestHalfExp: halfExp is true with probability e^{−1/2} (von Neumann):
// the count of 10⁶ draws lies within 5.5 standard deviations of its mean
// (a correct sampler fails with probability 4·10⁻⁸).
func TestHalfExp(t *testing.T) {
	const N = 1_000_000
	var n normal
	n.src.reset(newRand(7))
	hits := 0
	for range N {
		if n.halfExp() {
			hits++
		}
	}
	p := math.Exp(-0.5)
	if dev := math.Abs(float64(hits) - N*p); dev > 5.5*math.Sqrt(N*p*(1-p)) {
		t.Errorf("halfExp true %d times in %d, expected %.0f", hits, N, N*p)
	}
}

// TestFracExp: with the fraction x's first 16-bit digit fixed (its later
// digits drawn), fracExp(k) is true with probability
// E e^{−x(x+2k)/(2k+2)} (Karney's Algorithm B), within 5.5 standard
// deviations over 4·10⁵ draws, for k = 0, 1, 3; over x's last 2⁻¹⁶ the
// expectation is the value at the cell's middle to within 10⁻⁹.
func TestFracExp(t *testing.T) {
	const N = 400_000
	for _, k := range []uint64{0, 1, 3} {
		for _, x := range []float64{0.1, 0.5, 0.93} {
			var n normal
			n.src.reset(newRand(11 + k))
			hits := 0
			for range N {
				n.x.set(uint64(x * 0x1p16))
				if n.fracExp(k) {
					hits++
				}
			}
			// x's value: its first digit, the later ones uniform.
			xv := math.Floor(x*0x1p16)*0x1p-16 + 0x1p-17
			p := math.Exp(-xv * (xv + 2*float64(k)) / (2*float64(k) + 2))
			if dev := math.Abs(float64(hits) - N*p); dev > 5.5*math.Sqrt(N*p*(1-p)) {
				t.Errorf("k = %d, x = %g: true %d times in %d, expected %.0f", k, x, hits, N, N*p)
			}
		}
	}
}

// TestNormalMoments: the first four moments of 10⁶ exact draws of Z
// (k + x with x's first 64 bits, sign applied) are 0, 1, 0, 3 within 5.5
// standard errors (the standard errors of the normal's sample moments:
// √(1/N), √(2/N), √(15/N), √(96/N)).
func TestNormalMoments(t *testing.T) {
	const N = 1_000_000
	var n normal
	r := newRand(3)
	var m [4]float64
	for range N {
		neg, k := n.draw(r)
		z := float64(k) + float64(n.x.word(0, &n.src))*0x1p-64
		if neg {
			z = -z
		}
		p := z
		for j := range m {
			m[j] += p
			p *= z
		}
	}
	want := [4]float64{0, 1, 0, 3}
	se := [4]float64{1, math.Sqrt2, math.Sqrt(15), math.Sqrt(96)}
	for j := range m {
		got := m[j] / N
		if math.Abs(got-want[j]) > 5.5*se[j]/math.Sqrt(N) {
			t.Errorf("E Z^%d = %.5f, want %g ± %.5f", j+1, got, want[j], 5.5*se[j]/math.Sqrt(N))
		}
	}
}

// fewDigits is a stream whose 16-bit digits take only three values, so
// that comparisons of deviates tie on their first digits about a third of
// the time: every tie path of halfExp and fracExp runs.
type fewDigits struct {
	r     *rand.Rand
	words int
}

func (f *fewDigits) Uint64() uint64 {
	f.words++
	alphabet := [3]uint64{0x2000, 0x8000, 0x8001}
	var w uint64
	for range 4 {
		w = w<<16 | alphabet[f.r.IntN(3)]
	}
	return w
}

// refNormal is Algorithm N written plainly: every deviate a urand,
// compared digit by digit from its first — what normal's first-digit fast
// paths must reproduce exactly.
type refNormal struct {
	src     source
	x       urand
	p, q, v urand
}

func (n *refNormal) halfExp() bool {
	n.p.reset()
	if n.p.digit(0, &n.src)>>15 == 1 {
		return true
	}
	for j := 1; ; j++ {
		n.q.reset()
		if !less(&n.q, &n.p, &n.src) {
			return j%2 == 0
		}
		n.p, n.q = n.q, n.p
	}
}

func (n *refNormal) fracExp(k uint64) bool {
	n.x.digit(0, &n.src)
	prev, cur := &n.x, &n.p
	for j := 0; ; j++ {
		cur.reset()
		if !less(cur, prev, &n.src) {
			return j%2 == 0
		}
		if c := n.src.r.Uint64N(2*k + 2); c == 2*k+1 {
			return j%2 == 0
		} else if c == 2*k {
			n.v.reset()
			if !less(&n.v, &n.x, &n.src) {
				return j%2 == 0
			}
		}
		if prev == &n.x {
			prev, cur = cur, &n.q
		} else {
			prev, cur = cur, prev
		}
	}
}

func (n *refNormal) draw(r *rand.Rand) (bool, uint64) {
	n.src.reset(r)
	for {
		k := uint64(0)
		for n.halfExp() {
			k++
		}
		ok := true
		for m := k * (k - 1); m > 0 && ok; m-- {
			ok = n.halfExp()
		}
		if !ok {
			continue
		}
		n.x.reset()
		for j := uint64(0); j <= k && ok; j++ {
			ok = n.fracExp(k)
		}
		if ok {
			return n.src.digit()&1 == 1, k
		}
	}
}

// TestTiesMatchReference: on a stream whose digits tie a third of the time,
// normal.draw (first-digit fast paths, then halfExpRun and fracExpRun from
// a tie) returns what the plain digit-by-digit algorithm returns — the
// sign, k and every digit of x drawn — and reads the same number of
// words, over 20 000 draws.
func TestTiesMatchReference(t *testing.T) {
	fa, fb := &fewDigits{r: newRand(41)}, &fewDigits{r: newRand(41)}
	ra, rb := rand.New(fa), rand.New(fb)
	var n normal
	var ref refNormal
	for i := range 20_000 {
		negA, kA := n.draw(ra)
		negB, kB := ref.draw(rb)
		if negA != negB || kA != kB || !slices.Equal(n.x.d, ref.x.d) || fa.words != fb.words {
			t.Fatalf("draw %d: fast (%v, %d, %v) after %d words, reference (%v, %d, %v) after %d", i, negA, kA, n.x.d, fa.words, negB, kB, ref.x.d, fb.words)
		}
	}
}
