package plot

import (
	"image/color"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A figure's y range is set by its measured data: the means' curves (with
// their error bars) and the noise-off curves; the single trials' faint
// traces are clipped at the axes. A reference — the start line F(w₀) − F*
// and the certificates, lines or curves — is drawn where it is, and may
// widen the range, in the order added (the start first), by as much as
// maxWiden of the data's own log span in all; one that would widen it
// more is drawn as a labelled arrow at the edge it lies beyond (▲ above,
// ▼ below), or, a curve that crosses the range, drawn where it is inside
// and clipped at the axes. Nothing is moved or invented: an arrow says
// "beyond this edge", its label gives the value; along an edge with
// arrows the range leaves a band for them. So the data span at least
// 1/((1 + maxWiden)(1 + 2·margin + 2·arrowBand)) of the axes' height however
// narrow their range (the tick labels say how narrow): with the title and
// the x axis taking about a fifth of the image, more than half of its
// height. Only data of one value (a single point, a flat line) cannot:
// they are drawn in the middle of a ±10% range, the references within
// maxWiden of flatSpan decades of it.

// maxWiden is how much the references may widen the data's log range, as
// a fraction of it, margin the blank band on either side of the range,
// arrowBand the band added along an edge with arrows (their triangles and
// a row of labels: about 16 of the axes' 420 points), and flatSpan the
// span counted for data of one value.
const (
	maxWiden  = 0.35
	margin    = 0.03
	arrowBand = 0.04
	flatSpan  = 0.3
)

// reference is a reference line or curve, drawn or arrowed by finish.
type reference struct {
	name, label string // the legend's text; the label at its end or arrow
	role        Role
	solver      string
	col         color.Color
	dashes      []vg.Length
	width       vg.Length
	pts         plotter.XYs
	// atX is where its arrow goes when it is one (0: finish chooses).
	atX float64
	// glyph is its marker shape (an index into glyphs, glyphStart, or −1
	// for none); short the legend's shorter text ("": name).
	glyph int
	short string
}

// addRef queues a reference for finish.
func (f *Figure) addRef(r reference) { f.refs = append(f.refs, r) }

// span is the y range of pts.
func span(pts plotter.XYs) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
	}
	return lo, hi
}

// finish fixes the y range from the data and the references (see above),
// draws the references and queues their labels, and fixes the x range.
// Series added after it (slope guides, vertical markers) do not move the
// ranges; setRanges applies them again when the figure is drawn.
func (f *Figure) finish() error {
	lo, hi := f.ylo, f.yhi
	if lo > hi { // no data: the references set the range
		for _, r := range f.refs {
			a, b := span(r.pts)
			lo, hi = math.Min(lo, a), math.Max(hi, b)
		}
	}
	if lo > hi {
		return errNothing
	}
	s := math.Log10(hi / lo)
	if s < 1e-9 {
		s = flatSpan
	}
	budget := maxWiden * s
	var out []reference // the references left out of the range
	for _, r := range f.refs {
		a, b := span(r.pts)
		need := math.Max(0, math.Log10(b/hi)) + math.Max(0, math.Log10(lo/a))
		if need <= budget {
			budget -= need
			lo, hi = math.Min(lo, a), math.Max(hi, b)
		} else {
			out = append(out, r)
		}
	}
	if hi/lo < 1+1e-9 { // a flat range: ±10% around it
		c := math.Sqrt(lo * hi)
		lo, hi = c/1.1, c*1.1
	}
	// A band for the arrows and their labels along an edge that gets
	// any, clear of the data and the lines.
	above, below := f.arrowsAbove, false
	for _, r := range out {
		a, b := span(r.pts)
		above, below = above || a > hi, below || b < lo
	}
	m := math.Pow(hi/lo, margin)
	band := math.Pow(hi/lo, arrowBand)
	f.yr = [2]float64{lo / m, hi * m}
	if above {
		f.yr[1] *= band
	}
	if below {
		f.yr[0] /= band
	}
	for _, r := range f.refs {
		f.seeX(r.pts[0].X)
		f.seeX(r.pts[len(r.pts)-1].X)
	}
	xlo, xhi := f.xlo, f.xhi
	if xlo > xhi {
		xlo, xhi = 1, 10
	}
	if xlo == xhi {
		xlo, xhi = xlo/2, xhi*2
	}
	mx := math.Pow(xhi/xlo, 0.02)
	f.xr = [2]float64{xlo / mx, xhi * mx}
	for _, r := range f.refs {
		a, b := span(r.pts)
		switch {
		case (a > f.yr[1] || b < f.yr[0]) && r.atX > 0:
			f.addArrowAt(r, r.atX, a > f.yr[1], true)
		case a > f.yr[1] || b < f.yr[0]:
			f.addArrow(r, a > f.yr[1])
		default:
			partly := ""
			if a < f.yr[0] || b > f.yr[1] {
				partly = " (partly beyond the axes)"
			}
			short := r.short
			if short == "" {
				short = r.name
			}
			if err := f.addSeries(r.name+partly, r.role, r.solver, r.pts, r.col, r.dashes, r.width, r.glyph, short+partly); err != nil {
				return err
			}
			if r.label != "" && len(r.pts) == 2 && r.pts[0].Y == r.pts[1].Y {
				f.lineLabel(r.label, r.pts[1].X, r.pts[1].Y, r.col)
			}
		}
	}
	return nil
}

