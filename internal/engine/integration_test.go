package engine

import (
	"context"
	"math"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

// TestEveryScenarioWithTheRealSolvers runs every scenario × class with the
// paper's algorithm for the class and the three baselines on the same draws
// (small n, d = 3, a small work budget), and checks what the runner
// guarantees: the paper's algorithm runs with its prescription; the
// Lipschitz baseline refuses exactly when L_f = ∞; every excess risk is
// finite and not below −(F*'s certified width); traces end at the output.
func TestEveryScenarioWithTheRealSolvers(t *testing.T) {
	t.Parallel()
	for _, info := range scenarios.List() {
		for _, c := range info.Classes {
			s := spec.Spec{Scenario: info.Name, Class: c, N: 2000, Trials: 2, WorkBudget: 200000}
			if !info.FixedD {
				s.D = 3
			}
			if info.Name == scenarios.AffineHard && c == theory.SmoothConvex {
				s.Beta = 1
			}
			cmp, err := Compare(context.Background(), resolve(t, s), []string{paper(c), "nonprivate-schedule", "lipschitz-dpsgd", "klz-gd"}, nil)
			if err != nil {
				t.Errorf("%s %s: %v", info.Name, c, err)
				continue
			}
			for i, r := range cmp.Reports {
				lfInf := math.IsInf(r.Theory.Lf, 1)
				switch {
				case i == 0 && (r.Refused != "" || !r.Params.Prescribed):
					t.Errorf("%s %s: %s refused (%q) or not prescribed", info.Name, c, r.Solver, r.Refused)
				case r.Solver == "lipschitz-dpsgd" && (r.Refused != "") != lfInf:
					t.Errorf("%s %s: lipschitz-dpsgd refused = %q with L_f = %g", info.Name, c, r.Refused, r.Theory.Lf)
				}
				if r.Refused != "" {
					continue
				}
				for _, tr := range r.Trials {
					if math.IsNaN(tr.Excess) || math.IsInf(tr.Excess, 0) || tr.Excess < -r.Risk.FStarErr-1e-12 {
						t.Errorf("%s %s %s trial %d: excess %g (F* ± %g)", info.Name, c, r.Solver, tr.Trial, tr.Excess, r.Risk.FStarErr)
					}
					if n := len(tr.Trace); n == 0 || tr.Trace[n-1].GradEvals != tr.GradEvals || tr.Trace[n-1].Excess != tr.Excess {
						t.Errorf("%s %s %s: trace does not end at the output", info.Name, c, r.Solver)
					}
				}
			}
		}
	}
}

// TestRealSolversDeterministicAcrossWorkers: the whole report is the same
// for 1, 2 and 7 workers — the (solver, trial) tasks scheduled on them in
// any order, several at once, the solvers of one trial on several cores —
// with several trials of one-pass and multi-pass solvers (klz-gd and
// dp-sgd read the draw the reference materialized, or on user data the
// copy the trial makes for them), and with one trial whose oracle calls
// are large enough (≥ 2¹⁷ floats) to be spread over the workers inside
// the trial (Config.Workers), one-pass and full-batch (klz-gd).
func TestRealSolversDeterministicAcrossWorkers(t *testing.T) {
	for _, s := range []spec.Spec{
		{Scenario: scenarios.LinRegT, D: 3, N: 4000, Trials: 5, Class: theory.SmoothConvex},
		{Scenario: scenarios.AbsRegT, D: 3, N: 1000, Trials: 4, Class: theory.NonsmoothSC, WorkBudget: 100000},
		{Scenario: scenarios.LinRegT, D: 20, N: 100000, Trials: 1, Class: theory.SmoothConvex, Iters: 4, WorkBudget: 300000},
		{Data: "../../examples/linreg-t-d3.csv", Rk: 12, Beta: 1.5, Rand: "seeded", Trials: 3, Class: theory.SmoothConvex},
	} {
		t.Run(caseName(s), func(t *testing.T) {
			names := []string{paper(s.Class), "nonprivate-schedule"}
			if s.Trials == 1 || s.Class == theory.SmoothConvex {
				names = append(names, "klz-gd")
			}
			if s.Class == theory.SmoothConvex && s.Trials > 1 {
				names = append(names, "dp-sgd")
			}
			var got []*Comparison
			for _, w := range []int{1, 2, 7} {
				s.Workers = w
				c, err := Compare(context.Background(), resolve(t, s), names, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range c.Reports {
					stripTimes(r)
					r.Spec.Workers = 0
				}
				got = append(got, c)
			}
			for i, w := range []int{2, 7} {
				if !sameJSON(t, got[0], got[i+1]) {
					t.Errorf("%s, %d trials: 1 and %d workers differ", s.Scenario, s.Trials, w)
				}
			}
		})
	}
}

// TestRealSolverRates sweeps n and checks the empirical log-log slope: on
// mean-hard at k = 2 both the strongly convex upper bound (Theorem "strongly
// convex smooth upper bound") and the lower bound (Theorem "strongly convex
// lower bound") scale as 1/n at fixed d, ε, and clipped-sgd's measured
// slope is −1 ± 0.15 (its 95% interval on this seeded grid is about
// ±0.013); on linreg-t acsa's excess risk decreases with n (the interval
// lies below 0).
func TestRealSolverRates(t *testing.T) {
	rep, err := Sweep(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.MeanHard, D: 40, Trials: 6, Class: theory.SmoothSC}),
		SweepSpec{Param: "n", From: 1000, To: 64000, Points: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Slopes[0]; math.Abs(s.Slope+1) > 0.15 || !(s.Lo < s.Slope && s.Slope < s.Hi) {
		t.Errorf("mean-hard clipped-sgd slope %+v, want −1 ± 0.15", s)
	}
	rep, err = Sweep(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 3, Trials: 6}),
		SweepSpec{Param: "n", From: 1000, To: 64000, Points: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Slopes[0]; !(s.Hi < 0) {
		t.Errorf("linreg-t acsa slope %+v, want an interval below 0", s)
	}
}

// TestTheoryMapping checks the Spec → theory.Params mapping and that the
// reported bounds are theory's at those parameters.
func TestTheoryMapping(t *testing.T) {
	cases := []struct {
		spec                 spec.Spec
		beta, mu, eps, kappa float64 // NaN: "not given"
	}{
		{spec.Spec{Scenario: scenarios.LinRegT, D: 3, Class: theory.SmoothSC}, 1.5, 1.5, 1, math.Inf(1)},
		{spec.Spec{Scenario: scenarios.HingeT, D: 3}, math.NaN(), math.NaN(), 1, math.NaN()},
		{spec.Spec{Scenario: scenarios.AffineHard, D: 3, Eps: 2}, 0, math.NaN(), 2, math.NaN()},
		{spec.Spec{Scenario: scenarios.MeanHard, D: 40, Params: map[string]float64{"curvature": 2}}, 2, 2, 1, 1},
		{spec.Spec{Scenario: scenarios.Example1, Eps: math.Inf(1), Solver: "nonprivate-schedule"}, 1, 1, math.NaN(), 1e20},
	}
	same := func(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }
	for _, c := range cases {
		t.Run(caseName(c.spec), func(t *testing.T) {
			in := build(t, c.spec)
			p := in.Theory().Params()
			if !same(p.Beta, c.beta) || !same(p.Mu, c.mu) || !same(p.Eps, c.eps) || !same(p.KappaF, c.kappa) {
				t.Errorf("%s: β %g μ %g ε %g κ_f %g; want %g %g %g %g", c.spec.Scenario, p.Beta, p.Mu, p.Eps, p.KappaF, c.beta, c.mu, c.eps, c.kappa)
			}
			if err := p.Validate(); err != nil {
				t.Errorf("%s: %v", c.spec.Scenario, err)
			}
			th := in.Theory()
			if p.N != float64(th.N) || p.Dim != float64(th.D) || p.K != th.K || p.Diam != in.Diam() || p.Rk != th.Rk || p.R2 != th.R2 || p.R2k != th.R2k || p.Lf != th.Lf {
				t.Errorf("%s: params %+v vs inputs %+v", c.spec.Scenario, p, th)
			}
			bs, err := in.Bounds()
			if err != nil {
				t.Fatalf("%s: %v", c.spec.Scenario, err)
			}
			for _, b := range bs {
				want, err := theory.Evaluate(b.ID, p)
				if err != nil || !sameJSON(t, b, want) {
					t.Errorf("%s: bound %s differs from theory.Evaluate (%v)", c.spec.Scenario, b.ID, err)
				}
			}
		})
	}
	// The class's paper upper bound is among the bounds when its inputs
	// are declared.
	in := build(t, spec.Spec{Scenario: scenarios.LinRegT, D: 3})
	bs, _ := in.Bounds()
	ids := map[string]bool{}
	for _, b := range bs {
		ids[b.ID] = true
	}
	for _, id := range theory.ForClass(theory.SmoothConvex)[:2] {
		if !ids[id] {
			t.Errorf("linreg-t smooth-convex: bound %s missing (have %v)", id, ids)
		}
	}
}

// TestSweepBoundSlopes: over an n grid, each bound's fitted log-log slope
// lies within the range of theory's analytic local exponents RateN at the
// grid points (a bound is a sum of power laws in n, so its secant slopes
// lie between its local slopes).
func TestSweepBoundSlopes(t *testing.T) {
	rep, err := Sweep(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 3, Trials: 2, Solver: "test-probe-a"}),
		SweepSpec{Param: "n", From: 1000, To: 1000000, Points: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Bounds) == 0 {
		t.Fatal("no bound slopes")
	}
	finite := 0
	for _, b := range rep.Bounds {
		if math.IsNaN(b.Slope) {
			continue // a bound that is infinite here (e.g. needs r̃_2k)
		}
		finite++
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, r := range b.RateN {
			lo, hi = math.Min(lo, r), math.Max(hi, r)
		}
		if len(b.RateN) != 4 || b.Slope < lo-1e-9 || b.Slope > hi+1e-9 {
			t.Errorf("bound %s: slope %g outside its local rates [%g, %g]", b.ID, b.Slope, lo, hi)
		}
	}
	if finite < 2 {
		t.Errorf("only %d bounds with a finite slope: %+v", finite, rep.Bounds)
	}
}

// paper is the paper's solver for class c.
func paper(c theory.Class) string {
	d, _ := solvers.PaperSolver(c)
	return d.Name()
}
