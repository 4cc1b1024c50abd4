package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"dpso/internal/testutil/golden"
	"dpso/theory"
)

// jsonTopKeys is the keys of a JSON object, in order.
func jsonTopKeys(t *testing.T, doc string) []string {
	t.Helper()
	var keys []string
	dec := json.NewDecoder(strings.NewReader(doc))
	if _, err := dec.Token(); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var v any
		dec.Decode(&v)
	}
	return keys
}

func TestPrivacyGoldenJSON(t *testing.T) {
	code, out, errs := execTheoryCLI("privacy", "--eps", "1", "--json")
	if code != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	golden.Equal(t, "privacy_eps1.json", out)
}

// TestPrivacyJSONEchoesItsInputs: every `dpso privacy --json` document
// states its inputs first — the zCDP ε given and δ, the target ε' with
// --target-eps, the mechanism and the target with --accountant — then
// what it computed from them.
func TestPrivacyJSONEchoesItsInputs(t *testing.T) {
	for _, c := range []struct {
		args []string
		keys []string
		echo map[string]float64
	}{
		{[]string{"--eps", "0.5", "--delta", "1e-6"},
			[]string{"citation", "eps", "delta", "rho", "gdp_mu", "eps_bun_steinke", "eps_canonne_kamath_steinke", "eps_exact"},
			map[string]float64{"eps": 0.5, "delta": 1e-6}},
		{[]string{"--target-eps", "2", "--delta", "1e-6"},
			[]string{"citation", "target_eps", "delta", "zcdp_eps_exact", "rho_exact", "zcdp_eps_bun_steinke"},
			map[string]float64{"target_eps": 2, "delta": 1e-6}},
		{[]string{"--accountant", "rdp", "--noise-multiplier", "0.7", "--sampling-rate", "0.01", "--steps", "120"},
			[]string{"citation", "accountant", "adjacency", "sampling_rate", "steps", "delta", "noise_multiplier", "eps", "eps_lower", "discretisation_error"},
			map[string]float64{"sampling_rate": 0.01, "steps": 120, "delta": 1e-5, "noise_multiplier": 0.7}},
		{[]string{"--accountant", "rdp", "--target-eps", "3", "--sampling-rate", "0.01", "--steps", "120"},
			[]string{"citation", "accountant", "adjacency", "sampling_rate", "steps", "delta", "target_eps", "noise_multiplier", "eps", "eps_lower", "discretisation_error"},
			map[string]float64{"sampling_rate": 0.01, "steps": 120, "delta": 1e-5, "target_eps": 3}},
	} {
		t.Run(caseName(c.args), func(t *testing.T) {
			code, out, errs := execTheoryCLI(append([]string{"privacy", "--json"}, c.args...)...)
			if code != 0 {
				t.Fatalf("%v: status %d: %s", c.args, code, errs)
			}
			if keys := jsonTopKeys(t, out); !slices.Equal(keys, c.keys) {
				t.Errorf("%v: keys %v, want %v", c.args, keys, c.keys)
			}
			var m map[string]any
			json.Unmarshal([]byte(uncited(out)), &m)
			for k, v := range c.echo {
				if m[k] != v {
					t.Errorf("%v: %s = %v, want the input %v", c.args, k, m[k], v)
				}
			}
		})
	}
}

