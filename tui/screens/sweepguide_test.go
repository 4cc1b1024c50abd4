package screens

import (
	"math"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/theory"
)

// TestGuidesKeepTheUpperAboveTheLower: the sweep chart's guides all pass
// through the first solver's mean at one point (plot.GuideAnchor, the
// figure's), so the upper bound's shape is drawn at or above the lower
// bound's at every point, whichever falls faster. With each guide shifted
// through all the points on its own, an upper bound falling faster than
// the lower was drawn under it on the grid's right (preset 10's ε sweep
// at 120×32).
func TestGuidesKeepTheUpperAboveTheLower(t *testing.T) {
	eps := []float64{0.1, 0.3, 1, 3, 10}
	m := []float64{0.5, 0.3, 0.2, 0.15, 0.12}
	for _, c := range []struct {
		name   string
		up, lo float64 // the bounds' exponents in ε
	}{
		{"upper falls faster", -0.2, -0.1},
		{"lower falls faster", -0.1, -0.2},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := &engine.SweepReport{Sweep: engine.SweepSpec{Param: spec.SweepEps}, Solvers: []string{"acsa"},
				Bounds: []engine.BoundSlope{{ID: "up", Kind: theory.Upper, Slope: c.up}, {ID: "lo", Kind: theory.Lower, Slope: c.lo}}}
			for i, e := range eps {
				r := &engine.Report{Excess: engine.Estimate{Mean: m[i]},
					Bounds: []theory.Bound{{ID: "up", Kind: theory.Upper, Value: math.Pow(e, c.up)}, {ID: "lo", Kind: theory.Lower, Value: 0.01 * math.Pow(e, c.lo)}}}
				rep.Points = append(rep.Points, engine.SweepPoint{Value: e, Reports: []*engine.Report{r}})
			}
			var up, lo []float64
			for _, s := range guideSeries(testCommon(), rep, false) {
				var ys []float64
				for _, p := range s.Points {
					ys = append(ys, p.Y)
				}
				if strings.HasPrefix(s.Label, "upper") {
					up = ys
				} else {
					lo = ys
				}
			}
			if len(up) != len(eps) || len(lo) != len(eps) {
				t.Fatalf("guides of %d and %d points, want %d", len(up), len(lo), len(eps))
			}
			for i := range eps {
				if up[i] < lo[i]*(1-1e-12) {
					t.Errorf("at ε = %g the upper bound's shape %g is drawn under the lower bound's %g", eps[i], up[i], lo[i])
				}
			}
		})
	}
}
