package tui

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
	"dpso/tui/backend"
)

// job is what a run computes: one engine call on the form's Spec, built by
// the screen that asks for it (a jobMaker) — what r runs on a screen, c's
// comparison, the audit's negative control.
type job struct {
	// Call is the engine call (its Spec is the form's, resolved).
	backend.Call
	// family is the kind of the screens that draw the run (lifecycle.Last's
	// key): the screen that made the job, or the one it draws for.
	family screenKind
	// what names the run on the status bar ("comparison", "sweep", a
	// solver).
	what string
	// compare: the Call's solvers are the comparison with the baselines.
	compare bool
	// over names a sweep's parameter in a refusal ("n", "C", "ε");
	// budgets are the privacy budget at each grid point where it varies
	// with the point (a sweep of ε; nil: the Spec's at every point).
	over    string
	budgets []ledger.Cost
	// control: the audit is the negative control.
	control bool
	// leaveCancels: leaving the screen that draws the run cancels it (a
	// search shows nothing until it ends, and nothing else draws it).
	leaveCancels bool
}

// jobMaker builds a job on a resolved Spec, or says why there is none.
// A run keeps its maker: live mode re-runs it on the new Spec.
type jobMaker func(res spec.Resolved) (job, string)

// sweeps reports whether the job runs engine.Sweep.
func (j job) sweeps() bool { return j.Kind == backend.Sweep }

// runPhase is a run's state; a run ends done, refused (the solver
// declined: its sentence is the outcome), failed or cancelled.
type runPhase int

const (
	phaseRunning runPhase = iota
	phasePaused
	phaseDone
	phaseRefused
	phaseFailed
	phaseCancelled
)

// progressCapacity bounds the progress mailbox: a run reports at most
// 66 checkpoints per (solver, trial); beyond this the oldest are dropped
// (and counted), never blocking the solvers.
const progressCapacity = 1 << 13

// frameInterval is the shortest time between two progress deliveries:
// the UI re-plots at most ~30 times a second however fast a run reports.
const frameInterval = 33 * time.Millisecond

// minHistBatch is the smallest batch whose histogram replaces a larger
// one's: the last phases of the localized methods read batches of a few
// samples, whose histogram says nothing.
const minHistBatch = 32

// run is one job in flight or finished. Only the lifecycle writes it (on the UI
// loop); the components read it when a runEvent tells them it changed.
type run struct {
	job
	// Result is the run's outcome, once done.
	backend.Result
	id    int
	maker jobMaker // what made the job (live mode re-runs it)
	live  bool     // started by live mode

	cancel context.CancelFunc
	gate   *engine.Gate
	mb     *engine.Mailbox[engine.Progress]
	done   chan struct{}

	phase    runPhase
	start    time.Time
	pausedAt time.Time
	paused   time.Duration
	end      time.Time

	// Live traces: solver → trial → gradient evaluations → excess risk.
	traces map[string]map[int]map[int64]float64
	// finals are a sweep's finished runs: (solver index, trial, point) →
	// the final excess risk, so that its points appear as their trials
	// finish (partialMeans).
	finals map[[3]int]float64
	// Latest gradient evaluations of each (solver, trial, point).
	evals      map[[3]int]int64
	latest     engine.Progress // the paper's solver's latest progress (or any, before it reports)
	haveLatest bool
	trialsDone int
	total      int
	dropped    int
	iter       [2]int // the latest progress' iteration and planned iterations

	// The latest batch of per-sample gradient norms worth a histogram
	// (see minHistBatch), and whose it is.
	hist     oracle.BatchStats
	histWho  string
	histPh   int // its phase (1-based) for multi-phase solvers, else 0
	haveHist bool

	// clipTrail is the clip threshold C that dp-sgd's adaptive clipping
	// used at each checkpoint of its trial 0 (Batch.Threshold: that step's
	// C), in iteration order; nil without adaptive clipping.
	clipTrail  []clipPoint
	clipIters  int    // dp-sgd's planned iterations T
	clipSolver string // the solver whose C the trail draws

	held       []progressMsg // delivered while paused, applied on resume
	heldResult *resultMsg
	drained    bool // the progress reader delivered its last message

	err     error
	refusal string // phaseRefused: "solver refuses: reason"
}

