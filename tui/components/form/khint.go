package form

import (
	"math"
	"strings"

	"dpso/tui/common"
)

// kWhy is the k field's explanation: what a larger k assumes and buys,
// with the privacy term of the upper bound the theorem panel shows for
// the form's Spec and that term's local exponent in n at the form's k —
// theory's Term.RateN, d ln(term)/d ln n, as the prescription's bound
// carries it (−(k−1)/k for the convex classes' a^((k−1)/k),
// −(2k−2)/k up to its ln n for the squared rates): the exponent that
// moves with k, computed where the theorem panel's bound is, never
// written from a table. Until the Spec's prescription has come it names
// no exponent.
func (f *Model) kWhy() string {
	const (
		head = "Moment order of Assumption 1: a larger k assumes lighter tails and buys a faster-falling privacy term"
		tail = "; k = ∞ is the Lipschitz case (r̃_∞ = L_f)."
	)
	name, t, ok := f.upperTerm(" (privacy)")
	if !ok {
		return head + " (the theorem panel's bound says how fast, once computed)" + tail
	}
	w := head + ": the theorem's (the theorem panel) is " + name
	switch r := t.RateN; {
	case math.IsNaN(r) || math.IsInf(r, 0):
		w += ", at k = " + common.FmtNum(f.res.K) + " " + common.FmtNum(t.Value) + " (no exponent in n)"
	case r == 0 && strings.Contains(name, "min{1,"):
		w += ", flat in n at k = " + common.FmtNum(f.res.K) + " (its min is at 1 here)"
	case r == 0:
		w += ", flat in n at k = " + common.FmtNum(f.res.K)
	default:
		w += ", falling like n^" + common.FmtNum(r) + " at k = " + common.FmtNum(f.res.K) + " (its local exponent in n)"
	}
	return w + tail
}
