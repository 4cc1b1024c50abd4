package style

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Fit truncates s (which may hold ANSI styles) to width cells with "…".
func Fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if lipgloss.Width(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// CutMark is the mark that ends kept, text cut after it: "…", or " …"
// where kept ends in a digit — "7.83·10⁻⁵ …", never "7.83·10⁻⁵…", which
// reads as a number cut (a cut number is a wrong number).
func CutMark(kept string) string {
	if r, _ := utf8.DecodeLastRuneInString(kept); strings.ContainsRune("0123456789⁰¹²³⁴⁵⁶⁷⁸⁹", r) {
		return " …"
	}
	return "…"
}

// Shorten cuts plain text to at most width cells at a word boundary: the
// words that fit, then "…" (so "L_f is infinite here" at 12 cells is
// "L_f is…", never "L_f is infin…"). A first word longer than the width
// is cut inside it, as Fit does; text that fits is returned as it is.
// Styles are applied after shortening: s is plain text.
func Shorten(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if lipgloss.Width(s) <= width {
		return s
	}
	words := strings.Fields(s)
	out := ""
	for _, w := range words {
		next := w
		if out != "" {
			next = out + " " + w
		}
		if lipgloss.Width(next+CutMark(next)) > width { // the word, then its mark, must fit
			break
		}
		out = next
	}
	if out == "" {
		return ansi.Truncate(s, width, "…")
	}
	// A clause that ends on a separator reads better without it.
	out = strings.TrimRight(out, ",;:—–-·")
	return out + CutMark(out)
}

// FitWords is Fit that cuts at a word, for the panels' lines: s (which
// may hold ANSI styles) wider than width keeps the whole words that fit and
// ends in "…" — Shorten's rule, with s's own spacing and styles ("C = 1 ·
// 43.3% clipped" at 14 cells is "C = 1 · 43.3%…", never "… 43.3% clip…");
// a first word longer than the width is cut inside it, as Fit does.
func FitWords(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if lipgloss.Width(s) <= width {
		return s
	}
	plain := ansi.Strip(s)
	cut, w, word := -1, 0, false
	for i, r := range plain {
		if r == ' ' && word && w+lipgloss.Width(CutMark(plain[:i])) <= width {
			cut = i // the words up to this space fit, with their mark
		}
		word = word || r != ' '
		if w += ansi.StringWidth(string(r)); w >= width {
			break
		}
	}
	if cut < 0 {
		return Fit(s, width)
	}
	// A clause that ends on a separator reads better without it.
	kept := strings.TrimRight(plain[:cut], " ,;:—–-·")
	if kept == "" {
		return Fit(s, width)
	}
	mark := CutMark(kept)
	return ansi.Truncate(s, lipgloss.Width(kept+mark), mark)
}

// Pad fits s to exactly width cells.
func Pad(s string, width int) string {
	s = Fit(s, width)
	if w := lipgloss.Width(s); w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// Block fits text into a w×h block: each line fitted, missing lines blank,
// extra lines dropped.
func Block(text string, w, h int) string {
	if h <= 0 {
		return ""
	}
	lines := strings.Split(text, "\n")
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = Pad(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", w)
		}
	}
	return strings.Join(out, "\n")
}

// Wrap word-wraps plain text to width cells (a word longer than the width
// is cut across lines).
func Wrap(text string, width int) []string {
	if width <= 0 {
		return nil
	}
	var out []string
	for _, para := range strings.Split(text, "\n") {
		// lw is line's width: a word's width adds to it (a space ends
		// every grapheme cluster), so that no line is measured again.
		line, lw := "", 0
		for _, w := range strings.Fields(para) {
			ww := lipgloss.Width(w)
			switch {
			case line == "":
				line, lw = w, ww
			case lw+1+ww <= width:
				line, lw = line+" "+w, lw+1+ww
			default:
				out = append(out, line)
				line, lw = w, ww
			}
			for lw > width { // a single over-long word
				out = append(out, ansi.Truncate(line, width, ""))
				line = ansi.TruncateLeft(line, width, "")
				lw = lipgloss.Width(line)
			}
		}
		out = append(out, line)
	}
	return out
}

// WrapLines wraps plain text to width and renders every line in s.
func WrapLines(s lipgloss.Style, text string, width int) []string {
	var out []string
	for _, l := range Wrap(text, width) {
		out = append(out, s.Render(l))
	}
	return out
}

// WrapStyled word-wraps a line that may carry ANSI styles to width cells
// with lipgloss.Wrap: every line opens with the styles in force where it
// starts and closes them, so that a wrapped styled phrase keeps its
// colour on each of its lines. Words break at spaces and hyphens, a word
// longer than the width across lines. The line's leading spaces indent
// its continuation lines too (a hanging indent, where at least half the
// width is left for the words). A line that fits is returned as it is.
func WrapStyled(s string, width int) []string {
	if width <= 0 {
		return nil
	}
	if lipgloss.Width(s) <= width {
		return []string{s}
	}
	plain := ansi.Strip(s)
	indent := len(plain) - len(strings.TrimLeft(plain, " "))
	if 2*indent > width {
		indent = 0
	}
	body := ansi.TruncateLeft(s, indent, "")
	lines := strings.Split(lipgloss.Wrap(body, width-indent, ""), "\n")
	pad := strings.Repeat(" ", indent)
	for i, l := range lines {
		lines[i] = pad + trimRightStyled(l)
	}
	return lines
}

// trimRightStyled drops the spaces that end a line (a wrap leaves the
// space it broke at inside a styled run), keeping its escape sequences.
func trimRightStyled(l string) string {
	plain := ansi.Strip(l)
	trimmed := strings.TrimRight(plain, " ")
	if len(trimmed) == len(plain) {
		return l
	}
	return ansi.Truncate(l, ansi.StringWidth(trimmed), "")
}

// Rule is a panel's title line: "── Title ───────── right ──"; focused
// draws the title in the accent colour.
func Rule(st Styles, title, right string, width int, focused bool) string {
	ts := st.RuleTitle
	if focused {
		ts = st.RuleFocus
	}
	left := st.Rule.Render("── ") + ts.Render(title) + " "
	rw := 0
	if right != "" {
		right = " " + right + " "
		rw = lipgloss.Width(right)
	}
	fill := width - lipgloss.Width(left) - rw - 2
	if fill < 1 {
		return Fit(left+st.Rule.Render(strings.Repeat("─", max(width-lipgloss.Width(left), 0))), width)
	}
	s := left + st.Rule.Render(strings.Repeat("─", fill))
	if right != "" {
		s += st.Muted.Render(right)
	}
	return Fit(s+st.Rule.Render("──"), width)
}

// StripANSI removes escape sequences.
func StripANSI(s string) string { return ansi.Strip(s) }

// Rows stacks blocks, one under the other.
func Rows(blocks ...string) string { return strings.Join(blocks, "\n") }

// Cols puts blocks side by side, line by line (a block of one line
// repeats, e.g. a gap). Every component renders a block of exactly its
// size (Block), so joining needs no width measurement: the frame's cost
// is in the components, not in re-measuring them.
func Cols(blocks ...string) string {
	split := make([][]string, len(blocks))
	n := 0
	for i, b := range blocks {
		split[i] = strings.Split(b, "\n")
		n = max(n, len(split[i]))
	}
	var sb strings.Builder
	for r := 0; r < n; r++ {
		if r > 0 {
			sb.WriteByte('\n')
		}
		for _, ls := range split {
			switch {
			case r < len(ls):
				sb.WriteString(ls[r])
			case len(ls) == 1:
				sb.WriteString(ls[0])
			}
		}
	}
	return sb.String()
}
