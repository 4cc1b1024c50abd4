package common

import (
	"dpso/internal/engine"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/runs"
	"fmt"
	"math"
	"strings"
)

// Outcome is the sentence a run ended with beside its state: a refusal
// or a failure (errors), or that it ended above the start line F(w₀) − F*
// (a warning: it did worse than doing nothing). The status bar shows it
// shortened, the help in full.
type Outcome struct {
	Text string
	Warn bool
	// shorts are shorter forms of text that keep its point when the
	// line is short, longest first ("lipschitz-dpsgd above w₀", then
	// "1 solver above w₀"), rather than a list of names cut before it
	// says what they did; nil: text cut at a word.
	Shorts []string
}

// OutcomeOf is r's outcome sentence ("" when there is none to say).
func OutcomeOf(r *runs.Run) Outcome {
	switch {
	case r == nil:
		return Outcome{}
	case r.Phase == runs.Refused:
		return Outcome{Text: r.Refusal}
	case r.Phase == runs.Stopped:
		// The run as a whole was stopped: the reason in full, its trials
		// done first; no solver's.
		return Outcome{Text: r.StopText() + ": " + r.Err.Error(), Shorts: []string{r.StopText(), r.DoneCount() + " done"}}
	case r.Phase == runs.Failed:
		return Outcome{Text: FailureText(r)}
	case r.Phase == runs.Done && r.Comparison != nil:
		if t, who, at := aboveStart(r.Comparison); t != "" {
			o := Outcome{Text: t, Warn: true}
			switch {
			case len(r.Comparison.Reports) == 1:
				// The state names the solver.
				o.Shorts = []string{"above w₀ at " + at, "above w₀"}
			case len(who) == 1:
				o.Shorts = []string{who[0] + " above w₀", "1 solver above w₀"}
			default:
				o.Shorts = []string{strings.Join(who, ", ") + " above w₀", fmt.Sprintf("%d solvers above w₀", len(who))}
			}
			return o
		}
	}
	return Outcome{}
}

// FailureText is a failed run's error as the explorer shows it: the
// engine's message, with a sweep point it names ("at k =
// 5.656854249492381:", exact, as a command line takes it) written as the
// explorer writes numbers ("at k = 5.66:"), the parameter by its symbol.
func FailureText(r *runs.Run) string {
	msg := backend.SpecMessage(r.Err)
	if r.Kind != backend.Sweep {
		return msg
	}
	sw := r.SweepSpec
	sym := runs.ParamSymbol(sw.Param)
	for _, v := range sw.Grid() {
		exact := "at " + sw.Param + " = " + theory.FormatNumber(v) + ": "
		msg = strings.ReplaceAll(msg, exact, "at "+sym+" = "+FmtNum(v)+": ")
	}
	return msg
}

// aboveStart says which solvers' mean excess risk ended above the start
// line F(w₀) − F* (the chart's w₀ line) — worse than returning w₀ — in
// words, the solvers first ("" when none did), with the solvers and, for
// a single run, its mean as written. The run's notes say it with the
// standard error (engine's runNotes), the legend gives the values.
func aboveStart(c *engine.Comparison) (text string, who []string, at string) {
	w0, mean := math.NaN(), math.NaN()
	for _, rep := range c.Reports {
		if rep.Refused != "" || math.IsNaN(rep.W0.Mean) || !(rep.Excess.Mean > rep.W0.Mean) {
			continue
		}
		w0, mean = rep.W0.Mean, rep.Excess.Mean
		who = append(who, rep.Solver)
	}
	if len(who) == 0 {
		return "", nil, ""
	}
	// The start line is drawn only where F(w₀) − F* > 0 (the log scale);
	// at 0 (the start is the optimum) the legend says it is not drawn, and
	// the sentence names the start's value, not a line.
	line := "w₀ (the start line, " + FmtNum(w0) + ")"
	if !(w0 > 0) {
		line = "w₀'s excess risk " + FmtNum(w0) + " (the start is the optimum)"
	}
	if len(c.Reports) == 1 {
		return "above " + line + " at " + FmtNum(mean) + ": worse than doing nothing", who, FmtNum(mean)
	}
	return strings.Join(who, ", ") + " above " + line + ": worse than doing nothing", who, ""
}
