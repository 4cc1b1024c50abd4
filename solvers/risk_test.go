package solvers

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

type testProblem interface {
	Problem
	samples(n int, seed uint64, trial int) *genSamples
	excess(w []float64) float64
}

// Test problems (see problems_test.go): heavy-tailed linear regression
// (smooth, strongly convex), mean estimation with Student-t data (smooth,
// strongly convex; with an ℓ1 term, proximal-PL), least absolute deviation
// with a multivariate-t design (non-smooth convex). Tail index ν = 7 or 9:
// the moments the prescriptions use exist.
var (
	tpLinReg = &linRegProblem{d: 4, radius: 1, wstar: []float64{0.5, -0.4, 0.3, 0.2}, s: 1, nu: 9}
	tpMean   = &meanProblem{d: 4, radius: 1, center: []float64{0.6, -0.5, 0.3, 0.2}, scale: 1, nu: 7}
	tpMeanL1 = &meanProblem{d: 4, radius: 1, center: []float64{0.6, -0.5, 0.3, 0.05}, scale: 1, nu: 7, reg: Regularizer{L1: 0.1}}
	tpLAD    = &ladProblem{d: 4, radius: 1, wstar: []float64{0.6, -0.5, 0.3, 0.2}, s: 0.2, nu: 7}
)

// meanExcess runs solver on S trials (seed 9, trials 0..S−1) and returns the
// mean excess risk and its Monte Carlo standard error s/√S.
func meanExcess(t *testing.T, name string, p testProblem, n, S int, cfg Config) (mean, se float64) {
	t.Helper()
	s, ok := Lookup(name)
	if !ok {
		t.Fatalf("no solver %q", name)
	}
	var sum, sq float64
	for tr := 0; tr < S; tr++ {
		c := cfg
		c.Seed, c.Trial = 9, tr
		res, err := s.Run(context.Background(), p, p.samples(n, 9, tr), c)
		if err != nil {
			t.Fatalf("%s n=%d trial %d: %v", name, n, tr, err)
		}
		e := p.excess(res.W)
		sum += e
		sq += e * e
	}
	mean = sum / float64(S)
	v := (sq - float64(S)*mean*mean) / float64(S-1)
	return mean, math.Sqrt(math.Max(v, 0) / float64(S))
}

// Excess risk falls as n grows, averaged over seeds. Each case compares the
// mean excess risk of S = 16 trials at a small and a large n and asserts
// the decrease exceeds 3 standard errors of the difference of two
// independent means, √(se₁² + se₂²), with se = sample std/√S: a decrease
// that is not a Monte Carlo accident. (Seeds are fixed, so the test is
// deterministic; the 3-SE margin is what makes it meaningful.) The sizes are
// chosen where the theorems' rates are visible at test cost; the localized
// solvers cost Õ(n^{2+1/k}), so they use small n.
func TestExcessRiskFallsWithN(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("statistical test; runs in full mode")
	}
	cases := []struct {
		solver string
		p      testProblem
		n1, n2 int
		cfg    Config
	}{
		{"acsa", tpLinReg, 2000, 32000, Config{Eps: 1, K: 2}},
		{"acsa", tpMean, 2000, 32000, Config{Eps: 1, K: 2}},
		{"clipped-sgd", tpMean, 2000, 32000, Config{Eps: 1, K: 2}},
		{"clipped-sgd", tpLinReg, 2000, 32000, Config{Eps: 1, K: 3}},
		{"prox-sgd", tpMeanL1, 2000, 32000, Config{Eps: 1, K: 2}},
		{"localized", tpLAD, 64, 256, Config{Eps: 1, K: 3}},
		{"localized-sc", tpMean, 64, 1024, Config{Eps: 1, K: 3, WorkBudget: 500000}},
		{"klz-gd", tpLinReg, 1000, 64000, Config{Eps: 4, K: 2}},
		{"nonprivate-schedule", tpLinReg, 2000, 32000, Config{Eps: 1, K: 2}},
	}
	const S = 16
	for _, c := range cases {
		t.Run(c.solver, func(t *testing.T) {
			m1, se1 := meanExcess(t, c.solver, c.p, c.n1, S, c.cfg)
			m2, se2 := meanExcess(t, c.solver, c.p, c.n2, S, c.cfg)
			t.Logf("n = %d: %.4g ± %.2g; n = %d: %.4g ± %.2g", c.n1, m1, se1, c.n2, m2, se2)
			if m1-m2 <= 3*math.Hypot(se1, se2) {
				t.Errorf("excess risk %.4g ± %.2g at n = %d does not fall significantly below %.4g ± %.2g at n = %d",
					m2, se2, c.n2, m1, se1, c.n1)
			}
		})
	}
}

