package scenarios

import (
	"fmt"
	"math"
	"testing"

	"dpso/scenarios/dist"
	"dpso/solvers"
	"dpso/theory"
)

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r *= float64(n-k+i) / float64(i)
	}
	return r
}

// TestExample1Claims checks the paper's Example 1 (example: gauss lin reg):
// r̃_2 ≤ 5, r̃_4 ≤ 8, r̃_8 ≤ 14 while L_f ≥ 10²⁰. The quadrature is checked
// against the binomial expansion for integer k,
// E|x₁|^k(|x₁| + |x₂|)^k = Σ_j C(k, j) E|Z|^{k+j} E|Z|^{k−j}, which gives
// r̃_2 = √(4 + 8/π) and r̃_4 = (204 + 512/π)^{1/4} by hand.
func TestExample1Claims(t *testing.T) {
	in := build(t, ProblemDef{Scenario: Example1})
	c := in.Constants()
	claims := []struct{ k, bound float64 }{{2, 5}, {4, 8}, {8, 14}}
	for _, cl := range claims {
		t.Run(fmt.Sprintf("k=%g", cl.k), func(t *testing.T) {
			if r := c.R(cl.k); !(r <= cl.bound) {
				t.Errorf("r̃_%g = %g, the paper claims ≤ %g", cl.k, r, cl.bound)
			}
		})
	}
	if !(c.Lf >= 1e20) || math.IsInf(c.Lf, 1) {
		t.Errorf("L_f = %g, want finite ≥ 10²⁰", c.Lf)
	}
	if c.Lf != 2e20 {
		t.Errorf("L_f = %g, want 10¹⁰·(10¹⁰ + 10¹⁰) = 2·10²⁰", c.Lf)
	}
	hand := map[float64]float64{2: math.Sqrt(4 + 8/math.Pi), 4: math.Pow(204+512/math.Pi, 0.25)}
	for k, want := range hand {
		t.Run(fmt.Sprintf("k=%g", k), func(t *testing.T) {
			if got := c.R(k); math.Abs(got-want) > 1e-13*want {
				t.Errorf("r̃_%g = %.17g, hand value %.17g", k, got, want)
			}
		})
	}
	for _, k := range []int{2, 3, 4, 6, 8, 12, 16} {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			var s float64 // dist.ChiMoment(1, p) is E|Z|^p (χ_1 = |Z|)
			for j := 0; j <= k; j++ {
				s += binom(k, j) * dist.ChiMoment(1, float64(k+j)) * dist.ChiMoment(1, float64(k-j))
			}
			want := math.Pow(s, 1/float64(k))
			if got := c.R(float64(k)); math.Abs(got-want) > 1e-12*want {
				t.Errorf("r̃_%d = %.17g, binomial expansion %.17g", k, got, want)
			}
		})
	}
	if c.Beta != 1 || c.Mu != 1 || c.D != 2 {
		t.Errorf("β, μ, D = %g, %g, %g; want 1, 1, 2 (unit ball, unit variance)", c.Beta, c.Mu, c.D)
	}
	// s = 1/2 scales every moment by s².
	half := build(t, ProblemDef{Scenario: Example1, Params: map[string]float64{"sigma": 0.5}})
	if got, want := half.Constants().R(3), c.R(3)/4; math.Abs(got-want) > 1e-13*want {
		t.Errorf("sigma = 0.5: r̃_3 = %g, want r̃_3(1)/4 = %g", got, want)
	}
}

// supGradSample draws n samples of trial 0's data stream and returns the
// sup-gradients G_i = sup_{w∈W}‖∇f(w, x_i)‖.
func supGradSample(in *Instance, n int) []float64 {
	s := in.def
	s.N = n
	tmp := *in
	tmp.def = s
	rd := tmp.Dataset(solvers.Seeded, 0, 0).Open()
	x := make([]float64, in.SampleDim())
	out := make([]float64, n)
	for i := range out {
		rd.Next(x)
		out[i] = in.m.obj.supGrad(x, in.m.radius)
	}
	return out
}

