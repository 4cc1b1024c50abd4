package tui

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers/ledger"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/style"
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
	keyUntil(t, m, "g", func() bool { return doneOf(m, tuneKind) || settled(m) })
	if m.shownKind() != tuneKind || !doneOf(m, tuneKind) {
		t.Fatalf("g: screen %s, run %+v", m.shownKind(), m.run())
	}
	const line = "dpso tune --scenario linreg-t --class smooth-sc" // n = 10⁴ and ε = 1 are the defaults
	if got := m.status.reproduce(); got != line {
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

	// The three runs with what each is, as numbers the command prints.
	ts := rep.Solvers[0]
	pv := rep.Privacy
	v := screenText(m)
	for _, want := range []string{
		"✓ done tuning",
		"prescribed", "tuned", "oracle-tuned",
		estText(ts.Prescribed.Excess), estText(ts.Tuned.Excess), estText(ts.Oracle.Excess),
		"the theorem's constants",
		"private, tuning included: the whole search is (" + fmtNum(pv.Eps) + ", " + fmtNum(pv.Target.Delta) + ")-DP",
		"one candidate: ρ_Q = " + fmtNum(pv.CandidateRho) + ", ε' = " + fmtNum(pv.CandidateEps) + " alone",
		"tuning overhead: + ε' = " + fmtNum(pv.Overhead) + " (the choice among K",
		"NOT private, not attainable",
		"w₀ " + fmtNum(rep.W0.Mean),
		"The search: candidates and scores",
		"Released: each trial's chosen candidate",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the tuning screen lacks %q:\n%s", want, v)
		}
	}
	// The panel (it scrolls): trial 0's candidates with their scores,
	// labelled as the non-private diagnostics they are.
	panel := stripANSI(strings.Join(m.screens[m.active].screen.(*tuneScreen).panel.lines(), " "))
	tr := ts.Tuned.Trials[0]
	for _, want := range []string{
		"Trial 0's search: NOT private (diagnostics)",
		"K = " + itoa(tr.K) + " candidates drawn",
		fmtNum(tr.Scores[tr.Chosen]) + " · " + fmtNum(ts.Oracle.Points[tr.Tried[tr.Chosen]].Mean) + " ◀ released",
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
	if !strings.Contains(v, "search ") || !strings.Contains(v, "ε' "+fmtNum(pv.Eps)+" of "+fmtNum(pv.Target.EpsDelta)) {
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
	keyUntil(t, m, "g", func() bool { r := m.run(); return r != nil && r.family == tuneKind && r.active() && fr.calls() == 1 })
	search := m.run()
	ctx := fr.lastCtx()
	keyUntil(t, m, "esc", func() bool { return m.active == 0 })
	if search.phase != phaseCancelled {
		t.Errorf("esc left the search %v", search.phase)
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
	keyUntil(t, m, "g", func() bool { r := m.run(); return r != nil && r.family == tuneKind && r.active() && fr.calls() == 2 })
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
			keyUntil(t, m, "g", func() bool { return m.shownKind() == tuneKind })
			if v := screenText(m); !strings.Contains(v, c.why) || m.run() != nil || fr.tunes != 0 {
				t.Errorf("g: run %+v, %d searches, screen:\n%s", m.run(), fr.tunes, v)
			}
			keyUntil(t, m, "r", func() bool { return m.status.text != "" })
			if !m.status.err || !strings.Contains(m.status.text, c.why) || m.run() != nil {
				t.Errorf("r: status %q (error %v), run %+v", m.status.text, m.status.err, m.run())
			}
			keyUntil(t, m, "e", func() bool { return m.status.text != "" })
			if !strings.HasPrefix(m.status.text, "nothing to export: ") {
				t.Errorf("e: status %q", m.status.text)
			}
		})
	}
}

// TestGoldenTune: the tuning screen at 80×24 and 132×42, after a search on
// the real engine (seeded: the same numbers every time; one worker, so
// that the clipping panel's latest batch is the same trial's every time).
func TestGoldenTune(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {132, 42}} {
		s := tuneSpec
		s.Workers = 1
		m := newEngineModel(t, &s, sz[0], sz[1])
		keyUntil(t, m, "g", func() bool { return doneOf(m, tuneKind) })
		golden(t, "screen-tune-"+itoa(sz[0])+"x"+itoa(sz[1]), m.render())
		if sz[0] == 80 {
			// The compact layout's second side tab: the search's privacy.
			keyUntil(t, m, "t", func() bool { return true })
			golden(t, "screen-tune-privacy-"+itoa(sz[0])+"x"+itoa(sz[1]), m.render())
		}
	}
}

// TestTuneOnUserRowsComposes: on the user's rows the search runs without
// the references (dpso tune's default there), the screen says why they
// are absent and what the searches spent together, and the session's
// ledger composes the search with the other releases of the same file:
// the searches' (ε', δ) added to a run's ρ by basic composition.
func TestTuneOnUserRowsComposes(t *testing.T) {
	s := spec.Spec{Data: "../examples/linreg-t-d3.csv", Constants: "private", Holdout: 0.2, Rand: "seeded", Trials: 2}
	res := mustResolve(t, s)
	tj, why := tuneJob(res)
	if why != "" || tj.TuneSpec.References {
		t.Fatalf("the search on user rows: %q, references %v", why, tj.TuneSpec.References)
	}
	rep, err := engine.Tune(context.Background(), res, tj.TuneSpec, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := style.New(true, true)
	var lines []string
	for _, sec := range tuneSections(&st, rep, 84, false) {
		lines = append(lines, sec.lines...)
	}
	text := stripANSI(strings.Join(lines, " "))
	for _, want := range []string{
		"excess risk on your rows (log axis): a non-private diagnostic",
		"your rows: 2 searches (trials) read them: ε' = " + fmtNum(rep.Total.Eps),
		"held-out loss " + estText(rep.Solvers[0].Tuned.Holdout),
		"prescribed and oracle-tuned read your rows too",
		"ρ₀ = " + fmtNum(res.ConstantsRho()) + ")",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the tuning screen on user rows lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "oracle-tuned  C") || strings.Contains(text, "prescribed  C") {
		t.Errorf("a reference is shown although none ran:\n%s", text)
	}

	// The session: a run's ρ = ½ on the same file, then the search.
	var l sessionLedger
	l.add(&run{job: job{Call: backend.Call{Spec: res}}, id: 1, phase: phaseDone, Result: backend.Result{Comparison: &engine.Comparison{Reports: []*engine.Report{{Total: engine.PrivacyTotal{
		UserRows: true, Composition: spec.Composition{Releases: 1}, Spent: ledger.Cost{Rho: 0.5}, ConvDelta: 1e-5}}}}}})
	tj.Spec = res
	l.add(&run{id: 2, phase: phaseDone, job: tj, Result: backend.Result{Tune: rep}})
	want := fmt.Sprintf("this session: 2 calls made 3 releases of your rows: ρ = 0.5 zCDP plus (ε, δ) = (%s, %s) in all", fmtNum(rep.Total.Eps), fmtNum(rep.Total.Delta))
	if got := l.line(res.Spec.Data); !strings.HasPrefix(got, want) {
		t.Errorf("session line %q, want it to start %q", got, want)
	}
}
