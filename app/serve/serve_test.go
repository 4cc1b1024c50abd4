package serve

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"dpso/internal/statestring"
	"dpso/tui"
	"dpso/tui/presets"
)

// The explorer's status bar before any run, and its header: what a
// session shows once it is drawn.
const ready = "○ ready"

func TestTwoSessionsAreIndependent(t *testing.T) {
	run := newBlockRunner()
	ts := startServer(t, Config{Runner: run})
	a := connect(t, ts.addr, nil)
	b := connect(t, ts.addr, nil, "--n", "3000")
	a.waitFor(ready)
	b.waitFor(ready)
	a.key("r")
	r := <-run.started // a's run is in flight, and blocks
	if r.Spec.N != 2000 {
		t.Fatalf("a's run has n = %d, want its own 2000", r.Spec.N)
	}
	a.waitFor("● running")
	b.key("?") // b's keys act while a's run holds
	b.waitFor("── Keys")
	if strings.Contains(b.screen(), "running") {
		t.Fatalf("b shows a run it never started:\n%s", b.screen())
	}
	if !strings.Contains(b.screen(), "--n 3000") || strings.Contains(a.screen(), "--n 3000") {
		t.Fatalf("each session's reproduce line must be its own Spec's")
	}
	close(run.release)
}

func TestQuitEndsOneSessionAndTheServerGoesOn(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner()})
	a := connect(t, ts.addr, nil)
	b := connect(t, ts.addr, nil)
	a.waitFor(ready)
	b.waitFor(ready)
	a.key("q")
	if code := a.exit(); code != 0 {
		t.Fatalf("q ended the session with status %d, want 0", code)
	}
	b.key("?")
	b.waitFor("── Keys")
	c := connect(t, ts.addr, nil)
	c.waitFor(ready)
	if log := ts.log.String(); !strings.Contains(log, "ended: quit") {
		t.Fatalf("no log line for the session that quit:\n%s", log)
	}
}

func TestBadArgumentsEndWithTheirLineAndStatus2(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner()})
	c := connect(t, ts.addr, nil, "--frobnicate")
	if code := c.exit(); code != 2 {
		t.Fatalf("status %d, want 2", code)
	}
	if got := strings.TrimSpace(c.printed()); got != `dpso: unknown flag "--frobnicate" (see --help for the flags)` {
		t.Fatalf("the session printed %q, want the parser's one line", got)
	}
}

func TestNoTerminalIsRefused(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner()})
	conn, err := dial(ts.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := openSession(t, conn, false, "--n", "3000")
	if code := c.exit(); code != 2 || !strings.Contains(c.printed(), "ssh -t") {
		t.Fatalf("status %d, output %q: want 2 and the hint ssh -t", code, c.printed())
	}
}

func TestCapsBindOnArgumentsAndInTheForm(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner(), Caps: Caps{N: 5000, Trials: 4}})
	over := connect(t, ts.addr, nil, "--n", "6000")
	if code := over.exit(); code != 2 {
		t.Fatalf("n above the cap: status %d, want 2", code)
	}
	if !strings.Contains(over.printed(), "--n: this server caps n at 5000 per session") {
		t.Fatalf("the refusal does not name the cap: %q", over.printed())
	}
	// In the form: n steps up on its grid (2000 → 5000 → 10⁴): the third
	// value is above the cap, refused on the screen with the cap named.
	c := connect(t, ts.addr, nil)
	c.waitFor(ready)
	for range 3 { // the focus is on the scenario: k, ε, n
		c.key("\t")
	}
	c.key("ll")
	c.waitFor("this server caps n at 5000")
}

func TestUnauthorizedKeyIsRefused(t *testing.T) {
	student, stranger := newSigner(t), newSigner(t)
	ts := startServer(t, Config{Runner: newBlockRunner(), AuthorizedKeys: writeKeys(t, student)})
	if conn, err := dial(ts.addr, stranger); err == nil {
		conn.Close()
		t.Fatal("a key outside --authorized-keys got in")
	}
	if conn, err := dial(ts.addr, nil); err == nil {
		conn.Close()
		t.Fatal("a client without a key got in")
	}
	c := connect(t, ts.addr, student)
	c.waitFor(ready)
	if log := ts.log.String(); !strings.Contains(log, "refused key "+gossh.FingerprintSHA256(stranger.PublicKey())) {
		t.Fatalf("the refused key is not logged:\n%s", log)
	}
}

