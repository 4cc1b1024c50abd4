package tui

import (
	"dpso/tui/chart"
	"dpso/tui/common"
	"dpso/tui/components/form"
	"dpso/tui/runs"
	"strings"
	"testing"
)

// TestNoColorLegendIsTheChartsGlyphs: under NO_COLOR
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

// TestRunChartUsesItsRunsReferenceLines: after a change of parameters the
// chart still shows the run before, with that run's own w₀ and
// certificate, never the new configuration's.
func TestRunChartUsesItsRunsReferenceLines(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &linregT, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
	w0 := m.run().Comparison.Reports[0].W0.Mean
	m.form.SetFocus(form.Tail)
	formKeys(t, m, "right")
	if nw := m.chartScreen().Presc.Prescription.W0.Mean; nw == w0 {
		t.Fatalf("the change of ν kept F(w₀) − F* = %g: the test's premise is wrong", w0)
	}
	for _, s := range m.chartScreen().Chart.Series() {
		if s.Kind == chart.Start && s.Value != w0 {
			t.Errorf("the chart draws w₀ = %g beside the run whose w₀ is %g", s.Value, w0)
		}
	}
	if v := screenText(m); !strings.Contains(v, "parameters changed since: press r") {
		t.Errorf("the chart does not say its run is of other parameters:\n%s", v)
	}
}

// TestOneTrialIsSingular: a one-trial run's chart title says "1 trial"
// (explore --data runs one trial by default; it said "1 trials"), and so
// does the comparison's.
func TestOneTrialIsSingular(t *testing.T) {
	sp := example1
	sp.Trials = 1
	for _, k := range []string{"r", "c"} {
		t.Run(k, func(t *testing.T) {
			m := newTestModel(t, &fakeRunner{points: 4}, &sp, 132, 42)
			keyUntil(t, m, k, func() bool { return settled(m) })
			if v := screenText(m); strings.Contains(v, "1 trials") || !strings.Contains(v, "#1 · 1 trial") {
				t.Errorf("%s with one trial:\n%s", k, v)
			}
		})
	}
	if got := common.TrialCount(1) + ", " + common.TrialCount(5); got != "1 trial, 5 trials" {
		t.Errorf("trialCount: %q", got)
	}
}
