package theory

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestQuote: every echoed value is quoted, escaped and cut: no byte
// below 0x20 or DEL, no ESC, no bidi control reaches the
// output, and a long value becomes MaxEcho characters and its length.
func TestQuote(t *testing.T) {
	long := strings.Repeat("a", 10_000)
	cases := []struct{ in, want string }{
		{"linreg-t", `"linreg-t"`},
		{"", `""`},
		{"\x1b]0;pwned\x07", `"\x1b]0;pwned\a"`},
		{"\x1b[31mred", `"\x1b[31mred"`},
		{"a\nb\rc\td", `"a\nb\rc\td"`},
		{"\u202eevil", `"\u202eevil"`},
		{"\xff\xfe", `"\xff\xfe"`},
		{"ν = 5", `"ν = 5"`},
		{long, `"` + strings.Repeat("a", MaxEcho) + `…" (10000 bytes)`},
		{strings.Repeat("é", 100), `"` + strings.Repeat("é", MaxEcho) + `…" (200 bytes)`},
		{strings.Repeat("\x1b", 100), `"` + strings.Repeat(`\x1b`, MaxEcho) + `…" (100 bytes)`},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%.20q", c.in), func(t *testing.T) {
			got := Quote(c.in)
			if got != c.want {
				t.Errorf("Quote(%.20q…) = %s, want %s", c.in, got, c.want)
			}
			for _, r := range got {
				if r < 0x20 || r == 0x7f || r == 0x202e {
					t.Errorf("Quote(%.20q…) lets %U through", c.in, r)
				}
			}
			if !utf8.ValidString(got) {
				t.Errorf("Quote(%.20q…) is not valid UTF-8", c.in)
			}
		})
	}
}

// TestName: a printable name is shown as typed; anything a terminal, an
// SVG or a CSV reader would act on is quoted and escaped by Quote.
func TestName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"rows.csv", "rows.csv"},
		{"data/linreg t ν=5.csv", "data/linreg t ν=5.csv"},
		{"t\x1b]0;PWNED\ax.csv", `"t\x1b]0;PWNED\ax.csv"`},
		{"a\u202etxt.csv", `"a\u202etxt.csv"`},
		{"a\u009bb", `"a\u009bb"`},
		{"a\x9bb", `"a\x9bb"`},
		{"bad\xffutf8", `"bad\xffutf8"`},
		{`say "hi".csv`, `"say \"hi\".csv"`},
		{"line\nbreak", `"line\nbreak"`},
		{"", `""`},
	} {
		t.Run(c.in, func(t *testing.T) {
			if got := Name(c.in); got != c.want {
				t.Errorf("Name(%q) = %s, want %s", c.in, got, c.want)
			}
		})
	}
}
