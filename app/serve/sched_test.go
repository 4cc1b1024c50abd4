package serve

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/tui/backend"
)

// gateRunner is a tui.Runner whose runs behave as the engine's do at
// their checkpoints: each waits at its settings' gate (a paused run
// blocks there), announces itself on started once it runs, and ends when
// released (as cancelled: no test reads a result) or cancelled. planned, if set, is the work its Compare plans
// (Settings.Plan) before it runs.
type gateRunner struct {
	mu      sync.Mutex
	release map[int]chan struct{} // by the Spec's n: the test releases one run
	started chan int              // the n of each run as it starts
	planned float64
}

func newGateRunner() *gateRunner {
	return &gateRunner{release: map[int]chan struct{}{}, started: make(chan int, 64)}
}

func (g *gateRunner) releaseOf(n int) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.release[n]
	if c == nil {
		c = make(chan struct{})
		g.release[n] = c
	}
	return c
}

func (g *gateRunner) run(ctx context.Context, r spec.Resolved, set *engine.Settings) error {
	if g.planned > 0 && set != nil && set.Plan != nil {
		set.Plan(engine.Plan{Jobs: 1, Workers: 1, Work: g.planned})
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	g.started <- r.Spec.N
	rel := g.releaseOf(r.Spec.N)
	for {
		if set != nil && set.Gate != nil {
			if err := set.Gate.Wait(ctx); err != nil {
				return err
			}
		}
		select {
		case <-rel:
			return context.Canceled // the tests never look at a run's result
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond): // the next checkpoint
		}
	}
}

func (g *gateRunner) Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error) {
	return engine.Prescribe(ctx, r)
}

func (g *gateRunner) Run(ctx context.Context, c backend.Call, set *engine.Settings) (backend.Result, error) {
	if c.Kind == backend.Audit {
		return backend.Result{}, g.run(ctx, spec.Resolved{}, nil)
	}
	return backend.Result{}, g.run(ctx, c.Spec, set)
}

// compareAt is a comparison with n samples: n tells the tests' runs
// apart.
func compareAt(t *testing.T, n int) backend.Call {
	return backend.Call{Kind: backend.Compare, Spec: mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, N: n, Trials: 1})}
}

// queueWatch is a run's settings whose mailbox the test reads for the
// queue's reports.
type queueWatch struct {
	set *engine.Settings
}

func newQueueWatch() *queueWatch {
	return &queueWatch{set: &engine.Settings{Progress: engine.NewMailbox[engine.Progress](1 << 10), Gate: engine.NewGate()}}
}

// until waits for a queue report for which ok holds, and returns it.
func (q *queueWatch) until(t *testing.T, ok func(engine.Queue) bool) engine.Queue {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case <-q.set.Progress.Ready():
			vals, _ := q.set.Progress.Take()
			for _, p := range vals {
				if p.Queue != nil && ok(*p.Queue) {
					return *p.Queue
				}
			}
		case <-deadline:
			t.Fatal("no such queue report")
		}
	}
}

// waitUntil polls cond until it holds (what, when it never does).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func at(k int) func(engine.Queue) bool { return func(q engine.Queue) bool { return q.Position == k } }

// TestQueueServesSessionsInTurn: with one slot held, a session that
// queues three runs and one that queues one after them are served in turn
// — the second session's run second, not fourth — and each waiting run is
// told its position as it moves.
func TestQueueServesSessionsInTurn(t *testing.T) {
	g := newGateRunner()
	pool := NewPool(g, 1, 1, Caps{})
	holder, a, b := pool.Seat(), pool.Seat(), pool.Seat()
	ctx := context.Background()
	go holder.Run(ctx, compareAt(t, 1000), nil)
	<-g.started
	watch := map[int]*queueWatch{}
	start := func(s *Seat, n int) {
		w := newQueueWatch()
		watch[n] = w
		go s.Run(ctx, compareAt(t, n), w.set)
	}
	start(a, 2001)
	watch[2001].until(t, at(1))
	start(a, 2002)
	watch[2002].until(t, at(2))
	start(a, 2003)
	watch[2003].until(t, at(3))
	start(b, 3001)
	// The ring serves a, then b, then a again: b's run is second.
	watch[3001].until(t, at(2))
	watch[2002].until(t, at(3))
	watch[2003].until(t, at(4))
	order := []int{2001, 3001, 2002, 2003}
	close(g.releaseOf(1000))
	for _, want := range order {
		if got := <-g.started; got != want {
			t.Fatalf("the run of n = %d ran next, want %d (served in turn by session)", got, want)
		}
		close(g.releaseOf(want))
	}
}

