package tui

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/audit"
	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/runs"
	"dpso/tui/screens"
	"dpso/tui/style"
)

// fakeRunner is a deterministic Runner for the explorer's tests. Its
// prescriptions are the real ones (engine.Prescribe; the tests use
// closed-form scenarios, so they are exact and fast). Its runs report
// points+1 checkpoints per (solver, trial) at 0, 100, 200, 400, …
// gradient evaluations with excess risk fakeExcess, honour the pause gate
// at every checkpoint, and refuse lipschitz-dpsgd with a sentence unless
// an L_f is declared.
type fakeRunner struct {
	points int
	// hold, when not nil, stops trial holdTrial of solver holdSolver
	// (the first trial of the first solver by default) at its checkpoint
	// holdAt until hold is closed (or ctx is cancelled), so tests act
	// while a run is in flight.
	hold                  chan struct{}
	holdAt                int
	holdSolver, holdTrial int
	// tuneWorkers, when not 0, is the workers of every search (1: the
	// clipping panel's latest batch is the same trial's every time).
	tuneWorkers int
	// tuneMemo, when not nil, keeps every search's report by its Spec
	// and settings: tests that read the same search at several terminal
	// sizes run it once.
	tuneMemo *sync.Map
	// long, when not 0, is the planned work (floats, one worker) that a
	// comparison at n above fitN hands engine.Settings.Plan before its
	// first trial (at or below it, 1000); FitN answers fitN with fitWork.
	long, fitWork float64
	fitN          int
	// reads, when not nil, are the Reads of every comparison's plan.
	reads []engine.PlanReads
	// tuneSmall, when set, runs a search whose prescribed run takes more
	// than fakeTuneEvals gradient evaluations at a smaller n (smallTune):
	// the screen's words are its templates, its numbers a fake's.
	tuneSmall bool
	// stop, when not nil, ends a comparison with it once stopAfter
	// trials are done (a sweep: stopAfter points; a search: stopAfter
	// trials' private searches, no reference; a server's bound
	// stopping the run part way); with
	// stopMid, at the next trial's checkpoint stopMid instead, a trial
	// under way.
	stop      error
	stopAfter int
	stopMid   int
	// refuse, when not nil, is a comparison's error before its first
	// trial (a server's refusal of the whole call).
	refuse error

	mu       sync.Mutex
	ctxs     []context.Context // every run's context, in order
	compares int
	sweeps   int
	tunes    int
	audits   []audit.Config // every audit asked for, in order
}

// fakeAuditTrials is the runs per input of the fake runner's audits: the
// real audit (seeded, so the same numbers every time) at a tenth of the
// default sample, fast enough for the race detector.
const fakeAuditTrials = 20000

