package tui

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/chart"
	"dpso/tui/common"
	"dpso/tui/components/form"
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// The key messages the tests send are the ones Bubble Tea v2 delivers.
func TestKeyStrings(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"tab", "tab"}, {"shift+tab", "shift+tab"}, {"left", "left"}, {"right", "right"},
		{"enter", "enter"}, {"esc", "esc"}, {"space", "space"}, {"ctrl+c", "ctrl+c"}, {"r", "r"}, {"?", "?"},
	} {
		t.Run(c.in, func(t *testing.T) {
			if got := press(c.in).String(); got != c.want {
				t.Errorf("key(%q).String() = %q", c.in, got)
			}
		})
	}
}

var example1 = spec.Spec{Scenario: scenarios.Example1, Class: theory.SmoothConvex, N: 10000, Trials: 3}

// TestFormSteps: tab moves the focus; ← → step k, ε and n on their
// grids; an invalid value is refused with the Spec's own message on the
// field and the Spec is left unchanged.
func TestFormSteps(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 4}, &example1, 132, 42)
	f := m.form
	keys := func(ks ...string) { formKeys(t, m, ks...) }
	f.SetFocus(form.Class)
	keys("tab", "tab")
	if f.Focus() != form.K {
		t.Fatalf("after two tabs the focus is %d, want k", f.Focus())
	}
	keys("shift+tab", "down")
	if f.Focus() != form.K {
		t.Fatalf("shift+tab then ↓: focus %d, want k", f.Focus())
	}
	// k: 2 → 2.5 → 3 → 4 → 6 → 8 → 16 → ∞ (example1: L_f finite, k = ∞
	// allowed), the grid the package doc names.
	kGrid := []float64{2, 2.5, 3, 4, 6, 8, 16, math.Inf(1)}
	var ks []float64
	for range kGrid {
		ks = append(ks, f.Resolved().Spec.K)
		keys("right")
	}
	if want := kGrid; !slicesEqual(ks, want) {
		t.Errorf("k steps %v, want %v", ks, want)
	}
	if f.Resolved().Spec.K != math.Inf(1) {
		t.Errorf("k after the grid = %v, want ∞", f.Resolved().Spec.K)
	}
	keys("right") // past the end of the grid: a note, no change
	if note := strings.Join(strings.Fields(stripANSI(f.View())), " "); f.Resolved().Spec.K != math.Inf(1) || !strings.Contains(note, "k: end of the grid (2 … ∞)") {
		t.Errorf("k past the grid: %v, form:\n%s", f.Resolved().Spec.K, f.View())
	}
	keys("left", "left", "left", "left", "left", "left", "left")
	if f.Resolved().Spec.K != 2 {
		t.Errorf("k back down: %v, want 2", f.Resolved().Spec.K)
	}

	// ε: 1 → 2 → 0.5 (log grid).
	f.SetFocus(form.Eps)
	keys("right")
	if f.Resolved().Spec.Eps != 2 {
		t.Errorf("ε → %v, want 2", f.Resolved().Spec.Eps)
	}
	keys("left", "left")
	if f.Resolved().Spec.Eps != 0.5 {
		t.Errorf("ε ← ← %v, want 0.5", f.Resolved().Spec.Eps)
	}

	// n from off the grid (1024): → goes to 2000, ← to 1000.
	sp := example1
	sp.N = 1024
	setSpec := func(s spec.Spec) {
		cmd, err := f.SetSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		pump(t, m, cmd, func() bool { return m.specRev == f.Rev() && prescReady(m) })
	}
	setSpec(sp)
	f.SetFocus(form.N)
	keys("right")
	if f.Resolved().Spec.N != 2000 {
		t.Errorf("n = 1024 → %d, want 2000", f.Resolved().Spec.N)
	}
	setSpec(sp)
	keys("left")
	if f.Resolved().Spec.N != 1000 {
		t.Errorf("n = 1024 ← %d, want 1000", f.Resolved().Spec.N)
	}

	// d is fixed for example1: refused with the Spec's message.
	f.SetFocus(form.D)
	before := f.Spec()
	keys("right")
	field, msg := f.Refusal()
	if field != form.D || !strings.Contains(msg, "example1 is defined with d = 1; it cannot be changed") {
		t.Errorf("d refusal on field %d: %q", field, msg)
	}
	if f.Spec().D != before.D {
		t.Errorf("a refused value changed the Spec: d = %d", f.Spec().D)
	}
	// The message names the d stepped to (the field keeps d = 1).
	pump(t, m, nil, func() bool {
		return strings.Contains(m.status.Text, "refused d 2 → d: example1 is defined with d = 1")
	})
	if v := stripANSI(f.View()); !strings.Contains(v, "✗ refused — d 2 → d: example1 is defined") {
		t.Errorf("the form does not show the refusal inline:\n%s", v)
	}

	// trials and seed stop at their lower ends.
	f.SetFocus(form.Trials)
	sp.Trials = 1
	setSpec(sp)
	keys("left")
	if _, msg := f.Refusal(); f.Resolved().Spec.Trials != 1 || !strings.Contains(msg, "trials = 0 is outside [1, 10000]") {
		t.Errorf("trials below 1: %d, %q", f.Resolved().Spec.Trials, msg)
	}
	f.SetFocus(form.Seed)
	keys("left")
	if _, msg := f.Refusal(); f.Resolved().Spec.Seed != 0 || !strings.Contains(msg, "seed") {
		t.Errorf("seed below 0: %d, %q", f.Resolved().Spec.Seed, msg)
	}
	keys("right", "right")
	if f.Resolved().Spec.Seed != 2 {
		t.Errorf("seed → → = %d", f.Resolved().Spec.Seed)
	}
}

func slicesEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFormRefusalCursor: a refused candidate is skipped by the next step
// (k = 6 and 8 are refused on linreg-t with ν = 6 — r̃_k < ∞ iff k < 3 —
// but stepping on from a refusal keeps moving through the grid).
func TestFormRefusalCursor(t *testing.T) {
	sp := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 6, K: 2.5, N: 10000, Trials: 2}
	m := newTestModel(t, &fakeRunner{points: 4}, &sp, 132, 42)
	f := m.form
	f.SetFocus(form.K)
	formKeys(t, m, "right") // k = 3: refused (k < ν/2 = 3 needed)
	if _, msg := f.Refusal(); f.Resolved().Spec.K != 2.5 || !strings.Contains(msg, "k: r̃_k is infinite for linreg-t at ν = 6") {
		t.Fatalf("k = 3 on ν = 6: k = %v, refusal %q", f.Resolved().Spec.K, msg)
	}
	formKeys(t, m, "right") // k = 4: refused too, the cursor moved on
	// Back from the cursor (k = 4): k = 3 (refused), then k = 2.5, the
	// current value, accepted; a cursor left at k = 3 would step on to
	// k = 2.
	formKeys(t, m, "left", "left")
	if _, msg := f.Refusal(); msg != "" || f.Resolved().Spec.K != 2.5 {
		t.Errorf("back to k = 2.5: refusal %q, k = %v", msg, f.Resolved().Spec.K)
	}
}

// TestScenarioChangeResets: a new scenario takes its own defaults and a
// class it supports; the paper's solver follows the class.
func TestScenarioChangeResets(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 4}, &example1, 132, 42)
	f := m.form
	f.SetFocus(form.Scenario)
	for i := 0; i < 20 && f.Resolved().Spec.Scenario != scenarios.AbsRegT; i++ {
		keyUntil(t, m, "right", func() bool { return m.specRev == f.Rev() })
	}
	rs := f.Resolved().Spec
	if rs.Scenario != scenarios.AbsRegT {
		_, refusal := f.Refusal()
		t.Fatalf("could not step to absreg-t (at %s; refusal %q)", rs.Scenario, refusal)
	}
	// The scenario's own defaults, and its first class with its paper
	// solver (example1's n = 10⁴ does not stay: a non-smooth class has its
	// own default n).
	defR, err := backend.Resolve(spec.Spec{Scenario: scenarios.AbsRegT})
	if err != nil {
		t.Fatal(err)
	}
	def := defR.Spec
	if rs.Class != theory.NonsmoothConvex || rs.Solver != "localized" || rs.D != def.D || rs.Tail != def.Tail || rs.N != def.N || rs.K != def.K {
		t.Errorf("absreg-t from example1: class %s, solver %s, d %d, ν %v, n %d, k %v; want nonsmooth-convex, localized and the defaults %+v",
			rs.Class, rs.Solver, rs.D, rs.Tail, rs.N, rs.K, def)
	}
	// The prescription follows (off the UI loop; the real engine's Monte
	// Carlo constants, slow under the race detector).
	pump(t, m, nil, func() bool { return prescReady(m) })
	if got := m.chartScreen().Presc.Prescription.Bounds[0].ID; got != theory.NonsmoothConvexLocalized {
		t.Errorf("upper bound after the change: %s", got)
	}
}

