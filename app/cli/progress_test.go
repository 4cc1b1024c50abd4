package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"dpso/internal/engine"
)

// A run interrupted (the context, a real Ctrl-C in a child process) and
// the progress line on a terminal.

// syncBuffer is a bytes.Buffer safe for a writer goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestRunInterrupted: a run interrupted while it works (its context is
// cancelled the moment the run first consults it — an event, not a
// timer) ends with status 130, one line on stderr and nothing on stdout.
func TestRunInterrupted(t *testing.T) {
	saved := interruptContext
	defer func() { interruptContext = saved }()
	interruptContext = func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		return &onFirstUse{Context: ctx, use: cancel}, cancel
	}
	code, out, errs := dpsoCLI("run", "--scenario", "hinge-t", "--trials", "2")
	if code != 130 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "interrupted") {
		t.Errorf("status %d, stdout %q, stderr %q: want 130, nothing, one line", code, out, errs)
	}
}

// onFirstUse is a context that calls use the first time its Done or Err is
// asked for: the moment a command starts to honour its cancellation.
type onFirstUse struct {
	context.Context
	once sync.Once
	use  func()
}

func (c *onFirstUse) Done() <-chan struct{} {
	c.once.Do(c.use)
	return c.Context.Done()
}

func (c *onFirstUse) Err() error {
	c.once.Do(c.use)
	return c.Context.Err()
}

func TestProgressLine(t *testing.T) {
	// Five trials: two done, trial 2 at iteration 3 of 10, trial 3 at 5 of
	// 10, trial 4 finished its last checkpoint: (2 + 0.3 + 0.5)/5 = 56%
	// done (trial 4's Done report is counted once TrialsDone says so), so
	// after 1.5 s the time left is 1.5·0.44/0.56 = 1.18 s.
	st := newProgressState()
	st.add(engine.Progress{Solver: "acsa", Trial: 3, Iter: 5, Iters: 10, Total: 5, TrialsDone: 1})
	st.add(engine.Progress{Solver: "acsa", Trial: 4, Iter: 10, Iters: 10, Done: true, Total: 5, TrialsDone: 2})
	p := engine.Progress{Solver: "acsa", Trial: 2, Iter: 3, Iters: 10, GradEvals: 12345, Excess: 0.0123, Total: 5, TrialsDone: 2}
	st.add(p)
	if f := st.fraction(); math.Abs(f-0.56) > 1e-12 {
		t.Errorf("fraction %g, want 0.56", f)
	}
	got := st.line("dpso run", 1500*time.Millisecond, 0)
	want := "dpso run: 56% · ETA 1.2 s · 2/5 trials done · acsa trial 2 iter 3/10 · 12345 grad evals · excess risk 0.0123 · 1.5 s elapsed · (Ctrl-C cancels)"
	if got != want {
		t.Errorf("progress line\n got %q\nwant %q", got, want)
	}
	// On an 80-column terminal the least useful parts go, whole.
	narrow := st.line("dpso run", 1500*time.Millisecond, 80)
	if utf8.RuneCountInString(narrow) >= 80 || !strings.HasPrefix(narrow, "dpso run: 56% · ETA 1.2 s · 2/5 trials done") || strings.Contains(narrow, "…") {
		t.Errorf("80 columns: %q", narrow)
	}
	for x, want := range map[float64]string{0.84: "0.8 s", 12.4: "12 s", 185: "3 min 05 s"} {
		t.Run(fmt.Sprintf("%g s", x), func(t *testing.T) {
			if got := fmtSeconds(x); got != want {
				t.Errorf("fmtSeconds(%g) = %q, want %q", x, got, want)
			}
		})
	}
	if !math.IsNaN(eta(0.0005, time.Second)) || math.Abs(eta(0.005, time.Second)-199) > 1e-9 {
		t.Error("want an ETA from 0.1% done on, elapsed·(1 − f)/f")
	}
	savedDelay, savedTicker := progressDelay, progressTicker
	defer func() { progressDelay, progressTicker = savedDelay, savedTicker }()
	progressDelay = 0
	// The test is the clock: two ticks, sent on an unbuffered channel, so
	// that when the second is received the line of the first is written
	// (no sleep, no wall clock).
	ticks := make(chan time.Time)
	progressTicker = func() (<-chan time.Time, func()) { return ticks, func() {} }
	var buf syncBuffer
	mb := engine.NewMailbox[engine.Progress](4)
	stop := showProgress(&buf, "dpso run", mb)
	mb.Put(p)
	ticks <- time.Time{}
	ticks <- time.Time{}
	stop()
	s := buf.String()
	if !strings.HasPrefix(s, "\r\x1b[Kdpso run: 46% · ETA") || !strings.HasSuffix(s, "\r\x1b[K") || strings.Contains(s, "\n") {
		t.Errorf("progress output %q: want overwritten lines, erased at the end, no newline", s)
	}
	// Piped (not a terminal): nothing on stderr, as every other test checks.
	if (&env{stderr: &buf}).stderrIsTerminal() {
		t.Error("a buffer is a terminal")
	}
}

