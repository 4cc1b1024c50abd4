package noise

import (
	"math"
	"math/big"
	"math/bits"
	"testing"
)

// TestGrid: S = σ/γ rounded up lies in [2²⁰, 2²¹], γ is a power of two,
// and σ ≤ σ̃ = S·γ < σ(1 + 2⁻²⁰), from σ = 10⁻³⁰⁰ to 10³⁰⁰ and at the
// ends of the float64 range (below 2⁻¹⁰⁰² γ stays at 2⁻¹⁰²² and S falls
// below 2²⁰, down to 1).
func TestGrid(t *testing.T) {
	for _, sigma := range []float64{1e-300, 3e-17, 0.001, 0.37, 1, 1.5, 2, 1e6 + 1, 7.3e150, 1e300, 0x1p1000} {
		gamma, s := Grid(sigma)
		if f, _ := math.Frexp(gamma); f != 0.5 {
			t.Errorf("σ = %g: γ = %g is not a power of two", sigma, gamma)
		}
		if s < 1<<GridBits || s > 1<<(GridBits+1) {
			t.Errorf("σ = %g: S = %d outside [2^20, 2^21]", sigma, s)
		}
		if st := float64(s) * gamma; !(st >= sigma && (st-sigma) < sigma*0x1p-20) {
			t.Errorf("σ = %g: σ̃ = %g, want σ ≤ σ̃ < σ(1 + 2^-20)", sigma, st)
		}
	}
	for _, sigma := range []float64{0x1p-1010, 5e-324} {
		gamma, s := Grid(sigma)
		if gamma != 0x1p-1022 || s < 1 || float64(s)*gamma < sigma {
			t.Errorf("σ = %g: γ = %g, S = %d", sigma, gamma, s)
		}
	}
}

// TestTauFixed: ⌊τ·2⁶⁴⌋ for τ = 5/2 + cf or 3/2 − cf against big.Float's
// exact floor, for fractions of every size down to 2⁻¹⁰⁷⁴·2⁻⁵⁰ and both
// signs.
func TestTauFixed(t *testing.T) {
	r := newRand(5)
	cases := []frac{{0, 0}, {0.5, 0}, {-0.5, 0}, {0x1p-64, 0}, {-0x1p-64, 0}, {0x1p-65, 0}, {-0x1p-65, 0},
		{3 * 0x1p-66, 0}, {-3 * 0x1p-66, 0}, {5e-324, 0}, {-5e-324, 0}, {1 - 0x1p-53, 0}, {-(1 - 0x1p-53), 0}, {0.75, -50}, {-0.75, -50}}
	for range 2000 {
		w := (r.Float64()*2 - 1) * math.Ldexp(1, -r.IntN(80))
		cases = append(cases, frac{w, 0})
	}
	for _, cf := range cases {
		for _, neg := range []bool{false, true} {
			hi, lo := tauFixed(cf, neg)
			got := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
			got.Or(got, new(big.Int).SetUint64(lo))
			y := new(big.Float).SetPrec(2200).SetFloat64(cf.w)
			y.SetMantExp(y, cf.scale+64)
			tau := new(big.Float).SetPrec(2200)
			if neg {
				tau.SetFloat64(1.5*0x1p64).Sub(tau, y)
			} else {
				tau.SetFloat64(2.5*0x1p64).Add(tau, y)
			}
			want, _ := tau.Int(nil) // τ > 0: truncation is the floor
			if got.Cmp(want) != 0 {
				t.Errorf("cf = %g·2^%d neg %v: ⌊τ·2⁶⁴⌋ = %s, want %s", cf.w, cf.scale, neg, got, want)
			}
		}
	}
}

// TestRoundOffsetSlowPath: where the fast path decides, floorSlow agrees
// with it (2·10⁴ random draws of cf, S, sign, k and x's first 64 bits); and
// where the first 64 bits of x leave the lattice point open (N and N + S
// straddle a multiple of 2⁶⁴, constructed), floorSlow draws x's next digit
// and answers ⌊V⌋ as big.Rat computes it from those 128 bits.
func TestRoundOffsetSlowPath(t *testing.T) {
	r := newRand(9)
	for range 20_000 {
		cf := frac{r.Float64()*2 - 1, 0}
		s := 1 + r.Uint64N(1<<21)
		neg := r.IntN(2) == 1
		k := r.Uint64N(6)
		x := urand{d: wordDigits(r.Uint64())}
		src := source{r: r}
		fast := roundOffset(cf, s, neg, k, &x, &src)
		f := floorSlow(cf, s, neg, k, &x, &src)
		slow := f - 2
		if neg {
			slow = 1 - f
		}
		if fast != slow {
			t.Fatalf("cf = %g, S = %d, neg %v, k = %d, x = %v: fast %d, slow %d", cf.w, s, neg, k, x.d, fast, slow)
		}
	}
	// Open at 64 bits: S = 3, cf = 0 (τ = 5/2, T = 2.5·2⁶⁴), and X with
	// S·X + 2⁶³ just below a multiple of 2⁶⁴: 3X = 3·2⁶³ − 2 − 2⁶³·… —
	// take X = ⌊(2⁶⁵ − 2⁶³)/3⌋, so that 3X + 2⁶³ lies in [2⁶⁵ − 2, 2⁶⁵).
	X := new(big.Int).Div(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 65), new(big.Int).Lsh(big.NewInt(1), 63)), big.NewInt(3)).Uint64()
	for _, second := range []uint64{0, 1 << 62, 1 << 63, ^uint64(0)} {
		x := urand{d: append(wordDigits(X), wordDigits(second)...)}
		got := roundOffset(frac{0, 0}, 3, false, 0, &x, &source{r: newRand(1)})
		// V = 3x + 5/2 with x = (X·2⁶⁴ + second)/2¹²⁸ (+ less than 2⁻¹²⁸).
		v := new(big.Rat).SetFrac(new(big.Int).Add(new(big.Int).Lsh(new(big.Int).SetUint64(X), 64), new(big.Int).SetUint64(second)), new(big.Int).Lsh(big.NewInt(1), 128))
		v.Mul(v, big.NewRat(3, 1)).Add(v, big.NewRat(5, 2))
		fl := new(big.Int).Quo(v.Num(), v.Denom()) // V > 0
		if want := fl.Int64() - 2; got != want {
			t.Errorf("second digit %d: m = %d, want %d", second, got, want)
		}
	}
}

