package spec

import (
	"fmt"
	"math"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dpso/scenarios"
	"dpso/theory"
)

func TestShellQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"linreg-t", "linreg-t"},
		{"1e-06", "1e-06"},
		{"data/points_1.csv", "data/points_1.csv"},
		{"", "''"},
		{"my data.csv", "'my data.csv'"},
		{"it's.csv", `'it'\''s.csv'`},
		{"$HOME/x", "'$HOME/x'"},
		{"a;rm -rf", "'a;rm -rf'"},
		{"ε", "'ε'"},
		{"t\x1b]0;PWNED\ax.csv", `$'t\x1b]0;PWNED\x07x.csv'`},
		{"it's\x1b\\.csv", `$'it\'s\x1b\\.csv'`},
		{"a\u202eb", `$'a\xe2\x80\xaeb'`},
		{"bad\xff", `$'bad\xff'`},
		{"two\nlines", `$'two\x0alines'`},
	} {
		t.Run(c.in, func(t *testing.T) {
			if got := ShellQuote(c.in); got != c.want {
				t.Errorf("ShellQuote(%q) = %q, want %q", c.in, got, c.want)
			}
			for _, r := range ShellQuote(c.in) {
				if r < 0x20 || r == 0x7f || r == 0x202e {
					t.Errorf("ShellQuote(%q) lets %U through", c.in, r)
				}
			}
		})
	}
}

// TestShellQuoteRoundTrip: the word, read back by bash, is the same
// bytes (the reproduce line names the same file).
func TestShellQuoteRoundTrip(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, in := range []string{"plain.csv", "my data.csv", "it's.csv", "t\x1b]0;PWNED\ax.csv", "a\u202eb\\'c", "bad\xff\x01", "two\nlines $HOME `x`"} {
		t.Run(in, func(t *testing.T) {
			out, err := exec.Command(bash, "-c", "printf %s "+ShellQuote(in)).Output()
			if err != nil || string(out) != in {
				t.Errorf("bash read %s back as %q (%v), want %q", ShellQuote(in), out, err, in)
			}
		})
	}
}

func TestArgsMinimal(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		spec Spec
		want string
	}{
		// Defaults given explicitly are left out; the scenario is kept.
		{Spec{}, "--scenario example1"},
		{Spec{Scenario: scenarios.Example1, Class: theory.SmoothConvex, Solver: "acsa", K: 2, Eps: 1, Trials: 5, Rand: "seeded", N: 10000}, "--scenario example1"},
		{Spec{Scenario: scenarios.LinRegT, Tail: 6, D: 10, Diam: 2, Params: map[string]float64{"noise": 1, "wstar": 0.5}}, "--scenario linreg-t"},
		// Non-defaults in the Spec's field order, parameters alphabetically.
		{Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, K: 2.5, Eps: 0.5, N: 20000, D: 3, Tail: 8,
			Params: map[string]float64{"wstar": 2, "cond": 4}, Trials: 3, Seed: 42},
			"--scenario linreg-t --class smooth-sc --k 2.5 --eps 0.5 --n 20000 --d 3 --tail 8 --cond 4 --wstar 2 --trials 3 --seed 42"},
		// The class's paper solver is the default; a baseline is not.
		{Spec{Scenario: scenarios.HingeT, Class: theory.NonsmoothSC, Solver: "localized-sc"}, "--scenario hinge-t --class nonsmooth-sc"},
		{Spec{Scenario: scenarios.HingeT, Solver: "nonprivate-schedule"}, "--scenario hinge-t --solver nonprivate-schedule"},
		// λ₂ defaults by class for logreg-t: 0.1 is the strongly convex default.
		{Spec{Scenario: scenarios.LogRegT, Class: theory.SmoothSC, Lambda2: f64(0.1)}, "--scenario logreg-t --class smooth-sc"},
		{Spec{Scenario: scenarios.LogRegT, Lambda2: f64(0.1)}, "--scenario logreg-t --lambda2 0.1"},
		// A shuffle oracle's default δ is left out; another δ is kept.
		{Spec{Scenario: scenarios.LinRegT, Oracle: "shuffle-clip", Delta: DefaultDelta}, "--scenario linreg-t --oracle shuffle-clip"},
		{Spec{Scenario: scenarios.LinRegT, Oracle: "shuffle-clip", Delta: 1e-8}, "--scenario linreg-t --oracle shuffle-clip --delta 1e-8"},
		// Infinities as inf; overrides kept.
		{Spec{Scenario: scenarios.Example1, Eps: inf, Solver: "nonprivate-schedule", Clip: inf}, "--scenario example1 --solver nonprivate-schedule --eps inf --clip inf"},
		{Spec{Scenario: scenarios.Example1, K: inf}, "--scenario example1 --k inf"},
		{Spec{Scenario: scenarios.Contaminated, Iters: 10, Clip: 3, Step: 0.25, Rk: 40, WorkBudget: 1000, Workers: 2, Checkpoints: 8, Rand: "secure"},
			"--scenario contaminated --rk 40 --iters 10 --clip 3 --step 0.25 --rand secure --workers 2 --work-budget 1000 --checkpoints 8"},
		// User data: the path (quoted by Command, not by Args).
		{Spec{Data: "my data.csv", Rk: 3, Beta: 1}, "--data my data.csv --beta 1 --rk 3"},
		// An invalid Spec keeps every non-zero field, to reproduce its error.
		{Spec{Scenario: "nope", K: 2, Trials: 5}, "--scenario nope --k 2 --trials 5"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			if got := strings.Join(c.spec.Args(), " "); got != c.want {
				t.Errorf("%+v:\n got  %s\n want %s", c.spec, got, c.want)
			}
		})
	}
}

