package plot

import (
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// Every text of a figure is drawn by mathText, gonum's plain text handler
// with three additions for the figures' font (Liberation Serif), which
// lacks some of the symbols dpso's texts use:
//
//   - a character that the font does not have is written with one it has
//     (glyphFallback: ∇ as "grad ", ≪ as "<<", ✓ as "ok"), and a
//     superscript digit or minus as a raised exponent (10⁻⁵ as 10^−5);
//   - "^" raises what follows it, smaller: a {…} group (without its
//     braces), a (…) group, or a run of digits and minus signs, else one
//     character — tick labels (2·10^−5) and formulas (‖g‖^k);
//   - a combining tilde (r̃) is drawn as a tilde over its letter.
//
// A text from the user (a data file's name) is passed through userText
// first, so that its ^ is not read as an exponent.

// glyphFallback writes the characters Liberation Serif lacks.
var glyphFallback = strings.NewReplacer(
	"∇", "grad ", "∈", " in ", "≪", "<<", "ₖ", "_k", "⚠", "(!)", "✓", "ok", "✗", "x", "★", "*", "◀", "<",
	"⁰", "^0", "¹", "^1", "²", "^2", "³", "^3", "⁴", "^4", "⁵", "^5", "⁶", "^6", "⁷", "^7", "⁸", "^8", "⁹", "^9", "⁻", "^−",
)

// expRun joins runs of raised characters that glyphFallback split
// ("10^−^5" → "10^−5").
var expRun = strings.NewReplacer("^−^", "^−", "^0^", "^0", "^1^", "^1", "^2^", "^2", "^3^", "^3", "^4^", "^4",
	"^5^", "^5", "^6^", "^6", "^7^", "^7", "^8^", "^8", "^9^", "^9")

// userText protects a user's string (a file name) from being read as a
// formula: its ^ becomes the modifier circumflex ˆ.
func userText(s string) string { return strings.ReplaceAll(s, "^", "ˆ") }

// sanitize is s with the font's missing characters replaced.
func sanitize(s string) string {
	t := glyphFallback.Replace(s)
	for {
		u := expRun.Replace(t)
		if u == t {
			return t
		}
		t = u
	}
}

// segment is a piece of a text drawn in one go: plain, raised (an
// exponent), or one letter with a tilde over it.
type segment struct {
	text   string
	raised bool
	tilde  bool
}

// segments cuts a sanitized one-line text into its segments.
func segments(s string) []segment {
	var out []segment
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, segment{text: cur.String()})
			cur.Reset()
		}
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		// A letter followed by a combining tilde.
		if next, m := utf8.DecodeRuneInString(s[i+n:]); i+n < len(s) && next == '\u0303' {
			flush()
			out = append(out, segment{text: string(r), tilde: true})
			i += n + m
			continue
		}
		if r == '^' && i+1 < len(s) {
			if e, rest := exponent(s[i+1:]); e != "" {
				flush()
				out = append(out, segment{text: e, raised: true})
				i = len(s) - len(rest)
				continue
			}
		}
		cur.WriteRune(r)
		i += n
	}
	flush()
	return out
}

// exponent reads the exponent at the start of s (after its ^) and returns
// it with the rest of s: a {…} group without its braces, a (…) group with
// them, a run of digits, minus signs and points, or one character.
func exponent(s string) (exp, rest string) {
	switch s[0] {
	case '{', '(':
		open, close := s[0], byte('}')
		if open == '(' {
			close = ')'
		}
		depth := 0
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case open:
				depth++
			case close:
				depth--
				if depth == 0 {
					if open == '{' {
						return s[1:i], s[i+1:]
					}
					return s[:i+1], s[i+1:]
				}
			}
		}
		return "", s // unbalanced: not an exponent
	}
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !(r >= '0' && r <= '9' || r == '−' || r == '-' || r == '.') {
			break
		}
		i += n
	}
	if i == 0 {
		_, n := utf8.DecodeRuneInString(s)
		i = n
	}
	return s[:i], s[i:]
}

// mathText is the figures' text handler (see the comment above).
type mathText struct{ text.Plain }

// figureText is the handler every figure text uses.
var figureText = mathText{text.Plain{Fonts: font.DefaultCache}}

// The exponent's size and the height of its baseline above the text's,
// as fractions of the font's size.
const (
	expScale = 0.72
	expRaise = 0.42
)

// Box is the text's box: its segments side by side.
func (h mathText) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	s := sanitize(txt)
	_, height, depth = h.Plain.Box(s, fnt)
	small := fnt
	small.Size = fnt.Size * expScale
	for _, sg := range segments(s) {
		if sg.raised {
			w, hh, _ := h.Plain.Box(sg.text, small)
			width += w
			height = max(height, fnt.Size*expRaise+hh)
			continue
		}
		w, _, _ := h.Plain.Box(sg.text, fnt)
		width += w
	}
	return width, height, depth
}

// Draw draws the text's segments, aligned as the plain handler aligns a
// text of the same box; a rotated or multi-line text is drawn plain.
func (h mathText) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	s := sanitize(txt)
	if sty.Rotation != 0 || strings.Contains(strings.TrimRight(s, "\n"), "\n") {
		h.Plain.Draw(c, s, sty, pt)
		return
	}
	w, hh, dd := h.Box(txt, sty.Font)
	face := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	x := pt.X + vg.Length(sty.XAlign)*w
	y := pt.Y + (hh+dd)*vg.Length(sty.YAlign) - face.Extents().Ascent + sty.Font.Size
	small := sty.Font
	small.Size = sty.Font.Size * expScale
	sface := h.Fonts.Lookup(small, small.Size)
	c.SetColor(sty.Color)
	for _, sg := range segments(s) {
		switch {
		case sg.raised:
			c.FillString(sface, vg.Point{X: x, Y: y + sty.Font.Size*expRaise}, sg.text)
			x += sface.Width(sg.text)
		case sg.tilde:
			c.FillString(face, vg.Point{X: x, Y: y}, sg.text)
			bw, tw := face.Width(sg.text), face.Width("˜")
			c.FillString(face, vg.Point{X: x + (bw-tw)/2, Y: y}, "˜")
			x += bw
		default:
			c.FillString(face, vg.Point{X: x, Y: y}, sg.text)
			x += face.Width(sg.text)
		}
	}
}
