package scenarios

import (
	"context"
	"math"
	"testing"

	"dpso/solvers"
	"dpso/theory"
)

// TestPrescriptionsMatchTheory: the solvers' own T and C equal the
// theorems' prescriptions written apart (prescribe_ref_test.go) at the
// instance's constants, for the zCDP and the shuffle model
// (theory.ShuffleEps) and for each assumption's constants (r̃_k, r_k, and
// theory.RkFromCoordinatewise of γ_k): one formula, two implementations.
func TestPrescriptionsMatchTheory(t *testing.T) {
	const delta = 1e-6
	type run struct {
		p      ProblemDef
		solver solvers.Solver
	}
	runs := []run{
		{ProblemDef{Scenario: LinRegT}, solvers.ACSA{}},
		{ProblemDef{Scenario: LinRegT, Class: theory.SmoothSC}, solvers.ClippedSGD{}},
		{ProblemDef{Scenario: Contaminated, Class: theory.SmoothSC, K: 4}, solvers.ClippedSGD{}},
		{ProblemDef{Scenario: LassoT}, solvers.ProxSGD{}},
		{ProblemDef{Scenario: Example1}, solvers.ACSA{}},
	}
	for _, r := range runs {
		t.Run(caseName(r.p), func(t *testing.T) {
			in := build(t, r.p)
			tin := in.Theory()
			n, d, k := tin.N, float64(tin.D), tin.K
			for _, a := range theory.Assumptions {
				for _, oracleName := range []string{"clip-gaussian", "shuffle-clip"} {
					cfg := solvers.Config{Eps: 1, K: k, Oracle: oracleName, Assumption: solvers.Assumption(a)}
					eps := 1.0
					dl := 0.0
					if oracleName == "shuffle-clip" {
						cfg.Delta, dl = delta, delta
						eps = theory.ShuffleEps(1, d, delta)
					}
					pr, err := r.solver.Prescribe(in, n, cfg)
					if err != nil {
						t.Fatalf("%s %s %s: %v", r.p.Scenario, a, oracleName, err)
					}
					u := in.TheoryUnder(a, dl)
					rk := u.UsedRk
					var T int
					var C float64
					switch r.solver.(type) {
					case solvers.ACSA:
						T, _ = acsaIters(n, d, eps, k, tin.Diam, tin.Beta, rk)
						C = acsaClip(n, d, eps, k, rk, T)
					case solvers.ClippedSGD:
						T, _ = scsgdIters(n, d, eps, k, tin.Diam, tin.Beta, tin.Mu, rk)
						C = scsgdClip(n, d, eps, k, rk, T)
					case solvers.ProxSGD:
						T = pr.Iters // a fixed point the solver finds; C follows from it
						C = pplClip(n, d, eps, k, rk, T)
					}
					if pr.Iters != T || math.Abs(pr.Clip-C) > 1e-12*C {
						t.Errorf("%s %s %s %s: T, C = %d, %.15g; theory %d, %.15g", r.p.Scenario, r.solver.Name(), a, oracleName, pr.Iters, pr.Clip, T, C)
					}
				}
			}
		})
	}
}

