package plot

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// lab is c in CIE L*a*b* (D65 white), from sRGB.
func lab(c color.Color) [3]float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v>>8) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	R, G, B := lin(r), lin(g), lin(b)
	X := (0.4124*R + 0.3576*G + 0.1805*B) / 0.95047
	Y := 0.2126*R + 0.7152*G + 0.0722*B
	Z := (0.0193*R + 0.1192*G + 0.9505*B) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return [3]float64{116*f(Y) - 16, 500 * (f(X) - f(Y)), 200 * (f(Y) - f(Z))}
}

// deltaE is the CIE76 colour difference of a and b (about 2.3 is just
// noticeable; the Okabe–Ito palette's closest pair, blue and sky blue,
// is 26).
func deltaE(a, b color.Color) float64 {
	x, y := lab(a), lab(b)
	return math.Sqrt((x[0]-y[0])*(x[0]-y[0]) + (x[1]-y[1])*(x[1]-y[1]) + (x[2]-y[2])*(x[2]-y[2]))
}

// alikeDashes reports whether two dash patterns read as the same kind of
// line: both solid, or as many segments with each within a factor of 2
// of the other's (a dash of 8 and one of 14 are both "dashed").
func alikeDashes(a, b []vg.Length) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if r := float64(a[i] / b[i]); r > 2 || r < 0.5 {
			return false
		}
	}
	return true
}

// fiveSolvers are preset 3's comparison: the paper's, the non-private
// schedule, Lipschitz DP-SGD, KLZ's and DP-SGD.
var fiveSolvers = []string{"acsa", "nonprivate-schedule", "lipschitz-dpsgd", "klz-gd", "dp-sgd"}

// TestComparisonSolversLookApart: in a comparison of five solvers
// (preset 3's: the paper's, the non-private schedule, Lipschitz DP-SGD,
// KLZ's, DP-SGD with the PLD accountant), every two solvers differ in
// colour by ΔE ≥ 40 (CIE L*a*b*) and in the kind of line (solid, dashed,
// short-dashed, dash-dot, dash-dot-dot), so that none is read for
// another: two oranges with one dash were.
func TestComparisonSolversLookApart(t *testing.T) {
	_, f := comparisonFigure(t, spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, Lf: 1e6, D: 3, N: 1500, Trials: 2}, fiveSolvers...)
	var solvers []Series
	for _, s := range f.Series() {
		if s.Role == RoleSolver {
			solvers = append(solvers, s)
		}
	}
	if len(solvers) != 5 {
		t.Fatalf("%d solver series drawn, want 5", len(solvers))
	}
	for i, a := range solvers {
		for _, b := range solvers[i+1:] {
			if d := deltaE(a.Color, b.Color); d < 40 {
				t.Errorf("%s and %s: colours %v and %v only ΔE %.1f apart (want ≥ 40)", a.Solver, b.Solver, a.Color, b.Color, d)
			}
			if a.Line && b.Line && alikeDashes(a.Dashes, b.Dashes) {
				t.Errorf("%s and %s: lines of one kind (dashes %v and %v)", a.Solver, b.Solver, a.Dashes, b.Dashes)
			}
		}
	}
}

// TestFiveSolverComparisonDrawsEveryEntryAndNote: preset 3's comparison
// (example1, its five solvers; here at n = 10⁴) keeps every legend entry
// and every note on the slide — the ε' note that says what the legend's
// tags are among them — with no part over another, where its last entry
// and two notes were counted in "… more" lines.
func TestFiveSolverComparisonDrawsEveryEntryAndNote(t *testing.T) {
	_, f := comparisonFigure(t, spec.Spec{Scenario: scenarios.Example1, N: 10000, Trials: 3}, fiveSolvers...)
	svg := figureSVG(t, f, "comparison-five")
	lay := f.Layout()
	if lay.LegendDrawn != lay.LegendEntries || lay.NotesDrawn != lay.NotesTotal || strings.Contains(svg, " more") {
		t.Errorf("%d of %d legend entries and %d of %d notes drawn", lay.LegendDrawn, lay.LegendEntries, lay.NotesDrawn, lay.NotesTotal)
	}
	if !strings.Contains(squash(svg), squash("ε': each solver's")) {
		t.Error("the SVG lacks the note that says what the ε' tags are")
	}
	overlap := func(a, b PixelRect) bool { return a.X0 < b.X1 && b.X0 < a.X1 && a.Y0 < b.Y1 && b.Y0 < a.Y1 }
	for _, p := range [][2]PixelRect{{lay.Legend, lay.Notes}, {lay.Legend, lay.NotesSide}, {lay.Axes, lay.Notes}, {lay.Axes, lay.NotesSide}, {lay.Notes, lay.NotesSide}} {
		if overlap(p[0], p[1]) {
			t.Errorf("parts overlap: %+v and %+v", p[0], p[1])
		}
	}
}