// TestArgsKeepsTheResolvedSpec checks Args's promise on every preset and
// class and on variations: the minimal Spec resolves to the same Spec, and
// Args of the resolved Spec equals Args of the Spec (the defaults Resolve
// fills in are exactly what Args leaves out).
func TestArgsKeepsTheResolvedSpec(t *testing.T) {
	var specs []Spec
	for _, in := range scenarios.List() {
		for _, c := range in.Classes {
			specs = append(specs, Spec{Scenario: in.Name, Class: c})
			s := Spec{Scenario: in.Name, Class: c, Solver: "nonprivate-schedule", Eps: 0.5, Trials: 2, Seed: 9}
			if in.Name == scenarios.AffineHard && c == theory.SmoothConvex {
				specs[len(specs)-1].Beta = 1
				s.Beta = 1
			}
			specs = append(specs, s)
		}
	}
	for _, s := range specs {
		t.Run(caseName(s), func(t *testing.T) {
			want, err := s.Resolve()
			if err != nil {
				t.Fatalf("%+v: %v", s, err)
			}
			m := s.minimal()
			got, err := m.Resolve()
			if err != nil || !reflect.DeepEqual(got.RunSpec(), want.RunSpec()) {
				t.Errorf("%+v: minimal %+v resolves to %+v (%v), want %+v", s, m, got, err, want)
			}
			if a, b := s.Args(), want.Spec.Args(); !slices.Equal(a, b) {
				t.Errorf("%s: Args %v, of the resolved Spec %v", s.Scenario, a, b)
			}
		})
	}
}

func TestCommand(t *testing.T) {
	s := Spec{Data: "it's here.csv", Rk: 3, Beta: 1, Eps: 0.5}
	want := `dpso run --data 'it'\''s here.csv' --eps 0.5 --beta 1 --rk 3`
	if got := s.Command(); got != want {
		t.Errorf("Command() = %s, want %s", got, want)
	}
	if got := (Spec{}).Command(); got != "dpso run --scenario example1" {
		t.Errorf("Command() of the zero Spec = %q", got)
	}
}

// TestDataWithAllOverridesNeedsNoConstant: with iters, clip and step all
// given, no moment constant is needed.
func TestDataWithAllOverridesNeedsNoConstant(t *testing.T) {
	path := writeCSV(t, "x1,x2,y\n1,2,3\n0.5,1,2\n2,1,0\n1,1,1\n")
	for _, c := range []struct {
		spec  Spec
		field string // "" = valid
	}{
		{Spec{Data: path, Iters: 2, Clip: 1, Step: 0.1}, ""},
		{Spec{Data: path, Iters: 2, Clip: 1}, "rk"},
		{Spec{Data: path, Clip: 1, Step: 0.1}, "rk"},
		{Spec{Data: path, Iters: 2, Step: 0.1, Rk: 3}, "beta"},
	} {
		t.Run(fmt.Sprintf("%s: %q", caseName(c.spec), c.field), func(t *testing.T) {
			err := c.spec.Validate()
			se, _ := err.(*SpecError)
			switch {
			case c.field == "" && err != nil:
				t.Errorf("%+v: %v, want valid", c.spec, err)
			case c.field != "" && (se == nil || se.Field != c.field):
				t.Errorf("%+v: %v, want a SpecError on %s", c.spec, err, c.field)
			}
		})
	}
}

// TestArgsSecureHasNoSeed: with secure randomness no stream reads the
// seed, so the reproduce line never carries --seed (it would suggest a
// reproducibility the run does not have); seeded, it does.
func TestArgsSecureHasNoSeed(t *testing.T) {
	for _, c := range []struct {
		s    Spec
		seed bool
	}{
		{Spec{Scenario: scenarios.LinRegT, Rand: "secure", Seed: 9}, false},
		{Spec{Data: "x.csv", Rk: 3, Beta: 1, Seed: 9}, false}, // secure: the default on user data
		{Spec{Scenario: scenarios.LinRegT, Seed: 9}, true},
		{Spec{Data: "x.csv", Rk: 3, Beta: 1, Rand: "seeded", Seed: 9}, true},
	} {
		t.Run(caseName(c.s), func(t *testing.T) {
			cmd := c.s.Command()
			if got := strings.Contains(cmd, "--seed"); got != c.seed {
				t.Errorf("%+v: Command() = %s, --seed present %v, want %v", c.s, cmd, got, c.seed)
			}
		})
	}
}
