package tui

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"dpso/internal/audit"
	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/theory"
)

// dpsgd is the solver with adaptive clipping.
const dpsgd = "dp-sgd"

// TestAdaptiveClipField (issue 12 item 3): the form shows dp-sgd's
// adaptive clipping only while the solver is dp-sgd; turning it on sets
// the Spec's field through the spec's field table (the reproduce line
// carries --adaptive-clip, as the flag writes it), and leaving dp-sgd
// turns it off.
func TestAdaptiveClipField(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	if strings.Contains(screenText(m), fields[fAdaptive].label) {
		t.Fatal("the adaptive clipping field is shown with acsa")
	}
	m.form.SetFocus(fAdaptive)
	if m.form.Focus() == fAdaptive {
		t.Fatal("a hidden field took the focus")
	}
	m.form.SetFocus(fSolver)
	for i := 0; i < 10 && m.form.Resolved().Solver.Name() != dpsgd; i++ {
		formKeys(t, m, "right")
	}
	if m.form.Resolved().Solver.Name() != dpsgd {
		t.Fatal("the solver field never reached dp-sgd")
	}
	formKeys(t, m, "tab")
	if m.form.Focus() != fOracle {
		t.Fatalf("focus %d after the solver, want the oracle", m.form.Focus())
	}
	formKeys(t, m, "tab")
	if m.form.Focus() != fAdaptive || !strings.Contains(screenText(m), "adapt. C") {
		t.Fatalf("with dp-sgd the adaptive clipping field is not next:\n%s", screenText(m))
	}
	formKeys(t, m, "right")
	if !m.form.Resolved().Spec.AdaptiveClip || !strings.Contains(screenText(m), "--adaptive-clip") {
		t.Fatalf("adaptive clipping on: Spec %v, screen:\n%s", m.form.Resolved().Spec.AdaptiveClip, screenText(m))
	}
	formKeys(t, m, "shift+tab", "shift+tab", "right") // the solver, one step on
	if m.form.Resolved().Solver.Name() == dpsgd || m.form.Resolved().Spec.AdaptiveClip || strings.Contains(screenText(m), "--adaptive-clip") {
		t.Errorf("leaving dp-sgd kept adaptive clipping (solver %s):\n%s", m.form.Resolved().Solver.Name(), screenText(m))
	}
}

// TestAdaptiveClipTrail (issue 12 item 3): a dp-sgd run with adaptive
// clipping draws C over the steps on the clipping panel — trial 0's
// checkpoints' thresholds (the fake's 2·0.7^j) —, from its prescribed C₀
// to the last C, beside the C the paper's solver (acsa) is prescribed at
// the same Spec; without adaptive clipping nothing of it appears.
func TestAdaptiveClipTrail(t *testing.T) {
	const points = 6
	for _, adaptive := range []bool{false, true} {
		s := example1
		s.Solver, s.AdaptiveClip = dpsgd, adaptive
		m := newTestModel(t, &fakeRunner{points: points}, &s, 132, 42)
		keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone })
		v := stripANSI(m.clip.View())
		if !adaptive {
			if strings.Contains(v, "adaptive C") || len(m.run().clipTrail) != 0 {
				t.Errorf("without adaptive clipping the panel shows a C trajectory:\n%s", v)
			}
			continue
		}
		trail := m.run().clipTrail
		if len(trail) != points+1 {
			t.Fatalf("%d points on the trail, want %d (one a checkpoint): %v", len(trail), points+1, trail)
		}
		for j, p := range trail {
			if want := fakeThreshold(dpsgd, s, j); p.Iter != j || p.C != want {
				t.Errorf("trail point %d: %+v, want iteration %d, C %g", j, p, j, want)
			}
		}
		paper := example1
		paperRes, err := resolve(paper)
		if err != nil {
			t.Fatal(err)
		}
		pp, err := engine.Prescribe(context.Background(), paperRes)
		if err != nil {
			t.Fatal(err)
		}
		last := fakeThreshold(dpsgd, s, points)
		for _, want := range []string{
			"adaptive C, 6 steps, dp-sgd trial 0 (log scale)",
			// The fake's reports prescribe C = 2.
			"prescribed C₀ 2 → last C " + fmtNum(last),
			"paper's C " + fmtNum(pp.Params.Clip) + " (" + pp.Solver + ")",
			fmtNum(2), fmtNum(last), // the sparkline's labels: its largest and smallest C
		} {
			if !strings.Contains(strings.Join(strings.Fields(v), " "), want) {
				t.Errorf("the clipping panel lacks %q:\n%s", want, v)
			}
		}
		if !strings.ContainsAny(v, "▁▂▃▄▅▆▇") {
			t.Errorf("no sparkline on the clipping panel:\n%s", v)
		}
		golden(t, "clip-adaptive-46x13", m.clip.View())
	}
}

