package screens

import (
	"testing"

	"dpso/tui/chart"
)

// TestStartNoteSaysWhereW0Changes: the sweep legend's w₀ value names the
// last point's alone only where w₀ is the same along the sweep (to 1%);
// where the instance changes with the swept parameter — preset 8's hard
// instance, whose w₀ is 1.789·10⁻³ at n = 625 and 1.118·10⁻⁴ at n = 10⁴
// (`dpso sweep --scenario mean-hard --trials 8 --vary n --from 625 --to
// 10000 --points 5`, column W₀) — it gives both ends and says why, so that
// the polyline is not read as one level at the last value.
func TestStartNoteSaysWhereW0Changes(t *testing.T) {
	pts := func(ys ...float64) []chart.Point {
		out := make([]chart.Point, len(ys))
		for i, y := range ys {
			out[i] = chart.Point{X: float64(i + 1), Y: y}
		}
		return out
	}
	for _, c := range []struct {
		name, symbol string
		pts          []chart.Point
		want         string
	}{
		{"the same at every point", "ε", pts(0.139, 0.139, 0.139), "0.139 at the last ε"},
		{"within 1% (Monte Carlo)", "k", pts(0.156, 0.1561, 0.1559), "0.156 at the last k"},
		{"preset 8's hard instance", "n", pts(1.789e-3, 8.944e-4, 4.472e-4, 2.236e-4, 1.118e-4), "0.00179 → 1.12·10⁻⁴"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := startNote(c.pts, c.symbol); got != c.want {
				t.Errorf("startNote = %q, want %q", got, c.want)
			}
		})
	}
}
