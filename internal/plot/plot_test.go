package plot

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

func TestFormatOf(t *testing.T) {
	for _, c := range []struct {
		path string
		want Format
		ok   bool
	}{
		{"a.png", PNG, true}, {"dir/b.PNG", PNG, true}, {"c.svg", SVG, true}, {"d.Svg", SVG, true},
		{"e.pdf", "", false}, {"f", "", false}, {"png", "", false}, {"g.png.txt", "", false},
	} {
		t.Run(c.path, func(t *testing.T) {
			got, err := FormatOf(c.path)
			if got != c.want || (err == nil) != c.ok {
				t.Errorf("FormatOf(%q) = %q, %v", c.path, got, err)
			}
			if err != nil && !strings.Contains(err.Error(), ".png or .svg") {
				t.Errorf("FormatOf(%q): message %q does not name the allowed extensions", c.path, err)
			}
		})
	}
}

// TestNum: the figures write values and standard errors as the explorer
// does (theory's Pretty form, 3 significant digits), never Go's
// 2.541e-05, nor a fourth digit the screen it was exported from lacks.
func TestNum(t *testing.T) {
	for x, want := range map[float64]string{
		2.541e-05: "2.54·10⁻⁵", 1.9932e6: "1.99·10⁶", -0.5: "−0.5", 0.02902: "0.029", 3.1224: "3.12", math.Inf(1): "∞",
	} {
		if got := num(x); got != want {
			t.Errorf("num(%g) = %q, want %q", x, got, want)
		}
		if got := seText(x); got != want {
			t.Errorf("seText(%g) = %q, want %q", x, got, want)
		}
	}
}

// checkPNG decodes b as a PNG of the default size, 1920×1080.
func checkPNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != DefaultWidth || h != DefaultHeight {
		t.Errorf("PNG of %d×%d px, want %d×%d", w, h, DefaultWidth, DefaultHeight)
	}
	return img
}

// svgText checks that b is well-formed XML with an <svg> root and returns
// its text content.
func svgText(t *testing.T, b []byte) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	root := ""
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tk.Name.Local
			}
		case xml.CharData:
			text.Write(tk)
			text.WriteByte(' ')
		}
	}
	if root != "svg" {
		t.Fatalf("SVG root element %q", root)
	}
	// One space between words: a legend entry wrapped over lines reads
	// as one text.
	return strings.Join(strings.Fields(text.String()), " ")
}

