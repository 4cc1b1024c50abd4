package cli

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"dpso/internal/testutil/userrows"
)

// TestRunHeavyScaledData: the walk's CSV (50 rows, d = 2, every cell
// Student-t(3)·scale, fixed seed) with --constants private runs at ×10⁵⁰
// and is refused at ×10¹⁰⁰ and ×10¹⁵² with one sentence after --data
// naming the file, the line, the cell and the fix (status 2); never an
// internal error, a pointer address or a cache key.
func TestRunHeavyScaledData(t *testing.T) {
	for _, tc := range []struct {
		scale float64
		code  int
	}{{1e50, 0}, {1e100, 2}, {1e152, 2}} {
		t.Run(fmt.Sprint(tc.scale), func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 3))
			p := userrows.Write(t, "h.csv", 50, func(int) []float64 {
				row := make([]float64, 3)
				for j := range row {
					var chi float64
					for range 3 {
						z := r.NormFloat64()
						chi += z * z
					}
					row[j] = r.NormFloat64() / math.Sqrt(chi/3) * tc.scale
				}
				return row
			})
			code, out, errs := dpsoCLI("run", "--data", p, "--constants", "private")
			if code != tc.code {
				t.Fatalf("status %d, want %d; stderr %q", code, tc.code, errs)
			}
			if tc.code == 0 {
				if !strings.Contains(out, "excess risk") {
					t.Errorf("stdout %.300q has no excess risk", out)
				}
				return
			}
			prefix := "dpso: --data: " + strconv.Quote(p) + " line "
			if !strings.HasPrefix(errs, prefix) || !strings.Contains(errs, "leave float64's range") || !strings.Contains(errs, "rescale the data (e.g. standardize each column)") ||
				strings.Contains(errs, "internal error") || strings.Contains(errs, "0x") || strings.Count(errs, "\n") != 1 {
				t.Errorf("stderr %q; want one line %q… naming the range and the fix", errs, prefix)
			}
		})
	}
}
