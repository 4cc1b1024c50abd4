package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// invalidRun is one invalid command line and what its one-line message
// must contain.
type invalidRun struct {
	args []string
	want []string
}

func TestRunInvalidInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("a,y\n1,2\n3,x\n"), 0o644)
	ragged := filepath.Join(dir, "ragged.csv")
	os.WriteFile(ragged, []byte("1,2\n3,4,5\n"), 0o644)
	nan := filepath.Join(dir, "nan.csv")
	os.WriteFile(nan, []byte("1,2\n3,NaN\n"), 0o644)
	good := filepath.Join(dir, "good.csv")
	os.WriteFile(good, []byte("a,y\n1,2\n3,4\n5,6\n"), 0o644)
	r := func(a ...string) []string { return append([]string{"run"}, a...) }
	cases := []invalidRun{
		// A dp-sgd sampling rate whose expected batch qn is below one
		// sample: T = ⌈E/q⌉ was clamped to 2³¹ − 1 steps the work budget
		// never cut (the run hung); refused on the flag typed, at the
		// scenario's n or the file's rows, in a comparison too.
		{r("--scenario", "linreg-t", "--solver", "dp-sgd", "--sampling-rate", "1e-300", "--dry-run"), []string{"--sampling-rate:", "outside [10⁻⁸, 1]"}},
		{r("--scenario", "linreg-t", "--solver", "dp-sgd", "--sampling-rate", "5e-5", "--dry-run"), []string{"--sampling-rate:", "below one sample", "q ≥ 1/n = 10⁻⁴"}},
		{r("--scenario", "linreg-t", "--solver", "dp-sgd", "--sampling-rate", "1e-9", "--dry-run"), []string{"--sampling-rate:", "[10⁻⁸, 1]"}},
		{r("--scenario", "linreg-t", "--solver", "dp-sgd", "--sampling-rate", "1e-5", "--dry-run"), []string{"--sampling-rate:", "below one sample"}},
		{r("--data", good, "--rk", "1", "--beta", "1", "--solver", "dp-sgd", "--sampling-rate", "0.1", "--dry-run"), []string{"--sampling-rate:", "at n = 3"}},
		{r("--data", good, "--rk", "1", "--beta", "1", "--solvers", "acsa,dp-sgd", "--sampling-rate", "0.1", "--trials", "1"), []string{"--sampling-rate:", "below one sample"}},
		{[]string{"sweep", "--scenario", "linreg-t", "--solver", "dp-sgd", "--sampling-rate", "1e-3", "--vary", "n", "--from", "100", "--to", "1000", "--points", "2"}, []string{"sampling-rate:", "at n = 100"}},
		// k < 2 or not a number.
		{r("--k", "1.5"), []string{"--k:", "[2, ∞]"}},
		{r("--k", "abc"), []string{"--k:", "not a number", "[2, ∞]"}},
		{r("--k", "nan"), []string{"--k:", "[2, ∞]"}},
		// ε ≤ 0 or NaN.
		{r("--eps", "0"), []string{"--eps:", "[10⁻¹⁰⁰, ∞]"}},
		{r("--eps", "-1"), []string{"--eps:", "[10⁻¹⁰⁰, ∞]"}},
		{r("--eps", "NaN"), []string{"--eps:", "[10⁻¹⁰⁰, ∞]"}},
		// ε whose ρ = ε²/2 underflows, or overflows into "no privacy"
		// is refused on --eps, never blamed on the oracle.
		{r("--eps", "1e-308"), []string{"--eps:", "[10⁻¹⁰⁰, ∞]"}},
		{r("--eps", "1e-200", "--dry-run"), []string{"--eps:", "[10⁻¹⁰⁰, ∞]"}},
		{r("--eps", "1e200"), []string{"--eps:", "too large", "inf for no privacy"}},
		// A clip threshold or a constant that makes σ (or the step) leave
		// float64's range: refused on the flag typed, also by --dry-run.
		{r("--scenario", "linreg-t", "--clip", "1e308"), []string{"--clip:", "σ = ∞"}},
		{r("--scenario", "linreg-t", "--clip", "1e308", "--dry-run"), []string{"--clip:", "σ = ∞"}},
		{r("--scenario", "linreg-t", "--rk", "1e300"), []string{"--rk:", "step = ∞"}},
		{r("--scenario", "linreg-t", "--rk", "1e308", "--eps", "1e-10"), []string{"--rk:", "σ = ∞"}},
		// n < 1 (and n = 1: every solver needs two samples) or absurdly large.
		{r("--n", "0"), []string{"--n:", "[2, 10⁸]"}},
		{r("--n", "1"), []string{"--n:", "[2, 10⁸]"}},
		{r("--n", "-5"), []string{"--n:", "[2, 10⁸]"}},
		{r("--n", "1e12"), []string{"--n:", "[2, 10⁸]"}},
		{r("--n", "2.5"), []string{"--n:", "not an integer"}},
		{r("--scenario", "linreg-t", "--solver", "klz-gd", "--n", "30000000", "--d", "10"), []string{"--n:", "klz-gd makes several passes", "exceeds", "n ≤ 1.8181818·10⁷"}},
		// d < 1.
		{r("--scenario", "linreg-t", "--d", "0"), []string{"--d:", "[1, 10000]"}},
		{r("--scenario", "linreg-t", "--d", "-1"), []string{"--d:", "[1, 10000]"}},
		{r("--scenario", "example1", "--d", "3"), []string{"--d:", "cannot be changed"}},
		// Unknown scenario, class, solver, oracle; a class the scenario does not support.
		{r("--scenario", "nope"), []string{"--scenario:", "unknown scenario", "linreg-t"}},
		{r("--class", "convex"), []string{"--class:", "smooth-convex, smooth-sc, nonsmooth-convex, nonsmooth-sc, ppl"}},
		{r("--solver", "adam"), []string{"--solver:", "unknown solver", "acsa"}},
		{r("--oracle", "laplace"), []string{"--oracle:", "unknown oracle", "clip-gaussian"}},
		{r("--scenario", "hinge-t", "--class", "smooth-convex"), []string{"--class:", "does not support", "nonsmooth-convex, nonsmooth-sc"}},
		{r("--scenario", "linreg-t", "--class", "smooth-sc", "--solver", "acsa"), []string{"--solver:", "smooth-convex"}},
		// trials < 1.
		{r("--trials", "0"), []string{"--trials:", "[1, 10000]"}},
		{r("--trials", "-2"), []string{"--trials:", "[1, 10000]"}},
		// δ ∉ (0, 1) (and a shuffle oracle's δ ∉ (0, 1/2)).
		{r("--delta", "0"), []string{"--delta:", "[10⁻³⁰⁰, 1)"}},
		{r("--delta", "1"), []string{"--delta:", "[10⁻³⁰⁰, 1)"}},
		{r("--delta", "-0.1"), []string{"--delta:", "[10⁻³⁰⁰, 1)"}},
		{r("--oracle", "shuffle-clip", "--delta", "0.7"), []string{"--delta:", "(0, 1/2)"}},
		// A missing or malformed data file: the line and column.
		{r("--data", filepath.Join(dir, "missing.csv"), "--rk", "1", "--beta", "1"), []string{"--data:", "missing.csv", "no such file"}},
		// ... named before any constant the data would need.
		{r("--data", filepath.Join(dir, "missing.csv")), []string{"--data:", "missing.csv", "no such file"}},
		{r("--data", dir), []string{"--data:", "is a folder"}},
		{r("--data", bad, "--rk", "1", "--beta", "1"), []string{"--data:", "line 3, column 2"}},
		{r("--data", ragged, "--rk", "1", "--beta", "1"), []string{"--data:", "line 2"}},
		{r("--data", nan, "--rk", "1", "--beta", "1"), []string{"--data:", "line 2, column 2"}},
		{r("--data", bad), []string{"--rk:", "user data needs", "declared with --rk", "--constants private", "--estimate-constants"}},
		{r("--data", bad, "--scenario", "linreg-t"), []string{"--data:", "not both"}},
		// Scenario-dependent ranges come from the Spec.
		{r("--scenario", "linreg-t", "--tail", "1"), []string{"--tail:", "(2, 200]"}},
		{r("--scenario", "linreg-t", "--tail", "0"), []string{"--tail:", "(2, 200]"}},
		{r("--scenario", "contaminated", "--tail", "0"), []string{"--tail:", "cannot be given", "1e-9"}},
		{r("--scenario", "example1", "--tail", "3"), []string{"--tail:", "no tail parameter"}},
		{r("--scenario", "example1", "--tail", "0"), []string{"--tail:", "no tail parameter"}},
		{r("--scenario", "linreg-t", "--tail", "3"), []string{"--tail:", "ν > 4"}},
		{r("--scenario", "linreg-t", "--k", "4"), []string{"--k:", "exists only for k < 3"}},
		{r("--scenario", "linreg-t", "--noise", "-1"), []string{"--noise:", "[0, 100]"}},
		{r("--scenario", "example1", "--noise", "1"), []string{"--noise:", "no adjustable parameter"}},
		{r("--scenario", "linreg-t", "--tail", "x"), []string{"--tail:", "not a number"}},
		{r("--beta", "-1"), []string{"--beta:", "[0, 10¹²]"}},
		{r("--clip", "inf"), []string{"--clip:", "eps = ∞"}},
		{r("--seed", "-1"), []string{"--seed:", "[0, 2⁶⁴ − 1]"}},
		{r("--rand", "pseudo"), []string{"--rand:", "seeded or secure"}},
		// Output options.
		{r("--json", "--csv"), []string{"--json and --csv"}},
		{r("--csv", "--emit-w"), []string{"--emit-w:", "--json"}},
		{r("--plot", filepath.Join(dir, "fig.pdf")), []string{"--plot:", ".png or .svg"}},
		{r("--plot", filepath.Join(dir, "no", "such", "dir", "fig.png")), []string{"--plot:", "cannot write"}},
		{r("extra"), []string{"takes no arguments"}},
		{r("--bogus"), []string{`unknown flag "--bogus" (see --help for the flags)`}},
		// A flag of other commands names them.
		{[]string{"bounds", "--scenario", "linreg-t"}, []string{`unknown flag "--scenario" for dpso bounds`, "--scenario is a flag of dpso audit, explore, moments, run, sweep, tune"}},
		// A setting of dp-sgd or klz-gd for a run without that solver is
		// refused, naming the flag, not ignored; in a comparison that
		// includes the solver it applies to it (TestSolverSettingsInAComparison).
		{r("--solver", "acsa", "--batch", "64"), []string{"--batch:", "dp-sgd alone", "acsa"}},
		{r("--adaptive-clip"), []string{"--adaptive-clip:", "dp-sgd alone", "paper algorithm"}},
		{r("--accountant", "rdp", "--solver", "klz-gd"), []string{"--accountant:", "dp-sgd alone"}},
		{r("--solvers", "acsa,nonprivate-schedule", "--epochs", "2"), []string{"--epochs:", "the comparison runs acsa, nonprivate-schedule"}},
		{r("--solver", "dp-sgd", "--klz-tau", "1"), []string{"--klz-tau:", "klz-gd alone", "dp-sgd"}},
		{[]string{"sweep", "--vary", "clip", "--solvers", "acsa,nonprivate-schedule", "--klz-groups", "3"}, []string{"--klz-groups:", "klz-gd alone"}},
		// The refusal that is the paper's point.
		{r("--scenario", "linreg-t", "--solver", "lipschitz-dpsgd"), []string{"--solver lipschitz-dpsgd refuses:", "L_f is infinite", "no finite noise level"}},
	}
	checkInvalid(t, cases)
}

