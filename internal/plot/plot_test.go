package plot

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
		got, err := FormatOf(c.path)
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("FormatOf(%q) = %q, %v", c.path, got, err)
		}
		if err != nil && !strings.Contains(err.Error(), ".png or .svg") {
			t.Errorf("FormatOf(%q): message %q does not name the allowed extensions", c.path, err)
		}
	}
}

// TestNum: the legend's values are written as the axes' ticks are (short
// exponents, a proper minus), never Go's 2.541e-05.
func TestNum(t *testing.T) {
	for x, want := range map[float64]string{
		2.541e-05: "2.541e−5", 1.9932e6: "1.993e6", -0.5: "−0.5", 0.02902: "0.02902",
		12345: "1.234e4", -3e-7: "−3e−7", math.Inf(1): "∞",
	} {
		if got := num(x); got != want {
			t.Errorf("num(%g) = %q, want %q", x, got, want)
		}
	}
}

func TestLogTicks(t *testing.T) {
	cases := []struct {
		lo, hi float64
		labels []string
	}{
		// Only ticks inside the range; the decades labelled.
		// and, where the axis goes on past a factor 2 beyond the outer
		// labelled decades, its outermost ticks (the data are covered).
		{0.0015, 0.3, []string{"0.002", "0.01", "0.1", "0.3"}},
		{1.5e-6, 0.03, []string{"2e−6", "1e−5", "1e−4", "0.001", "0.01", "0.03"}},
		// The reported axis: traces down to 0.035 under a lowest label 0.1.
		{0.03, 3, []string{"0.03", "0.1", "1", "3"}},
		{0.06, 1.9, []string{"0.1", "1"}},
		{50, 2e6, []string{"100", "1000", "10000", "1e5", "1e6"}},
		{2.1e-6, 2.9e-6, []string{"2.1e−6", "2.9e−6"}},
		// Less than two decades: every multiple labelled.
		{1400, 10000, []string{"2000", "3000", "4000", "5000", "6000", "7000", "8000", "9000", "10000"}},
		// Inside one multiple's gap: the ends.
		{2.1, 2.9, []string{"2.1", "2.9"}},
	}
	for _, c := range cases {
		var labels []string
		for _, tk := range (logTicks{}).Ticks(c.lo, c.hi) {
			if tk.Value < c.lo*(1-1e-9) || tk.Value > c.hi*(1+1e-9) {
				t.Errorf("[%g, %g]: tick %g outside the range", c.lo, c.hi, tk.Value)
			}
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if strings.Join(labels, " ") != strings.Join(c.labels, " ") {
			t.Errorf("[%g, %g]: labels %v, want %v", c.lo, c.hi, labels, c.labels)
		}
	}
	if ts := (logTicks{}).Ticks(0, 1); ts != nil {
		t.Errorf("ticks on a range with 0: %v", ts)
	}
}

// checkPNG decodes b as a PNG of the figure's size (at vgimg's 96 dpi).
func checkPNG(t *testing.T, b []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	if w := img.Bounds().Dx(); w != int(math.Round(Width.Points()*96/72)) {
		t.Errorf("PNG width %d px, want %g in at 96 dpi", w, Width.Points()/72)
	}
	if h := img.Bounds().Dy(); float64(h) < Height.Points()*96/72 {
		t.Errorf("PNG height %d px is less than the axes' %g in", h, Height.Points()/72)
	}
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
			text.WriteByte('\n')
		}
	}
	if root != "svg" {
		t.Fatalf("SVG root element %q", root)
	}
	return text.String()
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
	// The axes' labels with units, the title's parameters, the legend's
	// entries (the mean and every bound of the class by id).
	want := []string{"per-sample gradient evaluations + 1", "excess risk F(w) − F* (loss units, log scale)",
		"linreg-t · smooth-convex · acsa", "n = 3000, d = 3", "noisy clipped AC-SA (acsa, the paper's): measured, mean of 3 trials",
		"faint lines: each trial's trace", "w₀ (start): F(w₀) − F* = ", "rate, constants = 1: compare slopes"}
	for _, b := range r.Bounds {
		want = append(want, "rate · "+BoundLabel(b.Kind, b.Title))
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("SVG lacks %q", w)
		}
	}
	// Same report, same bytes.
	var again bytes.Buffer
	WriteRun(&again, SVG, r)
	if !bytes.Equal(again.Bytes(), sb.Bytes()) {
		t.Error("the same report drew a different SVG")
	}
}

