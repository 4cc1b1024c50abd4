package engine

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/theory"
)

// userCSV writes a small CSV of user data (squared loss, d = 2).
func userCSV(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "rows.csv")
	var b strings.Builder
	b.WriteString("a1,a2,y\n")
	for i := range 40 {
		x1, x2 := float64(i%7)/7-0.4, float64(i%5)/5-0.3
		b.WriteString(theory.Arg.Format(x1) + "," + theory.Arg.Format(x2) + "," + theory.Arg.Format(0.5*x1-x2) + "\n")
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// nearly reports |a − b| ≤ 1e-12·|b|: the ledger's ρ's are sums of equal
// shares (ε²/(2T) added T times), exact up to rounding.
func nearly(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }

// TestCompositionOverReleases: on user
// rows the total is the sum of every release's ledger (trials × solvers
// × sweep points; ρ = ε²/2 each, zCDP composition adds them); with
// --split-budget each release gets ρ/m and the total is the ρ given; on a
// scenario trials draw fresh data and do not compose (the solvers of one
// trial, sharing its draw, do).
func TestCompositionOverReleases(t *testing.T) {
	ctx := context.Background()
	data := userCSV(t)
	user := spec.Spec{Data: data, Rk: 2, Beta: 1, Eps: 1, Trials: 3}
	rho := 0.5 // ε²/2 at ε = 1
	cases := []struct {
		name     string
		s        spec.Spec
		solvers  []string
		releases int
		perRho   float64 // each release's budget
		totalRho float64
		userRows bool
	}{
		{"user, 3 trials", user, nil, 3, rho, 3 * rho, true},
		{"user, 3 trials × 2 solvers", user, []string{"acsa", "lipschitz-dpsgd"}, 6, rho, 6 * rho, true},
		{"user, split over 3 trials", with(user, func(s *spec.Spec) { s.SplitBudget = true }), nil, 3, rho / 3, rho, true},
		{"user, split over 3 × 2", with(user, func(s *spec.Spec) { s.SplitBudget = true }), []string{"acsa", "lipschitz-dpsgd"}, 6, rho / 6, rho, true},
		{"scenario, 3 trials", spec.Spec{Scenario: "linreg-t", D: 2, N: 500, Trials: 3}, nil, 1, rho, rho, false},
		{"scenario, 2 solvers share each draw", spec.Spec{Scenario: "example1", N: 500, Trials: 3}, []string{"acsa", "lipschitz-dpsgd"}, 2, rho, 2 * rho, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.s
			if c.userRows && c.solvers != nil {
				s = with(s, func(s *spec.Spec) { s.Lf = 5 }) // lipschitz-dpsgd's L_f
			}
			r := resolve(t, s)
			cmp, err := Compare(ctx, r, c.solvers, nil)
			if err != nil {
				t.Fatal(err)
			}
			tot := cmp.Total
			if tot.UserRows != c.userRows || tot.Composition.Releases != c.releases {
				t.Errorf("total: user rows %v, releases %d; want %v, %d", tot.UserRows, tot.Composition.Releases, c.userRows, c.releases)
			}
			if !nearly(tot.Spent.Rho, c.totalRho) || tot.Spent.Eps != 0 {
				t.Errorf("total spent %+v, want ρ = %g", tot.Spent, c.totalRho)
			}
			for _, rep := range cmp.Reports {
				if rep.Refused != "" {
					t.Fatalf("%s refused: %s", rep.Solver, rep.Refused)
				}
				if !nearly(rep.Privacy.Rho, c.perRho) {
					t.Errorf("%s: per-release ρ = %g, want %g", rep.Solver, rep.Privacy.Rho, c.perRho)
				}
				for _, tr := range rep.Trials {
					if !nearly(tr.Spent.Rho, c.perRho) {
						t.Errorf("%s trial %d: ledger spent ρ = %g, want %g", rep.Solver, tr.Trial, tr.Spent.Rho, c.perRho)
					}
				}
				if rep.Spec.Eps != 1 {
					t.Errorf("the report's Spec has ε = %g, want the ε given (1)", rep.Spec.Eps)
				}
			}
		})
	}
}

func with(s spec.Spec, f func(*spec.Spec)) spec.Spec {
	c := s.Clone()
	f(&c)
	return c
}

