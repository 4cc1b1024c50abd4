package plot

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"dpso/theory"
)

// The default size of a figure, in pixels: 16:9, a slide's full width.
const (
	DefaultWidth  = 1920
	DefaultHeight = 1080
)

// The sizes a figure may have: each side within [MinSide, MaxSide] pixels,
// at most MaxPixels in all (an RGBA image of 4 bytes a pixel).
const (
	MinSide   = 320
	MaxSide   = 7680
	MaxPixels = 7680 * 4320
)

// Hide is a set of the parts of a figure to leave out.
type Hide uint8

// The parts a figure can leave out.
const (
	// HideBounds leaves out the theory's slope guides (sweeps).
	HideBounds Hide = 1 << iota
	// HideCertificates leaves out the certificates' lines and curves.
	HideCertificates
	// HideTrials leaves out the single trials' faint traces (runs).
	HideTrials
)

// hideNames are the names ParseHide reads, in order.
var hideNames = []struct {
	name string
	h    Hide
}{{"bounds", HideBounds}, {"certificates", HideCertificates}, {"trials", HideTrials}}

// HideNames lists the names ParseHide reads ("bounds", "certificates",
// "trials").
func HideNames() []string {
	out := make([]string, len(hideNames))
	for i, h := range hideNames {
		out[i] = h.name
	}
	return out
}

// ParseHide reads a comma-separated list of parts to leave out ("" is
// none), refusing a name it does not know with the allowed ones.
func ParseHide(s string) (Hide, error) {
	var h Hide
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(strings.ToLower(part))
		if part == "" {
			continue
		}
		found := false
		for _, n := range hideNames {
			if n.name == part {
				h |= n.h
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("%s is not a part of a figure (want a comma-separated list of %s)", theory.Quote(part), strings.Join(HideNames(), ", "))
		}
	}
	return h, nil
}

// Options shape a figure: its size in pixels (the PNG's, and the SVG's
// nominal size) and the parts it leaves out. The zero value is the
// default: 1920×1080 with every part.
type Options struct {
	Width, Height int
	Hide          Hide
}

// withDefaults fills a zero size with the default.
func (o Options) withDefaults() Options {
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = DefaultWidth, DefaultHeight
	}
	return o
}

// ParseSize reads a size "WxH" in pixels (e.g. 1920x1080; × also
// accepted), each side within [MinSide, MaxSide] and at most MaxPixels in
// all.
func ParseSize(s string) (w, h int, err error) {
	t := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "×", "x")
	ws, hs, ok := strings.Cut(t, "x")
	if ok {
		w, err = strconv.Atoi(strings.TrimSpace(ws))
		if err == nil {
			h, err = strconv.Atoi(strings.TrimSpace(hs))
		}
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("%s is not a size: want WIDTHxHEIGHT in pixels, e.g. %dx%d", theory.Quote(s), DefaultWidth, DefaultHeight)
	}
	if w < MinSide || h < MinSide || w > MaxSide || h > MaxSide {
		return 0, 0, fmt.Errorf("%dx%d: each side must be %d to %d pixels", w, h, MinSide, MaxSide)
	}
	if w*h > MaxPixels {
		return 0, 0, fmt.Errorf("%dx%d: at most %s pixels in all (e.g. %dx%d)", w, h, theory.FormatCount(MaxPixels), MaxSide, MaxPixels/MaxSide)
	}
	return w, h, nil
}

// PixelRect is a rectangle in pixels from the image's top-left corner.
type PixelRect struct{ X0, Y0, X1, Y1 float64 }

// Layout is where a figure's parts landed when it was last written, in
// pixels of its image (the SVG's nominal size).
type Layout struct {
	Width, Height int
	// Axes is the data area; Data the extent of the measured points
	// (their centres) in it; YLabel, XLabel, Title, Verdict (the
	// verdicts under the title), Legend and Notes the texts' boxes.
	Axes, Data                                    PixelRect
	YLabel, XLabel, Title, Verdict, Legend, Notes PixelRect
	// NotesSide is the box of the notes drawn under the legend in its
	// column when the others stand across the bottom (Notes); empty
	// when none is.
	NotesSide PixelRect
	// VerdictPx is the verdicts' font size in pixels (0 without any).
	VerdictPx float64
	// LegendPx is the legend's font size in pixels; LegendEntries and
	// LegendDrawn count its entries and those drawn (the others are
	// counted in a last line); LegendShort: the entries' short texts
	// were drawn (the full ones would not fit). NotesTotal and NotesDrawn
	// count the notes likewise.
	LegendPx                   float64
	LegendEntries, LegendDrawn int
	LegendShort                bool
	NotesTotal, NotesDrawn     int
	dpi                        int
	h                          vg.Length // the canvas's height
	axesV                      vg.Rectangle
}

