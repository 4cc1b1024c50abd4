package cli

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"dpso/internal/testutil/userrows"
)

// rowsCSV writes a small user-data file (squared loss, d = 2).
func rowsCSV(t *testing.T) string {
	t.Helper()
	return userrows.Write(t, "rows.csv", 30, func(i int) []float64 {
		return []float64{float64(i%7)/7 - 0.4, float64(i%5)/5 - 0.3, float64(i%3) - 1}
	})
}

func jsonNumber(x float64) string { b, _ := json.Marshal(x); return string(b) }

// runDoc runs dpso with args (which must print JSON) and decodes it.
func runDoc(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errs := dpsoCLI(args...)
	if code != 0 {
		t.Fatalf("%q: status %d, %s", args, code, errs)
	}
	var j map[string]any
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return j
}

func obj(j map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		j, _ = j[k].(map[string]any)
	}
	return j
}

// TestUserDataPrivacyContract: the privacy contract as a user sees it in
// the JSON: on user data the trials compose and the total says so (3
// trials at ρ = ε²/2 = 0.5 spend ρ = 1.5); --split-budget makes --eps the
// total (each trial ρ = 0.5/3); the default is one trial and secure
// randomness (two default runs on the same file differ); --rand seeded is
// allowed but the run says it is NOT private; the excess risk measured on
// the rows is labelled a non-private diagnostic. A scenario's trials draw
// fresh data: its total is per draw.
func TestUserDataPrivacyContract(t *testing.T) {
	data := rowsCSV(t)
	base := []string{"run", "--data", data, "--rk", "2", "--beta", "1", "--json"}
	args := func(extra ...string) []string { return append(append([]string{}, base...), extra...) }

	// Trials compose: the total is 3ρ, the per-release ρ the budget.
	j := runDoc(t, args("--trials", "3", "--emit-w")...)
	total := obj(j, "privacy", "total")
	if total["scope"] != "user-rows" || total["releases"] != 3.0 || total["composition"] != "zcdp" ||
		!nearly(total["rho"].(float64), 1.5) || total["split"] != false || total["private"] != true {
		t.Errorf("total over 3 trials: %v", total)
	}
	if got := obj(j, "privacy")["spent_rho"].(float64); !nearly(got, 0.5) {
		t.Errorf("per-release spent ρ = %g, want 0.5", got)
	}
	// (ε', δ) of the total: the μ = √(2·1.5) = √3 Gaussian mechanism at
	// δ = 1e-5, exactly as `dpso privacy --eps 1.7320508` gives it.
	pj := runDoc(t, "privacy", "--eps", jsonNumber(math.Sqrt(3)), "--json")
	if got, want := total["eps_dp"].(float64), pj["eps_exact"].(float64); !nearly(got, want) {
		t.Errorf("total ε' = %g, want %g (the exact conversion of ρ = 1.5)", got, want)
	}
	// The excess risk on the rows is a non-private diagnostic.
	ex := obj(j, "excess_risk")
	if ex["private"] != false || !strings.Contains(ex["note"].(string), "non-private diagnostic") {
		t.Errorf("excess_risk on user rows: %v", ex)
	}
	for _, tr := range j["trials"].([]any) {
		if tr.(map[string]any)["excess_risk_private"] != false {
			t.Errorf("trial %v: excess_risk_private is not false", tr)
		}
	}
	// --split-budget: each of the 3 trials gets ρ/3; the total is ρ.
	j = runDoc(t, args("--trials", "3", "--split-budget")...)
	total = obj(j, "privacy", "total")
	if !nearly(total["rho"].(float64), 0.5) || total["split"] != true || !nearly(total["budget_rho"].(float64), 0.5) {
		t.Errorf("split total: %v", total)
	}
	if got := obj(j, "privacy")["rho"].(float64); !nearly(got, 0.5/3) {
		t.Errorf("split per-release ρ = %g, want 1/6", got)
	}
	// A share whose ε falls below the range is refused on --eps, saying
	// why (ε/√m with m = 100 trials).
	code, _, errs := dpsoCLI(args("--eps", "5e-100", "--trials", "100", "--split-budget")...)
	if code != 2 || !strings.Contains(errs, "--eps:") || !strings.Contains(errs, "--split-budget gives each of the 100 releases ε = 5·10⁻¹⁰¹") {
		t.Errorf("split below the ε range: status %d, %q", code, errs)
	}
	// Defaults on user data: one trial, secure randomness, private; two
	// runs on the same file differ.
	a, b := runDoc(t, args("--emit-w")...), runDoc(t, args("--emit-w")...)
	if len(a["trials"].([]any)) != 1 || a["rand"] != "secure" || a["private"] != true || a["not_private"] != nil {
		t.Errorf("defaults on user data: trials %d, rand %v, private %v, not_private %v", len(a["trials"].([]any)), a["rand"], a["private"], a["not_private"])
	}
	wa, _ := json.Marshal(a["trials"].([]any)[0].(map[string]any)["w"])
	wb, _ := json.Marshal(b["trials"].([]any)[0].(map[string]any)["w"])
	if string(wa) == string(wb) {
		t.Errorf("two default runs on the same file released the same w %s: the noise is reproducible", wa)
	}
	// Seeded noise on user data: only when asked, and then NOT private.
	j = runDoc(t, args("--rand", "seeded")...)
	np, _ := j["not_private"].([]any)
	if j["private"] != false || len(np) != 1 || !strings.Contains(np[0].(string), "seeded noise on user data") {
		t.Errorf("--rand seeded on user data: private %v, not_private %v", j["private"], j["not_private"])
	}
	code, out, _ := dpsoCLI(append(base[:len(base)-1], "--rand", "seeded")...)
	if code != 0 || !strings.Contains(out, "NOT PRIVATE  seeded noise on user data") || !strings.Contains(out, "a non-private diagnostic") {
		t.Errorf("table of a seeded run on user data lacks its labels:\n%s", out)
	}
	// A scenario: fresh draws per trial, per-trial ρ; seeded by default
	// and private; its excess risk (population risk of the output) is.
	j = runDoc(t, "run", "--scenario", "linreg-t", "--d", "2", "--n", "500", "--trials", "3", "--json")
	total = obj(j, "privacy", "total")
	if total["scope"] != "per-draw" || total["releases"] != 1.0 || !nearly(total["rho"].(float64), 0.5) ||
		!strings.Contains(total["note"].(string), "trials do not compose") {
		t.Errorf("scenario total: %v", total)
	}
	if j["rand"] != "seeded" || j["private"] != true || obj(j, "excess_risk")["private"] != true {
		t.Errorf("scenario: rand %v, private %v, excess private %v", j["rand"], j["private"], obj(j, "excess_risk")["private"])
	}
}