func TestBeyondLoopbackNeedsKeysOrOpen(t *testing.T) {
	dir := t.TempDir()
	_, err := New(Config{Listen: "0.0.0.0:0", HostKey: filepath.Join(dir, "k"), Parse: testParse})
	if err == nil || !strings.Contains(err.Error(), "--authorized-keys") || !strings.Contains(err.Error(), "--open") {
		t.Fatalf("New beyond loopback without keys: %v, want a refusal naming --authorized-keys and --open", err)
	}
	if _, err := New(Config{Listen: "0.0.0.0:0", HostKey: filepath.Join(dir, "k"), Parse: testParse, Open: true}); err != nil {
		t.Fatalf("with --open: %v", err)
	}
}

func TestHostKeyIsCreatedOnceAndKept(t *testing.T) {
	p := filepath.Join(t.TempDir(), "host_key")
	first, err := New(Config{HostKey: p, Parse: testParse})
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("host key permissions %o, want 600", st.Mode().Perm())
	}
	second, err := New(Config{HostKey: p, Parse: testParse})
	if err != nil {
		t.Fatal(err)
	}
	if first.hostFP != second.hostFP || !first.keyCreated || second.keyCreated {
		t.Fatalf("host key %s (created %v), then %s (created %v): want one key, created once", first.hostFP, first.keyCreated, second.hostFP, second.keyCreated)
	}
	other := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(other, []byte("my notes\n"), 0o644)
	if _, err := New(Config{HostKey: other, Parse: testParse}); err == nil {
		t.Fatal("a file that is not a key was taken as the host key")
	}
	if b, _ := os.ReadFile(other); string(b) != "my notes\n" {
		t.Fatal("the file at --host-key was changed")
	}
}

// TestIdleSessionEnds: an SSH session without a key for --idle ends, is
// told why and is given the state string that reopens its screen with
// ssh's -t -- --state (no key can ask for it then) — also where the
// server serves browsers too, whose link it gives beside it.
func TestIdleSessionEnds(t *testing.T) {
	for _, web := range []bool{false, true} {
		t.Run(map[bool]string{false: "ssh alone", true: "ssh beside --web"}[web], func(t *testing.T) {
			cfg := Config{Runner: newBlockRunner(), Idle: 300 * time.Millisecond}
			var ts *testServer
			if web {
				ts, _ = startWeb(t, cfg, true)
			} else {
				ts = startServer(t, cfg)
			}
			c := connect(t, ts.addr, nil)
			if code := c.exit(); code != 0 {
				t.Fatalf("idle session: status %d, want 0", code)
			}
			if !strings.Contains(c.printed(), "no key for 300ms, so this session ended") {
				t.Fatalf("the session was not told why it ended:\n%s", c.printed())
			}
			said := c.printed()
			i := strings.Index(said, "-t -- --state ")
			if i < 0 || strings.Contains(said, "y shows") {
				t.Fatalf("the idle end does not give the state string of its screen:\n%s", said)
			}
			tok := strings.Fields(said[i+len("-t -- --state "):])[0]
			if _, err := statestring.Parse(tok, tui.ScreenNames()); err != nil {
				t.Errorf("the idle end's state string %q does not parse: %v", tok, err)
			}
			if web && !strings.Contains(said, "/?state="+tok+" in a browser") {
				t.Errorf("the idle end does not give the page's link beside the state string:\n%s", said)
			}
			if !strings.Contains(ts.log.String(), "ended: idle") {
				t.Fatalf("log:\n%s", ts.log.String())
			}
		})
	}
}

func TestShutdownTellsEverySessionAndLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	run := newBlockRunner()
	ts := startServer(t, Config{Runner: run})
	a := connect(t, ts.addr, nil)
	b := connect(t, ts.addr, nil)
	a.waitFor(ready)
	b.waitFor(ready)
	a.key("r")
	<-run.started // a run in flight: Shutdown must cancel it
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := ts.Shutdown(ctx, "it got SIGTERM"); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	for name, c := range map[string]*client{"a": a, "b": b} {
		if code := c.exit(); code != 0 {
			t.Fatalf("%s: status %d, want 0", name, code)
		}
		if !strings.Contains(c.printed(), "the server is stopping (it got SIGTERM); this session ends now") {
			t.Fatalf("%s was not told:\n%s", name, c.printed())
		}
		c.close()
	}
	if err := <-ts.served; err != nil {
		t.Fatalf("Serve after Shutdown: %v", err)
	}
	// Every goroutine of the server, its sessions, their explorers and
	// runs, and the test's clients ends: wait for the count to come back.
	deadline := time.Now().Add(waitLimit)
	for live, stacks := goroutinesBut(libraryParked); live > before; live, stacks = goroutinesBut(libraryParked) {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines outlive the server (%d before):\n%s", live, before, stacks)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// libraryParked is where a goroutine of the terminal library stays parked
// for good: ultraviolet's TerminalReader sends each parsed input event to
// Bubble Tea's message channel with no way to cancel the send, so input
// that arrives as a program stops (a client's reply to its last queries)
// leaves its reader blocked once nothing reads that channel. Nothing of
// dpso's can end it; every other goroutine must end.
const libraryParked = "ultraviolet.(*TerminalReader).sendEvents"

// goroutinesBut counts the live goroutines whose stacks do not contain
// skip, and returns all the stacks.
func goroutinesBut(skip string) (int, string) {
	buf := make([]byte, 1<<20)
	all := string(buf[:runtime.Stack(buf, true)])
	n := 0
	for _, g := range strings.Split(all, "\n\n") {
		if strings.TrimSpace(g) != "" && !strings.Contains(g, skip) {
			n++
		}
	}
	return n, all
}

func TestInstructorBroadcastIsOfferedNotImposed(t *testing.T) {
	teacher, student := newSigner(t), newSigner(t)
	ts := startServer(t, Config{Runner: newBlockRunner(), InstructorKey: writeKeys(t, teacher)})
	c := connect(t, ts.addr, student)
	c.waitFor(ready)

	refused := connect(t, ts.addr, student, "broadcast", "--preset", "3")
	if code := refused.exit(); code != 2 || !strings.Contains(refused.printed(), "only the instructor's key") {
		t.Fatalf("a student's broadcast: status %d, %q", code, refused.printed())
	}

	st := statestring.State{Spec: small, Screen: "sweep"}
	st.Spec.N = 4000
	send := connect(t, ts.addr, teacher, "broadcast", st.String())
	if code := send.exit(); code != 0 || !strings.Contains(send.printed(), "to 1 session\r\n") {
		t.Fatalf("the instructor's broadcast: status %d, %q", code, send.printed())
	}
	c.waitFor("b opens, B dismisses: the instructor sends the sweep screen")
	if !strings.Contains(c.screen(), "reproduce: dpso run --scenario linreg-t --n 2000") {
		t.Fatalf("the offer changed the student's screen before it was accepted:\n%s", c.screen())
	}
	c.key("b")
	c.waitFor("reproduce: dpso sweep") // the sweep screen's reproduce line
	c.waitFor("n over 250 … 4·10³")    // its grid up to the offer's n

	// A preset's chart with c's comparison: the banner names the preset
	// first, and the student's explorer opens it under the preset's
	// caption and runs the comparison.
	st = statestring.State{Spec: presets.All[0].Spec, Screen: "chart", Preset: presets.All[0].Title, Run: statestring.CompareKey}
	st.Spec.N = 4000
	if code := connect(t, ts.addr, teacher, "broadcast", st.String()).exit(); code != 0 {
		t.Fatalf("the instructor's broadcast of a preset's comparison: status %d", code)
	}
	c.waitFor("preset 1 \"Moment") // its title, shortened where the banner needs the room
	c.waitFor(": the chart screen with c's comparison")
	c.key("b")
	c.waitFor("preset 1 · n changed")
	c.waitFor("comparison #")
}
