package cli

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"dpso/internal/audit"
)

// auditKeys are the headline keys of `dpso audit --json`, in order.
var auditKeys = []string{"oracle", "eps", "delta", "trials", "mu_hat", "mu_lower", "mu_upper", "eps_lower", "violation"}

// auditJSON runs dpso audit … --json and returns its status, its document
// (keys in order, values decoded) and stderr.
func auditJSON(t *testing.T, args ...string) (int, []string, map[string]any, string) {
	t.Helper()
	code, out, errs := dpsoCLI(append(append([]string{"audit"}, args...), "--json")...)
	if code == 2 {
		t.Fatalf("%v: status 2: %s", args, errs)
	}
	if !strings.HasPrefix(out, "{\n  \"citation\": {") {
		t.Errorf("%v: the document does not begin with its citation", args)
	}
	dec := json.NewDecoder(strings.NewReader(uncited(out)))
	var keys []string
	doc := map[string]any{}
	if _, err := dec.Token(); err != nil {
		t.Fatalf("%v: not JSON: %v\n%s", args, err, out)
	}
	for dec.More() {
		k, _ := dec.Token()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		doc[k.(string)] = v
	}
	return code, keys, doc, errs
}

func num(t *testing.T, doc map[string]any, key string) float64 {
	t.Helper()
	x, ok := doc[key].(float64)
	if !ok {
		t.Fatalf("%s = %v, want a number", key, doc[key])
	}
	return x
}

// TestAuditCLIExitAndJSON: the headline JSON keys come first and in order,
// null exactly where a value does not apply, and the exit status is 0
// without a violation and 1 with one (the negative control), with one line
// on stderr saying so.
//
// Tolerances: at N = 20000 runs per input μ̂ has the standard error
// √(2/N + μ²/(4N)) ≈ 0.0106 at μ = 1 (audit's muSE), and 4 s.e. bound it;
// the negative control F = 1.5 has μ = 1.5, and MuLower lies about
// 8.3/√N ≈ 0.06 below μ (the Clopper–Pearson width at the middle
// threshold, audit.DefaultTrials' comment), far above ε = 1.
func TestAuditCLIExitAndJSON(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		nulls    []string // headline keys that must be null
		numbers  []string // headline keys that must be numbers
		muHat    float64  // expected μ̂ (NaN: not checked)
		negative bool
	}{
		{"clip-gaussian", []string{"--eps", "1", "--trials", "20000", "--seed", "3"}, 0,
			[]string{"delta", "eps_lower"}, []string{"mu_hat", "mu_lower", "mu_upper"}, 1, false},
		{"negative control", []string{"--eps", "1", "--trials", "20000", "--seed", "3", "--negative-control", "1.5"}, 1,
			[]string{"delta", "eps_lower"}, []string{"mu_hat", "mu_lower", "mu_upper"}, 1.5, true},
		{"coordinate odd m", []string{"--oracle", "coordinate", "--eps", "0.5", "--groups", "5", "--trials", "20000", "--seed", "4"}, 0,
			[]string{"delta", "eps_lower"}, []string{"mu_hat", "mu_lower", "mu_upper"}, 0.5, false},
		{"shuffle-clip", []string{"--oracle", "shuffle-clip", "--eps", "1", "--trials", "20000", "--seed", "5"}, 0,
			nil, []string{"delta", "mu_hat", "mu_lower", "eps_lower"}, math.NaN(), false},
		{"whole run", []string{"--solver", "acsa", "--iters", "1", "--n", "200", "--trials", "3000", "--seed", "6"}, 0,
			[]string{"delta", "eps_lower"}, []string{"mu_hat", "mu_lower", "mu_upper"}, 1, false},
		{"one run", []string{"--one-run", "--canaries", "200", "--seed", "7"}, 0,
			[]string{"mu_hat", "mu_upper"}, []string{"delta", "mu_lower", "eps_lower"}, math.NaN(), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, keys, doc, errs := auditJSON(t, tc.args...)
			if code != tc.code {
				t.Errorf("%s: status %d, want %d (stderr %q)", tc.name, code, tc.code, errs)
			}
			if len(keys) < len(auditKeys) || !slices.Equal(keys[:len(auditKeys)], auditKeys) {
				t.Errorf("%s: keys %v, want %v first", tc.name, keys, auditKeys)
			}
			for _, k := range tc.nulls {
				if doc[k] != nil {
					t.Errorf("%s: %s = %v, want null", tc.name, k, doc[k])
				}
			}
			for _, k := range tc.numbers {
				num(t, doc, k)
			}
			if v, _ := doc["violation"].(bool); v != (tc.code == 1) {
				t.Errorf("%s: violation %v with status %d", tc.name, doc["violation"], code)
			}
			if tc.code == 1 && (strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "VIOLATION")) {
				t.Errorf("%s: stderr %q, want one line saying VIOLATION", tc.name, errs)
			}
			if tc.code == 0 && errs != "" {
				t.Errorf("%s: stderr %q, want nothing", tc.name, errs)
			}
			if !math.IsNaN(tc.muHat) {
				mu, se := num(t, doc, "mu_hat"), num(t, doc, "mu_se")
				if math.Abs(mu-tc.muHat) > 4*se {
					t.Errorf("%s: μ̂ = %.4g ± %.2g, want %g within 4 s.e.", tc.name, mu, se, tc.muHat)
				}
				if lo, hi := num(t, doc, "mu_lower"), num(t, doc, "mu_upper"); !(lo <= mu && mu <= hi) {
					t.Errorf("%s: μ̂ = %.4g outside [%.4g, %.4g]", tc.name, mu, lo, hi)
				}
			}
			if tc.negative && num(t, doc, "mu_lower") <= num(t, doc, "eps") {
				t.Errorf("%s: the negative control was not caught: mu_lower %v", tc.name, doc["mu_lower"])
			}
		})
	}
}

