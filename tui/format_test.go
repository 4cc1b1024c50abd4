package tui

import (
	"fmt"
	"math"
	"testing"
)

// TestFormat: numbers on screen.
func TestFormat(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0, "0"}, {math.Inf(1), "∞"}, {math.NaN(), "—"}, {0.0622, "0.0622"}, {1234.5, "1234"}, {99999, "99999"},
		{4.04e18, "4.04·10¹⁸"}, {1e20, "10²⁰"}, {2e20, "2·10²⁰"}, {3.28e-5, "3.28·10⁻⁵"}, {-0.5, "−0.5"}, {9.996e-7, "10⁻⁶"},
	} {
		t.Run(fmt.Sprintf("%g", c.x), func(t *testing.T) {
			if got := fmtNum(c.x); got != c.want {
				t.Errorf("fmtNum(%v) = %q, want %q", c.x, got, c.want)
			}
		})
	}
	for _, c := range []struct {
		n    int
		want string
	}{{1000, "10³"}, {20000, "2·10⁴"}, {1024, "1024"}, {999, "999"}} {
		t.Run(fmt.Sprint(c.n), func(t *testing.T) {
			if got := fmtN(c.n); got != c.want {
				t.Errorf("fmtN(%d) = %q, want %q", c.n, got, c.want)
			}
		})
	}
	if got := fmtInt(1234567); got != "1.23M" {
		t.Errorf("fmtInt(1234567) = %q", got)
	}
}