func nearly(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }

// TestUserDataCSVSaysWhatItCannotCarry: a CSV has no room for the privacy
// labels, so `run --data … --rand seeded --csv` says them on stderr, one
// sentence each: NOT PRIVATE and why, and that the excess risks are a
// non-private diagnostic.
func TestUserDataCSVSaysWhatItCannotCarry(t *testing.T) {
	code, out, errs := dpsoCLI("run", "--data", rowsCSV(t), "--rk", "2", "--beta", "1", "--rand", "seeded", "--csv")
	if code != 0 || !strings.HasPrefix(out, "trial,grad_evals,excess_risk,dpso_version,command,rand,seed,data_sha256\n") {
		t.Fatalf("status %d, stdout %.60q, stderr %q", code, out, errs)
	}
	want := []string{
		"dpso: NOT PRIVATE: seeded noise on user data (--rand seeded, seed 0): anyone who knows the seed can remove the noise",
		"dpso: note: the excess risks in this CSV are computed on your rows apart from the released output: a non-private diagnostic, not covered by any privacy guarantee\n",
	}
	for _, w := range want {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr %q lacks %q", errs, w)
		}
	}
}

// TestUserDataOneTrialHeaders: user data default to one trial, and the
// sweep's and the comparison's headers say "1 trial", not "1 trials".
func TestUserDataOneTrialHeaders(t *testing.T) {
	data := rowsCSV(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--data", data, "--rk", "2", "--beta", "1", "--vary", "eps", "--from", "0.5", "--to", "2", "--points", "2"}, "; 1 trial per point, secure randomness, keyed from crypto/rand, Gaussian noise exact on a lattice: not reproducible."},
		{[]string{"run", "--data", data, "--rk", "2", "--beta", "1", "--solvers", "acsa,nonprivate-schedule"}, "mean ± s.e. over 1 trial ("},
	} {
		t.Run(caseName(c.args), func(t *testing.T) {
			code, out, errs := dpsoCLI(c.args...)
			if code != 0 || !strings.Contains(out, c.want) || strings.Contains(out, "1 trials") {
				t.Errorf("%s: status %d (%s), want %q and no \"1 trials\" in:\n%s", c.args[0], code, errs, c.want, out)
			}
		})
	}
}

// TestNoPrivacyStatementsAreTrue: with ε = ∞ (or the baseline nonprivate-schedule among
// the releases) no output promises a guarantee: the total says there is
// none, and no line says one "holds" or speaks of a "private mechanism"
// that does not exist (at ε = ∞ no "total" line says "the guarantee
// holds per trial").
func TestNoPrivacyStatementsAreTrue(t *testing.T) {
	data := rowsCSV(t)
	sc := []string{"--scenario", "linreg-t", "--d", "2", "--n", "500", "--trials", "2"}
	cases := []struct {
		name string
		args []string
	}{
		{"scenario run", append([]string{"run", "--eps", "inf"}, sc...)},
		{"scenario run JSON", append([]string{"run", "--eps", "inf", "--json"}, sc...)},
		{"dp-sgd", append([]string{"run", "--eps", "inf", "--solver", "dp-sgd"}, sc...)},
		{"comparison", append([]string{"run", "--eps", "inf", "--solvers", "acsa,dp-sgd"}, sc...)},
		{"comparison with sgd", append([]string{"run", "--solvers", "acsa,nonprivate-schedule"}, sc...)},
		{"sweep", append([]string{"sweep", "--eps", "inf", "--vary", "n", "--from", "200", "--to", "400", "--points", "2"}, sc[:4]...)},
		{"user rows", []string{"run", "--data", data, "--rk", "2", "--beta", "1", "--eps", "inf", "--trials", "2"}},
		{"user rows JSON", []string{"run", "--data", data, "--rk", "2", "--beta", "1", "--eps", "inf", "--trials", "2", "--json"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := dpsoCLI(c.args...)
			if code != 0 {
				t.Errorf("%s: status %d: %s", c.name, code, errs)
				return
			}
			if !strings.Contains(out, "no privacy guarantee") {
				t.Errorf("%s: the output does not say there is no privacy guarantee:\n%s", c.name, out)
			}
			for _, bad := range []string{"guarantee holds", "private mechanism", "spent in all not private"} {
				if strings.Contains(out, bad) {
					t.Errorf("%s: the output says %q although nothing is private:\n%s", c.name, bad, out)
				}
			}
		})
	}
}
