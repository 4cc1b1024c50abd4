package theory

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxEcho is the most characters of a user's value that a message repeats
// (see Quote).
const MaxEcho = 60

// Quote is the one way a message repeats a value the user typed or a file
// held (a flag's value, a name, a CSV cell, a path): in double quotes,
// with every control character, escape sequence (ESC, OSC, CSI), invisible
// format character and invalid UTF-8 byte escaped as Go escapes them
// (strconv.Quote: \x1b, \u202e, \xff), and cut to its first MaxEcho
// characters followed by "…" and the value's full length, so that no input
// can reach the terminal raw or make a message longer than a line.
func Quote(s string) string {
	if utf8.RuneCountInString(s) <= MaxEcho {
		return strconv.Quote(s)
	}
	i, n := 0, 0
	for i < len(s) && n < MaxEcho {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	q := strconv.Quote(s[:i])
	return strings.TrimSuffix(q, `"`) + fmt.Sprintf(`…" (%d bytes)`, len(s))
}

// Name is the one way an output (a table, a note, a figure's text, the
// explorer) names a value the user gave where it is not echoed in a
// message: a data file's path. It is s itself when every character of s
// is graphic (strconv.IsGraphic: no control character, escape sequence,
// invisible format character or invalid UTF-8 byte) and s has no double
// quote or backslash, so that "rows.csv" reads as typed; otherwise
// Quote(s), escaped and in quotes, so that nothing reaches a terminal,
// an SVG or a CSV cell raw.
func Name(s string) string {
	if s == "" {
		return `""`
	}
	for _, r := range s {
		if r == utf8.RuneError || r == '"' || r == '\\' || !strconv.IsGraphic(r) {
			return Quote(s)
		}
	}
	return s
}
