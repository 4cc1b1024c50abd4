package tui

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"dpso/internal/engine"
	"dpso/internal/plot"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// tuneSpec is the configuration of `dpso tune
// --scenario linreg-t --class smooth-sc --n 10000 --eps 1`: its search
// takes about a second on the real engine.
var tuneSpec = spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, N: 10000, Eps: 1}

// TestTuneIsTheCLITune: g shows the tuning screen and runs, on the real
// engine, the search `dpso tune` runs for the form; its reproduce line is
// that command, and e exports exactly the document its --json prints —
// computed here independently, as the command computes it: the line's
// Spec resolved, engine.Tune with every default of the search and the
// references on (a scenario). The screen shows the three runs, what
// each is, the tuned run's total with the tuning overhead on its own
// line, and the panel the candidates' scores as non-private diagnostics.
func TestTuneIsTheCLITune(t *testing.T) {
	s := tuneSpec
	m := newEngineModel(t, &s, 132, 42)
	keyUntil(t, m, "g", func() bool { return doneOf(m, screens.TuneKind) || settled(m) })
	if m.shownKind() != screens.TuneKind || !doneOf(m, screens.TuneKind) {
		t.Fatalf("g: screen %s, run %+v", m.shownKind(), m.run())
	}
	const line = "dpso tune --scenario linreg-t --class smooth-sc" // n = 10⁴ and ε = 1 are the defaults
	if got := m.status.Reproduce(); got != line {
		t.Errorf("reproduce line %q, want %q", got, line)
	}

	// What `dpso tune` computes for the line.
	res, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := engine.Tune(context.Background(), res, engine.TuneSpec{References: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := report.MarshalJSON(report.Tune(rep))
	if err != nil {
		t.Fatal(err)
	}
	exportAndWait(t, m)
	if got := exportedJSON(t, m, "tune-clipped-sgd"); got != string(want) {
		t.Errorf("the tuning screen's export is not `%s --json`'s document:\n got %s\nwant %s", line, got, want)
	}
	// Beside it, the tuning figure (plot.Tune) of the same search.
	var fig bytes.Buffer
	if err := plot.WriteTune(&fig, plot.SVG, rep); err != nil {
		t.Fatal(err)
	}
	svgs, _ := filepath.Glob(filepath.Join(m.opts.ExportDir, "dpso-*-tune-clipped-sgd.svg"))
	pngs, _ := filepath.Glob(filepath.Join(m.opts.ExportDir, "dpso-*-tune-clipped-sgd.png"))
	if len(svgs) != 1 || len(pngs) != 1 {
		t.Fatalf("the tuning screen's export wrote figures %v %v, want one SVG and one PNG", svgs, pngs)
	}
	if got, err := os.ReadFile(svgs[0]); err != nil || !bytes.Equal(got, fig.Bytes()) {
		t.Errorf("the exported SVG is not plot.Tune's figure of the search (%v)", err)
	}

	// The three runs with what each is, as numbers the command prints.
	ts := rep.Solvers[0]
	pv := rep.Privacy
	v := screenText(m)
	for _, want := range []string{
		"✓ done tuning",
		"prescribed", "tuned", "oracle-tuned",
		screens.EstText(ts.Prescribed.Excess), screens.EstText(ts.Tuned.Excess), screens.EstText(ts.Oracle.Excess),
		"the theorem's constants",
		"private, tuning included: the whole search is (" + common.FmtNum(pv.Eps) + ", " + common.FmtNum(pv.Target.Delta) + ")-DP",
		"one candidate: ρ_Q = " + common.FmtNum(pv.CandidateRho) + ", ε' = " + common.FmtNum(pv.CandidateEps) + " alone",
		"the whole search's ε' is " + common.FmtNum(pv.Overhead) + " above one candidate's (the choice among K",
		"NOT private, not attainable",
		"w₀ " + common.FmtNum(rep.W0.Mean),
		"The search: candidates and scores",
		"Released: each trial's chosen candidate",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the tuning screen lacks %q:\n%s", want, v)
		}
	}
	// The panel (it scrolls): trial 0's candidates with their scores,
	// labelled as the non-private diagnostics they are.
	panel := stripANSI(strings.Join(searchPanel(m).Lines(), " "))
	tr := ts.Tuned.Trials[0]
	for _, want := range []string{
		"Trial 0's search: NOT private (diagnostics)",
		"K = " + itoa(tr.K) + " candidates drawn",
		common.FmtNum(tr.Scores[tr.Chosen]) + " · " + common.FmtNum(ts.Oracle.Points[tr.Tried[tr.Chosen]].Mean) + " ◀ released",
		"K and the other scores are not covered by its guarantee",
		"The accounting",
	} {
		if !strings.Contains(panel, want) {
			t.Errorf("the search panel lacks %q:\n%s", want, panel)
		}
	}
	// The done-when: the tuned run at least 10× below the prescribed one,
	// the whole search within the exact (ε', δ) of ρ = ½.
	if f := ts.Prescribed.Excess.Mean / ts.Tuned.Excess.Mean; f < 10 || !(pv.Eps <= pv.Target.EpsDelta) || pv.Target.EpsDelta > 4.37718+1e-5 {
		t.Errorf("tuned %g vs prescribed %g (%g×) at ε' = %g of %g", ts.Tuned.Excess.Mean, ts.Prescribed.Excess.Mean, f, pv.Eps, pv.Target.EpsDelta)
	}
	// The privacy panel states the search as a whole.
	if !strings.Contains(v, "search ") || !strings.Contains(v, "ε' "+common.FmtNum(pv.Eps)+" of "+common.FmtNum(pv.Target.EpsDelta)) {
		t.Errorf("the privacy panel does not state the search's ε':\n%s", v)
	}

	// g again returns to the chart.
	keyUntil(t, m, "g", func() bool { return m.active == 0 })
}

// TestTuneLeavingCancels: leaving the tuning screen (esc) cancels a search
// in flight, as Ctrl-C does; a run of another screen goes on when the
// tuning screen is merely passed through.
func TestTuneLeavingCancels(t *testing.T) {
	fr := &fakeRunner{points: 3, hold: make(chan struct{})}
	defer close(fr.hold)
	s := tuneSpec
	m := newTestModel(t, fr, &s, 132, 42)
	keyUntil(t, m, "g", func() bool {
		r := m.run()
		return r != nil && r.Family == screens.TuneKind && r.Active() && fr.calls() == 1
	})
	search := m.run()
	ctx := fr.lastCtx()
	keyUntil(t, m, "esc", func() bool { return m.active == 0 })
	if search.Phase != runs.Cancelled {
		t.Errorf("esc left the search %v", search.Phase)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second): // a guard against a hang, not an assertion on time
		t.Fatal("the search's context was not cancelled")
	}
	if !strings.Contains(screenText(m), "○ ready") && !strings.Contains(screenText(m), "cancelled") {
		t.Errorf("after esc:\n%s", screenText(m))
	}

	// Back on the tuning screen, a new search starts; Ctrl-C quits and
	// cancels it.
	keyUntil(t, m, "g", func() bool {
		r := m.run()
		return r != nil && r.Family == screens.TuneKind && r.Active() && fr.calls() == 2
	})
	ctx = fr.lastCtx()
	m.Update(press("ctrl+c"))
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-C did not cancel the search")
	}
}

