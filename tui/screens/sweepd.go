package screens

import (
	"math"
	"strconv"

	"charm.land/bubbles/v2/key"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/tui/common"
	"dpso/tui/runs"
)

// SweepDKind is the sweep over d (d): the rate in the dimension against
// the bounds'.
const SweepDKind runs.ScreenKind = "sweep-d"

var sweepDScreenDef = common.ScreenDef{
	Kind:  SweepDKind,
	Key:   key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "sweep d (log-log)")),
	Help:  "d sweeps the dimension d on a log grid from d/10 to 4d at the form's n and ε (what dpso sweep --vary d runs) and fits the log-log slope of the excess risk in d, next to each bound's slope in d: the noise enters every coordinate, so the privacy term grows like √d. A scenario of fixed dimension, or user data, has no d to sweep.",
	Build: func(c common.Common, _ common.Component) common.Screen { return newRateSweepScreen(c, &sweepDAxis) },
}

// sweepDAxis is the sweep of d that d runs: 5 points on a log grid from
// d/10 (at least 1) to 4d, at least one decade wide, inside d's range;
// what `dpso sweep --vary d` runs with the same --from, --to and
// --points. The work of a point grows with d: the grid stops at 4d.
var sweepDAxis = sweepAxis{
	kind: SweepDKind, param: spec.SweepD, symbol: "d", what: "d sweep", base: "sweep-d",
	grid: func(res spec.Resolved) (engine.SweepSpec, string) {
		if res.UserRows() {
			return engine.SweepSpec{}, "user data: the dimension is the file's columns, there is no d to sweep (s sweeps n, v ε)"
		}
		if info, ok := scenarios.Lookup(res.Spec.Scenario); ok && info.FixedD {
			return engine.SweepSpec{}, res.Spec.Scenario + " has a fixed dimension d = " + strconv.Itoa(info.D) + ": there is no d to sweep (s sweeps n, v ε)"
		}
		d := float64(res.Spec.D)
		from, to := math.Max(1, math.Round(d/10)), 4*d
		if to < 10*from {
			to = 10 * from
		}
		if f, ok := spec.FieldByName(spec.SweepD); ok && f.Range != nil && to > f.Range.Hi {
			to = f.Range.Hi
		}
		return engine.SweepSpec{Param: spec.SweepD, From: from, To: to, Points: 5}, ""
	},
	clear: func(s *spec.Spec) { s.D = 0 },
	arg:   func(v float64) string { return strconv.Itoa(int(v)) },
	tick:  func(v float64) string { return strconv.Itoa(int(v)) },
	hint:  "press r to sweep d on a log grid (5 points from d/10 to 4d, at the form's n and ε)",
	intro: "The sweep runs the current parameters at 5 values of d on a log grid from d/10 to 4d (same seed, same n and ε) and fits a line to log(mean excess risk) against log d. Each bound's slope over the same grid is its rate in d.",
}
