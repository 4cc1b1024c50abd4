package tui

import (
	"math"
	"strings"
	"testing"
)

// TestTheoremPanelAtEpsInf: at ε = ∞ (preset 4's form with --eps inf)
// the theorem panel says no upper bound applies because the run is not
// private, not that a constant is undeclared (linreg-t declares them all).
func TestTheoremPanelAtEpsInf(t *testing.T) {
	s := linregT
	s.Eps = math.Inf(1)
	m := newTestModel(t, &fakeRunner{points: 3}, &s, 132, 42)
	panel := strings.Join(strings.Fields(stripANSI(m.formula.View())), " ")
	if !strings.Contains(panel, "no upper bound of the paper at these parameters (ε = ∞") || strings.Contains(panel, "not declared") {
		t.Errorf("the theorem panel does not say ε = ∞ is why no bound applies:\n%s", panel)
	}
}
