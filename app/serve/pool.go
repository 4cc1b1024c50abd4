package serve

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/theory"
	"dpso/tui/backend"
)

// Pool is the CPU slots every session's engine calls share: Config.CPUs
// slots, served round-robin by session (sched), each call holding one slot
// per worker it runs with (the Spec's workers, at most Workers: results
// are the same bits for any number), refused above the caps, bounded in
// time, and giving its slots back while it is paused. A session's calls go
// through its Seat.
type Pool struct {
	inner   backend.Runner
	sched   *sched
	cpus    int
	workers int
	caps    Caps
}

// NewPool returns a pool of cpus slots (0: GOMAXPROCS) over inner (nil:
// backend.Local), each call given at most workers workers (0: half the
// slots, at least 1).
func NewPool(inner backend.Runner, cpus, workers int, caps Caps) *Pool {
	if inner == nil {
		inner = backend.Local{}
	}
	if cpus <= 0 {
		cpus = runtime.GOMAXPROCS(0)
	}
	if workers <= 0 {
		workers = max(1, cpus/2)
	}
	workers = min(workers, cpus)
	return &Pool{inner: inner, sched: newSched(cpus, nil), cpus: cpus, workers: workers, caps: caps}
}

// Seat is one session's place at the pool: the backend.Runner of its
// explorer.
// The pool serves the seats in turn, one call of each per turn.
type Seat struct {
	p *Pool
	q *queue
}

// Seat returns a new session's seat.
func (p *Pool) Seat() *Seat { return &Seat{p: p, q: &queue{}} }

// QueuesRuns is true: a seat's call waits for its slots, and its
// settings' mailbox is told its place and when it holds them
// (backend.Queued).
func (s *Seat) QueuesRuns() bool { return true }

// share is the workers a call asking for w is given.
func (p *Pool) share(w int) int {
	if w <= 0 || w > p.workers {
		return p.workers
	}
	return w
}

// limitError is a bound of the pool that ended or refused a call: the
// cancellation cause the call's context carries, returned as the
// server's refusal.
type limitError struct {
	msg string
	// stop: the bound stopped a call under way (its short words), which
	// the explorer shows as the run's stop (backend.StoppedError), not as
	// a solver's refusal.
	stop string
}

func (e *limitError) Error() string { return e.msg }

// refused is a cap's or a bound's refusal as the explorer shows a run's.
func refused(err error) error {
	var se *spec.SpecError
	if errors.As(err, &se) {
		return &solvers.RefusedError{Solver: "this server", Reason: se.Msg}
	}
	return &solvers.RefusedError{Solver: "this server", Reason: err.Error()}
}

// call is one engine call of a seat while it runs: the slots it holds
// (none while it is paused), and its run-time bound, which counts only
// the time it holds them.
type call struct {
	seat    *Seat
	workers int
	cancel  context.CancelCauseFunc
	report  func(engine.Queue)
	first   bool // waits ahead of its seat's other calls (a prescription)

	mu      sync.Mutex
	release func() // nil while no slots are held
	budget  *time.Timer
	left    time.Duration // of the bound, while no slots are held
	heldAt  time.Time
}

// hold waits for the call's slots, in its seat's turn, and starts its
// bound's clock.
func (c *call) hold(ctx context.Context) error {
	release, err := c.seat.p.sched.acquire(ctx, c.seat.q, c.workers, c.first, c.report)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.release, c.heldAt = release, time.Now()
	if bound := c.seat.p.caps.RunTime; bound > 0 {
		if c.budget == nil {
			c.left = bound
			c.budget = time.AfterFunc(bound, func() { c.cancel(runTimeError(bound)) })
		} else {
			c.budget.Reset(c.left)
		}
	}
	return nil
}

// drop gives the call's slots back and stops its bound's clock.
func (c *call) drop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.release == nil {
		return
	}
	c.release()
	c.release = nil
	if c.budget != nil && c.budget.Stop() {
		c.left -= time.Since(c.heldAt)
	}
}

