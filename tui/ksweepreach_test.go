package tui

import (
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/screens"
)

// TestKSweepKeyDoesNotWait: o on a Spec with a declared constant (the k
// grid's reach builds a problem at every k: about a second on logreg-t)
// returns at once, the screen saying that it computes how far k can go;
// the sweep starts when the command's answer comes, and ends. No clock:
// the screen is read before any command of the key ran.
func TestKSweepKeyDoesNotWait(t *testing.T) {
	sp := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 20, K: 4, Lf: 1e4, N: 20000, Trials: 1}
	m := newTestModel(t, &fakeRunner{points: 3}, &sp, 120, 32)
	_, cmd := m.Update(press("o"))
	if v := screenText(m); !strings.Contains(strings.Join(strings.Fields(v), " "), "computing how far k can go") {
		t.Errorf("right after o the screen does not say that it computes the k grid:\n%s", v)
	}
	pump(t, m, cmd, func() bool { return doneOf(m, screens.SweepKKind) })
	if r := m.run(); r.SweepSpec.To != 4 {
		t.Errorf("the k sweep ran to %g, want 4 (L_f = 10⁴ < r̃_2k = ∞ from k = 6)", r.SweepSpec.To)
	}
}
