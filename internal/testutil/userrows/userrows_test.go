package userrows

import (
	"os"
	"testing"
)

// TestWrite: the header names d features and the label, and every value
// is the shortest decimal that reads back exactly (strconv's 'g', −1):
// integers without a point, 0.1 as "0.1", 1e100 in exponent form.
func TestWrite(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows [][]float64
		want string
	}{
		{"integers", [][]float64{{-3, 2, 10}, {0, -1, 1}}, "a1,a2,y\n-3,2,10\n0,-1,1\n"},
		{"decimals", [][]float64{{0.1, -0.5}, {1e100, 2.5e-7}}, "a1,y\n0.1,-0.5\n1e+100,2.5e-07\n"},
		{"one feature more", [][]float64{{1, 2, 3, 4}}, "a1,a2,a3,y\n1,2,3,4\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Write(t, "rows.csv", len(tc.rows), func(i int) []float64 { return tc.rows[i] })
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("file %q, want %q", b, tc.want)
			}
		})
	}
}
