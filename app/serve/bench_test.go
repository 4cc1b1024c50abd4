package serve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/vt"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/tui"
	"dpso/tui/backend"
)

// benchTerminal is an in-process terminal of 100×30: what the benchmark
// types goes to the session through a pipe, what the session draws goes
// to a vt emulator, and every write is signalled (frames), so that the
// benchmark sees each frame as it lands.
type benchTerminal struct {
	id     string
	ctx    context.Context
	cancel context.CancelFunc
	inR    *io.PipeReader
	inW    *io.PipeWriter
	screen *termScreen
	frames chan struct{}
}

func newBenchTerminal(id string) *benchTerminal {
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	t := &benchTerminal{id: id, ctx: ctx, cancel: cancel, inR: r, inW: w,
		screen: &termScreen{vt: vt.NewEmulator(100, 30)}, frames: make(chan struct{}, 1)}
	go io.Copy(w, t.screen.vt) // the terminal's answers to the explorer's queries
	return t
}

func (t *benchTerminal) Context() context.Context                    { return t.ctx }
func (t *benchTerminal) Interactive() bool                           { return true }
func (t *benchTerminal) Input() io.Reader                            { return t.inR }
func (t *benchTerminal) Output() io.Writer                           { return t }
func (t *benchTerminal) Size() (int, int)                            { return 100, 30 }
func (t *benchTerminal) Profile() colorprofile.Profile               { return colorprofile.TrueColor }
func (t *benchTerminal) Environ() []string                           { return []string{"TERM=xterm-256color"} }
func (t *benchTerminal) Watch(ctx context.Context, _ func(w, h int)) { <-ctx.Done() }
func (t *benchTerminal) Say(string)                                  {}
func (t *benchTerminal) Status(string)                               {}
func (t *benchTerminal) Who() string                                 { return "bench session " + t.id }
func (t *benchTerminal) ID() string                                  { return t.id }
func (t *benchTerminal) Hangup()                                     { t.cancel() }
func (t *benchTerminal) Where() string                               { return "a benchmark session" }
func (t *benchTerminal) Link() string                                { return "" }

// Write draws p, each line feed as a pty's output processing sends it
// (CR LF, as an SSH session's pty does).
func (t *benchTerminal) Write(p []byte) (int, error) {
	_, err := t.screen.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n")))
	select {
	case t.frames <- struct{}{}:
	default:
	}
	return len(p), err
}

// await waits until the screen satisfies ok, checking after each frame;
// false if limit passed first.
func (t *benchTerminal) await(ok func(string) bool, limit time.Duration) bool {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for !ok(t.screen.String()) {
		select {
		case <-t.frames:
		case <-deadline.C:
			return false
		}
	}
	return true
}

func (t *benchTerminal) key(k string) { io.WriteString(t.inW, k) }

func (t *benchTerminal) close() {
	t.cancel()
	t.inW.Close()
	if pw, ok := t.screen.vt.InputPipe().(*io.PipeWriter); ok {
		pw.Close()
	}
}

// timedRunner is the engine (backend.Local), each call's start (its slots
// held: the pool calls it then) and end recorded, and the n of every call
// started (the benchmark's sessions run each its own n).
type timedRunner struct {
	backend.Local
	mu      sync.Mutex
	calls   []timedCall
	started map[int]bool
}

type timedCall struct {
	start, end time.Time
	err        error
}

func (r *timedRunner) Run(ctx context.Context, c backend.Call, set *engine.Settings) (backend.Result, error) {
	start := time.Now()
	r.mu.Lock()
	r.started[c.Spec.Spec.N] = true
	r.mu.Unlock()
	res, err := r.Local.Run(ctx, c, set)
	r.mu.Lock()
	r.calls = append(r.calls, timedCall{start, time.Now(), err})
	r.mu.Unlock()
	return res, err
}

// holds reports whether a call of n samples has held its slots.
func (r *timedRunner) holds(n int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.started[n]
}

func (r *timedRunner) ended() []timedCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// atTheCaps is a run at the server's default caps: n, d and trials each
// at its cap (DefaultCaps), the explorer's default solver for the class
// (acsa), secure noise as every session's.
var atTheCaps = spec.Spec{Scenario: scenarios.LinRegT, N: DefaultCaps.N, D: DefaultCaps.D, Trials: DefaultCaps.Trials}

