package plot

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// slideFigures are the kinds of figure the explorer's e and the CLI's
// --plot write, at test sizes: a comparison (the flagship preset's
// solvers), a sweep over n, a sweep over ε, the clipping trade-off and
// the moment profile.
func slideFigures(t *testing.T) map[string]*Figure {
	t.Helper()
	ctx := context.Background()
	resolve := func(s spec.Spec) spec.Resolved {
		t.Helper()
		rs, err := s.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	out := map[string]*Figure{}
	add := func(name string, f *Figure, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = f
	}
	c, err := engine.Compare(ctx, resolve(spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, Lf: 1e6, D: 3, N: 4000, Trials: 3}),
		[]string{"acsa", "nonprivate-schedule", "lipschitz-dpsgd", "klz-gd"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Comparison(c, Options{})
	add("comparison", f, err)
	sw, err := engine.Sweep(ctx, resolve(spec.Spec{Scenario: scenarios.MeanHard, Class: theory.SmoothSC, D: 10, Trials: 3}),
		engine.SweepSpec{Param: spec.SweepN, From: 1000, To: 8000, Points: 4, Solvers: []string{"clipped-sgd", "nonprivate-schedule"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Sweep(sw, Options{})
	add("sweep of n", f, err)
	es, err := engine.Sweep(ctx, resolve(spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, D: 3, N: 4000, Trials: 3}),
		engine.SweepSpec{Param: spec.SweepEps, From: 0.1, To: 10, Points: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Sweep(es, Options{})
	add("sweep of ε", f, err)
	cs, err := engine.Sweep(ctx, resolve(spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, D: 3, N: 3000, Trials: 2}),
		engine.SweepSpec{Param: spec.SweepClip}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Sweep(cs, Options{})
	add("clipping trade-off", f, err)
	ks, err := engine.Sweep(ctx, resolve(spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, D: 3, N: 4000, Trials: 2}),
		engine.SweepSpec{Param: spec.SweepK, From: 2, To: 4, Points: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Sweep(ks, Options{})
	add("sweep of k", f, err)
	tr, err := engine.Tune(ctx, resolve(spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, D: 3, N: 2000, Trials: 2}), engine.TuneSpec{References: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Tune(tr, Options{})
	add("tuning", f, err)
	f, err = Moments(profileOf(t, spec.Spec{Scenario: scenarios.LinRegT, Tail: 10, K: 2, Lf: 1e6}), Options{})
	add("moment profile", f, err)
	return out
}

// TestSlideFigures: every kind of figure is 16:9 at 1920×1080 in PNG and
// in SVG (its root's size), its measured data span at least half the
// image's height — from gonum/plot's data→canvas map (Layout) and,
// independently, from the pixels of the first series' colour in the PNG
// — and its titles, labels and legend lie inside the image.
func TestSlideFigures(t *testing.T) {
	for name, f := range slideFigures(t) {
		t.Run(name, func(t *testing.T) {
			var pb, sb bytes.Buffer
			if err := f.Write(&pb, PNG); err != nil {
				t.Fatal(err)
			}
			img := checkPNG(t, pb.Bytes())
			if dir := os.Getenv("DPSO_FIG_DIR"); dir != "" {
				if err := os.WriteFile(filepath.Join(dir, "slide-"+strings.ReplaceAll(name, " ", "-")+".png"), pb.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			lay := f.Layout()
			if fill := lay.DataFill(); fill < 0.5 {
				t.Errorf("the data fill %.3f of the height (want ≥ 0.5): data %+v in axes %+v", fill, lay.Data, lay.Axes)
			}
			// The pixels of each measured series' colour in the columns of
			// its points: their rows reach from its highest to its lowest
			// point (its markers and error bars go a little further),
			// where the data→canvas map put them; together they fill at
			// least half the height.
			top, bottom := 1e9, -1.0
			n := 0
			for _, s := range f.Series() {
				if s.Role != RoleSolver && s.Role != RoleMoment && s.Role != RoleNoiseOff || s.Arrow {
					continue
				}
				n++
				sTop, sBottom, cols := pixelSpan(f, lay, s)
				pTop, pBottom := colourExtent(img, s.Color, cols, lay.Axes)
				if pBottom < pTop {
					t.Errorf("no pixel of %q's colour %v in the axes", s.Name, s.Color)
					continue
				}
				if d := 8.0; pTop > sTop+d || pBottom < sBottom-d {
					t.Errorf("%q: its pixels span rows %g…%g, short of its points' %g…%g", s.Name, pTop, pBottom, sTop, sBottom)
				}
				top, bottom = min(top, pTop), max(bottom, pBottom)
			}
			if n == 0 {
				t.Fatal("no measured series")
			}
			fill := (bottom - top) / float64(lay.Height)
			if fill < 0.5 {
				t.Errorf("the measured series' pixels fill %.3f of the height (want ≥ 0.5)", fill)
			}
			t.Logf("%d×%d; data fill %.3f of the height by the data→canvas map, %.3f by the pixels; notes %q", lay.Width, lay.Height, lay.DataFill(), fill, f.notes)
			for part, r := range map[string]PixelRect{"title": lay.Title, "y label": lay.YLabel, "x label": lay.XLabel, "legend": lay.Legend, "axes": lay.Axes} {
				t.Run(part, func(t *testing.T) {
					if r.X0 < 0 || r.Y0 < 0 || r.X1 > float64(lay.Width) || r.Y1 > float64(lay.Height) || r.X1 <= r.X0 || r.Y1 <= r.Y0 {
						t.Errorf("the %s %+v is not inside the %d×%d image", part, r, lay.Width, lay.Height)
					}
				})
			}
			// Read from the back of a room: the legend at 32 pixels or more
			// in at most a quarter of the width, every entry drawn, every
			// note drawn.
			if lay.LegendPx < 32 || lay.Legend.X1-lay.Legend.X0 > 0.25*float64(lay.Width)+1 || lay.LegendDrawn != lay.LegendEntries || lay.NotesDrawn != lay.NotesTotal {
				t.Errorf("legend at %g px, %g of %d px wide, %d of %d entries and %d of %d notes drawn", lay.LegendPx, lay.Legend.X1-lay.Legend.X0, lay.Width, lay.LegendDrawn, lay.LegendEntries, lay.NotesDrawn, lay.NotesTotal)
			}
			overlap := func(a, b PixelRect) bool { return a.X0 < b.X1 && b.X0 < a.X1 && a.Y0 < b.Y1 && b.Y0 < a.Y1 }
			if overlap(lay.Legend, lay.Notes) || overlap(lay.Legend, lay.Axes) || overlap(lay.Notes, lay.Axes) ||
				overlap(lay.NotesSide, lay.Legend) || overlap(lay.NotesSide, lay.Axes) || overlap(lay.NotesSide, lay.Notes) {
				t.Errorf("parts overlap: legend %+v, notes %+v and %+v, axes %+v", lay.Legend, lay.Notes, lay.NotesSide, lay.Axes)
			}
			checkDistinct(t, f)
			if err := f.Write(&sb, SVG); err != nil {
				t.Fatal(err)
			}
			w, h := svgSizeOf(t, sb.Bytes())
			if w != DefaultWidth || h != DefaultHeight {
				t.Errorf("SVG of %d×%d, want %d×%d", w, h, DefaultWidth, DefaultHeight)
			}
		})
	}
}

// checkDistinct checks that every solver, the start line and every
// certificate drawn in f has a colour and a marker of its own — no two
// share either, and no certificate or arrow takes a solver's colour — so
// that no series can be read for another.
func checkDistinct(t *testing.T, f *Figure) {
	t.Helper()
	colours, markers := map[color.RGBA]string{}, map[string]string{}
	solverCols := map[color.RGBA]bool{}
	rgba := func(c color.Color) color.RGBA {
		r, g, b, a := c.RGBA()
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
	}
	for _, s := range f.Series() {
		if s.Role == RoleSolver {
			solverCols[rgba(s.Color)] = true
		}
	}
	for _, s := range f.Series() {
		if s.Role != RoleSolver && s.Role != RoleStart && s.Role != RoleCertificate {
			continue
		}
		c := rgba(s.Color)
		if s.Role != RoleSolver && solverCols[c] {
			t.Errorf("%q takes a solver's colour %v", s.Name, c)
		}
		if s.Arrow {
			continue
		}
		if o, ok := colours[c]; ok {
			t.Errorf("%q and %q share the colour %v", s.Name, o, c)
		}
		colours[c] = s.Name
		if s.Glyph == "" {
			t.Errorf("%q has no marker", s.Name)
		} else if o, ok := markers[s.Glyph]; ok {
			t.Errorf("%q and %q share the marker %s", s.Name, o, s.Glyph)
		}
		markers[s.Glyph] = s.Name
	}
}

// colourExtent is the first and last row of img, in the columns cols
// inside r, that hold a pixel of exactly colour c.
func colourExtent(img image.Image, c color.Color, cols []int, r PixelRect) (top, bottom float64) {
	top, bottom = 1e9, -1
	cr, cg, cb, _ := c.RGBA()
	for _, x := range cols {
		for y := int(r.Y0); y <= int(r.Y1) && y < img.Bounds().Dy(); y++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if pr == cr && pg == cg && pb == cb {
				top, bottom = min(top, float64(y)), max(bottom, float64(y))
			}
		}
	}
	return top, bottom
}

// pixelSpan is the rows where s's highest and lowest points land, by the
// axes' log mapping of the figure's range onto Layout's data area, and
// the pixel columns within 3 of its points.
func pixelSpan(f *Figure, lay Layout, s Series) (top, bottom float64, cols []int) {
	at := func(v, lo, hi, p0, p1 float64) float64 {
		return p0 + (p1-p0)*(math.Log(v)-math.Log(lo))/(math.Log(hi)-math.Log(lo))
	}
	top, bottom = 1e9, -1
	for _, p := range s.Points {
		y := at(p.Y, f.Plot.Y.Min, f.Plot.Y.Max, lay.Axes.Y1, lay.Axes.Y0)
		top, bottom = min(top, y), max(bottom, y)
		x := int(at(p.X, f.Plot.X.Min, f.Plot.X.Max, lay.Axes.X0, lay.Axes.X1))
		if f.linearX {
			x = int(lay.Axes.X0 + (lay.Axes.X1-lay.Axes.X0)*(p.X-f.Plot.X.Min)/(f.Plot.X.Max-f.Plot.X.Min))
		}
		for c := x - 3; c <= x+3; c++ {
			cols = append(cols, c)
		}
	}
	return top, bottom, cols
}

// svgSizeOf reads the width and height of an SVG's root.
func svgSizeOf(t *testing.T, b []byte) (w, h int) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			t.Fatal("no <svg> element")
		}
		if err != nil {
			t.Fatal(err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "svg" {
			for _, a := range se.Attr {
				v, err := strconv.Atoi(strings.TrimSpace(a.Value))
				switch a.Name.Local {
				case "width":
					if err != nil {
						t.Fatalf("SVG width %q is not in pixels", a.Value)
					}
					w = v
				case "height":
					if err != nil {
						t.Fatalf("SVG height %q is not in pixels", a.Value)
					}
					h = v
				}
			}
			return w, h
		}
	}
}

// TestPlotSize: a size given in pixels is the PNG's, with the same
// layout proportions (the fill does not depend on the resolution).
func TestPlotSize(t *testing.T) {
	r := certified(synthetic([]float64{1, 0.5, 0.2, 0.1, 0.05}), 0.8)
	r.W0 = engine.Estimate{Mean: 1}
	for _, sz := range [][2]int{{1280, 720}, {3840, 2160}, {1000, 1000}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			f, err := Run(r, Options{Width: sz[0], Height: sz[1]})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := f.Write(&b, PNG); err != nil {
				t.Fatal(err)
			}
			cfg, _, err := image.DecodeConfig(&b)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Width != sz[0] || cfg.Height != sz[1] {
				t.Errorf("asked %d×%d, got %d×%d", sz[0], sz[1], cfg.Width, cfg.Height)
			}
		})
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		w, h int
		ok   bool
	}{
		{"1920x1080", 1920, 1080, true}, {"1280×720", 1280, 720, true}, {" 3840X2160 ", 3840, 2160, true},
		{"1920", 0, 0, false}, {"x1080", 0, 0, false}, {"100x100", 0, 0, false}, {"8000x4000", 0, 0, false},
		{"7680x7680", 0, 0, false}, {"1920x1080.5", 0, 0, false}, {"-1920x1080", 0, 0, false},
	} {
		t.Run(c.in, func(t *testing.T) {
			w, h, err := ParseSize(c.in)
			if (err == nil) != c.ok || w != c.w || h != c.h {
				t.Errorf("ParseSize(%q) = %d, %d, %v", c.in, w, h, err)
			}
		})
	}
}

func TestParseHide(t *testing.T) {
	for in, want := range map[string]Hide{"": 0, "bounds": HideBounds, "certificates,trials": HideCertificates | HideTrials,
		" Bounds , certificates ": HideBounds | HideCertificates} {
		t.Run(fmt.Sprintf("%q", in), func(t *testing.T) {
			if got, err := ParseHide(in); err != nil || got != want {
				t.Errorf("ParseHide(%q) = %v, %v; want %v", in, got, err, want)
			}
		})
	}
	if _, err := ParseHide("bounds,legend"); err == nil || !strings.Contains(err.Error(), "bounds, certificates, trials") {
		t.Errorf("ParseHide of an unknown part: %v", err)
	}
}

// TestHide: the switches leave out what they name and nothing else.
func TestHide(t *testing.T) {
	rs, err := spec.Spec{Scenario: scenarios.MeanHard, Class: theory.SmoothSC, D: 10, Trials: 2}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	sw, err := engine.Sweep(context.Background(), rs, engine.SweepSpec{Param: spec.SweepN, From: 1000, To: 4000, Points: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	count := func(f *Figure) map[Role]int {
		n := map[Role]int{}
		for _, s := range f.Series() {
			n[s.Role]++
		}
		return n
	}
	all, err := Sweep(sw, Options{})
	if err != nil {
		t.Fatal(err)
	}
	full := count(all)
	if full[RoleRate] == 0 || full[RoleCertificate] == 0 {
		t.Fatalf("the full figure lacks slope guides or certificates: %v", full)
	}
	for _, c := range []struct {
		hide Hide
		gone Role
	}{{HideBounds, RoleRate}, {HideCertificates, RoleCertificate}} {
		t.Run(string(c.gone), func(t *testing.T) {
			f, err := Sweep(sw, Options{Hide: c.hide})
			if err != nil {
				t.Fatal(err)
			}
			got := count(f)
			for role, n := range full {
				want := n
				if role == c.gone {
					want = 0
				}
				if got[role] != want {
					t.Errorf("hide %v: %d %s series, want %d", c.hide, got[role], role, want)
				}
			}
		})
	}
}

// TestSlopeGuides: a sweep's slope guide is the bound's values times one
// constant (its shape: the slope between any two points is the bound's),
// placed so that the mean of its log values at the measured points is
// the measured means' (it passes through their centre, as the fitted
// line does); the paper's upper and lower bounds have one each, prior
// work's none (their slopes are in a note, as the explorer's chart has
// them in its slope table); a run's figure has none. A k sweep draws the
// same guides, named as shapes over k, with no slope.
func TestSlopeGuides(t *testing.T) {
	rs, err := spec.Spec{Scenario: scenarios.MeanHard, Class: theory.SmoothSC, D: 10, Trials: 2}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	sw, err := engine.Sweep(context.Background(), rs, engine.SweepSpec{Param: spec.SweepN, From: 1000, To: 8000, Points: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Sweep(sw, Options{})
	if err != nil {
		t.Fatal(err)
	}
	guides := 0
	for _, s := range f.Series() {
		if s.Role != RoleRate {
			continue
		}
		guides++
		var bs *engine.BoundSlope
		for i := range sw.Bounds {
			if strings.Contains(s.Name, BoundLabel(sw.Bounds[i].Kind, sw.Bounds[i].Title)+":") {
				bs = &sw.Bounds[i]
			}
		}
		if bs == nil {
			t.Fatalf("guide %q names no bound", s.Name)
		}
		var ratio []float64
		for i, p := range sw.Points {
			v, _ := boundAt(p, bs.ID)
			ratio = append(ratio, s.Points[i].Y/v)
		}
		for _, r := range ratio[1:] {
			if d := r/ratio[0] - 1; d > 1e-12 || d < -1e-12 {
				t.Errorf("%s: the guide is not the bound times a constant (ratios %v)", bs.ID, ratio)
			}
		}
		at := GuideAnchor(sw)
		if d := s.Points[at].Y/sw.Points[at].Reports[0].Excess.Mean - 1; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: the guide misses the measured mean at its anchor by %g", bs.ID, d)
		}
		if !strings.Contains(s.Name, "slope "+slopeText(bs.Slope)) || !strings.Contains(s.Name, "fitted") || !strings.Contains(s.Name, "constants = 1") {
			t.Errorf("guide's legend %q lacks the theory's slope beside the fitted one, or what a rate is", s.Name)
		}
	}
	paper := 0
	for _, b := range sw.Bounds {
		if b.Kind != theory.Prior {
			paper++
			continue
		}
		if !slices.ContainsFunc(f.notes, func(n string) bool { return strings.Contains(n, b.Title+": slope "+slopeText(b.Slope)) }) {
			t.Errorf("no note gives prior bound %s's slope: %q", b.ID, f.notes)
		}
	}
	if guides != paper || paper == 0 {
		t.Errorf("%d guides for the paper's %d bounds", guides, paper)
	}
	ks, err := engine.Sweep(context.Background(), rs, engine.SweepSpec{Param: spec.SweepK, From: 2, To: 4, Points: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f, err = Sweep(ks, Options{}); err != nil {
		t.Fatal(err)
	}
	guides = 0
	for _, s := range f.Series() {
		if s.Role == RoleRate {
			guides++
			if !strings.HasPrefix(s.Name, "shape guide · ") || !strings.Contains(s.Name, "over k") || strings.Contains(s.Name, "slope") {
				t.Errorf("k sweep's guide %q: want a shape over k, no slope", s.Name)
			}
		}
	}
	if guides == 0 {
		t.Error("the k sweep's figure has no guide")
	}
}

// TestAxisTicks: an axis's labels are real values at decades, 1-2-5,
// 1-2-3-5 or integer steps, all in the range, never 0, at most maxLabels of them,
// written in one form (all plain, or all m·10^e).
func TestAxisTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{0.0015, 0.3, "0.002 0.005 0.01 0.02 0.05 0.1 0.2"},
		{1.5e-6, 0.03, "10^−5 10^−4 10^−3 10^−2"},
		{0.03, 3, "0.05 0.1 0.2 0.5 1 2"},
		{50, 2e6, "10^2 10^3 10^4 10^5 10^6"},
		{250, 4e6, "10^3 10^4 10^5 10^6"},
		{1.2e-4, 3e-3, "2·10^−4 5·10^−4 10^−3 2·10^−3"},
		{0.13, 0.85, "0.2 0.3 0.5"},
		{8.6, 42, "10 20 30"},
		{2.1, 4.5, "3 4"},
		{1e-12, 1e6, "10^−12 10^−9 10^−6 10^−3 10^0 10^3 10^6"},
		{0.101, 0.118, "0.105 0.11 0.115"},
		{625, 10000, "1000 2000 5000 10000"},
	} {
		t.Run(fmt.Sprintf("%g..%g", c.lo, c.hi), func(t *testing.T) {
			got := tickLabels(c.lo, c.hi)
			if strings.Join(got, " ") != c.want {
				t.Errorf("[%g, %g]: labels %q, want %q", c.lo, c.hi, strings.Join(got, " "), c.want)
			}
			ts, sci := axisTicks(c.lo, c.hi)
			n := 0
			for _, tk := range ts {
				if tk.Value < c.lo*(1-1e-9) || tk.Value > c.hi*(1+1e-9) || tk.Value <= 0 {
					t.Errorf("[%g, %g]: tick %g outside the range", c.lo, c.hi, tk.Value)
				}
				if tk.Label == "" {
					continue
				}
				n++
				if strings.Contains(tk.Label, "^") != sci {
					t.Errorf("[%g, %g]: label %q not in the axis's one form (scientific %v)", c.lo, c.hi, tk.Label, sci)
				}
			}
			if n > maxLabels || n < 2 {
				t.Errorf("[%g, %g]: %d labels", c.lo, c.hi, n)
			}
		})
	}
	if ts, _ := axisTicks(0, 1); ts != nil {
		t.Errorf("ticks on a range with 0: %v", ts)
	}
}

// TestFigureText: the figures' font lacks ∇, ⁻, ⁰, ⁹ and ⚠; the text
// handler writes them with what it has, raises an exponent, and keeps a
// user's ^ as a character.
func TestFigureText(t *testing.T) {
	for in, want := range map[string][]segment{
		"2·10⁻⁵":            {{text: "2·10"}, {text: "−5", raised: true}},
		"‖∇f‖^k":            {{text: "‖grad f‖"}, {text: "k", raised: true}},
		"x^{1/k} y":         {{text: "x"}, {text: "1/k", raised: true}, {text: " y"}},
		"r̃_k":              {{text: "r", tilde: true}, {text: "_k"}},
		"⚠ L_f":             {{text: "(!) L_f"}},
		userText("a^b.csv"): {{text: "aˆb.csv"}},
	} {
		t.Run(in, func(t *testing.T) {
			got := segments(sanitize(in))
			if len(got) != len(want) {
				t.Errorf("%q: segments %+v, want %+v", in, got, want)
				return
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%q: segments %+v, want %+v", in, got, want)
					break
				}
			}
		})
	}
}

// tickLabels are the labels of an axis's ticks over [lo, hi] ("10^−5"
// for 10⁻⁵), as axisTicks writes them.
func tickLabels(lo, hi float64) []string {
	ts, _ := axisTicks(lo, hi)
	var out []string
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}
