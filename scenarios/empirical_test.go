package scenarios

import (
	"math"
	"strings"
	"testing"

	"dpso/theory"
)

// supSubgradPow is sup over the subgradients of f(·, x) at w of ‖g‖^k, by
// first principles: the subdifferential of the hinge max(0, 1 − y⟨w, a⟩) is
// {−t·y·a : t ∈ T} with T = {1}, {0} or [0, 1] at the kink; of |⟨w, a⟩ − y|
// it is {s·a : s ∈ S} with S = {±1} or [−1, 1] at the kink; ‖t·c + λ₂w‖ is
// convex in t, so its sup over an interval is at an end.
func supSubgradPow(o objective, w, x []float64, k float64) float64 {
	if mq, ok := o.(*meanQuad); ok {
		var n2 float64
		for j := range w {
			d := mq.mu * (w[j] - x[j])
			n2 += d * d
		}
		return math.Pow(n2, k/2)
	}
	gl := o.(*glm)
	a, y := x[:gl.d], x[gl.d]
	s := dot(w, a)
	var ts []float64
	switch gl.loss.(type) {
	case hingeLoss:
		switch m := y * s; {
		case m < 1:
			ts = []float64{-y}
		case m > 1:
			ts = []float64{0}
		default:
			ts = []float64{0, -y}
		}
	case absoluteLoss:
		switch r := s - y; {
		case r > 0:
			ts = []float64{1}
		case r < 0:
			ts = []float64{-1}
		default:
			ts = []float64{-1, 1}
		}
	}
	best := 0.0
	for _, t := range ts {
		var n2 float64
		for j := range w {
			g := t*a[j] + o.inLossL2()*w[j]
			n2 += g * g
		}
		best = math.Max(best, math.Pow(n2, k/2))
	}
	return best
}

// batchSup is max over a polar grid of the ball B(0, R) in R² (and the
// extra points) of (1/m) Σ sup_subgradients ‖∇f(w, x_i)‖^k: a brute-force
// lower estimate of r̂_m(X)^{(k)} that tends to it as the grid refines.
func batchSup(o objective, xs [][]float64, R, k float64, extra ...[]float64) (float64, []float64) {
	val := func(w []float64) float64 {
		var s float64
		for _, x := range xs {
			s += supSubgradPow(o, w, x, k)
		}
		return s / float64(len(xs))
	}
	best, arg := val([]float64{0, 0}), []float64{0, 0}
	try := func(w []float64) {
		if v := val(w); v > best {
			best, arg = v, w
		}
	}
	for _, w := range extra {
		try(w)
	}
	for i := 1; i <= 60; i++ {
		r := R * float64(i) / 60
		for j := 0; j < 720; j++ {
			th := 2 * math.Pi * float64(j) / 720
			try([]float64{r * math.Cos(th), r * math.Sin(th)})
		}
	}
	return best, arg
}

