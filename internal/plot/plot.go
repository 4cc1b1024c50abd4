package plot

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"dpso/internal/outfile"
	"dpso/theory"
)

// Format is an image file format.
type Format string

// The formats a figure can be written in.
const (
	PNG Format = "png"
	SVG Format = "svg"
)

// FormatOf returns the format named by path's extension (.png or .svg, in
// any case), or an error that names the allowed extensions.
func FormatOf(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return PNG, nil
	case ".svg":
		return SVG, nil
	}
	return "", fmt.Errorf("%s: the file name must end in .png or .svg (the figure's format)", theory.Quote(path))
}

// Figure is a plot with its title, legend and notes, laid out on a canvas
// of Options' size: the title across the top, the axes on the left, the
// legend in a column on the right (legendFrac of the width), the notes
// across the bottom.
type Figure struct {
	Plot  *gplot.Plot
	title string
	opts  Options
	// ylo, yhi span the measured values (the y axis's range), xlo, xhi
	// the positions of everything drawn.
	ylo, yhi, xlo, xhi float64
	series             []Series
	refs               []reference
	legend             []legendItem
	notes              []string
	verdicts           []verdict // drawn under the title (addVerdict)
	// procedures names the solver whose procedures the bars are (the
	// tuning figure), for the names note; "" on the other figures.
	procedures string
	dashes     int // dash patterns handed out
	glyphs     int // marker shapes handed out (nextGlyph)
	certs      int // certificates drawn (certColor)
	// linearX: the x axis is linear with ticks of its own (the tuning
	// figure's procedures).
	linearX bool
	// The point labels as last drawn, and the lines and markers they
	// were kept clear of (see pointLabels, Labels).
	labels     []LabelBox
	labelSegs  [][2]vg.Point
	labelMarks []vg.Rectangle
	// The labels of the horizontal reference lines and of the arrows,
	// placed when drawn (lineLabel).
	lineAt     plotter.XYs
	lineTexts  []string
	lineColors []color.Color
	lineEdges  []int // 0: a line's label; +1 (−1): an arrow's at the top (bottom) edge
	// arrowRoom is how much of the x range, as a fraction from its
	// right end, the arrows at the top ([0]) and bottom ([1]) edges and
	// their labels take so far (addArrow).
	arrowRoom [2]float64
	// arrowsAbove: arrows will stand at the top edge that are not
	// references (the moment profile's r̃_k = ∞): finish leaves them a band.
	arrowsAbove bool
	layout      Layout
	rec         *recorder
	// yr and xr are the axes' ranges as finish fixed them.
	yr, xr [2]float64
}

// legendItem is one legend entry: a text beside the series' thumbnails,
// and a shorter one for a legend that the full texts would overfill.
type legendItem struct {
	text, short string
	thumbs      []gplot.Thumbnailer
}

// The canvas: a logical width of canvasWidth points whatever the size in
// pixels (the dots per inch follow the size), so that fonts, lines and
// markers keep their proportions at every size.
const canvasWidth = 960

// The fonts' sizes, in points of the logical canvas (a point is two
// pixels at 1920×1080): the legend's at 32 pixels there, readable from the
// back of a lecture room; labels on the chart and the notes smaller.
const (
	titleSize  = 16
	axisSize   = 15
	legendSize = 16
	notesSize  = 13.5
	labelSize  = 12
)

// titlePad is the room above the title, in points.
const titlePad = vg.Length(5)

// legendFrac is the legend column's share of the width.
const legendFrac = 0.25

func newFigure(title, xlabel, ylabel string, o Options) *Figure {
	p := gplot.New()
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Scale, p.Y.Scale = gplot.LogScale{}, gplot.LogScale{}
	for _, a := range []*gplot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(axisSize)
		a.Label.TextStyle.Handler = figureText
		a.Tick.Label.Font.Size = vg.Points(axisSize)
		a.Tick.Label.Handler = figureText
	}
	p.Add(plotter.NewGrid())
	return &Figure{Plot: p, title: title, opts: o.withDefaults(),
		ylo: math.Inf(1), yhi: math.Inf(-1), xlo: math.Inf(1), xhi: math.Inf(-1)}
}

// see extends the measured values' range to include y.
func (f *Figure) see(y float64) {
	f.ylo, f.yhi = math.Min(f.ylo, y), math.Max(f.yhi, y)
}

