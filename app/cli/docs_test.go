package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// maxREADMELines is the most lines README.md may have: what dpso is, one
// capture, the set-up, a tour and the paper's table; the rest is in docs/.
const maxREADMELines = 250

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestREADMEIsShort: the README stays at most maxREADMELines lines.
func TestREADMEIsShort(t *testing.T) {
	atRepoRoot(t)
	if n := strings.Count(readFile(t, "README.md"), "\n"); n > maxREADMELines {
		t.Errorf("README.md has %d lines, want at most %d: move the detail to a page of docs/", n, maxREADMELines)
	}
}

// markdownLink is a Markdown link's target: [text](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinks: every relative link of the README and of docs/ points at a
// file of the repository and, with #anchor, at a heading of that page (as
// GitHub names headings).
func TestDocLinks(t *testing.T) {
	atRepoRoot(t)
	pages := append(markdownFiles(t), "ARCHITECTURE.md")
	cli, err := filepath.Glob(filepath.Join("docs", "cli", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, cli...)
	checked := 0
	for _, page := range pages {
		text := readFile(t, page)
		for _, m := range markdownLink.FindAllStringSubmatch(withoutCode(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: the link %s points at no file", page, target)
				continue
			}
			checked++
			if anchor != "" && !slugs(readFile(t, path))[anchor] {
				t.Errorf("%s: the link %s names no heading of %s", page, target, path)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d links checked: the walk found too little", checked)
	}
}

// withoutCode is a Markdown text without its fenced code blocks.
func withoutCode(text string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// slugs are the anchors GitHub gives a page's headings: lower case,
// letters, digits, spaces as hyphens and hyphens kept, the rest dropped;
// a repeated slug gets -1, -2, ….
func slugs(text string) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(withoutCode(text), "\n") {
		h := strings.TrimLeft(l, "#")
		if h == l || !strings.HasPrefix(h, " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(h)) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || unicode.Is(unicode.Mn, r):
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		s := b.String()
		for i := 1; out[s]; i++ {
			s = fmt.Sprintf("%s-%d", b.String(), i)
		}
		out[s] = true
	}
	return out
}
