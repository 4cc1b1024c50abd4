package common

import (
	"fmt"
	"math"
	"strings"
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
			if got := FmtNum(c.x); got != c.want {
				t.Errorf("fmtNum(%v) = %q, want %q", c.x, got, c.want)
			}
		})
	}
	for _, c := range []struct {
		n    int
		want string
	}{{1000, "10³"}, {20000, "2·10⁴"}, {1024, "1024"}, {999, "999"}} {
		t.Run(fmt.Sprint(c.n), func(t *testing.T) {
			if got := FmtN(c.n); got != c.want {
				t.Errorf("fmtN(%d) = %q, want %q", c.n, got, c.want)
			}
		})
	}
	if got := FmtInt(1234567); got != "1.23M" {
		t.Errorf("fmtInt(1234567) = %q", got)
	}
}

// TestTickLabelsOneFormat: an axis's ticks are written in one format —
// decimals when all are in [0.01, 1000), else m·10ᵉ for all of them (the
// form the form writes n in) — never "20000 50000 10⁵".
func TestTickLabelsOneFormat(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want string
	}{
		{[]float64{0.05, 0.1, 0.2, 0.5}, "0.05 0.1 0.2 0.5"},
		{[]float64{1000, 2000, 5000, 10000}, "10³ 2·10³ 5·10³ 10⁴"},
		{[]float64{20000, 50000, 1e5, 2e5}, "2·10⁴ 5·10⁴ 10⁵ 2·10⁵"},
		{[]float64{1e-4, 1e-3, 0.01, 0.1, 1}, "10⁻⁴ 10⁻³ 10⁻² 10⁻¹ 1"},
		{[]float64{1, 10, 100, 1000}, "1 10 10² 10³"},
	} {
		t.Run(fmt.Sprint(c.in), func(t *testing.T) {
			if got := strings.Join(TickLabels(c.in), " "); got != c.want {
				t.Errorf("tickLabels(%v) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}