// follow mirrors the session's gate (the explorer's pause) on the engine's
// gate, giving the slots back while it is closed and queueing for them
// again when it opens; a pause past Caps.Pause cancels the call.
func (c *call) follow(ctx context.Context, outer, inner *engine.Gate) {
	var limit *time.Timer
	defer func() {
		if limit != nil {
			limit.Stop()
		}
	}()
	for {
		changed := outer.Changed()
		if outer.Paused() {
			inner.Pause()
			c.drop()
			if d := c.seat.p.caps.Pause; d > 0 && limit == nil {
				limit = time.AfterFunc(d, func() { c.cancel(pauseError(d)) })
			}
		} else {
			if limit != nil {
				limit.Stop()
				limit = nil
			}
			c.mu.Lock()
			held := c.release != nil
			c.mu.Unlock()
			if !held {
				if c.hold(ctx) != nil {
					return
				}
			}
			inner.Resume()
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}

// run runs body as one call of the seat asking for workers: it waits for
// the slots in the seat's turn (its place reported on set's mailbox),
// gives body the engine's settings — set's mailbox, a gate of the pool's
// that follows set's, and a Plan that refuses a call whose planned work
// passes Caps.RunTime — and returns a bound's refusal as the server's.
func (s *Seat) run(ctx context.Context, workers int, set *engine.Settings, body func(context.Context, int, *engine.Settings) error) error {
	var report func(engine.Queue)
	if set != nil && set.Progress != nil {
		mb := set.Progress
		report = func(q engine.Queue) { mb.Put(engine.Progress{Queue: &q}) }
	}
	return s.runReporting(ctx, workers, false, set, report, body)
}

// runReporting is run with the call's place in the queue told to report
// (nil: to no one), ahead of the seat's waiting calls when first.
func (s *Seat) runReporting(ctx context.Context, workers int, first bool, set *engine.Settings, report func(engine.Queue), body func(context.Context, int, *engine.Settings) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c := &call{seat: s, workers: s.p.share(workers), cancel: cancel, report: report, first: first}
	var in engine.Settings
	if set != nil {
		in = *set
	}
	if err := c.hold(ctx); err != nil {
		return cause(ctx, err)
	}
	followed := make(chan struct{})
	if set != nil && set.Gate != nil {
		in.Gate = engine.NewGate()
		go func() {
			defer close(followed)
			c.follow(ctx, set.Gate, in.Gate)
		}()
	} else {
		close(followed)
	}
	bound, outerPlan := s.p.caps.RunTime, in.Plan
	in.Plan = func(pl engine.Plan) {
		if outerPlan != nil {
			outerPlan(pl)
		}
		if secs := planSeconds(pl, c.workers); bound > 0 && secs > bound.Seconds() {
			cancel(planError(pl, secs, bound))
		}
	}
	err := cause(ctx, body(ctx, c.workers, &in))
	// The follower may be queueing for the slots again: it ends with the
	// context, and then the slots it holds, if any, are given back.
	cancel(nil)
	<-followed
	c.drop()
	c.mu.Lock()
	if c.budget != nil {
		c.budget.Stop()
	}
	c.mu.Unlock()
	return err
}

// cause is err, or the pool's refusal when one of its bounds ended the
// call.
func cause(ctx context.Context, err error) error {
	var le *limitError
	if err != nil && errors.As(context.Cause(ctx), &le) {
		if le.stop != "" {
			return &backend.StoppedError{Short: le.stop, Reason: le.msg}
		}
		return refused(le)
	}
	return err
}

// Prescribe takes one slot: a prescription is one goroutine's work.
func (s *Seat) Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error) {
	return s.PrescribeQueued(ctx, r, nil)
}

// PrescribeQueued is Prescribe that tells report the call's place in the
// seat's turn while it waits for its slot, and Position 0 once it holds
// it (backend.QueuedPrescriber). It waits ahead of the seat's queued runs:
// the theorem panel's constants, asked for while a run of the session
// waits for a slot (an r pressed before they came), are served in the
// session's next turn, before that run; a preset's own run is asked for
// only once its constants have come.
func (s *Seat) PrescribeQueued(ctx context.Context, r spec.Resolved, report func(engine.Queue)) (*engine.Prescription, error) {
	if err := s.p.caps.Check(r); err != nil {
		return nil, refused(err)
	}
	var out *engine.Prescription
	err := s.runReporting(ctx, 1, true, nil, report, func(ctx context.Context, _ int, _ *engine.Settings) (err error) {
		out, err = s.p.inner.Prescribe(ctx, r)
		return err
	})
	return out, err
}

// Run makes inner's call c with the pool's workers and slots, refused
// above the caps (an audit's Spec is the session's, already under them; a
// sweep's grid is held to them point by point), its own check (a
// search's rules) said before it waits for a slot.
func (s *Seat) Run(ctx context.Context, c backend.Call, set *engine.Settings) (backend.Result, error) {
	switch c.Kind {
	case backend.Audit:
	case backend.Sweep:
		if err := s.p.caps.CheckSweep(c.Spec, c.SweepSpec); err != nil {
			return backend.Result{}, refused(err)
		}
	default:
		if err := s.p.caps.Check(c.Spec); err != nil {
			return backend.Result{}, refused(err)
		}
	}
	if c.Kind == backend.Audit && set != nil {
		// An audit neither reports progress nor pauses: its mailbox is
		// told its place in the queue alone.
		set = &engine.Settings{Progress: set.Progress}
	}
	var (
		out     backend.Result
		planned engine.Plan
	)
	if c.Kind == backend.Compare {
		// The call's plan, recorded, so that a refusal by its plan can
		// name the smaller n that fits (fitRefused).
		outer := engine.Settings{}
		if set != nil {
			outer = *set
		}
		plan := outer.Plan
		outer.Plan = func(pl engine.Plan) {
			planned = pl
			if plan != nil {
				plan(pl)
			}
		}
		set = &outer
	}
	err := s.run(ctx, c.Workers(), set, func(ctx context.Context, w int, in *engine.Settings) (err error) {
		out, err = s.p.inner.Run(ctx, c.WithWorkers(w), in)
		return err
	})
	return out, s.fitRefused(ctx, c, planned, err)
}

// fitRefused adds to a comparison's refusal, when its plan passed the
// run-time bound at planPace, the largest n (two significant digits)
// whose plan fits it (engine.FitN through an inner backend.Fitter, on
// one slot like a prescription), or says that none does.
func (s *Seat) fitRefused(ctx context.Context, c backend.Call, pl engine.Plan, err error) error {
	var re *solvers.RefusedError
	f, ok := s.p.inner.(backend.Fitter)
	bound := s.p.caps.RunTime
	if !ok || bound <= 0 || pl.Work == 0 || !errors.As(err, &re) || !(planSeconds(pl, pl.Workers) > bound.Seconds()) {
		return err
	}
	var n int
	var fit engine.Plan
	c.Spec.Spec.Workers = pl.Workers
	if s.run(ctx, 1, nil, func(ctx context.Context, _ int, _ *engine.Settings) (err error) {
		n, fit, err = f.FitN(ctx, c, bound.Seconds()/planPace*float64(max(pl.Workers, 1)))
		return err
	}) != nil {
		return err
	}
	if n > 0 {
		re.Reason += fmt.Sprintf(" (n = %s fits: about %s s at this server's pace, an estimate)", theory.FormatCount(n), theory.Sig4.Format(planSeconds(fit, fit.Workers)))
	} else {
		re.Reason += " (no smaller n fits: lower d or the trials)"
	}
	return err
}

// durText writes a duration as the server's messages do: "30 s", "2 min".
func durText(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return theory.FormatCount(int64(d/time.Minute)) + " min"
	}
	return theory.Sig4.Format(d.Seconds()) + " s"
}

func runTimeError(bound time.Duration) error {
	return &limitError{msg: fmt.Sprintf("this run held its CPU slots for %s, the most this server gives one run (dpso serve --max-run-time), and was stopped; lower n, d or the trials in the form, or run dpso on your own machine", durText(bound)),
		stop: "stopped after " + durText(bound) + " on its CPU slots"}
}

func pauseError(d time.Duration) error {
	return &limitError{msg: fmt.Sprintf("this run stayed paused for %s, the longest this server keeps a paused run (dpso serve --max-pause), and was cancelled; r runs it again", durText(d)),
		stop: "stopped after " + durText(d) + " paused"}
}

func planError(pl engine.Plan, secs float64, bound time.Duration) error {
	return &limitError{msg: fmt.Sprintf("this run's planned work, %s floats to draw and process, would take about %s s on its CPU slots at this server's pace (an estimate), more than the %s this server gives one run (dpso serve --max-run-time); lower n, d or the trials in the form, or run dpso on your own machine",
		theory.Sig4.Format(pl.Work), theory.Sig4.Format(secs), durText(bound))}
}