// TestSweepComposes: a sweep on user rows releases trials × points
// outputs; its total says so, and --split-budget shares the budget among
// them. A sweep of eps refuses --split-budget (no one total).
func TestSweepComposes(t *testing.T) {
	ctx := context.Background()
	data := userCSV(t)
	s := spec.Spec{Data: data, Rk: 2, Beta: 1, Eps: 1, Trials: 2}
	sw := SweepSpec{Param: spec.SweepN, From: 10, To: 40, Points: 3}
	rep, err := Sweep(ctx, resolve(t, s), sw, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rep.Total.Spent.Rho, 2*3*0.5; !nearly(got, want) || rep.Total.Composition.Releases != 6 {
		t.Errorf("sweep total ρ = %g over %d releases, want %g over 6", got, rep.Total.Composition.Releases, want)
	}
	s.SplitBudget = true
	rep, err = Sweep(ctx, resolve(t, s), sw, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Total.Spent.Rho; !nearly(got, 0.5) {
		t.Errorf("split sweep total ρ = %g, want 0.5", got)
	}
	_, err = Sweep(ctx, resolve(t, s), SweepSpec{Param: spec.SweepEps, From: 0.5, To: 2, Points: 2}, nil)
	var se *spec.SpecError
	if !errors.As(err, &se) || se.Field != "split-budget" {
		t.Errorf("eps sweep with split: %v, want a refusal on split-budget", err)
	}
}

// TestSweepCancelledWhileAssembling: a sweep cancelled after its last
// trial, while it assembles the points' reports (Monte Carlo moment
// profiles, milliseconds each), returns the context's error rather than
// finishing the assembly (Ctrl-C ends any phase within 50 ms, and the
// assembly takes 100–500 ms). The cancellation is an event: the
// hook runs when the trials are done.
func TestSweepCancelledWhileAssembling(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	testAfterTrials = cancel
	defer func() { testAfterTrials = nil }()
	r := resolve(t, spec.Spec{Scenario: "logreg-t", N: 300, Trials: 1})
	rep, err := Sweep(ctx, r, SweepSpec{Param: spec.SweepEps, From: 0.5, To: 2, Points: 2}, nil)
	if !errors.Is(err, context.Canceled) || rep != nil {
		t.Errorf("Sweep cancelled after its trials: (%v, %v), want (nil, context.Canceled)", rep != nil, err)
	}
}

// TestGridFiniteWhenTheRatioOverflows: a log grid from 1e-300 to 1e300
// has finite points (to/from overflows to +Inf; the grid steps in logs
// then), its ends the ones given.
func TestGridFiniteWhenTheRatioOverflows(t *testing.T) {
	g := SweepSpec{Param: spec.SweepClip, From: 1e-300, To: 1e300, Points: 5}.Grid()
	if len(g) != 5 || g[0] != 1e-300 || g[4] != 1e300 {
		t.Fatalf("grid %v", g)
	}
	for i, v := range g {
		if math.IsInf(v, 0) || math.IsNaN(v) || (i > 0 && !(v > g[i-1])) {
			t.Errorf("grid %v: point %d is %g", g, i, v)
		}
	}
	if want := 1e-150; math.Abs(g[1]-want) > 1e-12*want {
		t.Errorf("grid[1] = %g, want %g (a quarter of the way in logs)", g[1], want)
	}
}

// TestAccountedSolverComposesConservatively: dp-sgd's releases are
// (ε', δ)-DP by its accountant; beside a zCDP solver on user rows the
// total is stated by basic composition of the zCDP part's exact
// conversion and the (ε', δ) part (Mixed, conservative), each part the
// sum of its releases' ledgers; --split-budget is refused for such a call
// (no share of ε keeps that total at --eps).
func TestAccountedSolverComposesConservatively(t *testing.T) {
	ctx := context.Background()
	s := spec.Spec{Data: userCSV(t), Rk: 2, Beta: 1, Trials: 2}
	cmp, err := Compare(ctx, resolve(t, s), []string{"acsa", "dp-sgd"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tot := cmp.Total
	var wantEps, wantDelta float64
	for _, tr := range cmp.Reports[1].Trials {
		wantEps += tr.Spent.Eps
		wantDelta += tr.Spent.Delta
	}
	if !tot.Mixed() || !nearly(tot.Spent.Rho, 2*0.5) || !nearly(tot.Spent.Eps, wantEps) || !nearly(tot.Spent.Delta, wantDelta) || wantEps == 0 {
		t.Errorf("total %+v, want ρ = 1 from acsa and (ε, δ) = (%g, %g) from dp-sgd's accountant", tot.Spent, wantEps, wantDelta)
	}
	s.SplitBudget = true
	_, err = Compare(ctx, resolve(t, s), []string{"acsa", "dp-sgd"}, nil)
	var se *spec.SpecError
	if !errors.As(err, &se) || se.Field != "split-budget" || !strings.Contains(se.Msg, "dp-sgd") {
		t.Errorf("split with dp-sgd: %v, want a refusal on split-budget", err)
	}
}
