package tui

import (
	"math"
	"strings"
	"testing"

	"dpso/theory"
	"dpso/tui/common"
	"dpso/tui/screens"
)

// TestPrivacyPanelStatesOneDraw: after a comparison on a scenario the
// privacy panel's first line says what all the releases of one draw
// spent together — what dpso run --solvers's total line says ("the 2
// releases of one trial … share its draw and spent ρ = 1 zCDP …: ε' =
// 6.57 on it") — above each solver's own ε', which covers its output
// alone; at 120×32 (the projector) its first lines showed only the
// latter. acsa beside lipschitz-dpsgd at ε = 1 spend ρ = 2 · ½ = 1 on a
// draw: ε' = 6.57 at δ = 10⁻⁵, the exact conversion of a Gaussian
// mechanism with μ = √(2ρ) = √2 (theory's TestExactConversion). With
// the non-private baseline among them (c), they are not private.
func TestPrivacyPanelStatesOneDraw(t *testing.T) {
	s := example1
	s.N, s.Trials, s.Workers = 2000, 2, 1
	m := newEngineModel(t, &s, 120, 32)
	pump(t, m, m.start(screens.VersusJob([]string{"lipschitz-dpsgd"}), false), func() bool { return settled(m) })
	want := "all 2 releases of one draw: ε' = " + common.FmtNum(theory.EpsExact(math.Sqrt2, 1e-5))
	if common.FmtNum(theory.EpsExact(math.Sqrt2, 1e-5)) != "6.57" {
		t.Fatalf("ε' of ρ = 1 at δ = 10⁻⁵: %s", common.FmtNum(theory.EpsExact(math.Sqrt2, 1e-5)))
	}
	lines := strings.Split(stripANSI(m.privacy.View()), "\n")
	if len(lines) < 2 || !strings.Contains(lines[1], want) {
		t.Errorf("the privacy panel's first line is not %q:\n%s", want, strings.Join(lines, "\n"))
	}
	if v := strings.Join(lines, "\n"); !strings.Contains(v, "of each solver") {
		t.Errorf("the panel no longer states each solver's ε' on its first screen:\n%s", v)
	}

	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Compare })
	if v := stripANSI(m.privacy.View()); !strings.Contains(strings.Split(v, "\n")[1], "releases of one draw: not private") {
		t.Errorf("after c (the non-private baseline among them) the first line does not say one draw's releases are not private:\n%s", v)
	}
}
