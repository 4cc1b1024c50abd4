package screens

import (
	"strings"
	"testing"

	"dpso/tui/style"
)

// TestPointTable: the points' table keeps its columns at their least
// widths, a space apart; a wider cell — a long value, "refused" in the
// column after a refused point's value — widens its column for every row
// (the rows stay aligned); a table wider than the panel wraps by columns,
// the key column repeated, and no number is cut.
func TestPointTable(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	rows := [][]string{
		{"★ ", "0.5", "51%", "0.004"},
		{"  ", "1.57·10⁻⁴", "99%", "0.2"},
		{"◀ ", "157", "refused"},
	}
	got := pointTable(&st, []string{"C", "clip", "excess"}, rows, []int{7, 6}, 80)
	want := []string{
		"  C         clip    excess",
		"★ 0.5       51%     0.004",
		"  1.57·10⁻⁴ 99%     0.2",
		"◀ 157       refused",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = pointTable(&st, []string{"C", "clip", "excess"}, rows, []int{7, 6}, 20)
	want = []string{
		"  C         clip",
		"★ 0.5       51%",
		"  1.57·10⁻⁴ 99%",
		"◀ 157       refused",
		"",
		"  C         excess",
		"★ 0.5       0.004",
		"  1.57·10⁻⁴ 0.2",
		"◀ 157",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("a table wider than 20 cells\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