// TestRunLifecycle: r starts a run off the UI loop; progress arrives
// through the mailbox and fills the chart; the result ends it; messages of
// a stale run are dropped; a restart cancels the old run.
func TestRunLifecycle(t *testing.T) {
	fr := &fakeRunner{points: 6, hold: make(chan struct{}), holdAt: 3}
	m := newTestModel(t, fr, &example1, 132, 42)
	_, cmd := m.Update(press("r"))
	r1 := m.run()
	if r1 == nil || r1.Phase != runs.Running || r1.ID != 1 {
		t.Fatalf("after r: run %+v", r1)
	}
	// Keys are handled while the solver works: the form still moves.
	m.Update(press("tab"))
	pump(t, m, cmd, func() bool { return checkpoints(r1.Traces["acsa"]) >= 3 })
	if v := stripANSI(m.chartScreen().View()); !strings.Contains(v, "── acsa") || !strings.Contains(v, "run #1") {
		t.Errorf("chart during the run:\n%s", v)
	}
	// A stale message (another run id) changes nothing.
	before := len(r1.Traces["acsa"][0])
	m.Update(runs.ProgressMsg{ID: 99, Batch: []engine.Progress{{Solver: "acsa", Trial: 0, GradEvals: 123456, Excess: 1}}})
	if len(r1.Traces["acsa"][0]) != before {
		t.Error("a stale progress message was applied")
	}
	// Restart: the old run's context is cancelled, its result dropped.
	_, cmd2 := m.Update(press("r"))
	if r1.Phase != runs.Cancelled || !errors.Is(r1.Err, context.Canceled) {
		t.Errorf("old run after restart: phase %d, err %v", r1.Phase, r1.Err)
	}
	if fr.ctxs[0].Err() == nil {
		t.Error("the old run's context was not cancelled")
	}
	r2 := m.run()
	if r2.ID != 2 {
		t.Fatalf("new run id %d", r2.ID)
	}
	close(fr.hold)
	pump(t, m, cmd2, func() bool { return r2.Phase == runs.Done && r2.Drained })
	if r2.Comparison == nil || r2.TrialsDone != 3 {
		t.Errorf("finished run: cmp %v, trials done %d", r2.Comparison != nil, r2.TrialsDone)
	}
	if m.run() != r2 {
		t.Error("the stale run's result replaced the current run")
	}
	v := screenText(m)
	for _, want := range []string{"✓ done acsa", "run #2", "── acsa " + common.FmtNum(fakeExcess(0, 0, 6)*(1+0.01)) /* mean of trials 0,1,2 */, "ledger check passed"} {
		if !strings.Contains(v, want) {
			t.Errorf("screen after the run lacks %q:\n%s", want, v)
		}
	}
	// A form change after the run: the chart says the run is stale.
	m.form.SetFocus(form.Eps)
	formKeys(t, m, "right")
	if v := stripANSI(m.chartScreen().View()); !strings.Contains(v, "parameters changed since: press r") {
		t.Errorf("the chart does not flag a stale run:\n%s", v)
	}
}

