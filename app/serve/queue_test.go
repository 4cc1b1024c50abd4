package serve

import (
	"strings"
	"testing"
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
