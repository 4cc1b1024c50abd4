package plot

import (
	"image/color"
	"math"
	"slices"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Role says what a drawn series is, in the four kinds of number every
// output distinguishes (measured, certificate, rate, diagnostic) and the
// reference lines.
type Role string

// The roles of a figure's series.
const (
	// RoleSolver is a solver's measured mean excess risk.
	RoleSolver Role = "measured"
	// RoleNoiseOff is a solver's excess risk with the noise switched off
	// (clip and k sweeps): clipping, sampling and optimization error.
	RoleNoiseOff Role = "noise off"
	// RoleClipBias is the clipping bias itself, F(w_C) − F* of the
	// clipped population fixed point, computed at each point's C (clip
	// and k sweeps).
	RoleClipBias Role = "clipping bias"
	// RoleCertificate is the paper's explicit-constant bound at the run's
	// own parameters.
	RoleCertificate Role = "certificate"
	// RoleFit is a solver's least-squares line through its measured
	// means in log-log (the sweeps over n, ε and d), the line the
	// explorer draws, its slope in the legend.
	RoleFit Role = "fitted line"
	// RoleRate is a theorem's bound with constants set to 1: a rate, drawn
	// as a slope guide through the measured points (sweeps).
	RoleRate Role = "rate"
	// RoleStart is F(w₀) − F*, the excess risk of doing nothing.
	RoleStart Role = "start"
	// RoleMarker is a vertical marker (the prescribed and the best C).
	RoleMarker Role = "marker"
	// RoleMoment is a moment of the gradients' law (the moment profile):
	// exact or a Monte Carlo mean with its standard error.
	RoleMoment Role = "moment"
	// RoleLevel is a constant's level (L_f on the moment profile).
	RoleLevel Role = "level"
)

// Series is one series of a figure as drawn: its legend name, role,
// style and the points drawn (data coordinates). A figure's series are
// its model: tests check it rather than the image.
type Series struct {
	Name string
	Role Role
	// Solver is the solver a measured, noise-off, clipping-bias or
	// certificate series
	// belongs to ("" otherwise).
	Solver string
	Color  color.Color
	Dashes []vg.Length
	// Glyph names the marker shape ("" when the series has no markers;
	// "arrow" for an arrow at the edge).
	Glyph string
	// Arrow: a reference beyond the axes' range, drawn as an arrow at the
	// edge it lies beyond (its one point is there).
	Arrow bool
	// Line: its points are joined by a line (a rate sweep's measured
	// means are not: their line is their fit, RoleFit).
	Line   bool
	Points plotter.XYs
}

// Series lists the figure's series in the order they were added.
func (f *Figure) Series() []Series { return slices.Clone(f.series) }

// Visible counts s's points inside the axes' ranges (after the figure
// fixed them).
func (f *Figure) Visible(s Series) int {
	n := 0
	for _, p := range s.Points {
		if p.X >= f.Plot.X.Min && p.X <= f.Plot.X.Max && p.Y >= f.Plot.Y.Min && p.Y <= f.Plot.Y.Max {
			n++
		}
	}
	return n
}

// The palettes. Solvers take the colour-blind-safe Okabe–Ito hues in
// order (without its black, which is the start line's, and with its two
// blues apart: sky blue only for an eighth solver); certificates take dark
// hues of their own, none a solver's; bounds take crimson and indigo; a
// solver's noise-off curve is its colour lightened. With a marker shape
// of its own for every series (nextGlyph; the start line's is the
// asterisk), no two series of a figure share both colour and marker, and
// none shares its colour with a solver.
var (
	// MeasuredColors is the solvers' palette: the colours a figure draws
	// measured series in (its first two are also the moment profile's r̃_k
	// and r_k), and nothing else inside its axes but the clipped fractions
	// written beside a clip sweep's points, so that a reader of the image
	// alone (internal/testutil/plotcheck) finds the measured data by them.
	// Its order keeps any five first solvers at least ΔE 50 apart in
	// CIE L*a*b* (vermillion, 33 from orange, comes sixth). Read only:
	// every figure draws with it.
	MeasuredColors = []color.Color{
		color.RGBA{0, 114, 178, 255},   // blue
		color.RGBA{230, 159, 0, 255},   // orange
		color.RGBA{0, 158, 115, 255},   // bluish green
		color.RGBA{204, 121, 167, 255}, // reddish purple
		color.RGBA{120, 70, 20, 255},   // brown
		color.RGBA{213, 94, 0, 255},    // vermillion
		color.RGBA{150, 140, 0, 255},   // olive
		color.RGBA{86, 180, 233, 255},  // sky blue
	}
	certColors = []color.Color{
		color.RGBA{0, 95, 95, 255},   // dark teal
		color.RGBA{125, 20, 95, 255}, // plum
		color.RGBA{95, 85, 0, 255},   // dark olive
		color.RGBA{100, 45, 0, 255},  // dark brown
	}
	upperColor  = color.RGBA{170, 20, 40, 255}                                                  // crimson
	lowerColor  = color.RGBA{50, 40, 150, 255}                                                  // indigo
	priorColors = []color.Color{color.RGBA{100, 100, 100, 255}, color.RGBA{160, 160, 160, 255}} // greys
	startColor  = color.RGBA{0, 0, 0, 255}
	markerColor = color.RGBA{90, 90, 90, 255}
	bestColor   = color.RGBA{0, 120, 60, 255}
	// dashPatterns are handed out in order, one per series of a figure,
	// so that no two series share a pattern: solid first (the first
	// solver), then dashes, short dashes, dash-dot and dash-dot-dot, so
	// that a comparison's first five solvers differ in the kind of line,
	// not only in a dash's length. The start line's dots are its own
	// (startDashes).
	dashPatterns = [][]vg.Length{
		nil,
		{vg.Points(8), vg.Points(3)},
		{vg.Points(3), vg.Points(2)},
		{vg.Points(10), vg.Points(3), vg.Points(2), vg.Points(3)},
		{vg.Points(12), vg.Points(3), vg.Points(3), vg.Points(3), vg.Points(3), vg.Points(3)},
		{vg.Points(14), vg.Points(4)},
		{vg.Points(5), vg.Points(2), vg.Points(1), vg.Points(2)},
		{vg.Points(4), vg.Points(4)},
		{vg.Points(2), vg.Points(5)},
		{vg.Points(18), vg.Points(3), vg.Points(2), vg.Points(3)},
		{vg.Points(6), vg.Points(2), vg.Points(6), vg.Points(6)},
		{vg.Points(1), vg.Points(3), vg.Points(6), vg.Points(3)},
		{vg.Points(20), vg.Points(6)},
		{vg.Points(3), vg.Points(3), vg.Points(3), vg.Points(8)},
	}
	startDashes = []vg.Length{vg.Points(1.2), vg.Points(2.4)}
	// glyphs are the marker shapes nextGlyph hands out, filled ones
	// first; asterisk is the start line's alone.
	glyphs = []struct {
		name  string
		shape draw.GlyphDrawer
	}{
		{"circle", draw.CircleGlyph{}}, {"square", draw.BoxGlyph{}}, {"triangle", draw.PyramidGlyph{}},
		{"diamond", diamondGlyph{}}, {"down triangle", downTriangle{}},
		{"ring", draw.RingGlyph{}}, {"open square", draw.SquareGlyph{}}, {"open triangle", draw.TriangleGlyph{}},
		{"open diamond", diamondGlyph{open: true}}, {"cross", draw.CrossGlyph{}}, {"plus", draw.PlusGlyph{}},
	}
	asterisk = struct {
		name  string
		shape draw.GlyphDrawer
	}{"asterisk", asteriskGlyph{}}
)

// nextGlyph is the index of the figure's next unused marker shape (they
// repeat only past len(glyphs) series with markers).
func (f *Figure) nextGlyph() int {
	g := f.glyphs % len(glyphs)
	f.glyphs++
	return g
}

// glyphStart marks the start line's marker (the asterisk) to addSeries.
const glyphStart = -2

// nextDashes is the next unused dash pattern of the figure.
func (f *Figure) nextDashes() []vg.Length {
	d := dashPatterns[f.dashes%len(dashPatterns)]
	f.dashes++
	return d
}

// solverColor is the i-th solver's colour.
func solverColor(i int) color.Color { return MeasuredColors[i%len(MeasuredColors)] }

// shade mixes c with black (t < 0) or white (t > 0) by |t|.
func shade(c color.Color, t float64) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 {
		x := float64(v >> 8)
		if t < 0 {
			x *= 1 + t
		} else {
			x += (255 - x) * t
		}
		return uint8(math.Round(x))
	}
	return color.RGBA{mix(r), mix(g), mix(b), 255}
}