// TestPause: space closes the gate (the fake runner blocks at its next
// checkpoint) and freezes the display; progress delivered meanwhile is
// held and applied on resume.
func TestPause(t *testing.T) {
	fr := &fakeRunner{points: 8, hold: make(chan struct{}), holdAt: 2}
	m := newTestModel(t, fr, &example1, 132, 42)
	_, cmd := m.Update(press("r"))
	r := m.run()
	pump(t, m, cmd, func() bool { return len(r.Traces["acsa"][0]) == 2 })
	m.Update(press("space"))
	if r.Phase != runs.Paused || !r.Gate.Paused() {
		t.Fatalf("after space: phase %d, gate paused %v", r.Phase, r.Gate.Paused())
	}
	if !strings.Contains(screenText(m), "paused") {
		t.Error("the status bar does not say paused")
	}
	// Progress that arrives while paused is held, not drawn.
	held := runs.ProgressMsg{ID: r.ID, Batch: []engine.Progress{{Solver: "acsa", Trial: 1, GradEvals: 100, Excess: 0.25}}}
	m.Update(held)
	if r.Traces["acsa"][1] != nil {
		t.Errorf("progress while paused was applied: %v", r.Traces["acsa"][1])
	}
	close(fr.hold) // the runner reaches its next checkpoint and blocks on the gate
	_, cmd = m.Update(press("space"))
	if r.Phase != runs.Running || r.Gate.Paused() || r.Traces["acsa"][1][100] != 0.25 {
		t.Fatalf("after resume: phase %d, the held progress applied: %v", r.Phase, r.Traces["acsa"][1])
	}
	pump(t, m, cmd, func() bool { return r.Phase == runs.Done && r.Drained })
	// Quit while paused: cancellation wins over the gate.
	fr2 := &fakeRunner{points: 8}
	m2 := newTestModel(t, fr2, &example1, 132, 42)
	_, cmd = m2.Update(press("r"))
	m2.Update(press("space"))
	_, q := m2.Update(press("q"))
	if q == nil {
		t.Fatal("q returned no command")
	}
	if _, ok := q().(tea.QuitMsg); !ok {
		t.Error("q does not quit")
	}
	pump(t, m2, cmd, func() bool {
		fr2.mu.Lock()
		defer fr2.mu.Unlock()
		return len(fr2.ctxs) == 1 && fr2.ctxs[0].Err() != nil
	})
}

// TestCompareShowsRefusal: c runs the paper's solver and the baselines on
// the same draws; a baseline that refuses is in the legend with its
// sentence, the paper's run is drawn last.
func TestCompareShowsRefusal(t *testing.T) {
	fr := &fakeRunner{points: 5}
	m := newTestModel(t, fr, &example1, 132, 42)
	m.form.SetFocus(form.Solver)
	formKeys(t, m, "right") // a baseline selected: compare still leads with the paper's solver
	_, cmd := m.Update(press("c"))
	r := m.run()
	if got := strings.Join(r.Names, ","); got != "acsa,nonprivate-schedule,lipschitz-dpsgd,klz-gd,dp-sgd" {
		t.Errorf("compare runs %s", got)
	}
	pump(t, m, cmd, func() bool { return r.Phase == runs.Done && r.Drained })
	v := stripANSI(m.chartScreen().View())
	if !strings.Contains(v, "✗ lipschitz-dpsgd refused: "+fakeRefusal) {
		t.Errorf("the refusal is not in the legend:\n%s", v)
	}
	series := m.chartScreen().Chart.Series()
	if i := slices.IndexFunc(series, func(s chart.Series) bool { return s.Kind == chart.Run }); i < 0 || series[i].Label != "acsa" {
		t.Errorf("the first run (drawn on top) is not the paper's acsa: %+v", series)
	}
	if !strings.Contains(screenText(m), "✓ done comparison") {
		t.Error("a comparison where one baseline refused is not done")
	}
}

// TestQuit: q and ctrl+c quit (status 0 is the program's), cancelling the
// run first.
func TestQuit(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		t.Run(k, func(t *testing.T) {
			fr := &fakeRunner{points: 4, hold: make(chan struct{})}
			m := newTestModel(t, fr, &example1, 132, 42)
			_, cmd := m.Update(press("r"))
			_, q := m.Update(press(k))
			if _, ok := q().(tea.QuitMsg); !ok {
				t.Errorf("%s does not quit", k)
			}
			pump(t, m, cmd, func() bool {
				fr.mu.Lock()
				defer fr.mu.Unlock()
				return len(fr.ctxs) == 1 && fr.ctxs[0].Err() == context.Canceled
			})
		})
	}
}

