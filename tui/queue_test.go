package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/components/form"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// queuedRunner is the fake runner behind a shared CPU queue
// (backend.Queued), as dpso serve's pool is: each call tells asked that it
// has been made, then Puts every place the test sends on reports into the
// call's mailbox, and runs the fake's call once the test closes granted.
type queuedRunner struct {
	*fakeRunner
	asked   chan struct{}
	reports chan engine.Queue
	granted chan struct{}
}

func (q *queuedRunner) QueuesRuns() bool { return true }

func (q *queuedRunner) Run(ctx context.Context, c backend.Call, set *engine.Settings) (backend.Result, error) {
	q.asked <- struct{}{}
	for {
		select {
		case p := <-q.reports:
			set.Progress.Put(engine.Progress{Queue: &p})
		case <-q.granted:
			set.Progress.Put(engine.Progress{Queue: &engine.Queue{}})
			return q.fakeRunner.Run(ctx, c, set)
		case <-ctx.Done():
			return backend.Result{}, ctx.Err()
		}
	}
}

// TestQueuedRunIsNeverShownRunning: behind a shared CPU queue, a run is
// shown asking for a CPU slot from the key that starts it until the
// queue answers, then queued at the place the queue reports, with the
// wait, and running only once the queue says it holds its slots — never
// "● running" before; the chart's note says what it waits for. Without a
// queue the same key shows it running at once.
func TestQueuedRunIsNeverShownRunning(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {132, 42}} {
		t.Run(itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) { queuedRunAt(t, size[0], size[1]) })
	}
	hold := make(chan struct{})
	local := newTestModel(t, &fakeRunner{points: 3, hold: hold}, nil, 80, 24)
	keyUntil(t, local, "r", func() bool { return local.run() != nil })
	if s := statusLine(local); !strings.HasPrefix(s, "● running") {
		t.Errorf("without a queue, as r starts the run: status %q, want running", s)
	}
	close(hold)
	pump(t, local, nil, func() bool { return settled(local) })
}

// queuedRunAt is TestQueuedRunIsNeverShownRunning on the first preset (r
// compares two solvers: the longest state) at w×h: the wait is on the
// status bar at 80 columns too.
func queuedRunAt(t *testing.T, w, h int) {
	qr := &queuedRunner{fakeRunner: &fakeRunner{points: 3}, asked: make(chan struct{}, 1), reports: make(chan engine.Queue), granted: make(chan struct{})}
	opts := testOpts(t, qr.fakeRunner, 100*time.Millisecond)
	opts.Runner = qr
	m := newTestModelOpts(t, opts, nil, w, h)
	notRunning := func(when string) {
		t.Helper()
		if s := statusLine(m); strings.Contains(s, "● running") || strings.Contains(screenText(m), "running:") {
			t.Fatalf("%s: the run is shown running before it holds a CPU slot:\n%s", when, screenText(m))
		}
	}
	keyUntil(t, m, "r", func() bool { return m.run() != nil })
	if s := statusLine(m); !strings.HasPrefix(s, "◌ asking for a CPU slot for ") {
		t.Errorf("as r starts the run: status %q, want it asking for a CPU slot", s)
	}
	notRunning("as r starts the run")
	pump(t, m, nil, func() bool {
		select {
		case <-qr.asked:
			return true
		default:
			return false
		}
	})
	notRunning("while the queue is asked")
	if !strings.Contains(screenText(m), "waiting for a CPU slot; then each trial draws") {
		t.Errorf("the chart's note does not say the run waits for a CPU slot:\n%s", screenText(m))
	}
	qr.reports <- engine.Queue{Position: 2, Waited: 3 * time.Second}
	pump(t, m, nil, func() bool { return strings.Contains(statusLine(m), "◌ queued (position 2)") })
	if s := statusLine(m); !strings.Contains(s, "waiting 3") {
		t.Errorf("queued: status %q, want the wait", s)
	}
	if s := statusLine(m); w >= 132 && !strings.Contains(s, "waiting 3.0 s for a CPU slot") {
		t.Errorf("queued at %d columns: status %q, want the wait for a CPU slot", w, s)
	}
	notRunning("queued at position 2")
	qr.reports <- engine.Queue{Position: 1, Waited: 4 * time.Second}
	pump(t, m, nil, func() bool { return strings.Contains(statusLine(m), "◌ queued (position 1)") })
	notRunning("queued at position 1")
	close(qr.granted)
	pump(t, m, nil, func() bool { return settled(m) || strings.HasPrefix(statusLine(m), "● running") })
	pump(t, m, nil, func() bool { return settled(m) && m.run().Phase == runs.Done })
	if m.run().Waiting() {
		t.Error("a finished run is still waiting for a slot")
	}
}