// faded is c at a fraction of its opacity (for single trials).
func faded(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 70}
}

// markerIndices are the indices of a trace of m points that get a marker:
// all of them up to 24, else every ⌈m/16⌉-th and the last, so that a
// short trace (lipschitz-dpsgd's two points) is always visible and a long
// one is still identified by its glyph.
func markerIndices(m int) []int {
	var out []int
	if m <= 24 {
		for i := range m {
			out = append(out, i)
		}
		return out
	}
	step := (m + 15) / 16
	for i := 0; i < m; i += step {
		out = append(out, i)
	}
	if out[len(out)-1] != m-1 {
		out = append(out, m-1)
	}
	return out
}

// addSeries draws xys as a line in colour col with the figure's next dash
// pattern (or dashes, when given), markers of glyph gi (−1: none;
// glyphStart: the asterisk) at markerIndices — on a horizontal line of two
// points, at refMarkers places along it — registers it in the model and in
// the legend under name (short: the legend's shorter text), and, for a
// measured series, extends the y range over it. A series of one or two
// points has larger markers, so that it cannot be missed. Width 0 draws
// the markers alone, no line joining them (a rate sweep's points, whose
// line is their fit).
func (f *Figure) addSeries(name string, role Role, solver string, xys plotter.XYs, col color.Color, dashes []vg.Length, width vg.Length, gi int, short ...string) error {
	thumbs, err := f.drawSeries(name, role, solver, xys, col, dashes, width, gi)
	if err != nil {
		return err
	}
	sh := ""
	if len(short) > 0 {
		sh = short[0]
	}
	f.legendAddShort(name, sh, thumbs...)
	return nil
}

