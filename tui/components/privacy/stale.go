package privacy

import (
	"fmt"
	"math"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// subject is what the panel's statements are of: a resolved Spec and,
// when its solver is the non-private baseline at a finite ε, the
// sentence that says so (report.BaselineNotPrivate; "" otherwise).
type subject struct {
	spec     spec.Resolved
	baseline string
}

// lines are the panel's lines, its title first. While a finished run
// whose parameters the form has changed since is on screen (its curves
// and legend are drawn, as the chart's stale warning says), they are
// that run's privacy statements (runSubject: its own Spec and what its
// reports say) — of everything it released, the comparison's "not
// private" and the baseline's included — tagged as the Clipping panel
// tags its batch ("run #3's: parameters changed since"), and the form's
// prospective budget follows under its own heading, "next run (r)".
func (p *Model) lines() []string {
	r := p.Runs.Shown()
	if r == nil || r.Phase != runs.Done || r.Kind == backend.Tune || runs.RunKey(r.Spec) == runs.RunKey(p.spec) {
		return p.specLines(subject{spec: p.spec, baseline: p.baseline()})
	}
	drawn := p.specLines(runSubject(r))
	w := p.W
	out := append([]string{drawn[0]}, style.WrapLines(p.Styles.Warn, fmt.Sprintf("run #%d's: parameters changed since (r runs them)", r.ID), w)...)
	out = append(out, drawn[1:]...)
	return append(out, p.nextLines(w)...)
}

// nextLines state the budget of the run the form now holds, under the
// heading "next run (r):": its ρ and (ε', δ) (or the shuffle model's
// (ε, δ), or none at ε = ∞), what `r` would spend per release.
func (p *Model) nextLines(w int) []string {
	st := p.Styles
	pv := p.spec.Privacy
	lines := style.WrapLines(st.Emph, "next run (r):", w)
	switch {
	case math.IsInf(pv.Eps, 1):
		return append(lines, p.wrapIndented(st.Warn, "  ", "ε = ∞: no privacy", w)...)
	case shuffle(p.spec):
		return append(lines, p.wrapIndented(st.Muted, "  ", fmt.Sprintf("(ε, δ) = (%s, %s), shuffle model (%s)", common.FmtNum(pv.Eps), common.FmtNum(pv.Delta), p.spec.Oracle), w)...)
	}
	delta := privacyDelta
	if pv.Delta > 0 {
		delta = pv.Delta
	}
	txt := fmt.Sprintf("ρ = ε²/2 = %s zCDP", common.FmtNum(pv.Rho))
	switch {
	case pv.Model == spec.Accountant:
		txt = fmt.Sprintf("(ε', δ=%s)-DP: ε' ≤ %s (%s accountant)", common.FmtNum(delta), common.FmtNum(pv.EpsDelta), pv.AccountantName)
	default:
		if cv, err := theory.Convert(pv.Eps, delta); err == nil {
			txt += fmt.Sprintf(" · (ε', δ=%s)-DP: ε' = %s exact", common.FmtNum(delta), common.FmtNum(cv.EpsExact))
		}
	}
	if why := p.baseline(); why != "" {
		txt = "NOT PRIVATE: " + why
	}
	return append(lines, p.wrapIndented(st.Muted, "  ", txt, w)...)
}

// runSubject is what finished run r's statements are of: its own Spec,
// and the baseline sentence where the report of its Spec's solver (a
// comparison's, or a sweep's first point's) released without a finite
// budget although the Spec is private (engine.Report.Private), as
// report's notPrivate says it — read from the run, never from the
// form's prescription, which is of the form's Spec.
func runSubject(r *runs.Run) subject {
	s := subject{spec: r.Spec}
	var reps []*engine.Report
	switch {
	case r.Comparison != nil:
		reps = r.Comparison.Reports
	case r.Sweep != nil && len(r.Sweep.Points) > 0:
		reps = r.Sweep.Points[0].Reports
	}
	for _, rep := range reps {
		if rep.Solver == r.Spec.Spec.Solver && rep.Refused == "" && rep.Privacy.Private() && !rep.Private() {
			s.baseline = report.BaselineNotPrivate(rep.Solver)
		}
	}
	return s
}