// TestScreensAndOverlays: ? help, p presets (enter loads and runs), m the
// moment profile, s the sweep (runs it), esc back.
func TestScreensAndOverlays(t *testing.T) {
	fr := &fakeRunner{points: 4}
	m := newTestModel(t, fr, &example1, 132, 42)
	m.Update(press("?"))
	if v := screenText(m); m.overlay != m.help || !strings.Contains(v, "pause / resume") || !strings.Contains(v, "compare with baselines") {
		t.Errorf("help screen:\n%s", v)
	}
	keyUntil(t, m, "esc", func() bool { return m.overlay == nil })
	m.Update(press("m"))
	if v := screenText(m); m.shownKind() != screens.MomentsKind || !strings.Contains(v, "∞ (L_f)") || !strings.Contains(v, "2·10²⁰") {
		t.Errorf("moments screen:\n%s", v)
	}
	m.Update(press("esc"))
	if m.active != 0 {
		t.Error("esc did not return to the chart")
	}
	keyUntil(t, m, "s", func() bool { return doneOf(m, screens.SweepNKind) })
	if v := screenText(m); m.shownKind() != screens.SweepNKind || !strings.Contains(v, "acsa measured −0.50") || !strings.Contains(v, "Sweep: excess risk vs n") {
		t.Errorf("sweep screen:\n%s", v)
	}
	// Presets: p, ↓ ↓, enter loads the third preset and starts its action.
	m.Update(press("p"))
	m.Update(press("down"))
	m.Update(press("down"))
	want := presets.All[2]
	keyUntil(t, m, "enter", func() bool { return m.head.Title() == want.Title && m.run() != nil && m.run().ID == 2 })
	if m.overlay != nil || m.form.Resolved().Spec.Scenario != want.Spec.Scenario {
		t.Fatalf("preset not loaded: %q, scenario %s", m.head.Title(), m.form.Resolved().Spec.Scenario)
	}
	if (m.run().Compare) != want.Compare {
		t.Errorf("preset %q: run %+v", want.Title, m.run())
	}
	pump(t, m, nil, func() bool { return m.run().Phase == runs.Done && prescReady(m) })
}

// TestBackgroundAndNoColor: a light background answer rebuilds the styles;
// plain styles carry no colour at all.
func TestBackgroundAndNoColor(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	if !m.Styles.Dark {
		t.Fatal("default styles are not dark")
	}
	m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#ffffff")})
	if m.Styles.Dark {
		t.Error("a white background did not switch to the light styles")
	}
	if c := colourCode(m.render()); c == "" {
		t.Error("the colour styles emit no colour (the plain check below would be vacuous)")
	}
	opts := testOpts(t, &fakeRunner{points: 3}, 100*time.Millisecond)
	opts.Plain = true
	mp := newTestModelOpts(t, opts, &example1, 132, 42)
	if c := colourCode(mp.render()); c != "" {
		t.Errorf("plain styles emit the colour code %q", c)
	}
	keyUntil(t, mp, "c", func() bool { return settled(mp) && mp.run().Phase == runs.Done })
	if c := colourCode(mp.render()); c != "" {
		t.Errorf("the plain screen after a comparison emits the colour code %q", c)
	}
	if !lightFromColorFGBG("0;15") || lightFromColorFGBG("15;0") || lightFromColorFGBG("") || !lightFromColorFGBG("0;default;15") {
		t.Error("COLORFGBG parsing")
	}
}

// TestTooSmall: below the minimum size a notice replaces the layout, every
// key but q is inert (nothing runs or opens unseen), and the layout comes
// back on a resize.
func TestTooSmall(t *testing.T) {
	fr := &fakeRunner{points: 3}
	m := newTestModel(t, fr, &example1, 132, 42)
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
	v := screenText(m)
	if !strings.Contains(v, "enlarge the terminal") || !strings.Contains(v, "now 40×12, need ≥ 80×24") {
		t.Errorf("40×12:\n%s", v)
	}
	checkFits(t, m.render(), 40, 12)
	focus, sp := m.form.Focus(), m.form.Resolved()
	for _, k := range []string{"c", "r", "s", "?", "p", "m", "tab", "right", "3", "enter", "a", "e"} {
		if _, cmd := m.Update(press(k)); cmd != nil {
			t.Errorf("%q under the size notice returned a command", k)
		}
	}
	if m.run() != nil || m.overlay != nil || m.active != 0 || m.form.Focus() != focus || runs.RunKey(m.form.Resolved()) != runs.RunKey(sp) || m.form.Editing() || m.live.On == m.opts.Manual {
		t.Errorf("keys acted under the size notice: run %v, overlay %v, screen %d, focus %d", m.run(), m.overlay, m.active, m.form.Focus())
	}
	fr.mu.Lock()
	if fr.compares+fr.sweeps != 0 {
		t.Errorf("%d runs started under the size notice", fr.compares+fr.sweeps)
	}
	fr.mu.Unlock()
	if _, q := m.Update(press("q")); q == nil {
		t.Error("q does not quit under the size notice")
	}
	m.quitting = false
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if v := screenText(m); strings.Contains(v, "enlarge") || !strings.Contains(v, "Excess risk") {
		t.Errorf("80×24:\n%s", v)
	}
}

