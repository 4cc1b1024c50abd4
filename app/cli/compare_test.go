package cli

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpso/internal/report"
	"dpso/internal/testutil/golden"
)

// compareArgs is a small comparison on linreg-t with a refusal in it
// (lipschitz-dpsgd: L_f = ∞).
var compareArgs = []string{"run", "--scenario", "linreg-t", "--d", "3", "--n", "3000", "--trials", "3", "--seed", "7",
	"--solvers", "acsa,nonprivate-schedule,lipschitz-dpsgd,klz-gd"}

// TestRunSolversIsOneComparison: `dpso run --solvers`
// runs the solvers on the same draws and prints one JSON document: each
// solver's run document is the one `dpso run --solver X --json` prints
// (common random numbers: the same data and noise streams, so the same
// bytes), the refusal is a row with its sentence, and each paired
// difference is the mean ± s.e. of the trials' differences (first
// principles: the sample mean and sd/√N of x_t − y_t).
func TestRunSolversIsOneComparison(t *testing.T) {
	code, out, errs := dpsoCLI(append(compareArgs, "--json")...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	golden.Equal(t, "run-solvers.shape.json", jsonShape(t, out))
	var doc report.ComparisonJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if strings.Join(doc.Solvers, ",") != "acsa,nonprivate-schedule,lipschitz-dpsgd,klz-gd" || len(doc.Runs) != 4 || doc.Trials != 3 || doc.N != 3000 {
		t.Fatalf("solvers %v, %d runs, %d trials, n = %d", doc.Solvers, len(doc.Runs), doc.Trials, doc.N)
	}
	// The solvers of a trial share its draw: the 3 that ran compose on it
	// (lipschitz-dpsgd refused: no release), and nonprivate-schedule, not
	// private, makes the total so (the composition covers a comparison).
	if tot := doc.Total; tot == nil || tot.Scope != "per-draw" || tot.Releases != 3 || tot.Private || doc.Private {
		t.Errorf("comparison total %+v, private %v", tot, doc.Private)
	}
	if doc.Runs[2].Refused == "" || !strings.Contains(doc.Runs[2].Refused, "L_f is infinite") || doc.Runs[2].ExcessRisk.Mean != nil || doc.PairedDifferences[2].Mean != nil {
		t.Errorf("lipschitz-dpsgd: %+v", doc.Runs[2])
	}
	for i, name := range []string{"acsa", "nonprivate-schedule", "klz-gd"} {
		t.Run(name, func(t *testing.T) {
			idx := []int{0, 1, 3}[i]
			args := append(append([]string{}, compareArgs[:len(compareArgs)-2]...), "--solver", name, "--json")
			_, out, errs := dpsoCLI(args...)
			// A single run states its own total; the comparison states the
			// total of all its solvers once, at its top.
			var one report.RunJSON
			json.Unmarshal([]byte(out), &one)
			if one.Privacy.Total == nil {
				t.Errorf("dpso run --solver %s --json has no privacy.total", name)
			}
			one.Privacy.Total = nil
			one.Citation = nil // the comparison cites once, at its top
			single, _ := report.MarshalJSON(one)
			got, err := report.MarshalJSON(doc.Runs[idx])
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(single) {
				t.Errorf("%s in the comparison differs from dpso run --solver %s --json (%s):\n got %s\nwant %s", name, name, errs, got, single)
			}
		})
	}
	for _, i := range []int{1, 3} {
		var xs []float64
		for tr := range doc.Runs[i].Trials {
			xs = append(xs, *doc.Runs[i].Trials[tr].ExcessRisk-*doc.Runs[0].Trials[tr].ExcessRisk)
		}
		mean := (xs[0] + xs[1] + xs[2]) / 3
		ss := 0.0
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
		}
		se := math.Sqrt(ss / 2 / 3)
		d := doc.PairedDifferences[i]
		if d.Minus != "acsa" || d.Solver != doc.Solvers[i] || math.Abs(*d.Mean-mean) > 1e-12*math.Abs(mean) || math.Abs(*d.Stderr-se) > 1e-9*se {
			t.Errorf("paired difference %d: %+v, want %g ± %g", i, d, mean, se)
		}
	}
}

// TestRunSolversTableCSVPlot: the table has one row per solver, the
// refusal's sentence once, the bounds and the notes once; the CSV has a
// solver column; --plot writes the comparison figure (a PNG).
func TestRunSolversTableCSVPlot(t *testing.T) {
	dir := t.TempDir()
	fig := filepath.Join(dir, "cmp.png")
	code, out, errs := dpsoCLI(append(compareArgs, "--plot", fig)...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	for _, w := range []string{"every solver on the same draws", "SOLVER", "− ACSA (PAIRED)", "lipschitz-dpsgd      clip-gaussian  refuses (below)",
		"lipschitz-dpsgd refuses: the worst-case Lipschitz parameter L_f is infinite", "klz-gd               coordinate", "BOUND", "klz-gd: coordinate oracle"} {
		if !strings.Contains(out, w) {
			t.Errorf("table lacks %q:\n%s", w, out)
		}
	}
	if strings.Count(out, "BOUND ") != 1 || strings.Count(out, "(a, ξ) is multivariate t") != 1 {
		t.Errorf("bounds or common notes repeated:\n%s", out)
	}
	b, err := os.ReadFile(fig)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Errorf("--plot: %v", err)
	}
	_, csv, _ := dpsoCLI(append(compareArgs, "--csv")...)
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if lines[0] != "solver,trial,grad_evals,excess_risk,dpso_version,command,rand,seed,data_sha256" || !strings.HasPrefix(lines[1], "acsa,0,0,") || !strings.Contains(csv, "\nklz-gd,2,") || strings.Contains(csv, "\nlipschitz") {
		t.Errorf("csv:\n%s", csv)
	}
}

func TestRunSolversInvalid(t *testing.T) {
	checkInvalid(t, []invalidRun{
		{[]string{"run", "--scenario", "linreg-t", "--solvers", "acsa,nonprivate-schedule", "--solver", "acsa"}, []string{"--solver and --solvers exclude each other"}},
		{[]string{"run", "--scenario", "linreg-t", "--solvers", "acsa,nonprivate-schedule", "--dry-run"}, []string{"--dry-run prescribes one solver"}},
		{[]string{"run", "--scenario", "linreg-t", "--solvers", "acsa,nope"}, []string{"--solvers:", "unknown solver \"nope\""}},
		{[]string{"run", "--scenario", "linreg-t", "--solvers", "localized,nonprivate-schedule"}, []string{"--solvers:", "localized is the paper's algorithm for class nonsmooth-convex"}},
		{[]string{"run", "--scenario", "linreg-t", "--solvers", "acsa,,nonprivate-schedule"}, []string{"--solvers:", "an empty name"}},
		{[]string{"run", "--scenario", "linreg-t", "--solvers", "acsa,acsa"}, []string{"--solvers:", "listed twice"}},
	})
}