// seeX extends the x range to include x.
func (f *Figure) seeX(x float64) {
	f.xlo, f.xhi = math.Min(f.xlo, x), math.Max(f.xhi, x)
}

// legendAdd adds a legend entry (wrapped to the legend's width when
// drawn).
func (f *Figure) legendAdd(text string, thumbs ...gplot.Thumbnailer) {
	f.legendAddShort(text, "", thumbs...)
}

// legendAddShort adds a legend entry with the shorter text the legend
// shows when the full ones do not fit its column ("": the full text).
func (f *Figure) legendAddShort(text, short string, thumbs ...gplot.Thumbnailer) {
	if short == "" {
		short = text
	}
	f.legend = append(f.legend, legendItem{text: text, short: short, thumbs: thumbs})
}

// legendNote adds a note under the axes (smaller, without a thumbnail).
func (f *Figure) legendNote(text string) { f.notes = append(f.notes, text) }

// geometry is the canvas's logical size and its dots per inch, for a
// size in pixels: w·72/dpi × h·72/dpi points at dpi, which is w pixels
// wide (vgimg rounds the dots to the nearest pixel).
func geometry(w, h int) (vw, vh vg.Length, dpi int) {
	dpi = max(1, int(math.Round(float64(w)*72/canvasWidth)))
	return vg.Length(float64(w) * 72 / float64(dpi)), vg.Length(float64(h) * 72 / float64(dpi)), dpi
}

// pngEncoder writes figures at deflate's fastest level: a figure is flat
// colour and text, which the fastest level still packs well, and
// encoding at the default level was about half of drawing a figure's
// CPU.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed}

// Write renders the figure to w in format, at the size of its Options.
func (f *Figure) Write(w io.Writer, format Format) (err error) {
	if format != PNG && format != SVG {
		return fmt.Errorf("unsupported figure format %s (want png or svg)", theory.Quote(string(format)))
	}
	defer func() {
		// gonum/plot panics on some degenerate inputs (e.g. a log axis
		// over non-positive values); no panic may reach a user.
		if r := recover(); r != nil {
			err = fmt.Errorf("drawing the figure failed: %v", r)
		}
	}()
	o := f.opts.withDefaults()
	vw, vh, dpi := geometry(o.Width, o.Height)
	if format == PNG {
		c := vgimg.NewWith(vgimg.UseWH(vw, vh), vgimg.UseDPI(dpi))
		f.draw(draw.New(c), dpi)
		return pngEncoder.Encode(w, c.Image())
	}
	c := vgsvg.New(vw, vh)
	f.draw(draw.New(c), dpi)
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return err
	}
	_, err = w.Write(svgPixelSize(b.Bytes(), o.Width, o.Height))
	return err
}

// joinFitting joins consecutive lines with " · " wherever the joined line
// is no wider than width in sty.
func joinFitting(lines []string, sty text.Style, width vg.Length) []string {
	var out []string
	for _, l := range lines {
		if n := len(out); n > 0 && sty.Width(out[n-1]+" · "+l) <= width {
			out[n-1] += " · " + l
			continue
		}
		out = append(out, l)
	}
	return out
}

// svgSize is the size attributes vgsvg writes (in points).
var svgSize = regexp.MustCompile(`<svg width="[0-9.e+]+pt" height="[0-9.e+]+pt"`)

// svgPixelSize gives the SVG's root the figure's size in pixels (the
// viewBox keeps the logical canvas), so that it opens at the PNG's size.
func svgPixelSize(b []byte, w, h int) []byte {
	loc := svgSize.FindIndex(b)
	if loc == nil {
		return b
	}
	repl := fmt.Sprintf(`<svg width="%d" height="%d"`, w, h)
	return append(append(append([]byte{}, b[:loc[0]]...), repl...), b[loc[1]:]...)
}

