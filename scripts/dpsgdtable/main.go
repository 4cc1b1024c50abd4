package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// Scenarios are the table's problems, described as `dpso run` flags
// (Spec.Command prints them).
var Scenarios = []spec.Spec{
	// Heavy-tailed linear regression (multivariate t, ν = 10) with a
	// declared bound L_f = 10⁶ on the gradients.
	{Scenario: scenarios.LinRegT, Tail: 10, Lf: 1e6, N: 200_000, Trials: 8},
	// Heavy-tailed logistic regression (multivariate t features, ν = 6),
	// with the same declared bound L_f = 10⁶.
	{Scenario: scenarios.LogRegT, Lf: 1e6, N: 100_000, Trials: 8},
}

// Baselines are the solvers beside the paper's.
var Baselines = []string{"dp-sgd", "klz-gd", "lipschitz-dpsgd"}

func main() {
	if err := write(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "dpsgdtable:", err)
		os.Exit(1)
	}
}

func write(ctx context.Context, w io.Writer) error {
	num := theory.Sig4.Format
	fmt.Fprintln(w, "| scenario | solver | excess risk (mean ± s.e.) | median [quartiles] | minus the paper's (paired) | (ε', δ), replace-one | gradient evaluations per trial |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, s := range Scenarios {
		r, err := s.Resolve()
		if err != nil {
			return err
		}
		names := append([]string{r.Solver.Name()}, Baselines...)
		c, err := engine.Compare(ctx, r, names, nil)
		if err != nil {
			return err
		}
		title := "`" + strings.TrimPrefix(r.Spec.Command(), "dpso run ") + "`"
		if p := c.Reports[0]; len(p.Trace) > 0 && p.Trace[0].GradEvals == 0 {
			title += "<br>returning w₀: " + num(p.Trace[0].Excess)
		}
		if p := c.Reports[0]; !math.IsNaN(p.Reference.Mean) {
			title += "<br>non-private ERM: " + num(p.Reference.Mean)
		}
		for i, rep := range c.Reports {
			if rep.Refused != "" {
				fmt.Fprintf(w, "| %s | %s | refused: %s | | | | |\n", title, rep.Solver, rep.Refused)
				continue
			}
			eps, delta := report.EpsDelta(rep)
			how := "exact, ρ = ε²/2 zCDP"
			if rep.Privacy.Model == spec.Accountant {
				how = rep.Privacy.AccountantName + " accountant"
			}
			diff := "—"
			if i > 0 {
				diff = num(c.Diff[i].Mean) + " ± " + num(c.Diff[i].SE)
			}
			var evals int64
			for _, t := range rep.Trials {
				evals += t.GradEvals
			}
			if a := rep.Privacy.Adjacency; a != spec.ReplaceOne {
				how += ", " + a
			}
			quart := num(rep.Excess.Median) + " [" + num(rep.Excess.Q1) + ", " + num(rep.Excess.Q3) + "]"
			fmt.Fprintf(w, "| %s | %s | %s ± %s | %s | %s | (%s, %s), %s | %s |\n", title, rep.Solver, num(rep.Excess.Mean), num(rep.Excess.SE), quart,
				diff, theory.Sig6.Format(eps), theory.Sig6.Format(delta), how, theory.Human.Format(float64(evals)/float64(len(rep.Trials))))
			title = ""
		}
	}
	_, err := fmt.Fprintln(w, "\nEvery solver of a scenario runs on the same draws (seed 0) and is private under the same replace-one adjacency (datasets differing in one record, the paper's; dp-sgd accounted for it); \"returning w₀\" is F(w₀) − F* of the start w₀ = 0, the excess risk of doing nothing; \"non-private ERM\" is the mean F(ŵ) − F* of the empirical risk minimizer over W on the same draws, a reference no private algorithm is promised to reach.")
	return err
}