// setRanges applies the ranges finish fixed and the ticks for them.
func (f *Figure) setRanges() {
	if f.yr[0] > 0 {
		f.Plot.Y.Min, f.Plot.Y.Max = f.yr[0], f.yr[1]
	}
	if f.xr[0] > 0 {
		f.Plot.X.Min, f.Plot.X.Max = f.xr[0], f.xr[1]
	}
	if !f.linearX {
		setTicks(&f.Plot.X)
	}
	setTicks(&f.Plot.Y)
}

// The arrow's triangle: its half width and how far it hangs into the
// axes from their edge (its glyph's radius is 6 points).
const (
	arrowHalf  = vg.Length(7)
	arrowDepth = vg.Length(14)
)

// addArrow draws reference r, which lies wholly beyond the range, as an
// arrow at the top (up) or bottom edge, with its label to its left: the
// arrows along one edge are set from the right end of the x range
// leftwards, each clear of the previous one's label, by the labels'
// widths in points over a (deliberately short) estimate of the axes'
// width; past the left end they start again at the right, where their
// labels take the next row or, with none free, the legend alone names
// them.
func (f *Figure) addArrow(r reference, up bool) {
	vw, _, _ := geometry(f.opts.Width, f.opts.Height)
	axes := (1-legendFrac)*float64(vw) - 110 // pads, the y label and the ticks take the rest
	edge := 0
	if !up {
		edge = 1
	}
	at := f.arrowRoom[edge] + 0.03
	if at > 0.9 {
		at = 0.03
	}
	x := f.xr[1] / math.Pow(f.xr[1]/f.xr[0], at)
	f.addArrowAt(r, x, up, true)
	need := float64(2*arrowHalf + 8)
	if r.label != "" {
		need += float64(textStyle(labelSize).Width(r.label))
	}
	f.arrowRoom[edge] = at + need/math.Max(axes, 100)
}

// addArrowAt draws r as an arrow at x on the top (up) or bottom edge, its
// label beside it, and (legend) its legend entry: "↑ above the axes: "
// and r's name.
func (f *Figure) addArrowAt(r reference, x float64, up, legend bool) {
	y, shape, where := f.yr[1], draw.GlyphDrawer(arrowGlyph{}), "↑ above the axes: "
	if !up {
		y, shape, where = f.yr[0], arrowGlyph{down: true}, "↓ below the axes: "
	}
	s := Series{Name: where + r.name, Role: r.role, Solver: r.solver, Color: r.col, Glyph: "arrow", Arrow: true,
		Points: plotter.XYs{{X: x, Y: y}}}
	a := &arrow{at: s.Points[0], up: up, sty: draw.GlyphStyle{Color: r.col, Radius: vg.Points(6), Shape: shape}}
	f.Plot.Add(a)
	f.series = append(f.series, s)
	if legend {
		short := r.short
		if short == "" {
			short = r.name
		}
		f.legendAddShort(s.Name, where+short, a)
	}
	if r.label != "" {
		edge := 1
		if !up {
			edge = -1
		}
		f.edgeLabel(r.label, x, y, r.col, edge)
	}
}

// vline draws a vertical marker at x over the y range, in the legend as
// name.
func (f *Figure) vline(x float64, name string, col color.Color, dashes []vg.Length) error {
	if !drawable(x) {
		return nil
	}
	s := Series{Name: name, Role: RoleMarker, Color: col, Dashes: dashes, Line: true, Points: plotter.XYs{{X: x, Y: f.yr[0]}, {X: x, Y: f.yr[1]}}}
	l, err := plotter.NewLine(s.Points)
	if err != nil {
		return err
	}
	l.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.4), Dashes: dashes}
	f.Plot.Add(l)
	f.series = append(f.series, s)
	f.legendAdd(name, l)
	return nil
}

// arrow is a triangle at the top or bottom edge of the axes, pointing
// out of them, at x.
type arrow struct {
	at  plotter.XY
	up  bool
	sty draw.GlyphStyle
}

// Plot draws the arrow inside the axes, its tip at the edge.
func (a *arrow) Plot(c draw.Canvas, plt *gplot.Plot) {
	trX, _ := plt.Transforms(&c)
	x := trX(a.at.X)
	y := c.Max.Y - a.sty.Radius
	if !a.up {
		y = c.Min.Y + a.sty.Radius
	}
	c.DrawGlyphNoClip(a.sty, vg.Point{X: x, Y: y})
}

// Thumbnail draws the arrow in the legend.
func (a *arrow) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(a.sty, c.Center())
}
