package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/theory"
)

func TestSpecValidateEveryField(t *testing.T) {
	inf := math.Inf(1)
	nan := math.NaN()
	cases := []struct {
		name  string
		spec  Spec
		field string
		msg   string // substring of the message (the allowed range or rule)
	}{
		{"unknown scenario", Spec{Scenario: "nope"}, "scenario", "want one of"},
		{"data and scenario", Spec{Scenario: scenarios.LinRegT, Data: "x.csv"}, "data", "not both"},
		{"loss with scenario", Spec{Scenario: scenarios.LinRegT, Loss: "squared"}, "loss", "user data only"},
		{"estimate with scenario", Spec{Scenario: scenarios.LinRegT, EstimateConstants: true}, "estimate-constants", "user data only"},
		{"unknown class", Spec{Class: "convex"}, "class", "want one of"},
		{"unsupported class", Spec{Scenario: scenarios.HingeT, Class: theory.SmoothConvex}, "class", "supported: nonsmooth-convex, nonsmooth-sc"},
		{"unknown solver", Spec{Solver: "adam"}, "solver", "registered"},
		{"solver for another class", Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, Solver: "acsa"}, "solver", "smooth-convex"},
		{"unknown oracle", Spec{Oracle: "laplace"}, "oracle", "want one of"},
		{"k below 2", Spec{K: 1.5}, "k", "[2, ∞]"},
		{"k NaN", Spec{K: nan}, "k", "[2, ∞]"},
		{"k past the tail", Spec{Scenario: scenarios.LinRegT, Tail: 6, K: 3}, "k", "k < 3"},
		{"2k past the tail", Spec{Scenario: scenarios.HingeT, Tail: 5, K: 3}, "k", "r̃_2k"},
		{"k = ∞ with L_f = ∞", Spec{Scenario: scenarios.LinRegT, K: inf}, "k", "L_f"},
		{"eps negative", Spec{Eps: -1}, "eps", "[10⁻¹⁰⁰, ∞]"},
		{"eps NaN", Spec{Eps: nan}, "eps", "[10⁻¹⁰⁰, ∞]"},
		{"eps ∞ on a hard instance", Spec{Scenario: scenarios.MeanHard, Eps: inf}, "eps", "finite ε"},
		{"delta 1 for zCDP", Spec{Delta: 1}, "delta", "[10⁻³⁰⁰, 1)"},
		{"unknown accountant", Spec{Accountant: "moments"}, "accountant", "pld or rdp"},
		{"batch and sampling rate", Spec{Batch: 10, SamplingRate: 0.1}, "sampling-rate", "not both"},
		{"batch above n", Spec{Scenario: scenarios.LinRegT, N: 100, Batch: 101}, "batch", "more than n = 100"},
		{"batch negative", Spec{Batch: -1}, "batch", "[0, 10⁸]"},
		{"sampling rate above 1", Spec{SamplingRate: 1.5}, "sampling-rate", "[10⁻⁸, 1]"},
		{"epochs negative", Spec{Epochs: -1}, "epochs", "(0, 10⁶]"},
		{"clip quantile 1", Spec{ClipQuantile: 1}, "clip-quantile", "(0, 1)"},
		{"clip rate too large", Spec{ClipRate: 1000}, "clip-rate", "(0, 100]"},
		{"clip count noise ∞", Spec{ClipCountNoise: inf}, "clip-count-noise", "(0, ∞)"},
		{"klz groups negative", Spec{KLZGroups: -1}, "klz-groups", "[0, 10⁸]"},
		{"klz tau ∞ with finite eps", Spec{KLZTau: inf}, "klz-tau", "eps = ∞"},
		{"klz tau with clip", Spec{KLZTau: 1, Clip: 2}, "klz-tau", "not both"},
		{"delta too large", Spec{Oracle: "shuffle-clip", Delta: 0.7}, "delta", "(0, 1/2)"},
		{"shuffle with eps ∞", Spec{Oracle: "shuffle-clip", Eps: inf}, "eps", "finite ε"},
		{"n = 1", Spec{N: 1}, "n", "[2, 10⁸]"},
		{"n too large", Spec{N: 200_000_000}, "n", "[2, 10⁸]"},
		{"n·d too large where materialized", Spec{Scenario: scenarios.LinRegT, Solver: "klz-gd", N: 50_000_000, D: 10}, "n", "exceeds"},
		{"n·d too large on a multi-pass schedule", Spec{Scenario: scenarios.HingeT, Solver: "nonprivate-schedule", N: 50_000_000, D: 10}, "n", "localized's schedule"},
		{"d negative", Spec{Scenario: scenarios.LinRegT, D: -1}, "d", "[1, 10000]"},
		{"d too large", Spec{Scenario: scenarios.LinRegT, D: 20000}, "d", "[1, 10000]"},
		{"d of example1", Spec{Scenario: scenarios.Example1, D: 2}, "d", "cannot be changed"},
		{"diam negative", Spec{Scenario: scenarios.LinRegT, Diam: -1}, "diam", "(0, 10⁶]"},
		{"diam too large", Spec{Scenario: scenarios.LinRegT, Diam: 2e6}, "diam", "(0, 10⁶]"},
		{"diam of example1", Spec{Scenario: scenarios.Example1, Diam: 3}, "diam", "cannot be changed"},
		{"diam of mean-hard", Spec{Scenario: scenarios.MeanHard, Diam: 3}, "diam", "proof"},
		{"tail out of range", Spec{Scenario: scenarios.LinRegT, Tail: 2}, "tail", "(2, 200]"},
		{"tail too heavy for r̃_2", Spec{Scenario: scenarios.LinRegT, Tail: 3.5}, "tail", "ν > 4"},
		{"tail where there is none", Spec{Scenario: scenarios.Example1, Tail: 3}, "tail", "no tail"},
		{"lambda1 where there is none", Spec{Scenario: scenarios.LinRegT, Lambda1: f64(0.1)}, "lambda1", "no ℓ1"},
		{"lambda1 negative", Spec{Scenario: scenarios.LassoT, Lambda1: f64(-1)}, "lambda1", "[0, 1000]"},
		{"lambda2 where there is none", Spec{Scenario: scenarios.LinRegT, Lambda2: f64(0.1)}, "lambda2", "no ℓ2"},
		{"lambda2 zero for sc", Spec{Scenario: scenarios.HingeT, Class: theory.NonsmoothSC, Lambda2: f64(0)}, "lambda2", "(0, 1000]"},
		{"lambda2 negative", Spec{Scenario: scenarios.LogRegT, Lambda2: f64(-2)}, "lambda2", "[0, 1000]"},
		{"unknown param", Spec{Scenario: scenarios.LinRegT, Params: map[string]float64{"gamma": 1}}, "gamma", "noise, wstar, cond"},
		{"param out of range", Spec{Scenario: scenarios.LinRegT, Params: map[string]float64{"noise": -1}}, "noise", "[0, 100]"},
		{"param NaN", Spec{Scenario: scenarios.LinRegT, Params: map[string]float64{"cond": nan}}, "cond", "[1, 10⁶]"},
		{"tail as a param", Spec{Scenario: scenarios.LinRegT, Params: map[string]float64{"tail": 5}}, "tail", "no adjustable"},
		{"beta negative", Spec{Beta: -1}, "beta", "[0, 10¹²]"},
		{"mu above beta", Spec{Beta: 1, Mu: 2}, "mu", "exceeds"},
		{"r2 negative", Spec{R2: -1}, "r2", "[0, ∞)"},
		{"rk infinite", Spec{Rk: inf}, "rk", "[0, ∞)"},
		{"r2k NaN", Spec{R2k: nan}, "r2k", "[0, ∞)"},
		{"lf negative", Spec{Lf: -1}, "lf", "[0, ∞]"},
		{"moments out of order", Spec{K: 3, R2: 5, Rk: 4}, "rk", "non-decreasing"},
		{"r2 ≠ rk at k = 2", Spec{R2: 5, Rk: 4}, "rk", "differ"},
		{"iters negative", Spec{Iters: -1}, "iters", "[0, 10⁹]"},
		{"clip negative", Spec{Clip: -1}, "clip", "[0, ∞]"},
		{"clip ∞ with finite eps", Spec{Clip: inf}, "clip", "eps = ∞"},
		{"step negative", Spec{Step: -1}, "step", "[0, 10¹²]"},
		{"trials negative", Spec{Trials: -1}, "trials", "[1, 10000]"},
		{"trials too many", Spec{Trials: 20000}, "trials", "[1, 10000]"},
		{"rand mode", Spec{Rand: "pseudo"}, "rand", "seeded or secure"},
		{"class user data does not support", Spec{Data: "x.csv", Loss: "hinge", Class: theory.SmoothConvex}, "class", "supported: nonsmooth-convex, nonsmooth-sc"},
		{"2k of user data", Spec{Data: "x.csv", Loss: "hinge", Solver: "localized", Rk: 3}, "r2k", "localized"},
		{"workers negative", Spec{Workers: -1}, "workers", "[0, 4096]"},
		{"work budget negative", Spec{WorkBudget: -1}, "work-budget", "[0, 10¹⁵]"},
		{"checkpoints negative", Spec{Checkpoints: -1}, "checkpoints", "[0, 10000]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.spec.Validate()
			var se *SpecError
			if !errors.As(err, &se) {
				t.Errorf("%s: error %v, want a *SpecError on %s", c.name, err, c.field)
				return
			}
			if se.Field != c.field || !strings.Contains(se.Msg, c.msg) {
				t.Errorf("%s: got %q, want field %q with %q", c.name, se.Error(), c.field, c.msg)
			}
			if in, ok := UserInputOf(err); !ok || in.Flag != FlagName(c.field) || in.Msg != se.Msg {
				t.Errorf("%s: UserInputOf = %+v, %v; want the flag of %s and its message", c.name, in, ok, c.field)
			}
		})
	}
}