// calls is how many runs the fake runner was asked for.
func (f *fakeRunner) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.ctxs)
}

// lastCtx is the context of the latest run asked for.
func (f *fakeRunner) lastCtx() context.Context {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ctxs[len(f.ctxs)-1]
}

// TestTuneRefusesWithoutABudget: where a private search cannot run (ε =
// ∞, a fixed clip threshold), the screen says why and asks for no run, r
// refuses on the status bar, and e says why there is nothing to export.
func TestTuneRefusesWithoutABudget(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*spec.Spec)
		why  string
	}{
		{"ε = ∞", func(s *spec.Spec) { s.Eps = math.Inf(1) }, "a private search needs a finite budget"},
		{"a fixed C", func(s *spec.Spec) { s.Clip = 2 }, "a search sets C, the step and T from its grid"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fr := &fakeRunner{points: 3}
			s := tuneSpec
			c.edit(&s)
			m := newTestModel(t, fr, &s, 132, 42)
			keyUntil(t, m, "g", func() bool { return m.shownKind() == screens.TuneKind })
			if v := screenText(m); !strings.Contains(v, c.why) || m.run() != nil || fr.tunes != 0 {
				t.Errorf("g: run %+v, %d searches, screen:\n%s", m.run(), fr.tunes, v)
			}
			keyUntil(t, m, "r", func() bool { return m.status.Text != "" })
			if !m.status.Err || !strings.Contains(m.status.Text, c.why) || m.run() != nil {
				t.Errorf("r: status %q (error %v), run %+v", m.status.Text, m.status.Err, m.run())
			}
			keyUntil(t, m, "e", func() bool { return m.status.Text != "" })
			if !strings.HasPrefix(m.status.Text, "nothing to export: ") {
				t.Errorf("e: status %q", m.status.Text)
			}
		})
	}
}

