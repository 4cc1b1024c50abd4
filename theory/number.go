package theory

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Interval is the allowed range of a real parameter: [Lo, Hi] with either
// end excluded when LoOpen or HiOpen is set; Lo = −Inf or Hi = +Inf for an
// unbounded side. It is the one range type behind every flag, form field
// and parameter check in dpso, so that what is accepted and what the
// message says can never disagree.
type Interval struct {
	Lo, Hi         float64
	LoOpen, HiOpen bool
}

// Contains reports whether x lies in the interval. NaN never does.
func (iv Interval) Contains(x float64) bool {
	if math.IsNaN(x) {
		return false
	}
	return !(x < iv.Lo || (iv.LoOpen && x == iv.Lo) || x > iv.Hi || (iv.HiOpen && x == iv.Hi))
}

// String is the interval in the usual notation, e.g. "(0, ∞)" or "[2, ∞]".
func (iv Interval) String() string {
	l, r := "[", "]"
	if iv.LoOpen {
		l = "("
	}
	if iv.HiOpen {
		r = ")"
	}
	return l + FormatNumber(iv.Lo) + ", " + FormatNumber(iv.Hi) + r
}

// FormatNumber prints x in the shortest form that parses back to it, with
// ∞ and -∞ for the infinities (and NaN as "NaN"): Exact.Format(x).
func FormatNumber(x float64) string { return Exact.Format(x) }

// NumberFormat is how dpso writes a number; every output (tables, JSON
// helpers, CSV, the reproduce line, the explorer) uses one of the presets
// below, so that a number looks the same wherever it appears. Digits is the
// number of significant digits (0: the shortest decimal that parses back to
// x); with Fixed, Digits are the digits after the point instead. Pretty
// writes what a person reads: Digits significant digits, the integer part
// in full in [10³, 10⁵), m·10ᵉ with a superscript exponent outside
// [10⁻³, 10⁵), and "−" (U+2212) as the minus sign. Minus, if set, replaces
// the ASCII "-" of a negative finite number (Pretty implies "−"). PosInf,
// NegInf and NaN are written for the non-finite values (NaN: a value that
// does not exist).
type NumberFormat struct {
	Digits              int
	Fixed, Pretty       bool
	Minus               string
	PosInf, NegInf, NaN string
	// ShortExp writes Go's exponent without "+" and leading zeros (1e6,
	// 2.5e-5 for 1e+06, 2.5e-05): what a person types.
	ShortExp bool
}

// The formats in use: the Pretty ones for what a person reads (tables,
// notes, messages, help, the explorer), the others for what a program
// reads back (flags, CSV, JSON helpers).
var (
	// Exact is the shortest round-trip form, written Pretty (messages,
	// ranges): 0.1, 10¹², 1.7888543819998317·10⁻²; ParseNumber reads it
	// back.
	Exact = NumberFormat{Pretty: true, PosInf: "∞", NegInf: "−∞", NaN: "NaN"}
	// Arg is the shortest round-trip form with inf and short exponents
	// (1e6), what the CLI's number flags parse back (the reproduce line).
	Arg = NumberFormat{PosInf: "inf", NegInf: "-inf", NaN: "NaN", ShortExp: true}
	// Plain is the shortest round-trip form with Go's own +Inf, -Inf, NaN.
	Plain = NumberFormat{PosInf: "+Inf", NegInf: "-Inf", NaN: "NaN"}
	// CSV is Arg with an empty cell where a value does not exist.
	CSV = NumberFormat{PosInf: "inf", NegInf: "-inf"}
	// Sig6 is 6 significant digits, Pretty (the CLI's tables).
	Sig6 = NumberFormat{Digits: 6, Pretty: true, PosInf: "∞", NegInf: "−∞", NaN: "—"}
	// Sig4 is 4 significant digits, Pretty (bound values, notes, progress).
	Sig4 = NumberFormat{Digits: 4, Pretty: true, PosInf: "∞", NegInf: "−∞", NaN: "—"}
	// Rate is an exponent with 3 decimals, "—" where it does not exist.
	Rate = NumberFormat{Digits: 3, Fixed: true, Minus: "−", PosInf: "∞", NegInf: "−∞", NaN: "—"}
	// Human is 3 significant digits in the Pretty form (the explorer).
	Human = NumberFormat{Digits: 3, Pretty: true, PosInf: "∞", NegInf: "−∞", NaN: "—"}
)

