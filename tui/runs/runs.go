package runs

import (
	"context"
	"errors"
	"fmt"
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

// ScreenKind names a screen of the right-hand column: one value per
// screen of the registry, declared in the screen's own file. A run
// belongs to the kind of the screen that draws it (Job.Family).
type ScreenKind string

// Notice is a sentence for the status bar about the key just pressed:
// why no run started, or why the run cannot pause.
type Notice struct {
	Text string
	Err  bool
}

// Job is what a run computes: one engine call on the form's Spec, built by
// the screen that asks for it (a JobMaker) — what r runs on a screen, c's
// comparison, the audit's negative control.
type Job struct {
	// Call is the engine call (its Spec is the form's, resolved).
	backend.Call
	// family is the kind of the screens that draw the run (Lifecycle.Last's
	// key): the screen that made the job, or the one it draws for.
	Family ScreenKind
	// what names the run on the status bar ("comparison", "sweep", a
	// solver).
	What string
	// compare: the Call's solvers are the comparison with the baselines.
	Compare bool
	// over names a sweep's parameter in a refusal ("n", "C", "ε");
	// budgets are the privacy budget at each grid point where it varies
	// with the point (a sweep of ε; nil: the Spec's at every point).
	Over    string
	Budgets []ledger.Cost
	// control: the audit is the negative control.
	Control bool
	// leaveCancels: leaving the screen that draws the run cancels it (a
	// search, drawn by its screen only).
	LeaveCancels bool
}

// JobMaker builds a job on a resolved Spec, or says why there is none.
// A run keeps its maker: live mode re-runs it on the new Spec.
type JobMaker func(res spec.Resolved) (Job, string)

// Sweeps reports whether the job runs engine.Sweep.
func (j Job) Sweeps() bool { return j.Kind == backend.Sweep }

// Phase is a run's state; a run ends done, refused (the solver
// declined: its sentence is the outcome), failed, cancelled, or stopped
// part way by whoever runs it (dpso serve's bound: backend.StoppedError;
// its trials done so far are what it has).
type Phase int

const (
	Running Phase = iota
	Paused
	Done
	Refused
	Failed
	Cancelled
	Stopped
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

// Run is one job in flight or finished. Only the lifecycle writes it (on the UI
// loop); the components read it when a Event tells them it changed.
type Run struct {
	Job
	// Result is the run's outcome, once done.
	backend.Result
	ID    int
	Maker JobMaker // what made the job (live mode re-runs it)
	Live  bool     // started by live mode

	cancel context.CancelFunc
	Gate   *engine.Gate
	mb     *engine.Mailbox[engine.Progress]
	done   chan struct{}

	Phase    Phase
	start    time.Time
	pausedAt time.Time
	paused   time.Duration
	end      time.Time

	// Live traces: solver → trial → gradient evaluations → excess risk.
	Traces map[string]map[int]map[int64]float64
	// finals are a sweep's finished runs, or a search's finished trials
	// (engine.Progress.Searched, at point 0): (solver index, trial, point) →
	// the final excess risk, so that its points appear as their trials
	// finish (partialMeans).
	finals map[[3]int]float64
	// finished are a comparison's trials that reached their last
	// checkpoint: (solver index, trial) (FinishedTraces).
	finished map[[2]int]bool
	// Latest gradient evaluations of each (solver, trial, point).
	evals      map[[3]int]int64
	Latest     engine.Progress // the paper's solver's latest progress (or any, before it reports)
	HaveLatest bool
	// Final is the last checkpoint of the latest finished trial, the
	// paper's solver's (or any, before one of its trials ends): its
	// ledger is what a stopped run's finished trials spent.
	Final      engine.Progress
	HaveFinal  bool
	TrialsDone int
	Total      int
	Dropped    int
	Iter       [2]int // the latest progress' iteration and planned iterations

	// The latest batch of per-sample gradient norms worth a histogram
	// (see minHistBatch), and whose it is.
	Hist    oracle.BatchStats
	HistWho string
	// HistAt is the swept parameter's symbol of a sweep's batch, at the
	// value HistAtValue ("": not a sweep's).
	HistAt      string
	HistAtValue float64
	HistPhase   int // its phase (1-based) for multi-phase solvers, else 0
	HaveHist    bool

	// clipTrail is the clip threshold C that dp-sgd's adaptive clipping
	// used at each checkpoint of its trial 0 (Batch.Threshold: that step's
	// C), in iteration order; nil without adaptive clipping.
	ClipTrail  []ClipPoint
	ClipIters  int    // dp-sgd's planned iterations T
	ClipSolver string // the solver whose C the trail draws

	// Searched is a search's latest report before its end while the
	// oracle-tuned reference runs: the private searches and the prescribed
	// runs, every Oracle nil (engine.Settings.Searched), then with the
	// reference of the coarse grid (engine.Settings.Coarse); nil before,
	// and beside the finished report after.
	Searched *engine.TuneReport
	// oracleRuns are the oracle's grid points run so far of each
	// (solver, trial) (engine.Progress.Oracle).
	oracleRuns map[[2]int]int
	searched   chan *engine.TuneReport

	// Queue is the run's place in a shared CPU queue (a backend.Queued
	// runner: dpso serve) from the moment it starts until it holds its
	// slots: Position k > 0 its place and wait (engine.Progress.Queue),
	// Position 0 while it has asked and the queue has not yet answered.
	// It is nil once the run holds its slots, and with a runner that
	// queues nothing.
	Queue *engine.Queue
	// Queued is the time the run has waited for its slots, as the queue
	// reported each wait once it held them (engine.Queue.Waited).
	Queued time.Duration

	held         []ProgressMsg // delivered while paused, applied on resume
	heldResult   *ResultMsg
	heldSearched *engine.TuneReport
	Drained      bool // the progress reader delivered its last message

	// Held is the run's plan while it waits, before its first trial,
	// for the user's word on its long work (HeldMsg; nil otherwise).
	Held *engine.Plan
	// Plan is the comparison's plan once the engine has made it, before
	// its first trial (HeldMsg; nil before, and with a queueing runner).
	Plan    *engine.Plan
	plans   chan engine.Plan
	proceed chan struct{}
	ctx     context.Context

	Err     error
	Refusal string // phaseRefused: "solver refuses: reason"
	// RefusedBy is who refused the call as a whole, before any result
	// (a solver's name, or "this server": dpso serve's caps and plan
	// bound); RefusedWhy its reason.
	RefusedBy, RefusedWhy string
	// Stop is a stopped run's short words ("stopped after 30 s on its
	// CPU slots"; StopText adds the trials done), its Err the whole
	// reason.
	Stop string
}

// ClipPoint is the clip threshold C at iteration Iter.
type ClipPoint struct {
	Iter int
	C    float64
}

// ProgressMsg is a batch of progress values of run id.
type ProgressMsg struct {
	ID      int
	Batch   []engine.Progress
	Dropped int
	Done    bool // the run's goroutine has returned: no more progress
}

// ResultMsg is a run's outcome.
type ResultMsg struct {
	ID int
	backend.Result
	Err error
}

// TickMsg refreshes the elapsed time and rate of run id.
type TickMsg struct{ id int }

// Event is the lifecycle's outcome: run changed (started, progressed, paused,
// resumed, ended). A nil run means there is none (a preset that runs
// nothing cleared it).
type Event struct{ Run *Run }

// Lifecycle is the run lifecycle: it starts runs off the UI loop, reads their
// progress, pauses, resumes and cancels them, and drops every message of a
// run that is not the current one (each carries its run id). It draws
// nothing: the root calls it and forwards the Event it returns to the
// components.
type Lifecycle struct {
	runner backend.Runner
	now    func() time.Time
	// ctx is the explorer's: every run's context derives from it.
	ctx    context.Context
	lastID int
	cur    *Run
	last   map[ScreenKind]*Run // the latest run of each family (Job.Family)
}

func NewLifecycle(ctx context.Context, runner backend.Runner, now func() time.Time) *Lifecycle {
	return &Lifecycle{ctx: ctx, runner: runner, now: now, last: map[ScreenKind]*Run{}}
}

// Current is the latest run (nil before the first).
func (rs *Lifecycle) Current() *Run { return rs.cur }

// Last is the latest run of the family (Job.Family): the chart's
// (single runs and comparisons), a sweep screen's, the audit's.
func (rs *Lifecycle) Last(family ScreenKind) *Run { return rs.last[family] }

// cancelCurrent cancels the current run if it is active: its messages
// become stale and are dropped.
func (rs *Lifecycle) cancelCurrent() bool {
	r := rs.cur
	if r == nil || !r.Active() {
		return false
	}
	r.cancel()
	r.Gate.Resume()
	r.Phase, r.Err, r.end = Cancelled, context.Canceled, rs.now()
	return true
}

// Cancel cancels the current run (quit, a preset that runs nothing).
func (rs *Lifecycle) Cancel() tea.Msg {
	if rs.cancelCurrent() {
		return Event{Run: rs.cur}
	}
	return nil
}

// Reset cancels the current run and forgets every run: the components show
// none.
func (rs *Lifecycle) Reset() tea.Msg {
	rs.cancelCurrent()
	rs.cur, rs.last = nil, map[ScreenKind]*Run{}
	return Event{Run: nil}
}

// Start builds the job mk makes on res and, unless mk says why there
// is none (a common.StatusMsg then, and the current run goes on), cancels the
// current run and starts it. live marks a run started by live mode. The
// run's progress mailbox and pause gate are its engine.Settings;
// cancellation is its context's, derived from the explorer's.
func (rs *Lifecycle) Start(mk JobMaker, res spec.Resolved, live bool) (tea.Msg, tea.Cmd) {
	j, why := mk(res)
	if why != "" {
		return Notice{Text: why, Err: true}, nil
	}
	j.Spec = res
	rs.cancelCurrent()
	rs.lastID++
	r := &Run{Job: j, ID: rs.lastID, Maker: mk, Live: live, Gate: engine.NewGate(), mb: engine.NewMailbox[engine.Progress](progressCapacity), done: make(chan struct{}), start: rs.now(), Traces: map[string]map[int]map[int64]float64{}, evals: map[[3]int]int64{}, finals: map[[3]int]float64{}}
	if backend.QueuesRuns(rs.runner) {
		// It holds no CPU slot until the queue says so.
		r.Queue = &engine.Queue{}
	}
	rs.cur = r
	rs.last[j.Family] = r
	ctx, cancel := context.WithCancel(rs.ctx)
	r.cancel, r.ctx = cancel, ctx
	runner, set, done, id := rs.runner, &engine.Settings{Progress: r.mb, Gate: r.Gate}, r.done, r.ID
	cmds := []tea.Cmd{nil, waitProgress(r), tick(id)}
	if j.Kind == backend.Compare && !backend.QueuesRuns(rs.runner) {
		// A long comparison waits, before its first trial, for the
		// user's word (dpso serve's pool refuses one by its own bound).
		r.plans, r.proceed = make(chan engine.Plan, 1), make(chan struct{})
		set.Plan = r.hold(ctx)
		cmds = append(cmds, waitHeld(r))
	}
	if j.Kind == backend.Tune {
		r.searched = make(chan *engine.TuneReport, 1)
		set.Searched, set.Coarse = r.handSearched, r.handSearched
		cmds = append(cmds, waitSearched(r))
	}
	work := func() (msg tea.Msg) {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				msg = ResultMsg{ID: id, Err: fmt.Errorf("internal error: %v (this is a bug)", p)}
			}
		}()
		res, err := runner.Run(ctx, j.Call, set)
		return ResultMsg{ID: id, Result: res, Err: err}
	}
	cmds[0] = work
	return Event{Run: r}, tea.Batch(cmds...)
}

