package runs

import (
	"context"
	"runtime"
	"time"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/engine"
	"dpso/tui/backend"
)

// PaceLow and PaceHigh are the seconds of CPU per float of engine.Plan's
// work model that this build measured on the presets' runs and
// comparisons (docs/performance.md, "What a lecturer waits for": each
// preset's r and c, idle, its CPU time over the Work engine.PlanCompare
// gives for it), the range over those at d ≥ 10 with 0.4 s of CPU or
// more: 2.2 ns (preset 7's c) to 3.9 ns (preset 6's r). A run's duration
// is estimated as a range between the two. Outside them the model is
// further off: at d = 1 a row costs more than its two floats say (preset
// 3's c: 6.3 ns, an estimate short by half), and a replayed affine
// gradient (preset 5) counts as if it were computed (0.04 ns: an
// estimate far too long).
const (
	PaceLow  = 2.2e-9
	PaceHigh = 3.9e-9
)

// LongRun is the estimated duration past which r and c say, before the
// run starts, what it would cost and offer a smaller n that fits
// (engine.FitN): the longest a class waits at a lecturer's screen, and
// the run-time bound of dpso serve's default caps.
const LongRun = 30 * time.Second

// Estimate is the duration of a plan's work at PaceLow and PaceHigh on
// the cores it may use (its workers, at most GOMAXPROCS).
func Estimate(pl engine.Plan) (lo, hi time.Duration, cores int) {
	cores = max(1, min(pl.Workers, runtime.GOMAXPROCS(0)))
	secs := pl.Work / float64(cores)
	return time.Duration(secs * PaceLow * float64(time.Second)), time.Duration(secs * PaceHigh * float64(time.Second)), cores
}

// Long reports whether a plan's work is long even at the faster pace
// (its estimate's low end past LongRun).
func Long(pl engine.Plan) bool {
	lo, _, _ := Estimate(pl)
	return lo > LongRun
}

// FitWork is the most work (floats) that the slower pace gets through
// within LongRun on cores cores: the plan a smaller n must fit.
func FitWork(cores int) float64 {
	return LongRun.Seconds() / PaceHigh * float64(max(cores, 1))
}

// HeldMsg is run id's plan, made before its first trial; where the plan
// is long (Long) the run has stopped there: it waits for Proceed, or for
// its cancellation.
type HeldMsg struct {
	ID   int
	Plan engine.Plan
}

// hold is the run's engine.Settings.Plan: the plan is handed to the UI
// (waitHeld), and where it is long the run waits, before any trial, for
// Proceed or its context's end. Only the run's goroutine calls it.
func (r *Run) hold(ctx context.Context) func(engine.Plan) {
	return func(pl engine.Plan) {
		if !Long(pl) {
			// Said, not waited on (a second plan of one call is dropped).
			select {
			case r.plans <- pl:
			default:
			}
			return
		}
		r.plans <- pl
		select {
		case <-r.proceed:
		case <-ctx.Done():
		}
	}
}

// waitHeld is the command that waits for the run's plan (a HeldMsg) or
// its end (nothing).
func waitHeld(r *Run) tea.Cmd {
	return func() tea.Msg {
		select {
		case pl := <-r.plans:
			return HeldMsg{ID: r.ID, Plan: pl}
		case <-r.done:
			return nil
		}
	}
}

// Proceed lets the current run, held at its long plan, start its trials
// (the user chose to run it anyway).
func (rs *Lifecycle) Proceed() tea.Msg {
	r := rs.cur
	if r == nil || r.Held == nil || !r.Active() {
		return nil
	}
	r.Held = nil
	close(r.proceed)
	return Event{Run: r}
}

// FitMsg is the smaller n at which run id's comparison fits LongRun
// (engine.FitN; N 0: none does), with its plan.
type FitMsg struct {
	ID   int
	N    int
	Plan engine.Plan
	Err  error
}

// Fit is the command that computes the smaller n of the held run's
// comparison (a FitMsg): the largest n, two significant digits, whose
// plan fits LongRun at the slower pace on the run's cores; nil when the
// runner cannot say (not a backend.Fitter) or nothing is held.
func (rs *Lifecycle) Fit() tea.Cmd {
	r := rs.cur
	f, ok := rs.runner.(backend.Fitter)
	if r == nil || r.Held == nil || !ok {
		return nil
	}
	_, _, cores := Estimate(*r.Held)
	ctx, c, id := r.ctx, r.Call, r.ID
	return func() tea.Msg {
		n, pl, err := f.FitN(ctx, c, FitWork(cores))
		return FitMsg{ID: id, N: n, Plan: pl, Err: err}
	}
}