// TestProfilesMatchTheDataStream checks each scenario's declared r̃_k (exact,
// or exact tail factor × Monte Carlo) against the brute-force Monte Carlo
// mean of G^k over the scenario's own data stream, G = sup_{w∈W}‖∇f(w, x)‖
// computed per sample. The tolerance is 5 combined standard errors: the
// stream's sd(G^k)/√N (finite: every case has E G^{4k} < ∞, so the sample
// standard error is itself reliable) and the profile's own Monte Carlo error.
func TestProfilesMatchTheDataStream(t *testing.T) {
	t.Parallel()
	const n = 100000
	cases := []struct {
		spec ProblemDef
		k    float64
	}{
		{ProblemDef{Scenario: Example1}, 2},
		{ProblemDef{Scenario: LinRegT, D: 3, Tail: 30, Params: map[string]float64{"cond": 4}}, 2},
		{ProblemDef{Scenario: LinRegT, D: 5, Tail: 40}, 2.5},
		{ProblemDef{Scenario: LinRegPareto, D: 3, Tail: 40, Params: map[string]float64{"cond": 9}}, 2},
		{ProblemDef{Scenario: LassoT, D: 6, Tail: 30}, 2},
		{ProblemDef{Scenario: LogRegT, D: 3, Tail: 20}, 2},
		{ProblemDef{Scenario: HingeT, D: 4, Tail: 20, Class: theory.NonsmoothSC}, 2},
		{ProblemDef{Scenario: HingeT, D: 4, Tail: 20}, 3},
		{ProblemDef{Scenario: AbsRegT, D: 4, Tail: 20}, 2},
		{ProblemDef{Scenario: Contaminated, D: 3, Tail: 0.05, Params: map[string]float64{"size": 20}}, 2},
		{ProblemDef{Scenario: MeanHard, D: 4, N: 100, Eps: 0.5}, 2},
		{ProblemDef{Scenario: AffineHard, D: 4, N: 100, Eps: 0.5, K: 3}, 2},
	}
	for _, c := range cases {
		t.Run(caseName(c.spec), func(t *testing.T) {
			in := build(t, c.spec)
			g := supGradSample(in, n)
			var s1, s2 float64
			for _, v := range g {
				p := math.Pow(v, c.k)
				s1 += p
				s2 += p * p
			}
			mean := s1 / n
			seStream := math.Sqrt((s2/n - mean*mean) / n)
			e := in.Moment(c.k)
			declared := math.Pow(e.R, c.k)
			seProf := c.k * math.Pow(e.R, c.k-1) * e.SE
			tol := 5 * math.Hypot(seStream, seProf)
			if math.Abs(mean-declared) > tol || math.IsNaN(declared) {
				t.Errorf("%s: E G^%g: stream %g ± %g, declared %g (%s; ± %g)", c.spec.Scenario, c.k, mean, seStream, declared, e.Method, seProf)
			}
		})
	}
}

// TestMomentsInfinitePastTheTailIndex: r̃_k = +∞ exactly when the tail
// index says the moment does not exist, finite just below.
func TestMomentsInfinitePastTheTailIndex(t *testing.T) {
	cases := []struct {
		spec ProblemDef
		kmax float64
	}{
		{ProblemDef{Scenario: LinRegT, D: 3, Tail: 6}, 3},
		{ProblemDef{Scenario: LinRegPareto, D: 3, Tail: 5}, 2.5},
		{ProblemDef{Scenario: LassoT, D: 3, Tail: 9}, 4.5},
		{ProblemDef{Scenario: LogRegT, D: 3, Tail: 4.5}, 4.5},
		{ProblemDef{Scenario: HingeT, D: 3, Tail: 5}, 5},
		{ProblemDef{Scenario: AbsRegT, D: 3, Tail: 7}, 7},
	}
	for _, c := range cases {
		t.Run(caseName(c.spec), func(t *testing.T) {
			in := build(t, c.spec)
			below := in.Moment(c.kmax * 0.99)
			at := in.Moment(c.kmax)
			above := in.Moment(c.kmax + 1)
			if math.IsInf(below.R, 0) || math.IsNaN(below.R) || !(below.R > 0) {
				t.Errorf("%s tail %g: r̃_%g = %g, want finite", c.spec.Scenario, c.spec.Tail, c.kmax*0.99, below.R)
			}
			if !math.IsInf(at.R, 1) || !math.IsInf(above.R, 1) {
				t.Errorf("%s tail %g: r̃_%g = %g, r̃_%g = %g, want +∞", c.spec.Scenario, c.spec.Tail, c.kmax, at.R, c.kmax+1, above.R)
			}
			if lf := in.Constants().Lf; !math.IsInf(lf, 1) {
				t.Errorf("%s: L_f = %g, want +∞ (unbounded features)", c.spec.Scenario, lf)
			}
		})
	}
	// The Monte Carlo standard error is infinite when E G^{2k} = ∞ (MC-only
	// profiles), finite below.
	in := build(t, ProblemDef{Scenario: LogRegT, D: 3, Tail: 6})
	if se := in.Moment(2.9).SE; math.IsInf(se, 0) || !(se > 0) {
		t.Errorf("logreg-t ν=6: se(r̃_2.9) = %g, want finite positive", se)
	}
	if se := in.Moment(3).SE; !math.IsInf(se, 1) {
		t.Errorf("logreg-t ν=6: se(r̃_3) = %g, want +∞ (E G^6 = ∞)", se)
	}
}