// TestPausedRunGivesItsSlotBack: two runs that hold both slots and are
// paused give them back at once — another session's run starts while
// they are paused — and on resuming they queue for a slot again, told
// their place, and run to their end.
func TestPausedRunGivesItsSlotBack(t *testing.T) {
	g := newGateRunner()
	pool := NewPool(g, 2, 1, Caps{})
	ctx := context.Background()
	w1, w2 := newQueueWatch(), newQueueWatch()
	done := make(chan error, 2)
	go func() { _, err := pool.Seat().Run(ctx, compareAt(t, 1001), w1.set); done <- err }()
	go func() { _, err := pool.Seat().Run(ctx, compareAt(t, 1002), w2.set); done <- err }()
	<-g.started
	<-g.started
	w1.set.Gate.Pause()
	w2.set.Gate.Pause()
	waitUntil(t, "the paused runs give both slots back", func() bool { return pool.sched.freeSlots() == 2 })
	other := make(chan error, 1)
	go func() { _, err := pool.Seat().Run(ctx, compareAt(t, 3000), nil); other <- err }()
	if n := <-g.started; n != 3000 {
		t.Fatalf("run %d started, want the other session's", n)
	}
	w1.set.Gate.Resume() // one slot is free: it gets it
	waitUntil(t, "the resumed run holds the free slot", func() bool { return pool.sched.freeSlots() == 0 })
	w2.set.Gate.Resume() // none is: it waits, first in line
	w2.until(t, at(1))
	close(g.releaseOf(3000))
	if err := <-other; !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	w2.until(t, at(0)) // it got the slot back
	close(g.releaseOf(1001))
	close(g.releaseOf(1002))
	for range 2 {
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("a resumed run ended with %v, want its release", err)
		}
	}
	if free := pool.sched.freeSlots(); free != 2 {
		t.Fatalf("%d slots free at the end, want 2", free)
	}
}

// TestPauseLimitCancels: a run paused past Caps.Pause is cancelled, with
// the server's refusal saying why, and its slot is free.
func TestPauseLimitCancels(t *testing.T) {
	g := newGateRunner()
	pool := NewPool(g, 1, 1, Caps{Pause: 50 * time.Millisecond})
	w := newQueueWatch()
	done := make(chan error, 1)
	go func() { _, err := pool.Seat().Run(context.Background(), compareAt(t, 1000), w.set); done <- err }()
	<-g.started
	w.set.Gate.Pause()
	err := <-done
	var se *backend.StoppedError
	if !errors.As(err, &se) || !strings.Contains(se.Reason, "stayed paused for 0.05 s") || !strings.Contains(se.Reason, "--max-pause") || se.Short != "stopped after 0.05 s paused" {
		t.Fatalf("a run paused past the limit ended with %v, want the server's stop naming --max-pause", err)
	}
	if free := pool.sched.freeSlots(); free != 1 {
		t.Fatalf("%d slots free, want 1", free)
	}
}

