package cli

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/internal/testutil/golden"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/theory"
)

type momentsOut struct {
	Scenario string
	Lf       *float64
	Moments  []struct {
		K      float64
		Value  *float64
		Stderr *float64
		Method string
	}
}

func momentsJSONOf(t *testing.T, args ...string) momentsOut {
	t.Helper()
	code, out, errs := dpsoCLI(append(append([]string{"moments"}, args...), "--json")...)
	if code != 0 || errs != "" {
		t.Fatalf("%v: status %d, %s", args, code, errs)
	}
	var m momentsOut
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMomentsJSONShape(t *testing.T) {
	code, out, errs := dpsoCLI("moments", "--scenario", "linreg-t", "--tail", "5", "--json")
	if code != 0 || errs != "" {
		t.Fatalf("status %d: %s", code, errs)
	}
	golden.Equal(t, "moments.shape.json", jsonShape(t, out))
	if got, want := topKeys(t, out), []string{"citation", "scenario", "lf", "moments", "noncentral", "coordinatewise", "grad_sup", "checks", "empirical", "contradictions"}; !slices.Equal(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
}

// TestMomentsExample1 checks the paper's Example 1 (example: gauss lin
// reg): r̃₂ ≤ 5, r̃₄ ≤ 8, r̃₈ ≤ 14 while L_f ≥ 10²⁰.
func TestMomentsExample1(t *testing.T) {
	m := momentsJSONOf(t, "--scenario", "example1")
	if m.Scenario != "example1" || m.Lf == nil || *m.Lf < 1e20 {
		t.Errorf("L_f %v, want ≥ 1e20", m.Lf)
	}
	limits := map[float64]float64{2: 5, 4: 8, 8: 14}
	found := 0
	for _, e := range m.Moments {
		if lim, ok := limits[e.K]; ok {
			found++
			if e.Value == nil || *e.Value > lim || *e.Value <= 0 {
				t.Errorf("r̃_%g = %v, the paper says ≤ %g", e.K, e.Value, lim)
			}
		}
	}
	if found != 3 {
		t.Errorf("moments at k = 2, 4, 8 missing: %+v", m.Moments)
	}
}

// TestMomentsTail: linreg-t with ν = 5 has r̃_k < ∞ iff k < ν/2 = 2.5 (the
// multivariate t's moments): null beyond, L_f null (unbounded gradients).
func TestMomentsTail(t *testing.T) {
	m := momentsJSONOf(t, "--scenario", "linreg-t", "--tail", "5")
	if m.Lf != nil {
		t.Errorf("L_f = %v, want null (∞)", *m.Lf)
	}
	r, err := spec.Spec{Scenario: "linreg-t", Tail: 5, Solver: "nonprivate-schedule"}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	in, err := scenarios.Build(context.Background(), r.Problem)
	if err != nil {
		t.Fatal(err)
	}
	var want []scenarios.MomentEntry
	for _, e := range in.Profile() {
		if !math.IsInf(e.K, 1) {
			want = append(want, e)
		}
	}
	if len(m.Moments) != len(want) {
		t.Fatalf("%d moments, engine %d", len(m.Moments), len(want))
	}
	for i, e := range m.Moments {
		w := want[i]
		exists := e.K < 2.5
		switch {
		case e.K != w.K || e.Method != w.Method:
			t.Errorf("k = %g %q, engine k = %g %q", e.K, e.Method, w.K, w.Method)
		case exists && (e.Value == nil || *e.Value != w.R || e.Stderr == nil || *e.Stderr != w.SE):
			t.Errorf("r̃_%g = %v ± %v, engine %g ± %g", e.K, e.Value, e.Stderr, w.R, w.SE)
		case !exists && (e.Value != nil || e.Stderr != nil):
			t.Errorf("r̃_%g = %v ± %v, want null (k ≥ ν/2)", e.K, e.Value, e.Stderr)
		}
	}
	// The table shows ∞ and no standard error for them.
	_, out, _ := dpsoCLI("moments", "--scenario", "linreg-t", "--tail", "5")
	if !strings.Contains(out, "2.5      ∞        —") || !strings.Contains(out, "∞ (L_f)") || strings.Contains(out, "Inf") {
		t.Errorf("table:\n%s", out)
	}
}

// TestMomentsAssumptions: dpso moments shows r_k and γ_k^{1/k} beside
// r̃_k, with L and the inequalities of "lem: comparing assumptions" at
// k = 2, k, 2k; on linreg-t r₂ = √(E m⁴·((d + 2)(R + ‖w*‖)² + dσ²)) =
// √166.5 by hand (scenarios' TestSupClosedForms), and no inequality fails
// on any scenario's defaults (the scenarios package checks more orders
// and variants: TestAssumptionChecksHold).
func TestMomentsAssumptions(t *testing.T) {
	var m struct {
		Noncentral, Coordinatewise []struct {
			K, Value, Stderr, Lower *float64
			Method                  string
		}
		GradSup struct {
			Value *float64
			Exact bool
		} `json:"grad_sup"`
		Checks []struct{ Text, Label, Verdict string }
	}
	for _, name := range scenarios.ScenarioNames() {
		t.Run(name, func(t *testing.T) {
			m := m // a fresh document per scenario
			_, out, errs := dpsoCLI("moments", "--scenario", name, "--json")
			if err := json.Unmarshal([]byte(out), &m); err != nil {
				t.Fatalf("%s: %v %s", name, err, errs)
			}
			if len(m.Noncentral) != len(scenarios.MomentGrid) || len(m.Coordinatewise) != len(m.Noncentral) || m.Noncentral[len(m.Noncentral)-1].K != nil {
				t.Errorf("%s: %d r_k, %d γ_k (want the grid, ∞ last as k = null)", name, len(m.Noncentral), len(m.Coordinatewise))
			}
			if m.Noncentral[0].Value == nil || m.Coordinatewise[0].Value == nil || m.Noncentral[0].Method == "" {
				t.Errorf("%s: r_2 or γ_2 missing: %+v", name, m.Noncentral[0])
			}
			if len(m.Checks) < 9 {
				t.Errorf("%s: %d inequalities checked", name, len(m.Checks))
			}
			for _, c := range m.Checks {
				if c.Verdict == scenarios.Fails && c.Label != "ass:coordinatewise" {
					t.Errorf("%s: %s [%s] fails", name, c.Text, c.Label)
				}
			}
			if name == scenarios.LinRegT {
				if r2 := m.Noncentral[0]; math.Abs(*r2.Value-math.Sqrt(166.5)) > 1e-9 || *r2.Stderr != 0 || *r2.Lower != *r2.Value {
					t.Errorf("linreg-t r_2 = %v ± %v (lower %v), want √166.5 exactly", *r2.Value, *r2.Stderr, *r2.Lower)
				}
				if !m.GradSup.Exact || *m.GradSup.Value != 2.25 {
					t.Errorf("linreg-t L = %v (exact %v), want 1.5·1.5", *m.GradSup.Value, m.GradSup.Exact)
				}
			}
		})
	}
	_, out, _ := dpsoCLI("moments", "--scenario", "linreg-t")
	for _, want := range []string{"r_k = sup_w (E‖∇f(w, x)‖^k)^{1/k} ≤ r̃_k", "2    12.9035  0", "✓  r_2 ≤ r̃_2 (12.9035 ≤ 29.6484)  ", "[" + theory.Cite("lem: comparing assumptions") + "]", "L = sup_w ‖∇F(w)‖ = 2.25 (exact"} {
		if !strings.Contains(out, want) {
			t.Errorf("moments table lacks %q:\n%s", want, out)
		}
	}
}

func TestMomentsInvalidInput(t *testing.T) {
	checkInvalid(t, []invalidRun{
		{[]string{"moments", "--scenario", "nope"}, []string{"--scenario:", "unknown scenario"}},
		{[]string{"moments", "--scenario", "linreg-t", "--tail", "1"}, []string{"--tail:", "(2, 200]"}},
		{[]string{"moments", "--scenario", "linreg-t", "--tail", "3"}, []string{"--tail:", "r̃_2 is infinite"}},
		{[]string{"moments", "--scenario", "linreg-t", "--d", "0"}, []string{"--d:", "[1, 10000]"}},
		{[]string{"moments", "--scenario", "linreg-t", "--solver", "acsa"}, []string{`unknown flag "--solver"`}},
		{[]string{"moments", "--scenario", "example1", "--json", "extra"}, []string{"takes no arguments"}},
	})
}

func TestListJSON(t *testing.T) {
	code, out, errs := dpsoCLI("list", "--json")
	if code != 0 || errs != "" {
		t.Fatalf("status %d: %s", code, errs)
	}
	golden.Equal(t, "list.shape.json", jsonShape(t, out))
	var l report.ListJSON
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Scenarios) != len(scenarios.List()) {
		t.Fatalf("%d scenarios", len(l.Scenarios))
	}
	for i, in := range scenarios.List() {
		s := l.Scenarios[i]
		if s.Name != in.Name || len(s.Classes) != len(in.Classes) || s.Classes[0] != string(in.Classes[0]) ||
			(s.Tail == nil) != (in.Tail == nil) || len(s.Params) != len(in.Params) || s.D != in.D {
			t.Errorf("scenario %d: %+v, catalogue %+v", i, s, in)
		}
		if in.Tail != nil && (s.Tail.Default != in.Tail.Default || s.Tail.Range != in.Tail.Range()) {
			t.Errorf("%s tail %+v", in.Name, s.Tail)
		}
	}
	for i, c := range theory.Classes {
		if l.Classes[i].Name != string(c) || l.Classes[i].Solver != paperName(c) {
			t.Errorf("class %+v", l.Classes[i])
		}
	}
	var names []string
	for _, s := range l.Solvers {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, solvers.Names()) {
		t.Errorf("solvers %v", names)
	}
	names = nil
	for _, o := range l.Oracles {
		names = append(names, o.Name)
		if want := map[bool]string{true: "shuffle", false: "zcdp"}[strings.HasPrefix(o.Name, "shuffle")]; o.Privacy != want || o.Description == "" {
			t.Errorf("oracle %+v", o)
		}
	}
	if !slices.Equal(names, oracle.Names()) {
		t.Errorf("oracles %v", names)
	}
}

func TestListHuman(t *testing.T) {
	code, out, _ := dpsoCLI("list")
	if code != 0 {
		t.Fatal(code)
	}
	for _, w := range []string{"SCENARIOS", "CLASSES", "SOLVERS", "ORACLES", "linreg-pareto", "--tail    α = 6 in (2, 200]",
		"--curvature", "smooth-sc         smooth strongly convex      clipped-sgd", "klz-gd", "shuffle-coordinate  shuffle"} {
		if !strings.Contains(out, w) {
			t.Errorf("list lacks %q", w)
		}
	}
	if code, _, errs := dpsoCLI("list", "now"); code != 2 || !strings.Contains(errs, "takes no arguments") {
		t.Errorf("list now: %d %q", code, errs)
	}
}

func paperName(c theory.Class) string {
	d, _ := solvers.PaperSolver(c)
	return d.Name()
}

// TestMomentsInterrupted: moments cancelled (its context cancelled the
// moment the command first consults it) ends with status 130, one line on
// stderr and no table.
func TestMomentsInterrupted(t *testing.T) {
	saved := interruptContext
	defer func() { interruptContext = saved }()
	interruptContext = func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		return &onFirstUse{Context: ctx, use: cancel}, cancel
	}
	code, out, errs := dpsoCLI("moments", "--scenario", "contaminated", "--d", "5")
	if code != 130 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "interrupted") {
		t.Errorf("status %d, stdout %q, stderr %q: want 130, nothing, one line", code, out, errs)
	}
}