// TestProgressLineInsideOneIteration: a run of one iteration over 10⁸
// samples (T = 1) reports its first checkpoint, then pulses from inside
// the oracle call: the line's share is the gradient evaluations over the
// planned ones (4·10⁶ of 10⁸ on each of two trials of five: 1.6%, with
// a decimal below 10%) with an ETA, while the iteration, the excess risk
// and the trials done stay those of the checkpoints; a pulse that arrives
// after its run's Done report changes nothing.
func TestProgressLineInsideOneIteration(t *testing.T) {
	st := newProgressState()
	const planned = 100_000_000
	for tr := range 2 {
		st.add(engine.Progress{Solver: "acsa", Trial: tr, Iter: 0, Iters: 1, Planned: planned, Excess: 0.1875, Total: 5})
	}
	if f := st.fraction(); f != 0 {
		t.Fatalf("fraction %g at the first checkpoints, want 0", f)
	}
	for tr := range 2 {
		st.add(engine.Progress{Solver: "acsa", Trial: tr, GradEvals: 4_000_000, Planned: planned, Pulse: true, Total: 5})
	}
	if f := st.fraction(); math.Abs(f-0.016) > 1e-12 {
		t.Errorf("fraction %g after the pulses, want 2·0.04/5 = 0.016", f)
	}
	got := st.line("dpso run", 80*time.Second, 0)
	want := "dpso run: 1.6% · ETA 1.4 h · 0/5 trials done · acsa trial 1 iter 0/1 · 4·10⁶ grad evals · excess risk 0.1875 · 1 min 20 s elapsed · (Ctrl-C cancels)"
	if got != want {
		t.Errorf("progress line\n got %q\nwant %q", got, want)
	}
	st.add(engine.Progress{Solver: "acsa", Trial: 0, Iter: 1, Iters: 1, GradEvals: planned, Planned: planned, Done: true, Total: 5, TrialsDone: 1})
	st.add(engine.Progress{Solver: "acsa", Trial: 0, GradEvals: planned - 1, Planned: planned, Pulse: true, Total: 5})
	if f := st.fraction(); math.Abs(f-(1+0.04)/5) > 1e-12 {
		t.Errorf("fraction %g after trial 0 ended and a late pulse, want 1.04/5", f)
	}
}

// TestRunCtrlC sends a real SIGINT to a dpso run in a child process (this
// test binary re-executed as dpso): it exits with status 130 after one
// line on stderr, and nothing on stdout.
func TestRunCtrlC(t *testing.T) {
	if os.Getenv("DPSO_CHILD") == "1" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildDpso$")
	cmd.Env = append(os.Environ(), "DPSO_CHILD=1")
	cmd.Args = append(cmd.Args, "--", "run", "--scenario", "hinge-t", "--trials", "2", "--json")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the child's run is under way and listens for Ctrl-C (it
	// then waits for it: no race with the run's end), then press it.
	sc := bufio.NewScanner(stderr)
	var lines []string
	for sc.Scan() {
		if sc.Text() == "READY" {
			cmd.Process.Signal(os.Interrupt)
			continue
		}
		lines = append(lines, sc.Text())
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("child: %v, want exit status 130; stderr %q", err, lines)
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "interrupted") || stdout.Len() != 0 {
		t.Errorf("stderr %q, stdout %q: want one line and nothing", lines, stdout.String())
	}
}

