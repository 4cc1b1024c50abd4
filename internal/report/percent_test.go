package report

import "testing"

// TestPercentPretty: a percentage is written as every other number a
// person reads (theory.Human): a tiny one with ·10⁻ⁿ, never Go's
// e-notation.
func TestPercentPretty(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0%"},
		{0.482, "48.2%"},
		{0.0009, "0.09%"},
		{6.25e-7, "6.25·10⁻⁵%"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if got := Percent(c.f); got != c.want {
				t.Errorf("Percent(%g) = %q, want %q", c.f, got, c.want)
			}
		})
	}
}
