package tui

import (
	"context"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/chart"
	"dpso/tui/common"
	"dpso/tui/runs"
	"math"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestFirstScreenMakesThePaperPoint: `dpso` then r, on the real engine.
// The explorer opens on the first preset; r runs the paper's solver beside
// Lipschitz DP-SGD (the preset's versus) on the same draws, on the first
// screen (the chart). The paper's solver ends below Lipschitz DP-SGD and
// below w₀, nothing ends above w₀ (the status bar says none), the
// legend has no constant-1 level, and the y axis reads values.
func TestFirstScreenMakesThePaperPoint(t *testing.T) {
	m, err := New(context.Background(), Options{Runner: backend.Local{}, Manual: true, ExportDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea80x24)
	// The guards end a hang only (3 CPU-seconds of runs, on a loaded
	// machine); no assertion reads the time.
	pump(t, m, m.initCmd, func() bool { return prescReady(m) })
	_, cmd := m.Update(press("r"))
	pump(t, m, cmd, func() bool { return settled(m) && m.run().Phase == runs.Done })
	r := m.run()
	if m.active != 0 || len(r.Names) != 2 || r.Names[0] != "acsa" || r.Names[1] != "lipschitz-dpsgd" {
		t.Fatalf("r ran %v on screen %d", r.Names, m.active)
	}
	acsa, lip := r.Comparison.Reports[0], r.Comparison.Reports[1]
	w0 := acsa.W0.Mean
	if !(acsa.Excess.Mean < lip.Excess.Mean && lip.Excess.Mean < w0) {
		t.Errorf("acsa %g, lipschitz-dpsgd %g, w₀ %g: want acsa < lipschitz-dpsgd < w₀", acsa.Excess.Mean, lip.Excess.Mean, w0)
	}
	v := screenText(m)
	if line := statusLine(m); strings.Contains(line, "above w₀") || common.OutcomeOf(r).Text != "" {
		t.Errorf("the status bar says a solver ended above w₀: %q", line)
	}
	for _, want := range []string{"── acsa " + common.FmtNum(acsa.Excess.Mean), "── lipschitz-dpsgd " + common.FmtNum(lip.Excess.Mean), "══ w₀ " + common.FmtNum(w0), "preset 1"} {
		if !strings.Contains(v, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, v)
		}
	}
	checkNoRateLevels(t, m)
	checkYLabelsAreValues(t, stripANSI(m.chartScreen().View()))
}

var tea80x24 = tea.WindowSizeMsg{Width: 80, Height: 24}

// checkNoRateLevels asserts that the run chart draws no bound with
// constants set to 1, neither on the plot nor in its legend.
func checkNoRateLevels(t *testing.T, m *Model) {
	t.Helper()
	v := stripANSI(m.chartScreen().View())
	for _, s := range m.chartScreen().Chart.Series() {
		if s.Kind == chart.Upper || s.Kind == chart.Lower || s.Kind == chart.Prior {
			t.Errorf("the run chart draws the rate %q as a level", s.Label)
		}
	}
	for _, l := range []string{"upper bound", "lower bound", "(prior)"} {
		if strings.Contains(v, l) {
			t.Errorf("the run chart's legend lists the rate %q:\n%s", l, v)
		}
	}
}

// checkYLabelsAreValues asserts that a chart's y labels are values (1, 2
// or 5 times a power of ten, written as the explorer writes numbers), not
// log10 exponents: no label is 0 or negative.
func checkYLabelsAreValues(t *testing.T, chartView string) {
	t.Helper()
	n := 0
	for _, l := range strings.Split(chartView, "\n") {
		i := strings.IndexAny(l, "┤┼")
		if i < 0 {
			continue
		}
		lab := strings.TrimSpace(l[:i])
		if lab == "" {
			continue
		}
		n++
		x, err := theory.ParseNumber(lab)
		if err != nil || !(x > 0) {
			t.Errorf("y label %q is not a positive value", lab)
			continue
		}
		if m := x / math.Pow(10, math.Floor(math.Log10(x)+1e-9)); math.Abs(m-1) > 1e-6 && math.Abs(m-2) > 1e-6 && math.Abs(m-5) > 1e-6 {
			t.Errorf("y label %q is not at a decade or a 1-2-5 step", lab)
		}
	}
	if n < 2 {
		t.Errorf("%d y labels:\n%s", n, chartView)
	}
}
