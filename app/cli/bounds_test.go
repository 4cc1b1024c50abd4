package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"dpso/internal/testutil/golden"
	"dpso/theory"
)

// execTheoryCLI runs dpso in-process and returns the exit status, stdout
// and stderr.
func execTheoryCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

var smoothConvexArgs = []string{"bounds", "--class", "smooth-convex", "--n", "10000", "--d", "100", "--eps", "1",
	"--k", "4", "--diam", "1", "--r2", "1", "--rk", "2", "--beta", "1", "--lf", "1e6", "--json"}

// Every input given, k = ∞ with L_f = ∞ (so r̃_k = r̃_2k = L_f = ∞): every
// bound but none infinite... except those carrying the moments.
var allKInfArgs = []string{"bounds", "--n", "1e5", "--d", "20", "--eps", "0.5", "--k", "inf", "--diam", "2",
	"--r2", "3", "--beta", "2", "--mu", "1", "--lf", "inf", "--kappa-f", "10",
	"--r2-nc", "2", "--rk-nc", "inf", "--r2k-nc", "inf", "--g2", "0.5", "--gk", "inf", "--g2k", "inf",
	"--r2k-emp", "inf", "--r2k-emp4", "inf", "--delta", "1e-6", "--json"}

func TestBoundsGoldenJSON(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{{"bounds_smooth_convex.json", smoothConvexArgs}, {"bounds_all_kinf.json", allKInfArgs}} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := execTheoryCLI(c.args...)
			if code != 0 || errs != "" {
				t.Fatalf("%v: status %d, stderr %q", c.args, code, errs)
			}
			golden.Equal(t, c.name, out)
		})
	}
}

func TestBoundsJSONShapeAndValues(t *testing.T) {
	code, out, _ := execTheoryCLI(allKInfArgs...)
	if code != 0 {
		t.Fatalf("status %d", code)
	}
	// Shape: {"bounds":[{id, kind, source, formula, value, terms:[{name, value}],
	// dominant, conditions:[{text, holds}], rate_n, meaning}]}.
	var raw map[string][]map[string]any
	if err := json.Unmarshal([]byte(uncited(out)), &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw) != 1 || raw["bounds"] == nil {
		t.Fatalf("top level %v", raw)
	}
	wantKeys := []string{"conditions", "dominant", "formula", "id", "kind", "meaning", "rate_n", "source", "source_pdf", "terms", "value"}
	for _, b := range raw["bounds"] {
		var keys []string
		for k := range b {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, wantKeys) {
			t.Errorf("bound keys %v", keys)
		}
	}
	// Values: the same as the theory package's, null where infinite.
	var got struct{ Bounds []theory.Bound }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	p := theory.NewParams()
	p.N, p.Dim, p.Eps, p.K, p.Diam, p.R2, p.Beta, p.Mu, p.Lf, p.KappaF = 1e5, 20, 0.5, math.Inf(1), 2, 3, 2, 1, math.Inf(1), 10
	inf := math.Inf(1)
	p.R2NC, p.RkNC, p.R2kNC, p.G2, p.Gk, p.G2k, p.R2kEmp, p.R2kEmp4, p.Delta = 2, inf, inf, 0.5, inf, inf, inf, inf, 1e-6
	var want []theory.Bound
	for _, id := range theory.IDs() {
		b, err := theory.Evaluate(id, p)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		want = append(want, b)
	}
	if len(got.Bounds) != len(want) || len(want) != len(theory.IDs()) {
		t.Fatalf("%d bounds, want %d (all)", len(got.Bounds), len(want))
	}
	nInf := 0
	for i, w := range want {
		g := got.Bounds[i]
		if g.ID != w.ID || g.Value != w.Value || len(g.Terms) != len(w.Terms) || !slices.Equal(g.Conditions, w.Conditions) {
			t.Errorf("%s: CLI %+v, theory %+v", w.ID, g, w)
		}
		if !(g.RateN == w.RateN || math.IsNaN(g.RateN) && math.IsNaN(w.RateN)) {
			t.Errorf("%s: rate %g, theory %g", w.ID, g.RateN, w.RateN)
		}
		if math.IsInf(w.Value, 1) {
			nInf++
			if raw["bounds"][i]["value"] != nil || raw["bounds"][i]["rate_n"] != nil {
				t.Errorf("%s: infinite value printed as %v", w.ID, raw["bounds"][i]["value"])
			}
		}
	}
	// L_f = ∞ at k = ∞ makes every bound carrying r̃_k, r̃_2k or L_f infinite,
	// and r_k, r_2k, γ_k, γ_2k, R̃ are ∞ too; only those on r̃₂ (r₂, γ₂) alone
	// cannot be: none of the bounds.
	if nInf != len(want) {
		t.Errorf("%d infinite bounds, want all %d", nInf, len(want))
	}
}