// TestComparisonPrivacy (issue 12 item 5): a finished comparison shows each
// solver's (ε', δ) beside its result — the legend's tags on a wide chart,
// the privacy tab's list on a small terminal —, the zCDP solvers' the exact
// ε' of ρ = ε²/2 (4.3772 at ε = 1, δ = 10⁻⁵: theory's
// TestExactConversion and issue 12), dp-sgd's its accountant's, named,
// the non-private nonprivate-schedule's ∞.
func TestComparisonPrivacy(t *testing.T) {
	exact := fmtNum(theory.EpsExact(1, 1e-5)) // μ = ε = 1 GDP
	if exact != fmtNum(4.3772) {
		t.Fatalf("exact ε' at ρ = 0.5, δ = 10⁻⁵: %s", exact)
	}
	m := goldenModel(t, 132, 42)
	legend := stripANSI(m.chartScreen().View())
	for _, want := range []string{
		"acsa " + fmtNum(fakeMean(0, 3, 6)) + " ε' " + exact,
		"nonprivate-schedule " + fmtNum(fakeMean(1, 3, 6)) + " not private",
		"klz-gd " + fmtNum(fakeMean(3, 3, 6)) + " ε' " + exact,
		"dp-sgd " + fmtNum(fakeMean(4, 3, 6)) + " ε' " + fmtNum(0.9999*4.3772) + " pld",
		"(ε', δ = 10⁻⁵)-DP, pld = dp-sgd's accountant",
	} {
		if !strings.Contains(legend, want) {
			t.Errorf("the comparison's legend lacks %q:\n%s", want, legend)
		}
	}
	// A single run is not tagged: the privacy panel states its budget.
	s := example1
	single := newTestModel(t, &fakeRunner{points: 6}, &s, 132, 42)
	keyUntil(t, single, "r", func() bool { return settled(single) && single.run().phase == phaseDone })
	if v := stripANSI(single.chartScreen().View()); strings.Contains(v, "ε' ") {
		t.Errorf("a single run's legend carries privacy tags:\n%s", v)
	}

	small := goldenModel(t, 80, 24)
	if v := stripANSI(small.chartScreen().View()); strings.Contains(v, "ε' ") {
		t.Errorf("the 80×24 chart carries the tags (they cost its plot rows):\n%s", v)
	}
	keyUntil(t, small, "t", func() bool { return true })
	v := screenText(small)
	// Solvers at the same ε' are named together; the rest is a pgdn away.
	for _, want := range []string{"(ε', δ=10⁻⁵)-DP of each solver", "acsa, klz-gd " + exact, "nonprivate-schedule ∞", "lipschitz-dpsgd refused", "more lines: j, pgdn"} {
		if !strings.Contains(v, want) {
			t.Errorf("the 80×24 privacy tab lacks %q:\n%s", want, v)
		}
	}
	small.Update(press("pgdown"))
	if v := screenText(small); !strings.Contains(v, "dp-sgd "+exact+" (pld accountant)") {
		t.Errorf("the 80×24 privacy tab, scrolled, lacks dp-sgd:\n%s", v)
	}
}

