package theory

import (
	"math"
	"strings"
	"testing"
)

// TestNoBoundWhy: at ε = ∞ the reason no bound applies is ε itself (every
// bound's privacy term √d/(εn) is of a private algorithm), never a
// missing constant; at a finite ε it is a constant not declared.
func TestNoBoundWhy(t *testing.T) {
	for _, c := range []struct {
		eps       float64
		want, not string
	}{
		{math.Inf(1), "ε = ∞", "not declared"},
		{1, "not declared", "ε = ∞"},
	} {
		t.Run(fmtNum(c.eps), func(t *testing.T) {
			got := NoBoundWhy(c.eps)
			if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
				t.Errorf("NoBoundWhy(%g) = %q", c.eps, got)
			}
		})
	}
}