func TestBoundsHumanTable(t *testing.T) {
	args := []string{"bounds", "--n", "1000", "--d", "10", "--eps", "8", "--k", "3", "--diam", "1", "--r2", "1", "--rk", "inf",
		"--r2k", "inf", "--beta", "1", "--mu", "1", "--lf", "inf", "--kappa-f", "2",
		"--r2-nc", "1", "--rk-nc", "inf", "--r2k-nc", "inf", "--g2", "1", "--gk", "inf", "--g2k", "inf",
		"--r2k-emp", "inf", "--r2k-emp4", "inf", "--delta", "0.01"}
	code, out, errs := execTheoryCLI(args...)
	if code != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	// The header, one row per bound, one line per failed condition (each
	// explains itself: "  id: ✗ text: the theorem does not cover …"), the
	// footer.
	failed := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "  ") && strings.Contains(l, ": ✗ ") && strings.HasSuffix(l, "the value is the formula's, not the theorem's") {
			failed++
		}
	}
	if len(lines) != 1+len(theory.IDs())+failed+1 || failed == 0 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	if !strings.HasPrefix(lines[0], "BOUND") || !strings.Contains(lines[0], "RATE N") {
		t.Errorf("header %q", lines[0])
	}
	// Columns are aligned: KIND starts at the same byte offset on every row
	// (ids and kinds are ASCII).
	col := strings.Index(lines[0], "KIND")
	for i, id := range theory.IDs() {
		row := lines[1+i]
		kind := row[min(col, len(row)):]
		if !strings.HasPrefix(row, id+" ") || !(strings.HasPrefix(kind, "upper ") || strings.HasPrefix(kind, "lower ") || strings.HasPrefix(kind, "prior ")) {
			t.Errorf("row %q not aligned under KIND at %d", row, col)
		}
		// Every bound is infinite here (r̃_k = r̃_2k = L_f = ∞): ∞ and no rate.
		if !strings.Contains(row, " ∞ ") || !strings.Contains(row, " — ") {
			t.Errorf("row %q: want value ∞ and rate —", row)
		}
	}
	// ε = 8 > √10: the localized bounds' condition fails.
	if !strings.Contains(out, ": ✗ ε ≤ √d") || !strings.Contains(out, "1 not met (below)") {
		t.Errorf("no failing condition shown:\n%s", out)
	}
}

func TestBoundsClassWithMissingInputs(t *testing.T) {
	code, out, errs := execTheoryCLI("bounds", "--class", "smooth-sc", "--n", "1000", "--d", "10", "--eps", "1",
		"--k", "2", "--r2", "1", "--rk", "1", "--beta", "1", "--mu", "1", "--json")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	want := "dpso bounds: not evaluated, inputs not given: prior-klz21-sc needs --kappa-f; prior-lipschitz-sc needs --lf\n"
	if errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	var got struct{ Bounds []theory.Bound }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Bounds) != 2 || got.Bounds[0].ID != theory.SmoothSCSGD || got.Bounds[1].ID != theory.LowerSC {
		t.Errorf("bounds %+v", got.Bounds)
	}
}