// With ε = ∞ a paper solver is exactly the non-private sgd on its own
// schedule (no clipping, no noise: bit for bit), and at a huge but finite ε
// (clipping at a huge C, negligible noise) its excess risk is within a small
// factor of sgd's on the same data.
func TestEpsInfinityMatchesSGD(t *testing.T) {
	t.Parallel()
	cases := []struct {
		solver string
		p      testProblem
		n      int
	}{
		{"acsa", tpMean, 20000},
		{"clipped-sgd", tpMean, 20000},
		{"prox-sgd", tpMeanL1, 20000},
		{"localized", tpMean, 128},
		{"localized-sc", tpMean, 128},
	}
	for _, c := range cases {
		t.Run(c.solver, func(t *testing.T) {
			s, _ := Lookup(c.solver)
			for tr := 0; tr < 3; tr++ {
				cfg := Config{Eps: math.Inf(1), K: 2, Seed: 4, Trial: tr, Schedule: c.solver, WorkBudget: 200000}
				a, err := s.Run(context.Background(), c.p, c.p.samples(c.n, 4, tr), cfg)
				if err != nil {
					t.Fatal(err)
				}
				b, err := SGD{}.Run(context.Background(), c.p, c.p.samples(c.n, 4, tr), cfg)
				if err != nil {
					t.Fatal(err)
				}
				if !sameBits(a.W, b.W) {
					t.Fatalf("trial %d: ε = ∞ gives %v, sgd on the same schedule %v", tr, a.W, b.W)
				}
				if !math.IsInf(a.Params.Clip, 1) || a.Params.Sigma != 0 || !math.IsInf(a.Spent.Rho, 1) {
					t.Errorf("ε = ∞: C = %g, σ = %g, spent %v; want ∞, 0, ∞", a.Params.Clip, a.Params.Sigma, a.Spent)
				}
			}
			// Huge finite ε: paired over the same 8 data draws, the mean
			// excess risk is within 10% of sgd's (the clip threshold is ~10⁴
			// times the typical gradient and σ ~ 10⁻⁴·C/s, so the runs differ
			// by far less than the Monte Carlo spread, ~15% of the mean).
			cfg := Config{Eps: 1e4, K: 2, Schedule: c.solver, WorkBudget: 200000}
			m, _ := meanExcess(t, c.solver, c.p, c.n, 8, cfg)
			ms, _ := meanExcess(t, "nonprivate-schedule", c.p, c.n, 8, cfg)
			if m > 1.1*ms || m < ms/1.1 {
				t.Errorf("ε = 10⁴: excess %.4g vs sgd %.4g; want within 10%%", m, ms)
			}
		})
	}
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// Heavy-tailed data with a huge but finite L_f (Student-t truncated at
// 10⁶, so L_f = R + ‖c‖ + 10⁶·√d ≈ 2·10⁶) breaks lipschitz-dpsgd, whose
// noise is calibrated to L_f, but not the paper's algorithms, which clip at
// a threshold set by r̃_k. Over S = 16 trials at n = 20000, ε = 1, with
// se = the trials' sample standard deviation/√S (as meanExcess computes
// it) and E₀ = F(0) − F* (doing nothing: ½‖c‖² = 0.37):
//
//   - the paper's mean excess + 3 se < E₀/2: it removes at least half the
//     gap (measured 0.011 ± 0.002 for acsa, 0.048 ± 0.007 for clipped-sgd);
//   - lipschitz-dpsgd's mean − 3 se > E₀/2: it does not (measured
//     0.61 ± 0.1 and 0.58 ± 0.1: its iterate is noise projected onto W);
//   - their difference exceeds 3·√(se_paper² + se_lip²), the standard error
//     of a difference of independent means (the two share their draws, so
//     the difference's own se is smaller and the margin conservative).
//
// Seeds are fixed, so the test is deterministic; the 3-se margins are what
// make a pass mean more than a lucky draw.
func TestLipschitzBreaksOnHugeLf(t *testing.T) {
	t.Parallel()
	huge := &meanProblem{d: 4, radius: 1, center: []float64{0.6, -0.5, 0.3, 0.2}, scale: 1, nu: 7, cut: 1e6}
	if lf := huge.Constants().Lf; lf < 1e6 || math.IsInf(lf, 0) {
		t.Fatalf("L_f = %g, want huge and finite", lf)
	}
	e0 := huge.excess(make([]float64, huge.d))
	if math.Abs(e0-0.37) > 1e-12 {
		t.Fatalf("F(0) − F* = %g, want ½‖c‖² = 0.37", e0)
	}
	for _, sched := range []string{"acsa", "clipped-sgd"} {
		t.Run(sched, func(t *testing.T) {
			cfg := Config{Eps: 1, K: 2, Schedule: sched}
			paper, sePaper := meanExcess(t, sched, huge, 20000, 16, cfg)
			lip, seLip := meanExcess(t, "lipschitz-dpsgd", huge, 20000, 16, cfg)
			t.Logf("%s: paper %.4g ± %.2g, lipschitz-dpsgd %.4g ± %.2g, E₀ = %g", sched, paper, sePaper, lip, seLip, e0)
			if paper+3*sePaper >= e0/2 {
				t.Errorf("%s schedule: the paper's excess %.4g + 3·%.2g is not below E₀/2 = %g", sched, paper, sePaper, e0/2)
			}
			if lip-3*seLip <= e0/2 {
				t.Errorf("lipschitz-dpsgd's excess %.4g − 3·%.2g is not above E₀/2 = %g", lip, seLip, e0/2)
			}
			if d, se := lip-paper, math.Hypot(sePaper, seLip); d <= 3*se {
				t.Errorf("lipschitz-dpsgd − paper = %.4g, not more than 3·%.2g", d, se)
			}
		})
	}
	pr, err := LipschitzDPSGD{}.Prescribe(huge, 20000, Config{Eps: 1, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Clip != huge.Constants().Lf {
		t.Errorf("lipschitz-dpsgd clips at %g, want L_f = %g", pr.Clip, huge.Constants().Lf)
	}
}

// At L_f = ∞ lipschitz-dpsgd refuses with a full sentence that makes the
// paper's point; the paper's algorithms run.
func TestLipschitzRefusesInfiniteLf(t *testing.T) {
	_, err := LipschitzDPSGD{}.Prescribe(tpMean, 1000, Config{Eps: 1, K: 2})
	var re *RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a *RefusedError", err)
	}
	if re.Solver != "lipschitz-dpsgd" || !strings.Contains(re.Reason, "L_f is infinite") ||
		!strings.Contains(re.Reason, "k-th moment") || !strings.HasSuffix(re.Reason, ")") {
		t.Errorf("reason %q", re.Reason)
	}
	if _, err := (LipschitzDPSGD{}).Run(context.Background(), tpMean, tpMean.samples(100, 1, 0), Config{Eps: 1, K: 2}); !errors.As(err, &re) {
		t.Errorf("Run: err = %v, want a *RefusedError", err)
	}
	if _, err := (ACSA{}).Run(context.Background(), tpMean, tpMean.samples(1000, 1, 0), Config{Eps: 1, K: 2}); err != nil {
		t.Errorf("acsa on the same problem: %v", err)
	}
}