// px converts a rectangle of the canvas to pixels.
func (l Layout) px(r vg.Rectangle) PixelRect {
	s := float64(l.dpi) / 72
	return PixelRect{X0: r.Min.X.Points() * s, X1: r.Max.X.Points() * s,
		Y0: (l.h - r.Max.Y).Points() * s, Y1: (l.h - r.Min.Y).Points() * s}
}

// DataFill is the fraction of the image's height that the measured data
// span (0 before the figure is written).
func (l Layout) DataFill() float64 {
	if l.Height == 0 {
		return 0
	}
	return (l.Data.Y1 - l.Data.Y0) / float64(l.Height)
}

// Layout is where the figure's parts landed when it was last written.
func (f *Figure) Layout() Layout { return f.layout }

// recorder is a plotter that draws nothing: it records the data area and
// where the measured points landed in it.
type recorder struct {
	f   *Figure
	lay *Layout
}

// Plot records the layout (gonum/plot's Plotter).
func (r *recorder) Plot(c draw.Canvas, plt *gplot.Plot) {
	if r.lay == nil {
		return
	}
	trX, trY := plt.Transforms(&c)
	r.lay.axesV = c.Rectangle
	r.lay.Axes = r.lay.px(c.Rectangle)
	lo, hi := vg.Length(math.Inf(1)), vg.Length(math.Inf(-1))
	var xlo, xhi vg.Length
	for _, s := range r.f.series {
		if s.Role != RoleSolver && s.Role != RoleNoiseOff && s.Role != RoleMoment || s.Arrow {
			continue
		}
		for _, p := range s.Points {
			y, x := trY(p.Y), trX(p.X)
			if lo > hi {
				xlo, xhi = x, x
			}
			lo, hi = min(lo, y), max(hi, y)
			xlo, xhi = min(xlo, x), max(xhi, x)
		}
	}
	if lo <= hi {
		r.lay.Data = r.lay.px(vg.Rectangle{Min: vg.Point{X: xlo, Y: lo}, Max: vg.Point{X: xhi, Y: hi}})
	}
}

// textStyle is the figures' text at size points.
func textStyle(size float64) text.Style {
	return text.Style{Color: color.Black, Font: font.From(gplot.DefaultFont, vg.Points(size)), Handler: figureText}
}

// wrapWidth splits s at spaces into lines no wider than width in sty (a
// word wider than width stays whole).
func wrapWidth(s string, sty text.Style, width vg.Length) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		next := w
		if cur != "" {
			next = cur + " " + w
		}
		if cur != "" && sty.Width(next) > width {
			lines = append(lines, cur)
			cur = w
			continue
		}
		cur = next
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

// The legend's thumbnail and its gap to the text.
var (
	thumbWidth = vg.Points(34)
	thumbGap   = vg.Points(6)
)

// maxNotesFrac is the most of the canvas's height the notes take; the
// notes beyond it are counted in a last line.
const maxNotesFrac = 0.22

// legendLines are the legend's entries (their short texts when short),
// wrapped to width at legendSize, with the height they take.
func (f *Figure) legendLines(width vg.Length, short bool) (items [][]string, height vg.Length) {
	sty := textStyle(legendSize)
	for _, it := range f.legend {
		t := it.text
		if short {
			t = it.short
		}
		ls := wrapWidth(t, sty, width-thumbWidth-thumbGap)
		items = append(items, ls)
		height += vg.Points(legendSize*1.2)*vg.Length(len(ls)) + vg.Points(legendSize*0.4)
	}
	return items, height
}

// drawLegend draws the legend in box at legendSize (never smaller: 32
// pixels at 1920×1080): the short texts when lay.LegendShort (draw chose),
// else the full ones; entries that do not fit are counted in a last line.
// It records the font's size in pixels and the entries drawn in lay, and
// returns the box used.
func (f *Figure) drawLegend(dc draw.Canvas, box vg.Rectangle, lay *Layout) vg.Rectangle {
	width := box.Max.X - box.Min.X
	items, _ := f.legendLines(width, lay.LegendShort)
	sty := textStyle(legendSize)
	sty.YAlign = draw.YTop
	lh := vg.Points(legendSize * 1.2)
	lay.LegendPx = legendSize * float64(lay.dpi) / 72
	lay.LegendEntries = len(items)
	y := box.Max.Y
	for i, ls := range items {
		need := lh*vg.Length(len(ls)) + vg.Points(legendSize*0.4)
		if y-need < box.Min.Y+lh && i < len(items)-1 || y-need < box.Min.Y {
			dc.FillText(sty, vg.Point{X: box.Min.X, Y: y}, "… "+entries(len(items)-i)+" more")
			y -= lh
			break
		}
		for _, th := range f.legend[i].thumbs {
			tc := draw.Crop(dc, 0, 0, 0, 0)
			tc.Rectangle = vg.Rectangle{Min: vg.Point{X: box.Min.X, Y: y - lh}, Max: vg.Point{X: box.Min.X + thumbWidth, Y: y}}
			th.Thumbnail(&tc)
		}
		for _, l := range ls {
			dc.FillText(sty, vg.Point{X: box.Min.X + thumbWidth + thumbGap, Y: y}, l)
			y -= lh
		}
		y -= vg.Points(legendSize * 0.4)
		lay.LegendDrawn++
	}
	return vg.Rectangle{Min: vg.Point{X: box.Min.X, Y: max(y, box.Min.Y)}, Max: box.Max}
}

