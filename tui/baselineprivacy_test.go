package tui

import (
	"strings"
	"testing"

	"dpso/solvers"
)

// TestBaselinePanelsSayNotPrivate: with the form's solver the non-private
// baseline at ε = 1, the privacy panel says what `dpso run --solver
// nonprivate-schedule` says ("NOT PRIVATE … is the non-private baseline
// (no clipping, no noise)") and states no ρ, no (ε', δ) and no ledger
// for it, before the run and after it; the theorem panel says so too and
// names the certificate as the proof's bound at the run's C = ∞, σ = 0
// (by its id, as dpso run does), not as the private theorem.
func TestBaselinePanelsSayNotPrivate(t *testing.T) {
	sp := example1
	sp.Solver = solvers.NonPrivateScheduleName
	m := newTestModel(t, &fakeRunner{points: 3}, &sp, 132, 42)
	check := func(t *testing.T) {
		v := strings.Join(strings.Fields(stripANSI(m.privacy.View())), " ")
		if !strings.Contains(v, "NOT PRIVATE: nonprivate-schedule is the non-private baseline (no clipping, no noise)") {
			t.Errorf("the privacy panel does not say the run is not private:\n%s", v)
		}
		for _, bad := range []string{"zCDP", "ε' =", "spent", "ledger"} {
			if strings.Contains(v, bad) {
				t.Errorf("the privacy panel of the non-private baseline states %q:\n%s", bad, v)
			}
		}
		f := strings.Join(strings.Fields(stripANSI(m.formula.View())), " ")
		_, cert, _ := strings.Cut(f, "certified ≤ ")
		cert, _, _ = strings.Cut(cert, " w₀ ")
		if !strings.Contains(f, "NOT PRIVATE: nonprivate-schedule is the non-private baseline (no clipping, no noise)") ||
			!strings.Contains(cert, "at this run's C = ∞, σ = 0 (its proof's bound without noise)") || strings.Contains(cert, "Theorem") || strings.Contains(cert, "Proposition") {
			t.Errorf("the theorem panel gives the non-private baseline a private theorem's certificate (%q):\n%s", cert, f)
		}
	}
	t.Run("before the run", check)
	keyUntil(t, m, "r", func() bool { return settled(m) })
	t.Run("after the run", check)
}