// TestRunNotesAndStartLine (issue 11): a run's notes — the list `dpso run`
// prints (report.Notes) — are reached by scrolling the theorem panel, and
// a run that ends above the start line F(w₀) − F* says so on the status
// bar in words. On the first preset (linreg-t, F(w₀) − F* ≈ 0.156) the
// fake's acsa ends at 0.0721, under it; in the comparison klz-gd (0.18)
// and dp-sgd (0.216) end above it, acsa and sgd (0.108) do not.
func TestRunNotesAndStartLine(t *testing.T) {
	first := linregT
	m := newTestModel(t, &fakeRunner{points: 6}, &first, 132, 42)
	w0 := m.chartScreen().presc.p.W0.Mean
	if !(w0 > fakeMean(1, first.Trials, 6) && w0 < fakeMean(3, first.Trials, 6)) {
		t.Fatalf("F(w₀) − F* = %g does not separate the fake's solvers", w0)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone })
	if line := strings.Split(screenText(m), "\n")[m.height-3]; strings.Contains(line, "worse than") || strings.Contains(line, "above w₀") || outcomeOf(m.run()).text != "" {
		t.Errorf("a run under the start line is said to be worse than doing nothing: %q", line)
	}
	notes := report.Notes(m.run().cmp)
	if len(notes) == 0 {
		t.Fatal("the run has no notes to show")
	}
	head := "Notes of run #1, as dpso run prints them"
	for i := 0; i < 20 && !strings.Contains(stripANSI(m.formula.View()), head); i++ {
		m.Update(press("pgdown"))
	}
	v := strings.Join(strings.Fields(stripANSI(m.formula.View())), " ")
	if !strings.Contains(v, head) {
		t.Fatalf("pgdn does not reach the run's notes:\n%s", stripANSI(m.formula.View()))
	}
	firstWords := strings.Join(strings.Fields(notes[0])[:4], " ")
	if !strings.Contains(v, firstWords) {
		t.Errorf("the theorem's notes lack the run's first note %q:\n%s", notes[0], stripANSI(m.formula.View()))
	}

	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().phase == phaseDone && m.run().compare })
	want := "klz-gd, dp-sgd above w₀ (the start line, " + fmtNum(w0) + "): worse than doing nothing"
	if got := outcomeOf(m.run()).text; got != want {
		t.Errorf("outcome %q, want %q", got, want)
	}
	if line := strings.Split(screenText(m), "\n")[m.height-3]; !strings.Contains(line, "klz-gd, dp-sgd above w₀") {
		t.Errorf("the status bar does not say the comparison ended above the start line: %q", line)
	}
	keyUntil(t, m, "?", func() bool { return m.overlay == m.help })
	if v := strings.Join(strings.Fields(screenText(m)), " "); !strings.Contains(v, "run #2: "+want) {
		t.Errorf("the help does not give the outcome in full:\n%s", screenText(m))
	}

	// Example 1 starts at its optimum (F(w₀) − F* = 0): a single run ends
	// above it, and the state names the solver.
	e1 := newTestModel(t, &fakeRunner{points: 6}, &example1, 132, 42)
	keyUntil(t, e1, "r", func() bool { return settled(e1) && e1.run().phase == phaseDone })
	want = "above w₀ (the start line, 0) at " + fmtNum(fakeMean(0, example1.Trials, 6)) + ": worse than doing nothing"
	if line := strings.Split(screenText(e1), "\n")[e1.height-3]; !strings.HasPrefix(line, "✓ done acsa") || !strings.Contains(line, want) {
		t.Errorf("status %q, want ✓ done acsa and %q", line, want)
	}
}

// fakeMean is the fake's mean excess risk of solver si over trials at
// checkpoint j.
func fakeMean(si, trials, j int) float64 {
	var s float64
	for trial := range trials {
		s += fakeExcess(si, trial, j)
	}
	return s / float64(trials)
}