// Format writes x in format f.
func (f NumberFormat) Format(x float64) string {
	switch {
	case math.IsNaN(x):
		return f.NaN
	case math.IsInf(x, 1):
		return f.PosInf
	case math.IsInf(x, -1):
		return f.NegInf
	case f.Pretty:
		return f.pretty(x)
	}
	var s string
	switch {
	case f.Fixed:
		s = strconv.FormatFloat(x, 'f', f.Digits, 64)
	case f.Digits == 0:
		s = strconv.FormatFloat(x, 'g', -1, 64)
	default:
		s = strconv.FormatFloat(x, 'g', f.Digits, 64)
	}
	if f.ShortExp {
		if i := strings.IndexByte(s, 'e'); i >= 0 {
			exp, _ := strconv.Atoi(s[i+1:])
			s = s[:i+1] + strconv.Itoa(exp)
		}
	}
	if f.Minus != "" && strings.HasPrefix(s, "-") {
		s = f.Minus + s[1:]
	}
	return s
}

// Integer is the integer types FormatCount accepts.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// FormatCount writes an integer (a count, a size, a range's bound in a
// message) as Exact writes a number — the digits in full below 10⁵,
// m·10ᵉ from 10⁵ on (10⁸, 1.5·10⁵, 10¹¹), "−" for a minus — but from the
// integer's own digits, so that it is exact for every value, also beyond
// 2⁵³ where a float64 would round (2⁶⁴ − 1 is 1.8446744073709551615·10¹⁹).
// For every integer that a float64 holds exactly it equals
// Exact.Format(float64(n)); ParseNumber reads it back.
func FormatCount[T Integer](n T) string {
	var digits, sign string
	if n < 0 {
		digits, sign = strconv.FormatUint(-uint64(int64(n)), 10), "−"
	} else {
		digits = strconv.FormatUint(uint64(n), 10)
	}
	if len(digits) <= 5 {
		return sign + digits
	}
	e := len(digits) - 1
	m := digits[:1]
	if frac := strings.TrimRight(digits[1:], "0"); frac != "" {
		m += "." + frac
	}
	if m == "1" {
		return sign + "10" + Superscript(e)
	}
	return sign + m + "·10" + Superscript(e)
}

var superDigits = map[rune]rune{'0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹', '-': '⁻'}

// Superscript writes an integer exponent in superscript digits.
func Superscript(e int) string {
	var b strings.Builder
	for _, r := range strconv.Itoa(e) {
		b.WriteRune(superDigits[r])
	}
	return b.String()
}

