package report

import (
	"fmt"
	"math"
	"strings"

	"dpso/internal/engine"
	"dpso/theory"
)

// TotalJSON is what a whole call (a run, a comparison, a sweep) released
// from the same data, composed (engine.PrivacyTotal): the privacy
// block's "total" and the sweep document's.
type TotalJSON struct {
	// Scope is "user-rows" (every release read the user's rows: trials,
	// solvers and sweep points compose) or "per-draw" (a scenario: each
	// trial draws fresh data, so trials do not compose; the solvers and
	// points of one trial share its draw).
	Scope string `json:"scope"`
	// Releases is the number of outputs that composed: trials × solvers ×
	// points on user rows, solvers × points per draw on a scenario.
	Releases int `json:"releases"`
	// Split: --split-budget made --eps the total, each release got its
	// share.
	Split bool `json:"split"`
	// Composition: "zcdp" (ρ's add), "basic" ((ε, δ)'s add), "zcdp+basic"
	// (the zCDP part converted to (ε', δ) and added to the (ε, δ) part:
	// conservative), or "none" when some release was not private.
	Composition string `json:"composition"`
	// Private: the total is a privacy guarantee: every release was private
	// (the total is finite) and nothing voids it (seeded noise or
	// estimated constants on user data: the document's not_private).
	Private bool `json:"private"`
	// Rho is the composed ρ of the zCDP releases (null when not private,
	// or when there is none: every release an (ε, δ)).
	Rho *float64 `json:"rho"`
	// Eps, Delta: the composed (ε, δ) of the (ε, δ) releases (shuffle
	// oracles, accountants), when there are any.
	Eps   *float64 `json:"eps,omitempty"`
	Delta *float64 `json:"delta,omitempty"`
	// EpsDP, DeltaDP: the whole total as (ε', δ')-DP: ρ converted exactly
	// (Gaussian mechanism, μ = √(2ρ)) at the run's conversion δ, plus the
	// (ε, δ) part by basic composition.
	EpsDP   *float64 `json:"eps_dp"`
	DeltaDP *float64 `json:"delta_dp"`
	// BudgetRho, BudgetEps, BudgetDelta: the budget as given (the total
	// when Split, each release's otherwise).
	BudgetRho   *float64 `json:"budget_rho,omitempty"`
	BudgetEps   *float64 `json:"budget_eps,omitempty"`
	BudgetDelta *float64 `json:"budget_delta,omitempty"`
	// Planned: a prescription's total, the budget times the releases a
	// run would make (no ledger read).
	Planned bool `json:"planned,omitempty"`
	// Note says the same in a sentence.
	Note string `json:"note"`
}

// TotalEpsDelta is what the CLI's total line states as one (ε', δ'):
// the zCDP part of t converted exactly at conv (t.ConvDelta where set:
// ε' of the Gaussian mechanism μ = √(2ρ)), plus its (ε, δ) part by basic
// composition; +Inf (δ NaN) where some release was not private.
func TotalEpsDelta(t engine.PrivacyTotal, conv float64) (eps, delta float64) {
	if t.ConvDelta > 0 {
		conv = t.ConvDelta
	}
	s := t.Spent
	if !t.Private() {
		return math.Inf(1), math.NaN()
	}
	if s.Rho > 0 {
		eps, delta = theory.EpsExact(math.Sqrt(2*s.Rho), conv), conv
	}
	return eps + s.Eps, delta + s.Delta
}

func composition(t engine.PrivacyTotal) string {
	switch {
	case !t.Private():
		return "none"
	case t.Mixed():
		return "zcdp+basic"
	case t.Spent.Eps > 0:
		return "basic"
	}
	return "zcdp"
}

