package chart

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/guptarohit/asciigraph"

	"dpso/tui/style"
)

// fitHeight is the asciigraph Height whose plot takes at most rows lines:
// the plot is given its values minus the lower end (see plot), so that it
// draws exactly H + 1 lines for Height H.
func fitHeight(rows int) int {
	return max(rows-1, 1)
}

// rowOf is the row, counted from the bottom (0 … rows), on which
// asciigraph draws the value v of a plot over [lo, hi] rows rows high.
// plot gives asciigraph its values from lo, with LowerBound 0 and
// UpperBound hi − lo, so that asciigraph puts v on row round((v − lo)·ratio)
// − round(0·ratio), ratio = rows/(hi − lo), its rounding half away from
// zero as Go's math.Round's; the labels, the ticks, the canvas's markers
// and the overdrawn lines are placed on the rows asciigraph draws by this
// one function. asciigraph itself (v0.10) exports no value-to-row mapping
// (its rounding and its scale are inside PlotMany), so the explorer cannot
// ask it; TestRowOfIsAsciigraphs checks this function against the rows
// asciigraph draws.
func rowOf(v, lo, hi float64, rows int) int {
	return int(math.Round((v - lo) * (float64(rows) / (hi - lo))))
}

// overdrawn finds the horizontal bound lines that land on the same plot
// row — row = round((v − lo)·H/(hi−lo)) for H rows, as plot draws them —
// and records on each line drawn under a later one (bounds
// are drawn prior, lower, upper) the mark of the line over it. It reports
// whether that changed anything.
func overdrawn(sc []scaled, lo, hi float64, height int) bool {
	before := make([]string, len(sc))
	for i := range sc {
		before[i], sc[i].under = sc[i].under, ""
	}
	top := map[int]int{} // row → the latest line drawn on it
	for _, kind := range drawOrder {
		if kind == Run {
			continue
		}
		for i := range sc {
			x := &sc[i]
			if x.s.Kind != kind || x.off != 0 || len(x.pts) > 0 || math.IsNaN(x.logv) {
				continue
			}
			r := rowOf(x.logv, lo, hi, max(height, 1))
			if j, ok := top[r]; ok {
				sc[j].under = Mark(kind, x.glyph, false)
			}
			top[r] = i
		}
	}
	changed := false
	for i := range sc {
		changed = changed || before[i] != sc[i].under
	}
	return changed
}

// yAxis is the y axis of a plot of rows+1 rows over [lo, hi] (log10):
// its tick values (LogTicks: at most one label every second row, six at
// most) on their rows, written in one format, and the label of each row
// ("" between ticks).
type yAxis struct {
	rows   int
	lo, hi float64
	byRow  map[int]string
	width  int
}

func (c *Chart) yAxis(lo, hi float64, rows int) yAxis {
	ticks := LogTicks(lo, hi, min(max(rows/2, 2), 6))
	labels := labelsOf(ticks, c.axes.Labels, c.num)
	a := yAxis{rows: rows, lo: lo, hi: hi, byRow: map[int]string{}}
	for r, i := range yTicks(ticks, lo, hi, rows) {
		a.byRow[r] = labels[i]
		a.width = max(a.width, utf8.RuneCountInString(labels[i]))
	}
	return a
}

// label is the label of the row whose value (offset by lo, as the plot
// is given its values) is m: asciigraph labels row r from the bottom with
// m = r·(hi − lo)/rows.
func (a yAxis) label(m float64) string {
	if !(a.hi > a.lo) {
		return ""
	}
	return a.byRow[rowOf(m, 0, a.hi-a.lo, a.rows)]
}

// plotWidth is the width of a plot's data columns in w cells with y labels
// labW wide: the labels, the axis, and room on the right for half of the
// last x tick label.
func plotWidth(w, labW int) int { return w - (plotOffset + labW) - 3 }

// plotOffset is asciigraph's Offset: the columns before the axis beyond
// the labels.
const plotOffset = 2

