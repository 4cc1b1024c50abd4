package screens

import (
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/internal/testutil/userrows"
)

// TestNSweepOnUserRows: an n sweep on the user's rows runs subsets of the
// form's n rows, n/16 to n; without an n (all rows) or below 256 rows it
// is refused with what to give, never with the grid's internal field
// ("from = 0 is not a positive finite number").
func TestNSweepOnUserRows(t *testing.T) {
	p := userrows.Write(t, "rows.csv", 300, func(i int) []float64 {
		x1, x2 := float64(i%7)-3, float64(i%5)-2
		return []float64{x1, x2, 0.5*x1 - x2}
	})
	for _, tc := range []struct {
		name     string
		n        int
		from, to float64
		why      string
	}{
		{"all rows", 0, 0, 0, "give n (at most the file's rows) in the form"},
		{"too few", 200, 0, 0, "n = 200 gives fewer than 16 rows at its first point"},
		{"subsets", 288, 18, 288, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := spec.Spec{Data: p, N: tc.n, Rk: 2, Beta: 1}.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			sw, why := sweepNAxis.grid(res)
			if tc.why != "" {
				if !strings.Contains(why, tc.why) || strings.Contains(why, "from =") {
					t.Errorf("why %q; want it to say %q", why, tc.why)
				}
				return
			}
			if why != "" || sw.From != tc.from || sw.To != tc.to || sw.Points != 5 {
				t.Errorf("grid %+v, why %q; want from %g to %g, 5 points", sw, why, tc.from, tc.to)
			}
		})
	}
}