func TestSweepFigure(t *testing.T) {
	rs, err := spec.Spec{Scenario: scenarios.MeanHard, D: 10, Trials: 3, Class: theory.SmoothSC}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := engine.Sweep(context.Background(), rs,
		engine.SweepSpec{Param: "n", From: 1000, To: 8000, Points: 3, Solvers: []string{"clipped-sgd", "nonprivate-schedule"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"s.png", "s.svg"} {
		path := filepath.Join(dir, name)
		if err := SaveSweep(path, rep); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".png") {
			checkPNG(t, b)
			continue
		}
		text := svgText(t, b)
		for _, sl := range rep.Slopes {
			w := SolverLabel(sl.Solver) + ": measured mean, slope " + slopeText(sl.Slope)
			if !strings.Contains(text, w) {
				t.Errorf("SVG lacks the slope entry %q", w)
			}
		}
		for _, bs := range rep.Bounds {
			if !strings.Contains(text, BoundLabel(bs.Kind, bs.Title)) {
				t.Errorf("SVG lacks bound %s", bs.ID)
			}
		}
		if !strings.Contains(text, "n (samples, log scale)") {
			t.Error("SVG lacks the x axis label")
		}
	}
}

// synthetic is a report whose values exercise the log axes' limits.
func synthetic(excess []float64, bounds ...theory.Bound) *engine.Report {
	tr := make([]engine.TracePoint, len(excess))
	for i, e := range excess {
		tr[i] = engine.TracePoint{GradEvals: int64(100 * i), Excess: e}
	}
	return &engine.Report{
		Spec:   spec.Spec{Scenario: "linreg-t", Class: theory.SmoothConvex, N: 100, D: 2, K: 2, Eps: 1, Trials: 1},
		Solver: "acsa", Excess: engine.Estimate{Mean: excess[len(excess)-1], SE: math.NaN(), N: 1},
		Trials: []engine.TrialResult{{Trace: tr}}, Trace: tr, Bounds: bounds,
		Risk: scenarios.RiskInfo{Kind: scenarios.Population},
	}
}

func TestRunFigureLeavesOutWhatALogAxisCannotShow(t *testing.T) {
	bounds := []theory.Bound{
		{ID: "finite", Kind: theory.Upper, Value: 0.5},
		{ID: "infinite", Kind: theory.Lower, Value: math.Inf(1)},
		{ID: "huge", Kind: theory.Prior, Value: 4e18},
	}
	// Checkpoints at 0, 100, 200, 300 evaluations (drawn at +1, so the
	// start shows); excess 1, −0.1, 0.01, 0: the negative and the zero
	// value are left out, in the trial and in the mean: 4 in all.
	r := synthetic([]float64{1, -0.1, 0.01, 0}, bounds...)
	var b bytes.Buffer
	if err := WriteRun(&b, SVG, r); err != nil {
		t.Fatal(err)
	}
	text := svgText(t, b.Bytes())
	for _, w := range []string{
		"4 checkpoint values ≤ 0 not shown (log axes)",
		"rate · upper bound finite = 0.5",
		"rate · lower bound infinite = ∞: not drawn (a moment it needs does not exist)",
		"rate · prior bound huge = 4e18 (conditions hold): off the chart, more than 10000× beyond the curves",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("SVG lacks %q:\n%s", w, text)
		}
	}
	// Nothing is written over the data: no label on a line.
	if strings.Contains(text, "\nfinite\n") {
		t.Errorf("a label is drawn on a line:\n%s", text)
	}
}

