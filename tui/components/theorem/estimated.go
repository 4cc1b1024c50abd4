package theorem

import (
	"fmt"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/tui/common"
	"dpso/tui/style"
)

// estimated is the shown run's report where it read private estimates of
// the constants (--constants private), which no prescription before a run
// has: nil otherwise.
func (p *Model) estimated() *engine.Report {
	rep := p.shown.rep
	if p.shown.runID == 0 || rep == nil || rep.ConstantsRho == 0 || len(rep.Trials) == 0 || rep.Trials[0].Constants == nil {
		return nil
	}
	return rep
}

// estimatedSections are the panel's lines for a finished run on private
// constants, as dpso run prints them: trial 0's private estimates (said
// to be estimates, with their share ρ₀ of the budget), the parameters
// prescribed from them, the certificate at those parameters beside w₀
// (vacuous where above it), then the run's notes.
func (p *Model) estimatedSections(rep *engine.Report) []common.Section {
	st := p.Styles
	w := p.W
	e := rep.Trials[0].Constants
	head := fmt.Sprintf("run #%d's private estimates of the constants (trial 0's; %s, from %d rows): %s", p.shown.runID, engine.RhoShare(rep.ConstantsRho, rep.Privacy.Rho), e.Rows, e.Summary(common.FmtNum))
	lines := style.WrapLines(st.Emph, head, w)
	lines = append(lines, style.WrapLines(st.Warn, "estimates, not bounds: the prescription and the certificate hold only if each true constant is at most its estimate", w)...)
	pr := &engine.Prescription{Solver: rep.Solver, Params: rep.Params, Certified: rep.Certified, W0: rep.W0}
	if flags := report.ReportFlags(rep); flags != "" {
		// Flagged estimates: the flag in the words dpso run prints, and
		// no certificate on them.
		lines = append(style.WrapLines(st.Error, "✗ "+report.FlaggedNoCert+" — "+flags, w), lines...)
		pr.Certified = engine.Certified{Why: "the private estimates it would rest on are flagged (above)"}
	}
	secs := []common.Section{{Prio: 0, Lines: lines}, {Prio: 0, Lines: p.solverLines(pr)}, {Prio: 0, Lines: refLines(st, pr, w, p.shown.rep)}}
	if rep.UserRows {
		secs = append(secs, common.Section{Prio: 1, Lines: style.WrapLines(st.Muted, "w₀ is computed on your rows apart from the released output: a non-private diagnostic", w)})
	}
	secs = append(secs, common.Section{Prio: 2, Lines: style.WrapLines(st.Muted, "before a run there is no prescription to show: r makes new estimates, a new release of the rows", w)})
	if nl := p.noteLines(pr); len(nl) > 0 {
		secs = append(secs, common.Section{Prio: 5, Lines: nl})
	}
	return secs
}

// certWhere says where a prescription's certificate holds, after its
// name: at these parameters; for the full schedule only where the work
// budget cut it (the run is not covered); on plug-in estimates read from
// the rows (--estimate-constants: not bounds, not private).
func certWhere(pr *engine.Prescription) string {
	switch {
	case pr.Params.BudgetBound:
		return " for the uncapped schedule (this run is budget-capped: not covered)"
	case pr.Spec.EstimateConstants && pr.UserRows:
		return " on estimated constants (not bounds; NOT private)"
	}
	return " at these parameters"
}
