package theory

import (
	"fmt"
	"math"
	"testing"
)

// TestNumberFormats: every preset of the one formatter on the values that
// distinguish them — significant digits, the infinities and NaN (a value
// that does not exist), exponents, and the explorer's m·10ᵉ form (its
// rounding into the next decade included: 9.996·10⁻⁷ is 10⁻⁶ at 3 digits).
func TestNumberFormats(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		name string
		f    NumberFormat
		x    float64
		want string
	}{
		{"Exact", Exact, 0.1, "0.1"},
		{"Exact", Exact, 1e12, "10¹²"},
		{"Exact", Exact, 0.01788854381999832, "0.01788854381999832"},
		{"Exact", Exact, 1.25e-7, "1.25·10⁻⁷"},
		{"Exact", Exact, 2e6, "2·10⁶"},
		{"Exact", Exact, -2.5, "−2.5"},
		{"Exact", Exact, inf, "∞"},
		{"Exact", Exact, -inf, "−∞"},
		{"Exact", Exact, nan, "NaN"},
		{"Arg", Arg, inf, "inf"},
		{"Arg", Arg, -inf, "-inf"},
		{"Arg", Arg, 1.0 / 3, "0.3333333333333333"},
		{"Arg", Arg, 1e6, "1e6"},
		{"Arg", Arg, 2.5e-5, "2.5e-5"},
		{"Arg", Arg, -1e21, "-1e21"},
		{"Plain", Plain, inf, "+Inf"},
		{"Plain", Plain, 2.5, "2.5"},
		{"CSV", CSV, nan, ""},
		{"CSV", CSV, inf, "inf"},
		{"CSV", CSV, 12345.678, "12345.678"},
		{"Sig6", Sig6, 626.8934, "626.893"},
		{"Sig6", Sig6, 1e-5, "10⁻⁵"},
		{"Sig6", Sig6, 1348.8567, "1348.86"},
		{"Sig6", Sig6, 3.8931e5, "3.8931·10⁵"},
		{"Sig6", Sig6, inf, "∞"},
		{"Sig6", Sig6, -inf, "−∞"},
		{"Sig6", Sig6, nan, "—"},
		{"Sig4", Sig4, 12345, "12345"},
		{"Sig4", Sig4, 389312, "3.893·10⁵"},
		{"Sig4", Sig4, 0.01788854381999832, "0.01789"},
		{"Sig4", Sig4, 6.2991, "6.299"},
		{"Rate", Rate, -0.4772, "−0.477"},
		{"Rate", Rate, nan, "—"},
		{"Rate", Rate, inf, "∞"},
		{"Human", Human, 0, "0"},
		{"Human", Human, 0.0622, "0.0622"},
		{"Human", Human, 1234.5, "1234"},
		{"Human", Human, 4.04e18, "4.04·10¹⁸"},
		{"Human", Human, 1e20, "10²⁰"},
		{"Human", Human, 9.996e-7, "10⁻⁶"},
		{"Human", Human, -0.5, "−0.5"},
		{"Human", Human, -inf, "−∞"},
		{"Human", Human, nan, "—"},
		// Subnormals keep their exponent (they printed as 0·10⁻³⁰⁸:
		// `dpso run --clip 1e-320 --dry-run` said "C = 0·10⁻³⁰⁸").
		{"Sig4", Sig4, 1e-320, "10⁻³²⁰"},
		{"Sig4", Sig4, -2.5e-315, "−2.5·10⁻³¹⁵"},
		{"Human", Human, 1.23456e-310, "1.23·10⁻³¹⁰"},
		{"Human", Human, 5e-324, "4.94·10⁻³²⁴"},
		{"Exact", Exact, 5e-324, "5·10⁻³²⁴"},
		{"Sig6", Sig6, 2.2250738585072014e-308, "2.22507·10⁻³⁰⁸"},
		{"Minus", NumberFormat{Digits: 3, Fixed: true, Minus: "−"}, -0.4772, "−0.477"},
		{"Minus", NumberFormat{Digits: 3, Fixed: true, Minus: "−"}, 0.5, "0.500"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.f.Format(c.x); got != c.want {
				t.Errorf("%s.Format(%v) = %q, want %q", c.name, c.x, got, c.want)
			}
		})
	}
	if FormatNumber(2.5) != Exact.Format(2.5) || Superscript(-12) != "⁻¹²" {
		t.Error("FormatNumber or Superscript disagree with their definitions")
	}
}

