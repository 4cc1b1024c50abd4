package vec

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
)

func TestNorm(t *testing.T) {
	big := math.MaxFloat64 / 2
	cases := []struct {
		name string
		x    []float64
		want float64
	}{
		{"empty", nil, 0},
		{"zeros", []float64{0, 0, 0}, 0},
		{"3-4-5", []float64{3, -4}, 5},
		// ‖(1, …, 1)‖ over 100 entries is 10 exactly.
		{"ones", func() []float64 {
			x := make([]float64, 100)
			for i := range x {
				x[i] = 1
			}
			return x
		}(), 10},
		// The plain sum of squares overflows: (M/2)²·2 = ∞; the scaled
		// path gives (M/2)·√2, which is finite.
		{"overflow", []float64{big, big}, big * math.Sqrt2},
		// ... and underflows to 0 for 3e-200, 4e-200: the norm is 5e-200.
		{"underflow", []float64{3e-200, 4e-200}, 5e-200},
		{"inf", []float64{1, math.Inf(-1), 2}, math.Inf(1)},
		{"nan", []float64{1, math.NaN(), 2}, math.NaN()},
		{"nan after inf", []float64{math.Inf(1), math.NaN()}, math.NaN()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Norm(c.x)
			switch {
			case math.IsNaN(c.want):
				if !math.IsNaN(got) {
					t.Errorf("Norm = %v, want NaN", got)
				}
			case math.IsInf(c.want, 1) || c.want == 0:
				if got != c.want {
					t.Errorf("Norm = %v, want %v", got, c.want)
				}
			default:
				// A few ulps: the scaled path rounds differently.
				if math.Abs(got-c.want) > 4e-16*c.want {
					t.Errorf("Norm = %v, want %v", got, c.want)
				}
			}
		})
	}
}

func TestProjectBall(t *testing.T) {
	cases := []struct {
		name string
		w    []float64
		r    float64
		want []float64
	}{
		{"inside stays", []float64{0.3, 0.4}, 1, []float64{0.3, 0.4}},
		{"on the sphere stays", []float64{0.6, 0.8}, 1, []float64{0.6, 0.8}},
		{"outside scales", []float64{3, 4}, 1, []float64{0.6, 0.8}},
		{"radius 2", []float64{0, -10}, 2, []float64{0, -2}},
		{"non-finite goes to the centre", []float64{math.Inf(1), 1}, 1, []float64{0, 0}},
		{"NaN goes to the centre", []float64{math.NaN(), 1}, 1, []float64{0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ProjectBall(c.w, c.r)
			for i := range c.w {
				if math.Abs(c.w[i]-c.want[i]) > 1e-15 {
					t.Fatalf("ProjectBall = %v, want %v", c.w, c.want)
				}
			}
		})
	}
}

func BenchmarkNorm(b *testing.B) {
	x := make([]float64, 100)
	for i := range x {
		x[i] = float64(i) - 50
	}
	b.ReportAllocs()
	var s float64
	for b.Loop() {
		s += Norm(x)
	}
	_ = s
}

