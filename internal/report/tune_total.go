package report

import (
	"fmt"
	"math"
	"strings"

	"dpso/internal/engine"
	"dpso/theory"
)

// WithPrescribedJSON is the searches and the prescribed runs composed on
// the same data (engine.TuneTotal.WithPrescribedEps).
type WithPrescribedJSON struct {
	Eps        *float64 `json:"eps"`
	Delta      *float64 `json:"delta"`
	Accountant string   `json:"accountant"`
}

func withPrescribedJSON(t engine.TuneTotal) *WithPrescribedJSON {
	if t.PrescribedRho == 0 {
		return nil
	}
	acc := "rdp"
	if t.WithPrescribedBasic {
		acc = "basic"
	}
	return &WithPrescribedJSON{Eps: theory.JSONNum(t.WithPrescribedEps), Delta: theory.JSONNum(t.WithPrescribedDelta), Accountant: acc}
}

// estVsW0 is "mean ± s.e." followed by W0TuneVerdict's words against
// w0.
func estVsW0(e engine.Estimate, w0 float64) string {
	if v := W0TuneVerdict(e.Mean, e.SE, w0); v != "" {
		return estText(e) + " — " + v
	}
	return estText(e)
}

// TuneTotalText is the statement of what read the data in a tuning call,
// composed: the searches' ε', and with the references each prescribed
// run's own ρ, the searches and prescribed runs together, and the
// oracle-tuned reference named as not private. On the user's rows with
// the references it opens with "NOT PRIVATE as a whole" when the oracle
// ran (dpso tune's total row; the explorer's tuning screen).
func TuneTotalText(r *engine.TuneReport) string {
	t := r.Total
	add := "their Rényi curves add"
	if t.Profile {
		add = "one search: its privacy-profile bound, below its Rényi one"
	}
	if !r.UserRows {
		txt := fmt.Sprintf("per trial (fresh data from the scenario's public distribution): %d search(es) read each draw: ε' = %s at δ = %s (%s)", t.Searches, n6(t.Eps), n6(t.Delta), add)
		for _, w := range t.NotPrivate {
			txt += "; " + w
		}
		return txt
	}
	if t.PrescribedRho == 0 {
		txt := fmt.Sprintf("your rows are the private data: %d search(es) (solvers × trials) read them: ε' = %s at δ = %s in all (%s)", t.Searches, n6(t.Eps), n6(t.Delta), add)
		for _, w := range t.NotPrivate {
			txt += "; " + w
		}
		return txt
	}
	m := int(math.Round(t.PrescribedRho / r.Privacy.Target.Rho))
	both := "their Rényi curves add, a prescribed run's ρ·λ at order λ"
	if t.WithPrescribedBasic {
		both = "basic composition: the ε' and δ add"
	}
	parts := []string{
		fmt.Sprintf("%d search(es) (solvers × trials): ε' = %s at δ = %s (%s)", t.Searches, n6(t.Eps), n6(t.Delta), add),
		fmt.Sprintf("%d prescribed run(s) (solvers × trials), each ρ = %s (ε' = %s alone)", m, n6(r.Privacy.Target.Rho), n6(r.Privacy.Target.EpsDelta)),
		fmt.Sprintf("searches and prescribed runs together: ε' = %s at δ = %s (%s)", n6(t.WithPrescribedEps), n6(t.WithPrescribedDelta), both),
	}
	switch OracleRan(r) {
	case engine.OracleNone:
		return "your rows are the private data, read by " + strings.Join(parts, "; ") + " — in all, the references included"
	case engine.OracleCoarse:
		parts = append(parts, "and the coarse oracle reference, which chooses by the excess risk on your rows of its coarse grid's points' full-budget runs: NOT private")
	default:
		parts = append(parts, "and the oracle-tuned reference, which chooses by the excess risk on your rows of every grid point's full-budget run: NOT private")
	}
	return "NOT PRIVATE as a whole (--references on your rows): your rows were read by " + strings.Join(parts, "; ") + "; without --references the search alone reads them"
}
