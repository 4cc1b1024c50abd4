package style

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestTextBlocks: every helper keeps to its width in cells (wide and
// combining characters included), with ANSI styles not counted.
func TestTextBlocks(t *testing.T) {
	st := NewTheme(Dark, true, false)
	styled := st.Emph.Render("r̃_k = 10²⁰") + " ∞"
	for _, c := range []struct {
		name string
		got  string
		want int // width in cells
	}{
		{"Fit cuts with …", Fit("abcdef", 4), 4},
		{"Fit keeps a short line", Fit("ab", 4), 2},
		{"Fit counts styled text by its cells", Fit(styled, 8), 8},
		{"Pad pads", Pad("ab", 5), 5},
		{"Pad cuts", Pad(styled, 6), 6},
		{"Rule fills its width", Rule(st, "Title", "right", 40, false), 40},
		{"Rule with a title longer than the width", Rule(st, strings.Repeat("t", 50), "r", 20, true), 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			if w := lipgloss.Width(c.got); w != c.want {
				t.Errorf("%s: %q is %d cells, want %d", c.name, StripANSI(c.got), w, c.want)
			}
		})
	}
	if got := StripANSI(Fit("abcdef", 4)); got != "abc…" {
		t.Errorf("Fit(abcdef, 4) = %q", got)
	}
	b := Block("one\nthree lines\nare cut", 5, 2)
	if lines := strings.Split(b, "\n"); len(lines) != 2 || lipgloss.Width(lines[0]) != 5 || lipgloss.Width(lines[1]) != 5 {
		t.Errorf("Block(…, 5, 2) = %q", b)
	}
	if Block("x", 3, 0) != "" {
		t.Error("a block of height 0 is not empty")
	}
	for _, c := range []struct {
		text  string
		width int
		want  []string
	}{
		{"the quick brown fox", 9, []string{"the quick", "brown fox"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"a\nb c", 10, []string{"a", "b c"}},
	} {
		t.Run(fmt.Sprintf("%q width %d", c.text, c.width), func(t *testing.T) {
			if got := Wrap(c.text, c.width); strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("Wrap(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
			}
		})
	}
	if Wrap("x", 0) != nil {
		t.Error("Wrap to width 0")
	}
}

// TestPlainHasNoColour: under NO_COLOR the styles set no colour at all
// (bold and reverse are allowed), and FG leaves text as it is.
func TestPlainHasNoColour(t *testing.T) {
	st := NewTheme(Dark, true, true)
	for _, s := range []lipgloss.Style{st.Header, st.Error, st.Warn, st.Good, st.Muted, st.FocusValue, st.Selected, st.Key} {
		if _, ok := s.GetForeground().(lipgloss.NoColor); !ok && s.GetForeground() != nil {
			t.Errorf("a plain style has the foreground %v", s.GetForeground())
		}
		if _, ok := s.GetBackground().(lipgloss.NoColor); !ok && s.GetBackground() != nil {
			t.Errorf("a plain style has the background %v", s.GetBackground())
		}
	}
	if st.FG(st.Upper, "x") != "x" {
		t.Error("FG colours plain text")
	}
	if c := NewTheme(Dark, true, false); c.FG(c.Upper, "x") == "x" {
		t.Error("FG does not colour with colours on (the check above would be vacuous)")
	}
}

// TestShorten: a sentence is cut after its last whole word that fits with
// "…", never inside a word; a lone over-long word is cut as Fit cuts it.
func TestShorten(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		want  string
	}{
		// The status bar's case: never "L_f is infinit…".
		{"L_f is infinite here", 14, "L_f is…"},
		{"L_f is infinite here", 16, "L_f is infinite…"},
		{"L_f is infinite here", 20, "L_f is infinite here"},
		{"refused: solver: the worst-case bound", 20, "refused: solver…"},
		{"supercalifragilistic", 8, "superca…"},
		{"a b", 0, ""},
	} {
		t.Run(fmt.Sprintf("%q width %d", c.text, c.width), func(t *testing.T) {
			got := Shorten(c.text, c.width)
			if got != c.want {
				t.Errorf("Shorten(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
			}
			if c.width > 0 && lipgloss.Width(got) > c.width {
				t.Errorf("Shorten(%q, %d) = %q is %d cells", c.text, c.width, got, lipgloss.Width(got))
			}
		})
	}
}

// TestFitWords: a panel's line is cut after its last whole word that fits
// (the explorer's "43.3% clip…" and "localized noisy clipp…" were cut
// inside a word), keeps its spacing and its styles, and never exceeds
// the width.
func TestFitWords(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		want  string
	}{
		{"C = 1.2 · batch 256 · 43.3% clipped", 33, "C = 1.2 · batch 256 · 43.3%…"},
		{"localized noisy clipped gradient descent", 22, "localized noisy…"},
		{"  k    r̃_k    how", 12, "  k    r̃_k…"},
		{"refused: solver: the worst-case bound", 20, "refused: solver…"},
		{"supercalifragilistic", 8, "superca…"},
		{"   supercalifragilistic", 8, "   supe…"},
		{"fits", 4, "fits"},
		{"a b", 0, ""},
	} {
		t.Run(fmt.Sprintf("%q width %d", c.text, c.width), func(t *testing.T) {
			got := FitWords(c.text, c.width)
			if got != c.want {
				t.Errorf("FitWords(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
			}
			if c.width > 0 && lipgloss.Width(got) > c.width {
				t.Errorf("FitWords(%q, %d) = %q is %d cells", c.text, c.width, got, lipgloss.Width(got))
			}
		})
	}
	st := NewTheme(Dark, true, false)
	styled := "C = 1 · " + st.Emph.Render("43.3%") + " clipped"
	if got := FitWords(styled, 14); ansi.Strip(got) != "C = 1 · 43.3%…" || !strings.Contains(got, "\x1b[") {
		t.Errorf("styled: %q (plain %q), want the styles kept and the cut at the word", got, ansi.Strip(got))
	}
}

// TestWrapStyled: a styled line wrapped keeps its styles on every line
// (each line opens the style in force where it starts and closes it),
// its words and their order, and its indentation on the lines after the
// first; no line is wider than the width.
func TestWrapStyled(t *testing.T) {
	st := NewTheme(Dark, true, false)
	red := st.Error.Render("x")
	open := red[:strings.Index(red, "x")] // the style's opening sequence
	for _, c := range []struct {
		name  string
		text  string
		width int
		plain []string
		// styled: the plain lines that carry the style; the others none.
		styled []bool
	}{
		{"a styled phrase across lines",
			"seen " + st.Error.Render("vacuous at this n: above w₀") + " here", 14,
			[]string{"seen vacuous", "at this n:", "above w₀ here"}, []bool{true, true, true}},
		{"plain words after the styled ones",
			st.Error.Render("refused k") + " because nu is six", 10,
			[]string{"refused k", "because nu", "is six"}, []bool{true, false, false}},
		{"an indented line keeps its indent",
			"  " + st.Error.Render("budget-capped at T = 12 of 40"), 16,
			[]string{"  budget-capped", "  at T = 12 of", "  40"}, []bool{true, true, true}},
		{"fits: unchanged", st.Error.Render("short"), 10, []string{"short"}, []bool{true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := WrapStyled(c.text, c.width)
			var plain []string
			for _, l := range got {
				plain = append(plain, ansi.Strip(l))
				if lipgloss.Width(l) > c.width {
					t.Errorf("line %q is %d cells, over %d", ansi.Strip(l), lipgloss.Width(l), c.width)
				}
			}
			if strings.Join(plain, "|") != strings.Join(c.plain, "|") {
				t.Fatalf("WrapStyled(%q, %d) = %q, want %q", ansi.Strip(c.text), c.width, plain, c.plain)
			}
			for i, l := range got {
				if has := strings.Contains(l, open); has != c.styled[i] {
					t.Errorf("line %d %q: styled %v, want %v (%q)", i, plain[i], has, c.styled[i], l)
				}
				if j := strings.LastIndex(l, "\x1b["); c.styled[i] && !strings.HasPrefix(l[j:], "\x1b[m") && !strings.HasPrefix(l[j:], "\x1b[0m") {
					t.Errorf("line %d %q does not close its style: %q", i, plain[i], l)
				}
			}
		})
	}
	if WrapStyled("x", 0) != nil {
		t.Error("WrapStyled to width 0")
	}
}

// TestWrapLineWidthIsTheSumOfItsWords: Wrap adds each word's width to its
// line's instead of measuring the line again, which is the same when the
// widths add across a space: on text with wide and combining characters,
// styled words and words longer than the width, at every width from 2
// (the widest character's) to 40, Wrap's lines are those of the wrap
// that measures every line again.
func TestWrapLineWidthIsTheSumOfItsWords(t *testing.T) {
	st := NewTheme(Dark, true, false)
	text := "r̃_k = 10²⁰ 表示 ∞ the quick " + st.Emph.Render("brown") + " fox ε′ ≈ 1.13 " +
		strings.Repeat("x", 45) + " ́a 全角の文字列です end\nsecond  paragraph é"
	remeasured := func(text string, width int) []string {
		var out []string
		for _, para := range strings.Split(text, "\n") {
			line := ""
			for _, w := range strings.Fields(para) {
				switch {
				case line == "":
					line = w
				case lipgloss.Width(line)+1+lipgloss.Width(w) <= width:
					line += " " + w
				default:
					out = append(out, line)
					line = w
				}
				for lipgloss.Width(line) > width {
					out = append(out, ansi.Truncate(line, width, ""))
					line = ansi.TruncateLeft(line, width, "")
				}
			}
			out = append(out, line)
		}
		return out
	}
	for width := 2; width <= 40; width++ {
		got, want := Wrap(text, width), remeasured(text, width)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("width %d: Wrap %q, remeasured %q", width, got, want)
		}
	}
}

// TestCutAfterANumber: text cut right after a number ends in " …", so
// that the number does not read as cut ("7.83·10⁻⁵…" reads as a number
// with more digits); after a word the mark follows it at once.
func TestCutAfterANumber(t *testing.T) {
	for _, c := range []struct {
		name, text string
		width      int
		want       string
	}{
		{"a number with an exponent", "AC-SA ends at 7.83·10⁻⁵ and klz-gd higher", 26, "AC-SA ends at 7.83·10⁻⁵ …"},
		{"a decimal", "excess 0.0742 at C = 4", 16, "excess 0.0742 …"},
		{"a word", "excess risk at C = 4", 14, "excess risk…"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Shorten(c.text, c.width); got != c.want {
				t.Errorf("Shorten(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
			}
			if got := FitWords(c.text, c.width); got != c.want {
				t.Errorf("FitWords(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
			}
		})
	}
}