func TestSpecDefaults(t *testing.T) {
	rr, err := Spec{}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	r := rr.Spec
	want := Spec{Scenario: scenarios.Example1, Class: theory.SmoothConvex, Solver: "acsa", K: 2, Eps: 1, Delta: DefaultConversionDelta,
		N: 10000, D: 1, Diam: 2, Accountant: DefaultAccountant, Adjacency: ReplaceOne, Trials: 5, Rand: "seeded", Params: map[string]float64{"sigma": 1}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("defaults:\n got %+v\nwant %+v", r, want)
	}
	// δ defaults to 10⁻⁶ for a shuffle oracle.
	if r, err := (Spec{Oracle: "shuffle-clip"}).Resolve(); err != nil || r.Spec.Delta != 1e-6 || r.Privacy != (Privacy{Model: Shuffle, Eps: 1, Delta: 1e-6, EpsDelta: 1, Adjacency: ReplaceOne}) {
		t.Errorf("shuffle oracle: δ = %g, budget %+v (%v), want 1e-6", r.Spec.Delta, r.Privacy, err)
	}
	// The zCDP budget is ρ = ε²/2 (Def. "zCDP": ε = 0.5 gives ρ = 0.125).
	// Its (ε', δ) statement is at the run's δ (default 10⁻⁵).
	if r, err := (Spec{Eps: 0.5}).Resolve(); err != nil ||
		r.Privacy != (Privacy{Model: ZCDP, Eps: 0.5, Rho: 0.125, Delta: 1e-5, EpsDelta: theory.EpsExact(0.5, 1e-5), Adjacency: ReplaceOne}) || r.Privacy.Cost().Rho != 0.125 {
		t.Errorf("ε = 0.5: budget %+v (%v), want ρ = 0.125", r.Privacy, err)
	}
	// The default solver follows the class.
	for _, class := range theory.Classes {
		d, _ := solvers.PaperSolver(class)
		solver := d.Name()
		var s Spec
		switch class {
		case theory.SmoothConvex, theory.SmoothSC, theory.PPL:
			s = Spec{Scenario: scenarios.LinRegT, Class: class}
		default:
			s = Spec{Scenario: scenarios.HingeT, Class: class}
		}
		r, err := s.Resolve()
		if err != nil || r.Spec.Solver != solver || r.Solver.Name() != solver || r.Schedule != solver {
			t.Errorf("class %s: solver %q (%v), want %s", class, r.Spec.Solver, err, solver)
		}
	}
	// λ₂ defaults: 0.1 for the strongly convex class of logreg-t, 0 for
	// the convex one; lasso-t λ₁ = 0.05, λ₂ = 0.
	for _, c := range []struct {
		s      Spec
		l1, l2 *float64
	}{
		{Spec{Scenario: scenarios.LogRegT, Class: theory.SmoothSC}, nil, f64(0.1)},
		{Spec{Scenario: scenarios.LogRegT}, nil, f64(0)},
		{Spec{Scenario: scenarios.LassoT}, f64(0.05), f64(0)},
		{Spec{Scenario: scenarios.LinRegT}, nil, nil},
	} {
		t.Run(caseName(c.s), func(t *testing.T) {
			rr, err := c.s.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			r := rr.Spec
			if !reflect.DeepEqual(r.Lambda1, c.l1) || !reflect.DeepEqual(r.Lambda2, c.l2) {
				t.Errorf("%s %s: λ₁ %v λ₂ %v", c.s.Scenario, r.Class, r.Lambda1, r.Lambda2)
			}
		})
	}
	// Resolve is idempotent and does not modify its receiver.
	for _, name := range scenarios.ScenarioNames() {
		s := Spec{Scenario: name}
		r1, err := s.Resolve()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r2, err := r1.Spec.Resolve()
		if err != nil || !reflect.DeepEqual(r1, r2) {
			t.Errorf("%s: Resolve is not idempotent: %+v vs %+v (%v)", name, r1, r2, err)
		}
		if s.Class != "" || s.Params != nil {
			t.Errorf("%s: Resolve modified its receiver", name)
		}
	}
}