// drawSeries is addSeries without the legend entry: it returns the
// entry's thumbnails (the line's, then the markers'), for an entry that
// names more than one series.
func (f *Figure) drawSeries(name string, role Role, solver string, xys plotter.XYs, col color.Color, dashes []vg.Length, width vg.Length, gi int) ([]gplot.Thumbnailer, error) {
	if dashes == nil && role != RoleStart && width > 0 {
		dashes = f.nextDashes()
	}
	s := Series{Name: name, Role: role, Solver: solver, Color: col, Dashes: dashes, Points: xys, Line: len(xys) > 1 && width > 0}
	ls := draw.LineStyle{Color: col, Width: width, Dashes: dashes}
	var thumbs []gplot.Thumbnailer
	if len(xys) > 1 && width > 0 {
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.LineStyle = ls
		f.Plot.Add(l)
		thumbs = append(thumbs, l)
	}
	if gi >= 0 || gi == glyphStart || len(xys) == 1 {
		g := asterisk
		switch {
		case gi >= 0:
			g = glyphs[gi%len(glyphs)]
		case gi != glyphStart:
			g = glyphs[0]
		}
		s.Glyph = g.name
		var pts plotter.XYs
		if len(xys) == 2 && xys[0].Y == xys[1].Y && xys[0].X < xys[1].X {
			for i := range refMarkers {
				t := (float64(i) + 0.5) / refMarkers
				x := xys[0].X * math.Pow(xys[1].X/xys[0].X, t)
				if f.linearX {
					x = xys[0].X + (xys[1].X-xys[0].X)*t
				}
				pts = append(pts, plotter.XY{X: x, Y: xys[0].Y})
			}
		} else {
			for _, i := range markerIndices(len(xys)) {
				pts = append(pts, xys[i])
			}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		radius := vg.Points(3.5)
		if len(xys) <= 2 && role == RoleSolver {
			radius = vg.Points(6)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: radius, Shape: g.shape}
		f.Plot.Add(sc)
		thumbs = append(thumbs, sc)
	}
	for _, p := range xys {
		if role == RoleSolver || role == RoleNoiseOff || role == RoleMoment {
			f.see(p.Y) // the measured values set the y range (finish)
		}
		f.seeX(p.X)
	}
	f.series = append(f.series, s)
	return thumbs, nil
}

// refMarkers is how many markers a horizontal reference line carries.
const refMarkers = 6

// clipBiasColor is the colour of the i-th solver's clipping bias: a dark
// green of its own, lighter for each further solver.
func clipBiasColor(i int) color.Color { return shade(color.RGBA{0, 100, 30, 255}, 0.25*float64(i%3)) }

// certColor is the colour of the i-th certificate of a figure.
func certColor(i int) color.Color {
	return shade(certColors[i%len(certColors)], 0.3*float64(i/len(certColors)%3))
}
