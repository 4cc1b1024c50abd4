package screens

import (
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	"dpso/tui/common"
	"dpso/tui/style"
)

// tuneBars draws each run's mean excess risk as a bar on one log axis,
// with the start line w₀ (doing nothing) as a column of ┊ and the axis's
// decades under the bars: each bar is a measured value, w₀ the closed-form
// (or measured) excess risk of w₀.
func tuneBars(st *style.Styles, rows []tuneRow, w0 float64, w int, narrow bool) []string {
	vals := make([]string, len(rows))
	labW, valW := 0, 0
	lo, hi := math.Inf(1), math.Inf(-1)
	span := func(v float64) {
		if v > 0 && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, math.Log10(v)), math.Max(hi, math.Log10(v))
		}
	}
	for i, r := range rows {
		labW = max(labW, len(r.label()))
		vals[i] = EstText(r.est)
		if r.why != "" {
			vals[i] = r.why
		} else {
			valW = max(valW, lipgloss.Width(vals[i]))
			span(r.est.Mean)
		}
	}
	span(w0)
	barW := w - labW - valW - 3
	if math.IsInf(lo, 0) || barW < 6 {
		// No room or nothing positive to draw: the values alone.
		var out []string
		for i, r := range rows {
			out = append(out, style.FitWords(style.Pad(st.FG(tuneColor(st, r.name), r.label()), labW+1)+" "+vals[i], w))
		}
		return out
	}
	lo, hi = math.Floor(lo), math.Ceil(hi)
	if hi <= lo {
		hi = lo + 1
	}
	col := func(v float64) int {
		c := int(math.Round((math.Log10(v) - lo) / (hi - lo) * float64(barW-1)))
		return min(max(c, 0), barW-1)
	}
	w0Col := -1
	if w0 > 0 && !math.IsInf(w0, 0) {
		w0Col = col(w0)
	}
	glyph, mark := "█", "┊"
	if st.Plain {
		glyph = "#"
	}
	var out []string
	for i, r := range rows {
		cells := make([]string, barW)
		n := -1
		if r.why == "" && r.est.Mean > 0 && !math.IsInf(r.est.Mean, 0) {
			n = barEnd(col(r.est.Mean), w0Col, barW, r.est.Mean, w0)
		}
		for c := range cells {
			switch {
			case c == w0Col: // over a bar too: a run past it did worse than w₀
				cells[c] = st.FG(st.Start, mark)
			case c <= n:
				cells[c] = st.FG(tuneColor(st, r.name), glyph)
			default:
				cells[c] = " "
			}
		}
		line := style.Pad(st.FG(tuneColor(st, r.name), r.label()), labW) + " " + strings.Join(cells, "") + "  " + vals[i]
		if r.pending && labW+1+barW+2+lipgloss.Width(vals[i]) > w {
			// Where its words would not fit beside the empty bar: the
			// words alone, whole.
			line = style.Pad(st.FG(tuneColor(st, r.name), r.label()), labW) + " " + vals[i]
		}
		out = append(out, style.FitWords(line, w))
	}
	// The axis: decades under their columns, w₀ named under its mark.
	axis := []rune(strings.Repeat(" ", barW+labW+1))
	put := func(c int, text string) bool {
		rs := []rune(text)
		if c+len(rs) > len(axis) {
			c = len(axis) - len(rs) // the last decade, right-aligned
		}
		if c < 0 {
			return false
		}
		for i := max(c-1, 0); i < min(c+len(rs)+1, len(axis)); i++ {
			if axis[i] != ' ' {
				return false
			}
		}
		copy(axis[c:], rs)
		return true
	}
	for _, t := range tickLabelsAt(lo, hi, barW) {
		put(labW+1+t.col, t.text)
	}
	out = append(out, style.Fit(st.Muted.Render(strings.TrimRight(string(axis), " ")), w))
	if w0Col >= 0 {
		out = append(out, w0Label(st, common.FmtNum(w0), labW+1+w0Col, w, narrow))
	}
	return out
}

// axisTick is an axis label at a column.
type axisTick struct {
	col  int
	text string
}

// tickLabelsAt are the decades of [10^lo, 10^hi] at their columns of a
// bar barW cells wide (every other decade when they would crowd).
func tickLabelsAt(lo, hi float64, barW int) []axisTick {
	step := 1.0
	for (hi-lo)/step*6 > float64(barW) && step < 10 {
		step++
	}
	var vs []float64
	for e := lo; e <= hi+1e-9; e += step {
		vs = append(vs, math.Pow(10, e))
	}
	labels := common.TickLabels(vs)
	out := make([]axisTick, len(vs))
	for i, v := range vs {
		c := int(math.Round((math.Log10(v) - lo) / (hi - lo) * float64(barW-1)))
		out[i] = axisTick{col: c, text: labels[i]}
	}
	return out
}

// w0Label is the axis's line under the bars that names w₀ under its
// mark at column col: "┊ w₀ 0.187: doing nothing" right of the mark, or
// left of it where the words would pass the line's end, or w₀ alone —
// never a word cut.
func w0Label(st *style.Styles, w0 string, col, w int, narrow bool) string {
	mark := st.FG(st.Start, "┊")
	whats := []string{"w₀ " + w0 + ": doing nothing", "w₀ " + w0}
	if narrow {
		whats = whats[1:]
	}
	for _, what := range whats {
		n := lipgloss.Width(what)
		if col+2+n <= w {
			return strings.Repeat(" ", col) + mark + st.Muted.Render(" "+what)
		}
		if col >= n+1 {
			return strings.Repeat(" ", col-n-1) + st.Muted.Render(what+" ") + mark
		}
	}
	return style.FitWords(strings.Repeat(" ", col)+mark+st.Muted.Render(" "+whats[len(whats)-1]), w)
}
