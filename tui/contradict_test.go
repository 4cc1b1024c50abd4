package tui

import (
	"fmt"
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/screens"
)

// TestMomentsFlagsContradictedConstant: the moment profile of a run with
// a given L_f below the scenario's own (Student-t data, whose L_f is ∞ and
// r̃_k ∞ from k = 5 on — the first preset's --lf 10⁶) marks the L_f row
// and says in a sentence that the scenario contradicts it; without the
// flag it says nothing of the kind.
func TestMomentsFlagsContradictedConstant(t *testing.T) {
	for _, c := range []struct {
		lf   float64
		flag bool
	}{{1e6, true}, {0, false}} {
		t.Run(fmt.Sprintf("lf=%g", c.lf), func(t *testing.T) {
			s := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, Lf: c.lf, D: 3, N: 2000, Trials: 2}
			m := newTestModel(t, &fakeRunner{points: 3}, &s, 132, 42)
			keyUntil(t, m, "m", func() bool {
				return m.shownKind() == screens.MomentsKind && strings.Contains(screenText(m), "(L_f)")
			})
			v := screenText(m)
			has := strings.Contains(v, "the given L_f = 10⁶ is below the scenario's own L_f = ∞") && strings.Contains(v, "10⁶ ⚠")
			if has != c.flag {
				t.Errorf("--lf %g: the moment profile flags a contradiction: %v, want %v:\n%s", c.lf, has, c.flag, v)
			}
		})
	}
}
