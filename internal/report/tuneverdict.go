package report

import (
	"fmt"
	"math"
	"strings"

	"dpso/internal/engine"
	"dpso/theory"
)

// TuneNum writes the numbers of a tuning's verdict (TuneSolverVerdict):
// 3 significant digits (theory.Human, the explorer's numbers), one
// formatter for dpso tune's verdict line, the tuning screen's and the
// tuning figure's, which print the same numbers.
var TuneNum = theory.Human.Format

// TuneSolverVerdict compares solver ts's tuned (private) release with its
// prescribed run and its oracle-tuned reference (named oracle: "oracle-
// tuned", "coarse oracle"; a nil one, or one without a positive finite
// mean, is left out): the ratio of the means — "2.88× below prescribed";
// where the ratio reads 1 at format's digits, "level with prescribed" —
// and the test dpso tune's best-private line makes, named once: the
// paired difference over the same draws (engine.Paired), "(clear)" where
// its mean is more than 2 standard errors from 0, else "(within 2 s.e.:
// no clear difference)"; with one trial there is no standard error to
// test by. "" without a tuned mean or anything to compare it with. Its
// numbers are TuneNum's, wherever it is printed.
func TuneSolverVerdict(ts engine.TuneSolver, oracleName string) string {
	format := TuneNum
	ok := func(e engine.Estimate) bool { return e.Mean > 0 && !math.IsInf(e.Mean, 0) }
	tuned := ts.Tuned.Excess
	if !ok(tuned) {
		return ""
	}
	tunedTrials := make([]float64, len(ts.Tuned.Trials))
	for i, t := range ts.Tuned.Trials {
		tunedTrials[i] = t.Excess
	}
	var parts []string
	tested := 0
	compare := func(name string, other engine.Estimate, trials []float64) {
		f := other.Mean / tuned.Mean
		var ratio string
		switch {
		case format(f) == format(1) || format(1/f) == format(1):
			ratio = "level with " + name
		case f >= 1:
			ratio = format(f) + "× below " + name
		default:
			ratio = format(1/f) + "× above " + name
		}
		d := engine.Paired(trials, tunedTrials)
		switch {
		case math.IsNaN(d.Mean):
			ratio += " (not on the same draws: untested)"
		case math.IsNaN(d.SE):
		case math.Abs(d.Mean) > 2*d.SE:
			ratio += " (clear)"
			tested = d.N
		default:
			ratio += " (within 2 s.e.: no clear difference)"
			tested = d.N
		}
		parts = append(parts, ratio)
	}
	if p := ts.Prescribed; p != nil && p.Refused == "" && ok(p.Excess) {
		trials := make([]float64, len(p.Trials))
		for i, t := range p.Trials {
			trials[i] = t.Excess
		}
		compare("prescribed", p.Excess, trials)
	}
	if o := ts.Oracle; o != nil && ok(o.Excess) {
		compare(oracleName, o.Excess, o.Trials)
	}
	if len(parts) == 0 {
		return ""
	}
	head := "tuned (private), one trial (no standard error to test a gap by)"
	if tested > 0 {
		head = fmt.Sprintf("tuned (private), paired test over the same %d draws at 2 s.e.", tested)
	}
	return head + ": " + strings.Join(parts, ", ")
}

// W0TuneVerdict is W0Verdict's words for a tuning's run, and where its
// mean is below w0 = F(w₀) − F* by at most 2 standard errors, "below
// F(w₀) − F* by less than 2 s.e.: no better than doing nothing by these
// trials" — a run that does not leave the start line is not read as a
// gain; with one trial (se NaN) a mean above w0 is no better than doing
// nothing in that trial.
func W0TuneVerdict(mean, se, w0 float64) string {
	if math.IsNaN(se) && !math.IsNaN(w0) && mean > w0 {
		return "above F(w₀) − F* in its one trial: no better than doing nothing there (no standard error)"
	}
	if v := W0Verdict(mean, se, w0); v != "" {
		return v
	}
	if math.IsNaN(mean) || math.IsNaN(w0) || math.IsNaN(se) || w0-mean > 2*se {
		return ""
	}
	return "below F(w₀) − F* by less than 2 s.e.: no better than doing nothing by these trials"
}

// NoReferencesOnRows says why a tuning on the user's rows without
// references shows the tuned release alone, in the words the tuning
// screen and the tuning figure both print.
const NoReferencesOnRows = "prescribed and oracle-tuned read your rows too: dpso tune --references adds them (the whole is then not private)"
