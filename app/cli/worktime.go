package cli

import (
	"fmt"
	"runtime"

	"dpso/internal/engine"
	"dpso/theory"
)

// secondsPerFloat is this build's pace in engine.Plan's work model,
// measured in CPU time on one core of the machine docs/performance.md
// describes (GOMAXPROCS=1, one trial, load 15): one pass of linreg-t at
// n·d = 10⁸ (d = 10³) and 2·10⁸ (d = 10⁴) 1.5–1.6 ns per float,
// clipped-sgd 1.8, the localized method on absreg-t 1.6. The fastest is
// the one used, so that an estimate errs short rather than long.
const secondsPerFloat = 1.5e-9

// workEstimate is the duration, in seconds, of a plan's work at
// secondsPerFloat on the cores it may use (its workers, at most
// GOMAXPROCS).
func workEstimate(pl engine.Plan) (seconds float64, cores int) {
	cores = max(1, min(pl.Workers, runtime.GOMAXPROCS(0), max(pl.Jobs, pl.Workers)))
	return pl.Work * secondsPerFloat / float64(cores), cores
}

// warnLongWork writes, on stderr (terminal or not), an estimate of a
// call's duration when it passes longJob, before any of its work starts:
// label names the call, would says whether it runs ("takes") or not
// ("would take": --dry-run), hint what shortens it.
func (e *env) warnLongWork(label string, pl engine.Plan, dry bool, hint string) {
	secs, cores := workEstimate(pl)
	if !(secs > longJob.Seconds()) {
		return
	}
	verb, cancel := "takes", "; Ctrl-C cancels"
	if dry {
		verb, cancel = "would take", ""
	}
	jobs := fmt.Sprintf("%d runs", pl.Jobs)
	if pl.Jobs == 1 {
		jobs = "1 run"
	}
	fmt.Fprintf(e.stderr, "%s: %s floats to draw and process in %s %s about %s on %d %s at %s ns per float, this build's measured pace (an estimate)%s; %s\n",
		label, theory.Sig4.Format(pl.Work), jobs, verb, fmtHours(secs), cores, map[bool]string{true: "core", false: "cores"}[cores == 1],
		theory.Sig4.Format(secondsPerFloat*1e9), cancel, hint)
}

// planWarning is warnLongWork as an engine.Settings.Plan.
func (e *env) planWarning(label, hint string) func(engine.Plan) {
	return func(pl engine.Plan) { e.warnLongWork(label, pl, false, hint) }
}