// checkFits asserts that a rendered screen has h lines of at most w cells.
func checkFits(t *testing.T, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		t.Errorf("%d×%d: %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if lw := lipgloss.Width(l); lw > w {
			t.Errorf("%d×%d: line %d is %d cells: %q", w, h, i, lw, stripANSI(l))
		}
	}
}

// TestLayoutFits: at every size from the minimum up, in every screen, the
// screen is exactly the terminal's size.
func TestLayoutFits(t *testing.T) {
	fr := &fakeRunner{points: 6}
	m := newTestModel(t, fr, &example1, 132, 42)
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Phase == runs.Done })
	for _, sz := range [][2]int{{80, 24}, {81, 25}, {99, 29}, {100, 30}, {132, 42}, {160, 48}, {200, 60}, {300, 90}} {
		m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		for _, k := range []string{"", "m", "t", "m", "?", "pgdown", "?", "p", "esc", "t", "t"} {
			if k != "" {
				keyUntil(t, m, k, func() bool { return true })
			}
			checkFits(t, m.render(), sz[0], sz[1])
		}
	}
}

// TestExport: e writes PNG, SVG and JSON of the finished run into the
// export directory and says where on the status bar.
func TestExport(t *testing.T) {
	fr := &fakeRunner{points: 5}
	m := newTestModel(t, fr, &example1, 132, 42)
	keyUntil(t, m, "e", func() bool { return m.status.Text != "" })
	if !strings.Contains(m.status.Text, "nothing to export yet") {
		t.Errorf("export before a run: %q", m.status.Text)
	}
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Phase == runs.Done })
	exportAndWait(t, m)
	if !strings.HasPrefix(m.status.Text, "exported dpso-") || !strings.HasSuffix(m.status.Text, "-compare.{png,svg,json} in "+filepath.Clean(m.opts.ExportDir)) {
		t.Fatalf("status after export: %q", m.status.Text)
	}
	for _, ext := range []string{".png", ".svg", ".json"} {
		matches, _ := filepath.Glob(filepath.Join(m.opts.ExportDir, "dpso-*-compare"+ext))
		if len(matches) != 1 {
			t.Errorf("%s files: %v", ext, matches)
			continue
		}
		if st, err := os.Stat(matches[0]); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", matches[0], err)
		}
	}
	if !strings.Contains(screenText(m), "exported ") {
		t.Error("the status bar does not show the export")
	}
}

// exportAndWait presses e and waits for the export's outcome.
func exportAndWait(t *testing.T, m *Model) {
	t.Helper()
	keyUntil(t, m, "e", func() bool {
		return strings.HasPrefix(m.status.Text, "exported") || strings.HasPrefix(m.status.Text, "export failed") || strings.HasPrefix(m.status.Text, "nothing")
	})
}