func TestSpecJSONRoundTrip(t *testing.T) {
	s := Spec{Scenario: scenarios.LogRegT, Class: theory.SmoothSC, K: math.Inf(1), Eps: math.Inf(1), Lambda2: f64(0), Lf: math.Inf(1),
		Params: map[string]float64{"wstar": 1.5}, Seed: 1 << 60, Rand: "secure", Clip: math.Inf(1)}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"k":"+Inf"`) || !strings.Contains(string(b), `"lambda2":0`) || strings.Contains(string(b), `"n"`) {
		t.Errorf("JSON %s", b)
	}
	var back Spec
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, s) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, s)
	}
	// Hand-written JSON with "inf" and an unknown field.
	if err := json.Unmarshal([]byte(`{"scenario":"linreg-t","eps":"inf","k":2.5}`), &back); err != nil || !math.IsInf(back.Eps, 1) || back.K != 2.5 {
		t.Errorf("inf string: %+v %v", back, err)
	}
	for _, c := range []struct{ in, field string }{
		{`{"scenario":"linreg-t","epsilon":1}`, "epsilon"},
		{`{"n":"many"}`, "n"},
		{`{"eps":"lots"}`, "eps"},
		{`{"params":{"noise":"inf"}}`, "noise"},
	} {
		t.Run(c.field, func(t *testing.T) {
			err := json.Unmarshal([]byte(c.in), &back)
			var se *SpecError
			if !errors.As(err, &se) || se.Field != c.field {
				t.Errorf("%s: error %v, want field %s", c.in, err, c.field)
			}
		})
	}
}

// specFields are the Spec's JSON (= CLI flag) names.
var specFields = func() map[string]bool {
	m := map[string]bool{}
	rt := reflect.TypeFor[Spec]()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		m[name] = true
	}
	return m
}()

func TestCatalogue(t *testing.T) {
	names := scenarios.ScenarioNames()
	want := []string{"example1", "linreg-t", "linreg-pareto", "logreg-t", "hinge-t", "absreg-t", "lasso-t", "contaminated", "mean-hard", "affine-hard"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("names %v", names)
	}
	for _, in := range scenarios.List() {
		if in.Description == "" || in.Loss == "" || len(in.Classes) == 0 || in.N == 0 || in.D == 0 {
			t.Errorf("%s: incomplete info %+v", in.Name, in)
		}
		if in.Tail != nil && !in.Tail.Allows(in.Tail.Default) {
			t.Errorf("%s: tail default %g outside %s", in.Name, in.Tail.Default, in.Tail.Range())
		}
		for _, p := range in.Params {
			if !p.Allows(p.Default) || p.Meaning == "" {
				t.Errorf("%s: param %s default %g outside %s", in.Name, p.Name, p.Default, p.Range())
			}
			// A scenario parameter is reported (and set on the CLI) under its
			// own name, which must not collide with a Spec field.
			if specFields[p.Name] {
				t.Errorf("%s: param %s collides with a Spec field", in.Name, p.Name)
			}
		}
		// Every supported class resolves with its default solver
		// (affine-hard's smooth-convex too: acsa takes β = 0, T = 1).
		for _, c := range in.Classes {
			_, err := (Spec{Scenario: in.Name, Class: c}).Resolve()
			if err != nil {
				t.Errorf("%s class %s: %v", in.Name, c, err)
			}
		}
	}
	if _, ok := scenarios.Lookup("nope"); ok {
		t.Error("scenarios.Lookup(nope) succeeded")
	}
}

func f64(v float64) *float64 { return &v }

// writeCSV writes content to a file in a temporary directory.
func writeCSV(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "data.csv")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// caseName names a test case by its Spec: the arguments that reproduce
// it (Args), a data file by its base name.
func caseName(s Spec) string {
	if s.Data != "" {
		s.Data = filepath.Base(s.Data)
	}
	if a := s.Args(); len(a) > 0 {
		return strings.Join(a, " ")
	}
	return "defaults"
}

// TestOneRho: the budget a run resolves to (Privacy.Cost) and the budget
// its solvers charge against (the Config it hands them, Config.Budget) are
// the same ρ = ε²/2 (theory.Rho): the ε reaches the solvers unchanged.
func TestOneRho(t *testing.T) {
	for _, eps := range []float64{1e-3, 0.5, 1, 3, math.Inf(1)} {
		t.Run(fmt.Sprintf("eps=%g", eps), func(t *testing.T) {
			r, err := Spec{Scenario: scenarios.LinRegT, Eps: eps}.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Config(0, nil).Budget(oracle.ZCDP); got != r.Privacy.Cost() || got.Rho != theory.Rho(eps) {
				t.Errorf("ε = %g: solvers' budget %+v, resolved %+v", eps, got, r.Privacy.Cost())
			}
		})
	}
}

// TestAccountedPrivacy: dp-sgd's budget is the third model, the exact
// (ε', δ) of ρ = ε²/2 at the run's δ — 4.3772 at ε = 1, δ = 10⁻⁵
// (dp_accounting's Gaussian value 4.37718, solvers/accountant's
// golden_test.go) — with its accountant; --delta reaches the solvers
// through Config; in a comparison the zCDP solvers keep their model.
func TestAccountedPrivacy(t *testing.T) {
	r, err := Spec{Scenario: scenarios.LinRegT, Solver: "dp-sgd"}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	pv := r.Privacy
	if pv.Model != Accountant || pv.AccountantName != "pld" || pv.Adjacency != ReplaceOne || pv.Delta != 1e-5 || math.Abs(pv.EpsDelta-4.37718) > 1e-4 || pv.Rho != 0.5 {
		t.Errorf("dp-sgd budget %+v", pv)
	}
	if c := pv.Cost(); c.Eps != pv.EpsDelta || c.Delta != 1e-5 || c.Rho != 0 {
		t.Errorf("dp-sgd ledger budget %+v", c)
	}
	acsa, _ := solvers.DescriptorOf("acsa")
	if z := r.PrivacyOf(acsa); z.Model != ZCDP || z.EpsDelta != pv.EpsDelta || z.Delta != pv.Delta || z.AccountantName != "" || z.Adjacency != ReplaceOne {
		t.Errorf("acsa beside dp-sgd: %+v", z)
	}
	r, err = Spec{Scenario: scenarios.LinRegT, Solver: "dp-sgd", Delta: 1e-7, Accountant: "rdp", Eps: inf}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if r.Privacy.Model != ZCDP || r.Privacy.Private() {
		t.Errorf("ε = ∞: dp-sgd budget %+v, want no privacy", r.Privacy)
	}
	r, err = Spec{Scenario: scenarios.LinRegT, Solver: "dp-sgd", Delta: 1e-7, Accountant: "rdp", Batch: 64, Epochs: 2, AdaptiveClip: true, ClipQuantile: 0.3, ClipRate: 0.1, ClipCountNoise: 5}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	c := r.Config(0, nil)
	want := solvers.DPSGD{Accountant: "rdp", Adjacency: ReplaceOne, Batch: 64, Epochs: 2, Adaptive: true, Quantile: 0.3, ClipRate: 0.1, CountNoise: 5}
	if c.Delta != 1e-7 || r.Solver.Solver != want || r.Privacy.AccountantName != "rdp" || r.Privacy.EpsDelta != theory.EpsExact(1, 1e-7) {
		t.Errorf("config δ = %g, solver %+v, budget %+v", c.Delta, r.Solver.Solver, r.Privacy)
	}
	// A comparison's dp-sgd gets the same settings.
	if d, _ := solvers.DescriptorOf("dp-sgd"); r.Configured(d).Solver != want {
		t.Errorf("Configured(dp-sgd) = %+v, want %+v", r.Configured(d).Solver, want)
	}
	r, err = Spec{Scenario: scenarios.LinRegT, Solver: "klz-gd", KLZGroups: 7, KLZTau: 0.5}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if k := r.Solver.Solver; k != (solvers.KLZGD{Groups: 7, Tau: 0.5}) {
		t.Errorf("klz-gd settings %+v", k)
	}
}

// TestSizeCapBindsMaterializedRunsOnly: n·(d+1) ≤ 2·10⁸
// binds where the dataset is held in memory. At n = 5·10⁷, d = 10
// (5.5·10⁸ floats) the one-pass solvers and the baselines on a one-pass
// schedule resolve; klz-gd, the localized methods and a baseline on their
// schedule are refused; user data (whose rows are read into memory) are
// always materialized, whatever the solver.
func TestSizeCapBindsMaterializedRunsOnly(t *testing.T) {
	for _, c := range []struct {
		s            Spec
		materializes bool
	}{
		{Spec{Scenario: scenarios.LinRegT, Solver: "acsa"}, false},
		{Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC}, false},
		{Spec{Scenario: scenarios.LinRegT, Solver: "nonprivate-schedule"}, false},
		{Spec{Scenario: scenarios.LassoT, Class: theory.PPL}, false},
		{Spec{Scenario: scenarios.LinRegT, Solver: "klz-gd"}, true},
		{Spec{Scenario: scenarios.HingeT}, true},
		{Spec{Scenario: scenarios.HingeT, Class: theory.NonsmoothSC}, true},
		{Spec{Scenario: scenarios.HingeT, Solver: "nonprivate-schedule"}, true},
	} {
		t.Run(caseName(c.s), func(t *testing.T) {
			s := c.s
			s.N, s.D = 50_000_000, 10
			r, err := s.Resolve()
			if c.materializes {
				var se *SpecError
				if !errors.As(err, &se) || se.Field != "n" || !strings.Contains(se.Msg, "n ≤ 1.8181818·10⁷") {
					t.Errorf("%+v: %v; want a refusal on n with the limit", c.s, err)
				}
				return
			}
			if err != nil {
				t.Errorf("%+v streams: %v", c.s, err)
				return
			}
			if r.Materializes(r.Solver) {
				t.Errorf("%+v: Materializes = true", c.s)
			}
		})
	}
	user := Resolved{Problem: scenarios.ProblemDef{Data: "x.csv"}}
	for _, d := range solvers.Descriptors() {
		if !user.Materializes(d) {
			t.Errorf("user data with %s: Materializes = false", d.Name())
		}
	}
}

// TestCheckSolverFields: a setting of dp-sgd or klz-gd is accepted when
// the call runs that solver (alone or in a comparison) and refused,
// naming the field, when it does not.
func TestCheckSolverFields(t *testing.T) {
	for _, c := range []struct {
		s     Spec
		names []string
		field string // "" = accepted
	}{
		{Spec{Solver: "dp-sgd", Batch: 64, Accountant: "rdp", AdaptiveClip: true}, nil, ""},
		{Spec{Solver: "klz-gd", KLZTau: 2}, nil, ""},
		{Spec{Solver: "acsa", Epochs: 2}, []string{"acsa", "dp-sgd"}, ""},
		{Spec{Solver: "acsa"}, nil, ""},
		{Spec{Solver: "acsa", SamplingRate: 0.1}, nil, "sampling-rate"},
		{Spec{ClipQuantile: 0.9}, nil, "clip-quantile"},
		{Spec{Solver: "dp-sgd", KLZGroups: 3}, nil, "klz-groups"},
		{Spec{Solver: "acsa", ClipCountNoise: 1}, []string{"acsa", "klz-gd"}, "clip-count-noise"},
		// add/remove is dp-sgd's alone: a comparison is at one adjacency,
		// replace-one, the only one the paper's solvers are private under.
		{Spec{Solver: "dp-sgd", Adjacency: AddRemove}, nil, ""},
		{Spec{Solver: "dp-sgd", Adjacency: ReplaceOne}, []string{"acsa", "dp-sgd"}, ""},
		{Spec{Solver: "dp-sgd", Adjacency: AddRemove}, []string{"acsa", "dp-sgd"}, "adjacency"},
		{Spec{Solver: "acsa", Adjacency: AddRemove}, nil, "adjacency"},
	} {
		t.Run(fmt.Sprintf("%s %v", caseName(c.s), c.names), func(t *testing.T) {
			err := c.s.CheckSolverFields(c.names)
			var se *SpecError
			switch {
			case c.field == "" && err != nil:
				t.Errorf("%+v with %v: %v, want accepted", c.s, c.names, err)
			case c.field != "" && (!errors.As(err, &se) || se.Field != c.field):
				t.Errorf("%+v with %v: %v, want a SpecError on %s", c.s, c.names, err, c.field)
			}
		})
	}
}

// TestAdjacencyAndFormerNames: dp-sgd's adjacency resolves to replace-one
// unless add-remove is asked, an unknown one is refused on its field, and
// the former name sgd resolves to nonprivate-schedule with a note saying so.
func TestAdjacencyAndFormerNames(t *testing.T) {
	r, err := Spec{Scenario: scenarios.LinRegT, Solver: "dp-sgd", Adjacency: AddRemove}.Resolve()
	if err != nil || r.Privacy.Adjacency != AddRemove || r.Solver.Solver.(solvers.DPSGD).Adjacency != AddRemove {
		t.Errorf("add-remove: %+v (%v)", r.Privacy, err)
	}
	var se *SpecError
	if _, err := (Spec{Solver: "dp-sgd", Adjacency: "swap-one"}).Resolve(); !errors.As(err, &se) || se.Field != "adjacency" {
		t.Errorf("unknown adjacency: %v, want a SpecError on adjacency", err)
	}
	r, err = Spec{Scenario: scenarios.LinRegT, Solver: "sgd"}.Resolve()
	if err != nil || r.Spec.Solver != solvers.NonPrivateScheduleName || r.Solver.Name() != solvers.NonPrivateScheduleName {
		t.Fatalf("sgd: solver %q (%v)", r.Spec.Solver, err)
	}
	if !slices.ContainsFunc(r.DefaultNotes, func(n string) bool { return strings.Contains(n, "former name") }) {
		t.Errorf("sgd: no note on the former name in %q", r.DefaultNotes)
	}
	names, notes := CanonicalNames([]string{"acsa", "sgd"})
	if !slices.Equal(names, []string{"acsa", solvers.NonPrivateScheduleName}) || len(notes) != 1 {
		t.Errorf("CanonicalNames: %v, %v", names, notes)
	}
}
