package chart

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/guptarohit/asciigraph"

	"dpso/tui/style"
)

// fitHeight is the asciigraph Height whose plot takes at most rows lines:
// the plot is given its values minus the lower end (see plot), so that it
// draws exactly H + 1 lines for Height H.
func fitHeight(rows int) int {
	return max(rows-1, 1)
}

// overdrawn finds the horizontal bound lines that land on the same plot
// row — row = round((v − lo)·H/(hi−lo)) for H rows, as plot draws them —
// and records on each line drawn under a later one (bounds
// are drawn prior, lower, upper) the mark of the line over it. It reports
// whether that changed anything.
func overdrawn(sc []scaled, lo, hi float64, height int) bool {
	ratio := float64(max(height, 1)) / (hi - lo)
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
			r := int(math.Round((x.logv - lo) * ratio))
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

// yFormat formats the log10 ticks of [lo, hi] over rows rows with as many
// decimals as the row spacing needs (so that no two rows read the same).
func yFormat(lo, hi float64, rows int) func(float64) string {
	dec := 1
	if rows > 0 {
		step := (hi - lo) / float64(rows)
		dec = min(max(int(math.Ceil(-math.Log10(step))), 0), 3)
	}
	return func(v float64) string {
		s := strconv.FormatFloat(v, 'f', dec, 64)
		if strings.Trim(s, "-0.") == "" {
			s = strings.TrimPrefix(s, "-")
		}
		return s
	}
}

// plot draws the series with asciigraph in a w×h area (h ≥ 3: at least
// one plot row, the x axis and its labels).
func (c *Chart) plot(sc []scaled, lo, hi, xmin, xmax float64, w, h int) []string {
	st := c.st
	const offset = 2
	yf := yFormat(lo, hi, h-3)
	labW := max(len(yf(lo)), len(yf(hi)))
	// Keep room on the right for half of the last tick label.
	pw := w - (offset + labW) - 3
	if pw < 4 {
		return []string{st.Muted.Render("(too narrow)")}
	}
	// The x axis: [xmin, xmax], with a start column and a one-column
	// break on the left when X = 0 is drawn on a log axis.
	axMin := xmin
	if c.axes.LogX && c.axes.ZeroStart {
		axMin = xmin - 2*(xmax-xmin)/float64(pw-3)
	}
	var data [][]float64
	var colors []asciigraph.AnsiColor
	var chars []asciigraph.CharSet
	// Bounds first; runs last, in reverse order, so that the first run
	// (the paper's) is drawn on top.
	for _, kind := range drawOrder {
		for j := range sc {
			i := j
			if kind == Run {
				i = len(sc) - 1 - j
			}
			x := &sc[i]
			if x.s.Kind != kind {
				continue
			}
			var col []float64
			if x.off != 0 {
				continue
			}
			if len(x.pts) > 0 {
				col = columns(x.pts, axMin, xmax, pw)
			} else if !math.IsNaN(x.logv) && x.off == 0 {
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
		asciigraph.Width(pw), asciigraph.Height(fitHeight(h - 2)),
		asciigraph.LowerBound(0), asciigraph.UpperBound(hi - lo),
		asciigraph.Offset(offset),
		asciigraph.YAxisValueFormatter(func(v float64) string { return yf(v + lo) }),
		asciigraph.SeriesChars(chars...),
	}
	if !st.Plain {
		opts = append(opts, asciigraph.SeriesColors(colors...))
	}
	// asciigraph rounds the row count; if it overshoots, plot one row less.
	var out []string
	for try := 0; try < 3; try++ {
		out = strings.Split(safePlot(data, opts), "\n")
		if len(out) <= h-2 {
			break
		}
		opts = append(opts, asciigraph.Height(max(h-2-(try+1), 1)))
	}
	if len(out) > h-2 {
		out = out[len(out)-(h-2):]
	}
	// The plot starts after the y labels and the axis character.
	left := offset + labW
	if len(out) > 0 {
		plain := []rune(style.StripANSI(out[0]))
		for i, r := range plain {
			if r == '┤' || r == '┼' {
				left = i + 1
				break
			}
		}
	}
	out = append(out, c.xAxis(axMin, xmin, xmax, pw, left)...)
	for i := range out {
		out[i] = style.Fit(out[i], w)
	}
	return out
}

// xAxis draws the x axis under a plot whose data columns start at column
// left: "└" and a rule with "┬" at round ticks, and their labels. On a log
// axis the ticks are decades (with 2 and 5 times them when the range is
// short); the start column reads "0".
func (c *Chart) xAxis(axMin, xmin, xmax float64, pw, left int) []string {
	col := func(v float64) int { return int(math.Round((v - axMin) / (xmax - axMin) * float64(pw-1))) }
	type tick struct {
		col   int
		label string
	}
	var ticks []tick
	xfmt := c.axes.XFormat
	if xfmt == nil {
		xfmt = c.num
	}
	if c.axes.LogX {
		if c.axes.ZeroStart {
			ticks = append(ticks, tick{0, "0"})
		}
		for _, ms := range [][]float64{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
			var cand []tick
			for e := math.Floor(xmin) - 1; e <= math.Ceil(xmax); e++ {
				for _, m := range ms {
					v := math.Log10(m) + e
					if v >= xmin-1e-9 && v <= xmax+1e-9 {
						cand = append(cand, tick{col(v), xfmt(m * math.Pow(10, e))})
					}
				}
			}
			if len(cand) >= 3 || ms[len(ms)-1] == 9 {
				ticks = append(ticks, cand...)
				break
			}
		}
	} else {
		step := niceStep((xmax - xmin) / float64(max(pw/12, 2)))
		for v := math.Ceil(xmin/step) * step; v <= xmax+step*1e-9; v += step {
			ticks = append(ticks, tick{col(v), xfmt(v)})
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
