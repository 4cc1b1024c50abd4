package serve

import (
	"fmt"
	"time"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/theory"
)

// Caps are the per-session caps on what a run may ask for; 0 leaves a
// quantity uncapped.
type Caps struct {
	N, D, Trials int
	// WorkBudget caps the multi-pass solvers' gradient evaluations
	// (--work-budget; unset is solvers.DefaultWorkBudget).
	WorkBudget int64
	// RunTime bounds the time one call may hold its CPU slots (its waits
	// in the queue and its pauses not counted): a call whose planned work
	// (engine.Plan) would take longer at planPace is refused before its
	// trials start, and one that reaches it is stopped; either is said as
	// the server's refusal.
	RunTime time.Duration
	// Pause is how long a run may stay paused (its slots given back
	// meanwhile) before it is cancelled, so that a paused run does not
	// keep its memory for good.
	Pause time.Duration
}

// DefaultCaps open every preset of the explorer (n up to 2·10⁶, 8 trials,
// the default work budget; TestDefaultCapsOpenEveryPreset) and bound every
// call of a session to RunTime = 30 s on its slots: a call planned longer
// (planPace) is refused before it starts, one that reaches it is stopped.
// At the caps, one core (GOMAXPROCS=1, one worker, CPU time; measured on
// the 2-core development machine at load 11 to 20, so a little long):
// linreg-t at n = 2·10⁶, d = 100, 8 trials, acsa 5.8 s (3.2·10⁹ planned
// floats), clipped-sgd 5.3 s, nonprivate-schedule 5.1 s; at d = 10, acsa
// 1.6 s, klz-gd 9.5 s, dp-sgd 10.1 s; klz-gd at d = 100 (n = 1.9·10⁶) 40 s
// of CPU, 1.5·10¹⁰ planned floats, refused up front.
var DefaultCaps = Caps{N: 2_000_000, D: 100, Trials: 8, WorkBudget: solvers.DefaultWorkBudget, RunTime: 30 * time.Second, Pause: 2 * time.Minute}

// planPace is the seconds per float of engine.Plan's work model the pool
// assumes for its up-front refusal. The model's pace varies with the
// solver and d (measured as above: 1.6 to 1.8 ns for the one-pass solvers
// at d = 100, 2.6 for klz-gd; at d = 10, 4.4 for acsa, 4.9 for klz-gd,
// 9.5 for dp-sgd, whose per-step work the model counts short): 4 ns
// refuses at once what is plainly too long and leaves the rest to the
// bound's stop.
const planPace = 4e-9

// planSeconds is the time pl takes at planPace on workers cores.
func planSeconds(pl engine.Plan, workers int) float64 {
	return pl.Work * planPace / float64(max(1, workers))
}

// capError is a cap that binds, as the form and the CLI name a field.
func capError(field, symbol string, cap, got int64) error {
	return &spec.SpecError{Field: field, Msg: fmt.Sprintf("this server caps %s at %s per session (dpso serve --max-%s); %s is above it: lower it, or run dpso on your own machine",
		symbol, theory.FormatCount(cap), field, theory.FormatCount(got))}
}

// Check refuses a resolved Spec above the caps, naming the first field
// that binds.
func (c Caps) Check(r spec.Resolved) error {
	wb := r.Spec.WorkBudget
	if wb == 0 {
		wb = solvers.DefaultWorkBudget
	}
	switch {
	case c.N > 0 && r.Spec.N > c.N:
		return capError("n", "n", int64(c.N), int64(r.Spec.N))
	case c.D > 0 && r.Spec.D > c.D:
		return capError("d", "d", int64(c.D), int64(r.Spec.D))
	case c.Trials > 0 && r.Spec.Trials > c.Trials:
		return capError("trials", "trials", int64(c.Trials), int64(r.Spec.Trials))
	case c.WorkBudget > 0 && wb > c.WorkBudget:
		return capError("work-budget", "the work budget", c.WorkBudget, wb)
	}
	return nil
}

// CheckSweep refuses a sweep of r whose Spec or any grid point is above
// the caps: the grid's largest n or d (sw.To) is its last point's.
func (c Caps) CheckSweep(r spec.Resolved, sw engine.SweepSpec) error {
	if err := c.Check(r); err != nil {
		return err
	}
	switch {
	case sw.Param == spec.SweepN && c.N > 0 && sw.To > float64(c.N):
		return capError("n", "n", int64(c.N), int64(sw.To))
	case sw.Param == spec.SweepD && c.D > 0 && sw.To > float64(c.D):
		return capError("d", "d", int64(c.D), int64(sw.To))
	}
	return nil
}

// Limit is the sessions' tui.Options.Limit: no data file of the server,
// secure randomness (a seed or --rand seeded is refused, naming why), and
// the caps on the resolved Spec. A Spec that does not resolve is passed
// on, for the form's own check to name what is wrong.
func (c Caps) Limit(s spec.Spec) (spec.Spec, error) {
	const own = "; run dpso explore on your own machine for that"
	switch {
	case s.Data != "":
		return s, &spec.SpecError{Field: "data", Msg: "a session reads no file of the server" + own}
	case s.Rand != "" && s.Rand != solvers.Secure.String():
		return s, &spec.SpecError{Field: "rand", Msg: "this server draws every session's noise from secure randomness, so runs are not reproducible from a seed" + own}
	case s.Seed != 0:
		return s, &spec.SpecError{Field: "seed", Msg: "this server draws every session's noise from secure randomness, which reads no seed" + own}
	}
	s.Rand = solvers.Secure.String()
	r, err := s.Resolve()
	if err != nil {
		return s, nil
	}
	return s, c.Check(r)
}
