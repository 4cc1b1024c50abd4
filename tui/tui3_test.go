package tui

import (
	"strings"
	"testing"

	"dpso/scenarios/spec"
	"dpso/theory"
)

// TestRefusedRunDrawsStartLine: a run whose solver refuses (lipschitz-dpsgd
// on linreg-t, L_f = ∞: its prescription refuses too) still draws the
// start line F(w₀) − F*, the scenario's own number, and no certificate.
func TestRefusedRunDrawsStartLine(t *testing.T) {
	s := spec.Spec{Scenario: "linreg-t", Class: theory.SmoothConvex, Solver: "lipschitz-dpsgd", N: 10000, Trials: 3}
	m := newTestModel(t, &fakeRunner{points: 4}, &s, 132, 42)
	p := m.chartScreen().presc.p
	if p == nil || p.Refused == "" || !(p.W0.Mean > 0) {
		t.Fatalf("the prescription should refuse and give F(w₀) − F* > 0: %+v", p)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseRefused })
	v := stripANSI(m.chartScreen().View())
	if !strings.Contains(v, "══ w₀ "+fmtNum(p.W0.Mean)) {
		t.Errorf("the refused run's chart has no start line w₀ %s:\n%s", fmtNum(p.W0.Mean), v)
	}
	if strings.Contains(v, "certified") {
		t.Errorf("a refused prescription has no certificate to draw:\n%s", v)
	}
}