func (r *run) active() bool { return r.phase == phaseRunning || r.phase == phasePaused }

// what names the run on the status bar.
func (r *run) what() string { return r.job.what }

// elapsed is the run's active time (pauses excluded).
func (r *run) elapsed(now time.Time) time.Duration {
	end := now
	switch {
	case r.phase == phasePaused:
		end = r.pausedAt
	case !r.active():
		end = r.end
	}
	return end.Sub(r.start) - r.paused
}

// totalEvals is the sum of the latest gradient evaluations of every
// (solver, trial, point).
func (r *run) totalEvals() int64 {
	var s int64
	for _, e := range r.evals {
		s += e
	}
	return s
}

// clipPoint is the clip threshold C at iteration Iter.
type clipPoint struct {
	Iter int
	C    float64
}

// adaptive reports whether r runs dp-sgd with adaptive clipping, whose C
// moves from step to step.
func (r *run) adaptive() bool {
	return r.Spec.Spec.AdaptiveClip && slices.ContainsFunc(r.Names, adapts) && r.Kind == backend.Compare
}

// recordClip adds p's threshold to the adaptive C trail (dp-sgd's trial 0;
// a checkpoint repeated at the end replaces the one of the same iteration).
func (r *run) recordClip(p engine.Progress) {
	c := p.Batch.Threshold
	if !adapts(p.Solver) || p.Trial != 0 || !(c > 0) || math.IsInf(c, 1) {
		return
	}
	r.clipIters, r.clipSolver = p.Iters, p.Solver
	if n := len(r.clipTrail); n > 0 && r.clipTrail[n-1].Iter >= p.Iter {
		if r.clipTrail[n-1].Iter == p.Iter {
			r.clipTrail[n-1].C = c
		}
		return
	}
	r.clipTrail = append(r.clipTrail, clipPoint{Iter: p.Iter, C: c})
}

// progressMsg is a batch of progress values of run id.
type progressMsg struct {
	id      int
	batch   []engine.Progress
	dropped int
	done    bool // the run's goroutine has returned: no more progress
}

// resultMsg is a run's outcome.
type resultMsg struct {
	id int
	backend.Result
	err error
}

// tickMsg refreshes the elapsed time and rate of run id.
type tickMsg struct{ id int }

// runEvent is the lifecycle's outcome: run changed (started, progressed, paused,
// resumed, ended). A nil run means there is none (a preset that runs
// nothing cleared it).
type runEvent struct{ run *run }

// lifecycle is the run lifecycle: it starts runs off the UI loop, reads their
// progress, pauses, resumes and cancels them, and drops every message of a
// run that is not the current one (each carries its run id). It draws
// nothing: the root calls it and forwards the runEvent it returns to the
// components.
type lifecycle struct {
	runner backend.Runner
	now    func() time.Time
	// ctx is the explorer's: every run's context derives from it.
	ctx    context.Context
	lastID int
	cur    *run
	last   map[screenKind]*run // the latest run of each family (job.family)
}

func newLifecycle(ctx context.Context, runner backend.Runner, now func() time.Time) *lifecycle {
	return &lifecycle{ctx: ctx, runner: runner, now: now, last: map[screenKind]*run{}}
}

// Current is the latest run (nil before the first).
func (rs *lifecycle) Current() *run { return rs.cur }

// Last is the latest run of the family (job.family): the chart's
// (single runs and comparisons), a sweep screen's, the audit's.
func (rs *lifecycle) Last(family screenKind) *run { return rs.last[family] }