// TestRunTimeBound: a run that holds its slots past Caps.RunTime is
// stopped — the run as a whole, a backend.StoppedError, never a solver's
// refusal — and one whose planned work passes it at planPace is refused
// before it runs, as the server's refusal.
func TestRunTimeBound(t *testing.T) {
	g := newGateRunner()
	pool := NewPool(g, 1, 1, Caps{RunTime: 100 * time.Millisecond})
	_, err := pool.Seat().Run(context.Background(), compareAt(t, 1000), nil)
	var se *backend.StoppedError
	var re *solvers.RefusedError
	if !errors.As(err, &se) || errors.As(err, &re) || !strings.Contains(se.Reason, "held its CPU slots for 0.1 s") || se.Short != "stopped after 0.1 s on its CPU slots" {
		t.Fatalf("a run past the bound ended with %v, want the server's stop", err)
	}
	<-g.started
	g.planned = 1e12 // 4000 s at planPace
	_, err = pool.Seat().Run(context.Background(), compareAt(t, 1001), nil)
	if !errors.As(err, &re) || !strings.Contains(re.Reason, "planned work, 10¹² floats") || !strings.Contains(re.Reason, "--max-run-time") {
		t.Fatalf("a run planned past the bound ended with %v, want the server's refusal", err)
	}
	select {
	case n := <-g.started:
		t.Fatalf("the run of n = %d started though its plan passed the bound", n)
	default:
	}
}

// TestSweepGridHeldToTheCaps: a sweep of d or n whose grid passes a cap is
// refused before it runs, naming the cap and the grid's point.
func TestSweepGridHeldToTheCaps(t *testing.T) {
	caps := Caps{N: 5000, D: 50}
	r := mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, N: 400, D: 20})
	for _, c := range []struct {
		sw   engine.SweepSpec
		says string
	}{
		{engine.SweepSpec{Param: spec.SweepD, From: 5, To: 200, Points: 5}, "caps d at 50 per session (dpso serve --max-d); 200 is above it"},
		{engine.SweepSpec{Param: spec.SweepN, From: 400, To: 6400, Points: 5}, "caps n at 5000 per session (dpso serve --max-n); 6400 is above it"},
	} {
		_, err := NewPool(newBlockRunner(), 1, 1, caps).Seat().Run(context.Background(), backend.Call{Kind: backend.Sweep, Spec: r, SweepSpec: c.sw}, nil)
		var re *solvers.RefusedError
		if !errors.As(err, &re) || !strings.Contains(re.Reason, c.says) {
			t.Errorf("sweep of %s to %g: %v, want the refusal %q", c.sw.Param, c.sw.To, err, c.says)
		}
	}
}

// freeSlots is the slots no call holds.
func (s *sched) freeSlots() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.free
}

// markRunner Puts one progress of the engine's (Solver "engine") as its
// call starts, then waits for release or its context.
type markRunner struct {
	started chan struct{}
	release chan struct{}
}

func (m *markRunner) Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error) {
	return engine.Prescribe(ctx, r)
}

func (m *markRunner) Run(ctx context.Context, c backend.Call, set *engine.Settings) (backend.Result, error) {
	if set != nil && set.Progress != nil {
		set.Progress.Put(engine.Progress{Solver: "engine"})
	}
	m.started <- struct{}{}
	select {
	case <-m.release:
	case <-ctx.Done():
	}
	return backend.Result{}, context.Canceled
}

// reportsUntilEngine reads w's mailbox until the engine's first progress
// and returns the queue's reports before it.
func (q *queueWatch) reportsUntilEngine(t *testing.T) []engine.Queue {
	t.Helper()
	var got []engine.Queue
	deadline := time.After(waitLimit)
	for {
		select {
		case <-q.set.Progress.Ready():
			vals, _ := q.set.Progress.Take()
			for _, p := range vals {
				if p.Queue == nil {
					return got
				}
				got = append(got, *p.Queue)
			}
		case <-deadline:
			t.Fatalf("the engine never reported; the queue's reports: %+v", got)
		}
	}
}