// audit runs the real oracle audit at fakeAuditTrials runs per input;
// with hold set it first waits for hold (or ctx's cancellation).
func (f *fakeRunner) audit(ctx context.Context, cfg audit.Config) (*audit.Result, error) {
	f.record(ctx)
	f.mu.Lock()
	f.audits = append(f.audits, cfg)
	f.mu.Unlock()
	if f.hold != nil {
		select {
		case <-f.hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	cfg.Trials = fakeAuditTrials
	return audit.Oracle(ctx, cfg)
}

// tune runs the real search (the tests tune small Specs); with hold set
// it first waits for hold (or ctx's cancellation).
func (f *fakeRunner) tune(ctx context.Context, r spec.Resolved, ts engine.TuneSpec, set *engine.Settings) (*engine.TuneReport, error) {
	f.record(ctx)
	f.mu.Lock()
	f.tunes++
	f.mu.Unlock()
	if f.tuneWorkers != 0 {
		r.Spec.Workers = f.tuneWorkers
	}
	if f.tuneSmall {
		r = smallTune(ctx, r)
	}
	if f.hold != nil {
		select {
		case <-f.hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if f.stop != nil && f.stopAfter > 0 {
		// A search stopped during its private searches: stopAfter of the
		// Spec's trials search (no reference runs), then the stop.
		sr, sts, sset := r, ts, *set
		sr.Spec.Trials, sts.References, sset.Searched, sset.Coarse = f.stopAfter, false, nil, nil
		_, err := engine.Tune(ctx, sr, sts, &sset)
		return nil, cmp.Or(err, f.stop)
	}
	if f.stop != nil { // a search: the whole search, then the stop
		_, err := engine.Tune(ctx, r, ts, set)
		return nil, cmp.Or(err, f.stop)
	}
	if f.tuneMemo == nil {
		return engine.Tune(ctx, r, ts, set)
	}
	key := runs.RunKey(r) + fmt.Sprintf("|%+v", ts)
	if rep, ok := f.tuneMemo.Load(key); ok {
		return rep.(*engine.TuneReport), nil
	}
	rep, err := engine.Tune(ctx, r, ts, set)
	if err == nil {
		f.tuneMemo.Store(key, rep)
	}
	return rep, err
}

// fakeTuneEvals is the most gradient evaluations of a prescribed run
// whose search smallTune leaves as it is (three presets' take 10⁴;
// preset 1's 2·10⁶, a search of minutes on a loaded machine; the two
// localized presets' stay above it at the smallest n, 200). The tests
// that search through smallTune read the tuning screen's words, not its
// numbers: at 10⁵ the searches of the five presets shrunk to it were 23
// of TestPresetScreenWords' 46 CPU-seconds.
const fakeTuneEvals = 2.5e4

// smallTune is r at an n whose prescribed run takes at most about
// fakeTuneEvals gradient evaluations (a few halvings of n, each
// resolved as the form would), or r itself where it already does, or
// where its n cannot change (user rows, a scenario of fixed n).
func smallTune(ctx context.Context, r spec.Resolved) spec.Resolved {
	for range 12 {
		p, err := engine.Prescribe(ctx, r)
		if err != nil || p.Params.GradEvals <= fakeTuneEvals || r.Spec.N < 400 {
			return r
		}
		s := r.Spec.Clone()
		s.N = max(int(float64(r.Spec.N)*math.Min(0.5, fakeTuneEvals/float64(p.Params.GradEvals))), 200)
		next, err := backend.Resolve(s)
		if err != nil || next.Spec.N == r.Spec.N {
			return r
		}
		r = next
	}
	return r
}

const fakeRefusal = "noise calibrated to L_f = ∞ would be infinite (fake)"

// fakeExcess is the fake excess risk of solver si, trial, checkpoint j.
func fakeExcess(si, trial, j int) float64 {
	return (1 + 0.5*float64(si)) * 0.5 / float64(1+j) * (1 + 0.01*float64(trial))
}

// fakeThreshold is the clip threshold C at checkpoint j: 2, and for
// dp-sgd with adaptive clipping 2·0.7^j (C shrinking toward the norms).
func fakeThreshold(name string, s spec.Spec, j int) float64 {
	if name == "dp-sgd" && s.AdaptiveClip {
		return 2 * math.Pow(0.7, float64(j))
	}
	return 2
}

func fakeEvals(j int) int64 {
	if j == 0 {
		return 0
	}
	return 100 << (j - 1)
}

func (f *fakeRunner) record(ctx context.Context) {
	f.mu.Lock()
	f.ctxs = append(f.ctxs, ctx)
	f.mu.Unlock()
}

// Run makes the fake's call of c's kind; a kind it does not fake is the
// real engine's (backend.Local).
func (f *fakeRunner) Run(ctx context.Context, c backend.Call, set *engine.Settings) (backend.Result, error) {
	var (
		res backend.Result
		err error
	)
	switch c.Kind {
	case backend.Compare:
		res.Comparison, err = f.compare(ctx, c.Spec, c.Names, set)
	case backend.Sweep:
		res.Sweep, err = f.sweep(ctx, c.Spec, c.SweepSpec, set)
	case backend.Tune:
		res.Tune, err = f.tune(ctx, c.Spec, c.TuneSpec, set)
	case backend.Audit:
		res.Audit, err = f.audit(ctx, c.AuditConfig)
	default:
		return backend.Local{}.Run(ctx, c, set)
	}
	return res, err
}

// FitN is the fake's smaller n: fitN, at fitWork floats on one worker.
func (f *fakeRunner) FitN(ctx context.Context, c backend.Call, maxWork float64) (int, engine.Plan, error) {
	return f.fitN, engine.Plan{Jobs: c.Spec.Spec.Trials, Workers: 1, Work: f.fitWork}, nil
}

func (f *fakeRunner) Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error) {
	return engine.Prescribe(ctx, r)
}

func (f *fakeRunner) compare(ctx context.Context, r spec.Resolved, names []string, set *engine.Settings) (*engine.Comparison, error) {
	f.record(ctx)
	f.mu.Lock()
	f.compares++
	f.mu.Unlock()
	pr, err := engine.Prescribe(ctx, r)
	if err != nil {
		return nil, err
	}
	rs := r.Spec
	if len(names) == 0 {
		names = []string{rs.Solver}
	}
	if set.Plan != nil {
		pl := engine.Plan{Jobs: rs.Trials, Workers: 1, Work: 1000, Reads: f.reads}
		if f.long > 0 && rs.N > f.fitN {
			pl.Work = f.long
		}
		set.Plan(pl)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	if f.refuse != nil {
		return nil, f.refuse
	}
	mb := set.Progress
	// lipschitz-dpsgd refuses unless an L_f is declared (--lf).
	refuses := func(name string) bool { return name == "lipschitz-dpsgd" && rs.Lf == 0 }
	total := 0
	for _, n := range names {
		if !refuses(n) {
			total += rs.Trials
		}
	}
	c := &engine.Comparison{}
	done := 0
	for si, name := range names {
		rep := &engine.Report{Spec: rs, Solver: name, Class: rs.Class, Bounds: pr.Bounds, Theory: pr.Theory, Profile: pr.Profile, W0: pr.W0}
		// Each solver's budget as the engine states it (PrivacyOf): the
		// non-private sgd's ledger budget is infinite, dp-sgd's (ε', δ)
		// is its accountant's, a little under the target (the calibration
		// never overshoots).
		d, _ := solvers.DescriptorOf(name)
		rep.Privacy = r.PrivacyOf(d)
		budget := rep.Privacy.Cost()
		spent := budget
		var events []ledger.Event
		switch {
		case name == "nonprivate-schedule":
			budget = ledger.Cost{Rho: math.Inf(1)}
			spent = ledger.Cost{}
		case rep.Privacy.Model == spec.Accountant:
			spent = ledger.Cost{Eps: 0.9999 * budget.Eps, Delta: budget.Delta}
			events = []ledger.Event{{Mechanism: "poisson-subsampled-gaussian", Q: 0.01, Sigma: 1, Steps: f.points, Accountant: rep.Privacy.AccountantName,
				Eps: spent.Eps, Delta: spent.Delta, EpsLower: math.NaN()}}
		}
		if name == rs.Solver {
			rep.Certified = pr.Certified
		}
		// The run's notes as the engine writes them: the prescription's,
		// then the reference lines' (the certificate's sentences).
		rep.Notes, rep.RefNotes = slices.Clone(pr.Notes), slices.Clone(pr.RefNotes)
		c.Reports = append(c.Reports, rep)
		if refuses(name) {
			rep.Refused = fakeRefusal
			rep.Excess = engine.Estimate{Mean: math.NaN(), SE: math.NaN()}
			continue
		}
		rep.Params = solvers.Params{Iters: f.points, Batch: 100, Clip: 2, Sigma: 0.1, Step: 1, Prescribed: true, GradEvals: fakeEvals(f.points)}
		for trial := 0; trial < rs.Trials; trial++ {
			tr := engine.TrialResult{Trial: trial, Budget: budget, Params: rep.Params, Events: events}
			for j := 0; j <= f.points; j++ {
				if err := set.Gate.Wait(ctx); err != nil {
					return nil, err
				}
				if f.hold != nil && si == f.holdSolver && trial == f.holdTrial && j == f.holdAt {
					select {
					case <-f.hold:
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}
				if f.stop != nil && f.stopMid > 0 && done == f.stopAfter && j == f.stopMid {
					return nil, f.stop
				}
				ex := fakeExcess(si, trial, j)
				sp := ledger.Cost{Rho: spent.Rho * float64(j) / float64(f.points)}
				if j == f.points { // an accounted run charges its event at the end
					sp.Eps, sp.Delta = spent.Eps, spent.Delta
				}
				var hist [oracle.HistBins]int
				hist[16], hist[17], hist[18], hist[19], hist[20] = 5, 30, 40, 18, 7 // 10⁰ … 10¹·²⁵
				phase := 0
				if name == "localized" { // a multi-phase solver: two checkpoints a phase
					phase = 1 + j/2
				}
				mb.Put(engine.Progress{Solver: name, Trial: trial, Iter: j, Iters: f.points, Phase: phase, GradEvals: fakeEvals(j), Excess: ex, Spent: sp,
					Batch: oracle.BatchStats{Size: 100, Threshold: fakeThreshold(name, rs, j), Clipped: 25, Hist: hist}, Total: total})
				tr.Trace = append(tr.Trace, engine.TracePoint{Iter: j, GradEvals: fakeEvals(j), Excess: ex})
			}
			tr.Excess, tr.Spent, tr.GradEvals = fakeExcess(si, trial, f.points), spent, fakeEvals(f.points)
			rep.Trials = append(rep.Trials, tr)
			done++
			mb.Put(engine.Progress{Solver: name, Trial: trial, Iter: f.points, Iters: f.points, GradEvals: fakeEvals(f.points),
				Excess: tr.Excess, Spent: budget, Done: true, TrialsDone: done, Total: total})
			if f.stop != nil && f.stopMid == 0 && done == f.stopAfter {
				return nil, f.stop
			}
		}
		for j := 0; j <= f.points; j++ {
			var s float64
			for _, tr := range rep.Trials {
				s += tr.Trace[j].Excess
			}
			rep.Trace = append(rep.Trace, engine.TracePoint{Iter: j, GradEvals: fakeEvals(j), Excess: s / float64(len(rep.Trials))})
		}
		rep.Excess = engine.Estimate{Mean: rep.Trace[f.points].Excess, N: rs.Trials}
	}
	return c, nil
}

// sweep reports excess risk 2/√n for every solver at every grid point,
// with the real bounds there; lipschitz-dpsgd refuses at every point.
func (f *fakeRunner) sweep(ctx context.Context, r spec.Resolved, sw engine.SweepSpec, set *engine.Settings) (*engine.SweepReport, error) {
	f.record(ctx)
	f.mu.Lock()
	f.sweeps++
	f.mu.Unlock()
	mb := set.Progress
	names := sw.Solvers
	if len(names) == 0 {
		names = []string{r.Solver.Name()}
	}
	rep := &engine.SweepReport{Sweep: sw, Solvers: names, PrescribedClip: math.NaN()}
	// A clipping sweep: the engine's default grid, 10⁻⁴ to 1 times the
	// prescribed C, and a U-shaped excess risk with its minimum at C/300.
	var cb float64
	if sw.Param == spec.SweepClip {
		pr, err := engine.Prescribe(ctx, r)
		if err != nil {
			return nil, err
		}
		rep.PrescribedClip, rep.NoiseOff = pr.Params.Clip, true
		if sw.From == 0 {
			sw.From, sw.To, sw.Points = pr.Params.Clip*1e-4, pr.Params.Clip, engine.DefaultClipPoints
			rep.Sweep = sw
		}
		cb = pr.Params.Clip / 300
	}
	grid := sw.Grid()
	for i, v := range grid {
		if err := set.Gate.Wait(ctx); err != nil {
			return nil, err
		}
		at, err := r.At(sw.Param, v)
		if err != nil {
			return nil, err
		}
		pr, err := engine.Prescribe(ctx, at)
		if err != nil {
			return nil, err
		}
		p := engine.SweepPoint{Value: v}
		for _, name := range names {
			rep := &engine.Report{Spec: at.Spec, Solver: name, Bounds: pr.Bounds, Excess: engine.Estimate{Mean: 2 / math.Sqrt(v)}, W0: pr.W0}
			if name == at.Spec.Solver {
				rep.Certified = pr.Certified
			}
			rep.Clipped, rep.NoiseOff = math.NaN(), engine.Estimate{Mean: math.NaN(), SE: math.NaN()}
			if cb > 0 {
				rep.Excess = engine.Estimate{Mean: 0.002 * (v/cb + cb/v), SE: 1e-4}
				rep.NoiseOff = engine.Estimate{Mean: 0.002*cb/v + 0.001, SE: 1e-4}
				rep.Clipped = 1 / (1 + v/cb)
			}
			if name == "lipschitz-dpsgd" {
				rep.Refused, rep.Excess = fakeRefusal, engine.Estimate{Mean: math.NaN(), SE: math.NaN()}
			}
			p.Reports = append(p.Reports, rep)
		}
		rep.Points = append(rep.Points, p)
		mb.Put(engine.Progress{Solver: names[0], Point: i, Done: true, TrialsDone: i + 1, Total: len(grid), Excess: p.Reports[0].Excess.Mean})
		if f.stop != nil && i+1 == f.stopAfter {
			return nil, f.stop
		}
	}
	if cb > 0 {
		best := rep.Points[0]
		for _, p := range rep.Points {
			if p.Reports[0].Excess.Mean < best.Reports[0].Excess.Mean {
				best = p
			}
		}
		rep.Best = []engine.BestPoint{{Solver: names[0], Value: best.Value, Excess: best.Reports[0].Excess}}
		return rep, nil
	}
	for _, name := range names {
		rep.Slopes = append(rep.Slopes, engine.Slope{Solver: name, Slope: -0.5, Lo: -0.5, Hi: -0.5, Points: len(grid)})
	}
	for _, b := range rep.Points[0].Reports[0].Bounds {
		rep.Bounds = append(rep.Bounds, engine.BoundSlope{ID: b.ID, Kind: b.Kind, Title: b.Title, Slope: b.RateN})
	}
	return rep, nil
}

// pump runs cmd the way Bubble Tea does — in goroutines, batches
// expanded — and feeds every resulting message to m.Update on the test's
// goroutine, launching the commands Update returns, until cond holds. It
// waits for events, however long they take: it fails the test when no
// command is in flight and no message is queued while cond does not hold
// (nothing can make it hold), and otherwise only shortly before the test
// binary's own deadline (hangGuard), to show the screen of a test that
// would hang.
func pump(t testing.TB, m *Model, cmd tea.Cmd, cond func() bool) {
	t.Helper()
	// One message queue per model, as in a program: commands launched by
	// an earlier pump still deliver to it.
	pumpMu.Lock()
	q, ok := pumpQueues[m]
	if !ok {
		q = &pumpQueue{msgs: make(chan tea.Msg, 4096)}
		pumpQueues[m] = q
	}
	pumpMu.Unlock()
	var launch func(tea.Cmd)
	launch = func(c tea.Cmd) {
		if c == nil {
			return
		}
		q.inFlight.Add(1)
		go func() {
			msg := c()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, c := range b {
					launch(c)
				}
				msg = nil
			}
			// Every command ends with an item on the queue (nil for no
			// message), after which it is no longer in flight.
			q.msgs <- msg
			q.inFlight.Add(-1)
		}()
	}
	launch(cmd)
	guard := hangGuard(t)
	deadline := time.After(guard)
	for !cond() {
		if q.inFlight.Load() == 0 && len(q.msgs) == 0 {
			t.Fatalf("condition not met, and no command is left in flight; screen:\n%s", stripANSI(m.render()))
		}
		select {
		case msg := <-q.msgs:
			if msg != nil {
				_, c := m.Update(msg)
				launch(c)
			}
		case <-deadline:
			t.Fatalf("condition not met within %v (a guard against a hang, before the test binary's deadline); screen:\n%s", guard, stripANSI(m.render()))
		}
	}
}

// hangGuard is how long a test may wait for an event before it is taken
// for hung: until 30 s before the test binary's deadline (go test
// -timeout), or 10 minutes without one. It ends a test that would hang
// with its own message; no assertion reads the time.
func hangGuard(t testing.TB) time.Duration {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if at, ok := d.Deadline(); ok {
			return max(time.Until(at)-30*time.Second, time.Second)
		}
	}
	return 10 * time.Minute
}

// pumpQueue is a model's message queue and the number of its commands in
// flight.
type pumpQueue struct {
	msgs     chan tea.Msg
	inFlight atomic.Int64
}

var (
	pumpMu     sync.Mutex
	pumpQueues = map[*Model]*pumpQueue{}
)

// press is a key press as Bubble Tea v2 delivers it.
func press(s string) tea.KeyPressMsg {
	switch s {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// fixedClock is a clock that advances by step at every reading.
type fixedClock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func (c *fixedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

// testOpts are the options of a test explorer: the fake runner, a clock
// that advances by step at every reading, a temporary export directory,
// live mode off (the tests of live mode turn it on).
func testOpts(t testing.TB, fr *fakeRunner, step time.Duration) Options {
	clock := &fixedClock{t: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), step: step}
	return Options{Runner: fr, now: clock.Now, ExportDir: t.TempDir(), Manual: true}
}

// linregT is heavy-tailed linear regression (multivariate t, ν = 10): the
// fake runner's solvers straddle its start line F(w₀) − F* ≈ 0.156 (acsa
// and sgd under it, klz-gd and dp-sgd over it); without a declared L_f,
// lipschitz-dpsgd refuses.
var linregT = spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, N: 200000, Trials: 8}

// newTestModel is the explorer on a fake runner, sized w×h, on spec (nil:
// the first preset), with its prescription computed.
func newTestModel(t testing.TB, fr *fakeRunner, s *spec.Spec, w, h int) *Model {
	t.Helper()
	return newTestModelOpts(t, testOpts(t, fr, 100*time.Millisecond), s, w, h)
}

// newEngineModel is newTestModel on the real engine, in manual mode, with
// a clock that steps 100 ms a reading from 2024-01-02 03:04:05 UTC and
// exports to a temporary directory.
func newEngineModel(t testing.TB, s *spec.Spec, w, h int) *Model {
	t.Helper()
	clock := &fixedClock{t: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), step: 100 * time.Millisecond}
	return newTestModelOpts(t, Options{Runner: backend.Local{}, now: clock.Now, ExportDir: t.TempDir(), Manual: true}, s, w, h)
}

func newTestModelOpts(t testing.TB, opts Options, s *spec.Spec, w, h int) *Model {
	t.Helper()
	m, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	cmd := m.initCmd
	if s != nil {
		// A Spec of its own: no preset's caption.
		c, err := m.form.SetSpec(*s)
		if err != nil {
			t.Fatal(err)
		}
		cmd = tea.Batch(cmd, c)
		m.setPreset(-1)
	}
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	pump(t, m, cmd, func() bool { return prescReady(m) })
	if p := m.chartScreen().Presc; p.Err != "" {
		t.Fatalf("prescription: %s", p.Err)
	}
	return m
}

// chartScreen is the explorer's chart screen.
func (m *Model) chartScreen() *screens.ChartScreen { return m.screens[0].screen.(*screens.ChartScreen) }

// sweepScreen is the explorer's sweep screen over n.
func (m *Model) sweepScreen() *screens.RateSweepScreen {
	return m.screens[m.screenIndex(screens.SweepNKind)].screen.(*screens.RateSweepScreen)
}

// clipScreen is the explorer's clipping screen.
func (m *Model) clipScreen() *screens.ClipScreen {
	return m.screens[m.screenIndex(screens.ClipKind)].screen.(*screens.ClipScreen)
}

// shownKind is the kind of the screen shown.
func (m *Model) shownKind() runs.ScreenKind { return m.screens[m.active].def.Kind }

// doneOf reports whether the current run is one of screen kind k's that
// settled, done.
func doneOf(m *Model, k runs.ScreenKind) bool {
	return settled(m) && m.run().Family == k && m.run().Phase == runs.Done
}

// prescReady reports whether the components have the prescription of the
// form's current Spec (or its error).
func prescReady(m *Model) bool {
	p := m.chartScreen().Presc
	return !p.Pending && (p.Prescription != nil || p.Err != "") && p.Key == runs.PrescKey(m.form.Resolved())
}

// settled reports whether the current run ended and every progress value
// reached it (the result can overtake the progress reader's last batch,
// which then arrives after it).
func settled(m *Model) bool {
	r := m.run()
	return r != nil && !r.Active() && r.Drained
}

// run is the explorer's current run (nil: none).
func (m *Model) run() *runs.Run { return m.runs.Current() }

// formKeys sends key presses for the form, each pumped until the form's
// Spec reached the root and its prescription the components.
func formKeys(t testing.TB, m *Model, ks ...string) {
	t.Helper()
	for _, k := range ks {
		_, cmd := m.Update(press(k))
		pump(t, m, cmd, func() bool { return m.specRev == m.form.Rev() && prescReady(m) })
	}
}

// keyUntil sends one key press and pumps until cond holds.
func keyUntil(t testing.TB, m *Model, k string, cond func() bool) {
	t.Helper()
	_, cmd := m.Update(press(k))
	pump(t, m, cmd, cond)
}

// screenText is the rendered screen without styles.
func screenText(m *Model) string { return stripANSI(m.render()) }

func stripANSI(s string) string { return style.StripANSI(s) }

// stateRow is the status bar's first row on screen (its state line).
func (m *Model) stateRow() int { return m.height - m.statusRows }
