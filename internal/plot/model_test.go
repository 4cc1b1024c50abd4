package plot

import (
	"context"
	"image/color"
	"slices"
	"strings"
	"testing"

	"dpso/solvers"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// sameColor reports whether two colours are the same RGBA.
func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// checkModel checks a figure's model: every series has at least one mark
// inside the axes (an arrow's is at its edge), no two series share a
// colour or (lines, not arrows) a dash pattern, and no legend name is a
// bare internal id.
func checkModel(t *testing.T, f *Figure, ids []string) {
	t.Helper()
	ss := f.Series()
	for i, a := range ss {
		if f.Visible(a) == 0 {
			t.Errorf("series %q has no mark inside the axes (x %g…%g, y %g…%g): %v", a.Name, f.Plot.X.Min, f.Plot.X.Max, f.Plot.Y.Min, f.Plot.Y.Max, a.Points)
		}
		if len(a.Points) == 1 && a.Glyph == "" {
			t.Errorf("series %q is one point without a marker", a.Name)
		}
		for _, id := range ids {
			if a.Name == id {
				t.Errorf("series named by its internal id %q", id)
			}
		}
		for _, b := range ss[i+1:] {
			if sameColor(a.Color, b.Color) {
				t.Errorf("series %q and %q share a colour", a.Name, b.Name)
			}
			if !a.Arrow && !b.Arrow && slices.Equal(a.Dashes, b.Dashes) {
				t.Errorf("series %q and %q share a dash pattern %v", a.Name, b.Name, a.Dashes)
			}
		}
	}
}

// The flagship preset at a test's size: linreg-t with
// a declared L_f, so that lipschitz-dpsgd runs, as one full-batch step (a
// two-point trace), beside acsa, sgd and klz-gd.
func TestComparisonFigureModel(t *testing.T) {
	names := []string{"acsa", "nonprivate-schedule", "lipschitz-dpsgd", "klz-gd"}
	c, f := comparisonFigure(t, spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, Lf: 1e6, D: 3, N: 4000, Trials: 3}, names...)
	ids := append([]string{}, names...)
	for _, b := range c.Reports[0].Bounds {
		ids = append(ids, b.ID)
	}
	checkModel(t, f, ids)
	roles := map[Role]int{}
	for _, s := range f.Series() {
		roles[s.Role]++
	}
	for _, r := range c.Reports {
		if r.Refused != "" {
			continue
		}
		var got *Series
		for _, s := range f.Series() {
			if s.Role == RoleSolver && s.Solver == r.Solver {
				got = &s
				break
			}
		}
		if got == nil {
			t.Errorf("%s: no measured series", r.Solver)
			continue
		}
		// The start (0 evaluations, which a log axis cannot show) is the
		// w₀ line: the series begins at the first checkpoint after it,
		// and is named by its human name.
		if got.Points[0].X != float64(r.Trace[1].GradEvals) {
			t.Errorf("%s: first point at x = %g, want the first checkpoint after the start, %d", r.Solver, got.Points[0].X, r.Trace[1].GradEvals)
		}
		if !strings.HasPrefix(got.Name, SolverLabel(r.Solver)) || SolverLabel(r.Solver) == r.Solver {
			t.Errorf("%s: legend name %q", r.Solver, got.Name)
		}
		if got.Glyph == "" {
			t.Errorf("%s: no markers", r.Solver)
		}
		if r.Solver == "lipschitz-dpsgd" && len(got.Points) != 1 {
			t.Errorf("lipschitz-dpsgd: %d points, want its one checkpoint after the start", len(got.Points))
		}
	}
	if roles[RoleStart] != 1 {
		t.Errorf("%d start lines, want 1", roles[RoleStart])
	}
	if roles[RoleSolver] != len(names) {
		t.Errorf("%d measured series, want %d", roles[RoleSolver], len(names))
	}
	if roles[RoleCertificate] == 0 {
		t.Error("no certificate line")
	}
	if roles[RoleRate] != 0 {
		t.Error("a run's figure draws a rate (constants set to 1) as a level")
	}
}

// A clip sweep's figure: measured, noise-off, start, certificate and the
// two vertical markers, all distinct and visible.
func TestClipSweepFigureModel(t *testing.T) {
	rs, err := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, D: 3, N: 3000, Trials: 2}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := engine.Sweep(context.Background(), rs, engine.SweepSpec{Param: spec.SweepClip, Points: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Sweep(rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkModel(t, f, []string{"clipped-sgd"})
	roles := map[Role]int{}
	for _, s := range f.Series() {
		roles[s.Role]++
	}
	for _, r := range []Role{RoleSolver, RoleNoiseOff, RoleStart, RoleMarker} {
		t.Run(string(r), func(t *testing.T) {
			if roles[r] == 0 {
				t.Errorf("no %s series", r)
			}
		})
	}
	if roles[RoleRate] != 0 {
		t.Error("a clip sweep draws the rates, which an overridden C does not move")
	}
}

// TestSolverLabels: a legend names every registered solver by its
// Descriptor's Legend and its id, the paper's algorithms marked as such,
// and an unregistered name as it is.
func TestSolverLabels(t *testing.T) {
	for _, d := range solvers.Descriptors() {
		got := SolverLabel(d.Name())
		if !strings.HasPrefix(got, d.Legend+" ("+d.Name()) || strings.HasSuffix(got, ", the paper's)") == d.Baseline() {
			t.Errorf("SolverLabel(%q) = %q", d.Name(), got)
		}
	}
	if got := SolverLabel("acsa"); got != "noisy clipped AC-SA (acsa, the paper's)" {
		t.Errorf("SolverLabel(acsa) = %q", got)
	}
	if got := SolverLabel("no-such-solver"); got != "no-such-solver" {
		t.Errorf("SolverLabel of an unregistered name = %q", got)
	}
	if BoundLabel(theory.Lower, "lower bound (convex)") != "lower bound (convex)" {
		t.Error("a lower bound's label repeats its kind")
	}
}
