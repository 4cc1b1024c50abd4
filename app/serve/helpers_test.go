package serve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/tui"
	"dpso/tui/backend"
)

// waitLimit bounds every wait for an event, so that a missing event
// fails the test instead of hanging it; no assertion reads a clock.
const waitLimit = 60 * time.Second

// blockRunner is a backend.Runner whose prescriptions are the engine's (the
// tests' Specs are small) and whose runs block until released or
// cancelled, recording each call's Spec: tests act while a run is in
// flight.
type blockRunner struct {
	release chan struct{}
	started chan spec.Resolved // each run's Resolved, as it starts
}

func newBlockRunner() *blockRunner {
	return &blockRunner{release: make(chan struct{}), started: make(chan spec.Resolved, 64)}
}

func (b *blockRunner) Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error) {
	return engine.Prescribe(ctx, r)
}

func (b *blockRunner) wait(ctx context.Context, r spec.Resolved) error {
	b.started <- r
	select {
	case <-b.release:
		return context.Canceled // the tests never look at a run's result
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (b *blockRunner) Run(ctx context.Context, c backend.Call, _ *engine.Settings) (backend.Result, error) {
	r := c.Spec
	if c.Kind == backend.Audit {
		r = spec.Resolved{}
	}
	return backend.Result{}, b.wait(ctx, r)
}

// small is the Spec the test sessions open on: closed-form constants,
// prescribed at once.
var small = spec.Spec{Scenario: scenarios.LinRegT, N: 2000, Trials: 2}

// testParse reads a session's arguments as the tests need them (the
// CLI's own function, exploreArgs, is tested in app/cli): none opens
// small; "--n N" (or "--n=N") sets n; anything else is refused with a one-line
// message.
func testParse(args []string) (tui.Options, error) {
	s := small
	if len(args) == 1 && strings.HasPrefix(args[0], "--n=") { // a link's
		args = []string{"--n", strings.TrimPrefix(args[0], "--n=")}
	}
	switch {
	case len(args) == 0:
	case len(args) == 2 && args[0] == "--n":
		var n int
		if _, err := fmt.Sscan(args[1], &n); err != nil {
			return tui.Options{}, errors.New("dpso: --n: not an integer")
		}
		s.N = n
	default:
		return tui.Options{}, errors.New("dpso: unknown flag " + fmt.Sprintf("%q", args[0]) + " (see --help for the flags)")
	}
	return tui.Options{Start: &s}, nil
}

// testServer is a server on a loopback port of its own, serving in the
// background; its log is kept.
type testServer struct {
	*Server
	addr   string
	served chan error
	log    *syncBuffer
	sizeMu sync.Mutex
	size   [2]int // the size the latest explorer was drawn at
}

// watchSize records each size an explorer is drawn at (sizeSeen).
func (ts *testServer) watchSize() {
	ts.onSize = func(w, h int) {
		ts.sizeMu.Lock()
		ts.size = [2]int{w, h}
		ts.sizeMu.Unlock()
	}
}

// sizeSeen is the size the latest explorer was drawn at.
func (ts *testServer) sizeSeen() [2]int {
	ts.sizeMu.Lock()
	defer ts.sizeMu.Unlock()
	return ts.size
}

func startServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	if cfg.HostKey == "" {
		cfg.HostKey = filepath.Join(t.TempDir(), "host_key")
	}
	if cfg.Parse == nil {
		cfg.Parse = testParse
	}
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	lb := &syncBuffer{}
	cfg.Log = lb
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: s, addr: ln.Addr().String(), served: make(chan error, 2), log: lb}
	ts.watchSize()
	go func() { ts.served <- s.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		s.Shutdown(ctx, "the test ended")
	})
	return ts
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// client is one SSH session of a test, with a terminal of 100×30: an
// emulated one (charmbracelet/x/vt) that draws what the session prints and
// answers the explorer's queries (its background colour), as a terminal
// does.
type client struct {
	t    *testing.T
	conn *gossh.Client
	sess *gossh.Session
	in   io.WriteCloser
	out  *syncBuffer // everything printed, as printed
	term *termScreen
	done chan error // the session's end: nil, or *gossh.ExitError
}

// termScreen is a vt emulator safe for the session's writer and the
// test's reader.
type termScreen struct {
	mu sync.Mutex
	vt *vt.Emulator
}

// Write draws p. The emulator stands in for a student's terminal of
// 100×30; a session drawn larger than it (a client that asked for
// 400×150, say) can drive charmbracelet/x/vt past its rows, where it
// panics: such a write is dropped, and the tests that draw so read what
// was printed (printed), not the screen.
func (ts *termScreen) Write(p []byte) (n int, err error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	defer func() {
		if recover() != nil {
			n, err = len(p), nil
		}
	}()
	return ts.vt.Write(p)
}

