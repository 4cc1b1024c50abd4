package plot

import (
	"math"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/theory"
)

// rateSweep is a sweep over ε with measured means m and the paper's
// upper and lower bounds' values u and l at each point.
func rateSweep(eps, m, u, l []float64) *engine.SweepReport {
	s := &engine.SweepReport{Sweep: engine.SweepSpec{Param: spec.SweepEps}, Solvers: []string{"acsa"},
		Bounds: []engine.BoundSlope{{ID: "up", Kind: theory.Upper, Title: "upper", Slope: -0.2}, {ID: "lo", Kind: theory.Lower, Title: "lower", Slope: -0.1}}}
	for i, e := range eps {
		r := synthetic([]float64{1, m[i]})
		r.Spec.Eps = e
		r.Excess = engine.Estimate{Mean: m[i], SE: m[i] / 10, N: 2}
		r.W0 = engine.Estimate{Mean: 10}
		r.Bounds = []theory.Bound{{ID: "up", Kind: theory.Upper, Value: u[i]}, {ID: "lo", Kind: theory.Lower, Value: l[i]}}
		s.Points = append(s.Points, engine.SweepPoint{Value: e, Reports: []*engine.Report{r}})
	}
	return s
}

// TestGuidesNeverPutALowerBoundAboveAnUpper: the slope guides all pass
// through the first solver's mean at one point, the one where the upper
// bound's ratio to the lower is least, so the upper bound's shape is
// drawn at or above the lower bound's at every point — whichever falls
// faster — and each guide's legend entry says that its height is not a
// claim. With the least-squares shift through all the points (each guide
// its own), an upper bound falling faster than the lower was drawn under
// it on the grid's right (preset 10's ε sweep).
func TestGuidesNeverPutALowerBoundAboveAnUpper(t *testing.T) {
	eps := []float64{0.1, 0.3, 1, 3, 10}
	m := []float64{0.5, 0.3, 0.2, 0.15, 0.12}
	pow := func(c, a float64) []float64 {
		out := make([]float64, len(eps))
		for i, e := range eps {
			out[i] = c * math.Pow(e, a)
		}
		return out
	}
	for _, c := range []struct {
		name   string
		u, l   []float64
		anchor int
	}{
		{"upper falls faster", pow(1, -0.2), pow(0.01, -0.1), 4},
		{"lower falls faster", pow(1, -0.1), pow(0.01, -0.2), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := rateSweep(eps, m, c.u, c.l)
			if got := GuideAnchor(s); got != c.anchor {
				t.Errorf("anchor at point %d, want %d", got, c.anchor)
			}
			f, err := Sweep(s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var up, lo []float64
			for _, g := range f.Series() {
				if g.Role != RoleRate {
					continue
				}
				if !strings.Contains(g.Name, slopeOnly) {
					t.Errorf("guide %q does not say its height is not a claim", g.Name)
				}
				ys := make([]float64, len(g.Points))
				for i, p := range g.Points {
					ys[i] = p.Y
				}
				if strings.Contains(g.Name, "upper") {
					up = ys
				} else {
					lo = ys
				}
				if d := g.Points[c.anchor].Y/m[c.anchor] - 1; math.Abs(d) > 1e-12 {
					t.Errorf("guide %q misses the measured mean at the anchor by %g", g.Name, d)
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