// TogglePause pauses or resumes the current run: the gate stops the
// solvers at their next checkpoint and the display freezes; progress that
// arrives meanwhile is held and applied on resume.
func (rs *Lifecycle) TogglePause() (tea.Msg, tea.Cmd) {
	r := rs.cur
	if r == nil || !r.Active() {
		return Notice{Text: "nothing is running (r runs)"}, nil
	}
	if r.Kind == backend.Audit {
		return Notice{Text: "an audit cannot pause: it ends in seconds (r restarts it, another run cancels it)"}, nil
	}
	now := rs.now()
	if r.Phase == Running {
		r.Gate.Pause()
		r.Phase, r.pausedAt = Paused, now
		return Event{Run: r}, nil
	}
	r.Gate.Resume()
	r.Phase = Running
	r.paused += now.Sub(r.pausedAt)
	held := r.held
	r.held = nil
	rearm := true
	for _, h := range held {
		r.apply(h)
		if h.Done {
			rearm = false
		}
	}
	if r.heldSearched != nil {
		r.Searched, r.heldSearched = r.heldSearched, nil
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
	if r.Active() {
		cmds = append(cmds, tick(r.ID))
	}
	return Event{Run: r}, tea.Batch(cmds...)
}

// Update handles the messages of runs — progress, results and ticks —
// dropping those of a run that is not the current one, and returns the
// Event to forward (nil when nothing changed) and the command that
// keeps reading the run's progress.
func (rs *Lifecycle) Update(msg tea.Msg) (tea.Msg, tea.Cmd) {
	r := rs.cur
	switch msg := msg.(type) {
	case ProgressMsg:
		if r == nil || msg.ID != r.ID {
			return nil, nil // stale
		}
		switch r.Phase {
		case Running:
		case Paused:
			r.held = append(r.held, msg)
			return nil, nil
		case Cancelled:
			return nil, nil
		default:
			// The result overtook this batch: its traces are in the
			// result, but the panels (clipping, evaluations) still want it.
			r.apply(msg)
			return Event{Run: r}, nil
		}
		r.apply(msg)
		if msg.Done {
			return Event{Run: r}, nil
		}
		return Event{Run: r}, waitProgress(r)
	case SearchedMsg:
		if r == nil || msg.ID != r.ID || !r.Active() {
			return nil, nil
		}
		if r.Phase == Paused {
			r.heldSearched = msg.Report
			return nil, waitSearched(r)
		}
		r.Searched = msg.Report
		return Event{Run: r}, waitSearched(r)
	case ResultMsg:
		if r == nil || msg.ID != r.ID || !r.Active() {
			return nil, nil
		}
		if r.Phase == Paused {
			r.heldResult = &msg
			return nil, nil
		}
		rs.finish(r, msg)
		return Event{Run: r}, nil
	case HeldMsg:
		if r == nil || msg.ID != r.ID || !r.Active() {
			return nil, nil
		}
		r.Plan = &msg.Plan
		if Long(msg.Plan) {
			r.Held = &msg.Plan
		}
		return Event{Run: r}, nil
	case TickMsg:
		if r == nil || msg.id != r.ID || r.Phase != Running {
			return nil, nil
		}
		return nil, tick(r.ID)
	}
	return nil, nil
}

// finish ends r with its result: done, refused (the solver's sentence is
// the outcome, never "done"), or failed.
func (rs *Lifecycle) finish(r *Run, msg ResultMsg) {
	r.end = rs.now()
	// The run's goroutine has returned: whatever it Put and the waiter has
	// not delivered yet is in the mailbox (the result can overtake it).
	if vals, dropped := r.mb.Take(); len(vals) > 0 || dropped > 0 {
		r.apply(ProgressMsg{ID: r.ID, Batch: vals, Dropped: dropped})
	}
	r.Queue = nil // it waits for nothing any more
	if msg.Err != nil {
		var re *solvers.RefusedError
		var se *backend.StoppedError
		switch {
		case errors.As(msg.Err, &se):
			r.Phase, r.Stop = Stopped, se.Short
		case errors.As(msg.Err, &re):
			r.Phase, r.Refusal = Refused, re.Solver+" refuses: "+re.Reason
			r.RefusedBy, r.RefusedWhy = re.Solver, re.Reason
		case errors.Is(msg.Err, context.Canceled):
			r.Phase = Cancelled
		default:
			r.Phase = Failed
		}
		r.Err = msg.Err
		return
	}
	r.Result = msg.Result
	r.Phase = Done
	switch {
	case r.Result.Empty():
		r.Phase, r.Err = Failed, errors.New("the engine returned no result")
	case r.Tune != nil:
		// A solver that cannot be tuned (the non-private baseline, a
		// grid it refuses everywhere) computed nothing.
		for _, ts := range r.Tune.Solvers {
			if ts.Refused != "" {
				r.Phase, r.Refusal = Refused, ts.Solver+" refuses: "+ts.Refused
			}
		}
	case r.Comparison != nil:
		r.Total = 0
		refused := 0
		for _, rep := range r.Comparison.Reports {
			r.Total += len(rep.Trials)
			if rep.Refused != "" {
				refused++
			}
		}
		// A single run that refused, or a comparison where every solver
		// did, computed nothing.
		if n := len(r.Comparison.Reports); n > 0 && (refused == n || !r.Compare && r.Comparison.Reports[0].Refused != "") {
			r.Phase, r.Refusal = Refused, r.Comparison.Reports[0].Solver+" refuses: "+r.Comparison.Reports[0].Refused
		}
	case r.Sweep != nil:
		if why := sweepRefusal(r.Sweep, r.Over); why != "" {
			r.Phase, r.Refusal = Refused, why
		}
	}
	r.TrialsDone = r.Total
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
func (r *Run) apply(msg ProgressMsg) {
	r.Drained = r.Drained || msg.Done
	r.Dropped += msg.Dropped
	main := r.Names[0]
	adaptive := r.Adaptive()
	for _, p := range msg.Batch {
		if p.Queue != nil {
			r.Queue = nil
			if p.Queue.Position == 0 {
				r.Queued += p.Queue.Waited
			}
			if p.Queue.Position > 0 {
				q := *p.Queue
				r.Queue = &q
			}
			continue
		}
		if r.Queue != nil && r.Queue.Position == 0 {
			// The engine reports: the run holds its slots.
			r.Queue = nil
		}
		key := [3]int{slices.Index(r.Names, p.Solver), p.Trial, p.Point}
		if p.Pulse {
			// From inside an iteration: the evaluations move (the status
			// bar's rate); the traces, the clip trail and the latest
			// iterate's panels wait for a checkpoint.
			r.evals[key] = max(r.evals[key], p.GradEvals)
			continue
		}
		r.evals[key] = p.GradEvals
		if p.Oracle {
			if r.oracleRuns == nil {
				r.oracleRuns = map[[2]int]int{}
			}
			k := [2]int{key[0], p.Trial}
			r.oracleRuns[k] = max(r.oracleRuns[k], p.Iter)
		}
		if adaptive {
			r.recordClip(p)
		}
		if p.Total > 0 {
			r.Total = p.Total
		}
		if p.Done {
			r.TrialsDone = max(r.TrialsDone, p.TrialsDone)
			if p.Solver == main || r.Final.Solver != main {
				r.Final, r.HaveFinal = p, true
			}
			if r.Sweeps() || p.Searched {
				r.finals[[3]int{slices.Index(r.Names, p.Solver), p.Trial, p.Point}] = p.Excess
			}
			if r.Kind == backend.Compare {
				if r.finished == nil {
					r.finished = map[[2]int]bool{}
				}
				r.finished[[2]int{key[0], p.Trial}] = true
			}
		}
		if r.Kind == backend.Compare {
			bySolver := r.Traces[p.Solver]
			if bySolver == nil {
				bySolver = map[int]map[int64]float64{}
				r.Traces[p.Solver] = bySolver
			}
			tr := bySolver[p.Trial]
			if tr == nil {
				tr = map[int64]float64{}
				bySolver[p.Trial] = tr
			}
			tr[p.GradEvals] = p.Excess
		}
		if p.Solver != main && r.HaveLatest {
			continue
		}
		r.Latest, r.HaveLatest = p, true
		if !p.Done {
			r.Iter = [2]int{p.Iter, p.Iters}
		}
		b := p.Batch
		if b.Size == 0 || (b.Size < minHistBatch && r.HaveHist && r.Hist.Size >= minHistBatch) {
			continue
		}
		r.Hist, r.HaveHist, r.HistPhase = b, true, p.Phase
		r.HistWho = fmt.Sprintf("%s · trial %d", p.Solver, p.Trial)
		r.HistAt = ""
		if grid := r.SweepSpec.Grid(); r.Kind == backend.Sweep && p.Point < len(grid) {
			// A sweep's batches are of one of its points: say which.
			r.HistAt, r.HistAtValue = ParamSymbol(r.SweepSpec.Param), grid[p.Point]
		}
	}
}

// waitProgress is the command that reads the run's mailbox: it waits for
// a value (or the run's end), gives the producers one frame to batch up,
// Takes everything pending and returns it tagged with the run id. The lifecycle
// re-arms it until the run ends; it never blocks the producers.
func waitProgress(r *Run) tea.Cmd {
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
		return ProgressMsg{ID: r.ID, Batch: vals, Dropped: dropped, Done: finished}
	}
}

func tick(id int) tea.Cmd {
	return tea.Tick(250*time.Millisecond, func(time.Time) tea.Msg { return TickMsg{id: id} })
}

// PartialMeans are a running sweep's points so far for solver si: at each
// point of its grid (SweepSpec.Grid) with a finished trial, the mean
// final excess risk over its finished trials and how many there are (0:
// none yet); PartialMeansOn for a grid the run does not carry.
func (r *Run) PartialMeans(si int) (xs, means []float64, counts []int) {
	return r.PartialMeansOn(si, r.SweepSpec.Grid())
}