// TestChildDpso is dpso's main in the child process of TestRunCtrlC.
func TestChildDpso(t *testing.T) {
	if os.Getenv("DPSO_CHILD") != "1" {
		t.Skip("the child process of TestRunCtrlC")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	// The run says READY when it first consults its context — it is under
	// way and Ctrl-C is caught — and waits there for the Ctrl-C.
	interruptContext = func() (context.Context, context.CancelFunc) {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		return &onFirstUse{Context: ctx, use: func() {
			fmt.Fprintln(os.Stderr, "READY")
			<-ctx.Done()
		}}, stop
	}
	os.Exit(Main(args, os.Stdin, os.Stdout, os.Stderr))
}

func TestFitWidth(t *testing.T) {
	for _, c := range []struct {
		s     string
		width int
		want  string
	}{
		{"abc", 0, "abc"}, {"abc", 4, "abc"}, {"abcdef", 4, "ab…"}, {"εεεεε", 4, "εε…"}, {"abc", 1, "…"},
		{"excess risk 0.0123 · 1.5 s", 16, "excess risk…"}, // at a space: no word cut

	} {
		t.Run(fmt.Sprintf("%q width %d", c.s, c.width), func(t *testing.T) {
			if got := fitWidth(c.s, c.width); got != c.want || (c.width > 0 && utf8.RuneCountInString(got) >= max(c.width, 2)) {
				t.Errorf("fitWidth(%q, %d) = %q, want %q", c.s, c.width, got, c.want)
			}
		})
	}
}

// TestProgressLineWhileCalibrating: before any trial reports, the line
// shows the noise calibration — its evaluations and the bracket of σ —
// and the first trial's report replaces it.
func TestProgressLineWhileCalibrating(t *testing.T) {
	st := newProgressState()
	for _, c := range []struct {
		cal  engine.Calibration
		want string
	}{
		{engine.Calibration{Accountant: "rdp", Evals: 3, Sigma: 2, Lo: 1, Hi: 2},
			"dpso run: calibrating the noise multiplier · 3 evaluations of the RDP accountant · σ in (1, 2] · 2.0 s elapsed · (Ctrl-C cancels)"},
		{engine.Calibration{Accountant: "pld", Evals: 4, Sigma: 0.5, Hi: 0.5},
			"dpso run: calibrating the noise multiplier · 4 evaluations of the PLD accountant · σ at most 0.5 · 2.0 s elapsed · (Ctrl-C cancels)"},
		{engine.Calibration{Accountant: "pld", Evals: 5, Sigma: 0.45, Lo: 0.45, Hi: math.Inf(1)},
			"dpso run: calibrating the noise multiplier · 5 evaluations of the PLD accountant · σ above 0.45 · 2.0 s elapsed · (Ctrl-C cancels)"},
		{engine.Calibration{Accountant: "pld", Evals: 6, Sigma: 0.4511, Lo: 0.4512, Hi: 0.4511},
			"dpso run: calibrating the noise multiplier · 6 evaluations of the PLD accountant · trying σ = 0.4511 · 2.0 s elapsed · (Ctrl-C cancels)"},
	} {
		st.add(engine.Progress{Calibration: &c.cal})
		if got := st.line("dpso run", 2*time.Second, 0); got != c.want {
			t.Errorf("line\n got %q\nwant %q", got, c.want)
		}
	}
	st.add(engine.Progress{Solver: "dp-sgd", Iters: 10, Total: 1})
	if got := st.line("dpso run", 2*time.Second, 0); strings.Contains(got, "calibrating") {
		t.Errorf("after the first trial's report: %q", got)
	}
}

// TestProgressLineOfACount: a job that counts its runs (an audit) shows
// the runs done and the time, and no solver, gradient evaluations or
// excess risk, which it does not have: 30 of 6000 runs after 2 s is 0.5%,
// 398 s left at that pace.
func TestProgressLineOfACount(t *testing.T) {
	st := newProgressState()
	st.unit = "runs"
	st.add(engine.Progress{TrialsDone: 30, Total: 6000})
	got := st.line("dpso audit", 2*time.Second, 0)
	want := "dpso audit: 0.5% · ETA 6 min 38 s · 30/6000 runs done · 2.0 s elapsed · (Ctrl-C cancels)"
	if got != want {
		t.Errorf("line\n got %q\nwant %q", got, want)
	}
}
