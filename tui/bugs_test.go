package tui

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/chart"
)

// The explorer's bugs of issue 14, each pinned by a test that fails on the
// code before the component contract (the commit before this file).

// TestExportExportsWhatIsShown (issue 14, bug 2): after a comparison, a
// sweep, the moment profile and back (esc twice: the sweep, then the
// chart), the chart shows the comparison, and
// e exports it — not "nothing to export yet". On the sweep screen e
// exports the sweep, on the moment profile the profile.
func TestExportExportsWhatIsShown(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 5}, &example1, 132, 42)
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().phase == phaseDone })
	keyUntil(t, m, "s", func() bool { return sweepSettled(m) })
	keyUntil(t, m, "m", func() bool { return true })
	keyUntil(t, m, "esc", func() bool { return m.shownKind() == sweepNKind })
	keyUntil(t, m, "esc", func() bool { return m.shownKind() == chartKind })
	if v := stripANSI(m.chartScreen().View()); !strings.Contains(v, "comparison #1") {
		t.Fatalf("the chart does not show the comparison:\n%s", v)
	}
	exportAndWait(t, m)
	if !strings.HasPrefix(m.status.text, "exported ") || !strings.Contains(m.status.text, "-compare.{png,svg,json} in ") {
		t.Errorf("e on the chart after a comparison and a sweep: %q", m.status.text)
	}
	keyUntil(t, m, "s", func() bool { return m.shownKind() == sweepNKind })
	exportAndWait(t, m)
	if !strings.Contains(m.status.text, "-sweep.{png,svg,json} in ") {
		t.Errorf("e on the sweep screen: %q", m.status.text)
	}
	for _, base := range []string{"compare", "sweep"} {
		if got, _ := filepath.Glob(filepath.Join(m.opts.ExportDir, "dpso-*-"+base+".json")); len(got) != 1 {
			t.Errorf("%s exports: %v", base, got)
		}
	}
	keyUntil(t, m, "m", func() bool { return m.shownKind() == momentsKind })
	exportAndWait(t, m)
	if !strings.Contains(m.status.text, "-moments.{png,svg,json} in ") {
		t.Errorf("e on the moment profile: %q", m.status.text)
	}
}

// TestRefusedRunIsNotDone (issue 14, bug 3): a run whose solver refuses
// ends refused — the status bar shows ✗ and the sentence, never "✓ done" —
// and so does a sweep where every point refused; there is then nothing to
// export.
func TestRefusedRunIsNotDone(t *testing.T) {
	sp := example1
	sp.Solver = "lipschitz-dpsgd"
	m := newTestModel(t, &fakeRunner{points: 4}, &sp, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) })
	v := screenText(m)
	if r := m.run(); r.phase != phaseRefused || r.refusal != "lipschitz-dpsgd refuses: "+fakeRefusal {
		t.Errorf("a refused run ended in phase %d with %q", r.phase, r.refusal)
	}
	// The state names the solver; the sentence after it is the reason.
	if status := strings.Split(v, "\n")[m.height-3]; strings.Contains(v, "✓ done") || !strings.HasPrefix(status, "✗ refused lipschitz-dpsgd") || !strings.Contains(status, "noise calibrated") {
		t.Errorf("a refused run's status:\n%s", v)
	}
	if !strings.Contains(v, "✗ lipschitz-dpsgd refused: "+fakeRefusal) {
		t.Errorf("the chart's legend does not show the refusal:\n%s", v)
	}
	exportAndWait(t, m)
	if !strings.HasPrefix(m.status.text, "nothing to export: lipschitz-dpsgd refuses") {
		t.Errorf("export of a refused run: %q", m.status.text)
	}
	keyUntil(t, m, "s", func() bool { return settled(m) && m.run().family == sweepNKind })
	v = screenText(m)
	if r := m.run(); strings.Contains(v, "✓ done") || !strings.Contains(v, "✗ refused sweep") || r.refusal != "lipschitz-dpsgd refuses: "+fakeRefusal+" (at every n of the sweep)" {
		t.Errorf("a refused sweep (%q):\n%s", r.refusal, v)
	}
}

