package theory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readRepoFile reads a file of the repository by its path from the root.
func readRepoFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestREADMEFigure1: the README's table of what the paper proves is
// Figure1's, word for word (its rows are re-derived from the theorems,
// and TestFigure1RatesMatchTheorems holds each cell to its bound).
func TestREADMEFigure1(t *testing.T) {
	if want := Figure1().Markdown(); !strings.Contains(readRepoFile(t, "README.md"), want) {
		t.Errorf("README.md lacks Figure1().Markdown():\n%s", want)
	}
}

// TestTheoryNotesNameEveryBound: the theory notes say what each bound and
// each certificate dpso evaluates is: every id of IDs and of the
// certificates has its row.
func TestTheoryNotesNameEveryBound(t *testing.T) {
	notes := readRepoFile(t, filepath.Join("docs", "theory.md"))
	for _, id := range append(IDs(), certificateIDs()...) {
		if !strings.Contains(notes, "`"+id+"`") {
			t.Errorf("docs/theory.md does not say what %s is", id)
		}
	}
}
