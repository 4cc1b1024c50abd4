package serve

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// until waits until the screen shows want and returns how long it took,
// or an error after waitLimit (safe off the test's goroutine).
func (c *client) until(want string) (time.Duration, error) {
	start := time.Now()
	for !strings.Contains(c.screen(), want) {
		if time.Since(start) > waitLimit {
			return 0, fmt.Errorf("the session never showed %q; it showed:\n%s", want, c.screen())
		}
		time.Sleep(2 * time.Millisecond)
	}
	return time.Since(start), nil
}

// TestAClassOfThirty: thirty students on loopback SSH, each with their own
// key, on a server of two CPU slots. One student starts a run in each of
// two sessions and pauses both; another pastes 100 MB into the explorer;
// meanwhile a third student's run starts (the paused runs gave their slots
// back) and every other student's key is answered (? opens the help). The
// key-to-frame latencies are logged (go test -v), not asserted: the test
// asserts that every key is answered.
func TestAClassOfThirty(t *testing.T) {
	g := newGateRunner()
	signers := make([]gossh.Signer, 30)
	for i := range signers {
		signers[i] = newSigner(t)
	}
	ts := startServer(t, Config{Runner: g, CPUs: 2, SessionWorkers: 1, AuthorizedKeys: writeKeys(t, signers...)})
	// Student 0 has two sessions; students 1 (the paste) and 2 (the run)
	// one each; students 3 to 29 press keys.
	pauser := []*client{connect(t, ts.addr, signers[0], "--n", "1001"), connect(t, ts.addr, signers[0], "--n", "1002")}
	paster := connect(t, ts.addr, signers[1])
	runner := connect(t, ts.addr, signers[2], "--n", "3000")
	var others []*client
	for _, s := range signers[3:] {
		others = append(others, connect(t, ts.addr, s))
	}
	for _, c := range append(append([]*client{paster, runner}, pauser...), others...) {
		c.waitFor(ready)
	}

	for _, c := range pauser {
		c.key("r")
	}
	started := map[int]bool{<-g.started: true, <-g.started: true}
	if !started[1001] || !started[1002] {
		t.Fatalf("the runs that started are %v, want the pausing student's", started)
	}
	for _, c := range pauser {
		c.waitFor("● running")
		c.key(" ")
		c.waitFor("‖ paused")
	}
	waitUntil(t, "the paused runs give their slots back", func() bool { return ts.pool.sched.freeSlots() == 2 })

	pasted := make(chan error, 1)
	go func() {
		_, err := io.WriteString(paster.in, "\x1b[200~")
		if err == nil {
			_, err = io.CopyN(paster.in, repeat('z'), 100<<20)
		}
		if err == nil {
			_, err = io.WriteString(paster.in, "\x1b[201~")
		}
		pasted <- err
	}()

	runner.key("r")
	if n := <-g.started; n != 3000 {
		t.Fatalf("run n = %d started, want the third student's while the others are paused", n)
	}
	runner.waitFor("● running")

	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	errs := make(chan error, len(others))
	for _, c := range others {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.key("?")
			d, err := c.until("── Keys")
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			lat = append(lat, d)
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// The paste may still be under way: the keys were answered during
	// it. (A pause of its sender past the terminal guard's paste timeout,
	// on a loaded machine, makes the rest typed bytes, read at the
	// session's typed-byte rate: the paster's own session alone waits.)
	select {
	case err := <-pasted:
		t.Logf("the 100 MB paste was sent whole before the last key was answered (%v)", err)
	default:
		t.Log("the 100 MB paste was still being sent when the last key was answered")
	}
	paster.close()
	slices.Sort(lat)
	if len(lat) > 0 {
		t.Logf("%d keys answered during the paste: key to frame p50 %v, p95 %v, max %v", len(lat), lat[len(lat)/2], lat[len(lat)*95/100], lat[len(lat)-1])
	}
	close(g.releaseOf(3000))
	runner.waitFor("○ cancelled")
	for _, c := range pauser {
		c.key(" ")
	}
	close(g.releaseOf(1001))
	close(g.releaseOf(1002))
	for _, c := range pauser {
		c.waitFor("○ cancelled")
	}
}
