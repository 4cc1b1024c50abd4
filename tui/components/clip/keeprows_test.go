package clip

import (
	"strings"
	"testing"
)

// TestKeepRows: the batch line and the warning under it fit the rows
// left above the histogram's row: whole where they fit; else the
// warning whole and the batch line's last kept row ending in "…"; with
// no row for the batch line, the warning alone.
func TestKeepRows(t *testing.T) {
	who := []string{"batch of 26.7k · acsa ·", "trial 7 · at ε = 10 ·", "run #0"}
	warn := []string{"run #3's: parameters", "changed since (r runs them)"}
	for _, tc := range []struct {
		name      string
		who, warn []string
		rows      int
		want      []string
	}{
		{"fits", who, nil, 3, who},
		{"fits with the warning", who, warn, 5, append(append([]string(nil), who...), warn...)},
		{"the batch line's rest in its last row", who, nil, 2, []string{"batch of 26.7k · acsa ·", "trial 7 · at ε = 10 · run #0"}},
		{"batch line cut", []string{"alpha beta", "gamma delta", "epsilon zeta", "eta theta iota"}, nil, 2, []string{"alpha beta", "gamma delta epsilon zeta…"}},
		{"warning kept, batch line cut", who, warn, 3, []string{"batch of 26.7k · acsa…", warn[0], warn[1]}},
		{"warning alone", who, warn, 2, warn},
		{"warning cut", who, warn, 1, []string{"run #3's: parameters…"}},
		{"no row", who, warn, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := keepRows(append([]string(nil), tc.who...), tc.warn, tc.rows, 28)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") || len(got) > tc.rows {
				t.Errorf("keepRows in %d rows:\n%s\nwant\n%s", tc.rows, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
