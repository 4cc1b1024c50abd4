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

// SweepNKind is the sweep over n (s): the rate in n against the bounds'.
const SweepNKind runs.ScreenKind = "sweep"

var sweepNScreenDef = common.ScreenDef{
	Kind:  SweepNKind,
	Key:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sweep n (log-log)")),
	Short: "sweep", Place: common.HelpBesideRun,
	Build: func(c common.Common, _ common.Component) common.Screen { return newRateSweepScreen(c, &sweepNAxis) },
}

// sweepNAxis is the sweep of n that s runs: 5 points on a log grid from
// n/16 up to the form's n (which bounds its cost: the points below n cost
// less than one run at n, and a non-smooth n was chosen to fit the work
// budget), or from n up to 16n when n/16 would be below 16 samples; what
// `dpso sweep --vary n` runs with the same --from, --to and --points. On
// the user's rows the grid is subsets of the form's n rows, n/16 to n, and
// it is refused (with what to give) without an n or below 256 rows.
var sweepNAxis = sweepAxis{
	kind: SweepNKind, param: spec.SweepN, symbol: "n", what: "sweep", base: "sweep",
	grid: func(res spec.Resolved) (engine.SweepSpec, string) {
		n := float64(res.Spec.N)
		from, to := math.Round(n/16), n
		// On the user's rows, rows beyond the file's do not exist: the grid
		// is subsets of the form's n rows, n/16 to n.
		switch {
		case res.UserRows() && n == 0:
			return engine.SweepSpec{}, "an n sweep on your rows runs 5 subsets of them, from n/16 to n rows: give n (at most the file's rows) in the form, then press r"
		case res.UserRows() && from < 16:
			return engine.SweepSpec{}, "an n sweep on your rows runs subsets from n/16 to n rows; n = " + strconv.Itoa(int(n)) + " gives fewer than 16 rows at its first point: give n ≥ 256 (at most the file's rows)"
		case from < 16:
			from, to = n, math.Min(16*n, scenarios.MaxN)
		}
		return engine.SweepSpec{Param: spec.SweepN, From: from, To: to, Points: 5}, ""
	},
	clear: func(s *spec.Spec) { s.N = 0 },
	arg:   func(v float64) string { return strconv.Itoa(int(v)) },
	tick:  func(v float64) string { return common.FmtN(int(v)) },
	hint:  "press r to sweep n on a log grid (5 points from n/16 to the current n)",
	intro: "The sweep runs the current parameters at 5 values of n on a log grid from n/16 to n (same seed) and fits a line to log(mean excess risk) against log n. Each bound's slope over the same grid is its rate in n.",
}
