package plotcheck

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/plot"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// figures are a comparison with single trials and certificates, a clip
// sweep (its clipped fractions written beside the points) and a moment
// profile with arrows at the top edge (r̃_k = ∞ from k = 6 on), each with
// its Figure for the layout it recorded.
func figures(t *testing.T) map[string]*plot.Figure {
	t.Helper()
	ctx := context.Background()
	resolve := func(s spec.Spec) spec.Resolved {
		t.Helper()
		r, err := s.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	out := map[string]*plot.Figure{}
	c, err := engine.Compare(ctx, resolve(spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, Lf: 1e6, D: 3, N: 3000, Trials: 3}),
		[]string{"acsa", "nonprivate-schedule", "lipschitz-dpsgd"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out["comparison"], err = plot.Comparison(c, plot.Options{}); err != nil {
		t.Fatal(err)
	}
	cs, err := engine.Sweep(ctx, resolve(spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, D: 3, N: 2000, Trials: 2}), engine.SweepSpec{Param: spec.SweepClip, Points: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out["clip sweep"], err = plot.Sweep(cs, plot.Options{}); err != nil {
		t.Fatal(err)
	}
	ms := resolve(spec.Spec{Scenario: scenarios.LinRegT, Tail: 10, K: 2, Solver: "nonprivate-schedule"})
	in, err := scenarios.Build(ctx, ms.Problem)
	if err != nil {
		t.Fatal(err)
	}
	prof := plot.MomentProfile{Spec: ms.Spec, D: in.Dim(), Lf: in.Moment(math.Inf(1))}
	for _, e := range in.Profile() {
		if !math.IsInf(e.K, 1) {
			prof.Finite = append(prof.Finite, e)
			prof.Noncentral = append(prof.Noncentral, in.Noncentral(e.K))
		}
	}
	if out["moment profile"], err = plot.Moments(prof, plot.Options{}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReadAgreesWithTheLayout: what Read finds in a written PNG — the
// axes from their lines, the rows of the measured colours — is where the
// figure's layout (its data→canvas map, recorded when drawn) put the
// axes and the measured points: the axes' top, bottom and right within 2
// pixels (the y axis's line stands a padding left of the data area), the
// data's rows inside the axes and covering the points' centres (markers
// and error bars reach further; the arrows at the edge, in darker
// colours, are not data). The SVG's size and viewBox are the figure's.
func TestReadAgreesWithTheLayout(t *testing.T) {
	dir := t.TempDir()
	for name, f := range figures(t) {
		t.Run(name, func(t *testing.T) {
			png := filepath.Join(dir, name+".png")
			if err := f.Save(png); err != nil {
				t.Fatal(err)
			}
			got, err := Read(png)
			if err != nil {
				t.Fatal(err)
			}
			lay := f.Layout()
			if got.Width != plot.DefaultWidth || got.Height != plot.DefaultHeight || !got.Is16x9() {
				t.Errorf("%d×%d (16:9: %v), want %d×%d", got.Width, got.Height, got.Is16x9(), plot.DefaultWidth, plot.DefaultHeight)
			}
			for _, d := range []struct {
				what      string
				got, want float64
				slack     float64 // how far left of the layout's edge the line may be
			}{
				{"left", float64(got.Axes.Min.X), lay.Axes.X0, 16}, {"right", float64(got.Axes.Max.X), lay.Axes.X1, 0},
				{"top", float64(got.Axes.Min.Y), lay.Axes.Y0, 0}, {"bottom", float64(got.Axes.Max.Y), lay.Axes.Y1, 0},
			} {
				if d.got > d.want+2 || d.got < d.want-2-d.slack {
					t.Errorf("the axes' %s edge at %g, the layout's at %g", d.what, d.got, d.want)
				}
			}
			top, bottom := float64(got.DataTop), float64(got.DataBottom)
			if top > lay.Data.Y0+1 || bottom < lay.Data.Y1-1 || got.DataTop < got.Axes.Min.Y || got.DataBottom >= got.Axes.Max.Y {
				t.Errorf("the measured colours span rows %g…%g; the points' centres %g…%g, the axes %v", top, bottom, lay.Data.Y0, lay.Data.Y1, got.Axes)
			}
			// The moment profile's arrows (r̃_k = ∞) hang from the top
			// edge; its highest point's marker, not they, is the data's top.
			if name == "moment profile" && top < lay.Data.Y0-12 {
				t.Errorf("the measured colours start at row %g, above the highest point's marker (%g): the arrows counted as data", top, lay.Data.Y0)
			}
			if got, want := got.DataFill(), lay.DataFill(); got < want {
				t.Errorf("data fill %.3f from the image, %.3f from the layout", got, want)
			}
			t.Logf("axes %v; data rows %d…%d (layout %g…%g); fill %.3f", got.Axes, got.DataTop, got.DataBottom, lay.Data.Y0, lay.Data.Y1, got.DataFill())
			svg := filepath.Join(dir, name+".svg")
			if err := f.Save(svg); err != nil {
				t.Fatal(err)
			}
			sf, err := Read(svg)
			if err != nil {
				t.Fatal(err)
			}
			if sf.Width != plot.DefaultWidth || sf.Height != plot.DefaultHeight || !sf.Is16x9() || sf.ViewBox[0] != 0 || sf.ViewBox[1] != 0 {
				t.Errorf("SVG %d×%d, viewBox %v (16:9: %v)", sf.Width, sf.Height, sf.ViewBox, sf.Is16x9())
			}
		})
	}
}

// TestNot16x9: a 4:3 figure, and an SVG whose viewBox is not its size's
// shape, are not 16:9.
func TestNot16x9(t *testing.T) {
	for _, f := range []Facts{
		{Width: 1600, Height: 1200},
		{Width: 1920, Height: 1080, ViewBox: [4]float64{0, 0, 960, 720}},
		{Width: 1921, Height: 1080},
	} {
		t.Run(fmt.Sprintf("%dx%d viewBox %v", f.Width, f.Height, f.ViewBox), func(t *testing.T) {
			if f.Is16x9() {
				t.Errorf("%+v reads as 16:9", f)
			}
		})
	}
	if !(Facts{Width: 1280, Height: 720, ViewBox: [4]float64{0, 0, 960, 540}}).Is16x9() {
		t.Error("1280×720 with a 960×540 viewBox does not read as 16:9")
	}
	if _, err := SVG([]byte(`<svg width="1920pt" height="1080pt" viewBox="0 0 960 540"></svg>`)); err == nil {
		t.Error("an SVG sized in points reads as pixels")
	}
	if _, err := Read(filepath.Join(t.TempDir(), "x.pdf")); !os.IsNotExist(err) && err == nil {
		t.Error("a missing .pdf reads")
	}
}

// TestPNGSize reads a PNG's size from its header, and refuses a file that
// is not a PNG.
func TestPNGSize(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.png")
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 7, 3))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if w, h, err := PNGSize(path); err != nil || w != 7 || h != 3 {
		t.Errorf("PNGSize = %d×%d, %v; want 7×3", w, h, err)
	}
	other := filepath.Join(dir, "x.svg")
	if err := os.WriteFile(other, []byte("<svg/>"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := PNGSize(other); err == nil {
		t.Error("PNGSize of an SVG: no error")
	}
}
