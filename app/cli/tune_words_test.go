package cli

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"dpso/internal/report"
	"dpso/theory"
)

// TestTuneUserRowsWholeRelease: with --references on the user's rows the
// total states every release that read them — the search's ε', each
// prescribed run's own ρ, their composition (above the search's ε' and
// below basic composition's sum, Rényi curves adding) — and names the
// whole NOT private where the oracle ran; without the oracle the
// composition is the whole.
func TestTuneUserRowsWholeRelease(t *testing.T) {
	for _, c := range []struct {
		oracle, want string
		private      bool
	}{
		{"coarse", "NOT PRIVATE as a whole (--references on your rows)", false},
		{"none", "— in all, the references included", true},
	} {
		t.Run(c.oracle, func(t *testing.T) {
			args := []string{"tune", "--data", filepath.Join("..", "..", exampleData), "--constants", "private", "--references", "--oracle-grid", c.oracle, "--seed", "2", "--rand", "seeded"}
			code, out, errs := dpsoCLI(append(args, "--json")...)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errs)
			}
			var j struct {
				Privacy struct {
					Target struct {
						Rho      float64 `json:"rho"`
						EpsExact float64 `json:"eps_exact"`
					} `json:"target"`
					Total struct {
						Eps            float64
						Delta          float64
						Private        bool
						WithPrescribed *struct {
							Eps, Delta float64
							Accountant string
						} `json:"with_prescribed"`
					} `json:"total"`
				}
			}
			if err := json.Unmarshal([]byte(out), &j); err != nil {
				t.Fatal(err)
			}
			tot := j.Privacy.Total
			wp := tot.WithPrescribed
			if wp == nil || wp.Accountant != "rdp" || wp.Delta != tot.Delta || !(wp.Eps > tot.Eps && wp.Eps < tot.Eps+j.Privacy.Target.EpsExact) {
				t.Fatalf("with_prescribed %+v, want ε' in (%g, %g) at δ = %g", wp, tot.Eps, tot.Eps+j.Privacy.Target.EpsExact, tot.Delta)
			}
			code, table, errs := dpsoCLI(args...)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errs)
			}
			total := ""
			for _, l := range strings.Split(table, "\n") {
				if strings.HasPrefix(l, "total ") {
					total = l
				}
			}
			for _, w := range []string{c.want, "1 search(es) (solvers × trials): ε' = " + theory.Sig6.Format(tot.Eps),
				"1 prescribed run(s) (solvers × trials), each ρ = " + theory.Sig6.Format(j.Privacy.Target.Rho),
				"searches and prescribed runs together: ε' = " + theory.Sig6.Format(wp.Eps)} {
				if !strings.Contains(total, w) {
					t.Errorf("total row lacks %q:\n%s", w, total)
				}
			}
			if c.private == strings.Contains(total, "NOT private") {
				t.Errorf("total row's NOT private (want private %v):\n%s", c.private, total)
			}
		})
	}
}

// TestTuneVerdictAgainstW0: at n = 200 the theorem's constants leave
// clipped-sgd's prescribed run above F(w₀) − F* by more than 2 s.e.; the
// table's row, the summary and the JSON say so in dpso run's words
// (report.W0Verdict), and say nothing of the kind for a run below w₀.
func TestTuneVerdictAgainstW0(t *testing.T) {
	args := []string{"tune", "--scenario", "linreg-t", "--class", "smooth-sc", "--n", "200", "--d", "3", "--trials", "2", "--seed", "1"}
	code, out, errs := dpsoCLI(append(args, "--json")...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	type ex struct {
		Mean   float64
		Stderr *float64
		VsW0   string `json:"vs_w0"`
	}
	var j struct {
		W0Excess struct {
			Value float64
		} `json:"w0_excess"`
		Prescribed []struct {
			ExcessRisk ex `json:"excess_risk"`
		}
		Solvers []struct {
			Tuned struct {
				ExcessRisk ex `json:"excess_risk"`
			}
			OracleTuned *struct {
				ExcessRisk ex     `json:"excess_risk"`
				VsW0       string `json:"vs_w0"`
			} `json:"oracle_tuned"`
		}
		BestPrivate struct {
			VsW0 string `json:"vs_w0"`
		} `json:"best_private"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	w0 := j.W0Excess.Value
	verdict := func(e ex) string {
		se := math.NaN()
		if e.Stderr != nil {
			se = *e.Stderr
		}
		return report.W0Verdict(e.Mean, se, w0)
	}
	p := j.Prescribed[0].ExcessRisk
	if want := "ABOVE F(w₀) − F* by more than 2 s.e.: worse than doing nothing"; verdict(p) != want || p.VsW0 != want {
		t.Fatalf("prescribed %+v against w₀ %g: vs_w0 %q, want %q", p, w0, p.VsW0, want)
	}
	tu := j.Solvers[0].Tuned.ExcessRisk
	if tu.VsW0 != verdict(tu) || j.Solvers[0].OracleTuned.VsW0 != verdict(j.Solvers[0].OracleTuned.ExcessRisk) {
		t.Errorf("tuned %+v, oracle %+v: vs_w0 differs from report.W0Verdict", tu, j.Solvers[0].OracleTuned)
	}
	code, table, errs := dpsoCLI(args...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	row := ""
	for _, l := range strings.Split(table, "\n") {
		if strings.HasPrefix(l, "clipped-sgd  prescribed") {
			row = l
		}
	}
	if !strings.Contains(row, theory.Sig6.Format(p.Mean)+" ± "+theory.Sig6.Format(*p.Stderr)+" — "+p.VsW0) {
		t.Errorf("prescribed row lacks its verdict %q:\n%s", p.VsW0, row)
	}
	if !strings.Contains(table, "clipped-sgd prescribed, "+theory.Sig6.Format(p.Mean)+" ± "+theory.Sig6.Format(*p.Stderr)+" ("+p.VsW0+")") &&
		!strings.Contains(table, "best private run: clipped-sgd prescribed, excess risk "+theory.Sig6.Format(p.Mean)) {
		t.Errorf("the summary lacks the prescribed run's verdict:\n%s", table)
	}
}

// TestTuneOverheadWords: the tuning row states the whole search's ε' as
// a difference from one candidate's, both named (ε' of (ε', δ)
// guarantees do not add), never as "+ ε'".
func TestTuneOverheadWords(t *testing.T) {
	code, out, errs := dpsoCLI(append(append([]string(nil), tuneArgs...), "--references=false", "--json")...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	var j struct {
		Privacy struct {
			Eps       float64
			Overhead  float64 `json:"overhead_eps"`
			Candidate struct {
				EpsExact float64 `json:"eps_exact"`
			} `json:"candidate"`
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if math.Abs(j.Privacy.Eps-j.Privacy.Candidate.EpsExact-j.Privacy.Overhead) > 1e-9*j.Privacy.Eps {
		t.Fatalf("overhead %g is not ε' %g − one candidate's %g", j.Privacy.Overhead, j.Privacy.Eps, j.Privacy.Candidate.EpsExact)
	}
	code, table, errs := dpsoCLI(append(append([]string(nil), tuneArgs...), "--references=false")...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	want := "the whole search's ε' is " + theory.Sig6.Format(j.Privacy.Overhead) + " above one candidate's " + theory.Sig6.Format(j.Privacy.Candidate.EpsExact)
	if !strings.Contains(table, want) || strings.Contains(table, "+ ε'") {
		t.Errorf("the table lacks %q or adds ε' values:\n%s", want, table)
	}
}