// TestPresets: every preset resolves, focuses a field of the form and
// shows a screen of the registry; the first opens the explorer, and a
// preset's focus is set.
func TestPresets(t *testing.T) {
	kinds := map[runs.ScreenKind]bool{"": true}
	for _, d := range screens.Registry {
		kinds[d.Kind] = true
	}
	for _, p := range presets.All {
		if _, err := backend.Resolve(p.Spec); err != nil {
			t.Errorf("preset %q: %v", p.Title, err)
		}
		if _, ok := form.FieldOf(p.Focus); !ok {
			t.Errorf("preset %q focuses %q, no field of the form", p.Title, p.Focus)
		}
		if !kinds[p.Screen] {
			t.Errorf("preset %q shows the screen %q, not one of the registry", p.Title, p.Screen)
		}
	}
	if len(presets.All) < 7 {
		t.Fatalf("%d presets, want at least 7", len(presets.All))
	}
	m, err := New(context.Background(), Options{Runner: &fakeRunner{points: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if m.head.Title() != presets.All[0].Title || m.form.Focus().Flag() != presets.All[0].Focus {
		t.Errorf("opened on %q focus %d", m.head.Title(), m.form.Focus())
	}
}

// TestPrescriptionCache: coming back to a Spec reuses its prescription
// without recomputing it (a late answer to an older request:
// TestPrescriberDropsStaleAnswers).
func TestPrescriptionCache(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	first := m.chartScreen().Presc.Prescription
	m.form.SetFocus(form.Eps)
	formKeys(t, m, "right")
	if m.chartScreen().Presc.Prescription == first {
		t.Fatal("a new ε kept the old prescription")
	}
	ev, cmd := m.presc.Request(example1Resolved(t))
	if pm, ok := ev.(runs.PrescriptionMsg); cmd != nil || !ok || pm.Prescription != first {
		t.Error("the previous Spec's prescription was not reused from the cache")
	}
}

func example1Resolved(t *testing.T) spec.Resolved {
	rs, err := backend.Resolve(example1)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// colourCode returns the first SGR sequence of s that sets a colour
// (30–37, 38, 40–47, 48, 90–97, 100–107), or "". Bold and reverse are
// not colours: NO_COLOR allows them.
func colourCode(s string) string {
	for i := strings.Index(s, "\x1b["); i >= 0; i = strings.Index(s, "\x1b[") {
		s = s[i+2:]
		j := strings.IndexByte(s, 'm')
		if j < 0 {
			return ""
		}
		for _, p := range strings.Split(s[:j], ";") {
			n, err := strconv.Atoi(p)
			if err == nil && (n >= 30 && n <= 38 || n >= 40 && n <= 48 || n >= 90 && n <= 97 || n >= 100 && n <= 107) {
				return "\x1b[" + s[:j+1]
			}
		}
	}
	return ""
}

// TestReproduceLine: the status bar's command is the CLI's rendering of the
// form's Spec; on the sweep screen it is the dpso sweep command of the
// sweep that runs; after a comparison it names the solvers.
func TestReproduceLine(t *testing.T) {
	sp := spec.Spec{Scenario: scenarios.MeanHard, Class: theory.SmoothSC, N: 10000, Trials: 8}
	m := newTestModel(t, &fakeRunner{points: 3}, &sp, 132, 42)
	if got, want := m.status.Reproduce(), sp.Command(); got != want || want != "dpso run --scenario mean-hard --trials 8" {
		t.Errorf("run line %q, want %q", got, want)
	}
	keyUntil(t, m, "s", func() bool { return doneOf(m, screens.SweepNKind) })
	if got := m.status.Reproduce(); got != "dpso sweep --scenario mean-hard --trials 8 --vary n --from 625 --to 10000 --points 5" {
		t.Errorf("sweep line %q", got)
	}
	m.Update(press("s"))
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Compare && m.run().Phase == runs.Done })
	// A comparison is one command, dpso run --solvers.
	if got := m.status.Reproduce(); got != "dpso run --scenario mean-hard --trials 8 --solvers clipped-sgd,nonprivate-schedule,lipschitz-dpsgd,klz-gd,dp-sgd" {
		t.Errorf("comparison line %q", got)
	}
}

// TestRandomKeys presses random keys at random sizes (commands are not
// run, so runs stay in flight) and checks that nothing panics and that
// every screen fits the terminal.
func TestRandomKeys(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	keys := []string{"tab", "shift+tab", "left", "right", "up", "down", "h", "l", "r", "enter", "c", "s", "m", "p", "e", "?", "esc", "space", "t", "a", "pgup", "pgdown", "3", "e", "5", "backspace", "i"}
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 3000; i++ {
		if r.IntN(50) == 0 {
			m.Update(tea.WindowSizeMsg{Width: 30 + r.IntN(200), Height: 8 + r.IntN(60)})
		}
		k := keys[r.IntN(len(keys))]
		if k == "p" && m.overlay == m.presets { // keep the presets list from choosing forever
			k = "esc"
		}
		m.Update(press(k))
		if i%10 == 0 {
			checkFits(t, m.render(), m.width, m.height)
		}
		if t.Failed() {
			t.Fatalf("after %d keys (last %q)", i, k)
		}
	}
	m.runs.Cancel()
}

// checkpoints is the number of checkpoints a solver's live traces have
// reached (gradient evaluations seen in any trial).
func checkpoints(byTrial map[int]map[int64]float64) int {
	seen := map[int64]bool{}
	for _, tr := range byTrial {
		for g := range tr {
			seen[g] = true
		}
	}
	return len(seen)
}
