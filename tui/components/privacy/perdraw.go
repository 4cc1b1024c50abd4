package privacy

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// drawLines say what a finished comparison or sweep on a scenario
// released on one draw, all its solvers and sweep points together — what
// `dpso run --solvers` and `dpso sweep` say in their total line ("the 2
// releases of one trial … share its draw and spent ρ = 1 zCDP …: ε' =
// 6.57 on it"), from the same composed ledger (engine.Comparison.Total,
// engine.SweepReport.Total, report.TotalEpsDelta) — first, above each
// solver's or the point's own ε', which covers one output alone. A clip
// or k sweep's noise-off runs read the same draw without noise: the line
// counts them among the releases and says first that what the sweep shows
// is then not private, as the comparison says of its noise-free baseline,
// then what the noisy ones alone spent. delta is each release's δ: the
// composed δ is named where it differs. None on the user's rows
// (totalLines says what every release of them composed), or for one
// release.
func (p *Model) drawLines(delta float64, w int) []string {
	t, sweep, ok := p.drawTotal()
	m := t.Composition.Releases
	if !ok || t.UserRows || m < 2 {
		return nil
	}
	head := fmt.Sprintf("all %d releases of one draw: ", m)
	if sweep {
		head = fmt.Sprintf("all %d releases of one draw (the sweep's solvers and points): ", m)
	}
	eps, d := report.TotalEpsDelta(t, spec.DefaultConversionDelta)
	var txt string
	switch {
	case !t.Private() || math.IsInf(eps, 1):
		txt = "not private (a release without noise)"
	case d != delta:
		txt = fmt.Sprintf("ε' = %s at δ = %s", common.FmtNum(eps), common.FmtNum(d))
	default:
		txt = "ε' = " + common.FmtNum(eps)
	}
	if sweep && t.Private() && t.Spent.Rho > 0 && t.Spent.Eps == 0 {
		txt = "ρ = " + common.FmtNum(t.Spent.Rho) + ", " + txt
	}
	if t.Private() && t.NoiseOff > 0 {
		// The verdict first: what the screen shows is not private.
		head = fmt.Sprintf("all %d releases of one draw: ", m+t.NoiseOff)
		txt = fmt.Sprintf("not private — %d are the noise-off runs (their column: no noise); the %d noisy ones (the sweep's solvers and points) alone: %s", t.NoiseOff, m, txt)
	}
	return style.WrapLines(p.Styles.Emph, head+txt, w)
}

// drawTotal is the composed total of the finished comparison or sweep on
// screen, and whether it is a sweep's.
func (p *Model) drawTotal() (t engine.PrivacyTotal, sweep, ok bool) {
	r := p.Runs.Shown()
	switch {
	case r == nil:
	case r.Comparison != nil:
		return r.Comparison.Total, false, true
	case r.Sweep != nil:
		return r.Sweep.Total, true, true
	}
	return engine.PrivacyTotal{}, false, false
}

// sweepDrawLines are drawLines for a finished sweep on screen, at the δ
// of its (ε', δ) statements.
func (p *Model) sweepDrawLines(w int) []string {
	r := p.Runs.Shown()
	if r == nil || r.Sweep == nil || r.Phase != runs.Done {
		return nil
	}
	delta := privacyDelta
	if d := r.Spec.Privacy.Delta; d > 0 && r.Spec.Privacy.Model != spec.Shuffle {
		delta = d
	}
	return p.drawLines(delta, w)
}

// unfinishedCompareLines say, while a comparison of s runs, is paused or
// after it was stopped, what it releases on one draw — its N solvers'
// outputs, and where the non-private baseline is among them, a release
// without noise, so that what the chart draws is not private — before the
// budget lines, which are each solver's own (the whole is stated when it
// ends: drawLines); none for a finished run or one of another form.
func (p *Model) unfinishedCompareLines(s subject, w int) []string {
	r := p.Runs.Shown()
	if r == nil || !r.Compare || len(r.Names) < 2 || !(r.Active() || r.Phase == runs.Stopped) || runs.RunKey(r.Spec) != runs.RunKey(s.spec) {
		return nil
	}
	what := map[runs.Phase]string{runs.Running: "running", runs.Paused: "paused", runs.Stopped: "stopped"}[r.Phase]
	txt := fmt.Sprintf("comparison %s, %d solvers on %s", what, len(r.Names), releasedOn(r))
	switch {
	case !r.Spec.Privacy.Private():
		txt += ": not private (ε = ∞)"
	case slices.Contains(r.Names, solvers.NonPrivateScheduleName):
		txt += ": not private (" + solvers.NonPrivateScheduleName + " releases without noise)"
	case r.Phase == runs.Stopped:
		txt += " (" + strings.Join(r.Names, ", ") + "): the lines below are each solver's budget"
	default:
		txt += " (" + strings.Join(r.Names, ", ") + "): the lines below are each solver's budget; their total is stated when it ends"
	}
	return style.WrapLines(p.Styles.Emph, txt, w)
}

// releasedOn is what r's releases read: one draw of a scenario, or the
// user's rows (every release of which composes: the session line).
func releasedOn(r *runs.Run) string {
	if r.Spec.UserRows() {
		return "your rows"
	}
	return "one draw"
}

// unfinishedSweepLines say, while a sweep of s runs, is paused or after
// it was stopped, that its points release on one draw — a clip or k
// sweep's each also without noise, so that what it shows is not private —
// before the budget lines, which are one release's (the whole is stated
// when it ends: sweepDrawLines); none for a finished sweep or one of
// another form.
func (p *Model) unfinishedSweepLines(s subject, w int) []string {
	r := p.Runs.Shown()
	if r == nil || r.Kind != backend.Sweep || !(r.Active() || r.Phase == runs.Stopped) || runs.RunKey(r.Spec) != runs.RunKey(s.spec) {
		return nil
	}
	what := map[runs.Phase]string{runs.Running: "running", runs.Paused: "paused", runs.Stopped: "stopped"}[r.Phase]
	points := "its points"
	if n := len(r.SweepSpec.Grid()); n > 1 {
		points = fmt.Sprintf("its %d points", n)
	}
	txt := fmt.Sprintf("%s sweep %s: %s release on %s", runs.ParamSymbol(r.SweepSpec.Param), what, points, releasedOn(r))
	switch {
	case !r.Spec.Privacy.Private():
		txt += ": not private (ε = ∞)"
	case r.SweepSpec.Param == spec.SweepClip || r.SweepSpec.Param == spec.SweepK:
		txt += ": not private (each point also runs without noise on the same draw)"
	case r.Phase == runs.Stopped:
		txt += "; the lines below are one release's budget, not all of them together"
	default:
		txt += "; the lines below are one release's budget, their total is stated when it ends"
	}
	return style.WrapLines(p.Styles.Emph, txt, w)
}
