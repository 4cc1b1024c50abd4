package serve

import (
	"context"
	"strings"
	"testing"
	"time"

	"dpso/internal/engine"
)

// TestQueuedRunShowsItsPlaceAndAPauseGivesTheSlotBack: on a server of one
// CPU slot, a run that waits behind another session's is shown queued, with
// its position and its wait, not as running; when the first student pauses,
// the slot is given back and the waiting run runs; when the first resumes,
// it is the one queued.
func TestQueuedRunShowsItsPlaceAndAPauseGivesTheSlotBack(t *testing.T) {
	run := newBlockRunner()
	ts := startServer(t, Config{Runner: run, CPUs: 1, SessionWorkers: 1})
	a := connect(t, ts.addr, newSigner(t))
	b := connect(t, ts.addr, newSigner(t))
	a.waitFor(ready)
	b.waitFor(ready)
	// A session's prescription takes a slot too, ahead of its run: b's
	// is computed before a's run holds the only slot.
	b.waitGone("computing")
	a.key("r")
	<-run.started
	a.waitFor("● running")
	b.key("r")
	b.waitFor("◌ queued (position 1)")
	b.waitFor("for a CPU slot")
	if strings.Contains(b.screen(), "● running") {
		t.Fatalf("the queued run is shown running:\n%s", b.screen())
	}
	a.key(" ")
	a.waitFor("‖ paused")
	<-run.started // b's run has the slot
	b.waitFor("● running")
	a.key(" ")
	a.waitFor("◌ queued (position 1)")
	close(run.release)
}

// waitGone waits until the session's screen no longer shows gone.
func (c *client) waitGone(gone string) {
	c.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for strings.Contains(c.screen(), gone) {
		if time.Now().After(deadline) {
			c.t.Fatalf("the session kept showing %q:\n%s", gone, c.screen())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestOneSessionsTwoJobsReadAsOneQueue: on a server of one CPU slot held by
// another session's run, a student's two jobs — the theorem panel's
// constants, asked for as the session opens, and then its run — are shown
// at the places the pool serves them in (the constants 1, the run 2: one
// session's calls in the order it made them), the panel saying what the
// positions count, and the chart's run waits on the same constants (not
// "computing"); once the slot frees, the constants are computed first
// and the panel says queued no more.
func TestOneSessionsTwoJobsReadAsOneQueue(t *testing.T) {
	run := newBlockRunner()
	ts := startServer(t, Config{Runner: run, CPUs: 1, SessionWorkers: 1})
	a := connect(t, ts.addr, newSigner(t))
	a.waitFor(ready)
	a.waitGone("computing")
	a.key("r")
	<-run.started
	a.waitFor("● running")
	b := connect(t, ts.addr, newSigner(t), "--n", "3000")
	b.waitFor("◌ queued (position 1) for a CPU slot")
	b.key("r")
	b.waitFor("◌ queued (position 2)")
	for _, want := range []string{"◌ queued (position 1) for a CPU slot", "(positions count every session's"} {
		if !strings.Contains(b.screen(), want) {
			t.Fatalf("the queued constants do not say %q:\n%s", want, b.screen())
		}
	}
	if strings.Contains(b.screen(), "computing the prescription") {
		t.Fatalf("the chart says its prescription is computed while it waits for a slot:\n%s", b.screen())
	}
	close(run.release)
	<-run.started // b's run holds the slot: its constants were served before it
	b.waitGone("for a CPU slot, waiting")
	b.waitGone("◌ queued")
}

// TestConstantsGoAheadOfTheirSessionsRun: in the pool's queue, a
// prescription asked for after its session's run (a preset's run starts
// before its constants are asked for) waits ahead of that run — it takes
// the run's place and the run the next — and is granted first, so the
// theorem panel's constants are served in the session's next turn, not
// after its run.
func TestConstantsGoAheadOfTheirSessionsRun(t *testing.T) {
	s := newSched(1, nil)
	other, seat := &queue{}, &queue{}
	held, err := s.acquire(context.Background(), other, 1, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	runQ, prescQ := make(chan engine.Queue, 16), make(chan engine.Queue, 16)
	granted := make(chan string, 2)
	until := func(ch chan engine.Queue, pos int) {
		t.Helper()
		for {
			select {
			case q := <-ch:
				if q.Position == pos {
					return
				}
			case <-time.After(waitLimit):
				t.Fatalf("no report of position %d", pos)
			}
		}
	}
	wait := func(name string, first bool, ch chan engine.Queue) {
		release, err := s.acquire(context.Background(), seat, 1, first, func(q engine.Queue) { ch <- q })
		if err != nil {
			granted <- "error: " + err.Error()
			return
		}
		granted <- name
		release()
	}
	go wait("run", false, runQ)
	until(runQ, 1)
	go wait("constants", true, prescQ)
	if q := <-prescQ; q.Position != 1 {
		t.Fatalf("the constants asked for after their session's run wait at position %d, want 1 (ahead of the run)", q.Position)
	}
	until(runQ, 2)
	held()
	if g := <-granted; g != "constants" {
		<-granted
		t.Fatalf("granted first: %s, want the constants", g)
	}
	if g := <-granted; g != "run" {
		t.Fatalf("granted second: %s, want the run", g)
	}
}
