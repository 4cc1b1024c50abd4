package scenarios

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func testRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 42)) }

func randVec(r *rand.Rand, d int, scale float64) []float64 {
	v := make([]float64, d)
	for i := range v {
		v[i] = scale * r.NormFloat64()
	}
	return v
}

// randInBall draws a point uniformly-ish inside B(0, R).
func randInBall(r *rand.Rand, d int, radius float64) []float64 {
	v := randVec(r, d, 1)
	projectBall(v, 1)
	s := radius * r.Float64() / math.Max(math.Sqrt(sqnorm(v)), 1e-300)
	for i := range v {
		v[i] *= s
	}
	return v
}

// testObjective is one per-sample loss the tests below check, with a
// sampler of its x.
type testObjective struct {
	name string
	obj  objective
	x    func(r *rand.Rand, d int) []float64
}

// testObjectives are every registered loss (scoreLosses), without and with
// an in-loss ℓ2 term (labels ±1 for a classification loss), and the hard
// instances' two objectives: a new loss is checked by every test below.
var testObjectives = func() []testObjective {
	var out []testObjective
	for _, l := range scoreLosses {
		x := regSample
		if l.classification() {
			x = clsSample
		}
		out = append(out,
			testObjective{string(l.Name()), &glm{loss: l, d: 4}, x},
			testObjective{string(l.Name()) + "+l2", &glm{loss: l, d: 4, l2: 0.3}, x})
	}
	vec := func(r *rand.Rand, d int) []float64 { return randVec(r, d, 2) }
	return append(out, testObjective{"meanquad", &meanQuad{d: 4, mu: 2.5}, vec}, testObjective{"linear", &linear{d: 4}, vec})
}()

func regSample(r *rand.Rand, d int) []float64 { return randVec(r, d+1, 1.5) }
func clsSample(r *rand.Rand, d int) []float64 {
	x := randVec(r, d+1, 1.5)
	x[d] = 1
	if r.Float64() < 0.5 {
		x[d] = -1
	}
	return x
}

// TestGradMatchesFiniteDifferences checks ∇f against central differences
// of f at random points (away from kinks: a kink within h of the point is
// skipped), to 10⁻⁶ relative.
func TestGradMatchesFiniteDifferences(t *testing.T) {
	r := testRand(1)
	const h = 1e-6
	for _, c := range testObjectives {
		t.Run(c.name, func(t *testing.T) {
			d := c.obj.dim()
			g := make([]float64, d)
			checked := 0
			for range 200 {
				w := randInBall(r, d, 2)
				x := c.x(r, d)
				c.obj.grad(g, w, x)
				ok := true
				for j := range d {
					wp := append([]float64(nil), w...)
					wm := append([]float64(nil), w...)
					wp[j] += h
					wm[j] -= h
					fp, fm, f0 := c.obj.value(wp, x), c.obj.value(wm, x), c.obj.value(w, x)
					// Skip points near a kink: one-sided slopes disagree.
					if math.Abs((fp-f0)-(f0-fm)) > 1e-6*math.Max(1, math.Abs(f0)) {
						ok = false
						break
					}
					fd := (fp - fm) / (2 * h)
					if math.Abs(fd-g[j]) > 1e-6*math.Max(1, math.Abs(g[j])) {
						t.Fatalf("%s: ∂f/∂w_%d = %g, finite difference %g (w=%v x=%v)", c.name, j, g[j], fd, w, x)
					}
				}
				if ok {
					checked++
				}
			}
			if checked < 100 {
				t.Errorf("%s: only %d of 200 points were away from kinks", c.name, checked)
			}
		})
	}
}

// TestSupGradIsTheSupremum checks sup_{‖w‖≤R}‖∇f(w, x)‖: no point of the
// ball exceeds it, and the maximizer the doc names (w = ±R a/‖a‖) attains it.
func TestSupGradIsTheSupremum(t *testing.T) {
	r := testRand(2)
	const R = 1.7
	for _, c := range testObjectives {
		t.Run(c.name, func(t *testing.T) {
			d := c.obj.dim()
			g := make([]float64, d)
			for range 100 {
				x := c.x(r, d)
				sup := c.obj.supGrad(x, R)
				for range 50 {
					w := randInBall(r, d, R)
					c.obj.grad(g, w, x)
					if n := math.Sqrt(sqnorm(g)); n > sup*(1+1e-12) {
						t.Fatalf("%s: ‖∇f(w, x)‖ = %g exceeds supGrad %g", c.name, n, sup)
					}
				}
				// Attained at a boundary point along ±a (or ±x).
				dir := append([]float64(nil), x[:d]...) // a, or x itself
				nd := math.Sqrt(sqnorm(dir))
				best := 0.0
				for _, sgn := range []float64{1, -1} {
					w := make([]float64, d)
					for j := range w {
						w[j] = sgn * R * dir[j] / nd
					}
					c.obj.grad(g, w, x)
					best = math.Max(best, math.Sqrt(sqnorm(g)))
				}
				if math.Abs(best-sup) > 1e-12*sup && !c.obj.affine() {
					t.Fatalf("%s: boundary max %g, supGrad %g", c.name, best, sup)
				}
			}
		})
	}
}

