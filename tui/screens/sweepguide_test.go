package screens

import (
	"math"
	"testing"
)

// TestAnchor: the guide's factor is the geometric mean of the ratios, over
// the points where both values are positive and finite.
func TestAnchor(t *testing.T) {
	if got := anchor([]float64{2, 8, math.NaN()}, []float64{1, 2, 5}); math.Abs(got-math.Sqrt(8)) > 1e-12 {
		t.Errorf("anchor = %g, want √8", got)
	}
	if !math.IsNaN(anchor([]float64{0, math.Inf(1)}, []float64{1, 1})) {
		t.Error("anchor without a usable point is not NaN")
	}
}