// checkInvalid runs each case: status 2, nothing on stdout, one line on
// stderr containing every wanted string.
func checkInvalid(t *testing.T, cases []invalidRun) {
	t.Helper()
	for _, c := range cases {
		t.Run(caseName(c.args), func(t *testing.T) {
			code, out, errs := dpsoCLI(c.args...)
			if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
				t.Errorf("%v: status %d, stdout %q, stderr %q: want 2, nothing, one line", c.args, code, out, errs)
				return
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("%v: stderr %q lacks %q", c.args, errs, w)
				}
			}
		})
	}
}

// TestSolverSettingsInAComparison: dp-sgd's settings are accepted in a
// comparison that includes dp-sgd and reach dp-sgd alone (its batch is the
// one given; acsa's parameters are those of a run without the flag).
func TestSolverSettingsInAComparison(t *testing.T) {
	args := []string{"run", "--scenario", "linreg-t", "--d", "3", "--n", "3000", "--trials", "1", "--json"}
	code, out, errs := dpsoCLI(append(args, "--solvers", "acsa,dp-sgd", "--batch", "64")...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	var doc struct {
		Runs []struct {
			Solver string `json:"solver"`
			Params struct {
				Batch int `json:"batch"`
			} `json:"params"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Runs) != 2 {
		t.Fatalf("%v: %s", err, out)
	}
	_, alone, _ := dpsoCLI(append(args, "--solver", "acsa")...)
	var acsa struct {
		Params struct {
			Batch int `json:"batch"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(alone), &acsa); err != nil {
		t.Fatal(err)
	}
	if doc.Runs[1].Solver != "dp-sgd" || doc.Runs[1].Params.Batch != 64 || doc.Runs[0].Params.Batch != acsa.Params.Batch {
		t.Errorf("batches: acsa %d (alone %d), %s %d; want acsa's own and dp-sgd's 64", doc.Runs[0].Params.Batch, acsa.Params.Batch, doc.Runs[1].Solver, doc.Runs[1].Params.Batch)
	}
}

// TestFlagOutOfRangeSaysOutside: a number outside a flag's range is
// called outside it (an integer, parsed exactly, written as a count:
// theory.FormatCount), and only what does not parse "not a number" (it said
// `--delta: "2" is not a number in [10⁻³⁰⁰, 1)` and `--trials: "10" is
// not an integer in [1000, 10⁸]`).
func TestFlagOutOfRangeSaysOutside(t *testing.T) {
	checkInvalid(t, []invalidRun{
		{[]string{"privacy", "--eps", "1", "--delta", "2"}, []string{`--delta: "2" is outside [10⁻³⁰⁰, 1)`}},
		{[]string{"privacy", "--eps", "1", "--delta", "1e-320"}, []string{`--delta: "1e-320" is outside [10⁻³⁰⁰, 1)`}},
		{[]string{"privacy", "--eps", "1", "--delta", "tiny"}, []string{`--delta: "tiny" is not a number in [10⁻³⁰⁰, 1)`}},
		{[]string{"audit", "--trials", "10"}, []string{`--trials: trials = 10 is outside [1000, 10⁸]`}},
		{[]string{"audit", "--trials", "many"}, []string{`--trials: "many" is not an integer in [1000, 10⁸]`}},
		{[]string{"sweep", "--vary", "n", "--from", "100", "--to", "1000", "--points", "1"}, []string{`--points: points = 1 is outside [2, 50]`}},
	})
}

// TestHelpAndCompletionRefuseUnknown: cobra's own help and completion
// commands refuse what they do not know like every dpso command, status
// 2 and one line ("dpso help nope" and "dpso completion nope" printed a
// help page with status 0; "dpso completion bash extra" exited 1), and
// still answer what they know.
func TestHelpAndCompletionRefuseUnknown(t *testing.T) {
	checkInvalid(t, []invalidRun{
		{[]string{"help", "nope"}, []string{"dpso help: no command", `"nope"`}},
		{[]string{"help", "run", "extra"}, []string{"dpso help: no command", `"run extra"`}},
		{[]string{"help", "\x1b]0;x\a"}, []string{`"\x1b]0;x\a"`}},
		{[]string{"completion", "nope"}, []string{"dpso completion: unknown shell", `"nope"`, "bash, fish, powershell, zsh"}},
		{[]string{"completion", "bash", "extra"}, []string{"takes no arguments", `"extra"`}},
		{[]string{"completion", "zsh", "extra"}, []string{"takes no arguments"}},
	})
	for _, ok := range [][]string{{"help"}, {"help", "run"}, {"help", "sweep", "merge"}, {"completion"}, {"completion", "bash"}, {"completion", "fish"}} {
		t.Run(caseName(ok), func(t *testing.T) {
			if code, out, errs := dpsoCLI(ok...); code != 0 || out == "" || errs != "" {
				t.Errorf("%v: status %d, %d bytes out, stderr %q: want 0 and output", ok, code, len(out), errs)
			}
		})
	}
}