func TestNothingToDraw(t *testing.T) {
	r := synthetic([]float64{-1, 0}, theory.Bound{ID: "inf", Kind: theory.Upper, Value: math.Inf(1)})
	if _, err := Run(r); !errors.Is(err, errNothing) {
		t.Errorf("Run of nothing drawable: %v, want errNothing", err)
	}
	if _, err := Run(nil); err == nil {
		t.Error("Run(nil) gave no error")
	}
	if _, err := Sweep(&engine.SweepReport{}); err == nil {
		t.Error("Sweep of no points gave no error")
	}
	// Only bounds: they are drawn over the planned work.
	r = synthetic([]float64{-1, 0}, theory.Bound{ID: "b", Kind: theory.Upper, Value: 2})
	if _, err := Run(r); err != nil {
		t.Errorf("bounds only: %v", err)
	}
}

func TestSaveLeavesNoPartialFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "fig.pdf")
	if err := SaveRun(bad, runReport(t)); err == nil {
		t.Error("SaveRun to .pdf succeeded")
	}
	nothing := filepath.Join(dir, "nothing.png")
	if err := SaveRun(nothing, synthetic([]float64{-1, 0})); err == nil {
		t.Error("SaveRun of nothing succeeded")
	}
	for _, p := range []string{bad, nothing} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s left behind (%v)", p, err)
		}
	}
	if err := (&Figure{Plot: nil}).Write(io.Discard, "jpg"); err == nil {
		t.Error("Write in jpg succeeded")
	}
}

// TestLineLabelsReadable: the horizontal reference lines carry their
// name and value at their right end, placed so that two lines at nearly
// the same value (the lower bound 1.846 and Kamath–Liu–Zhang's 1.875, a
// pixel apart) get labels that neither overlap nor sit on a line; the
// legend says what a rate is in a sentence.
func TestLineLabelsReadable(t *testing.T) {
	r := synthetic([]float64{1, 0.5, 0.2, 0.1},
		theory.Bound{ID: "up", Kind: theory.Upper, Title: "noisy clipped AC-SA (smooth convex)", Value: 2.926},
		theory.Bound{ID: "low", Kind: theory.Lower, Title: "lower bound (convex)", Value: 1.846},
		theory.Bound{ID: "klz", Kind: theory.Prior, Title: "Kamath–Liu–Zhang (convex)", Value: 1.875})
	r.W0 = engine.Estimate{Mean: 0.1875, SE: math.NaN()}
	f, err := Run(r)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Write(&b, SVG); err != nil {
		t.Fatal(err)
	}
	if text := svgText(t, b.Bytes()); !strings.Contains(text, "Each \"rate ·\" line is a theorem's bound with every constant set to 1") {
		t.Errorf("the legend does not say what a rate is in a sentence:\n%s", text)
	}
	labels, segs, _ := f.Labels()
	want := map[string]bool{"w₀ 0.1875": false, "rate · upper bound 2.926": false, "rate · lower bound 1.846": false, "rate · prior: Kamath–Liu–Zhang 1.875": false}
	for i, a := range labels {
		if _, ok := want[a.Text]; ok {
			want[a.Text] = a.Drawn
		}
		if !a.Drawn {
			continue
		}
		for _, c := range labels[i+1:] {
			if c.Drawn && rectsOverlap(a.Box, c.Box) {
				t.Errorf("labels %q and %q overlap", a.Text, c.Text)
			}
		}
		for _, s := range segs {
			if crosses(s[0], s[1], a.Box) {
				t.Errorf("label %q is crossed by a line", a.Text)
			}
		}
	}
	for text, drawn := range want {
		if !drawn {
			t.Errorf("line label %q not drawn (labels %v)", text, labels)
		}
	}
}