func (ts *termScreen) String() string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.vt.String()
}

// newSigner is a fresh ed25519 client key.
func newSigner(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// writeKeys writes an authorized_keys file of signers' public keys.
func writeKeys(t *testing.T, signers ...gossh.Signer) string {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("# the class\n\n")
	for _, s := range signers {
		b.Write(gossh.MarshalAuthorizedKey(s.PublicKey()))
	}
	p := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// dial connects with key (nil: keyboard-interactive, no key).
func dial(addr string, key gossh.Signer) (*gossh.Client, error) {
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}
	if key != nil {
		auth = []gossh.AuthMethod{gossh.PublicKeys(key)}
	}
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "student", Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLimit})
}

// connect opens a session with a terminal and args as its command (none:
// a shell request, as plain `ssh host` makes).
func connect(t *testing.T, addr string, key gossh.Signer, args ...string) *client {
	t.Helper()
	conn, err := dial(addr, key)
	if err != nil {
		t.Fatal(err)
	}
	return openSession(t, conn, true, args...)
}

func openSession(t *testing.T, conn *gossh.Client, pty bool, args ...string) *client {
	t.Helper()
	if !pty {
		return openSized(t, conn, 0, 0, args...)
	}
	return openSized(t, conn, 30, 100, args...)
}

// openSized opens a session whose pty-req asks for rows×cols (0×0: no
// pty), the client's terminal being 100×30 whatever it asks.
func openSized(t *testing.T, conn *gossh.Client, rows, cols int, args ...string) *client {
	t.Helper()
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if rows > 0 {
		if err := sess.RequestPty("xterm-256color", rows, cols, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
	}
	c := &client{t: t, conn: conn, sess: sess, out: &syncBuffer{}, term: &termScreen{vt: vt.NewEmulator(100, 30)}, done: make(chan error, 1)}
	w := io.MultiWriter(c.out, c.term)
	sess.Stdout, sess.Stderr = w, w
	stdin, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.in = &oneWriter{w: stdin}
	go io.Copy(c.in, c.term.vt) // the terminal's answers; ends when it is closed
	if len(args) == 0 {
		err = sess.Shell()
	} else {
		err = sess.Start(strings.Join(args, " "))
	}
	if err != nil {
		t.Fatal(err)
	}
	go func() { c.done <- sess.Wait() }()
	t.Cleanup(c.close)
	return c
}

// oneWriter passes one Write at a time to w. A session's stdin has two
// writers, the test (its keys, a flood) and the emulator's answers, and
// golang.org/x/crypto/ssh does not take two writes on one channel at
// once: they share the channel's packet buffer (channel.go,
// WriteExtended), so one can overwrite the header of a packet the other
// is sending, and the server reads a data packet whose length is not its
// own ("ssh: wrong packet length") and closes the connection.
type oneWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (o *oneWriter) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.w.Write(p)
}

func (o *oneWriter) Close() error { return o.w.Close() }

func (c *client) close() {
	c.sess.Close()
	c.conn.Close()
	// The emulator's Close races with its Read: close the pipe its answers
	// go through instead, which ends the copier.
	if pw, ok := c.term.vt.InputPipe().(*io.PipeWriter); ok {
		pw.Close()
	}
}

// screen is what the terminal shows.
func (c *client) screen() string { return c.term.String() }

// printed is everything the session printed, without escape sequences
// (a line printed after the explorer ended, say).
func (c *client) printed() string { return ansi.Strip(c.out.String()) }

// waitFor waits until the session has printed want.
func (c *client) waitFor(want string) {
	c.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !strings.Contains(c.screen(), want) {
		if time.Now().After(deadline) {
			c.t.Fatalf("the session never showed %q; it showed:\n%s", want, c.screen())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitPrinted waits until the session has printed want (escape
// sequences stripped), wherever on a screen larger than the client's.
func (c *client) waitPrinted(want string) {
	c.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !strings.Contains(c.printed(), want) {
		if time.Now().After(deadline) {
			c.t.Fatalf("the session never printed %q", want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// key types keys into the session.
func (c *client) key(keys string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, keys); err != nil {
		c.t.Fatal(err)
	}
}

// exit waits for the session's end and returns its exit status.
func (c *client) exit() int {
	c.t.Helper()
	select {
	case err := <-c.done:
		var ee *gossh.ExitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &ee):
			return ee.ExitStatus()
		}
		c.t.Fatalf("the session ended without a status: %v", err)
	case <-time.After(waitLimit):
		c.t.Fatalf("the session did not end; it showed:\n%s", c.screen())
	}
	return -1
}