// capsOf is the run of the benchmark's session i: atTheCaps with n one
// less for each session before it, so that each session's call is told
// apart by its n.
func capsOf(i int) spec.Spec {
	s := atTheCaps
	s.N -= i
	return s
}

// BenchmarkServeSessions drives 30 in-process sessions of one server
// (Server.session on an in-process terminal, the engine real), with the
// default caps and 2 CPU slots (a laptop of 2 cores: --cpus 2, one worker
// a run). 10 sessions press r on a run at the caps (atTheCaps) at once;
// meanwhile every session opens and closes the key panel (? twice), one
// key every 200 ms or so, and the time from each key to the frame that
// shows its effect is measured, until the 10 runs ended. It reports the
// key-to-frame percentiles (ms), the most runs shown running at once (at
// most the slots, if every waiting run shows queued), the 50 ms samples
// that showed more and their longest stretch, the screens seen showing
// their run running before its call held its slots, the sessions ever shown
// queued, when the last run ended after the r (s), the longest a run held
// its slot (s), and the runs the server stopped (--max-run-time). It
// fails if a run ends past the stated bound (the runs ahead of it, slots
// at a time, each holding a slot at most --max-run-time, then its own) or
// fewer sessions than the runs past the slots were ever shown queued.
// Run: go test ./app/serve -run '^$' -bench BenchmarkServeSessions
// -benchtime 1x.
func BenchmarkServeSessions(b *testing.B) {
	const sessions, running, slots = 30, 10, 2
	bound := time.Duration(math.Ceil(float64(running)/slots)+1) * DefaultCaps.RunTime
	for range b.N {
		parse := func(args []string) (tui.Options, error) {
			s := small
			if len(args) == 2 && args[0] == "--caps" {
				i, err := strconv.Atoi(args[1])
				if err != nil {
					return tui.Options{}, err
				}
				s = capsOf(i)
			}
			return tui.Options{Start: &s}, nil
		}
		eng := &timedRunner{started: map[int]bool{}}
		s, err := New(Config{NoSSH: true, Web: "127.0.0.1:0", Parse: parse, Runner: eng, Caps: DefaultCaps, CPUs: slots})
		if err != nil {
			b.Fatal(err)
		}
		terms := make([]*benchTerminal, sessions)
		var wg sync.WaitGroup
		for i := range terms {
			t := newBenchTerminal(fmt.Sprintf("s%02d", i))
			terms[i] = t
			args := []string(nil)
			if i < running {
				args = []string{"--caps", strconv.Itoa(i)}
			}
			wg.Go(func() {
				s.enter()
				defer s.leaveHandler()
				s.session(t, args)
			})
		}
		for _, t := range terms {
			if !t.await(func(sc string) bool { return strings.Contains(sc, ready) }, waitLimit) {
				b.Fatalf("%s never showed %q:\n%s", t.id, ready, t.screen.String())
			}
		}

		start := time.Now()
		for _, t := range terms[:running] {
			t.key("r")
		}
		var (
			mu        sync.Mutex
			lat       []float64 // key to frame, ms
			queuedIDs = map[string]bool{}
			maxShown  int
			over      int           // samples with more runs shown running than slots
			overRun   time.Duration // the longest stretch of such samples
			overSince time.Time
			early     int // screens seen running before their call held its slots
			stop      = make(chan struct{})
			bg        sync.WaitGroup
		)
		// The screens' states, sampled every 50 ms (a screen whose key
		// panel is open may hide its status bar: a sample counts only what
		// is shown).
		bg.Go(func() {
			tick := time.NewTicker(50 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				shown := 0
				for i, t := range terms[:running] {
					sc := t.screen.String()
					if strings.Contains(sc, "● running") {
						shown++
						if !eng.holds(capsOf(i).N) {
							mu.Lock()
							early++
							mu.Unlock()
						}
					}
					if strings.Contains(sc, "◌ queued (position") {
						mu.Lock()
						queuedIDs[t.id] = true
						mu.Unlock()
					}
				}
				now := time.Now()
				mu.Lock()
				maxShown = max(maxShown, shown)
				if shown > slots {
					over++
					if overSince.IsZero() {
						overSince = now
					}
					overRun = max(overRun, now.Sub(overSince))
				} else {
					overSince = time.Time{}
				}
				mu.Unlock()
			}
		})
		// Keys: each session opens the key panel and closes it, again and
		// again, each key timed to the frame that shows its effect.
		for _, t := range terms {
			bg.Go(func() {
				open := func(sc string) bool { return strings.Contains(sc, "── Keys") }
				closed := func(sc string) bool { return !open(sc) }
				for {
					select {
					case <-stop:
						return
					case <-time.After(200 * time.Millisecond):
					}
					for _, seen := range []func(string) bool{open, closed} {
						select { // a frame already signalled is not this key's
						case <-t.frames:
						default:
						}
						t0 := time.Now()
						t.key("?")
						if !t.await(seen, waitLimit) {
							b.Errorf("%s: ? never showed its frame:\n%s", t.id, t.screen.String())
							return
						}
						mu.Lock()
						lat = append(lat, float64(time.Since(t0).Microseconds())/1e3)
						mu.Unlock()
					}
				}
			})
		}
		// The runs' ends, as the engine returns them.
		for len(eng.ended()) < running {
			if time.Since(start) > bound+waitLimit {
				b.Fatalf("%d of %d runs ended within %s", len(eng.ended()), running, bound+waitLimit)
			}
			time.Sleep(100 * time.Millisecond)
		}
		close(stop)
		bg.Wait()
		for _, t := range terms {
			t.close()
		}
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		s.Shutdown(ctx, "the benchmark ended")
		cancel()
		wg.Wait()

		slices.Sort(lat)
		pct := func(p float64) float64 {
			if len(lat) == 0 {
				return math.NaN()
			}
			return lat[min(len(lat)-1, int(math.Ceil(p*float64(len(lat))))-1)]
		}
		var last, held float64
		stopped := 0
		for _, c := range eng.ended() {
			last = max(last, c.end.Sub(start).Seconds())
			held = max(held, c.end.Sub(c.start).Seconds())
			if c.err != nil {
				stopped++
			}
			if c.end.Sub(start) > bound {
				b.Errorf("a run ended %s after r, past the stated bound %s", c.end.Sub(start), bound)
			}
		}
		b.ReportMetric(pct(0.50), "p50-ms")
		b.ReportMetric(pct(0.95), "p95-ms")
		b.ReportMetric(pct(0.99), "p99-ms")
		b.ReportMetric(float64(len(lat)), "keys")
		// More runs shown running than slots: a run that has ended and
		// given its slot back is drawn running until its result reaches
		// its screen, while the next run's grant reaches the next one's
		// (samples-over, longest-over-s); a screen drawn running before
		// its own call held its slots is running-before-slot.
		b.ReportMetric(float64(maxShown), "max-shown-running")
		b.ReportMetric(float64(over), "samples-over")
		b.ReportMetric(overRun.Seconds(), "longest-over-s")
		b.ReportMetric(float64(early), "running-before-slot")
		b.ReportMetric(float64(len(queuedIDs)), "sessions-shown-queued")
		b.ReportMetric(last, "last-run-end-s")
		b.ReportMetric(held, "longest-held-s")
		b.ReportMetric(float64(stopped), "runs-stopped")
		b.Logf("key to frame: %d keys, p50 %.1f ms, p95 %.1f ms, p99 %.1f ms; most shown running %d, samples over the slots %d (longest stretch %.2f s), screens running before their slot %d; sessions shown queued %d; last run ended %.1f s after r, longest held %.1f s, stopped %d",
			len(lat), pct(0.5), pct(0.95), pct(0.99), maxShown, over, overRun.Seconds(), early, len(queuedIDs), last, held, stopped)
		if len(queuedIDs) < running-slots {
			b.Errorf("%d sessions shown queued, want at least %d (%d runs on %d slots)", len(queuedIDs), running-slots, running, slots)
		}
	}
}
