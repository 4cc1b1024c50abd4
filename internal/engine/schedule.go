package engine

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"dpso/scenarios"
	"dpso/solvers"
	privest "dpso/solvers/estimate"
)

// job is one trial of a unit: every solver of the unit on trial's
// dataset.
type job struct {
	u     *unit
	trial int
}

// allJobs lists every (unit, trial) of units, unit by unit.
func allJobs(units []*unit) []job {
	var jobs []job
	for _, u := range units {
		for t := range u.run.Spec.Trials {
			jobs = append(jobs, job{u, t})
		}
	}
	return jobs
}

// task is one solver of one job: the scheduler's unit of work.
type task struct {
	st *trialState
	si int
}

// trialState is what the solvers of one job share: its draw (materialized
// at most once: pool.reference, pool.sharedDraw), the non-private
// reference, and the trial's problem (with --constants private, its own
// estimates). The first of the job's tasks to start makes it; the last to
// end gives its data back (free).
type trialState struct {
	job
	once sync.Once
	err  error
	// left counts the job's tasks that have not ended.
	left atomic.Int32

	data    solvers.Samples // what the solvers read: the draw or its copy
	ref     trialRef
	prob    *scenarios.Instance
	est     *privest.Estimates
	release func() // set once the state holds data
	freed   sync.Once
}

// free gives the state's data and its slot back, once.
func (st *trialState) free() {
	st.freed.Do(func() {
		if st.release != nil {
			st.release()
		}
	})
}

// runUnits runs every solver of every job on an errgroup of at most
// workers goroutines (default GOMAXPROCS): each (solver, trial) pair is a
// task, so that a call's cores stay busy until its last task — with 8
// trials of 5 solvers on 2 cores the tail is one task, not one trial, and
// one trial of 5 solvers uses both. The tasks are started job by job (a
// job's draw is shared by its solvers and given back when its last task
// ends: at most as many jobs hold their data at once as parallelTrials
// allows), the longest solvers of a job first. Results land at their
// index, so the scheduling changes no result: the same bits for any
// number of workers. The first failure cancels the other tasks and is the
// error returned (a cancellation of ctx itself returns ctx's error).
func runUnits(ctx context.Context, jobs []job, workers int, set *Settings, start time.Time) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var tasks []task
	states := make([]*trialState, len(jobs))
	perJob := 0
	for ji, j := range jobs {
		st := &trialState{job: j}
		states[ji] = st
		n := 0
		for si, r := range j.u.refused {
			if r == "" {
				tasks = append(tasks, task{st, si})
				n++
			}
		}
		st.left.Store(int32(n))
		perJob = max(perJob, n)
		// The longest first, so that the short ones fill the tail.
		slices.SortStableFunc(tasks[len(tasks)-n:], func(a, b task) int {
			return cmp.Compare(j.u.params[b.si].GradEvals, j.u.params[a.si].GradEvals)
		})
	}
	// As many jobs hold their data at once as the memory their own data
	// take allows (parallelTrials); as many tasks run at once as the
	// workers, and the cores the tasks leave over go inside them: a task
	// with solvers.Config.Workers = k spreads its large oracle calls over
	// k goroutines (the result is the same bits for any k).
	parallel := parallelTrials(jobs, workers)
	running := max(1, min(workers, len(tasks), parallel*perJob))
	inner := max(1, workers/running)
	if set != nil && set.Plan != nil {
		pl := Plan{Jobs: len(jobs), Workers: workers}
		for _, j := range jobs {
			pl.Work += j.u.cost()
		}
		set.Plan(pl)
	}
	var done atomic.Int64
	p := &pool{set: set, start: start, total: len(tasks), done: &done, inner: inner,
		holding: make(chan struct{}, parallel)}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for _, t := range tasks {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error { return p.safeTask(gctx, t) })
	}
	err := g.Wait()
	for _, st := range states {
		st.free() // a job whose later tasks a failure left unstarted
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// pool is what every task of one call shares.
type pool struct {
	set   *Settings
	start time.Time
	total int
	done  *atomic.Int64
	inner int // solvers.Config.Workers of every task
	// holding has a slot for each job that holds its data (at most
	// parallelTrials at once).
	holding chan struct{}
}

// safeTask is runTask with a panic (a bug in a solver) turned into an
// error: no panic may escape a worker goroutine and crash the program.
func (p *pool) safeTask(ctx context.Context, t task) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in trial %d: %v (this is a bug; please report it with the command line)", t.st.trial, r)
		}
	}()
	return p.runTask(ctx, t)
}

// runTask runs one solver on its trial's draw, preparing the trial's
// shared state first if it is the trial's first task to start, and
// giving its data back if it is the last to end.
func (p *pool) runTask(ctx context.Context, t task) error {
	st := t.st
	defer func() {
		if st.left.Add(-1) == 0 {
			st.free()
		}
	}()
	st.once.Do(func() { st.err = p.prepare(ctx, st) })
	if st.err != nil {
		return st.err
	}
	return p.runSolver(ctx, st, t.si)
}

// prepare makes a job's shared state: it waits for a slot among the jobs
// that hold their data, draws the trial's dataset, computes its reference
// (materializing it), or else materializes it once for its multi-pass
// solvers, and the trial's problem.
func (p *pool) prepare(ctx context.Context, st *trialState) error {
	select {
	case p.holding <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	var frees []func()
	st.release = func() {
		for _, f := range frees {
			f()
		}
		<-p.holding
	}
	u := st.u
	data := u.in.Dataset(u.run.Rand, u.run.Spec.Seed, st.trial)
	ref, m, release, err := p.reference(ctx, u, data)
	if err != nil {
		return err
	}
	frees = append(frees, release)
	if m == nil {
		var free func()
		if m, free, err = p.sharedDraw(ctx, u, data); err != nil {
			return err
		}
		frees = append(frees, free)
	}
	prob, est, err := u.trialProblem(ctx, data, st.trial)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	st.data, st.ref, st.prob, st.est = data, ref, prob, est
	if m != nil {
		st.data = m
	}
	return nil
}
