package privacy

import (
	"fmt"
	"math"

	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/tui/common"
	"dpso/tui/style"
)

// drawLines say what a finished comparison on a scenario released on one
// draw, all its solvers together — what `dpso run --solvers`'s total line
// says ("the 2 releases of one trial … share its draw and spent ρ = 1
// zCDP …: ε' = 6.57 on it"), from the same composed ledger
// (engine.Comparison.Total, report.TotalEpsDelta) — first, above each
// solver's own ε', which covers its output alone. delta is each solver's
// δ: the composed δ is named where it differs. None on the user's rows
// (totalLines says what every release of them composed), or for one
// release.
func (p *Model) drawLines(delta float64, w int) []string {
	r := p.Runs.Shown()
	if r == nil || r.Comparison == nil {
		return nil
	}
	t := r.Comparison.Total
	m := t.Composition.Releases
	if t.UserRows || m < 2 {
		return nil
	}
	head := fmt.Sprintf("all %d releases of one draw: ", m)
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
	return style.WrapLines(p.Styles.Emph, head+txt, w)
}
