package runs

import (
	"context"
	"testing"
	"time"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/backend"
)

// TestPartialSweepPoints: a running sweep's points are the means of the
// trials finished so far, in trial order.
func TestPartialSweepPoints(t *testing.T) {
	r := &Run{Job: Job{Call: backend.Call{Kind: backend.Sweep, Names: []string{"acsa"}, SweepSpec: engine.SweepSpec{Param: spec.SweepN, From: 100, To: 400, Points: 3}, Spec: spec.Resolved{Spec: spec.Spec{Trials: 3}}}}, finals: map[[3]int]float64{{0, 0, 0}: 1, {0, 2, 0}: 3, {0, 1, 2}: 5}}
	xs, ms, ns := r.PartialMeans(0)
	if len(xs) != 3 || ms[0] != 2 || ns[0] != 2 || ns[1] != 0 || ms[2] != 5 || ns[2] != 1 {
		t.Errorf("partialMeans: %v %v %v", xs, ms, ns)
	}
}

// TestOracleRunsCounted: a search's oracle-tuned reference counts, over
// every trial, the highest grid point each trial reported — a batch lost
// from the mailbox or delivered twice counts once — and nothing of the
// search's candidates or the prescribed runs.
func TestOracleRunsCounted(t *testing.T) {
	r := &Run{Job: Job{Call: backend.Call{Kind: backend.Tune, Names: []string{"acsa"}}}, evals: map[[3]int]int64{}}
	r.apply(ProgressMsg{Batch: []engine.Progress{
		{Solver: "acsa", Trial: 0, Iter: 3, Iters: 10, Phase: 1}, // a candidate
		{Solver: "acsa", Trial: 1, Iter: 2, Iters: 20, Phase: 2}, // the prescribed run's second phase
		{Solver: "acsa", Trial: 0, Iter: 1, Iters: 72, Phase: 2, Oracle: true},
		{Solver: "acsa", Trial: 0, Iter: 4, Iters: 72, Phase: 2, Oracle: true},
		{Solver: "acsa", Trial: 1, Iter: 2, Iters: 72, Phase: 2, Oracle: true},
	}})
	r.apply(ProgressMsg{Batch: []engine.Progress{{Solver: "acsa", Trial: 0, Iter: 4, Iters: 72, Phase: 2, Oracle: true}}})
	if got := r.OracleRuns(); got != 6 {
		t.Errorf("oracle runs %d, want 4 + 2", got)
	}
}

// queuedRunner is a backend.Queued runner that never runs: the tests
// read only what Start makes of it.
type queuedRunner struct{ backend.Local }

func (queuedRunner) QueuesRuns() bool { return true }

// TestRunWaitsUntilTheQueueSaysItHoldsSlots: a run started on a runner
// that queues is waiting (asking, Position 0) from Start; the queue's
// reports move it (a place k > 0 is shown as such, Position 0 is the
// slots held) and the engine's first progress means its slots are held;
// a late progress from before a pause does not undo a place reported
// since; the waits the queue reports as it serves the run add up
// (Queued, which the rate on the status bar leaves out). On a runner that queues nothing it is not waiting at Start.
func TestRunWaitsUntilTheQueueSaysItHoldsSlots(t *testing.T) {
	job := func(spec.Resolved) (Job, string) {
		return Job{Call: backend.Call{Kind: backend.Compare, Names: []string{"acsa"}}}, ""
	}
	queue := func(k int) engine.Progress { return engine.Progress{Queue: &engine.Queue{Position: k}} }
	engineP := engine.Progress{Solver: "acsa", Iters: 10}
	served := func(waited time.Duration) engine.Progress {
		return engine.Progress{Queue: &engine.Queue{Waited: waited}}
	}
	cases := []struct {
		name    string
		batch   []engine.Progress
		waiting bool
		pos     int
		queued  time.Duration
	}{
		{"asked, nothing heard", nil, true, 0, 0},
		{"placed second", []engine.Progress{queue(2)}, true, 2, 0},
		{"placed, then served", []engine.Progress{queue(2), queue(1), served(3 * time.Second)}, false, 0, 3 * time.Second},
		{"served at once", []engine.Progress{queue(0)}, false, 0, 0},
		{"the engine reports first", []engine.Progress{engineP}, false, 0, 0},
		{"a late progress behind a place", []engine.Progress{queue(0), queue(1), {Solver: "acsa", Pulse: true, GradEvals: 5}}, true, 1, 0},
		{"served, paused, served again", []engine.Progress{served(2 * time.Second), queue(1), served(4 * time.Second)}, false, 0, 6 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rs := NewLifecycle(ctx, queuedRunner{}, time.Now)
			if _, cmd := rs.Start(job, spec.Resolved{}, false); cmd == nil {
				t.Fatal("no run started")
			}
			r := rs.Current()
			r.apply(ProgressMsg{ID: r.ID, Batch: c.batch})
			if r.Waiting() != c.waiting || (c.waiting && r.Queue.Position != c.pos) {
				t.Errorf("waiting %v, queue %+v; want waiting %v at %d", r.Waiting(), r.Queue, c.waiting, c.pos)
			}
			if r.Queued != c.queued {
				t.Errorf("queued %v in all, want %v (the waits the queue reported as it served the run)", r.Queued, c.queued)
			}
		})
	}
	rs := NewLifecycle(context.Background(), backend.Local{}, time.Now)
	rs.Start(job, spec.Resolved{}, false)
	if rs.Current().Waiting() {
		t.Error("a run on a runner that queues nothing is waiting at Start")
	}
	rs.Cancel()
}
