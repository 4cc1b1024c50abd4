package serve

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// Hostile clients over a real SSH client library on loopback: each test is
// one way a student's client could crash, starve or hang the server.

// heapGuard fails the test, and closes the client, if the process's heap
// passes limit bytes before stop is called: a server that does not clamp
// what a client asks for would otherwise take the machine's memory.
func heapGuard(t *testing.T, limit uint64, c *client) (stop func()) {
	t.Helper()
	done := make(chan struct{})
	var tripped atomic.Bool
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > limit {
				tripped.Store(true)
				c.close()
				return
			}
		}
	}()
	return func() {
		close(done)
		if tripped.Load() {
			t.Fatalf("the heap passed %d MiB: the server holds what the client asked for", limit>>20)
		}
	}
}

// heapInUse is the heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestHugeTerminalIsClamped: a pty-req of 2³²−1 × 2³²−1 (one packet) or
// 65535 × 65535, and a window change to that size, are drawn at the
// largest size a session draws, within a bounded heap, and the session
// answers its keys.
func TestHugeTerminalIsClamped(t *testing.T) {
	for _, c := range []struct {
		name       string
		rows, cols int
		resize     bool
	}{
		{"pty-req 2^32-1", 1<<32 - 1, 1<<32 - 1, false},
		{"pty-req 65535", 65535, 65535, false},
		{"window-change 65535", 30, 100, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ts := startServer(t, Config{Runner: newBlockRunner()})
			conn, err := dial(ts.addr, nil)
			if err != nil {
				t.Fatal(err)
			}
			cl := openSized(t, conn, c.rows, c.cols)
			stop := heapGuard(t, 1<<30, cl)
			if c.resize {
				cl.waitFor(ready)
				cl.sess.WindowChange(65535, 65535)
				waitUntil(t, "the resize reaches the explorer", func() bool { return ts.sizeSeen()[0] == MaxCols })
			}
			cl.waitPrinted("ready")
			stop()
			if got := ts.sizeSeen(); got[0] != MaxCols || got[1] != MaxRows {
				t.Fatalf("the explorer was drawn at %d×%d, want %d×%d", got[0], got[1], MaxCols, MaxRows)
			}
			cl.key("q")
			if code := cl.exit(); code != 0 {
				t.Fatalf("q: status %d, want 0", code)
			}
		})
	}
}

// TestUnterminatedPasteIsBounded: a bracketed paste that never ends (20
// MB after ESC[200~) is not held — the heap stays within a few MB of what
// it was — and the keys typed after it are answered: q quits (typed until
// it does: the terminal guard drops what arrives within its paste timeout
// of the paste's last byte).
func TestUnterminatedPasteIsBounded(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner()})
	c := connect(t, ts.addr, nil)
	c.waitFor(ready)
	before := heapInUse()
	c.key("\x1b[200~")
	if _, err := io.CopyN(c.in, repeat('z'), 20<<20); err != nil {
		t.Fatal(err)
	}
	if grew := int64(heapInUse()) - int64(before); grew > 8<<20 {
		t.Fatalf("the heap grew by %d MB after a 20 MB paste, want under 8 MB (the paste is not held)", grew>>20)
	}
	for deadline := time.Now().Add(waitLimit); time.Now().Before(deadline); {
		c.key("q")
		select {
		case err := <-c.done:
			if err != nil {
				t.Fatalf("q after the paste: %v, want status 0", err)
			}
			return
		case <-time.After(time.Second):
		}
	}
	t.Fatal("q after the paste never ended the session")
}

// repeat is an endless stream of b.
type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TestEnvRequestsAreBoundedAndAChannelWithoutAShellExpires: env requests
// past the bound are refused (a 30 kB value at once, the 33rd of small
// ones), and a connection whose channel never asks for a shell is closed
// after the login grace.
func TestEnvRequestsAreBoundedAndAChannelWithoutAShellExpires(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner(), LoginGrace: 500 * time.Millisecond})
	conn, err := dial(ts.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Setenv("BIG", strings.Repeat("x", 30_000)); err == nil {
		t.Fatal("a 30 kB env request was accepted")
	}
	for i := range maxEnvRequests + 1 {
		err := sess.Setenv("V", "1")
		if (i < maxEnvRequests) != (err == nil) {
			t.Fatalf("small env request %d: %v (want the first %d accepted, then refused)", i+1, err, maxEnvRequests)
		}
	}
	closed := make(chan error, 1)
	go func() { closed <- conn.Wait() }()
	select {
	case <-closed:
	case <-time.After(waitLimit):
		t.Fatal("a connection with no shell was held past the login grace")
	}
}

