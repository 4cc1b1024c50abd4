package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// rawFloat is a number as Go's %g or %v prints it (4.547473508864641e-13,
// 1e-05, 9.2e+14), never the project's format (theory.NumberFormat).
var rawFloat = regexp.MustCompile(`\d(\.\d+)?e[+-]\d|\d\.\d{9,}`)

// TestErrorsNameTheFlagTyped: each of these command lines is refused, at
// once (before any search or run), with status 2 and one line that names
// the flag the user typed — not another — with its numbers in the
// project's format.
func TestErrorsNameTheFlagTyped(t *testing.T) {
	rows := filepath.Join(t.TempDir(), "rows.csv")
	os.WriteFile(rows, []byte("a,b,c,y\n1,2,3,4\n2,3,4,5\n3,4,5,7\n"), 0o644)
	tune := func(a ...string) []string { return append([]string{"tune"}, a...) }
	run := func(a ...string) []string { return append([]string{"run"}, a...) }
	cases := []invalidRun{
		// --vary n's grid checked before the first n is searched, its end
		// in n's range before it becomes an integer.
		{tune("--vary", "n", "--from", "1000", "--to", "1e9", "--points", "3"), []string{"dpso: --to:", "10⁹ is outside [2, 10⁸]"}},
		{tune("--vary", "n", "--from", "1000", "--to", "1e308"), []string{"dpso: --to:", "10³⁰⁸ is outside"}},
		// A law of K too heavy for the budget blames the law, not --eps.
		{tune("--candidates-law", "1e20"), []string{"dpso: --candidates-law:", "η = 10²⁰", "ε' = 4.37718 at δ = 10⁻⁵"}},
		// ε' = 0: said as such, on --eps, without the accountant's floats.
		{tune("--eps", "1e-100"), []string{"dpso: --eps:", "ε = 10⁻¹⁰⁰ meets δ = 10⁻⁵ at ε' = 0 already"}},
		// A grid axis that empties the grid is the one blamed.
		{tune("--grid-iters", "1000000000"), []string{"dpso: --grid-iters:", "every T of the grid is at least the n = 9000 rows"}},
		{tune("--solver", "dp-sgd", "--grid-batch", "1000000"), []string{"dpso: --grid-batch:", "every batch of the grid is larger than the 9000 training rows"}},
		// A grid's integers read as every integer flag does ("1e9" is one),
		// and a count out of range is written in the project's format.
		{tune("--solver", "dp-sgd", "--grid-batch", "1e9"), []string{"dpso: --grid-batch:", "B = 10⁹; each batch must lie in [1, 10⁸]"}},
		{tune("--grid-iters", "1e12"), []string{"dpso: --grid-iters:", "T = 10¹²; each T must lie in [1, 10⁹]"}},
		{tune("--grid-iters", "2.5"), []string{"dpso: --grid-iters:", "\"2.5\" is not an integer"}},
		// A file too short for a search names the file, not --n.
		{tune("--data", rows, "--rk", "1", "--beta", "1", "--holdout", "0.2"), []string{"dpso: --data:", "n = 2 rows leave 1 to train on"}},
		// Private constants on a share below the private quantile's least
		// ρ: --constants.
		{run("--constants", "private:1e-300"), []string{"dpso: --constants:", "below the private quantile's least ρ"}},
		// r̃_k whose clip overflows: --rk, not the oracle.
		{run("--data", filepath.Join("..", "..", "examples", "linreg-t-d3.csv"), "--rk", "1e308", "--beta", "1"), []string{"dpso: --rk:", "overflows at r̃_k = 10³⁰⁸"}},
		// An ε past the shuffle protocol's range: --eps, not --oracle.
		{run("--oracle", "shuffle-clip", "--eps", "1e6"), []string{"dpso: --eps:", "ε = 10⁶ is above 15"}},
		// A port past 65535 is the user's error: status 2.
		{[]string{"serve", "--listen", "127.0.0.1:99999"}, []string{"dpso: --listen:", "the port \"99999\" is not a port number"}},
	}
	checkInvalid(t, cases)
	for _, c := range cases {
		_, _, errs := dpsoCLI(c.args...)
		if m := rawFloat.FindString(errs); m != "" {
			t.Errorf("%v: %q prints %s, not in the project's number format", c.args, errs, m)
		}
	}
}