func runReport(t *testing.T) *engine.Report {
	t.Helper()
	rs, err := spec.Spec{Scenario: scenarios.LinRegT, D: 3, N: 3000, Trials: 3, Seed: 1}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.Run(context.Background(), rs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// comparisonFigure is the comparison of solvers names on s's problem and
// its figure.
func comparisonFigure(t *testing.T, s spec.Spec, names ...string) (*engine.Comparison, *Figure) {
	t.Helper()
	rs, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.Compare(context.Background(), rs, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Comparison(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c, f
}

func TestRunFigure(t *testing.T) {
	r := runReport(t)
	var pb, sb bytes.Buffer
	if err := WriteRun(&pb, PNG, r); err != nil {
		t.Fatal(err)
	}
	checkPNG(t, pb.Bytes())
	if err := WriteRun(&sb, SVG, r); err != nil {
		t.Fatal(err)
	}
	text := svgText(t, sb.Bytes())
	// The axes' labels, the title's parameters, the legend's entries and
	// notes; no rate (constants set to 1) is drawn as a level.
	for _, w := range []string{"per-sample gradient evaluations", "excess risk F(w) − F*",
		"linreg-t · smooth-convex · acsa", "n = 3000, d = 3", "noisy clipped AC-SA (acsa, the paper's): ",
		"measured: the mean over 3 trials", "faint: each trial", "w₀ (start): F(w₀) − F* = "} {
		if !strings.Contains(text, w) {
			t.Errorf("SVG lacks %q:\n%s", w, text)
		}
	}
	for _, b := range r.Bounds {
		if strings.Contains(text, BoundLabel(b.Kind, b.Title)) {
			t.Errorf("the run's figure draws the rate %s (constants set to 1) as a level", b.ID)
		}
	}
	// Same report, same bytes.
	var again bytes.Buffer
	WriteRun(&again, SVG, r)
	if !bytes.Equal(again.Bytes(), sb.Bytes()) {
		t.Error("the same report drew a different SVG")
	}
}

// TestSweepFigure: a rate sweep's figure (n, ε) draws what the explorer's
// sweep chart draws — each solver's measured means as points with their
// error bars, not joined, and its least-squares line in log-log through
// them (its ends at the grid's ends, on exp(intercept + slope·ln x), in
// the solver's colour) with the slope in the legend — beside the paper's
// bounds as slope guides and prior work's slopes in a note.
func TestSweepFigure(t *testing.T) {
	for _, tc := range []struct {
		name  string
		s     spec.Spec
		sw    engine.SweepSpec
		xAxis string
	}{
		{"n", spec.Spec{Scenario: scenarios.MeanHard, D: 10, Trials: 3, Class: theory.SmoothSC},
			engine.SweepSpec{Param: "n", From: 1000, To: 8000, Points: 3}, "n (samples)"},
		{"eps", spec.Spec{Scenario: scenarios.MeanHard, D: 10, N: 4000, Trials: 3, Class: theory.SmoothSC},
			engine.SweepSpec{Param: "eps", From: 0.1, To: 10, Points: 3}, "zCDP ε"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := tc.s.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			tc.sw.Solvers = []string{"clipped-sgd", "nonprivate-schedule"}
			rep, err := engine.Sweep(context.Background(), rs, tc.sw, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Sweep(rep, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkFitLines(t, f, rep)
			path := filepath.Join(t.TempDir(), "s.svg")
			if err := f.Save(path); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := svgText(t, b)
			// The legend's entries in full, or (they do not fit its column
			// at its size) the short ones with the solvers' names in a
			// note; the paper's bounds as slope guides, prior work's slopes
			// in a note.
			short := f.Layout().LegendShort
			for _, sl := range rep.Slopes {
				w := SolverLabel(sl.Solver) + ": measured means and their least-squares line, slope " + slopeText(sl.Slope)
				if short {
					w = sl.Solver + ": means, fitted slope " + slopeText(sl.Slope)
					if !strings.Contains(text, SolverLabel(sl.Solver)) {
						t.Errorf("SVG lacks the solver's name %q", SolverLabel(sl.Solver))
					}
				}
				if !strings.Contains(text, w) {
					t.Errorf("SVG lacks the slope entry %q:\n%s", w, text)
				}
			}
			for _, bs := range rep.Bounds {
				w := "slope guide · " + BoundLabel(bs.Kind, bs.Title) + ": slope " + slopeText(bs.Slope)
				switch {
				case bs.Kind == theory.Prior:
					w = bs.Title + ": slope " + slopeText(bs.Slope)
				case short:
					w = string(bs.Kind) + " bound's shape (slope " + slopeText(bs.Slope) + "), height not a claim"
				}
				if !strings.Contains(text, w) {
					t.Errorf("SVG lacks the slope guide %q:\n%s", w, text)
				}
			}
			if !strings.Contains(text, tc.xAxis) {
				t.Errorf("SVG lacks the x axis label %q", tc.xAxis)
			}
		})
	}
}

// checkFitLines checks that every solver of rep with a fitted slope has
// its measured means drawn as points (no line joining them) and one
// fitted line of its colour from the grid's first value to its last, on
// exp(intercept + slope·ln x).
func checkFitLines(t *testing.T, f *Figure, rep *engine.SweepReport) {
	t.Helper()
	x0, x1 := rep.Points[0].Value, rep.Points[len(rep.Points)-1].Value
	for _, sl := range rep.Slopes {
		if math.IsNaN(sl.Slope) {
			continue
		}
		var measured, fit []Series
		for _, s := range f.Series() {
			switch {
			case s.Solver != sl.Solver:
			case s.Role == RoleSolver:
				measured = append(measured, s)
			case s.Role == RoleFit:
				fit = append(fit, s)
			}
		}
		if len(measured) != 1 || measured[0].Line || measured[0].Glyph == "" {
			t.Errorf("%s: measured series %+v, want one, as markers without a line", sl.Solver, measured)
			continue
		}
		if len(fit) != 1 || !fit[0].Line || len(fit[0].Points) != 2 {
			t.Errorf("%s: fitted lines %+v, want one line of 2 points", sl.Solver, fit)
			continue
		}
		if !sameColor(fit[0].Color, measured[0].Color) {
			t.Errorf("%s: the fitted line's colour %v is not its points' %v", sl.Solver, fit[0].Color, measured[0].Color)
		}
		for i, x := range []float64{x0, x1} {
			p := fit[0].Points[i]
			want := math.Exp(sl.Intercept + sl.Slope*math.Log(x))
			if p.X != x || math.Abs(p.Y-want) > 1e-12*want {
				t.Errorf("%s: the fitted line's end %d is (%g, %g), want (%g, %g)", sl.Solver, i, p.X, p.Y, x, want)
			}
		}
	}
}

// synthetic is a report whose values exercise the log axes' limits.
func synthetic(excess []float64) *engine.Report {
	tr := make([]engine.TracePoint, len(excess))
	for i, e := range excess {
		tr[i] = engine.TracePoint{GradEvals: int64(100 * i), Excess: e}
	}
	return &engine.Report{
		Spec:   spec.Spec{Scenario: "linreg-t", Class: theory.SmoothConvex, N: 100, D: 2, K: 2, Eps: 1, Trials: 1},
		Solver: "acsa", Excess: engine.Estimate{Mean: excess[len(excess)-1], SE: math.NaN(), N: 1},
		Trials: []engine.TrialResult{{Trace: tr}}, Trace: tr, W0: engine.Estimate{Mean: math.NaN()},
		Risk: scenarios.RiskInfo{Kind: scenarios.Population},
	}
}

// certified gives r a certificate of value v (its conditions hold).
func certified(r *engine.Report, v float64) *engine.Report {
	r.Certified = engine.Certified{Cert: &theory.Certificate{ID: "acsa-generic-sum", Value: v,
		Source: "Lowy & Razaviyayn, Proposition [prop: ACSA generic]"}}
	return r
}

func TestRunFigureLeavesOutWhatALogAxisCannotShow(t *testing.T) {
	// Checkpoints at 0 (the start: w₀'s line), 100, 200, 300, 400
	// evaluations; excess 1, −0.1, 0.01, 0, 0.005: the negative and the
	// zero value are left out.
	r := synthetic([]float64{1, -0.1, 0.01, 0, 0.005})
	r.W0 = engine.Estimate{Mean: 1, SE: math.NaN()}
	var b bytes.Buffer
	if err := WriteRun(&b, SVG, r); err != nil {
		t.Fatal(err)
	}
	text := svgText(t, b.Bytes())
	if !strings.Contains(text, "2 checkpoint values ≤ 0 not shown (log axes)") {
		t.Errorf("SVG lacks the count of values left out:\n%s", text)
	}
}

// TestOffRangeReferencesAreArrows: the y range is the measured data's; a
// certificate a thousand times above them is not a line that squashes
// the curve into a band but an arrow at the top edge, labelled with its
// value beside it along the edge; the start line just above the data
// widens the range and is drawn.
func TestOffRangeReferencesAreArrows(t *testing.T) {
	r := certified(synthetic([]float64{0.2, 0.1, 0.05, 0.02, 0.01}), 30)
	r.W0 = engine.Estimate{Mean: 0.2, SE: math.NaN()}
	f, err := Run(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var cert, start *Series
	for _, s := range f.Series() {
		switch s.Role {
		case RoleCertificate:
			cert = &s
		case RoleStart:
			start = &s
		}
	}
	if cert == nil || !cert.Arrow || cert.Points[0].Y != f.Plot.Y.Max || !strings.Contains(cert.Name, "above the axes") {
		t.Errorf("the certificate 30 over data at 0.01…0.2 is not an arrow at the top edge: %+v (y max %g)", cert, f.Plot.Y.Max)
	}
	if start == nil || start.Arrow || f.Visible(*start) != 2 {
		t.Errorf("the start line at 0.2 is not drawn in range: %+v", start)
	}
	if f.Plot.Y.Max > 0.4 || f.Plot.Y.Min < 0.007 {
		t.Errorf("y range %g…%g is not set by the data (0.01…0.1) and w₀ (0.2)", f.Plot.Y.Min, f.Plot.Y.Max)
	}
	if err := f.Write(io.Discard, PNG); err != nil {
		t.Fatal(err)
	}
	found := false
	top := f.layout.axesV.Max.Y
	for _, l := range f.labels {
		if l.Text == "acsa certified ≤ 30" && l.Drawn {
			found = true
			// Beside its arrow along the top edge, or one row below: not
			// down among the data, where it would read as a level.
			if h := l.Box.Max.Y - l.Box.Min.Y; l.Box.Max.Y < top-h-8 {
				t.Errorf("the arrow's label %+v stands %g points below the top edge %g", l.Box, top-l.Box.Max.Y, top)
			}
		}
	}
	if !found {
		t.Errorf("the arrow's label is not drawn: %+v", f.labels)
	}
}

// TestLineLabelsKeepClearOfArrows: beside the explorer's first
// comparison — the paper's solver certified just under w₀ near the top,
// Lipschitz DP-SGD's certificate far above the axes — the arrow's label
// stands beside its arrow, and the lines' labels (w₀, the certificate)
// keep arrowClear from every arrow, where they would read as its label.
func TestLineLabelsKeepClearOfArrows(t *testing.T) {
	a := certified(synthetic([]float64{0.14, 0.08, 0.01, 1e-3, 1e-4}), 0.129)
	l := certified(synthetic([]float64{0.14, 0.0786}), 8.89)
	l.Solver = "lipschitz-dpsgd"
	a.W0 = engine.Estimate{Mean: 0.139, SE: math.NaN()}
	f, err := Comparison(&engine.Comparison{Reports: []*engine.Report{a, l}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Write(io.Discard, PNG); err != nil {
		t.Fatal(err)
	}
	var arrows []vg.Rectangle
	for _, s := range f.Series() {
		if s.Arrow {
			x, y := f.layout.axesV.Min.X+(f.layout.axesV.Max.X-f.layout.axesV.Min.X)*vg.Length(math.Log(s.Points[0].X/f.Plot.X.Min)/math.Log(f.Plot.X.Max/f.Plot.X.Min)), f.layout.axesV.Max.Y
			arrows = append(arrows, vg.Rectangle{Min: vg.Point{X: x - arrowHalf, Y: y - arrowDepth}, Max: vg.Point{X: x + arrowHalf, Y: y}})
		}
	}
	if len(arrows) != 1 {
		t.Fatalf("%d arrows, want lipschitz-dpsgd's certificate's alone", len(arrows))
	}
	drawn := map[string]bool{}
	for _, lb := range f.labels {
		drawn[lb.Text] = lb.Drawn
		if !lb.Drawn || strings.HasPrefix(lb.Text, "lipschitz-dpsgd") {
			continue
		}
		if rectsOverlap(lb.Box, grow(arrows[0], arrowClear-1)) {
			t.Errorf("the label %q %+v stands beside the arrow %+v", lb.Text, lb.Box, arrows[0])
		}
	}
	if !drawn["lipschitz-dpsgd certified ≤ 8.89"] {
		t.Errorf("the arrow's label is not drawn: %v", drawn)
	}
}

func TestNothingToDraw(t *testing.T) {
	r := synthetic([]float64{-1, 0})
	if _, err := Run(r, Options{}); !errors.Is(err, errNothing) {
		t.Errorf("Run of nothing drawable: %v, want errNothing", err)
	}
	if _, err := Run(nil, Options{}); err == nil {
		t.Error("Run(nil) gave no error")
	}
	if _, err := Sweep(&engine.SweepReport{}, Options{}); err == nil {
		t.Error("Sweep of no points gave no error")
	}
	// Only a certificate: it is drawn over the planned work.
	r = certified(synthetic([]float64{-1, 0}), 2)
	if _, err := Run(r, Options{}); err != nil {
		t.Errorf("a certificate only: %v", err)
	}
}

func TestSaveLeavesNoPartialFile(t *testing.T) {
	dir := t.TempDir()
	f, err := Run(runReport(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "fig.pdf")
	if err := f.Save(bad); err == nil {
		t.Error("Save to .pdf succeeded")
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("%s left behind (%v)", bad, err)
	}
	if err := (&Figure{Plot: nil}).Write(io.Discard, "jpg"); err == nil {
		t.Error("Write in jpg succeeded")
	}
}

// TestLineLabelsReadable: the horizontal reference lines carry their
// name and value at their right end, placed so that two lines at nearly
// the same value (two certificates, a pixel apart) get labels that
// neither overlap nor sit on a line.
func TestLineLabelsReadable(t *testing.T) {
	a := certified(synthetic([]float64{1, 0.5, 0.2, 0.1}), 0.3)
	b := certified(synthetic([]float64{1, 0.6, 0.25, 0.12}), 0.301)
	b.Solver = "clipped-sgd"
	a.W0 = engine.Estimate{Mean: 1, SE: math.NaN()}
	f, err := Comparison(&engine.Comparison{Reports: []*engine.Report{a, b}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Write(io.Discard, SVG); err != nil {
		t.Fatal(err)
	}
	labels, segs, _ := f.Labels()
	want := map[string]bool{"w₀ 1": false, "acsa certified ≤ 0.3": false, "clipped-sgd certified ≤ 0.301": false}
	for i, l := range labels {
		if _, ok := want[l.Text]; ok {
			want[l.Text] = l.Drawn
		}
		if !l.Drawn {
			continue
		}
		for _, c := range labels[i+1:] {
			if c.Drawn && rectsOverlap(l.Box, c.Box) {
				t.Errorf("labels %q and %q overlap", l.Text, c.Text)
			}
		}
		for _, s := range segs {
			if crosses(s[0], s[1], l.Box) {
				t.Errorf("label %q is crossed by a line", l.Text)
			}
		}
	}
	for text, drawn := range want {
		if !drawn {
			t.Errorf("line label %q not drawn (labels %v)", text, labels)
		}
	}
}
