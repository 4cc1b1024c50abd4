package scenarios

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"dpso/solvers"
	"dpso/theory"
)

func f64(v float64) *float64 { return &v }

// TestClosedFormRiskMatchesMonteCarlo checks every closed-form F against
// the Monte Carlo average of f(w, x) (+ f¹(w)) over the scenario's own data
// stream at several w, within 5 standard errors sd(f)/√N. Tails are light
// enough (ν, α = 20) that f has finite fourth moments, so the sample
// standard error is reliable; a wrong covariance or noise constant is off
// by many standard errors.
func TestClosedFormRiskMatchesMonteCarlo(t *testing.T) {
	t.Parallel()
	const n = 200000
	specs := []ProblemDef{
		{Scenario: Example1},
		{Scenario: LinRegT, D: 3, Tail: 20, Params: map[string]float64{"cond": 5, "noise": 0.7}},
		{Scenario: LinRegPareto, D: 3, Tail: 20, Params: map[string]float64{"cond": 3, "wstar": 0.8}},
		{Scenario: LassoT, D: 4, Tail: 20, Lambda1: f64(0.1), Lambda2: f64(0.2)},
		{Scenario: Contaminated, D: 3, Tail: 0.05, Params: map[string]float64{"size": 10}},
		{Scenario: AbsRegT, D: 3, Tail: 20, Params: map[string]float64{"noise": 0.5}},
		{Scenario: AbsRegT, D: 3, Tail: 20, Class: theory.NonsmoothSC, Lambda2: f64(0.3)},
		{Scenario: MeanHard, D: 4, N: 50, Eps: 0.5, Params: map[string]float64{"curvature": 2}},
		{Scenario: AffineHard, D: 4, N: 50, Eps: 0.5},
	}
	for _, s := range specs {
		t.Run(caseName(s), func(t *testing.T) {
			in := build(t, s)
			if in.RiskInfo().Method != "closed form" {
				t.Fatalf("%s: risk method %q, want closed form", s.Scenario, in.RiskInfo().Method)
			}
			d := in.Dim()
			r := testRand(7)
			points := [][]float64{make([]float64, d), in.RiskInfo().WStar, randInBall(r, d, in.m.radius)}
			ns := in.def
			ns.N = n
			tmp := *in
			tmp.def = ns
			data := solvers.Materialize(tmp.Dataset(solvers.Seeded, 0, 3))
			for _, w := range points {
				var s1, s2 float64
				for i := range n {
					v := in.m.obj.value(w, data.Row(i))
					s1 += v
					s2 += v * v
				}
				mean := s1/n + in.m.reg.Value(w)
				se := math.Sqrt((s2/n - (s1/n)*(s1/n)) / n)
				if got := in.Risk(w); math.Abs(got-mean) > 5*se+1e-12 {
					t.Errorf("%s: F(%v) = %g, Monte Carlo %g ± %g", s.Scenario, w, got, mean, se)
				}
			}
			// Excess risk is 0 at the minimizer and positive elsewhere.
			if ex, _ := in.Excess(in.RiskInfo().WStar); ex != 0 {
				t.Errorf("%s: excess at w* = %g, want 0", s.Scenario, ex)
			}
		})
	}
}