// plot draws the series with asciigraph in a w×h area (h ≥ 3: at least
// one plot row, the x axis and its labels).
func (c *Chart) plot(sc []scaled, lo, hi, xmin, xmax float64, w, h int) []string {
	st := c.st
	height := fitHeight(h - 2)
	ya := c.yAxis(lo, hi, height)
	pw := plotWidth(w, ya.width)
	if pw < 4 {
		return []string{st.Muted.Render("(too narrow)")}
	}
	// The x axis: [xmin, xmax], with a start column and a one-column
	// break on the left when X = 0 is drawn on a log axis.
	axMin := c.axisMin(xmin, xmax, pw)
	var data [][]float64
	var colors []asciigraph.AnsiColor
	var chars []asciigraph.CharSet
	if c.scatter {
		// The canvas draws every series over asciigraph's frame.
		data = [][]float64{nanColumn(pw)}
	}
	// Bounds first; runs last, in reverse order, so that the first run
	// (the paper's) is drawn on top.
	for _, kind := range drawOrder {
		if c.scatter {
			break
		}
		for j := range sc {
			i := j
			if kind == Run {
				i = len(sc) - 1 - j
			}
			x := &sc[i]
			if x.s.Kind != kind || x.off != 0 {
				continue
			}
			var col []float64
			if len(x.pts) > 0 {
				col = columns(x.pts, axMin, xmax, pw)
			} else if !math.IsNaN(x.logv) {
				col = make([]float64, pw)
				for j := range col {
					col[j] = x.logv
				}
			}
			// asciigraph puts v on row round(v·H/(hi−lo)) −
			// round(lo·H/(hi−lo)) but labels the rows evenly from lo:
			// rounded apart, a value could land a row off its label. From
			// lo, both round alike.
			for j := range col {
				col[j] -= lo
			}
			if col == nil || !anyFinite(col) {
				continue
			}
			data = append(data, col)
			colors = append(colors, ansi(st, x.s.Color))
			chars = append(chars, Glyphs(kind, x.glyph, st.Plain))
		}
	}
	if len(data) == 0 {
		return []string{st.Muted.Render("nothing to draw")}
	}
	opts := []asciigraph.Option{
		asciigraph.Width(pw), asciigraph.Height(height),
		asciigraph.LowerBound(0), asciigraph.UpperBound(hi - lo),
		asciigraph.Offset(plotOffset),
		asciigraph.YAxisValueFormatter(ya.label),
		asciigraph.SeriesChars(chars...),
	}
	if !st.Plain && len(colors) > 0 {
		opts = append(opts, asciigraph.SeriesColors(colors...))
	}
	// asciigraph rounds the row count; if it overshoots, plot one row less.
	var out []string
	for try := 0; try < 3; try++ {
		out = strings.Split(safePlot(data, opts), "\n")
		if len(out) <= h-2 {
			break
		}
		height = max(h-2-(try+1), 1)
		ya = c.yAxis(lo, hi, height)
		opts = append(opts, asciigraph.Height(height), asciigraph.YAxisValueFormatter(ya.label))
	}
	if len(out) > h-2 {
		out = out[len(out)-(h-2):]
	}
	// The plot starts after the y labels and the axis character.
	left := plotOffset + ya.width
	if len(out) > 0 {
		plain := []rune(style.StripANSI(out[0]))
		for i, r := range plain {
			if r == '┤' || r == '┼' {
				left = i + 1
				break
			}
		}
	}
	if c.scatter {
		cv := newCanvas(out, left, pw, lo, hi, axMin, xmax)
		cv.draw(sc, st)
		out = cv.lines(st)
	}
	out = append(out, c.xAxis(axMin, xmin, xmax, pw, left)...)
	for i := range out {
		out[i] = style.Fit(out[i], w)
	}
	return out
}

// axisMin is the x axis's left end: xmin, or with the start column of a
// log axis that draws X = 0, two columns' worth further left.
func (c *Chart) axisMin(xmin, xmax float64, pw int) float64 {
	if c.axes.LogX && c.axes.ZeroStart {
		return xmin - 2*(xmax-xmin)/float64(pw-3)
	}
	return xmin
}

func nanColumn(w int) []float64 {
	col := make([]float64, w)
	for i := range col {
		col[i] = math.NaN()
	}
	return col
}

