package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/internal/testutil/golden"
	"dpso/scenarios"
	"dpso/solvers/oracle"
	"dpso/theory"
)

var runArgs = []string{"run", "--scenario", "linreg-t", "--d", "3", "--n", "3000", "--trials", "3", "--seed", "7"}

// runSpec is the Spec runArgs describe.
var runSpec = spec.Spec{Scenario: scenarios.LinRegT, D: 3, N: 3000, Trials: 3, Seed: 7}

// resolved is runSpec resolved.
func resolved(t *testing.T, s spec.Spec) spec.Resolved {
	t.Helper()
	r, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRunJSONShapeAndValues(t *testing.T) {
	code, out, errs := dpsoCLI(append(slices.Clone(runArgs), "--json", "--emit-w")...)
	if code != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	golden.Equal(t, "run.shape.json", jsonShape(t, out))
	// The document's keys, in order.
	want := []string{"citation", "scenario", "class", "solver", "oracle", "n", "d", "k", "eps", "seed", "rand", "private", "params", "privacy", "excess_risk", "trials",
		"w0_excess", "nonprivate_reference", "clipped", "certificate", "bounds", "notes"}
	if got := topKeys(t, out); !slices.Equal(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}

	// Values: those of the engine at the same Spec.
	rep, err := engine.Run(context.Background(), resolved(t, runSpec), nil)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Scenario, Class, Solver, Oracle string
		N, D                            int
		K, Eps                          float64
		Seed                            uint64
		Params                          struct {
			Iters, Batch      int
			Clip, Sigma, Step float64
			Prescribed        bool
			Overridden        []string
		}
		ExcessRisk struct {
			Mean, Stderr, EvalStderr float64
			Kind, Method             string
		} `json:"excess_risk"`
		Trials []struct {
			Trial      int
			Seed       uint64
			ExcessRisk float64 `json:"excess_risk"`
			W          []float64
		}
		Bounds   []theory.Bound
		Notes    []string
		W0Excess struct {
			Value, Stderr   float64
			Method, Meaning string
		} `json:"w0_excess"`
		Clipped struct {
			Value float64
		}
		Certificate struct {
			ID      string
			Value   float64
			Vacuous bool
			Terms   []struct {
				Name  string
				Value float64
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	// The reference numbers: F(w₀) − F* at w₀ = 0 is ½(w*)ᵀΣw* (first
	// principles: F(w) − F* = ½(w − w*)ᵀΣ(w − w*) for the square loss),
	// with linreg-t's Σ = ν/(ν − 2)·I (multivariate t of scale I, ν = 6)
	// and ‖w*‖ = 0.5: ½·1.5·0.25 = 0.1875. The clipped fraction and the
	// certificate as the engine computed them, its value the sum of its
	// terms.
	if math.Abs(j.W0Excess.Value-0.1875) > 1e-12 || j.W0Excess.Value != rep.W0.Mean || j.W0Excess.Method != "closed form" || j.W0Excess.Meaning == "" {
		t.Errorf("w0_excess %+v, want 0.1875 (engine %g)", j.W0Excess, rep.W0.Mean)
	}
	if j.Clipped.Value != rep.Clipped || !(j.Clipped.Value >= 0 && j.Clipped.Value <= 1) {
		t.Errorf("clipped %g, engine %g", j.Clipped.Value, rep.Clipped)
	}
	var sum float64
	for _, tm := range j.Certificate.Terms {
		sum += tm.Value
	}
	if c := rep.Certified.Cert; c == nil || j.Certificate.ID != c.ID || j.Certificate.Value != c.Value || math.Abs(sum-c.Value) > 1e-12*c.Value ||
		j.Certificate.Vacuous != (c.Value >= rep.W0.Mean) {
		t.Errorf("certificate %+v, engine %+v", j.Certificate, rep.Certified)
	}
	p := rep.Params
	switch {
	case j.Scenario != "linreg-t" || j.Class != "smooth-convex" || j.Solver != "acsa" || j.Oracle != "clip-gaussian":
		t.Errorf("problem %q %q %q %q", j.Scenario, j.Class, j.Solver, j.Oracle)
	case j.N != 3000 || j.D != 3 || j.K != 2 || j.Eps != 1 || j.Seed != 7:
		t.Errorf("n, d, k, ε, seed = %d %d %g %g %d", j.N, j.D, j.K, j.Eps, j.Seed)
	case j.Params.Iters != p.Iters || j.Params.Batch != p.Batch || j.Params.Clip != p.Clip || j.Params.Sigma != p.Sigma ||
		j.Params.Step != p.Step || !j.Params.Prescribed || len(j.Params.Overridden) != 0:
		t.Errorf("params %+v, engine %+v", j.Params, p)
	case j.ExcessRisk.Mean != rep.Excess.Mean || j.ExcessRisk.Stderr != rep.Excess.SE || j.ExcessRisk.Kind != "population" ||
		j.ExcessRisk.Method != "closed form" || j.ExcessRisk.EvalStderr != 0:
		t.Errorf("excess %+v, engine %+v", j.ExcessRisk, rep.Excess)
	case len(j.Trials) != 3 || len(j.Bounds) != len(rep.Bounds) || !slices.Equal(j.Notes, append(slices.Clone(rep.Notes), rep.RefNotes...)):
		t.Errorf("%d trials, %d bounds (engine %d), notes %q", len(j.Trials), len(j.Bounds), len(rep.Bounds), j.Notes)
	}
	for i, tr := range j.Trials {
		e := rep.Trials[i]
		if tr.Trial != i || tr.Seed != 7 || tr.ExcessRisk != e.Excess || !slices.Equal(tr.W, e.W) {
			t.Errorf("trial %d: %+v, engine %g %v", i, tr, e.Excess, e.W)
		}
	}
	for i, b := range j.Bounds {
		if b.ID != rep.Bounds[i].ID || b.Value != rep.Bounds[i].Value {
			t.Errorf("bound %d: %s = %g, engine %s = %g", i, b.ID, b.Value, rep.Bounds[i].ID, rep.Bounds[i].Value)
		}
	}
	// Privacy: ρ = ε²/2 = 0.5 (DESIGN: zCDP ε); ε' of the μ = 1 Gaussian
	// mechanism at δ = 1e-5 (dp_accounting: 4.37718); the ledger's spent ρ
	// never exceeds the budget, and acsa's disjoint batches spend it all.
	var priv map[string]any
	json.Unmarshal([]byte(out), &struct {
		P *map[string]any `json:"privacy"`
	}{&priv})
	if priv["model"] != "zcdp" || priv["rho"] != 0.5 || priv["delta"] != 1e-5 || priv["eps_exact"] != theory.EpsExact(1, 1e-5) ||
		math.Abs(priv["eps_exact"].(float64)-4.37718) > 5e-6 || math.Abs(priv["spent_rho"].(float64)-0.5) > 1e-12 {
		t.Errorf("privacy %v", priv)
	}
	if _, ok := priv["spent_eps"]; ok {
		t.Errorf("zCDP run reports spent_eps: %v", priv)
	}
}

func TestRunSameSeedSameBytes(t *testing.T) {
	var outs []string
	for _, extra := range [][]string{{"--workers", "1"}, {"--workers", "3"}, {}} {
		code, out, errs := dpsoCLI(append(append(slices.Clone(runArgs), "--json", "--emit-w"), extra...)...)
		if code != 0 {
			t.Fatalf("status %d: %s", code, errs)
		}
		outs = append(outs, uncited(out))
	}
	if outs[0] != outs[1] || outs[0] != outs[2] {
		t.Error("same seed, different JSON (1 worker, 3 workers, GOMAXPROCS)")
	}
	_, other, _ := dpsoCLI("run", "--scenario", "linreg-t", "--d", "3", "--n", "3000", "--trials", "3", "--seed", "8", "--json")
	if uncited(other) == outs[2] {
		t.Error("seeds 7 and 8 gave the same JSON")
	}
}

func TestRunCSV(t *testing.T) {
	code, out, errs := dpsoCLI(append(slices.Clone(runArgs), "--csv")...)
	if code != 0 || errs != "" {
		t.Fatalf("status %d: %s", code, errs)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows[0], []string{"trial", "grad_evals", "excess_risk", "dpso_version", "command", "rand", "seed", "data_sha256"}) {
		t.Fatalf("header %v", rows[0])
	}
	rep, err := engine.Run(context.Background(), resolved(t, runSpec), nil)
	if err != nil {
		t.Fatal(err)
	}
	i := 1
	for _, tr := range rep.Trials {
		for _, p := range tr.Trace {
			want := []string{strconv.Itoa(tr.Trial), strconv.FormatInt(p.GradEvals, 10), strconv.FormatFloat(p.Excess, 'g', -1, 64)}
			if i >= len(rows) || !slices.Equal(rows[i][:3], want) {
				t.Fatalf("row %d: %v, want %v", i, rows[min(i, len(rows)-1)], want)
			}
			i++
		}
		// The trace ends at the trial's output.
		if last := rows[i-1]; last[2] != strconv.FormatFloat(tr.Excess, 'g', -1, 64) {
			t.Errorf("trial %d: last row %v, output excess %g", tr.Trial, last, tr.Excess)
		}
	}
	if i != len(rows) {
		t.Errorf("%d rows, want %d", len(rows), i)
	}
}

func TestRunHumanTable(t *testing.T) {
	code, out, errs := dpsoCLI(append(slices.Clone(runArgs), "--emit-w")...)
	if code != 0 || errs != "" {
		t.Fatalf("status %d: %s", code, errs)
	}
	lines := strings.Split(out, "\n")
	keys := []string{"scenario", "class", "solver", "oracle", "n, d", "k, ε", "trials", "parameters", "privacy", "total", "excess risk"}
	col := -1
	for i, k := range keys {
		l := lines[i]
		if !strings.HasPrefix(l, k+" ") {
			t.Fatalf("line %d %q does not start with %q:\n%s", i, l, k, out)
		}
		// Values are aligned (tabwriter counts runes).
		v := utf8.RuneCountInString(l) - utf8.RuneCountInString(strings.TrimLeft(l[len(k):], " "))
		if col < 0 {
			col = v
		} else if v != col {
			t.Errorf("line %q: value at column %d, want %d", l, v, col)
		}
	}
	for _, w := range []string{"linreg-t", "smooth-convex (smooth convex)", "n, d         3000, 3", "k = 2, zCDP ε = 1", "3 (seed 7, seeded",
		"— prescribed", "ρ = ε²/2 = 0.5 zCDP", "ε' = 4.37718 (exact, Gaussian mechanism)", "spent ρ = 0.5",
		"(mean ± s.e. over 3 trials; median ", "); population, closed form", "w (trial 0) = [", "w (trial 2) = [",
		"BOUND", "smooth-convex-acsa", "lower-convex", "Rates, every constant set to 1",
		"start point  0.1875 = F(w₀) − F* at w₀ = 0, the excess risk of doing nothing (closed form)",
		"certificate  acsa-generic-sum = ", "certified at these parameters", "clipped      "} {
		if !strings.Contains(out, w) {
			t.Errorf("table lacks %q:\n%s", w, out)
		}
	}
}

func TestRunOverrides(t *testing.T) {
	code, out, errs := dpsoCLI(append(slices.Clone(runArgs), "--iters", "5", "--clip", "2", "--step", "0.5", "--rk", "40", "--json")...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	var j struct {
		Params struct {
			Iters      int
			Clip, Step float64
			Prescribed bool
			Overridden []string
		}
		Notes []string
	}
	json.Unmarshal([]byte(out), &j)
	if j.Params.Iters != 5 || j.Params.Clip != 2 || j.Params.Step != 0.5 || j.Params.Prescribed ||
		!slices.Equal(j.Params.Overridden, []string{"iters", "clip", "step"}) {
		t.Errorf("params %+v", j.Params)
	}
	notes := strings.Join(j.Notes, "\n")
	for _, w := range []string{"user-given constants", "prescription is not in force"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q: %q", w, notes)
		}
	}
	_, human, _ := dpsoCLI(append(slices.Clone(runArgs), "--iters", "5")...)
	if !strings.Contains(human, "overridden: iters (the theorem's prescription is not in force)") {
		t.Errorf("table does not say what is overridden:\n%s", human)
	}
}

func TestRunNonPrivateBaselineSaysSo(t *testing.T) {
	code, out, _ := dpsoCLI(append(slices.Clone(runArgs), "--solver", "nonprivate-schedule", "--json")...)
	if code != 0 {
		t.Fatal(code)
	}
	var j struct{ Privacy map[string]any }
	json.Unmarshal([]byte(out), &j)
	if j.Privacy["model"] != "none" || j.Privacy["rho"] != nil || j.Privacy["eps_exact"] != nil || j.Privacy["spent_rho"] != nil {
		t.Errorf("sgd's privacy %v, want model none and nulls", j.Privacy)
	}
	_, human, _ := dpsoCLI(append(slices.Clone(runArgs), "--solver", "nonprivate-schedule")...)
	if !strings.Contains(human, "none: nonprivate-schedule is the non-private baseline") || strings.Contains(human, "zCDP;") {
		t.Errorf("sgd's table claims privacy:\n%s", human)
	}
}

func TestRunShuffleOracle(t *testing.T) {
	code, out, errs := dpsoCLI(append(slices.Clone(runArgs), "--oracle", "shuffle-clip", "--delta", "1e-7", "--json")...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	var j struct{ Privacy map[string]any }
	json.Unmarshal([]byte(out), &j)
	p := j.Privacy
	if p["model"] != "shuffle" || p["rho"] != nil || p["delta"] != 1e-7 || p["eps_exact"] != 1.0 ||
		!(p["spent_eps"].(float64) <= 1) || !(p["spent_delta"].(float64) <= 1e-7) {
		t.Errorf("shuffle privacy %v", p)
	}
}

func TestRunDryRun(t *testing.T) {
	code, out, errs := dpsoCLI(append(slices.Clone(runArgs), "--dry-run", "--json")...)
	if code != 0 || errs != "" {
		t.Fatalf("status %d: %s", code, errs)
	}
	p, err := engine.Prescribe(context.Background(), resolved(t, runSpec))
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Params     struct{ Iters, Batch int }
		ExcessRisk any `json:"excess_risk"`
		Trials     []any
		Privacy    map[string]any
	}
	json.Unmarshal([]byte(out), &j)
	if j.Params.Iters != p.Params.Iters || j.Params.Batch != p.Params.Batch || j.ExcessRisk != nil || len(j.Trials) != 0 ||
		j.Privacy["spent_rho"] != nil || j.Privacy["rho"] != 0.5 {
		t.Errorf("dry run %s", out)
	}
	if code, _, errs := dpsoCLI(append(slices.Clone(runArgs), "--dry-run", "--csv")...); code != 2 || !strings.Contains(errs, "--dry-run") {
		t.Errorf("--dry-run --csv: status %d, %q", code, errs)
	}
}

func TestRunUserData(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "points.csv")
	os.WriteFile(good, []byte("a1,a2,y\n1,0,1\n0,2,-1\n-1,1,0.5\n2,-1,-1\n0.5,0.5,0\n1,1,2\n"), 0o644)
	code, out, errs := dpsoCLI("run", "--data", good, "--rk", "3", "--beta", "1", "--trials", "2", "--json")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	var j map[string]any
	json.Unmarshal([]byte(out), &j)
	if j["scenario"] != nil || j["data"] != good || j["loss"] != "squared" || j["n"] != 6.0 || j["d"] != 2.0 ||
		j["excess_risk"].(map[string]any)["kind"] != "empirical" {
		t.Errorf("user data run %v", j)
	}
	// On user data F(w₀) − F* and the clipped fraction are computed on the
	// rows outside the mechanism: non-private diagnostics, marked so.
	for _, k := range []string{"w0_excess", "clipped"} {
		d, ok := j[k].(map[string]any)
		if !ok || d["private"] != false || !strings.Contains(fmt.Sprint(d), "non-private diagnostic") {
			t.Errorf("%s on user data: %v, want \"private\": false and the reason", k, j[k])
		}
	}
	// With T, C and the step given, no constant is needed.
	if code, _, errs := dpsoCLI("run", "--data", good, "--iters", "2", "--clip", "1", "--step", "0.1", "--trials", "2"); code != 0 {
		t.Errorf("overridden run on data: status %d, %s", code, errs)
	}
}

func TestRunPlot(t *testing.T) {
	dir := t.TempDir()
	pngPath, svgPath := filepath.Join(dir, "trace.png"), filepath.Join(dir, "trace.svg")
	for _, p := range []string{pngPath, svgPath} {
		code, out, errs := dpsoCLI(append(slices.Clone(runArgs), "--json", "--plot", p)...)
		if code != 0 || errs != "" || !json.Valid([]byte(out)) {
			t.Fatalf("--plot %s: status %d, stderr %q", p, code, errs)
		}
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("the PNG does not decode: %v", err)
	}
	b, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	checkSVG(t, b)
	// A failed run leaves no figure behind.
	failed := filepath.Join(dir, "failed.png")
	if code, _, _ := dpsoCLI("run", "--scenario", "linreg-t", "--solver", "lipschitz-dpsgd", "--plot", failed); code != 2 {
		t.Errorf("status %d", code)
	}
	if _, err := os.Stat(failed); !os.IsNotExist(err) {
		t.Errorf("a failed run left %s (%v)", failed, err)
	}
}

// checkSVG checks that b is well-formed XML with an <svg> root.
func checkSVG(t *testing.T, b []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("SVG root %q", root)
	}
}

func TestRunReferenceStatesDefaults(t *testing.T) {
	code, help, _ := dpsoCLI("run", "--help")
	if code != 0 {
		t.Fatal(code)
	}
	for _, w := range []string{"dpso list", "--noise", "--curvature", "--work-budget", "null"} {
		if !strings.Contains(help, w) {
			t.Errorf("run --help lacks %q", w)
		}
	}
	ref := runDetails()
	for _, w := range []string{"trials = 5", "N      K", "ε = 1", "SCENARIO", "linreg-t", "ν = 6 in (2, 200]", "smooth-convex, smooth-sc, ppl", "130"} {
		if !strings.Contains(ref, w) {
			t.Errorf("run's reference lacks %q", w)
		}
	}
	if strings.Contains(help+ref, "NaN") {
		t.Error("run's help or reference shows NaN")
	}
}

// `dpso run --solver dp-sgd --eps 1 --json`:
// the privacy block names the accountant and gives the accounted (ε', δ),
// at most 4.3772 at δ = 1e-5, the exact ε' of ρ = ½ (dp_accounting's
// Gaussian value 4.37718), with the PLD's proved lower bound below it.
// dp-sgd is no ρ-zCDP release: ρ = ½ and its exact ε' are the target its
// noise was calibrated to ("target"), the block's and the total's "rho"
// and "eps_exact" are null, and its oracle is its own noisy sum.
func TestRunDPSGDPrivacyJSON(t *testing.T) {
	code, out, errs := dpsoCLI("run", "--solver", "dp-sgd", "--eps", "1", "--trials", "2", "--n", "5000", "--json")
	if code != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	var j struct {
		Oracle  string
		Privacy struct {
			Model, Accountant string
			EpsDelta          struct {
				Eps, Delta float64
				EpsLower   float64 `json:"eps_lower"`
			} `json:"eps_delta"`
			Target *struct {
				Rho, Delta float64
				EpsExact   float64 `json:"eps_exact"`
			}
			Rho      *float64
			EpsExact *float64 `json:"eps_exact"`
			Total    struct {
				Rho *float64
				Eps float64
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	p := j.Privacy
	if p.Target == nil {
		t.Fatalf("no privacy.target: %s", out)
	}
	if p.Model != "accountant" || p.Accountant != "pld" || p.EpsDelta.Delta != 1e-5 ||
		!(p.EpsDelta.Eps <= 4.3772) || !(p.EpsDelta.Eps <= p.Target.EpsExact) || p.EpsDelta.Eps < 4.3 ||
		!(p.EpsDelta.EpsLower <= p.EpsDelta.Eps) || p.EpsDelta.EpsLower < 4.3 {
		t.Errorf("privacy %+v", p)
	}
	if p.Target.Rho != 0.5 || p.Target.Delta != 1e-5 || p.Target.EpsExact != theory.EpsExact(1, 1e-5) {
		t.Errorf("target %+v, want ρ = 0.5, δ = 1e-5 and the exact ε' of ρ = 0.5", *p.Target)
	}
	if p.Rho != nil || p.EpsExact != nil || p.Total.Rho != nil || p.Total.Eps != p.EpsDelta.Eps {
		t.Errorf("dp-sgd claims a zCDP ρ: rho %v, eps_exact %v, total.rho %v (total.eps %v)", p.Rho, p.EpsExact, p.Total.Rho, p.Total.Eps)
	}
	if j.Oracle != oracle.NoisySumName {
		t.Errorf("oracle %q, want %q (dp-sgd's own estimate)", j.Oracle, oracle.NoisySumName)
	}
	// The table says the same; a zCDP solver's JSON keeps its ρ.
	code, out, _ = dpsoCLI("run", "--solver", "dp-sgd", "--eps", "1", "--trials", "2", "--n", "5000")
	if code != 0 || !strings.Contains(out, "oracle       noisy-sum — dp-sgd's own estimate, not a registered oracle") {
		t.Errorf("dp-sgd's oracle line:\n%s", out)
	}
	code, out, _ = dpsoCLI("run", "--eps", "1", "--trials", "2", "--n", "5000", "--json")
	var z struct {
		Privacy struct {
			Target   any
			Rho      *float64
			EpsExact *float64 `json:"eps_exact"`
			Total    struct{ Rho *float64 }
		}
	}
	if err := json.Unmarshal([]byte(out), &z); code != 0 || err != nil || z.Privacy.Target != nil ||
		z.Privacy.Rho == nil || *z.Privacy.Rho != 0.5 || z.Privacy.EpsExact == nil || z.Privacy.Total.Rho == nil || *z.Privacy.Total.Rho != 0.5 {
		t.Errorf("a zCDP run's privacy block changed: %+v (%v)", z.Privacy, err)
	}
}

// TestRunDeltaReachesTheAccountant: --delta is the δ of dp-sgd's target
// and of its accounted (ε', δ), not only of the conversion shown.
func TestRunDeltaReachesTheAccountant(t *testing.T) {
	code, out, errs := dpsoCLI("run", "--solver", "dp-sgd", "--eps", "1", "--delta", "1e-7", "--accountant", "rdp", "--trials", "1", "--n", "3000", "--json")
	if code != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	var j struct {
		Privacy struct {
			Model, Accountant string
			Delta             float64
			EpsDelta          struct{ Eps, Delta float64 } `json:"eps_delta"`
			Target            struct {
				EpsExact float64 `json:"eps_exact"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	p := j.Privacy
	target := theory.EpsExact(1, 1e-7)
	if p.Model != "accountant" || p.Accountant != "rdp" || p.Delta != 1e-7 || p.EpsDelta.Delta != 1e-7 ||
		p.Target.EpsExact != target || !(p.EpsDelta.Eps <= target) || p.EpsDelta.Eps < 0.95*target {
		t.Errorf("privacy %+v, want the rdp accountant at δ = 1e-7 under ε' = %g", p, target)
	}
}

// TestRunJSONIsTheReport: `dpso run --json` prints report.Run's document
// of the engine's report at the same Spec, byte for byte but for its
// citation (the command line, which the explorer's export has not) — the
// document the explorer exports (tui's TestExportIsTheCLIDocument), so the
// two cannot drift.
func TestRunJSONIsTheReport(t *testing.T) {
	code, out, errs := dpsoCLI(append(slices.Clone(runArgs), "--json")...)
	if code != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q", code, errs)
	}
	rep, err := engine.Run(context.Background(), resolved(t, runSpec), nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := report.MarshalJSON(report.Run(rep, report.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if uncited(out) != string(want) {
		t.Errorf("dpso run --json\n%s\nreport.Run\n%s", out, want)
	}
}

// TestRunAssumption: --assumption noncentral makes a smooth class's
// prescription read r_k (the run says so: a "moments" row, the JSON's
// moments block, the lower bound under ass:boundednoncentral), and a
// non-smooth class refuses it with the deciding theorem's label; a bad
// name and an r̃ override are refused at resolution, naming the flag.
func TestRunAssumption(t *testing.T) {
	code, human, errs := dpsoCLI("run", "--scenario", "linreg-t", "--assumption", "noncentral", "--dry-run")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	for _, want := range []string{theory.Cite("moments      ass:boundednoncentral: r_2 = 12.9035 (sup_w"), "lower-convex-nc", "in place of r̃_2 = 29.6484)"} {
		if !strings.Contains(human, want) {
			t.Errorf("noncentral run lacks %q:\n%s", want, human)
		}
	}
	// At k = 2 the k-th moment is the second: named once (it read
	// "r_2 = 12.9035, r₂ = 12.9035"); at k = 2.5 both.
	if strings.Contains(human, "r₂ =") {
		t.Errorf("k = 2: the second moment named twice:\n%s", human)
	}
	if _, out, _ := dpsoCLI("run", "--scenario", "linreg-t", "--assumption", "noncentral", "--k", "2.5", "--dry-run"); !strings.Contains(out, ", r₂ = ") || !strings.Contains(out, "r_2.5 = ") {
		t.Errorf("k = 2.5: the moments row lacks r_k or r₂:\n%s", out)
	}
	_, out, _ := dpsoCLI("run", "--scenario", "linreg-t", "--assumption", "noncentral", "--dry-run", "--json")
	var j struct {
		Moments *struct {
			Assumption, Label string
			Rk, R2            float64
		}
	}
	json.Unmarshal([]byte(out), &j)
	// r₂ = √(E m⁴·((d + 2)(R + ‖w*‖)² + dσ²)) = √(4.5·37) at the defaults
	// (scenarios' TestSupClosedForms).
	if j.Moments == nil || j.Moments.Assumption != "noncentral" || j.Moments.Label != "ass:boundednoncentral" ||
		math.Abs(j.Moments.R2-math.Sqrt(166.5)) > 1e-9 || j.Moments.Rk != j.Moments.R2 {
		t.Errorf("moments block %+v", j.Moments)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--scenario", "hinge-t", "--assumption", "noncentral"}, theory.Cite("[thm: localization convex]")},
		{[]string{"--scenario", "absreg-t", "--class", "nonsmooth-sc", "--assumption", "coordinatewise"}, theory.Cite("[thm: localization strongly convex; lem: comparing assumptions]")},
		{[]string{"--scenario", "linreg-t", "--assumption", "central"}, "unknown assumption"},
		{[]string{"--scenario", "linreg-t", "--assumption", "noncentral", "--rk", "3"}, "--rk overrides"},
	} {
		t.Run(caseName(tc.args), func(t *testing.T) {
			code, _, errs := dpsoCLI(append([]string{"run", "--dry-run"}, tc.args...)...)
			if code != 2 || !strings.HasPrefix(errs, "dpso: --assumption: ") || !strings.Contains(errs, tc.want) {
				t.Errorf("%v: status %d, %q (want --assumption and %q)", tc.args, code, errs, tc.want)
			}
		})
	}
}

// TestRunBudgetCapped: a localized run whose schedule the work budget cuts
// is labelled budget-capped, not prescribed, and says that the theorem
// assumes the full schedule.
func TestRunBudgetCapped(t *testing.T) {
	args := []string{"run", "--scenario", "affine-hard", "--n", "10000", "--dry-run"}
	code, out, errs := dpsoCLI(args...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	if !strings.Contains(out, "— budget-capped: the work budget cut the prescribed T_i (the theorem assumes the full schedule)") || strings.Contains(out, "— prescribed") {
		t.Errorf("table:\n%s", out)
	}
	code, out, _ = dpsoCLI(append(args, "--json")...)
	var j struct {
		BudgetCapped bool `json:"budget_capped"`
		Params       struct {
			Prescribed bool `json:"prescribed"`
		} `json:"params"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || !j.BudgetCapped || j.Params.Prescribed {
		t.Errorf("JSON budget_capped %v, params.prescribed %v (status %d): want capped and not prescribed", j.BudgetCapped, j.Params.Prescribed, code)
	}
}
