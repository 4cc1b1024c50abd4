package tui

import (
	"math"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	goldenfile "dpso/internal/testutil/golden"
	"dpso/solvers/oracle"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/components/clip"
	"dpso/tui/components/form"
	"dpso/tui/components/help"
	"dpso/tui/components/presetlist"
	"dpso/tui/components/privacy"
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// golden compares got, ANSI stripped and trailing spaces trimmed, with
// testdata/name.golden (go test -update or DPSO_UPDATE_GOLDEN=1 rewrites
// it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	lines := strings.Split(stripANSI(got), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	goldenfile.Equal(t, name, strings.Join(lines, "\n")+"\n")
}

// goldenModelOpts is the explorer on example1 after a finished comparison
// of the fake runner.
func goldenModelOpts(t testing.TB, opts Options, w, h int) *Model {
	t.Helper()
	m := newTestModelOpts(t, opts, &example1, w, h)
	// Done, and every progress value applied (the result can overtake
	// the last batch): 4 solvers (lipschitz-dpsgd refuses) × 3 trials ×
	// 3200 evaluations.
	keyUntil(t, m, "c", func() bool {
		r := m.run()
		return r != nil && r.Phase == runs.Done && r.Drained && r.TotalEvals() == 12*fakeEvals(6)
	})
	return m
}

func goldenModel(t testing.TB, w, h int) *Model {
	return goldenModelOpts(t, testOpts(t, &fakeRunner{points: 6}, 100*time.Millisecond), w, h)
}

// TestGoldenScreens: the whole screen, every main screen, at 80×24 (the
// common terminal: the compact layout), 120×32 (a projector) and 132×42
// (the wide one): wordSizes; and the
// comparison at 200×60 and without colour.
func TestGoldenScreens(t *testing.T) {
	for _, sz := range wordSizes {
		size := itoa(sz[0]) + "x" + itoa(sz[1])
		// The first screen, before any run.
		m := newTestModel(t, &fakeRunner{points: 6}, &example1, sz[0], sz[1])
		golden(t, "screen-first-"+size, m.render())
		// The explorer's first screen, the first preset with its caption;
		// r runs the paper's solver beside Lipschitz DP-SGD (the preset's
		// versus): the chart draws the runs, w₀ and the certificate, no
		// rate; a change of n keeps the caption and names the change; c
		// compares with every baseline.
		m = newTestModel(t, &fakeRunner{points: 6}, nil, sz[0], sz[1])
		golden(t, "screen-first-preset-"+size, m.render())
		keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
		golden(t, "screen-first-run-"+size, m.render())
		formKeys(t, m, "left")
		golden(t, "screen-preset-changed-"+size, m.render())
		keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Phase == runs.Done })
		golden(t, "screen-compare-preset-"+size, m.render())

		m = goldenModel(t, sz[0], sz[1])
		golden(t, "screen-compare-"+size, m.render())
		if sz[0] == 80 {
			keyUntil(t, m, "t", func() bool { return true })
			golden(t, "screen-compare-privacy-"+size, m.render())
			keyUntil(t, m, "t", func() bool { return true })
			golden(t, "screen-compare-clipping-"+size, m.render())
			keyUntil(t, m, "t", func() bool { return true })
		}
		keyUntil(t, m, "m", func() bool { return true })
		golden(t, "screen-moments-"+size, m.render())
		keyUntil(t, m, "s", func() bool { return doneOf(m, screens.SweepNKind) })
		golden(t, "screen-sweep-"+size, m.render())
		keyUntil(t, m, "x", func() bool { return doneOf(m, screens.ClipKind) })
		golden(t, "screen-clip-"+size, m.render())
		keyUntil(t, m, "?", func() bool { return true })
		golden(t, "screen-help-"+size, m.render())
		keyUntil(t, m, "esc", func() bool { return m.overlay == nil })
		keyUntil(t, m, "p", func() bool { return true })
		golden(t, "screen-presets-"+size, m.render())
	}
	m := goldenModel(t, 200, 60)
	golden(t, "screen-compare-200x60", m.render())
	opts := testOpts(t, &fakeRunner{points: 6}, 100*time.Millisecond)
	opts.Plain = true
	m = goldenModelOpts(t, opts, 80, 24)
	golden(t, "screen-compare-nocolor-80x24", m.render())
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
	golden(t, "screen-too-small-40x12", m.render())
}

