package tui

import (
	"fmt"
	"strings"
	"testing"

	"dpso/theory"
	"dpso/tui/common"
	"dpso/tui/components/privacy"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// TestPrivacyPanelKeepsTheDrawnRun: after a comparison with the
// non-private baseline (c) the form changes (preset 3's own next step:
// a field stepped, no r); the chart still draws that comparison, so the
// privacy panel keeps its statements — "all 5 releases of one draw: not
// private" — tagged "run #N's: parameters changed since", and states the
// form's budget apart, under "next run (r):", with the form's ρ = ε²/2
// and its exact ε' (theory.EpsExact, TestExactConversion's). It dropped
// the drawn run's "not private" and showed the form's budget beside an
// untagged ledger line.
func TestPrivacyPanelKeepsTheDrawnRun(t *testing.T) {
	s := example1
	s.N, s.Trials, s.Workers = 2000, 2, 1
	m := newEngineModel(t, &s, 120, 32)
	pump(t, m, m.start(screens.VersusJob([]string{"lipschitz-dpsgd"}), false), func() bool { return settled(m) })
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Compare })
	run := m.run()
	p := privacy.New(m.Common)
	p.SetSize(46, 60)
	p.Update(common.SpecMsg{Spec: m.form.Resolved()})
	p.Update(runs.Event{Run: run})
	before := strings.Join(strings.Fields(stripANSI(p.View())), " ")
	notPrivate := fmt.Sprintf("all %d releases of one draw: not private", run.Comparison.Total.Composition.Releases)
	if !strings.Contains(before, notPrivate) || strings.Contains(before, "changed since") {
		t.Fatalf("the comparison's panel does not say %q untagged:\n%s", notPrivate, before)
	}

	next := m.form.Resolved().Spec.Clone()
	next.N, next.Eps = 4000, 2
	res, err := next.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	p.Update(common.SpecMsg{Spec: res})
	v := strings.Join(strings.Fields(stripANSI(p.View())), " ")
	tag := fmt.Sprintf("run #%d's: parameters changed since (r runs them)", run.ID)
	nextRun := "next run (r): ρ = ε²/2 = " + common.FmtNum(res.Privacy.Rho) + " zCDP · (ε', δ=10⁻⁵)-DP: ε' = " + common.FmtNum(theory.EpsExact(res.Privacy.Eps, 1e-5)) + " exact"
	for _, want := range []string{tag, notPrivate, "of each solver", nextRun} {
		if !strings.Contains(v, want) {
			t.Errorf("after the form changed the panel does not say %q:\n%s", want, v)
		}
	}
	if i, j := strings.Index(v, notPrivate), strings.Index(v, "next run (r)"); !(strings.Index(v, tag) < i && i < j) {
		t.Errorf("the drawn run's statements are not first, tagged, and the next run's after them:\n%s", v)
	}
	if res.Privacy.Rho != 2 {
		t.Errorf("ρ of ε = 2: %g, want ε²/2 = 2", res.Privacy.Rho)
	}
}
