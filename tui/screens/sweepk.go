package screens

import (
	"math"
	"slices"

	"charm.land/bubbles/v2/key"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
)

// SweepKKind is the sweep over the moment order k (o): the excess risk at
// each k's prescription, beside the same runs without noise and the
// bounds' shapes over k.
const SweepKKind runs.ScreenKind = "sweep-k"

var sweepKScreenDef = common.ScreenDef{
	Kind:  SweepKKind,
	Key:   key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "sweep k, the moment order")),
	Help:  "o sweeps the moment order k from 2 to the largest k whose moments the scenario has (what dpso sweep --vary k runs): every point runs the full prescription at its k (its own C, T and step), each trial twice, with and without noise. A larger k assumes lighter tails and buys a lower C, hence less noise; the bounds' shapes over k are drawn through the measured points.",
	Build: func(c common.Common, _ common.Component) common.Screen { return newRateSweepScreen(c, &sweepKAxis) },
}

// kSweepCandidates are the ends a k sweep may reach, in increasing order
// (the form's k grid without ∞).
var kSweepCandidates = []float64{2.5, 3, 4, 6, 8, 16}

// sweepKAxis is the sweep of k that o runs: 5 points on a log grid from 2
// to the largest k of kSweepCandidates at which the form's Spec still
// resolves (the scenario's moment r̃_k, and the declared constants'
// r̃_2k, exist there); what `dpso sweep --vary k` runs with the same
// --from, --to and --points.
var sweepKAxis = sweepAxis{
	kind: SweepKKind, param: spec.SweepK, symbol: "k", what: "k sweep", base: "sweep-k",
	grid: func(res spec.Resolved) (engine.SweepSpec, string) {
		top := math.NaN()
		for _, k := range slices.Backward(kSweepCandidates) {
			if _, err := res.At(spec.SweepK, k); err == nil {
				top = k
				break
			}
		}
		if math.IsNaN(top) {
			return engine.SweepSpec{}, "only k = 2 holds here (the moments of higher order do not exist for these data, or contradict a declared constant): there is no k to sweep"
		}
		if _, err := res.At(spec.SweepK, 2); err != nil {
			return engine.SweepSpec{}, "k = 2 does not resolve here: " + backend.SpecMessage(err)
		}
		return engine.SweepSpec{Param: spec.SweepK, From: 2, To: top, Points: 5}, ""
	},
	clear:    func(s *spec.Spec) { s.K = 0 },
	arg:      spec.FormatArg,
	tick:     common.FmtNum,
	hint:     "press r to sweep k from 2 to the largest k these data have (5 points, each with and without noise)",
	tradeOff: true,
	intro:    "The sweep runs the full prescription at 5 values of k from 2 to the largest k the data's moments allow (same seed, n and ε), each trial twice, with and without noise: k trades the clipping bias against the noise through the prescribed C. The bounds' shapes over k are drawn through the measured points.",
}
