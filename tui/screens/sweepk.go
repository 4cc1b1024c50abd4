package screens

import (
	"context"
	"errors"
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
	Help:  "o sweeps the moment order k from 2 to the largest k that the scenario's moments and the declared constants allow (what dpso sweep --vary k runs; the panel says where it stops and why): every point runs the full prescription at its k (its own C, T and step), each trial twice, with and without noise. A larger k assumes lighter tails and buys a lower C, hence less noise; the bounds' shapes over k are drawn through the measured points.",
	Build: func(c common.Common, _ common.Component) common.Screen { return newRateSweepScreen(c, &sweepKAxis) },
}

// kSweepCandidates are the ends a k sweep may reach, in increasing order
// (the form's k grid without ∞).
var kSweepCandidates = []float64{2.5, 3, 4, 6, 8, 16}

// kSweepPoints is the number of points of the k sweep o runs.
const kSweepPoints = 5

// sweepKAxis is the sweep of k that o runs: kSweepPoints points on a log
// grid from 2 to the largest k of kSweepCandidates at which every point
// of the grid builds (computeReachK); what `dpso sweep --vary k` runs with the
// same --from, --to and --points.
var sweepKAxis = sweepAxis{
	kind: SweepKKind, param: spec.SweepK, symbol: "k", what: "k sweep", base: "sweep-k",
	grid: func(res spec.Resolved) (engine.SweepSpec, string) {
		r, ok := knownReachK(res)
		if !ok {
			return engine.SweepSpec{}, kReachPending
		}
		if r.why != "" {
			return engine.SweepSpec{}, r.why
		}
		return engine.SweepSpec{Param: spec.SweepK, From: 2, To: r.top, Points: kSweepPoints}, ""
	},
	stop:     func(res spec.Resolved) string { r, _ := knownReachK(res); return r.stop },
	reach:    true,
	clear:    func(s *spec.Spec) { s.K = 0 },
	arg:      spec.FormatArg,
	tick:     common.FmtNum,
	hint:     "press r to sweep k from 2 to the largest k these data and the declared constants allow (5 points, each with and without noise)",
	tradeOff: true,
	intro:    "The sweep runs the full prescription at 5 values of k from 2 to the largest k that the data's moments and the declared constants allow (same seed, n and ε), each trial twice, with and without noise: k trades the clipping bias against the noise through the prescribed C. The bounds' shapes over k are drawn through the measured points.",
}

// kReach is how far the k sweep goes on a Spec: the grid's top end, and
// where a larger end of kSweepCandidates exists but is refused, the
// sentence that says where the grid stops and why; or why there is no
// k sweep at all.
type kReach struct {
	top       float64
	stop, why string
}

// computeReachK is how far a k sweep goes on res: the largest end of
// kSweepCandidates whose every grid point builds
// (backend.CheckSweepPoint: the point resolves — the scenario has the
// moments r̃_k — and its problem builds with the declared constants,
// r̃_2k ≤ L_f among them), so that a sweep never fails as a whole for a
// point its own grid chose. The stop sentence names the first point
// refused above the top and the refusal ("k stops at 4: at k = 6, L_f =
// 10000 < r̃_2k = ∞ …"), as the panel shows it. A point's problem is
// built only where the Spec declares a constant (L_f, β, μ, r̃₂, r̃_k,
// r̃_2k): a resolved point fails to build only on a declared constant
// that contradicts a moment of the law, and building logreg-t's moments
// at a dozen k takes a visible fraction of a second — so the screen asks
// for it off the event loop (reachKCmd) and keeps the answers
// (knownReachK).
func computeReachK(res spec.Resolved) kReach {
	sp := &res.Spec
	declared := sp.Lf > 0 || sp.Beta > 0 || sp.Mu > 0 || sp.R2 > 0 || sp.Rk > 0 || sp.R2k > 0
	check := func(k float64) error {
		if sp.Data != "" || !declared {
			_, err := res.At(spec.SweepK, k)
			return err
		}
		return backend.CheckSweepPoint(context.Background(), res, spec.SweepK, k)
	}
	if err := check(2); err != nil {
		return kReach{why: "k = 2 is refused here: " + backend.SpecMessage(err)}
	}
	refusedAt, refusal := math.NaN(), error(nil)
	for _, top := range slices.Backward(kSweepCandidates) {
		sw := engine.SweepSpec{Param: spec.SweepK, From: 2, To: top, Points: kSweepPoints}
		var bad error
		for _, k := range slices.Backward(sw.Grid()) {
			if err := check(k); err != nil {
				bad, refusedAt = err, k
				break
			}
		}
		if bad == nil {
			r := kReach{top: top}
			if refusal != nil {
				r.stop = "k stops at " + common.FmtNum(top) + ": at k = " + common.FmtNum(refusedAt) + ", " + refusalText(refusal)
			}
			return r
		}
		refusal = bad
	}
	return kReach{why: "only k = 2 holds here (at k = " + common.FmtNum(refusedAt) + ", " + refusalText(refusal) + "): there is no k to sweep"}
}

// refusalText is a refusal's sentence without the field it names (the
// sweep, not a field of the form, is what it refuses).
func refusalText(err error) string {
	var se *spec.SpecError
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}
