package plot

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	_ "gonum.org/v1/plot/vg/vgimg" // png
	_ "gonum.org/v1/plot/vg/vgsvg" // svg

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

// Size of a figure's axes area; the legend adds its own height below.
const (
	Width  = 9 * vg.Inch
	Height = 5.5 * vg.Inch
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

// Figure is a plot with its legend, which is drawn below the axes.
type Figure struct {
	Plot   *gplot.Plot
	Legend gplot.Legend
	// ylo, yhi span the values drawn (for the y axis's range), xlo, xhi
	// the positions.
	ylo, yhi, xlo, xhi float64
	series             []Series
	dashes             int // dash patterns handed out
	// The point labels as last drawn, and the lines and markers they
	// were kept clear of (see pointLabels, Labels).
	labels     []LabelBox
	labelSegs  [][2]vg.Point
	labelMarks []vg.Rectangle
	// The labels of the horizontal reference lines, placed when drawn
	// (lineLabel).
	lineAt     plotter.XYs
	lineTexts  []string
	lineColors []color.Color
}

// offChart is how far (a factor) a bound may lie from the excess risks
// drawn and still be drawn: a bound 10⁴ times above the curve (Lipschitz
// DP-SGD's with L_f = 2·10²⁰) would squash the curve into one pixel row,
// so it is listed in the legend with its value instead.
const offChart = 1e4

// offChartText is offChart as the legends write it ("10000").
var offChartText = strconv.Itoa(int(offChart))

// see extends the y range to include y.
func (f *Figure) see(y float64) {
	f.ylo, f.yhi = math.Min(f.ylo, y), math.Max(f.yhi, y)
}

// seeX extends the x range to include x.
func (f *Figure) seeX(x float64) {
	f.xlo, f.xhi = math.Min(f.xlo, x), math.Max(f.xhi, x)
}

// window reports whether y is within offChart of the data drawn so far
// (always, before any data).
func (f *Figure) window(y float64) bool {
	if f.ylo > f.yhi {
		return true
	}
	return y >= f.ylo/offChart && y <= f.yhi*offChart
}

// fixRange sets the y axis to the values drawn (lines beyond it are
// clipped at the axes).
func (f *Figure) fixRange() {
	if f.ylo > f.yhi {
		return
	}
	lo, hi := f.ylo, f.yhi
	if lo == hi {
		lo, hi = lo/2, hi*2
	}
	// A margin of 5% of the log range on each side.
	m := math.Pow(hi/lo, 0.05)
	f.Plot.Y.Min, f.Plot.Y.Max = lo/m, hi*m
	if f.xlo <= f.xhi {
		lo, hi := f.xlo, f.xhi
		if lo == hi {
			lo, hi = lo/2, hi*2
		}
		m := math.Pow(hi/lo, 0.02)
		f.Plot.X.Min, f.Plot.X.Max = lo/m, hi*m
	}
}

// logTicks are gonum's log ticks restricted to the axis range (gonum's
// own include the enclosing decades, whose labels pad the axes), with
// the 2…9 multiples labelled when the range holds fewer than two decades.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []gplot.Tick {
	if !(lo > 0) || !(hi >= lo) || math.IsInf(hi, 0) {
		return nil
	}
	in := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	var ticks []gplot.Tick
	labelled := 0
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for i := 1; i < 10; i++ {
			// i·10^e, correctly rounded (0.003, not 0.0030000000000000001).
			v := float64(i) * math.Pow(10, e)
			if e < 0 {
				v = float64(i) / math.Pow(10, -e)
			}
			if !in(v) {
				continue
			}
			t := gplot.Tick{Value: v}
			if i == 1 {
				t.Label = tickLabel(v)
				labelled++
			}
			ticks = append(ticks, t)
		}
	}
	if labelled < 2 {
		for i := range ticks {
			ticks[i].Label = tickLabel(ticks[i].Value)
		}
		if len(ticks) < 2 {
			ticks = []gplot.Tick{{Value: lo, Label: tickLabel(lo)}, {Value: hi, Label: tickLabel(hi)}}
		}
		return ticks
	}
	// The labels cover the data: where the axis goes on more than a factor
	// 2 past the outermost labelled decade (traces down to 0.035 under a
	// lowest label of 0.1), the outermost tick is labelled too — at most
	// half (or twice) its labelled neighbour, so the labels never crowd.
	first, last := -1, -1
	for i, t := range ticks {
		if t.Label != "" {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if ticks[first].Value > 2*lo && first > 0 && ticks[0].Value*2 <= ticks[first].Value {
		ticks[0].Label = tickLabel(ticks[0].Value)
	}
	if n := len(ticks) - 1; ticks[last].Value < hi/2 && last < n && ticks[n].Value >= 2*ticks[last].Value {
		ticks[n].Label = tickLabel(ticks[n].Value)
	}
	return ticks
}

// tickLabel writes 2000 and 0.003 plainly, and a value outside
// [10⁻³, 10⁵) as m·e with a proper minus sign ("1e6", "2e−5"), so that an
// axis never mixes "100000" with "1e+06". (The figures' font has the
// superscript digits but not the superscript minus, so 10⁻⁵ would be drawn
// as 10⁵: e-notation it is.)
func tickLabel(v float64) string {
	if v >= 1e-3 && v < 1e5 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	e := int(math.Floor(math.Log10(v) + 1e-9))
	m := v / math.Pow(10, float64(e))
	// m to 6 significant digits, trailing zeros dropped (2.9, not
	// 2.9000000000000004).
	ms := strconv.FormatFloat(m, 'g', 6, 64)
	return ms + "e" + strings.Replace(strconv.Itoa(e), "-", "−", 1)
}

func newFigure(title, xlabel, ylabel string) *Figure {
	p := gplot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Scale, p.Y.Scale = gplot.LogScale{}, gplot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = logTicks{}, logTicks{}
	p.Add(plotter.NewGrid())
	leg := gplot.NewLegend()
	leg.Top, leg.Left = true, true
	leg.TextStyle.Font.Size = vg.Points(10)
	return &Figure{Plot: p, Legend: leg, ylo: math.Inf(1), yhi: math.Inf(-1), xlo: math.Inf(1), xhi: math.Inf(-1)}
}

// legendHeight is the height the legend takes, with a margin.
func (f *Figure) legendHeight() vg.Length {
	r := f.Legend.Rectangle(draw.Canvas{})
	if h := r.Max.Y - r.Min.Y; h > 0 {
		return h + vg.Points(12)
	}
	return 0
}

// Write renders the figure to w: the axes of Width × Height and the legend
// below them.
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
	lh := f.legendHeight()
	c, err := draw.NewFormattedCanvas(Width, Height+lh, string(format))
	if err != nil {
		return err
	}
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	pc := draw.Crop(dc, 0, 0, lh, 0)
	// The axis labels are drawn here rather than by gonum/plot, which
	// reserves room for a centred label at the arithmetic mean of the
	// axis range: near the top (or right) end of a log axis, which
	// leaves a wide blank band beside the data.
	xl, yl := f.Plot.X.Label.Text, f.Plot.Y.Label.Text
	f.Plot.X.Label.Text, f.Plot.Y.Label.Text = "", ""
	defer func() { f.Plot.X.Label.Text, f.Plot.Y.Label.Text = xl, yl }()
	var left, bottom vg.Length
	ysty, xsty := f.Plot.Y.Label.TextStyle, f.Plot.X.Label.TextStyle
	if yl != "" {
		left = ysty.Height(yl) + f.Plot.Y.Label.Padding
	}
	if xl != "" {
		bottom = xsty.Height(xl) + f.Plot.X.Label.Padding
	}
	f.Plot.Draw(draw.Crop(pc, left, 0, bottom, 0))
	if yl != "" {
		rot := ysty
		rot.Rotation += math.Pi / 2
		pc.FillText(rot, vg.Point{X: pc.Min.X + ysty.Height(yl) - ysty.FontExtents().Descent, Y: pc.Center().Y}, yl)
	}
	if xl != "" {
		pc.FillText(xsty, vg.Point{X: pc.Center().X + left/2, Y: pc.Min.Y + xsty.FontExtents().Descent}, xl)
	}
	if lh > 0 {
		legc := draw.Crop(dc, vg.Points(10), 0, 0, -Height)
		f.Legend.Draw(legc)
	}
	_, err = c.WriteTo(w)
	return err
}