func TestBoundsInvalidInput(t *testing.T) {
	base := []string{"bounds", "--n", "100", "--d", "10", "--eps", "1", "--k", "2", "--diam", "1", "--r2", "1", "--rk", "1"}
	with := func(extra ...string) []string { return append(slices.Clone(base), extra...) }
	cases := []struct {
		args []string
		want []string // substrings of the one-line message
	}{
		{with("--n", "0"), []string{"--n:", "[1, 9.007199254740992·10¹⁵]"}},
		{with("--n", "1.5"), []string{"--n:", "not an integer"}},
		{with("--n", "-3"), []string{"--n:", "[1, "}},
		{with("--d", "0"), []string{"--d:", "[1, "}},
		{with("--eps", "0"), []string{"--eps:", "(0, ∞)"}},
		{with("--eps", "-1"), []string{"--eps:", "(0, ∞)"}},
		{with("--eps", "nan"), []string{"--eps:", "(0, ∞)"}},
		{with("--eps", "inf"), []string{"--eps:", "(0, ∞)"}},
		{with("--k", "1.5"), []string{"--k:", "[2, ∞]"}},
		{with("--k", "abc"), []string{"--k:", "[2, ∞]"}},
		{with("--diam", "0"), []string{"--diam:", "(0, ∞)"}},
		{with("--r2", "0"), []string{"--r2:", "(0, ∞]"}},
		{with("--rk", "-inf"), []string{"--rk:", "(0, ∞]"}},
		{with("--r2k", "0"), []string{"--r2k:", "(0, ∞]"}},
		{with("--beta", "-1"), []string{"--beta:", "[0, ∞)"}},
		{with("--beta", "inf"), []string{"--beta:", "[0, ∞)"}},
		{with("--mu", "0"), []string{"--mu:", "(0, ∞)"}},
		{with("--lf", "0"), []string{"--lf:", "(0, ∞]"}},
		{with("--kappa-f", "0.5"), []string{"--kappa-f:", "[1, ∞]"}},
		{with("--class", "convex"), []string{"--class:", "smooth-convex, smooth-sc, nonsmooth-convex, nonsmooth-sc, ppl"}},
		{with("--bogus", "1"), []string{"bogus"}},
		{with("extra"), []string{"takes no arguments"}},
		{[]string{"bounds"}, []string{"no bound has all its inputs given", "needs --n, --d, --eps"}},
		{[]string{"bounds", "--n", "10", "--class", "ppl"}, []string{"no bound of --class ppl", "--d, --eps"}},
	}
	for _, c := range cases {
		t.Run(caseName(c.args), func(t *testing.T) {
			code, out, errs := execTheoryCLI(c.args...)
			if code != 2 {
				t.Errorf("%v: status %d, want 2 (stderr %q)", c.args, code, errs)
			}
			if out != "" {
				t.Errorf("%v: stdout %q, want none", c.args, out)
			}
			if strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
				t.Errorf("%v: stderr %q is not one line", c.args, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("%v: stderr %q lacks %q", c.args, errs, w)
				}
			}
		})
	}
}

func TestBoundsFlagsMatchTheoryRanges(t *testing.T) {
	cmd := newBoundsCmd(&env{})
	var names []string // every input some bound needs
	for _, id := range theory.IDs() {
		for _, name := range theory.Needs(id) {
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	for _, name := range names {
		f := cmd.Flags().Lookup(name)
		if f == nil {
			t.Errorf("no flag --%s", name)
			continue
		}
		if name == "n" || name == "d" { // integer flags: [1, 2^53] ⊂ [1, ∞)
			continue
		}
		iv, _ := theory.ParamInterval(name)
		if want := "in " + iv.String(); !strings.HasSuffix(f.Usage, want) {
			t.Errorf("--%s usage %q does not end with %q", name, f.Usage, want)
		}
	}
	code, out, _ := execTheoryCLI("bounds", "--help")
	if code != 0 || strings.Contains(out, "NaN") || !strings.Contains(out, "--kappa-f") {
		t.Errorf("help (status %d) shows NaN defaults or lacks flags:\n%s", code, out)
	}
}