// TestQuadRiskKKT checks the exact minimizer of the diagonal quadratic
// (+ λ₁‖w‖₁ + (λ₂/2)‖w‖²) over the ball through its KKT conditions: for
// each j, h_j(w_j − c_j) + (λ₂ + ν)w_j + λ₁ s_j = 0 with s_j = sign(w_j) if
// w_j ≠ 0 and |h_j c_j| ≤ λ₁ if w_j = 0; ν ≥ 0 and ν(‖w‖ − R) = 0. And no
// random feasible point does better.
func TestQuadRiskKKT(t *testing.T) {
	r := testRand(11)
	for trial := range 200 {
		d := 1 + r.IntN(6)
		h, c := make([]float64, d), make([]float64, d)
		for j := range h {
			h[j] = 0.1 + 3*r.Float64()
			c[j] = 2 * r.NormFloat64()
		}
		l1, l2 := 0.0, 0.0
		if trial%2 == 0 {
			l1 = 0.5 * r.Float64()
		}
		if trial%3 == 0 {
			l2 = r.Float64()
		}
		R := 0.2 + 2*r.Float64()
		q := newQuadRisk(h, c, 0, l1, l2, R)
		w := q.wopt
		norm := math.Sqrt(sqnorm(w))
		if norm > R*(1+1e-15) {
			t.Fatalf("‖w*‖ = %g > R = %g", norm, R)
		}
		nu := q.nu
		if nu < 0 || (nu > 0 && math.Abs(norm-R) > 1e-12*R) {
			t.Fatalf("complementary slackness: ν = %g, ‖w‖ = %g, R = %g", nu, norm, R)
		}
		for j := range w {
			grad := h[j]*(w[j]-c[j]) + (l2+nu)*w[j]
			if w[j] != 0 {
				if res := grad + l1*math.Copysign(1, w[j]); math.Abs(res) > 1e-9*(1+math.Abs(h[j]*c[j])) {
					t.Fatalf("trial %d: stationarity residual %g at j=%d", trial, res, j)
				}
			} else if math.Abs(h[j]*c[j]) > l1*(1+1e-12)+1e-15 {
				t.Fatalf("trial %d: w_%d = 0 but |h c| = %g > λ₁ = %g", trial, j, math.Abs(h[j]*c[j]), l1)
			}
		}
		for range 200 {
			u := randInBall(r, d, R)
			if q.phi(u) < q.phiOpt-1e-12*(1+math.Abs(q.phiOpt)) {
				t.Fatalf("trial %d: φ(%v) = %g < φ* = %g", trial, u, q.phi(u), q.phiOpt)
			}
		}
	}
}

