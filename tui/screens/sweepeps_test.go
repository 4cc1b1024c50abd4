package screens

import (
	"dpso/internal/spec"
	"testing"
)

// TestSweepEpsGrid: the grid is two decades around the form's ε, moved
// inside ε's range [spec.MinEps, spec.MaxEps] at its ends.
func TestSweepEpsGrid(t *testing.T) {
	small := 0.02 // its grid's ends as float64 arithmetic gives them
	for _, c := range []struct {
		name          string
		eps, from, to float64
	}{
		{"the default ε", 1, 0.1, 10},
		{"a small ε", small, small / 10, small * 10},
		{"near the largest ε", spec.MaxEps / 2, spec.MaxEps / 100, spec.MaxEps},
		{"near the smallest ε", spec.MinEps * 2, spec.MinEps, spec.MinEps * 100},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := spec.Resolved{Spec: spec.Spec{Eps: c.eps}}
			sw, why := sweepEpsAxis.grid(res)
			if why != "" || sw.Param != spec.SweepEps || sw.From != c.from || sw.To != c.to || sw.Points != 5 {
				t.Errorf("ε = %g: grid %+v (%q), want %g … %g, 5 points", c.eps, sw, why, c.from, c.to)
			}
		})
	}
}