// TestLinRegTailFactor checks the exact factor of the linreg-t profile:
// E m^{2k} = ν^k 2^{−k} Γ(ν/2 − k)/Γ(ν/2), e.g. ν = 10, k = 2:
// 100·Γ(3)/(4·Γ(5)) = 100·2/(4·24) = 25/12.
func TestLinRegTailFactor(t *testing.T) {
	got := math.Pow(10, 2) * dist.InvChiSquareMoment(10, 2)
	if want := 25.0 / 12; math.Abs(got-want) > 1e-14 {
		t.Errorf("E m^4 (ν=10) = %g, want 25/12", got)
	}
}

// TestHardInstances checks the lower-bound instances against the proofs:
// p = min(1, √d/(n√ρ)) with ρ = ε²/2; the mean-hard law is 0 w.p. 1 − p and
// s p^{−1/k}ν w.p. p with s = r̃/(2μ√d), for which the proof's
// E‖2μx‖^k = r̃^k holds exactly; the affine-hard law is (r̃/√d)·(0 or p^{−1/k}ν),
// for which r̃_k = r̃ exactly.
func TestHardInstances(t *testing.T) {
	// p by hand: d = 40, n = 10⁴, ε = 1: √40/(10⁴·√0.5) = 8.94427191e−4.
	if p := hardP(40, 10000, 1); math.Abs(p-math.Sqrt(40)/(10000*math.Sqrt(0.5))) > 1e-18 || math.Abs(p-8.94427191e-4) > 1e-12 {
		t.Errorf("p = %g, want 8.94427191e-4", p)
	}
	if p := hardP(40, 100, 1e-3); p != 1 {
		t.Errorf("p = %g, want the clamp 1", p)
	}
	cases := []struct {
		d, n    int
		eps, k  float64
		r, mu   float64
		diamAff float64
	}{
		{40, 10000, 1, 2, 1, 1, 2},
		{40, 10000, 0.3, 4, 2.5, 3, 5},
		{50, 2000, 2, 2.5, 1, 0.5, 1},
		{40, 100, 1e-3, 3, 1, 1, 2}, // p = 1
		{40, 10000, 1, math.Inf(1), 1, 1, 2},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("d=%d n=%d eps=%g k=%g", c.d, c.n, c.eps, c.k), func(t *testing.T) {
			p := hardP(c.d, c.n, c.eps)
			pk := powInvK(p, c.k)
			mh := build(t, ProblemDef{Scenario: MeanHard, D: c.d, N: c.n, Eps: c.eps, K: c.k, Params: map[string]float64{"r": c.r, "curvature": c.mu}})
			// Atom and mean.
			sc := c.r / (2 * c.mu * math.Sqrt(float64(c.d)))
			atomNorm := sc * pk * math.Sqrt(float64(c.d))
			// The proof's statement: E‖2μx‖^k = p(2μ·atomNorm)^k = r̃^k.
			if !math.IsInf(c.k, 1) {
				if got := p * math.Pow(2*c.mu*atomNorm, c.k); math.Abs(got-math.Pow(c.r, c.k)) > 1e-12*math.Pow(c.r, c.k) {
					t.Errorf("mean-hard %+v: E‖2μx‖^k = %g, proof states r̃^k = %g", c, got, math.Pow(c.r, c.k))
				}
			}
			// On dpso's domain the proof's moment claim r̃_k ≤ r̃ holds.
			rk := mh.Constants().R(c.k)
			if math.IsInf(c.k, 1) {
				rk = mh.Constants().Lf
			}
			if !(rk <= c.r*(1+1e-12)) {
				t.Errorf("mean-hard %+v: r̃_k = %g exceeds the proof's r̃ = %g", c, rk, c.r)
			}
			// The exact profile: (1−p)(μR)^j + p(μR + μ·atomNorm)^j with R = p·atomNorm.
			R := p * atomNorm
			if got := mh.Diam(); math.Abs(got-2*R) > 1e-14*R {
				t.Errorf("mean-hard %+v: D = %g, want 2‖E x‖ = %g", c, got, 2*R)
			}
			for _, j := range []float64{2, 3, 8} {
				want := math.Pow((1-p)*math.Pow(c.mu*R, j)+p*math.Pow(c.mu*(R+atomNorm), j), 1/j)
				if got := mh.Constants().R(j); math.Abs(got-want) > 1e-12*want {
					t.Errorf("mean-hard %+v: r̃_%g = %g, want %g", c, j, got, want)
				}
			}
			if got, want := mh.Constants().Lf, c.mu*(R+atomNorm); math.Abs(got-want) > 1e-12*want {
				t.Errorf("mean-hard %+v: L_f = %g, want %g", c, got, want)
			}
			cs := mh.Constants()
			if cs.Beta != c.mu || cs.Mu != c.mu {
				t.Errorf("mean-hard: β, μ = %g, %g, want %g", cs.Beta, cs.Mu, c.mu)
			}
			// E x ∈ W and F(w) − F* = (μ/2)‖w − E x‖².
			ri := mh.RiskInfo()
			if got := math.Sqrt(sqnorm(ri.WStar)); math.Abs(got-R) > 1e-12*R {
				t.Errorf("mean-hard: ‖w*‖ = %g, want ‖E x‖ = %g", got, R)
			}
			w := make([]float64, c.d)
			if ex, _ := mh.Excess(w); math.Abs(ex-c.mu/2*R*R) > 1e-12*c.mu*R*R {
				t.Errorf("mean-hard: excess at 0 = %g, want μ‖E x‖²/2 = %g", ex, c.mu/2*R*R)
			}

			ah := build(t, ProblemDef{Scenario: AffineHard, D: c.d, N: c.n, Eps: c.eps, K: c.k, Diam: c.diamAff, Params: map[string]float64{"r": c.r}})
			ac := ah.Constants()
			if !math.IsInf(c.k, 1) {
				if got := ac.R(c.k); math.Abs(got-c.r) > 1e-12*c.r {
					t.Errorf("affine-hard %+v: r̃_k = %g, the proof states r̃ = %g", c, got, c.r)
				}
			}
			for _, j := range []float64{2, 2.5, 6} {
				want := c.r * math.Pow(p, 1/j) * pk
				if got := ac.R(j); math.Abs(got-want) > 1e-12*want {
					t.Errorf("affine-hard %+v: r̃_%g = %g, want r̃p^{1/j−1/k} = %g", c, j, got, want)
				}
			}
			if got, want := ac.Lf, c.r*pk; math.Abs(got-want) > 1e-12*want {
				t.Errorf("affine-hard %+v: L_f = %g, want r̃p^{−1/k} = %g", c, got, want)
			}
			if got, want := ah.RiskInfo().FStar, -c.diamAff/2*c.r*p*pk; math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("affine-hard %+v: F* = %g, want −(D/2)r̃p^{1−1/k} = %g", c, got, want)
			}
			if ac.Beta != 0 {
				t.Errorf("affine-hard: β = %g, want 0 (linear)", ac.Beta)
			}
		})
	}
}

