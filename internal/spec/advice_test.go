package spec

import (
	"errors"
	"strings"
	"testing"

	"dpso/scenarios"
	"dpso/theory"
)

// TestMomentAdviceCanBeFollowed: when a moment the run
// needs does not exist at the scenario's tail, the error names the field
// that has to change and says what can be done — the k that work, or the
// tail value above which the moment exists at the run's k (its threshold
// from first principles: hinge-t's r̃_j < ∞ iff j < ν, linreg-t's iff
// j < ν/2; localized reads r̃_2k) —, never a k below 2 ("use k < 1.25",
// main's advice at ν = 2.5) nor "choose a smaller k" at k = 2. Following
// the advice resolves: the tail just above the named threshold does, the
// threshold itself does not.
func TestMomentAdviceCanBeFollowed(t *testing.T) {
	for _, c := range []struct {
		name  string
		spec  Spec
		field string
		want  []string
		// follow is the Spec the advice leads to (resolves); at is the
		// threshold itself (does not).
		follow, at Spec
	}{
		{"hinge-t ν = 2.5: no k helps, raise ν above 4",
			Spec{Scenario: scenarios.HingeT, Tail: 2.5}, "tail",
			[]string{"ν > 4", "threshold at k = 2", "lighter tails"},
			Spec{Scenario: scenarios.HingeT, Tail: 4.001, K: 2}, Spec{Scenario: scenarios.HingeT, Tail: 4, K: 2}},
		{"hinge-t ν = 2.5, k = 4: ν > 4 at k = 2, ν > 8 at k = 4",
			Spec{Scenario: scenarios.HingeT, Tail: 2.5, K: 4}, "tail",
			[]string{"ν > 4 with k = 2", "at k = 4: ν > 8"},
			Spec{Scenario: scenarios.HingeT, Tail: 8.001, K: 4}, Spec{Scenario: scenarios.HingeT, Tail: 8, K: 4}},
		{"sgd on localized's schedule reads r̃_2k too",
			Spec{Scenario: scenarios.HingeT, Tail: 3, K: 2, Solver: "nonprivate-schedule"}, "tail",
			[]string{"nonprivate-schedule (on localized's schedule) needs r̃_2k", "ν > 4"},
			Spec{Scenario: scenarios.HingeT, Tail: 4.5, K: 2, Solver: "nonprivate-schedule"}, Spec{Scenario: scenarios.HingeT, Tail: 4, K: 2, Solver: "nonprivate-schedule"}},
		{"hinge-t ν = 5, k = 4: k in [2, 2.5) or ν > 8",
			Spec{Scenario: scenarios.HingeT, Tail: 5, K: 4}, "k",
			[]string{"choose k in [2, 2.5)", "ν > 8 (its threshold at k = 4)"},
			Spec{Scenario: scenarios.HingeT, Tail: 5, K: 2.4}, Spec{Scenario: scenarios.HingeT, Tail: 5, K: 2.5}},
		{"linreg-t ν = 5, k = 3: k in [2, 2.5) or ν > 6",
			Spec{Scenario: scenarios.LinRegT, Tail: 5, K: 3}, "k",
			[]string{"choose k in [2, 2.5)", "keep k = 3 and raise the tail parameter to ν > 6"},
			Spec{Scenario: scenarios.LinRegT, Tail: 6.5, K: 3}, Spec{Scenario: scenarios.LinRegT, Tail: 6, K: 3}},
		{"linreg-t at the top of ν's range: no tail can help k = 150",
			Spec{Scenario: scenarios.LinRegT, Tail: 200, K: 150}, "k",
			[]string{"choose k in [2, 100)", "lighter tails"},
			Spec{Scenario: scenarios.LinRegT, Tail: 200, K: 99}, Spec{Scenario: scenarios.LinRegT, Tail: 200, K: 100}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.spec.Resolve()
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("Resolve: %v, want a *SpecError", err)
			}
			if se.Field != c.field {
				t.Errorf("field %q, want %q (%s)", se.Field, c.field, se.Msg)
			}
			for _, w := range c.want {
				if !strings.Contains(se.Msg, w) {
					t.Errorf("message %q lacks %q", se.Msg, w)
				}
			}
			for _, bad := range []string{"k < 1.", "k < 1)", "use k <", "choose a smaller k"} {
				if strings.Contains(se.Msg, bad) {
					t.Errorf("message %q gives advice that cannot be followed (%q)", se.Msg, bad)
				}
			}
			if strings.Contains(c.name, "no tail can help") && strings.Contains(se.Msg, "raise the tail") {
				t.Errorf("message %q advises a tail outside its range (2, 200]", se.Msg)
			}
			if _, err := c.follow.Resolve(); err != nil {
				t.Errorf("following the advice, %+v: %v", c.follow, err)
			}
			if _, err := c.at.Resolve(); err == nil {
				t.Errorf("the threshold itself, %+v, resolves: the advice's bound is not sharp", c.at)
			}
		})
	}
}

// TestMomentAdviceStronglyConvex: the non-smooth strongly convex class
// reads r̃_2k through localized-sc, and gets the same advice.
func TestMomentAdviceStronglyConvex(t *testing.T) {
	s := Spec{Scenario: scenarios.AbsRegT, Class: theory.NonsmoothSC, Tail: 3}
	_, err := s.Resolve()
	var se *SpecError
	if !errors.As(err, &se) || se.Field != "tail" || !strings.Contains(se.Msg, "localized-sc needs r̃_2k") || !strings.Contains(se.Msg, "ν > 4") {
		t.Fatalf("Resolve: %v; want tail: localized-sc needs r̃_2k … ν > 4", err)
	}
}