// TestGoldenTune: the tuning screen at 80×24, 120×32 and 132×42, after a search on
// the real engine (seeded: the same numbers every time; one worker, so
// that the clipping panel's latest batch is the same trial's every time).
func TestGoldenTune(t *testing.T) {
	for _, sz := range wordSizes {
		s := tuneSpec
		s.Workers = 1
		m := newEngineModel(t, &s, sz[0], sz[1])
		keyUntil(t, m, "g", func() bool { return doneOf(m, screens.TuneKind) })
		golden(t, "screen-tune-"+itoa(sz[0])+"x"+itoa(sz[1]), m.render())
		if sz[0] == 80 {
			// The compact layout's second side tab: the search's privacy.
			keyUntil(t, m, "t", func() bool { return true })
			golden(t, "screen-tune-privacy-"+itoa(sz[0])+"x"+itoa(sz[1]), m.render())
		}
	}
}

// searchPanel is the tuning screen's panel (the screen shown).
func searchPanel(m *Model) *screens.TunePanel {
	_, p := m.screens[m.active].screen.Panel()
	return p.(*screens.TunePanel)
}

// oracleHold is the program's Runner (backend.Local) with each search's
// oracle-tuned reference held: the search hands its report before the
// reference (engine.Settings.Searched), then waits until release is
// closed or the run is cancelled. held receives each held search's
// context.
type oracleHold struct {
	release chan struct{}
	held    chan context.Context
	// coarse holds the reference after its coarse grid
	// (engine.Settings.Coarse) instead of before it; private holds the
	// search at its first report, before the prescribed runs.
	coarse, private bool
}

func newOracleHold() *oracleHold {
	return &oracleHold{release: make(chan struct{}), held: make(chan context.Context, 4)}
}

func (h *oracleHold) Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error) {
	return backend.Local{}.Prescribe(ctx, r)
}

func (h *oracleHold) Run(ctx context.Context, c backend.Call, set *engine.Settings) (backend.Result, error) {
	if c.Kind == backend.Tune && set != nil && set.Searched != nil {
		in, searched := *set, set.Searched
		if h.coarse {
			searched = set.Coarse
		}
		hold := func(rep *engine.TuneReport) {
			searched(rep)
			if !h.coarse && (rep.Solvers[0].Prescribed == nil) != h.private {
				return
			}
			h.held <- ctx
			select {
			case <-h.release:
			case <-ctx.Done():
			}
		}
		if h.coarse {
			in.Coarse = hold
		} else {
			in.Searched = hold
		}
		set = &in
	}
	return backend.Local{}.Run(ctx, c, set)
}

// newHeldModel is newEngineModel on the real engine with the searches'
// oracle-tuned references held (oracleHold).
func newHeldModel(t *testing.T, h *oracleHold, s *spec.Spec, w, ht int) *Model {
	clock := &fixedClock{t: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), step: 100 * time.Millisecond}
	return newTestModelOpts(t, Options{Runner: h, now: clock.Now, ExportDir: t.TempDir(), Manual: true}, s, w, ht)
}