// TestAddOnLattice: every exact release is a multiple of γ = Grid(σ)'s
// (checked on the release's bits), for centres v of every magnitude
// (the ordinary case, v/γ below 2⁻¹⁰⁰⁰, and v a multiple of γ beyond
// 2⁵²γ), lies within 40σ̃ of v, and a value that is not finite comes back
// as is.
func TestAddOnLattice(t *testing.T) {
	var s Sampler
	s.SetExact(true)
	r := newRand(21)
	for _, sigma := range []float64{1e-12, 0.3, 1, 4.5e9} {
		gamma, _ := Grid(sigma)
		for _, v := range []float64{0, 1e-300, -1e-300, 0.1234567, -3.75, 1e6, -2.5e15, 1e300} {
			for range 200 {
				got := s.Add(v, sigma, r)
				if !onLattice(got, gamma) {
					t.Fatalf("σ = %g, v = %g: release %v is not a multiple of γ = %g", sigma, v, got, gamma)
				}
				if math.Abs(got-v) > 40*Tilde(sigma)+math.Abs(v)*0x1p-52 {
					t.Fatalf("σ = %g, v = %g: release %v", sigma, v, got)
				}
			}
		}
	}
	for _, v := range []float64{math.Inf(1), math.Inf(-1)} {
		if got := s.Add(v, 1, r); got != v {
			t.Errorf("Add(%v) = %v", v, got)
		}
	}
	if got := s.Add(math.NaN(), 1, r); !math.IsNaN(got) {
		t.Errorf("Add(NaN) = %v", got)
	}
}

// wordDigits is the four 16-bit digits of w, most significant first.
func wordDigits(w uint64) []uint64 {
	return []uint64{w >> 48, w >> 32 & 0xffff, w >> 16 & 0xffff, w & 0xffff}
}

// onLattice reports whether x is an integer multiple of γ = 2^e: x = 0, or
// the lowest set bit of x's significand is worth at least γ.
func onLattice(x, gamma float64) bool {
	if x == 0 {
		return true
	}
	f, e := math.Frexp(math.Abs(x))
	_, eg := math.Frexp(gamma)
	m := uint64(f * (1 << 53)) // |x| = m·2^(e−53)
	return e-53+bits.TrailingZeros64(m) >= eg-1
}

// TestAddReleaseLaw: Add's release at an arbitrary centre and σ follows
// the law of round_γ(v + σ̃Z): (release − v)/σ̃ binned at width 1/4 over
// [−4, 4] against Φ, by Pearson's χ² at a fixed seed (2·10⁵ draws,
// threshold the 1 − 10⁻⁶ quantile). The lattice's offset is
// (release − v)/γ up to v's own fraction, below 2⁻²⁰ of a cell, which no
// cell's probability can show at this N.
func TestAddReleaseLaw(t *testing.T) {
	const N = 200_000
	var s Sampler
	s.SetExact(true)
	r := newRand(33)
	v, sigma := 12.345678901, 0.0731
	st := Tilde(sigma)
	const lo, hi = -17, 17 // cells of width 1/4; the end cells take the tails
	counts := make([]int, hi-lo+1)
	for range N {
		z := (s.Add(v, sigma, r) - v) / st
		counts[min(max(int(math.Floor(z*4+0.5)), lo), hi)-lo]++
	}
	p := make([]float64, hi-lo+1)
	for c := lo; c <= hi; c++ {
		a, b := (float64(c)-0.5)/4, (float64(c)+0.5)/4
		switch c {
		case lo:
			p[c-lo] = phi(b)
		case hi:
			p[c-lo] = phi(-a)
		default:
			p[c-lo] = phi(b) - phi(a)
		}
	}
	stat, df := chiSquare(counts, p, N)
	if thr := chiThreshold(df); stat > thr {
		t.Errorf("χ² = %.1f with %d degrees of freedom, above %.1f", stat, df, thr)
	}
}

// TestFloatPathUnchanged: the zero Sampler returns v + σ·NormFloat64()
// from the same stream, bit for bit (what seeded runs release).
func TestFloatPathUnchanged(t *testing.T) {
	var s Sampler
	r1, r2 := newRand(4), newRand(4)
	for i := range 1000 {
		v, sigma := float64(i)*0.37-100, 0.01+float64(i)
		if got, want := s.Add(v, sigma, r1), v+sigma*r2.NormFloat64(); got != want {
			t.Fatalf("draw %d: %v, want %v", i, got, want)
		}
	}
	if s.Sigma(2.5) != 2.5 {
		t.Errorf("Sigma in floating point = %v", s.Sigma(2.5))
	}
}

// TestAddAllocates: an exact draw allocates nothing once the sampler's
// scratch has grown.
func TestAddAllocates(t *testing.T) {
	var s Sampler
	s.SetExact(true)
	r := newRand(2)
	for range 1000 {
		s.Add(1.5, 0.2, r)
	}
	if a := testing.AllocsPerRun(1000, func() { s.Add(1.5, 0.2, r) }); a != 0 {
		t.Errorf("%v allocations per exact draw", a)
	}
}
