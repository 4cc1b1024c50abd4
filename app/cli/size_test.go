package cli

import (
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestStreamedRunsHaveNoMaterializationCap: the cap
// n·(d+1) ≤ 2·10⁸ binds only a run that materializes its dataset. A
// one-pass solver on a synthetic scenario resolves at n = 10⁷, d = 50
// (5.1·10⁸ floats, which it never holds); a multi-pass solver, or a
// baseline on a multi-pass schedule, at the same size is refused on --n
// with the reason and the largest n allowed (2·10⁸/51 = 3921568).
func TestStreamedRunsHaveNoMaterializationCap(t *testing.T) {
	size := []string{"--n", "10000000", "--d", "50"}
	for _, solver := range []string{"clipped-sgd", "nonprivate-schedule", "lipschitz-dpsgd"} {
		t.Run(solver, func(t *testing.T) {
			args := append([]string{"run", "--scenario", "linreg-t", "--class", "smooth-sc", "--solver", solver, "--dry-run", "--json"}, size...)
			code, out, errs := dpsoCLI(args...)
			if solver == "lipschitz-dpsgd" {
				// It refuses for another reason (L_f = ∞), never for the size.
				if code == 0 || strings.Contains(errs, "n·(d+1)") || !strings.Contains(errs+out, "L_f") {
					t.Errorf("%s: status %d, %s%s", solver, code, out, errs)
				}
				return
			}
			if code != 0 {
				t.Errorf("%s streams at n = 10⁷, d = 50: status %d: %s", solver, code, errs)
				return
			}
			var j struct{ N, D int }
			if err := json.Unmarshal([]byte(out), &j); err != nil || j.N != 10_000_000 || j.D != 50 {
				t.Errorf("%s: n, d = %d, %d (%v)", solver, j.N, j.D, err)
			}
		})
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--scenario", "linreg-t", "--class", "smooth-sc", "--solver", "klz-gd"},
			[]string{"--n:", "klz-gd makes several passes and keeps the dataset in memory", "5.1·10⁸ floats", "2·10⁸", "n ≤ 3.921568·10⁶", "run clipped-sgd, which streams"}},
		{[]string{"--scenario", "hinge-t"},
			[]string{"--n:", "localized makes several passes", "n ≤ 3.921568·10⁶"}},
		{[]string{"--scenario", "hinge-t", "--class", "nonsmooth-sc"},
			[]string{"--n:", "localized-sc makes several passes", "n ≤ 3.921568·10⁶"}},
		{[]string{"--scenario", "hinge-t", "--solver", "nonprivate-schedule"},
			[]string{"--n:", "nonprivate-schedule runs localized's schedule, which makes several passes", "n ≤ 3.921568·10⁶"}},
	} {
		t.Run(caseName(c.args), func(t *testing.T) {
			args := append(append([]string{"run", "--dry-run"}, c.args...), size...)
			code, _, errs := dpsoCLI(args...)
			if code != 2 {
				t.Errorf("%v: status %d, want 2 (%s)", c.args, code, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("%v: %q lacks %q", c.args, errs, w)
				}
			}
		})
	}
}

// TestComparisonReportsAMaterializingSolverOverTheCap: in a comparison the
// solver that would materialize above the cap is reported with the reason,
// and the streaming one runs (n·(d+1) = 200000·1001 > 2·10⁸).
func TestComparisonReportsAMaterializingSolverOverTheCap(t *testing.T) {
	code, out, errs := dpsoCLI("run", "--scenario", "linreg-t", "--class", "smooth-sc", "--n", "200000", "--d", "1000",
		"--trials", "1", "--solvers", "clipped-sgd,klz-gd", "--json")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	var j struct {
		Runs []struct {
			Solver     string
			Refused    string
			ExcessRisk *struct{ Mean *float64 } `json:"excess_risk"`
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Runs) != 2 || j.Runs[0].Refused != "" || j.Runs[0].ExcessRisk == nil || j.Runs[0].ExcessRisk.Mean == nil ||
		!strings.Contains(j.Runs[1].Refused, "n ≤ 1.998·10⁵") {
		t.Errorf("comparison: %s", out)
	}
}

// TestStreamedRunSameBitsAnyCores: a streamed one-trial run large enough
// that its oracle calls are cut into chunks and spread over the workers
// (n = 3·10⁵, d = 50: batches of ≈ 10⁴ samples, 5·10⁵ floats, above the
// 2¹⁷-float threshold) prints the same JSON, w included, for --workers 1,
// 2 and 7 and for GOMAXPROCS 1 and 4 (the README's n = 10⁷ measurement
// compares the whole processes' outputs as well).
func TestStreamedRunSameBitsAnyCores(t *testing.T) {
	args := []string{"run", "--scenario", "linreg-t", "--class", "smooth-sc", "--n", "300000", "--d", "50", "--tail", "5",
		"--trials", "1", "--json", "--emit-w"}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first string
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		for _, w := range []string{"1", "2", "7", "0"} {
			code, out, errs := dpsoCLI(append(slices.Clone(args), "--workers", w)...)
			if code != 0 {
				t.Fatalf("GOMAXPROCS %d, --workers %s: status %d: %s", procs, w, code, errs)
			}
			out = uncited(out)
			if first == "" {
				first = out
				if !strings.Contains(out, `"w": [`) {
					t.Fatalf("no w in the output: %s", out)
				}
			} else if out != first {
				t.Errorf("GOMAXPROCS %d, --workers %s: the output differs from GOMAXPROCS 1, --workers 1", procs, w)
			}
		}
	}
}