// TestSmoothedBounds checks ℓ ≤ ℓ_τ ≤ ℓ + cτ (the certificate of F*) and
// that the smoothed gradient is the derivative of the smoothed value.
func TestSmoothedBounds(t *testing.T) {
	r := testRand(3)
	for _, c := range testObjectives {
		t.Run(c.name, func(t *testing.T) {
			d := c.obj.dim()
			g := make([]float64, d)
			for _, tau := range []float64{1, 1e-2, 1e-5} {
				for range 200 {
					w := randInBall(r, d, 2)
					x := c.x(r, d)
					clear(g)
					v := c.obj.value(w, x)
					vt := c.obj.smoothed(w, x, tau, 1, g)
					if vt < v-1e-12*math.Max(1, math.Abs(v)) || vt > v+c.obj.smoothGap()*tau+1e-12*math.Max(1, math.Abs(v)) {
						t.Fatalf("%s τ=%g: f = %g, f_τ = %g, want within [f, f + %gτ]", c.name, tau, v, vt, c.obj.smoothGap())
					}
					// Directional derivative along a random direction.
					u := randVec(r, d, 1)
					const h = 1e-7
					wp := append([]float64(nil), w...)
					wm := append([]float64(nil), w...)
					for j := range u {
						wp[j] += h * u[j]
						wm[j] -= h * u[j]
					}
					gg := make([]float64, d)
					fd := (c.obj.smoothed(wp, x, tau, 1, gg) - c.obj.smoothed(wm, x, tau, 1, gg)) / (2 * h)
					if want := dot(g, u); math.Abs(fd-want) > 1e-4*math.Max(1, math.Abs(want))/math.Min(1, tau) {
						t.Fatalf("%s τ=%g: directional derivative %g, smoothed gradient gives %g", c.name, tau, fd, want)
					}
				}
			}
		})
	}
}

func TestGradDoesNotAllocate(t *testing.T) {
	r := testRand(4)
	for _, c := range testObjectives {
		t.Run(c.name, func(t *testing.T) {
			d := c.obj.dim()
			g := make([]float64, d)
			w := randInBall(r, d, 1)
			x := c.x(r, d)
			if a := testing.AllocsPerRun(100, func() { c.obj.grad(g, w, x) }); a != 0 {
				t.Errorf("%s: grad allocates %g times", c.name, a)
			}
		})
	}
}

func TestParseLoss(t *testing.T) {
	for _, l := range Losses {
		t.Run(fmt.Sprint(l), func(t *testing.T) {
			if got, err := ParseLoss(string(l)); err != nil || got != l {
				t.Errorf("ParseLoss(%q) = %q, %v", l, got, err)
			}
		})
	}
	if _, err := ParseLoss("huber"); err == nil || !strings.Contains(err.Error(), "want one of squared, logistic, hinge, absolute") {
		t.Errorf("ParseLoss(huber) = %v, want a refusal listing the losses", err)
	}
}

// softplusSigmoid gives the same bits as softplus and sigmoid, on both
// sides of 0, at 0, and where the exponential underflows.
func TestSoftplusSigmoidSameBits(t *testing.T) {
	for _, x := range []float64{0, 1e-300, -1e-300, 0.5, -0.5, 3, -3, 36.7, -36.7, 700, -700, 745.1, -745.1, 745.9, -745.9, 746, -746, 800, -800, math.Inf(1), math.Inf(-1)} {
		t.Run(fmt.Sprintf("x=%g", x), func(t *testing.T) {
			sp, sg := softplusSigmoid(x)
			if sp != softplus(x) || sg != sigmoid(x) {
				t.Errorf("x = %g: (%v, %v), want (%v, %v)", x, sp, sg, softplus(x), sigmoid(x))
			}
		})
	}
	// Around the shortcuts from ±37 on, every 2⁻¹² from 30 to 50 and from
	// −50 to −30, and 10⁵ points spread over [−800, 800].
	t.Run("sweep", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		xs := make([]float64, 0, 200000)
		for x := 30.0; x <= 50; x += 1.0 / 4096 {
			xs = append(xs, x, -x)
		}
		for range 100000 {
			xs = append(xs, 1600*r.Float64()-800)
		}
		for _, x := range xs {
			if sp, sg := softplusSigmoid(x); sp != softplus(x) || sg != sigmoid(x) {
				t.Fatalf("x = %v: (%v, %v), want (%v, %v)", x, sp, sg, softplus(x), sigmoid(x))
			}
		}
	})
}