// TestParseNumberReadsWhatFormatWrites: every number Exact writes (the
// Pretty form with the shortest round-trip digits) parses back to itself,
// and the Pretty forms a person copies from a table (2·10⁵, 10⁻³, −0.5)
// parse to their values; what is not a number stays refused.
func TestParseNumberReadsWhatFormatWrites(t *testing.T) {
	for _, x := range []float64{0, 1, -1, 0.1, 1e-3, 9.99e-4, 1e5, 123456.789, 2e20, -3.5e-12, 1.0 / 3, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1)} {
		t.Run(fmt.Sprintf("%g", x), func(t *testing.T) {
			s := Exact.Format(x)
			y, err := ParseNumber(s)
			if err != nil || y != x {
				t.Errorf("ParseNumber(Exact.Format(%v) = %q) = %v, %v", x, s, y, err)
			}
		})
	}
	for s, want := range map[string]float64{"2·10⁵": 2e5, "10⁻³": 1e-3, "−0.5": -0.5, "−10²": -100, "3.5·10⁻¹²": 3.5e-12, "1e6": 1e6} {
		t.Run(s, func(t *testing.T) {
			if y, err := ParseNumber(s); err != nil || y != want {
				t.Errorf("ParseNumber(%q) = %v, %v; want %v", s, y, err, want)
			}
		})
	}
	for _, s := range []string{"10", "·10⁵", "2·10", "2·10x", "NaN", ""} {
		t.Run(fmt.Sprintf("%q", s), func(t *testing.T) {
			y, err := ParseNumber(s)
			if s == "10" {
				if err != nil || y != 10 {
					t.Errorf("ParseNumber(10) = %v, %v", y, err)
				}
				return
			}
			if err == nil {
				t.Errorf("ParseNumber(%q) = %v, want an error", s, y)
			}
		})
	}
}

// TestList: short lists in full, long ones summarised with their length
// (a note's T_i = [55166 38896 …] is the list cut, not its whole).
func TestList(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		max  int
		want string
	}{
		{nil, 5, "none"},
		{[]float64{1, 2.5}, 5, "1, 2.5"},
		{[]float64{55166, 38896, 27513, 19455, 13757, 9728, 6879, 4864, 3440, 2432, 3}, 4, "55166, 38896, 27513, …, 3 (11 values)"},
		{[]float64{1, 2, 3, 4}, 1, "1, 2, …, 4 (4 values)"},
	} {
		t.Run(fmt.Sprintf("%v max %d", c.xs, c.max), func(t *testing.T) {
			if got := Sig4.List(c.xs, c.max); got != c.want {
				t.Errorf("List(%v, %d) = %q, want %q", c.xs, c.max, got, c.want)
			}
		})
	}
}

// TestFormatCount: integers as Exact writes them (the digits below 10⁵,
// m·10ᵉ from 10⁵ on), exact beyond 2⁵³, and equal to Exact.Format where a
// float64 holds the value.
func TestFormatCount(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {7, "7"}, {4096, "4096"}, {10000, "10000"}, {99999, "99999"},
		{100000, "10⁵"}, {150000, "1.5·10⁵"}, {200000000, "2·10⁸"}, {-3000000, "−3·10⁶"}, {123456, "1.23456·10⁵"}, {100000000, "10⁸"},
		{99999999, "9.9999999·10⁷"}, {100000000000, "10¹¹"}, {-100000000, "−10⁸"}, {-42, "−42"},
		{1<<53 + 1, "9.007199254740993·10¹⁵"}, {math.MinInt64, "−9.223372036854775808·10¹⁸"},
	} {
		t.Run(fmt.Sprint(c.n), func(t *testing.T) {
			if got := FormatCount(c.n); got != c.want {
				t.Errorf("FormatCount(%d) = %s, want %s", c.n, got, c.want)
			}
			if a := math.Abs(float64(c.n)); a < 1<<53 {
				if e := Exact.Format(float64(c.n)); e != c.want {
					t.Errorf("Exact.Format(%d) = %s, FormatCount %s", c.n, e, c.want)
				}
				if x, err := ParseNumber(c.want); err != nil || x != float64(c.n) {
					t.Errorf("ParseNumber(%s) = %v, %v; want %d", c.want, x, err, c.n)
				}
			}
		})
	}
	if got := FormatCount(uint64(math.MaxUint64)); got != "1.8446744073709551615·10¹⁹" {
		t.Errorf("FormatCount(2⁶⁴ − 1) = %s", got)
	}
}