// draw lays the figure out on dc: the title, the legend column on the
// right, the axes with their labels on the left; it records where each
// part landed (Layout).
func (f *Figure) draw(dc draw.Canvas, dpi int) {
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	pad := vg.Points(10)
	full := dc.Rectangle
	lay := Layout{Width: f.opts.Width, Height: f.opts.Height, dpi: dpi, h: full.Max.Y}
	// The title, centred, its lines joined by " · " where they fit on
	// one, wrapped to the width.
	tsty := textStyle(titleSize)
	tsty.XAlign, tsty.YAlign = draw.XCenter, draw.YTop
	top := full.Max.Y - titlePad
	for _, line := range joinFitting(strings.Split(f.title, "\n"), tsty, full.Max.X-full.Min.X-2*pad) {
		for _, l := range wrapWidth(line, tsty, full.Max.X-full.Min.X-2*pad) {
			dc.FillText(tsty, vg.Point{X: full.Min.X + (full.Max.X-full.Min.X)/2, Y: top}, l)
			top -= tsty.Height(l) * 1.15
		}
	}
	lay.Title = lay.px(vg.Rectangle{Min: vg.Point{X: full.Min.X + pad, Y: top}, Max: vg.Point{X: full.Max.X - pad, Y: full.Max.Y - titlePad}})
	top = f.drawVerdicts(dc, top, &lay)
	top -= vg.Points(3)
	// The legend column on the right, the notes under its entries where
	// they fit there, the others across the bottom under the axes
	// (planNotes: the split that leaves the axes the most height); the
	// legend's full texts if they fit, else its short ones, with a note
	// that names the solvers in full.
	lw := (full.Max.X - full.Min.X) * legendFrac
	col := vg.Rectangle{Min: vg.Point{X: full.Max.X - pad - lw, Y: full.Min.Y + pad}, Max: vg.Point{X: full.Max.X - pad, Y: top}}
	notes := f.notes
	withNames := func(short bool) []string {
		if n := f.namesNote(); short && n != "" {
			return append([]string{n}, f.notes...)
		}
		return f.notes
	}
	_, fullH := f.legendLines(lw, false)
	_, shortH := f.legendLines(lw, true)
	notesBox := vg.Rectangle{Min: vg.Point{X: full.Min.X + pad, Y: col.Min.Y}, Max: vg.Point{X: col.Max.X, Y: top}}
	bottomY := col.Min.Y
	var legBox vg.Rectangle
	if plan, ok := f.planNotes(dc, col, notesBox, withNames); ok {
		// The notes under the legend where they fit, the rest under the
		// axes (across the bottom, or beside the column when it reaches
		// the foot); the legend's entries at the column's top.
		lay.LegendShort = plan.short
		foot := col.Min.Y // of the column
		if len(plan.bottom) > 0 {
			box := notesBox
			if plan.narrow {
				box.Max.X = col.Min.X - pad
			}
			bottomY = f.drawNotes(dc, box, plan.bottom, 0, &lay)
			if !plan.narrow {
				foot = bottomY
			}
		}
		if len(plan.side) > 0 {
			side := lay
			side.NotesDrawn = 0
			f.drawNotes(dc, vg.Rectangle{Min: vg.Point{X: col.Min.X, Y: foot}, Max: col.Max}, plan.side, col.Max.Y-foot, &side)
			lay.NotesSide = side.Notes
			lay.NotesTotal += side.NotesTotal
			lay.NotesDrawn += side.NotesDrawn
		}
		h := fullH
		if plan.short {
			h = shortH
		}
		legBox = vg.Rectangle{Min: vg.Point{X: col.Min.X, Y: col.Max.Y - h - vg.Points(1)}, Max: col.Max} // 1: rounding, the entries measured to fit
	} else {
		// No room for the legend beside any split: every note across
		// the bottom, the legend's short texts where the full ones
		// would not fit above them (its last entries counted if even
		// these do not).
		if top-f.notesTop(dc, notesBox, notes, 0) < fullH {
			lay.LegendShort = true
			notes = withNames(true)
		}
		bottomY = f.drawNotes(dc, notesBox, notes, 0, &lay)
		legBox = vg.Rectangle{Min: vg.Point{X: col.Min.X, Y: bottomY}, Max: col.Max}
	}
	used := f.drawLegend(dc, legBox, &lay)
	lay.Legend = lay.px(used)
	// The axes, with the axis labels drawn here rather than by
	// gonum/plot, which centres a label on the arithmetic mean of a log
	// axis's range.
	axBox := vg.Rectangle{Min: vg.Point{X: full.Min.X + pad, Y: bottomY}, Max: vg.Point{X: legBox.Min.X - pad, Y: top}}
	xl, yl := f.Plot.X.Label.Text, f.Plot.Y.Label.Text
	f.Plot.X.Label.Text, f.Plot.Y.Label.Text = "", ""
	defer func() { f.Plot.X.Label.Text, f.Plot.Y.Label.Text = xl, yl }()
	ysty, xsty := f.Plot.Y.Label.TextStyle, f.Plot.X.Label.TextStyle
	// A label longer than its side is set smaller until it fits.
	for ysty.Font.Size > vg.Points(8) && ysty.Width(yl) > axBox.Max.Y-axBox.Min.Y {
		ysty.Font.Size -= vg.Points(0.5)
	}
	for xsty.Font.Size > vg.Points(8) && xsty.Width(xl) > axBox.Max.X-axBox.Min.X {
		xsty.Font.Size -= vg.Points(0.5)
	}
	var left, bottom vg.Length
	if yl != "" {
		left = ysty.Height(yl) + vg.Points(4)
	}
	if xl != "" {
		bottom = xsty.Height(xl) + vg.Points(4)
	}
	plotBox := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: axBox.Min.X + left, Y: axBox.Min.Y + bottom}, Max: axBox.Max}}
	if f.rec == nil {
		f.rec = &recorder{f: f}
		f.Plot.Add(f.rec)
	}
	f.rec.lay = &lay
	f.labels = nil
	f.setRanges()
	f.Plot.Draw(plotBox)
	if yl != "" {
		rot := ysty
		rot.Rotation = math.Pi / 2
		rot.XAlign, rot.YAlign = draw.XCenter, draw.YTop
		mid := (lay.axesV.Min.Y + lay.axesV.Max.Y) / 2
		w := ysty.Width(yl)
		mid = max(axBox.Min.Y+w/2, min(axBox.Max.Y-w/2, mid))
		dc.FillText(rot, vg.Point{X: axBox.Min.X, Y: mid}, yl)
		lay.YLabel = lay.px(vg.Rectangle{Min: vg.Point{X: axBox.Min.X, Y: mid - w/2}, Max: vg.Point{X: axBox.Min.X + ysty.Height(yl), Y: mid + w/2}})
	}
	if xl != "" {
		xs := xsty
		xs.XAlign, xs.YAlign = draw.XCenter, draw.YBottom
		w := xsty.Width(xl)
		mid := (lay.axesV.Min.X + lay.axesV.Max.X) / 2
		mid = max(axBox.Min.X+w/2, min(axBox.Max.X-w/2, mid))
		dc.FillText(xs, vg.Point{X: mid, Y: axBox.Min.Y}, xl)
		lay.XLabel = lay.px(vg.Rectangle{Min: vg.Point{X: mid - w/2, Y: axBox.Min.Y}, Max: vg.Point{X: mid + w/2, Y: axBox.Min.Y + xsty.Height(xl)}})
	}
	f.layout = lay
}

