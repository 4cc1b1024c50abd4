package spec

import (
	"testing"

	"dpso/scenarios"
	"dpso/theory"
)

// The defaults of the non-smooth classes: k is the scenario's Info.K when
// the moments the solver needs exist at the tail (hinge-t, absreg-t: k = 4
// at ν = 10; at ν = 6 localized needs 2k < 6, so k falls back to 2), and n
// is the largest n ≤ Info.N (Info.N or a power of two) whose capped
// schedule Σ n_i⌈n_i^p ln n⌉ fits the work budget (default 2·10⁷). The
// expected n follow from solvers.WorkBounded.ScheduleWork (checked by hand in
// TestLocalizationWork): localized at k = 2 needs 7.9·10⁶ at n = 512 and
// 5.0·10⁷ at 1024; at k = 4 1.1·10⁷ at 1024 and 5.7·10⁷ at 2048;
// localized-sc at k = 4 6.3·10⁶ at 2048 and 2.7·10⁷ at 4096, at k = 2
// 5.1·10⁶ at 1024 and 2.5·10⁷ at 2048; with a budget of 10⁹ localized at
// k = 4 fits n = 4096 (3.0·10⁸) but not 8192 (1.5·10⁹). Smooth classes
// and explicit values are left alone.
func TestNonsmoothDefaults(t *testing.T) {
	for _, c := range []struct {
		spec Spec
		n    int
		k    float64
	}{
		{Spec{Scenario: scenarios.HingeT}, 1024, 4},
		{Spec{Scenario: scenarios.HingeT, Class: theory.NonsmoothSC}, 2048, 4},
		{Spec{Scenario: scenarios.AbsRegT}, 1024, 4},
		{Spec{Scenario: scenarios.AbsRegT, Class: theory.NonsmoothSC}, 2048, 4},
		{Spec{Scenario: scenarios.HingeT, Tail: 6}, 512, 2},
		{Spec{Scenario: scenarios.HingeT, K: 2}, 512, 2},
		{Spec{Scenario: scenarios.AbsRegT, K: 2, Class: theory.NonsmoothSC}, 1024, 2},
		{Spec{Scenario: scenarios.AffineHard}, 512, 2},
		{Spec{Scenario: scenarios.MeanHard, Class: theory.NonsmoothSC}, 1024, 2},
		{Spec{Scenario: scenarios.HingeT, WorkBudget: 1_000_000_000}, 4096, 4},
		{Spec{Scenario: scenarios.HingeT, N: 10000}, 10000, 4},
		{Spec{Scenario: scenarios.MeanHard}, 10000, 2}, // smooth-sc
		{Spec{Scenario: scenarios.AffineHard, Class: theory.SmoothConvex, Beta: 1}, 10000, 2},
		// sgd borrows localized's schedule, which reads r̃_2k: at ν = 7,
		// 2k < 7 fails at k = 4, so k falls back to 2 (and n to 512) as for
		// localized itself, rather than resolving k = 4 and then being
		// refused by the solver (r̃_8 = ∞).
		{Spec{Scenario: scenarios.HingeT, Solver: "nonprivate-schedule", Tail: 7}, 512, 2},
	} {
		t.Run(caseName(c.spec), func(t *testing.T) {
			rr, err := c.spec.Resolve()
			if err != nil {
				t.Fatalf("%+v: %v", c.spec, err)
			}
			r := rr.Spec
			if r.N != c.n || r.K != c.k {
				t.Errorf("%s %s (tail %g, budget %d): n = %d, k = %g; want %d, %g", r.Scenario, r.Class, r.Tail, r.WorkBudget, r.N, r.K, c.n, c.k)
			}
			if again, err := r.Resolve(); err != nil || again.Spec.N != r.N || again.Spec.K != r.K {
				t.Errorf("%s: resolving twice changes n, k: %d, %g (%v)", r.Scenario, again.Spec.N, again.Spec.K, err)
			}
		})
	}
}
