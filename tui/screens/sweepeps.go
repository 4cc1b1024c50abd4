package screens

import (
	"math"

	"charm.land/bubbles/v2/key"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/common"
	"dpso/tui/runs"
)

// SweepEpsKind is the sweep over ε (v): the rate in the privacy budget
// against the bounds'.
const SweepEpsKind runs.ScreenKind = "sweep-eps"

var sweepEpsScreenDef = common.ScreenDef{
	Kind:  SweepEpsKind,
	Key:   key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "sweep ε (log-log)")),
	Help:  "v sweeps ε on a log grid from ε/10 to 10ε at the form's n (what dpso sweep --vary eps runs) and fits the log-log slope of the excess risk in ε, next to each bound's slope in ε: the price of privacy, where the privacy term dominates; e exports it (the document dpso sweep --vary eps --json prints). ε = ∞ has no budget to sweep.",
	Build: func(c common.Common, _ common.Component) common.Screen { return newRateSweepScreen(c, &sweepEpsAxis) },
}

// sweepEpsAxis is the sweep of ε that v runs: 5 points on a log grid from
// ε/10 to 10ε around the form's ε (a finite one: ε = ∞ is no budget),
// every other field the form's; what `dpso sweep --vary eps` runs with
// the same --from, --to and --points. A grid that would leave ε's range
// [spec.MinEps, spec.MaxEps] is moved inside it, keeping its two decades.
var sweepEpsAxis = sweepAxis{
	kind: SweepEpsKind, param: spec.SweepEps, symbol: "ε", what: "ε sweep", base: "sweep-eps",
	grid: func(res spec.Resolved) (engine.SweepSpec, string) {
		eps := res.Spec.Eps
		if math.IsInf(eps, 1) {
			return engine.SweepSpec{}, "ε = ∞: there is no privacy budget to sweep (set a finite ε; v sweeps ε/10 … 10ε)"
		}
		from, to := eps/10, eps*10
		switch {
		case to > spec.MaxEps:
			from, to = spec.MaxEps/100, spec.MaxEps
		case from < spec.MinEps:
			from, to = spec.MinEps, spec.MinEps*100
		}
		return engine.SweepSpec{Param: spec.SweepEps, From: from, To: to, Points: 5}, ""
	},
	clear:  func(s *spec.Spec) { s.Eps = 0 },
	arg:    spec.FormatArg,
	tick:   common.FmtNum,
	hint:   "press r to sweep ε on a log grid (5 points from ε/10 to 10ε, at the form's n)",
	budget: true,
	intro:  "The sweep runs the current parameters at 5 values of ε on a log grid from ε/10 to 10ε (same seed, same n) and fits a line to log(mean excess risk) against log ε. Each bound's slope over the same grid is its rate in ε: steep where the privacy term dominates, flat where the statistical one does.",
}