// namesNote names the figure's solvers in full ("noisy clipped AC-SA
// (acsa, the paper's); …"), for a legend that shows their ids only; ""
// for a figure without solvers.
func (f *Figure) namesNote() string {
	var names []string
	seen := map[string]bool{}
	for _, s := range f.series {
		if s.Role == RoleSolver && s.Solver != "" && !seen[s.Solver] {
			seen[s.Solver] = true
			names = append(names, SolverLabel(s.Solver))
		}
	}
	if len(names) == 0 {
		return ""
	}
	if f.procedures != "" {
		// The tuning figure's bars are one solver's procedures.
		return "bars: " + strings.Join(names, "; ") + ": procedures of " + f.procedures + ", not solvers"
	}
	return "solvers: " + strings.Join(names, "; ")
}

// notesTop is the y above the notes drawNotes would draw in box.
func (f *Figure) notesTop(dc draw.Canvas, box vg.Rectangle, notes []string, limit vg.Length) vg.Length {
	var lay Layout
	return f.layoutNotes(dc, box, notes, limit, &lay, false)
}

// drawNotes draws notes across the bottom of box at notesSize, in at
// most limit of its height (0: maxNotesFrac of the canvas's; the notes
// beyond it counted in a last line), and returns the y above them, where
// the axes and the legend end. It records the notes' box and count in lay.
func (f *Figure) drawNotes(dc draw.Canvas, box vg.Rectangle, notes []string, limit vg.Length, lay *Layout) vg.Length {
	return f.layoutNotes(dc, box, notes, limit, lay, true)
}

// layoutNotes lays the notes out as drawNotes says, drawing them when
// paint is set.
func (f *Figure) layoutNotes(dc draw.Canvas, box vg.Rectangle, notes []string, limit vg.Length, lay *Layout, paint bool) vg.Length {
	lay.NotesTotal = len(notes)
	if len(notes) == 0 {
		return box.Min.Y
	}
	sty := textStyle(notesSize)
	sty.YAlign = draw.YBottom
	lh := vg.Points(notesSize * 1.2)
	gap := vg.Points(notesSize * 0.25)
	if limit == 0 {
		limit = (dc.Rectangle.Max.Y - dc.Rectangle.Min.Y) * maxNotesFrac
	}
	width := box.Max.X - box.Min.X
	lines, _, drawn := packNotes(notes, func(i int) []string { return wrapWidth("· "+notes[i], sty, width) }, sty, width, limit)
	lay.NotesDrawn += drawn
	// Bottom-aligned in box, drawn top-down (a reader of the SVG's text
	// meets them in order).
	y := box.Min.Y
	for _, l := range lines {
		if l == "" {
			y += gap
		} else {
			y += lh
		}
	}
	top := y
	for _, l := range lines {
		if l == "" {
			y -= gap
			continue
		}
		y -= lh
		if paint {
			dc.FillText(sty, vg.Point{X: box.Min.X, Y: y}, l)
		}
	}
	y = top
	lay.Notes = lay.px(vg.Rectangle{Min: box.Min, Max: vg.Point{X: box.Max.X, Y: y}})
	return y + vg.Points(6)
}

// noteSep stands between two notes on one line.
const noteSep = "    "

// packNotes lays notes out in lines of at most width in sty (wrapped(i):
// note i's lines, "· " first), "" after each note for the gap under it:
// a note of one line that fits after the previous note's last line
// stands there, after noteSep, so that short notes share a line; the
// notes that would pass limit (less a line for it) are counted in a
// last line. It returns the lines, their height and the notes laid out.
func packNotes(notes []string, wrapped func(int) []string, sty text.Style, width, limit vg.Length) (lines []string, height vg.Length, drawn int) {
	lh := vg.Points(notesSize * 1.2)
	gap := vg.Points(notesSize * 0.25)
	for i := range notes {
		ls := wrapped(i)
		if n := len(lines); n >= 2 && len(ls) == 1 && sty.Width(lines[n-2]+noteSep+ls[0]) <= width {
			lines[n-2] += noteSep + ls[0]
			drawn++
			continue
		}
		need := lh*vg.Length(len(ls)) + gap
		if height+need > limit-lh && i < len(notes)-1 || height+need > limit {
			lines = append(lines, fmt.Sprintf("… %s more: see the report (--json)", plural(len(notes)-i, "note")))
			height += lh
			break
		}
		lines = append(lines, ls...)
		lines = append(lines, "")
		height += need
		drawn++
	}
	return lines, height, drawn
}

// entries is "1 entry", "2 entries".
func entries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return strconv.Itoa(n) + " entries"
}
