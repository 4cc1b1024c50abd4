package cli

import (
	"regexp"
	"strings"
	"testing"
)

// developerFormatting are the marks of a number or list written by fmt's
// %v or %g rather than by theory.NumberFormat:
// exponents in Go's notation (3.893e+05, 1e-05), Go slices ([55166 38896 …],
// [lf]), a float printed with all its 17 digits (p = 0.01788854381999832),
// and Go's names for the non-finite values.
var developerFormatting = []*regexp.Regexp{
	regexp.MustCompile(`\d[eE][+-]?\d`),
	regexp.MustCompile(`\[\d+(\.\d+)? \d`),
	regexp.MustCompile(`\(\[[a-z0-9, ]+\]\)|: \[[a-z]`),
	regexp.MustCompile(`\d\.\d{9,}|0\.0\d{9,}`),
	regexp.MustCompile(`[+-]Inf\b|\bNaN\b`),
}

// TestNoDeveloperFormatting runs the commands whose tables, notes and
// help carried fmt's formatting on main — the hard instance's p, a
// localized run whose work budget binds (its T_i list), user-given
// constants (their list), δ in the privacy table, ranges in the help —
// and checks that no output has any of its marks.
func TestNoDeveloperFormatting(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--scenario", "affine-hard", "--dry-run"},
		{"run", "--scenario", "hinge-t", "--n", "5000", "--dry-run"},
		{"run", "--scenario", "linreg-t", "--lf", "1e6", "--r2k", "1e5", "--dry-run"},
		{"run", "--scenario", "linreg-t", "--clip", "3", "--trials", "2", "--n", "2000"},
		{"run", "--scenario", "contaminated", "--dry-run"},
		{"run", "--scenario", "linreg-t", "--solver", "lipschitz-dpsgd", "--lf", "1e6", "--dry-run"},
		{"run", "--scenario", "linreg-t", "--solver", "klz-gd", "--dry-run"},
		{"privacy", "--eps", "1"},
		{"bounds", "--n", "10000", "--d", "100", "--eps", "1", "--k", "4", "--diam", "1", "--r2", "1", "--rk", "2", "--beta", "1"},
		{"moments", "--scenario", "example1"},
		{"list"},
		{"run", "--help"},
		{"sweep", "--help"},
		{"explore", "--help"},
		{"run", "--scenario", "linreg-t", "--diam", "2e6"},
		{"run", "--scenario", "hinge-t", "--tail", "2.5"},
		{"audit", "--help"},
		{"audit", "--oracle", "coordinate", "--trials", "2000"},
		{"audit", "--oracle", "shuffle-coordinate", "--trials", "1000"},
		{"audit", "--negative-control", "1.5", "--trials", "2000"},
		{"audit", "--solver", "acsa", "--n", "100", "--trials", "1000", "--negative-control", "1.5"},
		{"audit", "--one-run", "--canaries", "100"},
		{"audit", "--oracle", "nope"},
		// Computed values in refusals (they printed r̃_2k = 4.376823360119447
		// and D = 2.9906975624424406·10³⁰⁴).
		{"run", "--scenario", "example1", "--rk", "1e300", "--dry-run"},
		{"run", "--scenario", "mean-hard", "--r", "1e6", "--curvature", "1e-300", "--dry-run"},
	} {
		t.Run(caseName(args), func(t *testing.T) {
			_, out, errs := dpsoCLI(args...)
			text := out + errs
			for _, re := range developerFormatting {
				if m := re.FindString(text); m != "" {
					i := strings.Index(text, m)
					lo, hi := max(0, i-60), min(len(text), i+len(m)+20)
					t.Errorf("dpso %s: %q in …%s…", strings.Join(args, " "), m, text[lo:hi])
				}
			}
		})
	}
}