// trustRegion solves min ½wᵀHw − bᵀw over ‖w‖ ≤ R exactly (H ≻ 0) by an
// eigen-decomposition and bisection on the secular equation
// Σ (v_iᵀb)²/(λ_i + ν)² = R².
func trustRegion(t *testing.T, H *mat.SymDense, b []float64, R float64) []float64 {
	var eig mat.EigenSym
	if !eig.Factorize(H, true) {
		t.Fatal("eigen-decomposition failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	d := len(b)
	bt := make([]float64, d)
	bv := mat.NewVecDense(d, b)
	for i := range d {
		bt[i] = mat.Dot(vecs.ColView(i), bv)
	}
	norm := func(nu float64) float64 {
		var s float64
		for i := range d {
			s += bt[i] * bt[i] / ((vals[i] + nu) * (vals[i] + nu))
		}
		return math.Sqrt(s)
	}
	nu := 0.0
	if norm(0) > R {
		lo, hi := 0.0, 1.0
		for norm(hi) > R {
			hi *= 2
		}
		for range 300 {
			mid := (lo + hi) / 2
			if norm(mid) > R {
				lo = mid
			} else {
				hi = mid
			}
		}
		nu = hi
	}
	w := make([]float64, d)
	for i := range d {
		coef := bt[i] / (vals[i] + nu)
		for j := range d {
			w[j] += coef * vecs.At(j, i)
		}
	}
	return w
}

// TestSampleRiskAgainstKnownOptima checks the certified minimizer behind
// F* on data whose optimum is known: the squared loss (exact trust-region
// solution, constraint active and inactive), separable hinge data and
// noiseless absolute-loss data (F̂* = 0), and a logistic boundary optimum
// (KKT: ∇F̂(w) = −νw, ν ≥ 0, ‖w‖ = R).
func TestSampleRiskAgainstKnownOptima(t *testing.T) {
	ctx := context.Background()
	r := testRand(5)
	const n, d = 400, 3
	a := make([]float64, n*(d+1))
	w0 := []float64{0.8, -0.5, 0.3}
	for i := range n {
		row := a[i*(d+1) : (i+1)*(d+1)]
		for j := range d {
			row[j] = r.NormFloat64() * float64(j+1)
		}
		row[d] = dot(w0, row[:d]) + 0.3*r.NormFloat64()
	}
	data := &solvers.Matrix{Data: a, Dim: d + 1}
	H := mat.NewSymDense(d, nil)
	b := make([]float64, d)
	for i := range n {
		row := data.Row(i)
		for j := range d {
			b[j] += row[j] * row[d] / n
			for k := j; k < d; k++ {
				H.SetSym(j, k, H.At(j, k)+row[j]*row[k]/n)
			}
		}
	}
	for _, R := range []float64{5, 0.4} {
		t.Run(fmt.Sprintf("R=%g", R), func(t *testing.T) { // interior, then active constraint
			sr, err := newSampleRisk(ctx, &glm{loss: squaredLoss{}, d: d}, solvers.Regularizer{}, data, R, Empirical, "test", nil)
			if err != nil {
				t.Fatal(err)
			}
			want := trustRegion(t, H, b, R)
			for j := range want {
				if math.Abs(sr.wopt[j]-want[j]) > 1e-7 {
					t.Errorf("squared R=%g: w* = %v, exact %v", R, sr.wopt, want)
					break
				}
			}
			fw := sr.value(want)
			if sr.fopt-fw > sr.width+1e-12 || fw-sr.fopt > 1e-12 {
				t.Errorf("squared R=%g: F̂* = %g ± %g, exact %g", R, sr.fopt, sr.width, fw)
			}
			if sr.width > 1e-8 {
				t.Errorf("squared R=%g: certified width %g, want ≤ 1e-8", R, sr.width)
			}
		})
	}

	// Separable hinge data: y = sign(⟨w0, a⟩) with margin |⟨w0, a⟩| ≥ 1
	// (rows closer are dropped), ‖w0‖ < R: F̂* = 0.
	var hd []float64
	for len(hd) < n*(d+1) {
		row := randVec(r, d, 2)
		s := dot(w0, row)
		if math.Abs(s) < 1 {
			continue
		}
		hd = append(hd, row...)
		hd = append(hd, math.Copysign(1, s))
	}
	hinge := &solvers.Matrix{Data: hd, Dim: d + 1}
	sr, err := newSampleRisk(ctx, &glm{loss: hingeLoss{}, d: d}, solvers.Regularizer{}, hinge, 2, Empirical, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !(sr.fopt >= 0 && sr.fopt-sr.width <= 0 && sr.width < 1e-4) {
		t.Errorf("separable hinge: F̂* = %g ± %g, want 0 within a width < 1e-4", sr.fopt, sr.width)
	}

	// Noiseless absolute loss: y = ⟨w0, a⟩, F̂* = 0 at w0.
	ad := append([]float64(nil), a...)
	for i := range n {
		row := ad[i*(d+1) : (i+1)*(d+1)]
		row[d] = dot(w0, row[:d])
	}
	sr, err = newSampleRisk(ctx, &glm{loss: absoluteLoss{}, d: d}, solvers.Regularizer{}, &solvers.Matrix{Data: ad, Dim: d + 1}, 2, Empirical, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !(sr.fopt >= 0 && sr.fopt-sr.width <= 0 && sr.width < 1e-4) {
		t.Errorf("noiseless absolute: F̂* = %g ± %g, want 0", sr.fopt, sr.width)
	}
	for j := range w0 {
		if math.Abs(sr.wopt[j]-w0[j]) > 1e-3 {
			t.Errorf("noiseless absolute: w* = %v, want %v", sr.wopt, w0)
			break
		}
	}

	// Logistic with the constraint active: KKT.
	ld := append([]float64(nil), hd...)
	for i := range n { // flip 10% of the labels so the optimum is finite
		if i%10 == 0 {
			ld[i*(d+1)+d] *= -1
		}
	}
	logi := &glm{loss: logisticLoss{}, d: d}
	lm := &solvers.Matrix{Data: ld, Dim: d + 1}
	R := 0.5
	sr, err = newSampleRisk(ctx, logi, solvers.Regularizer{}, lm, R, Empirical, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	g := make([]float64, d)
	for i := range n {
		logi.smoothed(sr.wopt, lm.Row(i), 0, 1.0/n, g)
	}
	norm := math.Sqrt(sqnorm(sr.wopt))
	nu := -dot(g, sr.wopt) / (norm * norm)
	if math.Abs(norm-R) > 1e-9 || nu <= 0 {
		t.Fatalf("logistic: ‖w‖ = %g (R = %g), ν = %g; want the constraint active", norm, R, nu)
	}
	for j := range g {
		if res := g[j] + nu*sr.wopt[j]; math.Abs(res) > 1e-7 {
			t.Errorf("logistic KKT residual %g at j=%d (∇F̂ = %v, ν = %g, w = %v)", res, j, g, nu, sr.wopt)
		}
	}
	if sr.width > 1e-8 {
		t.Errorf("logistic: certified width %g", sr.width)
	}
}

// TestEvalSampleRisk checks the evaluation-sample risk of a scenario
// without a closed form: F̂* is certified to a tiny width, the excess is 0
// at w* and never below −width elsewhere, and its standard error is
// reported.
func TestEvalSampleRisk(t *testing.T) {
	for _, s := range []ProblemDef{
		{Scenario: LogRegT, D: 2},
		{Scenario: HingeT, D: 2, Class: theory.NonsmoothSC},
	} {
		t.Run(caseName(s), func(t *testing.T) {
			in := build(t, s)
			ri := in.RiskInfo()
			if ri.EvalSize != EvalSize || ri.Kind != Population {
				t.Errorf("%s: eval size %d kind %s", s.Scenario, ri.EvalSize, ri.Kind)
			}
			if ri.FStarErr > 1e-4 {
				t.Errorf("%s: F* certified to ±%g, want ≤ 1e-4", s.Scenario, ri.FStarErr)
			}
			if ex, _ := in.Excess(ri.WStar); math.Abs(ex) > 1e-12 {
				t.Errorf("%s: excess at w* = %g", s.Scenario, ex)
			}
			r := testRand(9)
			for range 50 {
				w := randInBall(r, in.Dim(), in.m.radius)
				ex, se := in.Excess(w)
				if ex < -ri.FStarErr || !(se > 0) {
					t.Errorf("%s: excess %g ± %g at %v", s.Scenario, ex, se, w)
				}
			}
		})
	}
}

func TestEvalSizeFor(t *testing.T) {
	for _, c := range []struct{ sdim, want int }{{2, 40000}, {100, 40000}, {101, 39603}, {201, 19900}, {1001, 5000}, {10001, 5000}} {
		t.Run(fmt.Sprintf("sdim=%d", c.sdim), func(t *testing.T) {
			if got := EvalSizeFor(c.sdim); got != c.want {
				t.Errorf("EvalSizeFor(%d) = %d, want %d", c.sdim, got, c.want)
			}
		})
	}
}

// TestAbsRiskMinimizer checks absreg-t's 1-d minimization along [0, w*]:
// with λ₂ = 0 and w* ∈ W the minimizer is w*, and in general no feasible
// point does better.
func TestAbsRiskMinimizer(t *testing.T) {
	r := testRand(13)
	for trial := range 100 {
		d := 1 + r.IntN(5)
		ws := randVec(r, d, 1)
		c, sigma, l2, R := 0.5+r.Float64(), r.Float64(), 0.0, 0.3+2*r.Float64()
		if trial%2 == 1 {
			l2 = 2 * r.Float64()
		}
		a := newAbsRisk(c, sigma, l2, R, ws)
		if l2 == 0 && math.Sqrt(sqnorm(ws)) <= R {
			for j := range ws {
				if math.Abs(a.wopt[j]-ws[j]) > 1e-12 {
					t.Fatalf("λ₂ = 0, w* inside: minimizer %v, want %v", a.wopt, ws)
				}
			}
		}
		for range 300 {
			u := randInBall(r, d, R)
			if a.value(u) < a.fopt-1e-12 {
				t.Fatalf("trial %d: F(%v) = %g < F* = %g", trial, u, a.value(u), a.fopt)
			}
		}
	}
}