// Save writes the figure to a new file path in the format of its
// extension, through outfile.Write: an existing file (or a link) at path is
// refused and left untouched, and on failure no partial file is left
// behind. The CLI's --plot --force replaces a file with outfile.Replace.
func (f *Figure) Save(path string) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	return outfile.Write(path, outfile.Create, func(w io.Writer) error { return f.Write(w, format) })
}

// The figures' number formats (theory's one formatter, in the Pretty form
// whose exponent mathText raises: 2.54·10⁻⁵): values and standard errors
// as the explorer writes them (theory.Human, 3 significant digits: what
// tui/common.FmtNum writes), so that a slide and the screen it was
// exported from read the same numbers; slopes with 3 decimals and a
// proper minus sign.
var (
	valueFormat = theory.Human
	slopeFormat = theory.NumberFormat{Digits: 3, Fixed: true, Minus: "−", PosInf: "+Inf", NegInf: "−Inf", NaN: "—"}
)

// num prints a value as the explorer does, ∞ for +Inf.
func num(x float64) string { return valueFormat.Format(x) }

// seText prints a standard error as the explorer does (the screens write
// a mean ± its s.e. in one format).
func seText(x float64) string { return valueFormat.Format(x) }

// slopeText prints a slope with 3 decimals and a proper minus sign.
func slopeText(x float64) string { return slopeFormat.Format(x) }

// drawable reports whether x can be drawn on a log axis.
func drawable(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

// errNothing is returned when no value of a figure can be drawn.
var errNothing = errors.New("nothing to draw: no positive finite excess risk or bound value (both axes are logarithmic)")

// plural is "1 trial", "3 trials".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