// pretty is the Pretty form of a finite x (Digits 0: the shortest
// digits that parse back to x).
func (f NumberFormat) pretty(x float64) string {
	if x == 0 {
		return "0"
	}
	digits := f.Digits
	if digits <= 0 {
		digits = -1 // strconv's shortest round-trip digits
	}
	a := math.Abs(x)
	if a >= 1e-3 && a < 1e5 {
		s := strconv.FormatFloat(x, 'g', digits, 64)
		if strings.ContainsRune(s, 'e') { // 1.23e+03 at 3 digits: keep the integer part
			s = strconv.FormatFloat(x, 'f', 0, 64)
		}
		return strings.Replace(s, "-", "−", 1)
	}
	var ms string
	var e int
	if digits < 0 || a < 0x1p-1022 {
		// Go's form m e±x rewritten: the shortest digits (exact, so
		// ParseNumber reads back the same x), or Digits of them for a
		// subnormal x, whose exponent math.Log10 and math.Pow below lose
		// (10⁻³²⁰ came out as 0·10⁻³⁰⁸).
		prec := -1
		if digits > 0 {
			prec = digits - 1
		}
		s := strconv.FormatFloat(x, 'e', prec, 64)
		i := strings.IndexByte(s, 'e')
		e, _ = strconv.Atoi(s[i+1:])
		ms = s[:i]
		if digits > 0 && strings.Contains(ms, ".") {
			ms = strings.TrimRight(strings.TrimRight(ms, "0"), ".")
		}
	} else {
		e = int(math.Floor(math.Log10(a)))
		m := x / math.Pow(10, float64(e))
		if math.Abs(m) >= 10-5*math.Pow(10, float64(-digits)) { // rounding carried into the next decade
			m /= 10
			e++
		}
		ms = strconv.FormatFloat(m, 'f', digits-1, 64)
		ms = strings.TrimRight(strings.TrimRight(ms, "0"), ".")
	}
	ms = strings.Replace(ms, "-", "−", 1)
	if ms == "1" {
		return "10" + Superscript(e)
	}
	if ms == "−1" {
		return "−10" + Superscript(e)
	}
	return ms + "·10" + Superscript(e)
}

// prettyToGo rewrites the Pretty form's "−", "m·10ᵉ" and "10ᵉ" as Go
// float syntax ("-", "me", "1e"); other text is returned as it is.
func prettyToGo(t string) string {
	t = strings.ReplaceAll(t, "−", "-")
	i := strings.Index(t, "10")
	if i < 0 || i+2 == len(t) {
		return t
	}
	var exp strings.Builder
	for _, r := range t[i+2:] {
		d, ok := fromSuper[r]
		if !ok {
			return t
		}
		exp.WriteRune(d)
	}
	mant, ok := strings.CutSuffix(t[:i], "·")
	switch {
	case ok && mant != "" && mant != "-":
	case t[:i] == "" || t[:i] == "-":
		mant = t[:i] + "1"
	default:
		return t
	}
	return mant + "e" + exp.String()
}

var fromSuper = func() map[rune]rune {
	m := map[rune]rune{}
	for d, s := range superDigits {
		m[s] = d
	}
	return m
}()

// ParseNumber parses a number written by a person: Go float syntax, the
// Pretty form dpso writes (2·10⁵, 10⁻³, −0.5), or "inf", "+inf",
// "infinity", "∞" (any case, optionally signed) for ±Inf. NaN is
// rejected: no parameter of dpso takes it.
func ParseNumber(s string) (float64, error) {
	t := strings.ToLower(prettyToGo(strings.TrimSpace(s)))
	switch t {
	case "inf", "+inf", "infinity", "+infinity", "∞", "+∞":
		return math.Inf(1), nil
	case "-inf", "-infinity", "-∞":
		return math.Inf(-1), nil
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(x) {
		return 0, fmt.Errorf("%s is not a number", Quote(s))
	}
	return x, nil
}

// List writes xs in format f, separated by ", "; a list longer than
// limit (at least 3) is summarised by its first limit − 1 values, "…" and its
// last, with its length: "55166, 38896, 27513, …, 3 (11 values)". An
// empty list is "none".
func (f NumberFormat) List(xs []float64, limit int) string {
	if len(xs) == 0 {
		return "none"
	}
	limit = max(limit, 3)
	if len(xs) <= limit {
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = f.Format(x)
		}
		return strings.Join(parts, ", ")
	}
	parts := make([]string, 0, limit+1)
	for _, x := range xs[:limit-1] {
		parts = append(parts, f.Format(x))
	}
	parts = append(parts, "…", f.Format(xs[len(xs)-1]))
	return strings.Join(parts, ", ") + " (" + strconv.Itoa(len(xs)) + " values)"
}