func TestPrivacyValues(t *testing.T) {
	var got struct {
		Rho, GDPMu, Delta, EpsBunSteinke, EpsExact float64
	}
	for _, c := range []struct {
		eps, delta string
		e, d       float64
	}{{"1", "1e-5", 1, 1e-5}, {"0.5", "1e-5", 0.5, 1e-5}, {"2", "0.001", 2, 1e-3}, {"0.05", "1e-10", 0.05, 1e-10}} {
		t.Run(fmt.Sprintf("eps=%s delta=%s", c.eps, c.delta), func(t *testing.T) {
			code, out, errs := execTheoryCLI("privacy", "--eps", c.eps, "--delta", c.delta, "--json")
			if code != 0 {
				t.Fatalf("status %d: %s", code, errs)
			}
			var m map[string]float64
			if err := json.Unmarshal([]byte(uncited(out)), &m); err != nil {
				t.Fatal(err)
			}
			got.Rho, got.GDPMu, got.Delta, got.EpsBunSteinke, got.EpsExact = m["rho"], m["gdp_mu"], m["delta"], m["eps_bun_steinke"], m["eps_exact"]
			rho := c.e * c.e / 2
			pr, _ := theory.Convert(c.e, c.d)
			if got.Rho != rho || got.GDPMu != c.e || got.Delta != c.d || m["eps_canonne_kamath_steinke"] != pr.EpsCKS ||
				got.EpsBunSteinke != theory.EpsBunSteinke(rho, c.d) || got.EpsExact != theory.EpsExact(c.e, c.d) {
				t.Errorf("ε=%s δ=%s: %+v", c.eps, c.delta, got)
			}
		})
	}
	// μ-GDP reference (dp_accounting): μ = 1, δ = 1e−5 → ε' = 4.37718.
	_, out, _ := execTheoryCLI("privacy", "--eps", "1", "--json")
	var m map[string]float64
	json.Unmarshal([]byte(uncited(out)), &m)
	if math.Abs(m["eps_exact"]-4.37718) > 5e-6 {
		t.Errorf("eps_exact %g, want 4.37718", m["eps_exact"])
	}
}

func TestPrivacyTarget(t *testing.T) {
	code, out, errs := execTheoryCLI("privacy", "--target-eps", "1", "--delta", "1e-5", "--json")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	var m map[string]float64
	if err := json.Unmarshal([]byte(uncited(out)), &m); err != nil {
		t.Fatal(err)
	}
	if e := theory.EpsExact(m["zcdp_eps_exact"], 1e-5); math.Abs(e-1) > 1e-9 {
		t.Errorf("zcdp_eps_exact %g converts back to ε' = %g, want 1", m["zcdp_eps_exact"], e)
	}
	if m["zcdp_eps_bun_steinke"] >= m["zcdp_eps_exact"] || m["rho_exact"] != m["zcdp_eps_exact"]*m["zcdp_eps_exact"]/2 {
		t.Errorf("target output %v", m)
	}
	code, out, _ = execTheoryCLI("privacy", "--target-eps", "1")
	if code != 0 || !strings.Contains(out, "zCDP ε, exact (Gaussian mechanism)") {
		t.Errorf("human target output (status %d):\n%s", code, out)
	}
}

func TestPrivacyHuman(t *testing.T) {
	code, out, errs := execTheoryCLI("privacy", "--eps", "1")
	if code != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	for _, s := range []string{"ρ = ε²/2", "0.5", "ε' Bun–Steinke", "5.29853", "ε' Canonne–Kamath–Steinke", "ε' exact (Gaussian mechanism)", "4.37718", "10⁻⁵"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

func TestPrivacyInvalidInput(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"privacy", "--eps", "0"}, []string{"--eps:", "[10⁻¹⁰⁰, 10¹⁰⁰]"}},
		{[]string{"privacy", "--eps", "-1"}, []string{"--eps:", "[10⁻¹⁰⁰, 10¹⁰⁰]"}},
		{[]string{"privacy", "--eps", "nan"}, []string{"--eps:", "[10⁻¹⁰⁰, 10¹⁰⁰]"}},
		{[]string{"privacy", "--eps", "inf"}, []string{"--eps:", "[10⁻¹⁰⁰, 10¹⁰⁰]"}},
		{[]string{"privacy", "--eps", "1", "--delta", "0"}, []string{"--delta:", "[10⁻³⁰⁰, 1)"}},
		{[]string{"privacy", "--eps", "1", "--delta", "1"}, []string{"--delta:", "[10⁻³⁰⁰, 1)"}},
		{[]string{"privacy", "--eps", "1", "--delta", "1.5"}, []string{"--delta:", "[10⁻³⁰⁰, 1)"}},
		{[]string{"privacy", "--eps", "1", "--delta", "x"}, []string{"--delta:", "[10⁻³⁰⁰, 1)"}},
		{[]string{"privacy"}, []string{"--eps: required", "[10⁻¹⁰⁰, 10¹⁰⁰]"}},
		{[]string{"privacy", "--delta", "1e-6"}, []string{"--eps: required"}},
		{[]string{"privacy", "--eps", "1", "--target-eps", "1"}, []string{"--eps and --target-eps", "[10⁻¹⁰⁰, 10¹⁰⁰]", "[0, ∞)"}},
		{[]string{"privacy", "--target-eps", "-1"}, []string{"--target-eps:", "[0, ∞)"}},
		{[]string{"privacy", "--target-eps", "inf"}, []string{"--target-eps:", "[0, ∞)"}},
		{[]string{"privacy", "--eps", "1", "now"}, []string{"takes no arguments"}},
	}
	for _, c := range cases {
		t.Run(caseName(c.args), func(t *testing.T) {
			code, out, errs := execTheoryCLI(c.args...)
			if code != 2 || out != "" || strings.Count(errs, "\n") != 1 {
				t.Errorf("%v: status %d, stdout %q, stderr %q: want 2, nothing, one line", c.args, code, out, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("%v: stderr %q lacks %q", c.args, errs, w)
				}
			}
		})
	}
}

