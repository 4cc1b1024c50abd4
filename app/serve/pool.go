package serve

import (
	"context"
	"fmt"
	"runtime"

	"golang.org/x/sync/semaphore"

	"dpso/internal/audit"
	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/theory"
	"dpso/tui"
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

// Pool is the tui.Runner of every session: the engine's calls through one
// weighted semaphore shared by the sessions (FIFO, so a waiting call is
// served in its turn), each call holding one slot per worker it runs with
// (the Spec's workers, at most Workers: results are the same bits for any
// number), refused above the caps.
type Pool struct {
	inner   tui.Runner
	sem     *semaphore.Weighted
	cpus    int64
	workers int
	caps    Caps
}

// NewPool returns a pool of cpus slots (0: GOMAXPROCS) over inner (nil:
// tui.Engine), each call given at most workers workers (0: half the
// slots, at least 1).
func NewPool(inner tui.Runner, cpus, workers int, caps Caps) *Pool {
	if inner == nil {
		inner = tui.Engine{}
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

// admit refuses r above the caps, else waits for its workers' slots and
// returns r with its workers set and the release.
func (p *Pool) admit(ctx context.Context, r spec.Resolved) (spec.Resolved, func(), error) {
	if err := p.caps.Check(r); err != nil {
		return r, nil, refused(err)
	}
	w, release, err := p.acquire(ctx, r.Spec.Workers)
	if err != nil {
		return r, nil, err
	}
	r.Spec.Workers = w
	return r, release, nil
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

// Compare runs inner's Compare with the pool's workers and slots.
func (p *Pool) Compare(ctx context.Context, r spec.Resolved, names []string, set *engine.Settings) (*engine.Comparison, error) {
	r, release, err := p.admit(ctx, r)
	if err != nil {
		return nil, err
	}
	defer release()
	return p.inner.Compare(ctx, r, names, set)
}

// Sweep runs inner's Sweep with the pool's workers and slots, its grid's
// largest n held to the cap too.
func (p *Pool) Sweep(ctx context.Context, r spec.Resolved, sw engine.SweepSpec, set *engine.Settings) (*engine.SweepReport, error) {
	if err := p.caps.Check(r); err != nil {
		return nil, refused(err) // the Spec's own cap first, as a run's
	}
	if sw.Param == spec.SweepN && p.caps.N > 0 && sw.To > float64(p.caps.N) {
		return nil, refused(capError("n", "n", int64(p.caps.N), int64(sw.To)))
	}
	r, release, err := p.admit(ctx, r)
	if err != nil {
		return nil, err
	}
	defer release()
	return p.inner.Sweep(ctx, r, sw, set)
}

// Tune runs inner's Tune with the pool's workers and slots.
func (p *Pool) Tune(ctx context.Context, r spec.Resolved, ts engine.TuneSpec, set *engine.Settings) (*engine.TuneReport, error) {
	r, release, err := p.admit(ctx, r)
	if err != nil {
		return nil, err
	}
	defer release()
	return p.inner.Tune(ctx, r, ts, set)
}

// Audit runs inner's Audit with the pool's workers and slots.
func (p *Pool) Audit(ctx context.Context, cfg audit.Config) (*audit.Result, error) {
	w, release, err := p.acquire(ctx, cfg.Workers)
	if err != nil {
		return nil, err
	}
	defer release()
	cfg.Workers = w
	return p.inner.Audit(ctx, cfg)
}
