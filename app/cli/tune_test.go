package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"dpso/internal/testutil/golden"
	"dpso/theory"
)

var tuneArgs = []string{"tune", "--scenario", "linreg-t", "--class", "smooth-sc", "--d", "3", "--n", "3000", "--trials", "2", "--seed", "5"}

// TestTuneJSON: the document states what anyone needs to recompute the
// search's total — the candidates' ρ, K's law with its γ, the Rényi curve,
// the total — and the three runs, the oracle marked not private; its shape
// is tune.shape.json.
func TestTuneJSON(t *testing.T) {
	code, out, errs := dpsoCLI(append(tuneArgs, "--json")...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	golden.Equal(t, "tune.shape.json", jsonShape(t, out))
	var j struct {
		Search struct {
			Candidates struct {
				Distribution string
				Shape, Mean  float64
				Gamma        float64
			}
		}
		Privacy struct {
			Adjacency string
			Target    struct{ Rho, Delta, EpsExact float64 } `json:"target"`
			Candidate struct {
				Rho float64
			}
			RDP struct {
				Orders []float64
				Values []float64
			}
			Eps float64
		}
		Solvers []struct {
			Tuned       struct{ Private bool }
			OracleTuned struct{ Private bool } `json:"oracle_tuned"`
		}
		Prescribed []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	c := j.Search.Candidates
	if c.Distribution != "geometric" || c.Shape != 1 || c.Mean != 10 || math.Abs(c.Gamma-0.1) > 1e-9 {
		t.Errorf("K's law %+v, want geometric, mean 10, γ = 0.1", c)
	}
	p := j.Privacy
	if p.Adjacency != "replace-one" || !(p.Candidate.Rho > 0 && p.Candidate.Rho < 0.5) || len(p.RDP.Orders) != len(p.RDP.Values) || len(p.RDP.Orders) == 0 {
		t.Errorf("privacy %+v", p)
	}
	if exact := theory.EpsExact(1, 1e-5); !(p.Eps <= exact) || p.Eps < exact-1e-3 {
		t.Errorf("search ε' = %g, want at most (and near) %g", p.Eps, exact)
	}
	if len(j.Solvers) != 1 || len(j.Prescribed) != 1 || !j.Solvers[0].Tuned.Private || j.Solvers[0].OracleTuned.Private {
		t.Errorf("solvers %+v, prescribed %d: want the prescribed run, a private tuned run and a non-private oracle", j.Solvers, len(j.Prescribed))
	}
}

// TestTuneTable shows the three runs side by side, each with its privacy.
func TestTuneTable(t *testing.T) {
	code, out, errs := dpsoCLI(tuneArgs...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	for _, want := range []string{"clipped-sgd  prescribed", "clipped-sgd  tuned", "clipped-sgd  oracle-tuned", "NOT private: unattainable reference",
		"tuning included", "tuning       the whole search's ε' is "} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
}

// TestTuneOracleGrid: --oracle-grid coarse computes the reference of
// the coarse grid alone and says so — the document's "oracle", the
// reference's grid and the points it ran, NOT private; the table's row
// and note name the coarse grid —, and --oracle-grid none the prescribed
// run alone.
func TestTuneOracleGrid(t *testing.T) {
	type doc struct {
		Oracle  string
		Solvers []struct {
			OracleTuned *struct {
				Private bool
				Grid    string
				Ran     []int
				Points  []*struct{ Mean *float64 }
			} `json:"oracle_tuned"`
		}
		Prescribed []map[string]any
	}
	for _, grid := range []string{"coarse", "none"} {
		t.Run(grid, func(t *testing.T) {
			code, out, errs := dpsoCLI(append(append([]string{}, tuneArgs...), "--oracle-grid", grid, "--json")...)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errs)
			}
			var j doc
			if err := json.Unmarshal([]byte(out), &j); err != nil {
				t.Fatal(err)
			}
			if j.Oracle != grid || len(j.Solvers) != 1 || len(j.Prescribed) != 1 {
				t.Fatalf("oracle %q, %d solvers, %d prescribed: want %q, one of each", j.Oracle, len(j.Solvers), len(j.Prescribed), grid)
			}
			o := j.Solvers[0].OracleTuned
			if grid == "none" {
				if o != nil {
					t.Errorf("an oracle-tuned reference %+v with --oracle-grid none", o)
				}
				return
			}
			run := 0
			for _, p := range o.Points {
				if p.Mean != nil {
					run++
				}
			}
			if o.Private || o.Grid != "coarse" || len(o.Ran) == 0 || len(o.Ran) != run || run >= len(o.Points) {
				t.Errorf("reference private %v, grid %q, ran %v, %d of %d points with a mean: want NOT private, coarse, the points run listed", o.Private, o.Grid, o.Ran, run, len(o.Points))
			}
			code, out, errs = dpsoCLI(append(append([]string{}, tuneArgs...), "--oracle-grid", grid)...)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errs)
			}
			row := fmt.Sprintf("clipped-sgd  coarse oracle (%d of %d points)", run, len(o.Points))
			for _, want := range []string{row, "NOT private: unattainable reference", "coarse oracle: NOT private"} {
				if !strings.Contains(out, want) {
					t.Errorf("the table lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

// TestTuneRefusals name the flag at fault, with status 2.
func TestTuneRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--clip", "2"}, "--clip"},
		{[]string{"--vary", "eps"}, "--vary"},
		{[]string{"--candidates", "0.5"}, "--candidates"},
		{[]string{"--candidates-law", "zipf"}, "--candidates-law"},
		{[]string{"--selection-accountant", "prv"}, "--selection-accountant"},
		{[]string{"--grid-clip", "1,x"}, "--grid-clip"},
		{[]string{"--grid-epochs", "1"}, "--grid-epochs"},
		{[]string{"--validation", "0.7"}, "--validation"},
		{[]string{"--eps", "inf"}, "--eps"},
		{[]string{"--oracle-grid", "half"}, "--oracle-grid"},
		{[]string{"--oracle-grid", "coarse", "--references=false"}, "--oracle-grid"},
	} {
		t.Run(caseName(c.args), func(t *testing.T) {
			code, _, errs := dpsoCLI(append(append([]string{}, tuneArgs...), c.args...)...)
			if code != 2 || !strings.Contains(errs, c.flag) {
				t.Errorf("%v: status %d, %q; want 2 naming %s", c.args, code, errs, c.flag)
			}
		})
	}
}

// TestRunPrivateConstantsOnData: `dpso run --data … --constants private`
// runs without any constant flag, states ρ₀ and every estimate, and its
// total composes them with the run (ρ₀ + (ρ − ρ₀) = ρ).
func TestRunPrivateConstantsOnData(t *testing.T) {
	atRepoRoot(t)
	code, out, errs := dpsoCLI("run", "--data", exampleData, "--constants", "private", "--json")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	var j struct {
		Private   bool
		Constants struct {
			Rho0, Share float64
			Trials      []struct {
				R2, Beta float64
				Releases []struct {
					What string
					Rho  float64
				}
			}
			Note string
		}
		Privacy struct {
			SpentRho float64 `json:"spent_rho"`
			Total    struct{ Rho float64 }
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	c := j.Constants
	if c.Rho0 != 0.05 || c.Share != 0.1 || len(c.Trials) != 1 || !(c.Trials[0].R2 > 0) || !(c.Trials[0].Beta > 0) || !strings.Contains(c.Note, "not bounds") {
		t.Fatalf("constants %+v", c)
	}
	var sum float64
	for _, r := range c.Trials[0].Releases {
		sum += r.Rho
	}
	if math.Abs(sum-0.05) > 1e-12 || math.Abs(j.Privacy.SpentRho-0.5) > 1e-9 || math.Abs(j.Privacy.Total.Rho-0.5) > 1e-9 || !j.Private {
		t.Errorf("releases spend %g (want ρ₀ = 0.05); spent ρ %g, total %g (want 0.5); private %v", sum, j.Privacy.SpentRho, j.Privacy.Total.Rho, j.Private)
	}
	code, human, errs := dpsoCLI("run", "--data", exampleData, "--constants", "private")
	if code != 0 || !strings.Contains(human, "private estimates, ρ₀ = 0.05") || !strings.Contains(human, "r̃_2 = ") {
		t.Errorf("table: status %d, %s\n%s", code, errs, human)
	}
	if code, _, errs := dpsoCLI("run", "--data", exampleData, "--constants", "private", "--dry-run"); code != 2 || !strings.Contains(errs, "--constants") {
		t.Errorf("--dry-run with private constants: status %d, %q; want 2 naming --constants", code, errs)
	}
}

// TestRunHoldout: --holdout keeps rows from every solver and the run
// reports their loss, labelled a non-private diagnostic, beside the
// in-sample excess risk measured on the other rows.
func TestRunHoldout(t *testing.T) {
	atRepoRoot(t)
	code, out, errs := dpsoCLI("run", "--data", exampleData, "--rk", "12", "--beta", "1.5", "--holdout", "0.2", "--json")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	var j struct {
		N       int
		Holdout struct {
			Rows     int
			Mean, W0 float64
			Private  bool
			Note     string
		}
		ExcessRisk struct{ Method string } `json:"excess_risk"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	h := j.Holdout
	if j.N != 800 || h.Rows != 200 || !(h.Mean > 0) || !(h.W0 > 0) || h.Private || !strings.Contains(h.Note, "non-private diagnostic") ||
		!strings.Contains(j.ExcessRisk.Method, "800 training rows") {
		t.Errorf("n = %d, holdout %+v, excess risk method %q", j.N, h, j.ExcessRisk.Method)
	}
	if code, _, errs := dpsoCLI("run", "--scenario", "linreg-t", "--holdout", "0.2"); code != 2 || !strings.Contains(errs, "--holdout") {
		t.Errorf("--holdout on a scenario: status %d, %q; want 2 naming --holdout", code, errs)
	}
}

// TestTuneTakeaways: what a researcher takes from a search of clipped-sgd
// and dp-sgd — the citation (version, command, seed), each trial's
// released w (--emit-w; d coordinates), the tuned excess risk's median and
// quartiles, dp-sgd's own accounting (its mechanisms' noise multipliers
// and its search's ε' within the budget), and the best private run, which
// is the run with the smallest mean excess risk among the tuned and
// prescribed ones; the table says the same in its "best private run" line
// and prints the w lines.
func TestTuneTakeaways(t *testing.T) {
	args := []string{"tune", "--scenario", "linreg-t", "--class", "smooth-sc", "--d", "3", "--n", "2000", "--trials", "2", "--seed", "3", "--solvers", "clipped-sgd,dp-sgd",
		"--grid-clip", "0.5,2", "--grid-step", "0.05,0.2", "--grid-iters", "20", "--grid-epochs", "1,2", "--grid-batch", "50,200", "--emit-w"}
	code, out, errs := dpsoCLI(append(args, "--json")...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	type est struct{ Mean, Median, Q1, Q3 *float64 }
	var j struct {
		Citation struct {
			Version, Command string
			Seed             *uint64
		}
		Privacy struct {
			Target struct {
				EpsExact float64 `json:"eps_exact"`
			} `json:"target"`
		}
		Solvers []struct {
			Solver        string
			SearchPrivacy *struct {
				Mechanisms []struct {
					Batch, Steps    int
					NoiseMultiplier float64 `json:"noise_multiplier"`
				}
				Eps float64
			} `json:"search_privacy"`
			Tuned struct {
				ExcessRisk est `json:"excess_risk"`
				Trials     []struct{ W []float64 }
			}
		}
		Prescribed []struct {
			ExcessRisk est `json:"excess_risk"`
		}
		BestPrivate *struct {
			Solver, Run string
			ExcessRisk  est `json:"excess_risk"`
		} `json:"best_private"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Citation.Version == "" || !strings.Contains(j.Citation.Command, "--emit-w") || j.Citation.Seed == nil || *j.Citation.Seed != 3 {
		t.Errorf("citation %+v", j.Citation)
	}
	best := math.Inf(1)
	for i, s := range j.Solvers {
		e := s.Tuned.ExcessRisk
		if e.Median == nil || e.Q1 == nil || e.Q3 == nil || !(*e.Q1 <= *e.Median && *e.Median <= *e.Q3) {
			t.Errorf("%s: tuned excess risk %+v, want its median and quartiles", s.Solver, e)
		}
		for _, tr := range s.Tuned.Trials {
			if len(tr.W) != 3 {
				t.Errorf("%s: w = %v, want d = 3 coordinates", s.Solver, tr.W)
			}
		}
		if (s.Solver == "dp-sgd") != (s.SearchPrivacy != nil) {
			t.Errorf("%s: search_privacy %+v", s.Solver, s.SearchPrivacy)
		}
		if sp := s.SearchPrivacy; sp != nil && (len(sp.Mechanisms) != 4 || !(sp.Eps <= j.Privacy.Target.EpsExact)) {
			t.Errorf("dp-sgd's search: %+v (target %g)", sp, j.Privacy.Target.EpsExact)
		}
		best = math.Min(best, math.Min(*e.Mean, *j.Prescribed[i].ExcessRisk.Mean))
	}
	if b := j.BestPrivate; b == nil || *b.ExcessRisk.Mean != best {
		t.Fatalf("best private run %+v, want the smallest mean %g", b, best)
	}
	code, table, errs := dpsoCLI(args...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	line := "best private run: " + j.BestPrivate.Solver + " " + j.BestPrivate.Run + ", excess risk " + theory.Sig6.Format(*j.BestPrivate.ExcessRisk.Mean)
	if !strings.Contains(table, line) || strings.Count(table, "\nw (") != 4 || !strings.Contains(table, "dp-sgd privacy") {
		t.Errorf("the table lacks %q, the 4 w lines or dp-sgd's privacy:\n%s", line, table)
	}
}

// TestTuneSelectionPLD: --selection-accountant pld calibrates dp-sgd's
// search to its privacy-profile bound and says so: the JSON names the
// accountant of the search and of the total, the factor below 1, the
// search's ε' within the budget and the Rényi bound's at the same noise
// above it; the table's privacy line names the profile bound.
func TestTuneSelectionPLD(t *testing.T) {
	args := []string{"tune", "--scenario", "linreg-t", "--class", "smooth-sc", "--d", "3", "--n", "2000", "--trials", "1", "--seed", "3", "--solver", "dp-sgd",
		"--grid-clip", "1", "--grid-step", "0.1", "--grid-epochs", "1", "--grid-batch", "50,200", "--references=false", "--selection-accountant", "pld"}
	code, out, errs := dpsoCLI(append(args, "--json")...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	var j struct {
		Privacy struct {
			Target struct {
				EpsExact float64 `json:"eps_exact"`
			} `json:"target"`
			Total struct {
				Eps        float64
				Accountant string
			}
		}
		Solvers []struct {
			SearchPrivacy *struct {
				Eps        float64
				RDPEps     float64 `json:"rdp_eps"`
				Accountant string
				PLDFactor  float64 `json:"pld_factor"`
			} `json:"search_privacy"`
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	sp := j.Solvers[0].SearchPrivacy
	target := j.Privacy.Target.EpsExact
	if sp == nil || sp.Accountant != "pld" || !(sp.PLDFactor > 0 && sp.PLDFactor < 1) || !(sp.Eps <= target) || !(sp.RDPEps > target) {
		t.Fatalf("search_privacy %+v (target %g)", sp, target)
	}
	if tot := j.Privacy.Total; tot.Accountant != "pld" || tot.Eps != sp.Eps {
		t.Errorf("total %+v, want the search's profile bound %g", tot, sp.Eps)
	}
	code, table, errs := dpsoCLI(args...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	if !strings.Contains(table, "for the whole search by its privacy profile") || !strings.Contains(table, "its privacy-profile bound, below its Rényi one") {
		t.Errorf("the table does not name the profile bound:\n%s", table)
	}
}