// Save writes the figure to a new file path in the format of its
// extension, through outfile.Write: an existing file (or a link) at path is
// refused and left untouched, and on failure no partial file is left
// behind. The CLI's --plot --force replaces a file with outfile.Replace
// and WriteRun (or WriteSweep) instead.
func (f *Figure) Save(path string) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	return outfile.Write(path, outfile.Create, func(w io.Writer) error { return f.Write(w, format) })
}

// The figures' number formats (theory's one formatter): values with 4
// significant digits and short exponents (the axes' form, see tickLabel:
// 2.541e−5, never 2.541e-05), slopes with 3 decimals and a proper minus
// sign.
var (
	valueFormat = theory.NumberFormat{Digits: 4, Minus: "−", ShortExp: true, PosInf: "∞", NegInf: "−∞", NaN: "—"}
	slopeFormat = theory.NumberFormat{Digits: 3, Fixed: true, Minus: "−", PosInf: "+Inf", NegInf: "−Inf", NaN: "—"}
)

// num prints a value with 4 significant digits, ∞ for +Inf, and the
// exponent's minus as the axes write it.
func num(x float64) string { return strings.Replace(valueFormat.Format(x), "e-", "e−", 1) }

// slopeText prints a slope with 3 decimals and a proper minus sign.
func slopeText(x float64) string { return slopeFormat.Format(x) }

// drawable reports whether x can be drawn on a log axis.
func drawable(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

// errNothing is returned when no value of a figure can be drawn.
var errNothing = errors.New("nothing to draw: no positive finite excess risk or bound value (both axes are logarithmic)")

// legendNote adds a text-only legend entry (wrapped, see legendAdd).
func (f *Figure) legendNote(text string) { f.legendAdd(text) }

// legendWidth is the most characters of a legend line: the figure is 9
// inches wide and the legend's font 10 points.
const legendWidth = 118

// legendAdd adds a legend entry, wrapping a long text at spaces: the
// first line beside the thumbnails, the rest as indented text-only lines
// under it (gonum's legend gives every entry one line's height).
func (f *Figure) legendAdd(text string, thumbs ...gplot.Thumbnailer) {
	lines := wrapText(text, legendWidth)
	f.Legend.Add(lines[0], thumbs...)
	for _, l := range lines[1:] {
		f.Legend.Add("    " + l)
	}
}

// wrapText splits s at spaces into lines of at most width runes (a word
// longer than width stays whole).
func wrapText(s string, width int) []string {
	var lines []string
	var cur []rune
	for _, w := range strings.Fields(s) {
		rw := []rune(w)
		if len(cur) > 0 && len(cur)+1+len(rw) > width {
			lines = append(lines, string(cur))
			cur = nil
		}
		if len(cur) > 0 {
			cur = append(cur, ' ')
		}
		cur = append(cur, rw...)
	}
	if len(cur) > 0 || len(lines) == 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

// condText is "conditions hold" or "conditions fail".
func condText(b theory.Bound) string {
	if b.ConditionsHold() {
		return "conditions hold"
	}
	return "conditions fail"
}

// plural is "1 trial", "3 trials".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