// cancelCurrent cancels the current run if it is active: its messages
// become stale and are dropped.
func (rs *lifecycle) cancelCurrent() bool {
	r := rs.cur
	if r == nil || !r.active() {
		return false
	}
	r.cancel()
	r.gate.Resume()
	r.phase, r.err, r.end = phaseCancelled, context.Canceled, rs.now()
	return true
}

// Cancel cancels the current run (quit, a preset that runs nothing).
func (rs *lifecycle) Cancel() tea.Msg {
	if rs.cancelCurrent() {
		return runEvent{rs.cur}
	}
	return nil
}

// Reset cancels the current run and forgets every run: the components show
// none.
func (rs *lifecycle) Reset() tea.Msg {
	rs.cancelCurrent()
	rs.cur, rs.last = nil, map[screenKind]*run{}
	return runEvent{nil}
}

// Start builds the job mk makes on res and, unless mk says why there
// is none (a statusMsg then, and the current run goes on), cancels the
// current run and starts it. live marks a run started by live mode. The
// run's progress mailbox and pause gate are its engine.Settings;
// cancellation is its context's, derived from the explorer's.
func (rs *lifecycle) Start(mk jobMaker, res spec.Resolved, live bool) (tea.Msg, tea.Cmd) {
	j, why := mk(res)
	if why != "" {
		return statusMsg{text: why, err: true}, nil
	}
	j.Spec = res
	rs.cancelCurrent()
	rs.lastID++
	r := &run{job: j, id: rs.lastID, maker: mk, live: live, gate: engine.NewGate(), mb: engine.NewMailbox[engine.Progress](progressCapacity), done: make(chan struct{}), start: rs.now(), traces: map[string]map[int]map[int64]float64{}, evals: map[[3]int]int64{}, finals: map[[3]int]float64{}}
	rs.cur = r
	rs.last[j.family] = r
	ctx, cancel := context.WithCancel(rs.ctx)
	r.cancel = cancel
	runner, set, done, id := rs.runner, &engine.Settings{Progress: r.mb, Gate: r.gate}, r.done, r.id
	work := func() (msg tea.Msg) {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				msg = resultMsg{id: id, err: fmt.Errorf("internal error: %v (this is a bug)", p)}
			}
		}()
		res, err := runner.Run(ctx, j.Call, set)
		return resultMsg{id: id, Result: res, err: err}
	}
	return runEvent{r}, tea.Batch(work, waitProgress(r), tick(id))
}

// TogglePause pauses or resumes the current run: the gate stops the
// solvers at their next checkpoint and the display freezes; progress that
// arrives meanwhile is held and applied on resume.
func (rs *lifecycle) TogglePause() (tea.Msg, tea.Cmd) {
	r := rs.cur
	if r == nil || !r.active() {
		return statusMsg{text: "nothing is running (r runs)"}, nil
	}
	if r.Kind == backend.Audit {
		return statusMsg{text: "an audit cannot pause: it ends in seconds (r restarts it, another run cancels it)"}, nil
	}
	now := rs.now()
	if r.phase == phaseRunning {
		r.gate.Pause()
		r.phase, r.pausedAt = phasePaused, now
		return runEvent{r}, nil
	}
	r.gate.Resume()
	r.phase = phaseRunning
	r.paused += now.Sub(r.pausedAt)
	held := r.held
	r.held = nil
	rearm := true
	for _, h := range held {
		r.apply(h)
		if h.done {
			rearm = false
		}
	}
	var cmds []tea.Cmd
	if r.heldResult != nil {
		res := *r.heldResult
		r.heldResult = nil
		rs.finish(r, res)
		rearm = false
	}
	if rearm {
		cmds = append(cmds, waitProgress(r))
	}
	if r.active() {
		cmds = append(cmds, tick(r.id))
	}
	return runEvent{r}, tea.Batch(cmds...)
}