// TestMeanHardProofDomain documents why mean-hard does not use the proof's
// domain: on W' = B(0, R') with R' = r̃p^{−1/k}/(2μ) (the proof's, scaled),
// E sup_{w∈W'}‖μ(w − x)‖^k = (1 − p)(μR')^k + p(2μR')^k, which exceeds the
// r̃^k the proof claims whenever p < 1 (here by a factor ≈ 1/(p2^k)).
func TestMeanHardProofDomain(t *testing.T) {
	d, n, eps, k, r, mu := 40, 10000, 1.0, 2.0, 1.0, 1.0
	p := hardP(d, n, eps)
	Rp := r * powInvK(p, k) / (2 * mu)
	obj := &meanQuad{d: d, mu: mu}
	zero := make([]float64, d)
	atom := make([]float64, d)
	for j := range atom {
		atom[j] = Rp / math.Sqrt(float64(d)) * hardSign(j)
	}
	exact := (1-p)*math.Pow(obj.supGrad(zero, Rp), k) + p*math.Pow(obj.supGrad(atom, Rp), k)
	if want := (1-p)*math.Pow(mu*Rp, k) + p*math.Pow(2*mu*Rp, k); math.Abs(exact-want) > 1e-12*want {
		t.Fatalf("exact sup-moment %g, formula %g", exact, want)
	}
	ratio := exact / math.Pow(r, k)
	if want := (1-p)/(p*math.Pow(2, k)) + 1; math.Abs(ratio-want) > 1e-9*want || ratio < 100 {
		t.Errorf("on the proof's domain E sup‖∇f‖^k / r̃^k = %g, want (1−p)/(p2^k) + 1 = %g (≫ 1)", ratio, want)
	}
}
