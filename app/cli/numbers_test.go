package cli

import (
	"regexp"
	"strings"
	"testing"
)

// longDigits is an integer written out with 6 or more digits (not a
// mantissa's digits after its point): the one number formatter writes 10⁵
// and beyond as m·10ᵉ (theory.FormatCount). quoted is the user's own text
// that a message repeats (theory.Quote), which keeps its digits.
var (
	longDigits = regexp.MustCompile(`(^|[^0-9.])[0-9]{6,}`)
	quoted     = regexp.MustCompile(`"[^"]*"`)
)

// TestRangeMessagesWriteCounts: range and limit messages (the field
// table's, the commands' own int flags', the size and memory caps')
// write their integers as every other number of the tool (10¹¹, 10⁸,
// 2·10⁸), never as long digit strings.
func TestRangeMessagesWriteCounts(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--n", "100000000000"}, "--n: n = 10¹¹ is outside [2, 10⁸]"},
		{[]string{"run", "--iters", "10000000000000"}, "--iters: T = 10¹³ is outside [0, 10⁹] (0 = prescribed)"},
		{[]string{"run", "--trials", "100000000"}, "--trials: trials = 10⁸ is outside [1, 10000]"},
		{[]string{"run", "--solver", "dp-sgd", "--batch", "100000000000"}, "--batch: B = 10¹¹ is outside [0, 10⁸]"},
		{[]string{"run", "--solver", "klz-gd", "--klz-groups", "1000000000"}, "--klz-groups: m = 10⁹ is outside [0, 10⁸]"},
		{[]string{"run", "--seed", "100000000000000000000000"}, "is not an integer in [0, 2⁶⁴ − 1]"},
		{[]string{"run", "--scenario", "linreg-t", "--n", "100000000", "--d", "100", "--solver", "dp-sgd"},
			"n·(d+1) = 1.01·10¹⁰ floats (80.8 GB) exceeds the 2·10⁸ (1.6 GB) a materialized dataset may take; lower n (at d = 100, n ≤ 1.980198·10⁶), or run acsa, which streams its samples in O(d) memory at any n ≤ 10⁸"},
		{[]string{"run", "--scenario", "linreg-t", "--n", "1000000", "--d", "10000", "--trials", "10000", "--checkpoints", "10000", "--solvers", "acsa,nonprivate-schedule"},
			"--trials: 10000 trials × 2 solver run(s) each keep w (d = 10000 numbers) and a trace of up to 10000 checkpoints: 1.612 GB of results"},
		{[]string{"audit", "--trials", "200"}, "--trials: trials = 200 is outside [1000, 10⁸]"},
		{[]string{"audit", "--trials", "1000000000"}, "--trials: trials = 10⁹ is outside [1000, 10⁸]"},
		{[]string{"audit", "--solver", "acsa", "--n", "100000000000"}, "--n: n = 10¹¹ is outside [2, 10⁸]"},
		{[]string{"privacy", "--accountant", "pld", "--steps", "100000000000", "--sampling-rate", "0.1", "--noise-multiplier", "1"}, "--steps: steps = 10¹¹ is outside [1, 10⁸]"},
		{[]string{"sweep", "--vary", "eps", "--from", "0.5", "--to", "1", "--points", "100000"}, "--points: points = 10⁵ is outside [2, 50]"},
		{[]string{"bounds", "--n", "100000000000000000"}, "--n: n = 10¹⁷ is outside [1, "},
	} {
		t.Run(caseName(c.args), func(t *testing.T) {
			code, _, errs := dpsoCLI(c.args...)
			if code != 2 || !strings.Contains(errs, c.want) {
				t.Errorf("%s: status %d, stderr %q; want status 2 and %q", strings.Join(c.args, " "), code, errs, c.want)
			}
			if m := longDigits.FindString(quoted.ReplaceAllString(errs, `""`)); m != "" {
				t.Errorf("%s: %q writes %s in full: %s", strings.Join(c.args, " "), errs, m, errs)
			}
		})
	}
}
