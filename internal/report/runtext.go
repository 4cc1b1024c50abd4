package report

import (
	"fmt"
	"math"
	"strings"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

func privacyRow(s spec.Spec, pv spec.Privacy, conv float64, private bool, spent *privacySpent, rho0 float64) [2]string {
	switch {
	case !pv.Private():
		return [2]string{"privacy", "none (ε = ∞: no clipping needed, no noise)"}
	case !private:
		return [2]string{"privacy", "none: " + BaselineNotPrivate(s.Solver)}
	case pv.Model == spec.Shuffle:
		txt := fmt.Sprintf("(ε, δ) = (%s, %s)-shuffle DP%s", n6(pv.Eps), n6(pv.Delta), underAdjacency(pv.Adjacency))
		if spent != nil {
			txt += fmt.Sprintf("; spent ε = %s, δ = %s per release (ledger: max over samples, largest over trials)", n6(spent.eps), n6(spent.delta))
		}
		return [2]string{"privacy", txt}
	}
	if pv.Delta > 0 {
		conv = pv.Delta
	}
	txt := fmt.Sprintf("ρ = ε²/2 = %s zCDP per release%s; (ε', δ)-DP with δ = %s: ε' = %s (exact, Gaussian mechanism)",
		n6(pv.Rho), underAdjacency(pv.Adjacency), n6(conv), n6(theory.EpsExact(pv.Eps, conv)))
	if pv.Eps != s.Eps {
		txt = fmt.Sprintf("ε = %s per release (--split-budget), ", n6(pv.Eps)) + txt
	}
	if pv.Model == spec.Accountant {
		target := accountedTarget(pv, conv, rho0)
		if spent == nil || spent.ev == nil {
			return [2]string{"privacy", fmt.Sprintf("(ε', δ)-DP%s by the %s accountant, calibrated to ε' ≤ %s, %s (not run: no accounted value yet)",
				underAdjacency(pv.Adjacency), pv.AccountantName, n6(theory.EpsExact(pv.Eps, conv)), target)}
		}
		e := spent.ev
		what := fmt.Sprintf("T = %d steps, q = %s, noise multiplier %s", e.Steps, n6(e.Q), n6(e.Sigma))
		if e.PriorRho > 0 {
			what = fmt.Sprintf("the private constants' ρ₀ = %s zCDP release, then T = %d steps, q = %s, noise multiplier %s", n6(e.PriorRho), e.Steps, n6(e.Q), n6(e.Sigma))
		}
		txt = fmt.Sprintf("(ε', δ)-DP%s by the %s accountant: ε' = %s at δ = %s (%s), calibrated to ε' ≤ %s, %s",
			underAdjacency(e.Adjacency), e.Accountant, n6(spent.eps), n6(spent.delta), what, n6(theory.EpsExact(pv.Eps, spent.delta)), target)
		switch {
		case math.IsNaN(spent.epsLower):
		case e.PriorRho > 0:
			txt += fmt.Sprintf("; exact ε' ≥ %s (the steps' own, a lower bound on the two composed)", n6(spent.epsLower))
		default:
			txt += fmt.Sprintf("; exact ε' ≥ %s (discretisation error ≤ %s)", n6(spent.epsLower), n6(spent.eps-spent.epsLower))
		}
		return [2]string{"privacy", txt}
	}
	if spent != nil {
		txt += fmt.Sprintf("; spent ρ = %s per release (ledger: max over samples, largest over trials)", n6(spent.rho))
	}
	return [2]string{"privacy", txt}
}

// accountedTarget names the ε' an accounted run (dp-sgd) calibrates to:
// the exact ε' of ρ = ε²/2 zCDP at δ, the whole budget, which, where
// private estimates of the constants spent ρ₀ of ρ first, the estimates'
// release and the steps meet together (the accountant composes them:
// solvers.Config.PriorRho), as the zCDP solvers' ρ₀ and ρ − ρ₀ add to ρ.
func accountedTarget(pv spec.Privacy, conv, rho0 float64) string {
	if rho0 > 0 && rho0 < pv.Rho {
		return fmt.Sprintf("the exact ε' of ρ = ε²/2 = %s zCDP at δ = %s, met by the private constants' ρ₀ = %s release and the steps together (the same ρ as every other solver's)",
			n6(pv.Rho), n6(conv), n6(rho0))
	}
	return fmt.Sprintf("the exact ε' of ρ = ε²/2 = %s zCDP at δ = %s", n6(pv.Rho), n6(conv))
}

// underAdjacency is the words that name a privacy statement's
// neighbouring relation: " under replace-one adjacency" (the paper's).
func underAdjacency(adj string) string {
	if adj == "" {
		return ""
	}
	return " under " + adj + " adjacency"
}

// excessText is "mean ± s.e." with its kind and method.
func excessText(r *engine.Report) string {
	txt := n6(r.Excess.Mean)
	if math.IsNaN(r.Excess.SE) {
		txt += " (one trial: no standard error)"
	} else {
		txt += " ± " + n6(r.Excess.SE) + fmt.Sprintf(" (mean ± s.e. over %d trials; median %s, quartiles [%s, %s])",
			r.Excess.N, n6(r.Excess.Median), n6(r.Excess.Q1), n6(r.Excess.Q3))
	}
	txt += "; " + r.Risk.Kind + ", " + r.Risk.Method
	if r.EvalSE > 0 {
		txt += "; evaluation error ± " + n6(r.EvalSE)
	}
	if r.UserRows {
		txt += " (" + DiagnosticNote + ")"
	}
	return withW0Verdict(txt, r.Excess.Mean, r.Excess.SE, r.W0.Mean)
}

// withoutGeometry is notes less the geometry's sentence, which the table
// states in its own row.
func withoutGeometry(notes []string, g *scenarios.Geometry) []string {
	out := make([]string, 0, len(notes))
	for _, n := range notes {
		if g == nil || n != g.Note() {
			out = append(out, n)
		}
	}
	return out
}

func paramsRow(p solvers.Params, capped bool) [2]string {
	txt := fmt.Sprintf("T = %d, batch = %d, C = %s, σ = %s, step = %s", p.Iters, p.Batch, n6(p.Clip), n6(p.Sigma), n6(p.Step))
	if len(p.Phases) > 1 {
		txt += fmt.Sprintf(" (%d phases; batch, C, σ, step of the first; T total)", len(p.Phases))
	}
	switch {
	case capped:
		txt += " — budget-capped: the work budget cut the prescribed T_i (the theorem assumes the full schedule)"
		if !p.Prescribed {
			txt += "; overridden: " + strings.Join(p.Overridden, ", ")
		}
	case p.Prescribed:
		txt += " — prescribed"
	default:
		txt += " — overridden: " + strings.Join(p.Overridden, ", ") + " (the theorem's prescription is not in force)"
	}
	return [2]string{"parameters", txt}
}
