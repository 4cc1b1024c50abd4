package theory

import (
	"slices"
	"strings"
)

// citeLabels are the paper's labels in two lists: those with a colon
// ("thm: …", "eq:iuj"), each with the colon's offset, and those without
// one ("eq27").
var citeLabels = func() (c struct {
	colon []string
	at    []int
	bare  []string
}) {
	for _, l := range PaperLabels() {
		if i := strings.IndexByte(l, ':'); i >= 0 {
			c.colon, c.at = append(c.colon, l), append(c.at, i)
		} else {
			c.bare = append(c.bare, l)
		}
	}
	return c
}()

// citeWordMax is the length in bytes of the longest of citeWords.
var citeWordMax = func() int {
	n := 0
	for _, w := range citeWords {
		n = max(n, len(w))
	}
	return n
}()

// labelStarts are the byte offsets in text, ascending and distinct, at
// which some label of the paper begins: the bare labels by substring
// search, the others by comparing them at each colon of the text.
func labelStarts(text string) []int {
	var at []int
	for _, l := range citeLabels.bare {
		for i := 0; ; {
			j := strings.Index(text[i:], l)
			if j < 0 {
				break
			}
			at = append(at, i+j)
			i += j + 1
		}
	}
	for i := 0; ; i++ {
		j := strings.IndexByte(text[i:], ':')
		if j < 0 {
			break
		}
		i += j
		for k, l := range citeLabels.colon {
			if c := citeLabels.at[k]; c <= i && strings.HasPrefix(text[i-c:], l) {
				at = append(at, i-c)
			}
		}
	}
	slices.Sort(at)
	return slices.Compact(at)
}

// isSpace is the class \s of Go's regular expressions: [\t\n\f\r ].
func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

// citeMatches is citePattern.FindAllStringSubmatchIndex(text, -1), the
// same matches with the same submatch offsets, in time proportional to
// the text plus the labels it holds, where the unanchored search costs
// the text's length times the pattern's (every label in one
// alternation: 100 ms for the help texts of dpso's command tree).
//
// The search tries each offset in ascending order, from where the last
// match ended, for a match beginning there (the leftmost-first match at
// that offset is the anchored pattern's, citeAt, on the rest of the
// text). Every match holds a label at some offset p and begins at p, at a
// '[' just before it, or at a word of citeWords followed by white space
// (\s+) and perhaps '[': at or after s0(p) = p − [1 for a '[' before p]
// − [the white space before that] − citeWordMax. So only the offsets in
// the intervals [s0(p), p] of the labels' offsets p need be tried.
func citeMatches(text string) [][]int {
	type interval struct{ lo, hi int }
	var ivs []interval
	for _, p := range labelStarts(text) {
		s := p
		if s > 0 && text[s-1] == '[' {
			s--
		}
		for s > 0 && isSpace(text[s-1]) {
			s--
		}
		ivs = append(ivs, interval{max(s-citeWordMax, 0), p})
	}
	slices.SortFunc(ivs, func(a, b interval) int { return a.lo - b.lo })
	var out [][]int
	next := 0 // every offset before next is tried or inside a match
	for _, iv := range ivs {
		for s := max(iv.lo, next); s <= iv.hi; {
			m := citeAt.FindStringSubmatchIndex(text[s:])
			if m == nil {
				s++
				next = s
				continue
			}
			for i := range m {
				if m[i] >= 0 {
					m[i] += s
				}
			}
			out = append(out, m)
			next = m[1]
			s = next
		}
	}
	return out
}