// totalJSON is t's document at the conversion δ conv.
func totalJSON(t engine.PrivacyTotal, conv float64) *TotalJSON {
	eps, delta := TotalEpsDelta(t, conv)
	j := &TotalJSON{Scope: "per-draw", Releases: t.Composition.Releases, Split: t.Composition.Split,
		Composition: composition(t), Private: t.Covered(), EpsDP: theory.JSONNum(eps), DeltaDP: theory.JSONNum(delta),
		Planned: t.Planned, Note: totalText(t, conv)}
	if t.UserRows {
		j.Scope = "user-rows"
	}
	if t.Private() && (t.Spent.Rho > 0 || t.Spent.Eps == 0 && t.Spent.Delta == 0) {
		// Null when every release is (ε, δ) (an accountant's, a shuffle
		// oracle's): no zCDP ρ is claimed, and 0 would claim one.
		j.Rho = theory.JSONNum(t.Spent.Rho)
	}
	if t.Private() {
		if t.Spent.Eps > 0 || t.Spent.Delta > 0 {
			j.Eps, j.Delta = theory.JSONNum(t.Spent.Eps), theory.JSONNum(t.Spent.Delta)
		}
	}
	if req := t.Composition.Requested; req.Private() {
		if req.Rho > 0 {
			j.BudgetRho = theory.JSONNum(req.Rho)
		} else {
			j.BudgetEps, j.BudgetDelta = theory.JSONNum(req.Eps), theory.JSONNum(req.Delta)
		}
	}
	return j
}

// costText is a composed cost in words.
func costText(t engine.PrivacyTotal, conv float64) string {
	if t.ConvDelta > 0 {
		conv = t.ConvDelta
	}
	s := t.Spent
	eps, delta := TotalEpsDelta(t, conv)
	switch {
	case !t.Private():
		return "not private (a release without noise: ε = ∞ or the baseline nonprivate-schedule)"
	case t.Mixed():
		return fmt.Sprintf("ρ = %s zCDP plus (ε, δ) = (%s, %s); in all (ε', δ) = (%s, %s) by basic composition of the zCDP part's exact conversion at δ = %s (conservative)",
			n6(s.Rho), n6(s.Eps), n6(s.Delta), n6(eps), n6(delta), n6(conv))
	case s.Eps > 0 && t.Composition.Releases == 1:
		return fmt.Sprintf("(ε', δ) = (%s, %s), its accountant's", n6(s.Eps), n6(s.Delta))
	case s.Eps > 0:
		return fmt.Sprintf("(ε, δ) = (%s, %s) by basic composition", n6(s.Eps), n6(s.Delta))
	}
	return fmt.Sprintf("ρ = %s zCDP (zCDP composition: ρ's add); (ε', δ)-DP with δ = %s: ε' = %s (exact, Gaussian mechanism)", n6(s.Rho), n6(conv), n6(eps))
}

// totalText says what the call's outputs cost together, and why; when
// something voids the guarantee (seeded noise or estimated constants on
// user data), it says so after the cost.
func totalText(t engine.PrivacyTotal, conv float64) string {
	txt := totalCost(t, conv)
	if t.Private() && len(t.NotPrivate) > 0 {
		txt += " — but NOT PRIVATE: " + strings.Join(t.NotPrivate, "; ")
	}
	return txt
}

// totalCost is totalText's account of the cost.
func totalCost(t engine.PrivacyTotal, conv float64) string {
	c := t.Composition
	m := max(c.Releases, 1)
	verb := "spent"
	if t.Planned {
		verb = "will spend"
	}
	if !t.UserRows {
		if !t.Private() {
			// No guarantee to hold per trial: say so first (ε = ∞, or the
			// baseline nonprivate-schedule among the releases).
			what := "the release"
			if m > 1 {
				what = fmt.Sprintf("the %d releases of one trial (solvers, sweep points), which share its draw,", m)
			}
			return fmt.Sprintf("no privacy guarantee: %s %s %s; each trial draws fresh data from the scenario's public distribution, so trials do not compose",
				what, map[bool]string{true: "are together", false: "is"}[m > 1], costText(t, conv))
		}
		txt := "each trial draws fresh data from the scenario's public distribution, so trials do not compose: the guarantee holds per trial, with respect to its own draw"
		if m > 1 {
			txt += fmt.Sprintf("; the %d releases of one trial (solvers, sweep points) share its draw and %s %s on it", m, verb, costText(t, conv))
		}
		return txt
	}
	if !t.Private() {
		return fmt.Sprintf("no privacy guarantee: the user's rows are the private data, and the %s (trials × solvers × sweep points) that read them %s %s",
			plural(m, "release"), map[bool]string{true: "are together", false: "is"}[m > 1], costText(t, conv))
	}
	txt := fmt.Sprintf("the user's rows are the private data: %s (trials × solvers × sweep points) read them and %s in all %s",
		plural(m, "release"), verb, costText(t, conv))
	switch {
	case c.Split:
		txt += fmt.Sprintf("; --split-budget gave each release 1/%d of the budget given", max(t.Shares, m))
	case m > 1 && c.Requested.Private():
		txt += "; each release had the full budget given (--split-budget makes it the total instead)"
	}
	if t.NoiseOff > 0 {
		txt += fmt.Sprintf("; besides, %s (the noise-off column) read the rows without noise: non-private diagnostics, not releases", plural(t.NoiseOff, "noise-off run"))
	}
	return txt
}