// TestGrantIsReportedBeforeTheEngine: the pool is a backend.Queued
// runner: every call's mailbox hears from the queue that it holds its
// slots (Position 0) before any progress of the engine — a call served at
// once as well as one that waited (its place first), and an audit, whose
// mailbox hears nothing else — so that the explorer shows a run waiting
// until then and never running before it holds a slot.
func TestGrantIsReportedBeforeTheEngine(t *testing.T) {
	mr := &markRunner{started: make(chan struct{}, 4), release: make(chan struct{})}
	pool := NewPool(mr, 1, 1, Caps{})
	if !backend.QueuesRuns(pool.Seat()) {
		t.Fatal("a seat does not say that its calls queue")
	}
	ctx := context.Background()
	first, second := newQueueWatch(), newQueueWatch()
	go pool.Seat().Run(ctx, compareAt(t, 1000), first.set)
	if got := first.reportsUntilEngine(t); len(got) != 1 || got[0].Position != 0 {
		t.Errorf("a call served at once: the queue's reports %+v before the engine's, want one, Position 0", got)
	}
	<-mr.started
	go pool.Seat().Run(ctx, compareAt(t, 1001), second.set)
	second.until(t, at(1))
	close(mr.release)
	if got := second.reportsUntilEngine(t); len(got) == 0 || got[len(got)-1].Position != 0 {
		t.Errorf("a call that waited: the queue's reports %+v before the engine's, want its grant last", got)
	}
	<-mr.started

	audit := newQueueWatch()
	go pool.Seat().Run(ctx, backend.Call{Kind: backend.Audit}, audit.set)
	audit.until(t, at(0))
	<-mr.started
}

// TestGrantReportsTheWholeWait: a request that waited is told, as it gets
// its slots, how long it waited in all (on the scheduler's clock), and one
// served at once that it waited none.
func TestGrantReportsTheWholeWait(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	s := newSched(1, clock)
	reports := make(chan engine.Queue, 16)
	report := func(q engine.Queue) { reports <- q }
	release, err := s.acquire(context.Background(), &queue{}, 1, false, report)
	if err != nil {
		t.Fatal(err)
	}
	if q := <-reports; q.Position != 0 || q.Waited != 0 {
		t.Fatalf("served at once: %+v, want Position 0 after no wait", q)
	}
	granted := make(chan func(), 1)
	go func() {
		r, err := s.acquire(context.Background(), &queue{}, 1, false, report)
		if err != nil {
			t.Error(err)
		}
		granted <- r
	}()
	if q := <-reports; q.Position != 1 {
		t.Fatalf("the second request's place %+v, want 1", q)
	}
	mu.Lock()
	now = now.Add(5 * time.Second)
	mu.Unlock()
	release()
	for q := range reports {
		if q.Position == 0 {
			if q.Waited != 5*time.Second {
				t.Errorf("the grant after a wait of 5 s reports %v", q.Waited)
			}
			break
		}
	}
	(<-granted)()
}

// fitRunner is a gateRunner that answers engine.FitN's question with n
// at work floats on one worker, and records the work it was asked to fit.
type fitRunner struct {
	*gateRunner
	n     int
	work  float64
	asked float64
}

func (f *fitRunner) FitN(ctx context.Context, c backend.Call, maxWork float64) (int, engine.Plan, error) {
	f.asked = maxWork
	return f.n, engine.Plan{Jobs: 1, Workers: 1, Work: f.work}, nil
}

// TestPlanRefusalNamesTheFittingN: a comparison whose plan passes the
// run-time bound at planPace (10¹² floats, 4000 s, against 1 min) is
// refused naming the smaller n the inner runner's FitN gives for the work
// the bound allows (1.5·10¹⁰ floats at 4 ns on one worker), or saying
// that none fits.
func TestPlanRefusalNamesTheFittingN(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{
		{7000, "(n = 7000 fits: about 20 s at this server's pace, an estimate)"},
		{0, "(no smaller n fits: lower d or the trials)"},
	} {
		f := &fitRunner{gateRunner: newGateRunner(), n: c.n, work: 5e9}
		f.planned = 1e12
		pool := NewPool(f, 1, 1, Caps{RunTime: time.Minute})
		_, err := pool.Seat().Run(context.Background(), compareAt(t, 100000), nil)
		var re *solvers.RefusedError
		if !errors.As(err, &re) || !strings.Contains(re.Reason, "planned work, 10¹² floats") || !strings.HasSuffix(re.Reason, c.want) {
			t.Errorf("FitN %d: the refusal is %v, want the plan's ending in %q", c.n, err, c.want)
		}
		if f.asked != 1.5e10 {
			t.Errorf("FitN asked for %v floats, want 1.5·10¹⁰ (1 min at 4 ns on one worker)", f.asked)
		}
	}
}