// TestStatusCutsAtWords (issue 14's "L_f is infinit…"): at 80×24 a refusal
// longer than the status bar's room is cut after a whole word with "…",
// the state stays whole, and the help (?) shows the sentence in full; the
// form's remark after a value ("baseline") is not cut either.
func TestStatusCutsAtWords(t *testing.T) {
	s := example1
	s.Solver = "lipschitz-dpsgd"
	m := newTestModel(t, &fakeRunner{points: 3}, &s, 80, 24)
	m.form.SetFocus(fSolver)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseRefused })
	full := m.run().refusal
	line := strings.Split(screenText(m), "\n")[m.height-3]
	if lipgloss.Width(line) > 80 || !strings.HasPrefix(line, "✗ refused lipschitz-dpsgd") {
		t.Fatalf("state line %q", line)
	}
	// The state names the solver: the message is the reason alone.
	reason := strings.TrimPrefix(full, "lipschitz-dpsgd refuses: ")
	i := strings.Index(line, reason[:5])
	j := strings.Index(line, "… (? full)")
	if i < 0 || j < i {
		t.Fatalf("the status bar's refusal is not shortened with a hint: %q", line)
	}
	shown := line[i:j]
	if !strings.HasPrefix(reason, shown) || (len(shown) < len(reason) && reason[len(shown)] != ' ') {
		t.Errorf("the refusal is cut inside a word: shown %q of %q", shown, reason)
	}
	// The form's remark after a value goes whole or not at all.
	row := ""
	for _, l := range strings.Split(screenText(m), "\n") {
		if strings.Contains(l, "‹ lipschitz-dpsgd ›") {
			row = string([]rune(l)[:m.form.w])
		}
	}
	if row == "" || strings.Contains(row, "…") {
		t.Errorf("the solver's row %q: its remark is cut mid-word, or the row is missing", row)
	}
	keyUntil(t, m, "?", func() bool { return m.overlay == m.help })
	if v := strings.Join(strings.Fields(screenText(m)), " "); !strings.Contains(v, strings.Join(strings.Fields(full), " ")) {
		t.Errorf("the help does not give the refusal in full (%q):\n%s", full, screenText(m))
	}
}

// TestAuditExport (issue 13 item 3, issue 12's export rule): e on the
// audit screen writes the audit as the JSON document `dpso audit --json`
// prints for the same configuration (report.Audit of audit.Oracle, seeded:
// the same numbers when run again), and only that (the CLI draws no
// figure); a second export takes the next free name, never the first's.
func TestAuditExport(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	keyUntil(t, m, "u", func() bool { return m.active == m.screenIndex(auditKind) })
	keyUntil(t, m, "e", func() bool { return m.status.text != "" })
	if r := m.run(); r != nil && r.phase == phaseDone {
		t.Fatal("the audit finished before e was pressed")
	}
	pump(t, m, nil, func() bool { return auditSettled(m) && m.run().phase == phaseDone })
	exportAndWait(t, m)
	exportAndWait(t, m)
	cfg := m.run().auditCfg
	cfg.Trials = fakeAuditTrials
	res, err := audit.Oracle(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := report.MarshalJSON(report.Audit(res))
	if err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(m.opts.ExportDir, "dpso-*-audit-clip-gaussian*"))
	if len(matches) != 2 || !strings.HasSuffix(matches[1], "-audit-clip-gaussian.json") || !strings.HasSuffix(matches[0], "-audit-clip-gaussian-2.json") {
		t.Fatalf("exported %v, want one JSON file per export, the second under the next free name", matches)
	}
	for _, p := range matches {
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s is not the `dpso audit --json` document:\n got %s\nwant %s", p, got, want)
		}
	}
	if !strings.Contains(m.status.text, "exported dpso-") || !strings.Contains(m.status.text, "-audit-clip-gaussian-2.json in ") {
		t.Errorf("status after the second export: %q", m.status.text)
	}
	if math.IsNaN(res.MuHat) {
		t.Error("the audit has no μ̂ (the comparison above would be vacuous)")
	}
}