// notPrivate is why r's outputs are not covered by a guarantee (the
// Spec's reasons and the baseline nonprivate-schedule's).
func notPrivate(r *engine.Report) []string {
	why := append([]string(nil), r.NotPrivate...)
	if r.Privacy.Private() && !r.Private() {
		why = append(why, BaselineNotPrivate(r.Solver))
	}
	return why
}

// PrescriptionNotPrivate is why the run p prescribes would not be covered
// by a guarantee, as `dpso run` says it: the Spec's reasons, and for the
// baseline nonprivate-schedule (a finite ε, neither clipping nor noise:
// engine.Prescription.Private) BaselineNotPrivate.
func PrescriptionNotPrivate(p *engine.Prescription) []string {
	why := append([]string(nil), p.NotPrivate...)
	if p.Privacy.Private() && !p.Private() {
		why = append(why, BaselineNotPrivate(p.Solver))
	}
	return why
}

// BaselineNotPrivate is the sentence that says a run of solver, the
// non-private baseline, has no privacy guarantee.
func BaselineNotPrivate(solver string) string {
	return solver + " is the non-private baseline (no clipping, no noise)"
}

// diagnosticPrivate reports whether a number measured on r's output (its
// excess risk, its trace) is itself covered by the guarantee: on a
// scenario it is a function of the private output alone (the risk of a
// public distribution), on user rows it reads the rows and is a
// non-private diagnostic.
func diagnosticPrivate(r *engine.Report) bool {
	return !r.UserRows && len(notPrivate(r)) == 0
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// notPrivateRows are the table's "NOT PRIVATE" lines, one per reason.
func notPrivateRows(why []string) [][2]string {
	var rows [][2]string
	for i, w := range why {
		label := ""
		if i == 0 {
			label = "NOT PRIVATE"
		}
		rows = append(rows, [2]string{label, w})
	}
	return rows
}

// sweepNotPrivate is why a sweep's outputs are not covered by a
// guarantee: the reasons of its points' reports, each once.
func sweepNotPrivate(rep *engine.SweepReport) []string {
	var all []*engine.Report
	for _, p := range rep.Points {
		all = append(all, p.Reports...)
	}
	return allNotPrivate(all)
}

// sweepDiagnosticPrivate reports whether every number the sweep measured
// is covered by the guarantee (see diagnosticPrivate).
func sweepDiagnosticPrivate(rep *engine.SweepReport) bool {
	for _, p := range rep.Points {
		for _, r := range p.Reports {
			if r.Refused == "" && !diagnosticPrivate(r) {
				return false
			}
		}
	}
	return true
}

// comparisonNotPrivate is why a comparison's outputs are not all covered
// by a guarantee: its solvers' reasons, each once.
func comparisonNotPrivate(c *engine.Comparison) []string { return allNotPrivate(c.Reports) }

// allNotPrivate is the reasons (notPrivate) of the reports that ran, each
// once, in order.
func allNotPrivate(reps []*engine.Report) []string {
	var why []string
	seen := map[string]bool{}
	for _, r := range reps {
		if r.Refused != "" {
			continue
		}
		for _, w := range notPrivate(r) {
			if !seen[w] {
				seen[w] = true
				why = append(why, w)
			}
		}
	}
	return why
}
