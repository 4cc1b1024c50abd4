package report

import (
	"math"
	"strings"

	"dpso/internal/engine"
)

// TuneVerdict compares a tuning's means, in the words the explorer's
// tuning screen and the tuning figure both print: how many times the
// tuned (private) release's excess risk is below or above the prescribed
// run's and above the oracle-tuned reference's (named oracle: "oracle-
// tuned", "coarse oracle"), each ratio marked "(within 3 s.e.: no clear
// difference)" where the difference of the means is within 3 standard
// errors of independent means. A run without a positive finite mean (NaN
// where it did not run) is left out; "" without a tuned mean or any
// other. format writes the ratios.
func TuneVerdict(prescribed, tuned, oracle engine.Estimate, oracleName string, format func(float64) string) string {
	ok := func(e engine.Estimate) bool { return e.Mean > 0 && !math.IsInf(e.Mean, 0) }
	if !ok(tuned) {
		return ""
	}
	noise := func(a, b engine.Estimate) string {
		if math.Abs(a.Mean-b.Mean) > 3*math.Hypot(a.SE, b.SE) {
			return ""
		}
		return " (within 3 s.e.: no clear difference)"
	}
	var parts []string
	if ok(prescribed) {
		if f := prescribed.Mean / tuned.Mean; f >= 1 {
			parts = append(parts, format(f)+"× below prescribed"+noise(prescribed, tuned))
		} else {
			parts = append(parts, format(1/f)+"× above prescribed"+noise(prescribed, tuned))
		}
	}
	if ok(oracle) {
		parts = append(parts, format(tuned.Mean/oracle.Mean)+"× above "+oracleName+noise(tuned, oracle))
	}
	if len(parts) == 0 {
		return ""
	}
	return "tuned (private), ratios of the means: " + strings.Join(parts, ", ")
}

// NoReferencesOnRows says why a tuning on the user's rows without
// references shows the tuned release alone, in the words the tuning
// screen and the tuning figure both print.
const NoReferencesOnRows = "prescribed and oracle-tuned read your rows too: dpso tune --references adds them (the whole is then not private)"