func itoa(n int) string {
	return strings.TrimSpace(strings.Replace(common.FmtInt(int64(n)), "k", "000", 1))
}

// TestGoldenComponents: each component's View() at fixed sizes.
func TestGoldenComponents(t *testing.T) {
	m := goldenModel(t, 132, 42)
	c := m.Common

	m.form.SetSize(40, 16)
	golden(t, "form-40x16", m.form.View())
	m.form.SetFocus(form.D)
	m.form.Step(1) // refused: example1's d is fixed
	golden(t, "form-refused-40x16", m.form.View())

	m.chartScreen().SetSize(90, 22)
	golden(t, "chart-compare-90x22", m.chartScreen().View())

	m.formula.SetSize(100, 16)
	golden(t, "formula-100x16", m.formula.View())
	m.formula.SetSize(60, 7)
	golden(t, "formula-60x7", m.formula.View())
	m.formula.Update(press("pgdown"))
	golden(t, "formula-60x7-pgdown", m.formula.View())

	p := privacy.New(c)
	p.SetSize(46, 6)
	p.Update(common.SpecMsg{Spec: m.form.Resolved()})
	p.Update(runs.Event{Run: m.run()})
	golden(t, "privacy-46x6", p.View())
	noPrivacy := m.form.Spec()
	noPrivacy.Eps = math.Inf(1)
	inf, err := backend.Resolve(noPrivacy)
	if err != nil {
		t.Fatal(err)
	}
	// ε = ∞ on the form, no run drawn (with one drawn the panel states
	// that run's first: TestPrivacyPanelKeepsTheDrawnRun).
	p.Update(common.SpecMsg{Spec: inf})
	p.Update(runs.Event{Run: nil})
	golden(t, "privacy-noprivacy-46x6", p.View())
	// dp-sgd, before a run: its accountant's (ε', δ) target.
	dp := m.form.Spec()
	dp.Solver = "dp-sgd"
	acc, err := backend.Resolve(dp)
	if err != nil {
		t.Fatal(err)
	}
	p.Update(common.SpecMsg{Spec: acc})
	p.Update(runs.Event{Run: nil})
	golden(t, "privacy-accountant-46x6", p.View())

	cp := clip.New(c)
	cp.SetSize(46, 10)
	cp.Update(m.chartScreen().Presc)
	golden(t, "clip-before-46x10", cp.View())
	var hist [oracle.HistBins]int
	for b, n := range map[int]int{12: 2, 14: 10, 16: 40, 17: 80, 18: 120, 19: 60, 20: 30, 22: 8, 24: 3} {
		hist[b] = n
	}
	r := &runs.Run{Job: runs.Job{Call: backend.Call{Names: []string{"localized"}}}, HaveHist: true, HistWho: "localized · trial 0", HistPhase: 3, Hist: oracle.BatchStats{Size: 353, Threshold: 20, Clipped: 41, Hist: hist}}
	cp.Update(runs.Event{Run: r})
	golden(t, "clip-46x10", cp.View())
	// The histogram says what a bar counts: its top row labels the
	// tallest bar's count of the batch's rows.
	if v := stripANSI(cp.View()); !strings.Contains(v, "120 rows") {
		t.Errorf("the histogram does not say it counts the batch's rows:\n%s", v)
	}

	m2 := newTestModel(t, &fakeRunner{points: 4}, &example1, 132, 42)
	keyUntil(t, m2, "s", func() bool { return doneOf(m2, screens.SweepNKind) })
	sw := m2.sweepScreen()
	sw.SetSize(90, 20)
	golden(t, "sweep-90x20", sw.View())
	sw.Table.SetSize(90, 10)
	golden(t, "sweep-table-90x10", sw.Table.View())

	pl := presetlist.New(c, presets.All, 0)
	pl.SetSize(132, 20)
	pl.Move(1)
	golden(t, "presets-132x20", pl.View())

	hv := help.New(c)
	hv.SetSize(100, 30)
	golden(t, "help-100x30", hv.View())
}
