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
	// ready: the state is made (prepare succeeded); opened: a task of the
	// job has been taken (queue's, under its lock).
	ready  atomic.Bool
	opened bool

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

// runUnits runs every solver of every job on at most workers goroutines
// (default GOMAXPROCS): each (solver, trial) pair is a task, so that a
// call's cores stay busy until its last task — with 8 trials of 5
// solvers on 2 cores the tail is one task, not one trial, and one trial
// of 5 solvers uses both. A free goroutine takes the first task, in job
// order and within a job the longest first (taskCost), whose job's draw
// is ready; else opens the next job (draws it) if fewer than
// parallelTrials jobs hold their data; else waits on the first task left
// (queue.take): no core waits for a draw while another job's task could
// run. A job's draw is shared by its solvers and given back when its
// last task ends. The tasks taken once nothing is left to take (the
// call's tail) spread their large oracle calls over every core, which
// the others' ends free. Results land at their index, so the scheduling
// changes no result: the same bits for any number of workers and any
// order. The first failure cancels the other tasks and is the error
// returned (a cancellation of ctx itself returns ctx's error).
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
			return cmp.Compare(j.u.taskCost(b.si), j.u.taskCost(a.si))
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
			pl.Reads = j.u.planReads(pl.Reads)
		}
		set.Plan(pl)
	}
	var done atomic.Int64
	q := &queue{tasks: tasks, taken: make([]bool, len(tasks)), holds: parallel}
	p := &pool{set: set, start: start, total: len(tasks), done: &done, inner: inner, q: q,
		holding: make(chan struct{}, parallel)}
	g, gctx := errgroup.WithContext(ctx)
	for range running {
		g.Go(func() error {
			for gctx.Err() == nil {
				t, tail, ok := q.take()
				if !ok {
					return nil
				}
				in := p.inner
				if tail {
					in = workers
				}
				if err := p.safeTask(gctx, t, in); err != nil {
					return err
				}
			}
			return nil
		})
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

// queue hands a call's tasks to its goroutines (runUnits), in order of
// preference.
type queue struct {
	mu    sync.Mutex
	tasks []task
	taken []bool
	first int // tasks before it are all taken
	// holds is parallelTrials; opened counts the jobs opened and not yet
	// freed.
	holds, opened int
}

// take returns the task to run next: the first not taken whose job is
// ready (its draw made), else the first of a job not yet opened if
// fewer than holds jobs are open, else the first not taken (its job is
// being prepared, or the holding slots are full: it waits). tail reports
// that no task is left to take after it; ok is false when none is left.
func (q *queue) take() (t task, tail, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.first < len(q.tasks) && q.taken[q.first] {
		q.first++
	}
	if q.first == len(q.tasks) {
		return task{}, false, false
	}
	pick, open := -1, -1
	for i := q.first; i < len(q.tasks); i++ {
		if q.taken[i] {
			continue
		}
		st := q.tasks[i].st
		if st.ready.Load() {
			pick = i
			break
		}
		if !st.opened && open < 0 && q.opened < q.holds {
			open = i
		}
	}
	if pick < 0 {
		pick = open
	}
	if pick < 0 {
		pick = q.first
	}
	q.taken[pick] = true
	t = q.tasks[pick]
	if !t.st.opened {
		t.st.opened = true
		q.opened++
	}
	tail = !slices.Contains(q.taken[q.first:], false)
	return t, tail, true
}

// freed records that a job's last task has ended.
func (q *queue) freed() {
	q.mu.Lock()
	q.opened--
	q.mu.Unlock()
}

// pool is what every task of one call shares.
type pool struct {
	set   *Settings
	start time.Time
	total int
	done  *atomic.Int64
	inner int // solvers.Config.Workers of a task before the call's tail
	q     *queue
	// holding has a slot for each job that holds its data (at most
	// parallelTrials at once).
	holding chan struct{}
}

// safeTask is runTask with a panic (a bug in a solver) turned into an
// error: no panic may escape a worker goroutine and crash the program.
func (p *pool) safeTask(ctx context.Context, t task, inner int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in trial %d: %v (this is a bug; please report it with the command line)", t.st.trial, r)
		}
	}()
	return p.runTask(ctx, t, inner)
}

// runTask runs one solver on its trial's draw with solvers.Config.Workers
// = inner, preparing the trial's shared state first if it is the trial's
// first task to start, and giving its data back if it is the last to
// end.
func (p *pool) runTask(ctx context.Context, t task, inner int) error {
	st := t.st
	defer func() {
		if st.left.Add(-1) == 0 {
			st.free()
			p.q.freed()
		}
	}()
	st.once.Do(func() {
		st.err = p.prepare(ctx, st, inner)
		st.ready.Store(st.err == nil)
	})
	if st.err != nil {
		return st.err
	}
	return p.runSolver(ctx, st, t.si, inner)
}

// prepare makes a job's shared state: it waits for a slot among the jobs
// that hold their data, draws the trial's dataset, computes its reference
// (materializing it), or else materializes it once for its multi-pass
// solvers, and the trial's problem.
func (p *pool) prepare(ctx context.Context, st *trialState, inner int) error {
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
	ref, m, release, err := p.reference(ctx, u, data, inner)
	if err != nil {
		return err
	}
	frees = append(frees, release)
	if m == nil {
		var free func()
		if m, free, err = p.sharedDraw(ctx, u, data, inner); err != nil {
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