// TestQueuedSweepSaysItWaits: behind a shared CPU queue, the clipping
// screen's line says its sweep waits for a CPU slot before it sweeps, and
// only that it sweeps once the queue says it holds its slots.
func TestQueuedSweepSaysItWaits(t *testing.T) {
	qr := &queuedRunner{fakeRunner: &fakeRunner{points: 3}, asked: make(chan struct{}, 1), reports: make(chan engine.Queue), granted: make(chan struct{})}
	opts := testOpts(t, qr.fakeRunner, 100*time.Millisecond)
	opts.Runner = qr
	m := newTestModelOpts(t, opts, &example1, 132, 42)
	keyUntil(t, m, "x", func() bool {
		select {
		case <-qr.asked:
			return true
		default:
			return false
		}
	})
	if !strings.Contains(screenText(m), "waiting for a CPU slot, then sweeping C over") {
		t.Errorf("the clipping screen while its sweep waits:\n%s", screenText(m))
	}
	close(qr.granted)
	pump(t, m, nil, func() bool { return doneOf(m, screens.ClipKind) })
	if strings.Contains(screenText(m), "waiting for a CPU slot") {
		t.Errorf("the clipping screen after its sweep still says it waits:\n%s", screenText(m))
	}
}

// queuedPrescriber is the fake runner whose prescriptions wait behind a
// shared CPU queue (backend.QueuedPrescriber), as dpso serve's pool's
// do: while wait is open, a prescription reports the place place and
// waits for wait to close; otherwise it holds its slot at once.
type queuedPrescriber struct {
	*fakeRunner
	wait  chan struct{}
	place engine.Queue
}

func (q *queuedPrescriber) PrescribeQueued(ctx context.Context, r spec.Resolved, report func(engine.Queue)) (*engine.Prescription, error) {
	if q.wait != nil {
		report(q.place)
		select {
		case <-q.wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	report(engine.Queue{})
	return q.fakeRunner.Prescribe(ctx, r)
}

// TestQueuedPrescriptionSaysItWaits: behind a shared CPU queue, a
// prescription waiting for a slot says so where it is awaited — the
// theorem panel and the chart say "◌ queued (position 2)" and the wait,
// the words the status bar gives a queued run, never "computing" — and
// once it holds its slot the prescription is shown.
func TestQueuedPrescriptionSaysItWaits(t *testing.T) {
	qp := &queuedPrescriber{fakeRunner: &fakeRunner{points: 3}}
	opts := testOpts(t, qp.fakeRunner, 100*time.Millisecond)
	opts.Runner = qp
	m := newTestModelOpts(t, opts, &example1, 132, 42)
	qp.wait, qp.place = make(chan struct{}), engine.Queue{Position: 2, Waited: 3 * time.Second}
	m.form.SetFocus(form.N)
	_, cmd := m.Update(press("right"))
	pump(t, m, cmd, func() bool { return strings.Contains(screenText(m), "◌ queued (position 2)") })
	text := strings.Join(strings.Fields(screenText(m)), " ")
	for _, want := range []string{"◌ queued (position 2) for a CPU slot, waiting 3.0 s: the constants", "◌ queued (position 2) for a CPU slot, waiting 3.0 s: the prescription"} {
		if !strings.Contains(text, want) {
			t.Errorf("the screen does not say %q:\n%s", want, screenText(m))
		}
	}
	if strings.Contains(text, "computing the") {
		t.Errorf("a prescription waiting for a slot is said to be computed:\n%s", screenText(m))
	}
	close(qp.wait)
	pump(t, m, nil, func() bool { return prescReady(m) })
	if strings.Contains(screenText(m), "◌ queued") {
		t.Errorf("the prescription came, and the screen still says it is queued:\n%s", screenText(m))
	}
}
