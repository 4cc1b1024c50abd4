package plot

import (
	"bytes"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// TestOneStepSolverDrawn: the explorer's first preset's comparison (AC-SA
// against DP-SGD calibrated to L_f = 10⁴, whose prescription is one step
// of every sample) draws the one-step solver as what it is — its legend
// entry says one step from w₀, its drop from the start line to its one
// checkpoint is drawn in its colour at its checkpoint's evaluations, and
// a label beside the point names it — where it was a lone marker at the
// right edge of the axes — and the figure reads as a slide's must.
func TestOneStepSolverDrawn(t *testing.T) {
	c, f := comparisonFigure(t, spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 20, K: 4, Lf: 1e4, D: 10, N: 20000, Trials: 2}, "acsa", "lipschitz-dpsgd")
	var b bytes.Buffer
	if err := f.Write(&b, PNG); err != nil {
		t.Fatal(err)
	}
	img := checkPNG(t, b.Bytes())
	lay := f.Layout()
	w0 := c.Reports[1].W0.Mean
	found := false
	for _, s := range f.Series() {
		if s.Role != RoleSolver || s.Solver != "lipschitz-dpsgd" {
			continue
		}
		found = true
		if len(s.Points) != 1 {
			t.Fatalf("lipschitz-dpsgd has %d checkpoints here, not the one step this test is about", len(s.Points))
		}
		if !strings.Contains(s.Name, "one step: from w₀ to its one checkpoint") {
			t.Errorf("its legend entry %q does not say it is one step from w₀", s.Name)
		}
		// Its colour's pixels in its point's columns reach from the start
		// line's row to the point's.
		_, bottom, cols := pixelSpan(f, lay, s)
		w0Row, _, _ := pixelSpan(f, lay, Series{Points: plotter.XYs{{X: s.Points[0].X, Y: w0}}})
		pTop, pBottom := colourExtent(img, s.Color, cols, lay.Axes)
		if pTop > w0Row+4 || pBottom < bottom-4 {
			t.Errorf("its colour spans rows %g…%g in its columns, not the drop from w₀ (row %g) to its point (row %g)", pTop, pBottom, w0Row, bottom)
		}
	}
	if !found {
		t.Fatal("no lipschitz-dpsgd series")
	}
	// A slide's reading (TestSlideFigures): the legend at 32 px or more in
	// at most a quarter of the width, every solver, w₀ and certificate in a
	// colour and marker of its own.
	if lay.LegendPx < 32 || lay.Legend.X1-lay.Legend.X0 > 0.25*float64(lay.Width)+1 {
		t.Errorf("legend at %g px, %g of %d px wide", lay.LegendPx, lay.Legend.X1-lay.Legend.X0, lay.Width)
	}
	checkDistinct(t, f)
	labels, _, _ := f.Labels()
	named := false
	for _, l := range labels {
		named = named || l.Drawn && strings.HasPrefix(l.Text, "lipschitz-dpsgd ") && strings.HasSuffix(l.Text, ", one step")
	}
	if !named {
		t.Errorf("no label beside the one-step point names it: %+v", labels)
	}
}
