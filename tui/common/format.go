package common

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"dpso/theory"
	"dpso/tui/runs"
)

// Sup writes an integer exponent in superscript digits.
func Sup(e int) string { return theory.Superscript(e) }

// FmtNum prints a number for people: theory.Human, 3 significant digits,
// ∞ for +Inf, "—" for NaN (a value that does not exist), m·10ᵉ outside
// [10⁻³, 10⁵).
func FmtNum(x float64) string { return theory.Human.Format(x) }

// FmtInt prints a count compactly: 1234 → "1234", 12345 → "12.3k",
// 1234567 → "1.23M".
func FmtInt(n int64) string {
	a := math.Abs(float64(n))
	switch {
	case a < 1e4:
		return strconv.FormatInt(n, 10)
	case a < 1e6:
		return trimZero(strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64)) + "k"
	case a < 1e9:
		return trimZero(strconv.FormatFloat(float64(n)/1e6, 'f', 2, 64)) + "M"
	default:
		return trimZero(strconv.FormatFloat(float64(n)/1e9, 'f', 2, 64)) + "G"
	}
}

func trimZero(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// FmtN prints a sample size exactly with powers of ten spelt out when
// round: 10000 → "10⁴", 20000 → "2·10⁴", 1024 → "1024".
func FmtN(n int) string {
	if n < 1000 {
		return strconv.Itoa(n)
	}
	e := int(math.Floor(math.Log10(float64(n))))
	p := int(math.Pow(10, float64(e)))
	if n%p == 0 {
		if n/p == 1 {
			return "10" + Sup(e)
		}
		return strconv.Itoa(n/p) + "·10" + Sup(e)
	}
	return strconv.Itoa(n)
}

// FmtDur prints an elapsed time: "0.4 s", "12 s", "3 min 04 s".
func FmtDur(d time.Duration) string {
	s := d.Seconds()
	switch {
	case s < 10:
		return strconv.FormatFloat(s, 'f', 1, 64) + " s"
	case s < 60:
		return strconv.FormatFloat(s, 'f', 0, 64) + " s"
	default:
		m := int(s) / 60
		return fmt.Sprintf("%d min %02d s", m, int(s)-60*m)
	}
}

// TickLabels writes one axis's ticks — round values, 1 to 9 times a power
// of ten (chart.LogTicks) — in one format for the whole axis: decimals
// when every tick is in [0.01, 1000) ("0.05 0.1 0.2 0.5"), else m·10ᵉ
// ("10⁻⁴ 10⁻³ 10⁻²", "10³ 2·10³ 5·10³ 10⁴"; 1 and 10 for 10⁰ and 10¹), the
// form fmtN gives a sample size.
func TickLabels(vs []float64) []string {
	sci := false
	for _, v := range vs {
		if a := math.Abs(v); a != 0 && (a < 0.01*(1-1e-9) || a >= 1000*(1-1e-9)) {
			sci = true
		}
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		if !sci || v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			out[i] = FmtNum(v)
			continue
		}
		e := int(math.Floor(math.Log10(math.Abs(v)) + 1e-9))
		m := v / math.Pow(10, float64(e))
		switch {
		case math.Abs(m-1) < 1e-6 && e == 0:
			out[i] = "1"
		case math.Abs(m-1) < 1e-6 && e == 1:
			out[i] = "10"
		case math.Abs(m-1) < 1e-6:
			out[i] = "10" + Sup(e)
		default:
			out[i] = FmtNum(m) + "·10" + Sup(e)
		}
	}
	return out
}

func FmtK(k float64) string {
	if math.IsInf(k, 1) {
		return "∞"
	}
	return strconv.FormatFloat(k, 'g', -1, 64)
}

func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// TrialCount is "1 trial" or "n trials".
func TrialCount(n int) string { return fmt.Sprintf("%d trial%s", n, Plural(n)) }

// StaleNote is what a screen says over a run whose parameters the form no
// longer holds: its curves, legend, certificate and panels are the run's,
// not of the form's parameters (the theorem panel shows those).
func StaleNote(id int) string {
	return "⚠ parameters changed since run #" + strconv.Itoa(id) + ": its curves, legend and certificate are that run's (r runs the form's)"
}

// QueueCount says what a queued job's position counts (dpso serve's
// pool: the waiting jobs of every session, numbered in the order the freed
// slots go to them, one job of each session per turn), so that a panel's
// position and the status bar's run's read as one count.
const QueueCount = "positions count every session's waiting jobs in the order the freed slots go to them, one job of each session per turn; a queued run's position on the status bar is in the same count"

// PrescQueued is what a prescription waiting for a CPU slot says (dpso
// serve's queue; the words the status bar gives a queued run): "◌ queued
// (position k) for a CPU slot, waiting 3 s: " and what waits; "" when the
// prescription waits for none.
func PrescQueued(p runs.PrescriptionMsg, what string) string {
	if !p.Pending || p.Queue == nil || p.Queue.Position <= 0 {
		return ""
	}
	return fmt.Sprintf("◌ queued (position %d) for a CPU slot, waiting %s: %s", p.Queue.Position, FmtDur(p.Queue.Waited), what)
}
