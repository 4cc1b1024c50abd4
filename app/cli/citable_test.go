package cli

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"dpso/internal/testutil/userrows"
)

// outsideCSV writes user data whose empirical risk minimizer lies outside
// the default W = B(0, 1): y = 3a₁ − a₂ (exactly, no noise), so the
// unconstrained minimizer is w = (3, −1), of norm √10 ≈ 3.162.
func outsideCSV(t *testing.T) string {
	t.Helper()
	return userrows.Write(t, "outside.csv", 60, func(i int) []float64 {
		a1, a2 := float64(i%7)/3-1, float64(i%5)/2-1
		return []float64{a1, a2, 3*a1 - a2}
	})
}

func fileSHA(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// TestEveryOutputIsCitable: every JSON document carries its citation —
// the version line of dpso --version, the command line as given, the
// randomness and the seed where seeded (null with secure randomness) and,
// on --data, the file's SHA-256 — and every CSV the same as its last
// columns on every row.
func TestEveryOutputIsCitable(t *testing.T) {
	rows := rowsCSV(t)
	for _, c := range []struct {
		args       []string
		rand, data string
	}{
		{[]string{"run", "--trials", "2", "--seed", "7", "--json"}, "seeded", ""},
		{[]string{"run", "--solvers", "acsa,sgd", "--trials", "2", "--json"}, "seeded", ""},
		{[]string{"run", "--dry-run", "--json"}, "seeded", ""},
		{[]string{"run", "--data", rows, "--rk", "3", "--beta", "2", "--json"}, "secure", rows},
		{[]string{"sweep", "--vary", "eps", "--from", "0.5", "--to", "2", "--points", "2", "--trials", "2", "--json"}, "seeded", ""},
		{[]string{"privacy", "--eps", "1", "--json"}, "", ""},
		{[]string{"privacy", "--accountant", "rdp", "--noise-multiplier", "2", "--sampling-rate", "0.01", "--steps", "10", "--json"}, "", ""},
		{[]string{"moments", "--scenario", "example1", "--json"}, "", ""},
		{[]string{"moments", "--data", rows, "--json"}, "", rows},
		{[]string{"bounds", "--class", "smooth-convex", "--n", "1000", "--d", "2", "--eps", "1", "--diam", "2", "--rk", "1", "--r2", "1", "--beta", "1", "--json"}, "", ""},
		{[]string{"list", "--json"}, "", ""},
	} {
		t.Run(strings.Join(c.args[:2], " "), func(t *testing.T) {
			doc := runDoc(t, c.args...)
			cit := obj(doc, "citation")
			want := "dpso " + strings.Join(c.args, " ")
			if cit == nil || cit["command"] != want || cit["version"] != citedVersion() {
				t.Fatalf("citation %v, want the command %q and the version line", cit, want)
			}
			if got, _ := cit["rand"].(string); got != c.rand {
				t.Errorf("rand %q, want %q", got, c.rand)
			}
			if seed := cit["seed"]; (c.rand == "seeded") != (seed != nil) {
				t.Errorf("seed %v with randomness %q: a seed is stated exactly when seeded", seed, c.rand)
			}
			if c.data != "" && cit["data_sha256"] != fileSHA(t, c.data) {
				t.Errorf("data_sha256 %v, want the file's %s", cit["data_sha256"], fileSHA(t, c.data))
			}
		})
	}
	for _, args := range [][]string{
		{"run", "--trials", "2", "--csv"},
		{"run", "--solvers", "acsa,dp-sgd", "--trials", "2", "--csv"},
		{"sweep", "--vary", "eps", "--from", "0.5", "--to", "2", "--points", "2", "--trials", "2", "--csv"},
		{"run", "--data", rows, "--rk", "3", "--beta", "2", "--csv"},
	} {
		t.Run(caseName(args), func(t *testing.T) {
			code, out, errs := dpsoCLI(args...)
			if code != 0 {
				t.Fatalf("%q: %d %s", args, code, errs)
			}
			recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil || len(recs) < 2 {
				t.Fatalf("%q: %v (%d records)", args, err, len(recs))
			}
			head := recs[0]
			i := slices.Index(head, "dpso_version")
			if i < 0 || !slices.Equal(head[i:], []string{"dpso_version", "command", "rand", "seed", "data_sha256"}) {
				t.Fatalf("%q: header %v lacks the citation's columns", args, head)
			}
			for _, r := range recs[1:] {
				if r[i+1] != "dpso "+strings.Join(args, " ") {
					t.Fatalf("%q: row %v: command %q", args, r, r[i+1])
				}
				if slices.Contains(args, "--data") && (r[i+4] != fileSHA(t, rows) || r[i+3] != "" || r[i+2] != "secure") {
					t.Fatalf("%q: row %v: want secure, no seed, the file's hash", args, r)
				}
			}
		})
	}
}

// TestSweepCarriesTrialsAndQuartiles: a sweep's JSON rows carry each
// trial's value and the median and quartiles beside the mean (type 7: with
// the trials' own values the median of 3 is the middle one); its CSV
// states every parameter it held fixed (a clip sweep's ε, which it once
// lacked).
func TestSweepCarriesTrialsAndQuartiles(t *testing.T) {
	doc := runDoc(t, "sweep", "--vary", "eps", "--from", "0.5", "--to", "2", "--points", "2", "--trials", "3", "--json")
	for _, r := range doc["rows"].([]any) {
		row := r.(map[string]any)
		tr := row["trials"].([]any)
		if len(tr) != 3 {
			t.Fatalf("row %v: %d trial values, want 3", row, len(tr))
		}
		xs := []float64{tr[0].(float64), tr[1].(float64), tr[2].(float64)}
		mean := (xs[0] + xs[1] + xs[2]) / 3
		slices.Sort(xs)
		near := func(key string, want float64) bool {
			return math.Abs(row[key].(float64)-want) <= 1e-14*math.Abs(want)
		}
		if !near("mean", mean) || row["median"] != xs[1] || !near("q1", (xs[0]+xs[1])/2) || !near("q3", (xs[1]+xs[2])/2) {
			t.Errorf("row %v: mean, median or quartiles are not those of its trials %v", row, xs)
		}
	}
	code, out, errs := dpsoCLI("sweep", "--vary", "clip", "--from", "1", "--to", "100", "--points", "2", "--trials", "2", "--eps", "0.7", "--csv")
	if code != 0 {
		t.Fatal(errs)
	}
	recs, _ := csv.NewReader(strings.NewReader(out)).ReadAll()
	col := slices.Index(recs[0], "eps")
	if col < 0 || recs[1][col] != "0.7" || slices.Index(recs[0], "n") < 0 || slices.Index(recs[0], "median") < 0 {
		t.Errorf("clip sweep CSV header %v, first row %v: want the fixed ε (0.7), n and the median", recs[0], recs[1])
	}
}

// TestTwoParameterSweep: --vary eps,clip runs the grid of both and writes
// one long-format CSV: one row per (ε, C, solver), both parameters as
// columns and every fixed one beside them; each row is what the
// one-parameter clip sweep at that ε gives (the same rows, byte for byte).
func TestTwoParameterSweep(t *testing.T) {
	grid := []string{"sweep", "--vary", "eps,clip", "--from", "0.5", "--to", "2", "--points", "2", "--from2", "1", "--to2", "100", "--points2", "2",
		"--trials", "2", "--solvers", "acsa,nonprivate-schedule", "--csv"}
	code, out, errs := dpsoCLI(grid...)
	if code != 0 {
		t.Fatal(errs)
	}
	recs, _ := csv.NewReader(strings.NewReader(out)).ReadAll()
	head := recs[0]
	if !slices.Equal(head[:3], []string{"eps", "clip", "solver"}) || slices.Contains(head, "") || slices.Index(head, "n") < 0 || slices.Index(head, "k") < 0 {
		t.Fatalf("header %v", head)
	}
	if len(recs)-1 != 2*2*2 {
		t.Fatalf("%d rows, want 2 ε × 2 C × 2 solvers", len(recs)-1)
	}
	// The rows at ε = 2 are the clip sweep's at --eps 2, but for the eps
	// column and the citation.
	code, one, errs := dpsoCLI("sweep", "--vary", "clip", "--eps", "2", "--from", "1", "--to", "100", "--points", "2", "--trials", "2", "--solvers", "acsa,nonprivate-schedule", "--csv")
	if code != 0 {
		t.Fatal(errs)
	}
	single, _ := csv.NewReader(strings.NewReader(one)).ReadAll()
	cut := slices.Index(head, "dpso_version")
	var atTwo [][]string
	for _, r := range recs[1:] {
		if r[0] == "2" {
			atTwo = append(atTwo, r[1:cut])
		}
	}
	for i, r := range single[1:] {
		// The single sweep's columns: clip, solver, stats…, then the fixed
		// ones including eps; the grid's lack the eps column there.
		epsCol := slices.Index(single[0], "eps")
		want := slices.Delete(slices.Clone(r[:slices.Index(single[0], "dpso_version")]), epsCol, epsCol+1)
		if !slices.Equal(atTwo[i], want) {
			t.Errorf("row %d at ε = 2: grid %v, clip sweep %v", i, atTwo[i], want)
		}
	}
	for _, bad := range [][]string{
		{"sweep", "--vary", "clip,eps", "--from2", "0.5", "--to2", "2"},
		{"sweep", "--vary", "eps,eps", "--from", "0.5", "--to", "2"},
		{"sweep", "--vary", "eps,n", "--from", "0.5", "--to", "2"},
		{"sweep", "--vary", "eps", "--from", "0.5", "--to", "2", "--from2", "3"},
	} {
		t.Run(caseName(bad), func(t *testing.T) {
			if code, _, errs := dpsoCLI(bad...); code != 2 || !strings.Contains(errs, "--") {
				t.Errorf("%q: status %d, %s; want a usage error naming a flag", bad, code, errs)
			}
		})
	}
}

// TestNonPrivateReference: beside every run stands the empirical risk
// minimizer's excess risk on the same draws; it does not move with ε (the
// former "sgd" floor did: 2.84 at ε = 0.1, 0.165 at ε = 10) and is labelled
// non-private; sgd is accepted as the former name of nonprivate-schedule.
func TestNonPrivateReference(t *testing.T) {
	doc := runDoc(t, "sweep", "--scenario", "linreg-t", "--d", "3", "--n", "4000", "--vary", "eps", "--from", "0.1", "--to", "10", "--points", "3",
		"--trials", "2", "--solvers", "acsa,sgd", "--json")
	ref := obj(doc, "nonprivate_reference")
	vals := ref["values"].([]any)
	if ref["private"] != false || len(vals) != 3 || vals[0] == nil || vals[0] != vals[1] || vals[1] != vals[2] {
		t.Errorf("reference %v: want one non-private value at every ε", ref)
	}
	if s := doc["solvers"].([]any); s[1] != "nonprivate-schedule" {
		t.Errorf("solvers %v: sgd is nonprivate-schedule", s)
	}
	run := runDoc(t, "run", "--scenario", "linreg-t", "--d", "3", "--n", "4000", "--trials", "2", "--json")
	r := obj(run, "nonprivate_reference")
	if r["private"] != false || r["value"] != vals[0] {
		t.Errorf("run's reference %v, want the sweep's %v at its draws", r, vals[0])
	}
}

// TestNonPrivateReferenceSparesStreamedRuns: a one-pass run streams its
// draw in O(d) memory, so the reference, which minimizes over the whole
// draw, is not computed when the draw would pass 64 MiB (n = 10⁶ samples of
// d + 1 = 11 floats: 83.92 MiB): the JSON says why, and no value stands in
// for it.
func TestNonPrivateReferenceSparesStreamedRuns(t *testing.T) {
	doc := runDoc(t, "run", "--scenario", "linreg-t", "--class", "smooth-sc", "--n", "1000000", "--d", "10", "--iters", "2", "--trials", "1", "--json")
	r := obj(doc, "nonprivate_reference")
	if r["value"] != nil || !strings.Contains(r["note"].(string), "not computed") || !strings.Contains(r["note"].(string), "83.92 MiB") {
		t.Errorf("reference %v: want no value and a note that the 83.92 MiB draw is streamed", r)
	}
}

// TestUserDataGeometry: when the rows' empirical minimizer lies outside W
// the run says so with the two risks and how to choose --diam (the table's
// geometry row, the JSON's geometry block, labelled non-private), and that
// D = 2 was the default, not chosen from the rows; --estimate-constants
// prints every constant it estimated (table and JSON, non-private); dpso
// moments --data shows the rows' profile.
func TestUserDataGeometry(t *testing.T) {
	p := outsideCSV(t)
	doc := runDoc(t, "run", "--data", p, "--estimate-constants", "--json")
	g := obj(doc, "geometry")
	if g == nil || g["inside"] != false || g["private"] != false || math.Abs(g["minimizer_norm"].(float64)-math.Sqrt(10)) > 1e-3 ||
		!(g["risk_over_w"].(float64) > g["risk_unconstrained"].(float64)) || !strings.Contains(g["note"].(string), "--diam at least") {
		t.Errorf("geometry %v: want the minimizer's norm √10, the two risks and the advice", g)
	}
	notes := strings.Join(func() []string {
		var s []string
		for _, n := range doc["notes"].([]any) {
			s = append(s, n.(string))
		}
		return s
	}(), "\n")
	if !strings.Contains(notes, "D = 2: the default diameter on --data") {
		t.Errorf("notes %q: the default D is not stated", notes)
	}
	est := obj(doc, "estimated_constants")
	if est == nil || est["private"] != false {
		t.Fatalf("estimated constants %v", est)
	}
	for _, k := range []string{"r2", "r2k", "lf", "beta", "mu", "beta_f"} {
		t.Run(k, func(t *testing.T) {
			if v, ok := obj(est, "values")[k].(float64); !ok || !(v > 0) {
				t.Errorf("estimated %s = %v", k, obj(est, "values")[k])
			}
		})
	}
	code, table, errs := dpsoCLI("run", "--data", p, "--estimate-constants")
	if code != 0 || !strings.Contains(table, "geometry ") || !strings.Contains(table, "estimated ") || !strings.Contains(table, "NOT PRIVATE") {
		t.Errorf("table (%d, %s) lacks the geometry or estimated rows:\n%s", code, errs, table)
	}
	code, m, errs := dpsoCLI("moments", "--data", p)
	if code != 0 || !strings.Contains(m, "NOT PRIVATE") || !strings.Contains(m, "Moment profile of "+p) || !strings.Contains(m, "Geometry: W = B(0, 1) cuts off") {
		t.Errorf("moments --data (%d, %s):\n%s", code, errs, m)
	}
}

// TestLabelsAgree: the total says not private whenever any part is not
// (seeded noise on user rows); a refused solver is no release; a paired
// difference measured on the rows says "private": false; one trial has no
// standard error, and the line does not then speak of 2 s.e.; the sweep's
// help does not call --from and --to required for a clip sweep, and on
// user rows its header names every diagnostic column.
func TestLabelsAgree(t *testing.T) {
	rows := rowsCSV(t)
	doc := runDoc(t, "run", "--data", rows, "--rk", "3", "--beta", "2", "--rand", "seeded", "--json")
	if doc["private"] != false || obj(doc, "privacy", "total")["private"] != false {
		t.Errorf("seeded user-data run: private %v, total %v: the total must not say private", doc["private"], obj(doc, "privacy", "total"))
	}
	cmp := runDoc(t, "run", "--data", rows, "--rk", "3", "--beta", "2", "--trials", "2", "--solvers", "acsa,lipschitz-dpsgd", "--json")
	if rel := obj(cmp, "total")["releases"]; rel != 2.0 {
		t.Errorf("releases %v: acsa's 2 trials read the rows; lipschitz-dpsgd refused and released nothing", rel)
	}
	for _, d := range cmp["paired_differences"].([]any) {
		if d.(map[string]any)["private"] != false {
			t.Errorf("paired difference %v on user rows: want \"private\": false", d)
		}
	}
	code, out, _ := dpsoCLI("run", "--data", rows, "--rk", "3", "--beta", "2", "--eps", "0.01")
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "excess risk") {
			line = l
		}
	}
	if code != 0 || !strings.Contains(line, "one trial: no standard error") || strings.Contains(line, "2 s.e.") {
		t.Errorf("one trial's line %q", line)
	}
	_, help, _ := dpsoCLI("sweep", "--help")
	for _, l := range strings.Split(help, "\n") {
		if (strings.Contains(l, "--from ") || strings.Contains(l, "--to ")) && strings.Contains(l, "(required)") {
			t.Errorf("sweep --help: %q calls it required, but --vary clip runs without it", l)
		}
	}
	_, tab, errs := dpsoCLI("sweep", "--data", rows, "--rk", "3", "--beta", "2", "--vary", "clip", "--from", "1", "--to", "10", "--points", "2", "--rand", "seeded")
	if !strings.Contains(tab, "NOISE OFF, CLIP BIAS, CLIPPED") {
		t.Errorf("user-data clip sweep (%s): the header does not name NOISE OFF, CLIP BIAS and CLIPPED as diagnostics:\n%s", errs, tab)
	}
}