// TestKernelsMatchGonum checks Axpy and ScaleDot, and their Go
// loops (the kernels of other architectures, and dotSqGeneric, which
// DotSqRows' fallback sums each row with), against gonum's floats.Dot,
// floats.AddScaled and floats.Scale bit for bit, at every length up to 70 (every remainder mod
// 4, and past gonum's unrolling), on values of mixed signs and magnitudes.
func TestKernelsMatchGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	val := func() float64 { return r.NormFloat64() * math.Exp(10*r.NormFloat64()) }
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	for n := 0; n <= 70; n++ {
		for range 20 {
			w, a := make([]float64, n), make([]float64, n)
			for i := range w {
				w[i], a[i] = val(), val()
			}
			wantWA, wantAA := floats.Dot(w, a), floats.Dot(a, a)
			if got, want := Norm(a), floats.Norm(a, 2); n < 4 && !same(got, want) && math.Abs(got-want) > 1e-15*want {
				t.Fatalf("n = %d: Norm = %v, floats.Norm = %v", n, got, want)
			}
			if got, want := Norm(a), math.Sqrt(wantAA); wantAA > 0x1p-900 && wantAA < 0x1p900 && !same(got, want) {
				t.Fatalf("n = %d: Norm = %v, √floats.Dot = %v", n, got, want)
			}
			if wa, aa := dotSqGeneric(w, a); !same(wa, wantWA) || !same(aa, wantAA) {
				t.Fatalf("n = %d: dotSqGeneric = %v, %v; floats.Dot = %v, %v", n, wa, aa, wantWA, wantAA)
			}
			c := val()
			wantY := slices.Clone(w)
			floats.AddScaled(wantY, c, a)
			for name, f := range map[string]func(c float64, x, y []float64){"Axpy": Axpy, "axpyGeneric": axpyGeneric} {
				y := slices.Clone(w)
				if f(c, a, y); !slices.Equal(y, wantY) {
					t.Fatalf("n = %d: %s differs from floats.AddScaled", n, name)
				}
			}
			want := slices.Clone(a)
			floats.Scale(c, want)
			wantDot := floats.Dot(w, want)
			for name, f := range map[string]func(c float64, a, w []float64) float64{"ScaleDot": ScaleDot, "scaleDotGeneric": scaleDotGeneric} {
				got := slices.Clone(a)
				if v := f(c, got, w); !same(v, wantDot) || !slices.Equal(got, want) {
					t.Fatalf("n = %d: %s = %v, Scale then Dot = %v", n, name, v, wantDot)
				}
			}
		}
	}
}

// TestRowKernelsMatchGonum checks DotRows, DotSqRows and AxpyRows — the
// SSE2 and the AVX kernels each, and their Go loops — against floats.Dot
// and floats.AddScaled row by row, bit for bit, for row lengths 1 to 21,
// 33, 50 and 200, strides past them, and odd and even numbers of rows.
func TestRowKernelsMatchGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	val := func() float64 { return r.NormFloat64() * math.Exp(5*r.NormFloat64()) }
	for _, d := range append(seq(1, 21), 33, 50, 200) {
		for _, rs := range [][2]int{{d, 9}, {d + 1, 9}, {d + 3, 9}, {d + 1, 8}, {d, 1}} {
			stride, k := rs[0], rs[1]
			xs := make([]float64, (k-1)*stride+d)
			w, coef := make([]float64, d), make([]float64, k)
			for i := range xs {
				xs[i] = val()
			}
			for i := range w {
				w[i] = val()
			}
			for i := range coef {
				coef[i] = val()
			}
			wantY := slices.Clone(w)
			for i := range k {
				floats.AddScaled(wantY, coef[i], xs[i*stride:i*stride+d])
			}
			for _, impl := range []struct {
				name  string
				dot   func(dst, w, xs []float64, stride int)
				dotSq func(dst, sq, w, xs []float64, stride int)
				axpy  func(y, coef, xs []float64, stride int)
			}{{"dispatched", DotRows, DotSqRows, AxpyRows}, {"sse2", dotRowsChecked, dotSqRowsChecked, axpyRowsChecked}, {"avx", dotRowsAVXChecked, dotSqRowsAVXChecked, axpyRowsAVXChecked}, {"generic", dotRowsGeneric, dotSqRowsGeneric, axpyRowsGeneric}} {
				if impl.name == "avx" && !hasAVX {
					continue
				}
				dst, dst2, sq := make([]float64, k), make([]float64, k), make([]float64, k)
				impl.dot(dst, w, xs, stride)
				impl.dotSq(dst2, sq, w, xs, stride)
				for i := range k {
					row := xs[i*stride : i*stride+d]
					if dst[i] != floats.Dot(w, row) || dst2[i] != dst[i] || sq[i] != floats.Dot(row, row) {
						t.Fatalf("%s, d = %d, stride %d, row %d: %v, %v, %v; floats.Dot %v, %v", impl.name, d, stride, i, dst[i], dst2[i], sq[i], floats.Dot(w, row), floats.Dot(row, row))
					}
				}
				y := slices.Clone(w)
				impl.axpy(y, coef, xs, stride)
				if !slices.Equal(y, wantY) {
					t.Fatalf("%s, d = %d, stride %d: AxpyRows differs from floats.AddScaled row by row", impl.name, d, stride)
				}
			}
		}
	}
}