// TestRefusalDoesNotOutliveItsKey (issue 14, bug 3): a refused k keeps
// neither its ✗ nor its text once a run starts.
func TestRefusalDoesNotOutliveItsKey(t *testing.T) {
	sp := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 6, K: 2.5, N: 10000, Trials: 2}
	m := newTestModel(t, &fakeRunner{points: 4}, &sp, 132, 42)
	m.form.SetFocus(fK)
	formKeys(t, m, "right") // k = 3: refused on ν = 6
	if v := stripANSI(m.form.View()); !strings.Contains(v, "✗") {
		t.Fatalf("no refusal to clear:\n%s", v)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone })
	if v := stripANSI(m.form.View()); strings.Contains(v, "✗") || strings.Contains(v, "refused") {
		t.Errorf("the refusal outlived the successful run:\n%s", v)
	}
}

// TestRefusalIsOnTheFieldItNames (issue 14, bug 3): a value refused
// because of another field puts the ✗ on that field and says which value
// was tried; a field the form does not show (beta) leaves it on the field
// stepped.
func TestRefusalIsOnTheFieldItNames(t *testing.T) {
	sp := example1
	sp.Eps = math.Inf(1)
	m := newTestModel(t, &fakeRunner{points: 3}, &sp, 132, 42)
	m.form.SetFocus(fOracle)
	for i := 0; i < 10; i++ {
		formKeys(t, m, "right")
		if _, msg := m.form.Refusal(); strings.Contains(msg, "eps:") {
			break
		}
	}
	field, msg := m.form.Refusal()
	if field != fEps || !strings.HasPrefix(msg, "oracle shuffle-") || !strings.Contains(msg, "→ eps: the shuffle oracle") {
		t.Errorf("an oracle refused for ε = ∞: ✗ on field %d, message %q", field, msg)
	}
	rowOf := func(label string) string {
		for _, l := range strings.Split(stripANSI(m.form.View()), "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, " ▸"), label+" ") {
				return l
			}
		}
		return ""
	}
	if !strings.Contains(rowOf("ε"), "✗") || strings.Contains(rowOf("oracle"), "✗") {
		t.Errorf("the ✗ is not on ε:\n%s", stripANSI(m.form.View()))
	}

	// affine-hard's smooth-convex class was refused for β (a linear loss
	// declares β = 0); acsa now takes β = 0 with T = 1 (rem: affine
	// optimal), so stepping to it refuses nothing.
	hard := spec.Spec{Scenario: scenarios.AffineHard, Class: theory.NonsmoothConvex, K: 2, N: 10000, Trials: 2}
	m = newTestModel(t, &fakeRunner{points: 3}, &hard, 132, 42)
	m.form.SetFocus(fClass)
	for i := 0; i < len(theory.Classes); i++ {
		formKeys(t, m, "right")
		if _, msg := m.form.Refusal(); strings.Contains(msg, "beta:") {
			t.Errorf("a class of affine-hard refused for β: %q", msg)
		}
	}
}

// TestClipPanelStaysWithItsRun (issue 14, bug 3): the clipping panel
// forgets the previous run's batches when a preset that runs nothing is
// loaded, and for a multi-phase solver names the phase of its batch, as
// the theorem panel names the phase of its batch and C.
func TestClipPanelStaysWithItsRun(t *testing.T) {
	sp := spec.Spec{Scenario: scenarios.AffineHard, Class: theory.NonsmoothConvex, K: 2, N: 10000, Trials: 2}
	m := newTestModel(t, &fakeRunner{points: 5}, &sp, 132, 42)
	if v := stripANSI(m.clip.View()); !strings.Contains(v, "C₁ = ") || !strings.Contains(v, "(prescribed, phase 1 of ") {
		t.Errorf("the prescribed C of a multi-phase solver does not name its phase:\n%s", v)
	}
	if v := stripANSI(m.formula.View()); !strings.Contains(v, "phase 1: batch ") {
		t.Errorf("the theorem's solver line does not name the phase of its batch:\n%s", v)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone })
	if v := stripANSI(m.clip.View()); !strings.Contains(v, "phase 3: C = 2") || !strings.Contains(v, "batch of 100 · localized · trial 1 · phase 3") {
		t.Errorf("the clipping panel does not name the phase of its batch:\n%s", v)
	}
	i := 0
	for ; i < len(Presets) && !strings.HasPrefix(Presets[i].action, "none"); i++ {
	}
	keyUntil(t, m, "p", func() bool { return m.overlay != nil })
	for range i - m.presets.cursor {
		m.Update(press("down"))
	}
	keyUntil(t, m, "enter", func() bool { return m.preset == Presets[i].Title && prescReady(m) })
	if v := stripANSI(m.clip.View()); strings.Contains(v, "latest batch") || strings.Contains(v, "localized · trial") || !strings.Contains(v, "prescribed") {
		t.Errorf("the clipping panel kept the previous run after loading %q:\n%s", Presets[i].Title, v)
	}
	if m.run() != nil {
		t.Errorf("a preset that runs nothing left run #%d", m.run().id)
	}
}