// Update handles the messages of runs — progress, results and ticks —
// dropping those of a run that is not the current one, and returns the
// runEvent to forward (nil when nothing changed) and the command that
// keeps reading the run's progress.
func (rs *lifecycle) Update(msg tea.Msg) (tea.Msg, tea.Cmd) {
	r := rs.cur
	switch msg := msg.(type) {
	case progressMsg:
		if r == nil || msg.id != r.id {
			return nil, nil // stale
		}
		switch r.phase {
		case phaseRunning:
		case phasePaused:
			r.held = append(r.held, msg)
			return nil, nil
		case phaseCancelled:
			return nil, nil
		default:
			// The result overtook this batch: its traces are in the
			// result, but the panels (clipping, evaluations) still want it.
			r.apply(msg)
			return runEvent{r}, nil
		}
		r.apply(msg)
		if msg.done {
			return runEvent{r}, nil
		}
		return runEvent{r}, waitProgress(r)
	case resultMsg:
		if r == nil || msg.id != r.id || !r.active() {
			return nil, nil
		}
		if r.phase == phasePaused {
			r.heldResult = &msg
			return nil, nil
		}
		rs.finish(r, msg)
		return runEvent{r}, nil
	case tickMsg:
		if r == nil || msg.id != r.id || r.phase != phaseRunning {
			return nil, nil
		}
		return nil, tick(r.id)
	}
	return nil, nil
}

// finish ends r with its result: done, refused (the solver's sentence is
// the outcome, never "done"), or failed.
func (rs *lifecycle) finish(r *run, msg resultMsg) {
	r.end = rs.now()
	// The run's goroutine has returned: whatever it Put and the waiter has
	// not delivered yet is in the mailbox (the result can overtake it).
	if vals, dropped := r.mb.Take(); len(vals) > 0 || dropped > 0 {
		r.apply(progressMsg{id: r.id, batch: vals, dropped: dropped})
	}
	if msg.err != nil {
		var re *solvers.RefusedError
		switch {
		case errors.As(msg.err, &re):
			r.phase, r.refusal = phaseRefused, re.Solver+" refuses: "+re.Reason
		case errors.Is(msg.err, context.Canceled):
			r.phase = phaseCancelled
		default:
			r.phase = phaseFailed
		}
		r.err = msg.err
		return
	}
	r.Result = msg.Result
	r.phase = phaseDone
	switch {
	case r.Audit != nil:
	case r.Tune != nil:
		// A solver that cannot be tuned (the non-private baseline, a
		// grid it refuses everywhere) computed nothing.
		for _, ts := range r.Tune.Solvers {
			if ts.Refused != "" {
				r.phase, r.refusal = phaseRefused, ts.Solver+" refuses: "+ts.Refused
			}
		}
	case r.Comparison != nil:
		r.total = 0
		refused := 0
		for _, rep := range r.Comparison.Reports {
			r.total += len(rep.Trials)
			if rep.Refused != "" {
				refused++
			}
		}
		// A single run that refused, or a comparison where every solver
		// did, computed nothing.
		if n := len(r.Comparison.Reports); n > 0 && (refused == n || !r.compare && r.Comparison.Reports[0].Refused != "") {
			r.phase, r.refusal = phaseRefused, r.Comparison.Reports[0].Solver+" refuses: "+r.Comparison.Reports[0].Refused
		}
	case r.Sweep != nil:
		if why := sweepRefusal(r.Sweep, r.over); why != "" {
			r.phase, r.refusal = phaseRefused, why
		}
	default:
		r.phase, r.err = phaseFailed, errors.New("the engine returned no result")
	}
	r.trialsDone = r.total
}

// sweepRefusal is why a sweep over the parameter named over computed
// nothing ("" when it measured at least one point): no grid point, or
// every solver refused at every point.
func sweepRefusal(sw *engine.SweepReport, over string) string {
	if len(sw.Points) == 0 {
		return "the sweep has no grid point"
	}
	first := ""
	for _, p := range sw.Points {
		for _, rep := range p.Reports {
			if rep.Refused == "" {
				return ""
			}
			if first == "" {
				first = rep.Solver + " refuses: " + rep.Refused
			}
		}
	}
	return first + " (at every " + over + " of the sweep)"
}

