package header

import (
	"math"
	"strings"

	"dpso/tui/common"
	"dpso/tui/runs"
)

// runQuote is the run on screen's own numbers, for a caption whose
// numbers are the preset's pinned run's while the form's Spec differs
// from the preset's ("" where there is no finished run of the form's
// Spec on the screen shown): computed from the run as its screen draws
// them — a comparison's mean final excess risk per solver, a sweep's
// measured slope per solver (or its best point, where it fits none), a
// search's tuned excess risk per solver.
func (h *Model) runQuote() string {
	r := h.runs.Shown()
	if r == nil || r.Active() || runs.RunKey(r.Spec) != runs.RunKey(h.form.Resolved()) {
		return ""
	}
	var parts []string
	switch {
	case r.Comparison != nil:
		for _, rep := range r.Comparison.Reports {
			if rep.Refused == "" && rep.Excess.N > 0 {
				parts = append(parts, rep.Solver+" "+common.FmtNum(rep.Excess.Mean))
			}
		}
	case r.Sweep != nil && len(r.Sweep.Slopes) > 0:
		for _, sl := range r.Sweep.Slopes {
			if !math.IsNaN(sl.Slope) {
				parts = append(parts, sl.Solver+" slope "+common.FmtNum(sl.Slope))
			}
		}
	case r.Sweep != nil:
		for _, b := range r.Sweep.Best {
			parts = append(parts, b.Solver+" best "+common.FmtNum(b.Excess.Mean)+" at "+paramNames[r.Sweep.Sweep.Param]+" = "+common.FmtNum(b.Value))
		}
	case r.Tune != nil:
		for _, s := range r.Tune.Solvers {
			if s.Refused == "" && s.Tuned.Excess.N > 0 {
				parts = append(parts, s.Solver+" tuned "+common.FmtNum(s.Tuned.Excess.Mean))
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "this run: " + strings.Join(parts, ", ") + " ·"
}

// paramNames are a sweep's parameters as the screen writes them.
var paramNames = map[string]string{"n": "n", "eps": "ε", "d": "d", "clip": "C", "k": "k"}

// chartKind is the chart's screen kind (screens.ChartKind), the screen
// of a preset whose Screen is "".
const chartKind runs.ScreenKind = "chart"

// offScreen is the label's words where the caption describes another
// screen than the one shown (the preset's own, with no caption of its
// own for the one shown): which screen it describes and the key that
// shows it ("" where it describes the one shown).
func (h *Model) offScreen(describes runs.ScreenKind) string {
	if describes == "" {
		describes = chartKind
	}
	shown := h.shown
	if shown == "" {
		shown = chartKind
	}
	if describes == shown {
		return ""
	}
	if h.ScreenName != nil {
		return "on " + h.ScreenName(describes) + ", not this one,"
	}
	return "on the preset's " + string(describes) + " screen, not this one,"
}