// TestNoColorLegendIsTheChartsGlyphs (issue 14, bug 4): under NO_COLOR
// the legend's marks are the glyphs each run is drawn with, so the runs
// stay apart without colour.
func TestNoColorLegendIsTheChartsGlyphs(t *testing.T) {
	opts := testOpts(t, &fakeRunner{points: 6}, 1)
	opts.Plain = true
	m := goldenModelOpts(t, opts, 132, 42)
	v := screenText(m)
	if strings.Contains(v, "━━") {
		t.Errorf("a legend mark that is no series' glyph:\n%s", v)
	}
	plot := plotRows(stripANSI(m.chartScreen().View()))
	for i, name := range []string{"acsa", "nonprivate-schedule", "lipschitz-dpsgd", "klz-gd"} {
		mark := chart.Mark(chart.Run, i, true)
		if name == "lipschitz-dpsgd" {
			continue // refused: in the legend with its sentence, not drawn
		}
		if !strings.Contains(v, mark+" "+name) {
			t.Errorf("the legend lacks %q", mark+" "+name)
		}
		if g := chart.Glyphs(chart.Run, i, true).Horizontal; !strings.Contains(strings.Join(plot, "\n"), g) {
			t.Errorf("%s's glyph %q is not on the plot", name, g)
		}
	}
}

// plotRows are the rows of a rendered chart that hold its plot (those
// with a y axis).
func plotRows(v string) []string {
	var out []string
	for _, l := range strings.Split(v, "\n") {
		if strings.ContainsAny(l, "┤┼") {
			out = append(out, l)
		}
	}
	return out
}

// TestCompareAt80x24: at 80×24 the comparison's chart has at least 8
// plot rows, and no rate (a bound with constants set to 1) drawn as a
// level: neither on the plot nor in the legend.
func TestCompareAt80x24(t *testing.T) {
	m := goldenModel(t, 80, 24)
	v := stripANSI(m.chartScreen().View())
	plot := plotRows(v)
	if len(plot) < 8 {
		t.Errorf("%d plot rows at 80×24, want ≥ 8:\n%s", len(plot), screenText(m))
	}
	joined := strings.Join(plot, "\n")
	for _, k := range []chart.Kind{chart.Upper, chart.Lower, chart.Prior} {
		if g := chart.Glyphs(k, 0, false).Horizontal; strings.Contains(joined, g) {
			t.Errorf("a rate is drawn as a level (%q) on the run chart:\n%s", g, screenText(m))
		}
	}
	for _, l := range []string{"upper bound", "lower bound", "(prior)"} {
		if strings.Contains(v, l) {
			t.Errorf("the run chart's legend lists the rate %q:\n%s", l, v)
		}
	}
}

// TestLongTextScrolls (issue 14, bug 5): at 80×24 the help's last
// paragraph and the theorem's notes are reached by scrolling.
func TestLongTextScrolls(t *testing.T) {
	m := goldenModel(t, 80, 24)
	last := "Privacy is ρ-zCDP"
	keyUntil(t, m, "?", func() bool { return m.overlay == m.help })
	if v := screenText(m); strings.Contains(v, last) || !strings.Contains(v, "more lines: j, pgdn") {
		t.Fatalf("the help fits 80×24 or does not say it scrolls:\n%s", v)
	}
	for i := 0; i < 10 && !strings.Contains(screenText(m), last); i++ {
		m.Update(press("pgdown"))
	}
	if !strings.Contains(screenText(m), last) {
		t.Errorf("pgdn does not reach the help's last paragraph:\n%s", screenText(m))
	}
	keyUntil(t, m, "esc", func() bool { return m.overlay == nil })
	// The notes of the comparison just run (issue 11: the notes the CLI
	// prints are reachable in the explorer).
	notes := "Notes of run #1"
	if strings.Contains(screenText(m), notes) {
		t.Fatal("the theorem's notes fit 80×24: nothing to scroll")
	}
	for i := 0; i < 20 && !strings.Contains(screenText(m), notes); i++ {
		m.Update(press("pgdown"))
	}
	if !strings.Contains(screenText(m), notes) {
		t.Errorf("pgdn does not reach the theorem's notes:\n%s", screenText(m))
	}
}