// apply folds a batch of progress into the run's traces, counters, the
// paper's solver's latest progress and the latest histogram-worthy batch.
func (r *run) apply(msg progressMsg) {
	r.drained = r.drained || msg.done
	r.dropped += msg.dropped
	main := r.Names[0]
	adaptive := r.adaptive()
	for _, p := range msg.batch {
		key := [3]int{slices.Index(r.Names, p.Solver), p.Trial, p.Point}
		if p.Pulse {
			// From inside an iteration: the evaluations move (the status
			// bar's rate); the traces, the clip trail and the latest
			// iterate's panels wait for a checkpoint.
			r.evals[key] = max(r.evals[key], p.GradEvals)
			continue
		}
		r.evals[key] = p.GradEvals
		if adaptive {
			r.recordClip(p)
		}
		if p.Total > 0 {
			r.total = p.Total
		}
		if p.Done {
			r.trialsDone = max(r.trialsDone, p.TrialsDone)
			if r.sweeps() {
				r.finals[[3]int{slices.Index(r.Names, p.Solver), p.Trial, p.Point}] = p.Excess
			}
		}
		if r.Kind == backend.Compare {
			bySolver := r.traces[p.Solver]
			if bySolver == nil {
				bySolver = map[int]map[int64]float64{}
				r.traces[p.Solver] = bySolver
			}
			tr := bySolver[p.Trial]
			if tr == nil {
				tr = map[int64]float64{}
				bySolver[p.Trial] = tr
			}
			tr[p.GradEvals] = p.Excess
		}
		if p.Solver != main && r.haveLatest {
			continue
		}
		r.latest, r.haveLatest = p, true
		if !p.Done {
			r.iter = [2]int{p.Iter, p.Iters}
		}
		b := p.Batch
		if b.Size == 0 || (b.Size < minHistBatch && r.haveHist && r.hist.Size >= minHistBatch) {
			continue
		}
		r.hist, r.haveHist, r.histPh = b, true, p.Phase
		r.histWho = fmt.Sprintf("%s · trial %d", p.Solver, p.Trial)
	}
}

// waitProgress is the command that reads the run's mailbox: it waits for
// a value (or the run's end), gives the producers one frame to batch up,
// Takes everything pending and returns it tagged with the run id. The lifecycle
// re-arms it until the run ends; it never blocks the producers.
func waitProgress(r *run) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-r.mb.Ready():
			select {
			case <-time.After(frameInterval):
			case <-r.done:
			}
		case <-r.done:
		}
		vals, dropped := r.mb.Take()
		finished := false
		select {
		case <-r.done:
			// The goroutine returned; anything Put before is in vals.
			more, d := r.mb.Take()
			vals, dropped = append(vals, more...), dropped+d
			finished = true
		default:
		}
		return progressMsg{id: r.id, batch: vals, dropped: dropped, done: finished}
	}
}

func tick(id int) tea.Cmd {
	return tea.Tick(250*time.Millisecond, func(time.Time) tea.Msg { return tickMsg{id: id} })
}

// partialMeans are a running sweep's points so far for solver si: at each
// grid point with a finished trial, the mean final excess risk over its
// finished trials and how many there are (0: none yet).
func (r *run) partialMeans(si int) (xs, means []float64, counts []int) {
	grid := r.SweepSpec.Grid()
	means, counts = make([]float64, len(grid)), make([]int, len(grid))
	for i := range grid {
		sum := 0.0
		for trial := range r.Spec.Spec.Trials { // in order: the same sum every time
			if v, ok := r.finals[[3]int{si, trial, i}]; ok {
				sum += v
				counts[i]++
			}
		}
		means[i] = sum / float64(max(counts[i], 1))
	}
	return grid, means, counts
}
