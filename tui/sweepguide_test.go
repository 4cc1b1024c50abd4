package tui

import (
	"math"
	"strings"
	"testing"

	"dpso/internal/plot"
	"dpso/tui/chart"
	"dpso/tui/screens"
)

// TestSweepDrawsSlopeGuides: a sweep of n draws the paper's bounds as
// shapes through the first solver's measured mean at one point, the
// figure's (plot.GuideAnchor), with their slopes; the measured points carry
// markers and the fitted line; the table sets the theory's slopes beside
// the measured one and says where the theory is not in force.
func TestSweepDrawsSlopeGuides(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	keyUntil(t, m, "s", func() bool { return doneOf(m, screens.SweepNKind) })
	rep := m.sweepScreen().Report()
	measured := screens.Means(rep, 0)
	at := plot.GuideAnchor(rep) // the figure's anchor, the same for every guide
	if at < 0 {
		t.Fatal("no point to anchor the guides")
	}
	kinds := map[chart.Kind]bool{}
	for _, s := range m.sweepScreen().Chart.Series() {
		kinds[s.Kind] = true
		if s.Kind != chart.Upper && s.Kind != chart.Lower {
			continue
		}
		if !strings.HasSuffix(s.Label, "'s shape") || !strings.HasPrefix(s.Note, "slope ") {
			t.Errorf("guide %q %q is not labelled as a shape with its slope", s.Label, s.Note)
		}
		if d := math.Log(measured[at] / s.Points[at].Y); math.Abs(d) > 1e-9 {
			t.Errorf("guide %q misses the measured mean at its anchor, point %d (log ratio %g)", s.Label, at, d)
		}
	}
	for _, k := range []chart.Kind{chart.Upper, chart.Lower, chart.Run, chart.Fit, chart.Start} {
		if !kinds[k] {
			t.Errorf("the sweep draws no series of kind %d", k)
		}
	}
	v := screenText(m)
	for _, want := range []string{"upper bound's shape slope", "●", "fitted line", "theory's slopes (rates)", "not yet in force"} {
		if !strings.Contains(v, want) {
			t.Errorf("the sweep screen lacks %q:\n%s", want, v)
		}
	}
	checkYLabelsAreValues(t, stripANSI(m.sweepScreen().View()))
}