// TestClampAddRows: the assembly of ClampAddRows gives clampAddRowsGeneric's
// sums and flags bit for bit, and the generic loop is the definition
// written out entry by entry: rows that clamp and rows that do not, at a
// finite τ and at τ = +Inf, non-finite rows (a NaN or infinite slope or
// feature, an overflowing product, a zero slope times an infinite
// feature) that add nothing, rows sharing a destination, d = 1 … 13 and
// strides above d.
func TestClampAddRows(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	val := func() float64 { return r.NormFloat64() * math.Exp(2*r.NormFloat64()) }
	for d := 1; d <= 21; d++ {
		for _, stride := range []int{d, d + 2} {
			for _, tau := range []float64{1.5, math.Inf(1)} {
				const n, groups = 40, 3
				xs := make([]float64, (n-1)*stride+d)
				k, inv := make([]float64, n), make([]float64, n)
				off := make([]int, n)
				for i := range xs {
					xs[i] = val()
				}
				for i := range k {
					k[i] = val()
					off[i] = (i % groups) * d
					inv[i] = 1 / float64(1+i%groups)
					a := xs[i*stride : i*stride+d]
					switch i % 10 {
					case 1:
						k[i] = math.NaN()
					case 2:
						a[d-1] = math.Inf(1)
					case 3:
						k[i], a[0] = 1e300, 1e300
					case 4:
						k[i], a[d/2] = 0, math.Inf(-1)
					case 5:
						k[i] = math.Inf(-1)
					case 6:
						k[i] = 1e-3 // nothing clamped
					}
				}
				want := make([]float64, groups*d)
				wantFlag := make([]uint8, n)
				for i, ki := range k {
					a := xs[i*stride : i*stride+d]
					z := make([]float64, d)
					finite := true
					for j, v := range a {
						z[j] = ki * v
						finite = finite && !math.IsInf(z[j], 0) && !math.IsNaN(z[j])
					}
					if !finite {
						wantFlag[i] = 2
						continue
					}
					for j, v := range z {
						if c := math.Max(-tau, math.Min(tau, v)); c != v {
							v, wantFlag[i] = c, 1
						}
						p := v * inv[i]
						want[off[i]+j] += p
					}
				}
				ahead := make([]float64, 3*n) // the memory to prefetch: any, here longer than the rows' lines
				asm := func(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8) {
					ClampAddRows(y, off, inv, k, xs, stride, d, tau, flag, nil)
				}
				asmAhead := func(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8) {
					ClampAddRows(y, off, inv, k, xs, stride, d, tau, flag, ahead)
				}
				kernel := func(f func(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8, ahead []float64)) func(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8) {
					return func(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8) {
						f(y, off, inv, k, xs, stride, d, tau, flag, ahead)
					}
				}
				for _, impl := range []struct {
					name  string
					f     func(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8)
					known bool // flag 3 on entry where finiteScaled says so
				}{{"asm", asm, false}, {"asm ahead", asmAhead, false}, {"asm known", asmAhead, true}, {"sse2", kernel(clampAddRowsChecked), false}, {"sse2 known", kernel(clampAddRowsChecked), true},
					{"avx", kernel(clampAddRowsAVXChecked), false}, {"avx known", kernel(clampAddRowsAVXChecked), true}, {"generic", clampAddRowsGeneric, false}, {"generic known", clampAddRowsGeneric, true}} {
					if strings.HasPrefix(impl.name, "avx") && !hasAVX {
						continue
					}
					y := make([]float64, groups*d)
					flag := make([]uint8, n)
					if impl.known {
						for i, ki := range k {
							a := xs[i*stride : i*stride+d]
							if finiteScaled(ki, floats.Dot(a, a)) {
								flag[i] = 3
							}
						}
					}
					impl.f(y, off, inv, k, xs, stride, d, tau, flag)
					if !slices.Equal(flag, wantFlag) {
						t.Fatalf("%s, d = %d, stride %d, τ = %v: flags %v, want %v", impl.name, d, stride, tau, flag, wantFlag)
					}
					for j := range y {
						if math.Float64bits(y[j]) != math.Float64bits(want[j]) {
							t.Fatalf("%s, d = %d, stride %d, τ = %v: y[%d] = %v, want %v", impl.name, d, stride, tau, j, y[j], want[j])
						}
					}
				}
			}
		}
	}
}

