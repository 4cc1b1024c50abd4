package theory

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// citeRegexp is the regular expression whose leftmost-first matches
// citeMatches finds by scanning: an optional cite word and white space, an
// optional "[", a label (longest first) and an optional "]".
func citeRegexp() *regexp.Regexp {
	labels := paperLabels()
	sort.SliceStable(labels, func(i, j int) bool { return len(labels[i]) > len(labels[j]) })
	q := make([]string, len(labels))
	for i, l := range labels {
		q[i] = regexp.QuoteMeta(l)
	}
	w := make([]string, len(citeWords))
	for i, c := range citeWords {
		w[i] = regexp.QuoteMeta(c)
	}
	return regexp.MustCompile(`(?:(` + strings.Join(w, "|") + `)\s+)?(\[)?(` + strings.Join(q, "|") + `)(\])?`)
}

// TestCiteLabelsIndexable: the scanner indexes labels by their first two
// bytes and the two after them, and starts matches only at ASCII bytes.
func TestCiteLabelsIndexable(t *testing.T) {
	for _, l := range paperLabels() {
		if len(l) < 4 {
			t.Errorf("label %q is shorter than four bytes", l)
		}
	}
	for _, l := range append(paperLabels(), citeWords...) {
		if len(l) < 3 {
			t.Errorf("%q is shorter than three bytes", l)
		}
		for i := 0; i < len(l); i++ {
			if l[i] >= 0x80 {
				t.Errorf("%q is not ASCII", l)
				break
			}
		}
	}
}

// TestCiteMatchesAsTheRegexp: citeMatches finds exactly the matches, with
// the same groups, that the regular expression finds, on every Markdown
// file of the module (the docs quote dpso's outputs) and on 5000 random
// texts built of the labels, the cite words, their prefixes,
// brackets, white space and multi-byte runes.
func TestCiteMatchesAsTheRegexp(t *testing.T) {
	re := citeRegexp()
	check := func(t *testing.T, text string) {
		t.Helper()
		want := re.FindAllStringSubmatchIndex(text, -1)
		got := citeMatches(text)
		if len(got) != len(want) {
			t.Fatalf("%d matches, the regexp %d, in %q", len(got), len(want), text)
		}
		for i := range got {
			for j := range got[i] {
				if got[i][j] != want[i][j] {
					t.Fatalf("match %d is %v, the regexp's %v, in %q", i, got[i], want[i], text)
				}
			}
		}
	}
	t.Run("the module's files", func(t *testing.T) {
		files := 0
		err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != ".." {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".md") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			check(t, string(b))
			return nil
		})
		if err != nil || files < 10 {
			t.Fatalf("read %d files: %v", files, err)
		}
	})
	t.Run("random texts", func(t *testing.T) {
		var parts []string
		for _, l := range append(paperLabels(), citeWords...) {
			parts = append(parts, l, l[:len(l)/2], l[:len(l)-1])
		}
		parts = append(parts, "[", "]", " ", "  ", "\n", "\t", "x", "é", "r̃", "—", "e", "eq", "s", ":", "1")
		rng := rand.New(rand.NewPCG(1, 2))
		for range 5000 {
			var b strings.Builder
			for range 1 + rng.IntN(8) {
				b.WriteString(parts[rng.IntN(len(parts))])
			}
			check(t, b.String())
		}
	})
}