// TestAuditCLINegativeControlScenario: a whole-run audit on a scenario's
// own dataset (linreg-t, d = 3, one oracle call: a Gaussian shift with
// μ = ε, see audit's TestRunAuditScenario) passes, and the same with
// --negative-control 1.5 is caught with status 1 (margin as above at
// N = 3000: MuLower ≈ 1.5 − 8.3/√3000 ≈ 1.35 > 1).
func TestAuditCLINegativeControlScenario(t *testing.T) {
	base := []string{"--solver", "acsa", "--scenario", "linreg-t", "--n", "500", "--d", "3", "--iters", "1", "--trials", "3000", "--seed", "24"}
	for _, f := range []string{"1", "1.5"} {
		t.Run("negative control "+f, func(t *testing.T) {
			code, _, doc, errs := auditJSON(t, append(slices.Clone(base), "--negative-control", f)...)
			want := 0
			if f != "1" {
				want = 1
			}
			if code != want || doc["audit"] != "run" || doc["solver"] != "acsa" || num(t, doc, "d") != 3 {
				t.Errorf("F = %s: status %d (want %d), audit %v, solver %v, d %v; stderr %q", f, code, want, doc["audit"], doc["solver"], doc["d"], errs)
			}
		})
	}
}

// TestAuditCLITable: the table says what every number is, and the help
// carries the explanation of what an audit proves.
func TestAuditCLITable(t *testing.T) {
	code, out, errs := dpsoCLI("audit", "--trials", "5000")
	if code != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	for _, want := range []string{"point estimate ± s.e.", "one-sided 95% confidence lower bound", "one-sided 95% confidence upper bound, valid when the outputs are a Gaussian shift", "no violation", "does not prove the claim"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	code, out, errs = dpsoCLI("audit", "--oracle", "shuffle-clip", "--trials", "5000")
	if code != 0 || !strings.Contains(out, "Gaussian-equivalent ε") || !strings.Contains(out, "noise waste") || !strings.Contains(out, "ε lower bound") {
		t.Errorf("shuffle table: status %d, stderr %q:\n%s", code, errs, out)
	}
	code, out, _ = dpsoCLI("audit", "--help")
	if code != 0 || !strings.Contains(out, audit.Explanation) {
		t.Errorf("audit --help (status %d) lacks the Explanation:\n%s", code, out)
	}
}

// TestAuditInvalidInput: every bad value or misplaced flag exits with
// status 2 and one line naming the flag.
func TestAuditInvalidInput(t *testing.T) {
	a := func(args ...string) []string { return append([]string{"audit"}, args...) }
	checkInvalid(t, []invalidRun{
		// Empty values are refused, naming the flag (--canary '' ran with the default).
		{[]string{"audit", "--solver", "acsa", "--n", "1000", "--canary", ""}, []string{"--canary:", "empty value"}},
		{[]string{"explore", "--preset", ""}, []string{"--preset:", "empty value"}},
		{[]string{"explore", "--out", ""}, []string{"--out:", "empty value"}},
		{a("--eps", "0"), []string{"--eps:", "[10⁻¹⁰⁰, ∞]"}},
		{a("--eps", "-1"), []string{"--eps:", "[10⁻¹⁰⁰, ∞]"}},
		{a("--eps", "inf"), []string{"--eps:", "no claim to test"}},
		{a("--eps", "nan"), []string{"--eps:"}},
		{a("--eps", "x"), []string{"--eps:", "not a number"}},
		{a("--trials", "5"), []string{"--trials:", "[1000, 10⁸]"}},
		{a("--trials", "1e9"), []string{"--trials:", "[1000, 10⁸]"}},
		{a("--negative-control", "0.5"), []string{"--negative-control:", "[1, 1000]"}},
		{a("--negative-control", "nan"), []string{"--negative-control:"}},
		{a("--oracle", "laplace"), []string{"--oracle:", "clip-gaussian"}},
		{a("--delta", "0.1"), []string{"--delta:", "shuffle oracles only"}},
		{a("--oracle", "shuffle-clip", "--delta", "0.7"), []string{"--delta:", "(0, 1/2)"}},
		{a("--oracle", "shuffle-clip", "--delta", "0"), []string{"--delta:", "[10⁻³⁰⁰, 1)"}},
		{a("--d", "0"), []string{"--d:", "[1, 10000]"}},
		{a("--d", "20000"), []string{"--d:", "[1, 10000]"}},
		{a("--s", "0"), []string{"--s:", "[1, 10⁶]"}},
		{a("--groups", "3"), []string{"--groups:", "coordinate-wise"}},
		{a("--oracle", "coordinate", "--groups", "9", "--s", "4"), []string{"--groups:", "m ≤ s"}},
		{a("--rand", "pseudo"), []string{"--rand:", "seeded or secure"}},
		{a("--seed", "-1"), []string{"--seed:"}},
		{a("--workers", "-1"), []string{"--workers:"}},
		{a("--scenario", "linreg-t"), []string{"--scenario applies to whole-run audits"}},
		{a("--iters", "3"), []string{"--iters applies to whole-run audits"}},
		{a("--canaries", "50"), []string{"--canaries applies to the one-run audit"}},
		{a("--canary", "first"), []string{"--canary applies to whole-run audits"}},
		{a("--one-run", "--solver", "acsa"), []string{"--one-run", "--solver", "one of them"}},
		{a("--one-run", "--oracle", "coordinate"), []string{"--oracle:", "ℓ2-clipping"}},
		{a("--one-run", "--canaries", "5"), []string{"--canaries:", "[10, 10000]"}},
		{a("--one-run", "--trials", "2000"), []string{"--trials applies to oracle and whole-run audits"}},
		{a("--one-run", "--s", "4"), []string{"--s applies to oracle audits"}},
		{a("--solver", "adam"), []string{"--solver:", "acsa"}},
		{a("--solver", "acsa", "--n", "1"), []string{"--n:", "[2, 10⁸]"}},
		{a("--solver", "acsa", "--n", "2000000"), []string{"--n:", "[2, 10⁶]"}},
		{a("--solver", "acsa", "--k", "1"), []string{"--k:", "[2, ∞]"}},
		{a("--solver", "acsa", "--iters", "-1"), []string{"--iters:"}},
		{a("--solver", "acsa", "--tail", "3"), []string{"--tail needs --scenario"}},
		{a("--solver", "acsa", "--noise", "1"), []string{"--noise needs --scenario"}},
		{a("--solver", "acsa", "--canary", "middle"), []string{"--canary:", "first or last"}},
		{a("--solver", "acsa", "--groups", "3"), []string{"--groups applies to oracle audits"}},
		{a("--solver", "acsa", "--scenario", "linreg-t", "--tail", "1"), []string{"--tail:", "(2, 200]"}},
		{a("--solver", "acsa", "--scenario", "nope"), []string{"--scenario:", "unknown scenario"}},
		{a("--solver", "acsa", "--scenario", "linreg-t", "--delta", "0.001"), []string{"--delta:", "shuffle oracles only"}},
		{a("--solver", "lipschitz-dpsgd", "--scenario", "linreg-t"), []string{"--solver lipschitz-dpsgd refuses:"}},
		{a("--solver", "dp-sgd"), []string{"--solver:", "accountant", "not implemented"}},
		{a("extra"), []string{"takes no arguments"}},
		{a("--bogus"), []string{`unknown flag "--bogus"`}},
	})
}