// TestTuneShowsThePrivateResultFirst: the tuning screen shows the private
// tuned run and the prescribed one as soon as the search has them, with
// the oracle-tuned reference "computing…" (its grid points counted) while
// the reference is held; released, the screen ends as TestGoldenTune's
// (the same search, its reference in place).
func TestTuneShowsThePrivateResultFirst(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {132, 42}} {
		t.Run(itoa(sz[0])+"x"+itoa(sz[1]), func(t *testing.T) {
			h := newOracleHold()
			s := tuneSpec
			s.Workers = 1
			m := newHeldModel(t, h, &s, sz[0], sz[1])
			keyUntil(t, m, "g", func() bool {
				r := m.run()
				return r != nil && r.Family == screens.TuneKind && r.Searched != nil && r.Searched.Solvers[0].Prescribed != nil
			})
			r := m.run()
			if !r.Active() || r.Tune != nil {
				t.Fatalf("the search ended with its reference held: %v", r.Phase)
			}
			ts := r.Searched.Solvers[0]
			if ts.Oracle != nil || ts.Prescribed == nil {
				t.Fatalf("the early report: oracle %v, prescribed %v", ts.Oracle, ts.Prescribed)
			}
			runs := 0
			for _, tr := range ts.Tuned.Trials {
				runs += len(tr.Grid)
			}
			v := screenText(m)
			for _, want := range []string{
				"prescribed", "tuned", "oracle-tuned",
				screens.EstText(ts.Prescribed.Excess), screens.EstText(ts.Tuned.Excess),
			} {
				if !strings.Contains(v, want) {
					t.Errorf("with the reference held, the tuning screen lacks %q:\n%s", want, v)
				}
			}
			wait := "computing… (0 of " + itoa(runs) + " grid-point runs, 5 trials)"
			if sz[0] == 80 {
				wait = "oracle-tuned computing… (0 of " + itoa(runs) + ")"
			}
			if !strings.Contains(v, wait) {
				t.Errorf("with the reference held, the tuning screen lacks %q:\n%s", wait, v)
			}
			if strings.Contains(v, "NOT private, not attainable: the best of 0") || strings.Contains(v, "✓ done tuning") {
				t.Errorf("with the reference held:\n%s", v)
			}
			close(h.release)
			pump(t, m, nil, func() bool { return doneOf(m, screens.TuneKind) })
			// TestGoldenTune's screen, but for the status bar's elapsed
			// time: it reads the test's clock, which steps at every
			// reading, and the early report is one more frame.
			want, err := os.ReadFile(filepath.Join("testdata", "screen-tune-"+itoa(sz[0])+"x"+itoa(sz[1])+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(stripANSI(m.render()), "\n")
			for i, l := range lines {
				lines[i] = strings.TrimRight(l, " ")
			}
			elapsed := regexp.MustCompile(` · [0-9.]+ s `)
			got := elapsed.ReplaceAllString(strings.Join(lines, "\n")+"\n", " · (elapsed) s ")
			if w := elapsed.ReplaceAllString(string(want), " · (elapsed) s "); got != w || !strings.Contains(w, "(elapsed)") {
				t.Errorf("the finished screen is not TestGoldenTune's:\n%s\nwant:\n%s", got, w)
			}
		})
	}
}

// TestTuneShowsTheSearchFirst: the tuning screen shows the private tuned
// run as soon as the searches are done, the prescribed run and the
// oracle-tuned reference "computing…" while the prescribed runs are held.
func TestTuneShowsTheSearchFirst(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {132, 42}} {
		t.Run(itoa(sz[0])+"x"+itoa(sz[1]), func(t *testing.T) {
			h := newOracleHold()
			h.private = true
			s := tuneSpec
			m := newHeldModel(t, h, &s, sz[0], sz[1])
			keyUntil(t, m, "g", func() bool {
				r := m.run()
				return r != nil && r.Family == screens.TuneKind && r.Searched != nil
			})
			<-h.held
			ts := m.run().Searched.Solvers[0]
			if ts.Prescribed != nil || ts.Oracle != nil {
				t.Fatalf("the first report: prescribed %v, oracle %v", ts.Prescribed, ts.Oracle)
			}
			v := screenText(m)
			for _, want := range []string{"tuned", screens.EstText(ts.Tuned.Excess), "prescribed", "oracle-tuned", "computing…"} {
				if !strings.Contains(v, want) {
					t.Errorf("with the prescribed runs held, the tuning screen lacks %q:\n%s", want, v)
				}
			}
			close(h.release)
			pump(t, m, nil, func() bool { return doneOf(m, screens.TuneKind) })
			if r := m.run(); r.Tune == nil || r.Tune.Solvers[0].Prescribed == nil || r.Tune.Solvers[0].Oracle == nil {
				t.Errorf("the finished search lacks a reference")
			}
		})
	}
}