// TestEmpiricalSupFirstPrinciples checks the claims EmpiricalMoment's
// exact cases rest on, by brute force over a grid of W in two dimensions:
// for the hinge and the absolute loss without an ℓ2 term, and for mean-hard's
// two-point law, the sup over W of a batch's mean ‖∇f‖^k is the mean of the
// per-sample sups (so r̂_m = (1/m) Σ sup_w ‖∇f(w, x_i)‖^k, ẽ_m = r̃_k^k),
// attained at one point (w = 0, resp. −Rν/‖ν‖); with an ℓ2 term it is
// strictly between the mean at w = 0 and the mean of the per-sample sups
// (the bracket's ends).
func TestEmpiricalSupFirstPrinciples(t *testing.T) {
	const R, k = 1.5, 4.0
	xs := [][]float64{{1, 0.5, 1}, {-0.3, 2, -1}, {0.7, -1.2, 1}, {-1.5, -0.2, -1}, {0.1, 0.4, 1}}
	for _, c := range []struct {
		name string
		o    objective
	}{
		{"hinge", &glm{loss: hingeLoss{}, d: 2}},
		{"absolute", &glm{loss: absoluteLoss{}, d: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var atZero float64
			for _, x := range xs {
				atZero += math.Pow(c.o.supGrad(x, R), k) / float64(len(xs))
			}
			got, _ := batchSup(c.o, xs, R, k)
			if math.Abs(got-atZero) > 1e-12*atZero {
				t.Errorf("%s, λ₂ = 0: grid sup %v, mean ‖a‖^k %v: the sup is not the mean of the per-sample sups at w = 0", c.name, got, atZero)
			}
			// With an ℓ2 term: strictly inside (mean at w = 0, mean of sups).
			o := &glm{loss: c.o.(*glm).loss, d: 2, l2: 0.5}
			var hi float64
			for _, x := range xs {
				hi += math.Pow(o.supGrad(x, R), k) / float64(len(xs))
			}
			got, _ = batchSup(o, xs, R, k)
			if !(got > atZero && got < hi*(1-1e-3)) {
				t.Errorf("%s, λ₂ = 0.5: grid sup %v not strictly inside (%v, %v)", c.name, got, atZero, hi)
			}
		})
	}
	// mean-hard's law: x ∈ {0, c·ν}, one direction.
	mu, nu := 2.0, []float64{1 / math.Sqrt2, -1 / math.Sqrt2}
	mq := &meanQuad{d: 2, mu: mu}
	batch := [][]float64{{0, 0}, {3 * nu[0], 3 * nu[1]}, {0, 0}, {3 * nu[0], 3 * nu[1]}, {3 * nu[0], 3 * nu[1]}}
	var want float64
	for _, x := range batch {
		want += math.Pow(mq.supGrad(x, R), k) / float64(len(batch))
	}
	star := []float64{-R * nu[0], -R * nu[1]}
	got, arg := batchSup(mq, batch, R, k, star)
	if math.Abs(got-want) > 1e-12*want || math.Hypot(arg[0]-star[0], arg[1]-star[1]) > 1e-12 {
		t.Errorf("mean-hard law: grid sup %v at %v, want the mean of the per-sample sups %v at −Rν̂ = %v", got, arg, want, star)
	}
}

// TestEmpiricalMomentScenarios checks EmpiricalMoment on the catalogue's
// non-smooth scenarios: exact R̃_{2k,n} = r̃_2k·√(1 − 2^{−l}) where the sup
// is attained at one point (l = ⌊log₂ n⌋, also for n not a power of 2),
// a bracket Lo ≤ V = r̃_2k·√(1 − 2^{−l}) elsewhere, and R̃ ≤ r̃_2k (lem:
// empirical moments) on every one.
func TestEmpiricalMomentScenarios(t *testing.T) {
	l2 := 0.1
	cases := []struct {
		def   ProblemDef
		exact bool
	}{
		{ProblemDef{Scenario: HingeT, Class: theory.NonsmoothConvex}, true},
		{ProblemDef{Scenario: AbsRegT, Class: theory.NonsmoothConvex}, true},
		{ProblemDef{Scenario: HingeT, Class: theory.NonsmoothSC}, false},
		{ProblemDef{Scenario: AbsRegT, Class: theory.NonsmoothSC}, false},
		{ProblemDef{Scenario: HingeT, Class: theory.NonsmoothConvex, Lambda2: &l2}, false},
		{ProblemDef{Scenario: MeanHard, Class: theory.NonsmoothSC, N: 1024}, true},
		{ProblemDef{Scenario: AffineHard, Class: theory.NonsmoothConvex, N: 512}, true},
	}
	for _, c := range cases {
		t.Run(caseName(c.def), func(t *testing.T) {
			in := build(t, c.def)
			k2 := 2 * in.Def().K
			r2k := in.moment(k2)
			for _, n := range []int{2, 3, 1000, 1024, 2047} {
				e := in.EmpiricalMoment(k2, n)
				l := int(math.Floor(math.Log2(float64(n))))
				want := r2k * math.Sqrt(1-math.Exp2(-float64(l)))
				name := c.def.Scenario + "/" + string(c.def.Class)
				if e.L != l || math.Abs(e.V-want) > 1e-12*want {
					t.Errorf("%s n = %d: V = %v, l = %d; want r̃_2k·√(1 − 2^−l) = %v, l = %d", name, n, e.V, e.L, want, l)
				}
				if e.Exact != c.exact {
					t.Errorf("%s n = %d: exact = %v, want %v (%s)", name, n, e.Exact, c.exact, e.Method)
				}
				if !(e.V <= r2k) || !(e.Lo <= e.V) || (c.exact && e.Lo != e.V) {
					t.Errorf("%s n = %d: want Lo ≤ V ≤ r̃_2k (Lo = V when exact), got %v, %v, %v", name, n, e.Lo, e.V, r2k)
				}
				if !c.exact && n >= 4 && !(e.Lo < e.V) { // n < 4: the one phase has n_1 = 1, R̃ = r̃_2k/√2 exactly
					t.Errorf("%s n = %d: bracket [%v, %v] has no lower end below its upper one", name, n, e.Lo, e.V)
				}
			}
		})
	}
	// Not computed: a smooth loss, n < 2.
	in := build(t, ProblemDef{Scenario: LinRegT})
	if e := in.EmpiricalMoment(4, 1024); e.Computed() {
		t.Errorf("linreg-t: R̃ computed (%v), want not computed for a smooth loss", e.V)
	}
	in = build(t, ProblemDef{Scenario: HingeT})
	if e := in.EmpiricalMoment(8, 1); e.Computed() || !strings.Contains(e.Method, "n < 2") {
		t.Errorf("hinge-t n = 1: %+v, want not computed", e)
	}
}

