package report

import (
	"math"
	"testing"
)

// TestW0Verdict: a mean at or below w₀ gets no words; above it, more than
// 2 s.e. is "worse", within 2 s.e. "no better", one trial says it has no
// standard error.
func TestW0Verdict(t *testing.T) {
	for _, c := range []struct {
		name         string
		mean, se, w0 float64
		want         string
	}{
		{"below", 0.1, 0.01, 0.2, ""},
		{"equal", 0.2, 0.01, 0.2, ""},
		{"above by 3 s.e.", 0.23, 0.01, 0.2, "ABOVE F(w₀) − F* by more than 2 s.e.: worse than doing nothing"},
		{"above by 1 s.e.", 0.21, 0.01, 0.2, "above F(w₀) − F*, within 2 s.e.: no better than doing nothing"},
		{"one trial", 0.3, math.NaN(), 0.2, "above F(w₀) − F* (no standard error to say by how much it is beyond chance)"},
		{"no mean", math.NaN(), 0.01, 0.2, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := W0Verdict(c.mean, c.se, c.w0); got != c.want {
				t.Errorf("W0Verdict(%g, %g, %g) = %q, want %q", c.mean, c.se, c.w0, got, c.want)
			}
		})
	}
}
