package userrows

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Write writes the file name in a fresh temporary folder of t and
// returns its path: the header "a1,…,a_d,y", where d + 1 is the length
// of row(0), then n lines, line i the values row(i) (called in order
// i = 0, …, n−1, so that a row may draw from a shared random source),
// each written by strconv.FormatFloat(x, 'g', -1, 64), the shortest
// decimal that parses back to x. A row of another length, or a file
// that cannot be written, fails t.
func Write(t testing.TB, name string, n int, row func(i int) []float64) string {
	t.Helper()
	var b strings.Builder
	cols := -1
	for i := range n {
		r := row(i)
		if cols < 0 {
			cols = len(r)
			if cols < 2 {
				t.Fatalf("userrows: row 0 has %d values, want features and a label", cols)
			}
			for j := 1; j < cols; j++ {
				b.WriteString("a" + strconv.Itoa(j) + ",")
			}
			b.WriteString("y\n")
		}
		if len(r) != cols {
			t.Fatalf("userrows: row %d has %d values, row 0 has %d", i, len(r), cols)
		}
		for j, x := range r {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