// TestBoundsOfEmpirical: a non-smooth run's bounds carry the -emp
// statement at the computed R̃ right after the localized bound, with a
// value below it; a smooth run's and a shuffle run's do not.
func TestBoundsOfEmpirical(t *testing.T) {
	for _, c := range []struct {
		def      ProblemDef
		base, id string
	}{
		{ProblemDef{Scenario: HingeT, Class: theory.NonsmoothConvex}, theory.NonsmoothConvexLocalized, theory.NonsmoothConvexLocalizedEmp},
		{ProblemDef{Scenario: AbsRegT, Class: theory.NonsmoothSC}, theory.NonsmoothSCLocalized, theory.NonsmoothSCLocalizedEmp},
	} {
		t.Run(caseName(c.def), func(t *testing.T) {
			in := build(t, c.def)
			tin := in.WithEmpirical(in.Theory())
			bs, err := BoundsOf(tin)
			if err != nil {
				t.Fatal(err)
			}
			i := indexOf(bs, c.base)
			if i < 0 || i+1 >= len(bs) || bs[i+1].ID != c.id {
				t.Fatalf("%s: bounds %v: want %s right after %s", c.def.Scenario, ids(bs), c.id, c.base)
			}
			if !(bs[i+1].Value <= bs[i].Value) || !strings.Contains(bs[i+1].Source, "R̃_{2k,n") {
				t.Errorf("%s: -emp bound %v (source %q) not ≤ %v or not saying its R̃", c.def.Scenario, bs[i+1].Value, bs[i+1].Source, bs[i].Value)
			}
			tin.Shuffle, tin.Delta = true, 1e-6
			bs, _ = BoundsOf(tin)
			if indexOf(bs, c.id) >= 0 {
				t.Errorf("%s shuffle: %v lists %s", c.def.Scenario, ids(bs), c.id)
			}
		})
	}
	in := build(t, ProblemDef{Scenario: LinRegT})
	if tin := in.WithEmpirical(in.Theory()); tin.R2kEmp != 0 || tin.R2kEmp4 != 0 || tin.EmpWhat != "" {
		t.Errorf("linreg-t: WithEmpirical set %v, %v, %q", tin.R2kEmp, tin.R2kEmp4, tin.EmpWhat)
	}
}

func indexOf(bs []theory.Bound, id string) int {
	for i, b := range bs {
		if b.ID == id {
			return i
		}
	}
	return -1
}

func ids(bs []theory.Bound) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.ID)
	}
	return out
}
