package scenarios_test

import (
	"context"
	"fmt"

	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

// linregT is the scenario the examples use: linear regression with
// heavy-tailed (Student-t, ν = 6) features and noise in d = 5.
func linregT() *scenarios.Instance {
	p := scenarios.ProblemDef{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, D: 5, N: 20000, Eps: 1}
	if err := p.ResolveSource(); err != nil {
		panic(err)
	}
	if err := p.Resolve(nil); err != nil {
		panic(err)
	}
	in, err := scenarios.Build(context.Background(), p)
	if err != nil {
		panic(err)
	}
	return in
}

// Example runs the paper's algorithm for smooth convex losses (noisy
// clipped AC-SA, Theorem "thm: convex ACSA one pass") on one seeded trial
// of linreg-t: Build draws the problem, Dataset the trial's samples, the
// solver prescribes its schedule (T calls of the clipped Gaussian mean
// oracle at the clip threshold C of the theorem) and runs it under ε = 1
// (ρ = ε²/2-zCDP), and Excess measures F(w) − F* of its output in closed
// form. The same seed gives the same bits on any number of cores.
func Example() {
	in := linregT()
	cfg := solvers.Config{Eps: 1, K: 2, Seed: 7, Rand: solvers.Seeded}
	res, err := solvers.ACSA{}.Run(context.Background(), in, in.Dataset(solvers.Seeded, 7, 0), cfg)
	if err != nil {
		panic(err)
	}
	ex, _ := in.Excess(res.W)
	w0, _ := in.Excess(make([]float64, in.Dim()))
	fmt.Printf("T = %d oracle calls of %d samples at C = %.4g\n", res.Params.Iters, res.Params.Batch, res.Params.Clip)
	fmt.Printf("F(w) − F* = %.3f, doing nothing: %.3f\n", ex, w0)
	fmt.Printf("spent ρ = %.2f of %.2f\n", res.Spent.Rho, res.Budget.Rho)
	// Output:
	// T = 4 oracle calls of 5000 samples at C = 1151
	// F(w) − F* = 0.024, doing nothing: 0.188
	// spent ρ = 0.50 of 0.50
}

// ExampleInstance_Profile prints linreg-t's moment profile: r̃_k =
// (E sup_{w∈W} ‖∇f(w, x)‖^k)^{1/k}, the constants of Assumption 1
// (ass:tilde) the paper's rates are written in, finite for k < ν/2 = 3
// and infinite beyond, with L_f = r̃_∞ infinite: heavy tails.
func ExampleInstance_Profile() {
	in := linregT()
	for _, e := range in.Profile() {
		fmt.Printf("k = %g: r̃_k = %.3g (%s)\n", e.K, e.R, e.Method)
	}
	// Output:
	// k = 2: r̃_k = 17.2 (exact (tail factor in closed form × its Gaussian part by quadrature))
	// k = 2.5: r̃_k = 24.9 (exact (tail factor in closed form × its Gaussian part by quadrature))
	// k = 3: r̃_k = +Inf (does not exist (k ≥ 3))
	// k = 4: r̃_k = +Inf (does not exist (k ≥ 3))
	// k = 6: r̃_k = +Inf (does not exist (k ≥ 3))
	// k = 8: r̃_k = +Inf (does not exist (k ≥ 3))
	// k = 12: r̃_k = +Inf (does not exist (k ≥ 3))
	// k = 16: r̃_k = +Inf (does not exist (k ≥ 3))
	// k = +Inf: r̃_k = +Inf (L_f (worst case))
}
