package chart

import (
	"fmt"
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	"dpso/tui/style"
)

// legend lists every series with its colour, value and state, wrapped to
// w: bounds with their value (∞ "not drawn", off-scale ones with an
// arrow), runs with their latest excess risk, refusals on two lines (one
// on a narrow chart) ending in FullMark where they need more, and the
// count of points that the log scale cannot show. maxLong is the lines a
// refusal may take (one on a narrow chart, or where the legend would
// leave the plot too few rows).
func (c *Chart) legend(sc []scaled, w, maxLong int) []string {
	st := c.st
	var items []string
	var long []string
	dropped, bad := 0, 0
	for _, kind := range legendOrder {
		for i := range sc {
			x := &sc[i]
			s := x.s
			if s.Kind != kind {
				continue
			}
			mark := st.FG(s.Color, Mark(kind, x.glyph, st.Plain))
			if c.scatter {
				mark = st.FG(s.Color, scatterMark(kind, x.glyph, st.Plain))
			}
			under := ""
			if x.under != "" {
				under = " (hidden by " + x.under + " at this height)"
			}
			switch {
			case s.Refused != "":
				long = append(long, st.FG(s.Color, "✗ "+s.Label+" refused: ")+s.Refused)
				continue
			case s.Err != "":
				long = append(long, st.FG(s.Color, "✗ "+s.Label+": ")+s.Err)
				continue
			}
			var item string
			if s.Note != "" {
				switch {
				case kind != Run && len(s.Points) > 0 && len(x.pts) == 0 && x.bad == 0:
					// A curve that is ≤ 0 everywhere (the start line when
					// the start is optimal): not drawn, the log scale
					// cannot show it.
					item = mark + " " + s.Label + " ≤ 0 (not drawn)"
				case kind != Run && len(s.Points) > 0 && len(x.pts) == 0:
					// A bound curve that is infinite everywhere (a moment
					// that does not exist): not drawn, like a line.
					item = mark + " " + s.Label + " ∞ (not drawn)"
				case x.off > 0:
					item = st.FG(s.Color, "↑") + " " + s.Label + " (off scale) " + s.Note
				case x.off < 0:
					item = st.FG(s.Color, "↓") + " " + s.Label + " (off scale) " + s.Note
				default:
					dropped += x.dropped
					bad += x.bad
					item = mark + " " + s.Label + " " + s.Note + under
				}
			} else if kind == Run {
				dropped += x.dropped
				bad += x.bad
				v := "…"
				if !math.IsNaN(x.last) {
					v = c.num(x.last)
				}
				item = mark + " " + s.Label + " " + st.Emph.Render(v) + under
				if s.Tag != "" {
					item += " " + st.Muted.Render(s.Tag)
				}
			} else {
				switch {
				case math.IsInf(s.Value, 1):
					item = mark + " " + s.Label + " ∞ (not drawn)"
				case !(s.Value > 0):
					item = mark + " " + s.Label + " " + c.num(s.Value) + " (not drawn)"
				case x.off > 0:
					item = st.FG(s.Color, "↑") + " " + s.Label + " " + c.num(s.Value) + " (off scale)"
				case x.off < 0:
					item = st.FG(s.Color, "↓") + " " + s.Label + " " + c.num(s.Value) + " (off scale)"
				default:
					item = mark + " " + s.Label + " " + c.num(s.Value)
				}
				// The tag qualifies the value (a certificate's "vacuous"),
				// then where the line is hidden.
				if s.Tag != "" {
					item += " " + st.Muted.Render(s.Tag)
				}
				if x.off == 0 && s.Value > 0 && !math.IsInf(s.Value, 1) {
					item += under
				}
			}
			items = append(items, item)
		}
	}
	// Items side by side while they fit; one wider than the chart wraps
	// (a legend entry is never cut: it names what is drawn).
	var lines []string
	line := ""
	flush := func() {
		if line != "" {
			lines = append(lines, style.WrapStyled(line, w)...)
		}
		line = ""
	}
	for _, it := range items {
		switch {
		case line == "":
			line = it
		case lipgloss.Width(line)+3+lipgloss.Width(it) <= w:
			line += "   " + it
		default:
			flush()
			line = it
		}
	}
	flush()
	for _, l := range long {
		wrapped := style.WrapStyled(l, w)
		if len(wrapped) > maxLong {
			// The rest of the reason joins the last line kept, cut at a
			// word with one "…" and the marker: the help gives every
			// refusal whole (RefusalFull).
			rest := strings.Join(wrapped[maxLong-1:], " ")
			wrapped = append(wrapped[:maxLong-1:maxLong-1], style.FitWords(rest, w-lipgloss.Width(FullMark))+st.Muted.Render(FullMark))
		}
		lines = append(lines, wrapped...)
	}
	var notes []string
	if dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d point%s ≤ 0", dropped, plural(dropped)))
	}
	if bad > 0 {
		notes = append(notes, fmt.Sprintf("%d not finite", bad))
	}
	if len(notes) > 0 {
		lines = append(lines, st.Muted.Render(strings.Join(notes, ", ")+" not drawn (log scale)"))
	}
	if c.note != "" && len(items) > 0 {
		for _, l := range style.Wrap(c.note, w) {
			lines = append(lines, st.Muted.Render(l))
		}
	}
	return lines
}

// FullMark ends a legend line cut for room: the help (?) gives the
// line whole.
const FullMark = " (? full)"

// longLines is the lines a refusal takes in a legend w wide: two, one on
// a narrow chart.
func longLines(w int) int {
	if w < 60 {
		return 1
	}
	return 2
}

// cutLegend keeps the legend's first keep lines, the last of them a
// line that says how many are not shown, so that no entry is cut
// mid-sentence (the help gives every refusal whole).
func cutLegend(st *style.Styles, legend []string, keep, w int) []string {
	if keep >= len(legend) {
		return legend
	}
	keep = max(keep, 1)
	hidden := len(legend) - keep + 1
	mark := fmt.Sprintf("… %d more legend line%s: a taller terminal shows them, ? the refusals", hidden, plural(hidden))
	if lipgloss.Width(mark) > w {
		mark = fmt.Sprintf("… %d more legend line%s", hidden, plural(hidden))
	}
	return append(legend[:keep-1:keep-1], st.Muted.Render(style.Fit(mark, w)))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