// TestHandshakeGraceAndStartups: a TCP connection that never starts the
// SSH handshake is closed after the login grace; past MaxStartups such
// connections, the oldest is closed for the newest; and a real client
// still gets a session.
func TestHandshakeGraceAndStartups(t *testing.T) {
	t.Run("grace", func(t *testing.T) {
		ts := startServer(t, Config{Runner: newBlockRunner(), LoginGrace: 300 * time.Millisecond})
		nc, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		nc.SetReadDeadline(time.Now().Add(waitLimit))
		if _, err := io.Copy(io.Discard, nc); err != nil {
			t.Fatalf("the silent connection was not closed by the server: %v", err)
		}
	})
	t.Run("startups", func(t *testing.T) {
		ts := startServer(t, Config{Runner: newBlockRunner(), MaxStartups: 4})
		var silent []net.Conn
		for range 6 {
			nc, err := net.Dial("tcp", ts.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			bufio.NewReader(nc).ReadString('\n') // the server's version line: it has the connection
			silent = append(silent, nc)
		}
		for i, nc := range silent[:2] {
			nc.SetReadDeadline(time.Now().Add(waitLimit))
			if _, err := io.Copy(io.Discard, nc); err != nil {
				t.Fatalf("silent connection %d of 6 was kept past MaxStartups 4: %v", i+1, err)
			}
		}
		c := connect(t, ts.addr, nil)
		c.waitFor(ready)
	})
}

// TestWindowChangeBurstKeepsTheSession: a burst of window changes (a
// corner dragged) leaves the session answering: q still quits.
func TestWindowChangeBurstKeepsTheSession(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner()})
	c := connect(t, ts.addr, nil)
	c.waitFor(ready)
	for i := range 3000 {
		if err := c.sess.WindowChange(24+i%40, 80+i%100); err != nil {
			t.Fatal(err)
		}
	}
	c.key("q")
	if code := c.exit(); code != 0 {
		t.Fatalf("q after the burst: status %d, want 0", code)
	}
}

// TestClientThatReadsNothingIsDropped: a client whose output is never read
// (its window full) is dropped after the write timeout, logged as such,
// and the server's shutdown then completes.
func TestClientThatReadsNothingIsDropped(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner(), WriteTimeout: 300 * time.Millisecond})
	conn, err := dial(ts.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.StdoutPipe(); err != nil { // never read
		t.Fatal(err)
	}
	if _, err := sess.StderrPipe(); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	gone := make(chan error, 1)
	go func() { gone <- conn.Wait() }()
	// Every size change repaints the whole screen: the output fills the
	// client's window.
	for i := 0; ; i++ {
		select {
		case <-gone:
		case <-time.After(10 * time.Millisecond):
			if i > 20_000 {
				t.Fatal("the client that reads nothing was never dropped")
			}
			sess.WindowChange(24+i%2*10, 80+i%2*40)
			continue
		}
		break
	}
	waitUntil(t, "the drop is logged", func() bool {
		return strings.Contains(ts.log.String(), "ended: dropped: the client read nothing for 0.3 s")
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := ts.Shutdown(ctx, "the test ended"); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}

// TestShutdownIsNotHeldByAClientThatReadsNothing: Shutdown tells the
// sessions without waiting on any one of them, and completes within its
// grace even when a client reads nothing (its connection is closed then).
func TestShutdownIsNotHeldByAClientThatReadsNothing(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner(), WriteTimeout: time.Hour})
	ok := connect(t, ts.addr, nil)
	ok.waitFor(ready)
	conn, err := dial(ts.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sess, _ := conn.NewSession()
	sess.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{})
	sess.StdoutPipe()
	sess.StderrPipe()
	sess.Shell()
	for i := range 3000 { // fill its window
		sess.WindowChange(24+i%2*10, 80+i%2*40)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	err = ts.Shutdown(ctx, "it got SIGTERM")
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown: %v", err)
	}
	if code := ok.exit(); code != 0 || !strings.Contains(ok.printed(), "the server is stopping (it got SIGTERM)") {
		t.Fatalf("the reading client: status %d, told %q", code, ok.printed())
	}
	if err := <-ts.served; err != nil {
		t.Fatalf("Serve after Shutdown: %v", err)
	}
}

// TestTypedFloodIsBounded: a flood of typed bytes (no paste brackets) is
// read at the session's typed-byte rate — the sender is held by flow
// control, its 20 MB not taken in — and the events past the input budget
// are dropped and counted; meanwhile another session answers its keys.
func TestTypedFloodIsBounded(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner()})
	drops := make(chan struct{}, 1)
	ts.onDrop = func() {
		select {
		case drops <- struct{}{}:
		default:
		}
	}
	flood := connect(t, ts.addr, nil)
	other := connect(t, ts.addr, newSigner(t))
	flood.waitFor(ready)
	other.waitFor(ready)
	sent := make(chan error, 1)
	go func() {
		_, err := io.CopyN(flood.in, repeat('z'), 20<<20)
		sent <- err
	}()
	other.key("?")
	other.waitFor("── Keys")
	select {
	case err := <-sent:
		if err == nil {
			t.Fatal("the server took in a 20 MB typed flood: nothing bounds it")
		}
		t.Fatalf("the flooding session ended (%v) instead of being held; the server logged:\n%s", err, ts.log.String())
	default:
	}
	select { // the budget drops the flood's events
	case <-drops:
	case <-time.After(waitLimit):
		t.Fatalf("no input event of the flood was dropped; the server logged:\n%s", ts.log.String())
	}
	flood.close()
	waitUntil(t, "the flooding session's end is logged", func() bool { return strings.Contains(ts.log.String(), "ended: ") })
	if log := ts.log.String(); !strings.Contains(log, "input events past 32 a second dropped)") {
		t.Fatalf("the dropped events are not logged:\n%s", log)
	}
}