// TestTuneShowsTheCoarseReference: while the oracle-tuned reference runs
// the rest of its grid, the tuning screen shows the reference of the
// coarse grid, labelled as such ("coarse oracle", the best of how many of
// the grid's points), and the grid-point runs counted; released, the
// screen ends as TestGoldenTune's.
func TestTuneShowsTheCoarseReference(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {132, 42}} {
		t.Run(itoa(sz[0])+"x"+itoa(sz[1]), func(t *testing.T) {
			h := newOracleHold()
			h.coarse = true
			s := tuneSpec
			m := newHeldModel(t, h, &s, sz[0], sz[1])
			keyUntil(t, m, "g", func() bool {
				r := m.run()
				return r != nil && r.Family == screens.TuneKind && r.Searched != nil && r.Searched.Solvers[0].Oracle != nil
			})
			<-h.held
			r := m.run()
			if !r.Active() || r.Tune != nil {
				t.Fatalf("the search ended with its reference held: %v", r.Phase)
			}
			o := r.Searched.Solvers[0].Oracle
			if !o.Coarse || o.Best < 0 || len(o.Ran) == 0 || len(o.Ran) >= len(o.Points) {
				t.Fatalf("the early reference: coarse %v, best %d, %d of %d points run", o.Coarse, o.Best, len(o.Ran), len(o.Points))
			}
			v := screenText(m)
			counts := fmt.Sprintf("the best of the coarse grid's %d of %d points", len(o.Ran), len(o.Points))
			if sz[0] == 80 {
				counts = fmt.Sprintf("best of %d of %d points;", len(o.Ran), len(o.Points))
			}
			for _, want := range []string{"coarse oracle", screens.EstText(o.Excess), counts, "computing… ("} {
				if !strings.Contains(v, want) {
					t.Errorf("with the coarse reference, the tuning screen lacks %q:\n%s", want, v)
				}
			}
			if regexp.MustCompile(`oracle-tuned +(█|C )`).MatchString(v) || strings.Contains(v, "✓ done tuning") {
				t.Errorf("the coarse reference is shown as the whole grid's:\n%s", v)
			}
			close(h.release)
			pump(t, m, nil, func() bool { return doneOf(m, screens.TuneKind) })
			if v := screenText(m); strings.Contains(v, "coarse") || !strings.Contains(v, "oracle-tuned") {
				t.Errorf("the finished screen still shows the coarse reference:\n%s", v)
			}
		})
	}
}

// TestTuneLeavingCancelsTheReference: leaving the tuning screen (esc)
// while the private result is shown and the oracle-tuned reference
// computes cancels the reference, as Ctrl-C does.
func TestTuneLeavingCancelsTheReference(t *testing.T) {
	h := newOracleHold()
	defer close(h.release)
	s := tuneSpec
	m := newHeldModel(t, h, &s, 132, 42)
	shown := func() bool {
		r := m.run()
		return r != nil && r.Family == screens.TuneKind && r.Active() && r.Searched != nil && strings.Contains(screenText(m), "computing… (")
	}
	keyUntil(t, m, "g", shown)
	ctx := <-h.held
	search := m.run()
	keyUntil(t, m, "esc", func() bool { return m.active == 0 })
	if search.Phase != runs.Cancelled {
		t.Errorf("esc left the search %v", search.Phase)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second): // a guard against a hang, not an assertion on time
		t.Fatal("esc did not cancel the oracle-tuned reference")
	}

	keyUntil(t, m, "g", shown)
	ctx = <-h.held
	m.Update(press("ctrl+c"))
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-C did not cancel the oracle-tuned reference")
	}
}