// xAxis draws the x axis under a plot whose data columns start at column
// left: "└" and a rule with "┬" at round ticks, and their labels, written
// in one format (Axes.Labels). On a log axis the ticks are LogTicks
// (decades, or 1-2-5 steps when the range is short), never 0: the start
// column of a log axis that draws X = 0 reads "start".
func (c *Chart) xAxis(axMin, xmin, xmax float64, pw, left int) []string {
	col := func(v float64) int { return int(math.Round((v - axMin) / (xmax - axMin) * float64(pw-1))) }
	type tick struct {
		col   int
		label string
	}
	var ticks []tick
	most := max(pw/8, 2)
	if c.axes.LogX {
		if c.axes.ZeroStart {
			ticks = append(ticks, tick{0, "start"})
		}
		vs := LogTicks(xmin, xmax, most)
		for i, l := range labelsOf(vs, c.axes.Labels, c.num) {
			ticks = append(ticks, tick{col(math.Log10(vs[i])), l})
		}
	} else {
		step := niceStep((xmax - xmin) / float64(max(pw/12, 2)))
		var vs []float64
		for v := math.Ceil(xmin/step) * step; v <= xmax+step*1e-9; v += step {
			vs = append(vs, v)
		}
		for i, l := range labelsOf(vs, c.axes.Labels, c.num) {
			ticks = append(ticks, tick{col(vs[i]), l})
		}
	}
	axis := []rune(strings.Repeat(" ", left-1) + "└" + strings.Repeat("─", pw))
	labels := []rune(strings.Repeat(" ", left+pw+4))
	free := func(a, b int) bool {
		if a < 0 || b > len(labels) {
			return false
		}
		for i := max(a-1, 0); i < min(b+1, len(labels)); i++ {
			if labels[i] != ' ' {
				return false
			}
		}
		return true
	}
	for _, t := range ticks {
		if t.col < 0 || t.col >= pw {
			continue
		}
		axis[left+t.col] = '┬'
		rs := []rune(t.label)
		start := left + t.col - len(rs)/2
		if t.col == 0 {
			start = left
		}
		if free(start, start+len(rs)) {
			copy(labels[start:], rs)
		}
	}
	return []string{c.st.Muted.Render(string(axis)), c.st.Muted.Render(strings.TrimRight(string(labels), " "))}
}

// niceStep rounds a step up to 1, 2 or 5 times a power of ten.
func niceStep(x float64) float64 {
	if !(x > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// safePlot is asciigraph.PlotMany behind a recover: the inputs are
// guarded (finite values, explicit sizes, non-empty series), so a panic
// would be a bug in the guard, and it must still not reach the user.
func safePlot(data [][]float64, opts []asciigraph.Option) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("(the chart could not be drawn: %v)", r)
		}
	}()
	return asciigraph.PlotMany(data, opts...)
}

func anyFinite(xs []float64) bool {
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			return true
		}
	}
	return false
}

// columns downsamples points (X, log10 Y) to w columns over [xmin, xmax]:
// each column keeps the min and the max of its points and draws the one
// farther from the previous column's value, so a spike (or a dip) inside
// one column is drawn, not averaged away; columns between two drawn
// columns are filled by linear interpolation (the curve is continuous),
// columns outside the data are NaN (asciigraph leaves them blank).
func columns(pts []Point, xmin, xmax float64, w int) []float64 {
	out := make([]float64, w)
	lo := make([]float64, w)
	hi := make([]float64, w)
	for i := range out {
		out[i], lo[i], hi[i] = math.NaN(), math.Inf(1), math.Inf(-1)
	}
	if !(xmax > xmin) || w < 1 {
		return out
	}
	for _, p := range pts {
		if math.IsNaN(p.Y) || math.IsInf(p.Y, 0) || math.IsNaN(p.X) {
			continue
		}
		j := 0 // X = −Inf: the start column
		if !math.IsInf(p.X, -1) {
			j = int(math.Round((p.X - xmin) / (xmax - xmin) * float64(w-1)))
		}
		j = min(max(j, 0), w-1)
		lo[j], hi[j] = math.Min(lo[j], p.Y), math.Max(hi[j], p.Y)
	}
	prev := math.NaN()
	for j := range out {
		if math.IsInf(lo[j], 1) {
			continue
		}
		switch {
		case lo[j] == hi[j], math.IsNaN(prev): // one value, or the first column: its max
			out[j] = hi[j]
		case math.Abs(hi[j]-prev) >= math.Abs(lo[j]-prev):
			out[j] = hi[j]
		default:
			out[j] = lo[j]
		}
		prev = out[j]
	}
	// Interpolate the gaps between drawn columns.
	last := -1
	for j := range out {
		if math.IsNaN(out[j]) {
			continue
		}
		if last >= 0 && j-last > 1 {
			for g := last + 1; g < j; g++ {
				t := float64(g-last) / float64(j-last)
				out[g] = out[last] + t*(out[j]-out[last])
			}
		}
		last = j
	}
	return out
}
