package serve

import (
	"context"
	"fmt"
	"runtime"

	"golang.org/x/sync/semaphore"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/theory"
	"dpso/tui/backend"
)

// Caps are the per-session caps on what a run may ask for; 0 leaves a
// quantity uncapped.
type Caps struct {
	N, D, Trials int
	// WorkBudget caps the multi-pass solvers' gradient evaluations
	// (--work-budget; unset is solvers.DefaultWorkBudget).
	WorkBudget int64
}

// DefaultCaps fit every preset of the explorer (n up to 2·10⁶, 8 trials,
// the default work budget; TestDefaultCapsOpenEveryPreset) and keep a run
// to seconds on a laptop core.
var DefaultCaps = Caps{N: 2_000_000, D: 1000, Trials: 16, WorkBudget: solvers.DefaultWorkBudget}

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

// Pool is the backend.Runner of every session: the engine's calls through one
// weighted semaphore shared by the sessions (FIFO, so a waiting call is
// served in its turn), each call holding one slot per worker it runs with
// (the Spec's workers, at most Workers: results are the same bits for any
// number), refused above the caps.
type Pool struct {
	inner   backend.Runner
	sem     *semaphore.Weighted
	cpus    int64
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
	return &Pool{inner: inner, sem: semaphore.NewWeighted(int64(cpus)), cpus: int64(cpus), workers: workers, caps: caps}
}

// acquire waits for the slots of a call asking for workers (0 or more than
// the pool gives a call: the pool's number; ctx cancels the wait) and
// returns the workers granted and the release.
func (p *Pool) acquire(ctx context.Context, workers int) (int, func(), error) {
	if workers <= 0 || workers > p.workers {
		workers = p.workers
	}
	if err := p.sem.Acquire(ctx, int64(workers)); err != nil {
		return 0, nil, err
	}
	return workers, func() { p.sem.Release(int64(workers)) }, nil
}

// refused is a cap's refusal as the explorer shows a run's.
func refused(err error) error {
	return &solvers.RefusedError{Solver: "this server", Reason: err.(*spec.SpecError).Msg}
}

// Prescribe takes one slot: a prescription is one goroutine's work.
func (p *Pool) Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error) {
	if err := p.caps.Check(r); err != nil {
		return nil, refused(err)
	}
	if err := p.sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer p.sem.Release(1)
	return p.inner.Prescribe(ctx, r)
}

// Run makes inner's call c with the pool's workers and slots, refused
// above the caps (an audit's Spec is the session's, already under them;
// a sweep's grid's largest n is held to the cap too).
func (p *Pool) Run(ctx context.Context, c backend.Call, set *engine.Settings) (backend.Result, error) {
	if c.Kind != backend.Audit {
		if err := p.caps.Check(c.Spec); err != nil {
			return backend.Result{}, refused(err) // the Spec's own cap first, as a run's
		}
	}
	if sw := c.SweepSpec; c.Kind == backend.Sweep && sw.Param == spec.SweepN && p.caps.N > 0 && sw.To > float64(p.caps.N) {
		return backend.Result{}, refused(capError("n", "n", int64(p.caps.N), int64(sw.To)))
	}
	w, release, err := p.acquire(ctx, c.Workers())
	if err != nil {
		return backend.Result{}, err
	}
	defer release()
	return p.inner.Run(ctx, c.WithWorkers(w), set)
}