// TestACSAAffineTakesT1: on affine-hard (β = 0, a linear loss) acsa
// prescribes T = 1, the value of the complete version of "thm: convex ACSA
// one pass" there (both branches of its min vanish; acsaIters gives
// 1), with C = r̃_k·(εn/√d)^{1/k} and one oracle call on all n samples
// (Remark "rem: affine optimal").
func TestACSAAffineTakesT1(t *testing.T) {
	in := build(t, ProblemDef{Scenario: AffineHard, Class: theory.SmoothConvex, K: 4, D: 40, N: 20000})
	c := in.Constants()
	if c.Beta != 0 || !c.Affine {
		t.Fatalf("affine-hard: β = %g, Affine = %v", c.Beta, c.Affine)
	}
	pr, err := solvers.ACSA{}.Prescribe(in, 20000, solvers.Config{Eps: 0.5, K: 4})
	if err != nil {
		t.Fatal(err)
	}
	T, _ := acsaIters(20000, 40, 0.5, 4, in.Diam(), 0, c.R(4))
	wantC := c.R(4) * math.Pow(0.5*20000/math.Sqrt(40), 0.25)
	if pr.Iters != 1 || T != 1 || pr.Batch != 20000 || math.Abs(pr.Clip-wantC) > 1e-12*wantC {
		t.Errorf("T = %d (theory %d), batch %d, C = %g (want 1, 1, 20000, %g)", pr.Iters, T, pr.Batch, pr.Clip, wantC)
	}
	res, err := solvers.ACSA{}.Run(context.Background(), in, in.Dataset(solvers.Seeded, 1, 0), solvers.Config{Eps: 0.5, K: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ex, _ := in.Excess(res.W); !(ex >= 0) || math.IsInf(ex, 0) {
		t.Errorf("excess risk %g", ex)
	}
	// A declared β (an override) is read as such: no longer affine.
	over := build(t, ProblemDef{Scenario: AffineHard, Class: theory.SmoothConvex, Beta: 1})
	if over.Constants().Affine {
		t.Error("affine-hard with beta = 1: Constants.Affine set")
	}
}

// TestNoncentralPrescriptionOnLinRegT: on
// linreg-t (defaults: d = 10, ν = 6, n = 10⁴, k = 2, ε = 1) acsa prescribed
// with r_k = sup_w (E‖∇f‖^k)^{1/k} (Assumption "ass:boundednoncentral",
// whose precise theorem grants it) clips at a smaller C and adds less
// noise σ than with r̃_k, and its measured excess risk is lower. The two
// runs of a trial see the same data and the same noise stream (common
// random numbers), so the paired difference D_i = excess(r_k) −
// excess(r̃_k) removes the data's variance; over 200 trials its mean
// D̄ must be negative by more than 3 standard errors sd(D)/√200 (a normal
// limit of the mean: a false pass has probability < 0.2% if the true mean
// were 0).
func TestNoncentralPrescriptionOnLinRegT(t *testing.T) {
	in := build(t, ProblemDef{Scenario: LinRegT})
	n := in.Def().N
	cfgs := map[theory.Assumption]solvers.Config{}
	prs := map[theory.Assumption]solvers.Params{}
	for _, a := range []theory.Assumption{theory.Tilde, theory.Noncentral} {
		cfgs[a] = solvers.Config{Eps: 1, K: 2, Assumption: solvers.Assumption(a)}
		pr, err := solvers.ACSA{}.Prescribe(in, n, cfgs[a])
		if err != nil {
			t.Fatal(err)
		}
		prs[a] = pr
	}
	nc, tl := prs[theory.Noncentral], prs[theory.Tilde]
	if !(nc.Clip < tl.Clip && nc.Sigma < tl.Sigma) {
		t.Fatalf("r_k: C = %g, σ = %g; r̃_k: C = %g, σ = %g: want both smaller with r_k", nc.Clip, nc.Sigma, tl.Clip, tl.Sigma)
	}
	const trials = 200
	var s1, s2, mt, mn float64
	for i := range trials {
		data := in.Dataset(solvers.Seeded, 15, i)
		var ex [2]float64
		for j, a := range []theory.Assumption{theory.Tilde, theory.Noncentral} {
			cfg := cfgs[a]
			cfg.Seed, cfg.Trial = 15, i
			res, err := solvers.ACSA{}.Run(context.Background(), in, data, cfg)
			if err != nil {
				t.Fatal(err)
			}
			ex[j], _ = in.Excess(res.W)
		}
		dlt := ex[1] - ex[0]
		s1 += dlt
		s2 += dlt * dlt
		mt += ex[0] / trials
		mn += ex[1] / trials
	}
	mean := s1 / trials
	se := math.Sqrt((s2/trials - mean*mean) / (trials - 1))
	t.Logf("linreg-t, acsa, k = 2, ε = 1, n = %d: r̃_k: T = %d, C = %.4g, σ = %.4g, excess %.4g; r_k: T = %d, C = %.4g, σ = %.4g, excess %.4g; paired difference %.4g ± %.2g (%d trials)",
		n, tl.Iters, tl.Clip, tl.Sigma, mt, nc.Iters, nc.Clip, nc.Sigma, mn, mean, se, trials)
	if !(mean+3*se < 0) {
		t.Errorf("paired excess-risk difference (r_k − r̃_k) = %.4g ± %.2g: not lower by 3 s.e.", mean, se)
	}
}
