package theory

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestCiteMatchesIsThePattern: citeMatches finds what the unanchored
// search of citePattern finds, offset for offset, on texts built to meet
// its edge cases — labels bare, bracketed, glued to words, one inside
// another, after each cite word and runs of every white space of \s, at
// the text's ends — drawn from a fixed seed, and on the texts of
// TestCite.
func TestCiteMatchesIsThePattern(t *testing.T) {
	labels := PaperLabels()
	var words, partial []string
	for _, w := range citeWords {
		words = append(words, w, strings.ToLower(w), w[:len(w)-1], "x"+w)
	}
	for _, l := range labels {
		partial = append(partial, l[:len(l)-1], l[1:], l+"s", "x"+l)
	}
	// Each piece from one of these kinds, the kind drawn uniformly.
	kinds := [][]string{
		words, labels, partial,
		{" ", "  ", "\n", "\t", "\r", "\f", "\v", " \n  "},
		{"[", "]", "[[", "]]"},
		{"x", "_", "9", ":", "eq", "thm", "é", "(", ")", ", ", ". "},
	}
	texts := []string{"", "Theorem [thm: convex ACSA one pass] (complete version in [app: convex accel])",
		"Lemma\nlem: comparing assumptions (proof)", "xass:tilde and ass:tildes", "[lem:4.1", "eq. [eq:iuj]"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		var b strings.Builder
		for range 1 + r.IntN(16) {
			k := kinds[r.IntN(len(kinds))]
			b.WriteString(k[r.IntN(len(k))])
		}
		texts = append(texts, b.String())
	}
	matched := 0
	for _, text := range texts {
		want := citePattern.FindAllStringSubmatchIndex(text, -1)
		got := citeMatches(text)
		if len(want) == 0 && len(got) == 0 {
			continue
		}
		matched++
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("text %q: citeMatches %v, the pattern %v", text, got, want)
		}
	}
	if matched < len(texts)/2 {
		t.Errorf("only %d of %d texts hold a match: the test meets too few", matched, len(texts))
	}
}
