package engine

import (
	"context"
	"sync"
	"testing"
	"time"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/oracle"
)

// meeting is where the test-meet solvers wait for each other: each Run
// arrives, then waits until want runs have arrived (or ctx ends).
var meeting struct {
	sync.Mutex
	want, here int
	all        chan struct{}
}

// meet is a solver whose Run ends only once every test-meet run of the
// test has started: it proves that they run at once.
type meet struct{ name string }

func (m *meet) Name() string     { return m.name }
func (m *meet) Describe() string { return "test solver that waits for the other test-meet runs" }
func (m *meet) Prescribe(solvers.Problem, int, solvers.Config) (solvers.Params, error) {
	return solvers.Params{Iters: 1, Prescribed: true, GradEvals: 1}, nil
}
func (m *meet) Run(ctx context.Context, p solvers.Problem, _ solvers.Samples, cfg solvers.Config) (solvers.Result, error) {
	meeting.Lock()
	meeting.here++
	if meeting.here == meeting.want {
		close(meeting.all)
	}
	all := meeting.all
	meeting.Unlock()
	select {
	case <-all:
	case <-ctx.Done():
		return solvers.Result{}, ctx.Err()
	}
	w := make([]float64, p.Dim())
	return solvers.Result{Solver: m.name, W: w, GradEvals: 1, Params: solvers.Params{Iters: 1, Prescribed: true}, Budget: cfg.Budget(oracle.ZCDP)}, nil
}

func init() {
	for _, name := range []string{"test-meet-a", "test-meet-b", "test-meet-c"} {
		solvers.Register(solvers.Descriptor{Solver: &meet{name: name}, Legend: "a test solver", Certificate: solvers.CertNone, Settings: solvers.NoSettings, DefaultOracle: "clip-gaussian"})
	}
}

// TestSolversOfOneTrialRunAtOnce: a comparison's work is scheduled by
// (solver, trial), so the solvers of a single trial run on as many cores
// as there are workers: each test-meet run waits until all have started,
// and ends only if they run at once (one trial of three on three workers;
// with fewer workers than runs it could never end, and the test fails
// 30 s before the binary's deadline).
func TestSolversOfOneTrialRunAtOnce(t *testing.T) {
	ctx := context.Background()
	if dl, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-30*time.Second))
		defer cancel()
	}
	meeting.Lock()
	meeting.want, meeting.here, meeting.all = 3, 0, make(chan struct{})
	meeting.Unlock()
	r := resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 100, Trials: 1, Workers: 3})
	cmp, err := Compare(ctx, r, []string{"test-meet-a", "test-meet-b", "test-meet-c"}, nil)
	if err != nil {
		t.Fatalf("the three solvers of one trial did not run at once on three workers: %v", err)
	}
	if len(cmp.Reports) != 3 || cmp.Reports[2].Trials[0].GradEvals != 1 {
		t.Errorf("reports %+v", cmp.Reports)
	}
}

// The queue hands out, in order: the first task whose job's draw is
// ready; else the first task of a job not yet opened while fewer than
// holds jobs are open; else the first task left (whose job is being
// drawn, or waits for a holding slot). The tasks taken once nothing is
// left to take are the tail.
func TestQueueTakesReadyTasksFirst(t *testing.T) {
	a, b, c := &trialState{}, &trialState{}, &trialState{}
	q := &queue{tasks: []task{{a, 0}, {a, 1}, {b, 0}, {b, 1}, {c, 0}}, taken: make([]bool, 5), holds: 2}
	take := func(wantSt *trialState, wantSi int, wantTail bool) {
		t.Helper()
		got, tail, ok := q.take()
		if !ok || got.st != wantSt || got.si != wantSi || tail != wantTail {
			t.Fatalf("took (job %p, solver %d, tail %v, ok %v), want (job %p, solver %d, tail %v)", got.st, got.si, tail, ok, wantSt, wantSi, wantTail)
		}
	}
	take(a, 0, false) // opens a
	take(b, 0, false) // a is being drawn: opens b, the second slot
	take(a, 1, false) // none ready, no slot left: the first left, waiting for a's draw
	b.ready.Store(true)
	take(b, 1, false) // ready
	take(c, 0, true)  // the last: it waits for a slot
	if _, _, ok := q.take(); ok {
		t.Fatal("a task after the last")
	}
	if q.opened != 3 {
		t.Errorf("opened = %d, want 3", q.opened)
	}
	q.freed()
	if q.opened != 2 {
		t.Errorf("opened after a job's end = %d, want 2", q.opened)
	}
}