// finiteScaled is FiniteScaledFlag's rule as a branch: whether every
// product k·a_j of a row a with ‖a‖² = sq is finite by sq < 2⁹⁰⁰ and
// |k| < 2⁵⁰⁰ (false says nothing).
func finiteScaled(k, sq float64) bool {
	return sq < 0x1p+900 && k < 0x1p+500 && k > -0x1p+500
}

// TestFiniteScaled: finiteScaled, and FiniteScaledFlag with it, say true
// only where every product k·a_j is finite, at the edges of their bounds
// and for non-finite inputs.
func TestFiniteScaled(t *testing.T) {
	big := math.Nextafter(0x1p+450, 0) // the largest |a_j| that sq < 2⁹⁰⁰ allows
	for _, c := range []struct {
		name string
		k    float64
		a    []float64
		want bool
	}{
		{"ordinary", -3.5, []float64{1, -2, 0.5}, true},
		{"zero row", 7, []float64{0, 0}, true},
		{"at the bounds", math.Nextafter(0x1p+500, 0), []float64{big}, true},
		{"k at 2⁵⁰⁰", 0x1p+500, []float64{1}, false},
		{"k at −2⁵⁰⁰", -0x1p+500, []float64{1}, false},
		{"sq at 2⁹⁰⁰", 1, []float64{0x1p+450}, false},
		{"NaN k", math.NaN(), []float64{1}, false},
		{"infinite k", math.Inf(-1), []float64{1}, false},
		{"infinite entry", 1, []float64{1, math.Inf(1)}, false},
		{"NaN entry", 1, []float64{math.NaN(), 1}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			sq := floats.Dot(c.a, c.a)
			got := finiteScaled(c.k, sq)
			if got != c.want {
				t.Fatalf("finiteScaled = %v, want %v", got, c.want)
			}
			if f, want := FiniteScaledFlag(c.k, sq), map[bool]uint8{true: 3, false: 0}[c.want]; f != want {
				t.Fatalf("FiniteScaledFlag = %d, want %d", f, want)
			}
			if f := FiniteScaledFlag(-c.k, sq); f != FiniteScaledFlag(c.k, sq) {
				t.Fatalf("FiniteScaledFlag(−k) = %d, FiniteScaledFlag(k) = %d", f, FiniteScaledFlag(c.k, sq))
			}
			if got {
				for _, v := range c.a {
					if z := c.k * v; math.IsInf(z, 0) || math.IsNaN(z) {
						t.Fatalf("said finite, but %v·%v = %v", c.k, v, z)
					}
				}
			}
		})
	}
}

// TestFiniteScaledFlag: FiniteScaledFlag is 3 exactly where finiteScaled
// is true for every sign of k, every sq ≥ 0 and NaN, at and beside both
// bounds, and 0 (nothing claimed) for a negative sq.
func TestFiniteScaledFlag(t *testing.T) {
	var vals []float64
	for _, v := range []float64{0, 0x1p-1074, 1e-300, 1, 3.5, 1e150, 0x1p+500, 0x1p+900, 1e300, math.MaxFloat64, math.Inf(1), math.NaN()} {
		vals = append(vals, v, math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1)))
	}
	for _, k := range vals {
		for _, ks := range []float64{k, -k} {
			for _, sq := range vals {
				want := uint8(0)
				if finiteScaled(ks, sq) {
					want = 3
				}
				if got := FiniteScaledFlag(ks, sq); got != want {
					t.Fatalf("FiniteScaledFlag(%v, %v) = %d, want %d", ks, sq, got, want)
				}
				if sq != 0 && sq == sq {
					if got := FiniteScaledFlag(ks, -sq); got != 0 {
						t.Fatalf("FiniteScaledFlag(%v, %v) = %d, want 0", ks, -sq, got)
					}
				}
			}
		}
	}
}

// seq is lo, lo + 1, …, hi.
func seq(lo, hi int) []int {
	var s []int
	for i := lo; i <= hi; i++ {
		s = append(s, i)
	}
	return s
}