// TestPrivacyAccountant: `dpso privacy --accountant --adjacency
// add-remove` (the practitioners' relation) against published values of
// tensorflow_privacy's compute_dp_sgd_privacy_test.py,
// test_compute_dp_sgd_example_privacy (q = 0.01, σ = 0.7, 120 steps,
// δ = 10⁻⁵): RDP 3.2392676 (no_microbatching_with_subsampling_rdp; within
// 10⁻³ relative), PLD 2.4612381
// (no_microbatching_with_subsampling_pld; inside the proved
// [eps_lower, eps], whose width is the reported discretisation error).
// With --target-eps the calibrated σ meets the target (never overshoots).
func TestPrivacyAccountant(t *testing.T) {
	type doc struct {
		Accountant      string
		NoiseMultiplier float64 `json:"noise_multiplier"`
		SamplingRate    float64 `json:"sampling_rate"`
		Steps           int
		Delta           float64
		Eps             float64
		EpsLower        *float64 `json:"eps_lower"`
		Err             *float64 `json:"discretisation_error"`
		TargetEps       *float64 `json:"target_eps"`
	}
	run := func(args ...string) doc {
		t.Helper()
		code, out, errs := execTheoryCLI(append([]string{"privacy", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: status %d: %s", args, code, errs)
		}
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	mech := []string{"--adjacency", "add-remove", "--noise-multiplier", "0.7", "--sampling-rate", "0.01", "--steps", "120", "--delta", "1e-5"}
	r := run(append([]string{"--accountant", "rdp"}, mech...)...)
	if r.Accountant != "rdp" || r.NoiseMultiplier != 0.7 || r.SamplingRate != 0.01 || r.Steps != 120 || r.Delta != 1e-5 ||
		math.Abs(r.Eps/3.2392676-1) > 1e-3 || r.EpsLower != nil || r.Err != nil || r.TargetEps != nil {
		t.Errorf("rdp: %+v, want ε' = 3.2392676", r)
	}
	p := run(append([]string{"--accountant", "pld"}, mech...)...)
	if p.Accountant != "pld" || p.EpsLower == nil || p.Err == nil || !(*p.EpsLower <= 2.4612381 && 2.4612381 <= p.Eps) ||
		math.Abs(*p.Err-(p.Eps-*p.EpsLower)) > 1e-12 || *p.Err > 0.05 {
		t.Errorf("pld: %+v, want [eps_lower, eps] ∋ 2.4612381", p)
	}
	c := run("--accountant", "pld", "--adjacency", "add-remove", "--sampling-rate", "0.01", "--steps", "120", "--target-eps", "2.4612381")
	if c.TargetEps == nil || *c.TargetEps != 2.4612381 || !(c.Eps <= 2.4612381) || math.Abs(c.NoiseMultiplier/0.7-1) > 0.02 {
		t.Errorf("calibrated: %+v, want σ ≈ 0.7 meeting ε' ≤ 2.4612381", c)
	}
	for _, bad := range []struct {
		args []string
		flag string
	}{
		{[]string{"--accountant", "moments", "--noise-multiplier", "1", "--sampling-rate", "0.1", "--steps", "10"}, "--accountant"},
		{[]string{"--accountant", "rdp", "--eps", "1", "--sampling-rate", "0.1", "--steps", "10"}, "--eps"},
		{[]string{"--accountant", "rdp", "--noise-multiplier", "1", "--steps", "10"}, "--sampling-rate"},
		{[]string{"--accountant", "rdp", "--noise-multiplier", "1", "--sampling-rate", "0.1"}, "--steps"},
		{[]string{"--accountant", "rdp", "--sampling-rate", "0.1", "--steps", "10"}, "--noise-multiplier"},
		{[]string{"--accountant", "rdp", "--noise-multiplier", "1", "--target-eps", "1", "--sampling-rate", "0.1", "--steps", "10"}, "--noise-multiplier"},
		{[]string{"--accountant", "rdp", "--noise-multiplier", "1", "--sampling-rate", "1.5", "--steps", "10"}, "--sampling-rate"},
		{[]string{"--accountant", "pld", "--noise-multiplier", "1", "--sampling-rate", "0.1", "--steps", "0"}, "--steps"},
		{[]string{"--noise-multiplier", "1", "--eps", "1"}, "--noise-multiplier"},
	} {
		t.Run(caseName(bad.args), func(t *testing.T) {
			code, _, errs := execTheoryCLI(append([]string{"privacy"}, bad.args...)...)
			if code != 2 || !strings.Contains(errs, bad.flag) {
				t.Errorf("%v: status %d, stderr %q, want 2 naming %s", bad.args, code, errs, bad.flag)
			}
		})
	}
}

// TestAdjacencyDoneWhen: dp-sgd at --eps 1 states its adjacency,
// replace-one, and its accounted ε' meets the exact ε' of ρ = ½ at
// δ = 10⁻⁵, 4.37718, under it; with --adjacency add-remove `dpso privacy`
// reproduces the practitioners' accounting of Opacus's test_prv_accountant
// case (σ = 1.5, q = 0.04, T = 2250: PRV 6.7774, RDP 7.3291 — opacus
// tests/accountants_test.py; our PLD is within its discretisation error,
// RDP within 10⁻³).
func TestAdjacencyDoneWhen(t *testing.T) {
	doc := runDoc(t, "run", "--solver", "dp-sgd", "--eps", "1", "--json")
	pv := obj(doc, "privacy")
	if pv["adjacency"] != "replace-one" || !(obj(pv, "eps_delta")["eps"].(float64) <= 4.37718) {
		t.Errorf("dp-sgd --eps 1: privacy %v, want replace-one and ε' ≤ 4.37718", pv)
	}
	mech := []string{"privacy", "--adjacency", "add-remove", "--noise-multiplier", "1.5", "--sampling-rate", "0.04", "--steps", "2250", "--delta", "1e-5", "--json"}
	pld := runDoc(t, append(mech, "--accountant", "pld")...)
	rdp := runDoc(t, append(mech, "--accountant", "rdp")...)
	if e := pld["eps"].(float64); pld["adjacency"] != "add-remove" || e < 6.76 || e > 6.78 {
		t.Errorf("PLD add-remove: %v, want ε' in [6.76, 6.78]", pld)
	}
	if e := rdp["eps"].(float64); math.Abs(e/7.3291-1) > 1e-3 {
		t.Errorf("RDP add-remove: ε' = %v, want 7.3291", e)
	}
	ro := runDoc(t, "privacy", "--accountant", "pld", "--noise-multiplier", "1.5", "--sampling-rate", "0.04", "--steps", "2250", "--delta", "1e-5", "--json")
	if ro["adjacency"] != "replace-one" || !(ro["eps"].(float64) > pld["eps"].(float64)) {
		t.Errorf("replace-one: %v, want more than add/remove's %v", ro["eps"], pld["eps"])
	}
	if code, _, errs := dpsoCLI("run", "--solvers", "acsa,dp-sgd", "--adjacency", "add-remove"); code != 2 || !strings.Contains(errs, "--adjacency") {
		t.Errorf("a comparison at add-remove: status %d, %s; want refused on --adjacency", code, errs)
	}
}
