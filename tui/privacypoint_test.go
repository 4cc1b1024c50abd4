package tui

import (
	"strings"
	"testing"

	"dpso/tui/common"
	"dpso/tui/components/privacy"
	"dpso/tui/runs"
)

// TestPrivacyPanelAtTheSweepPoint: after preset 10's sweep of ε (the
// form's ε = 1), the privacy panel's ρ and (ε', δ) conversions are those
// of the point its ledger line shows (ε = 10: ρ = ε²/2 = 50, μ = 10), said
// so, never the form's ε = 1 beside "spent … of 50 at ε = 10".
func TestPrivacyPanelAtTheSweepPoint(t *testing.T) {
	m := loadedPreset(t, 9, 132, 42)
	p := privacy.New(m.Common)
	p.SetSize(46, 30)
	p.Update(common.SpecMsg{Spec: m.form.Resolved()})
	p.Update(runs.Event{Run: m.run()})
	v := strings.Join(strings.Fields(stripANSI(p.View())), " ")
	for _, want := range []string{"at ε = 10 (the sweep point shown):", "ρ = ε²/2 = 50 zCDP · μ = ε = 10 GDP", "of 50 at ε = 10"} {
		if !strings.Contains(v, want) {
			t.Errorf("the privacy panel does not say %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "ρ = ε²/2 = 0.5") || strings.Contains(v, "ε' = 4.38") {
		t.Errorf("the privacy panel shows the form's ε = 1 beside the point's ledger:\n%s", v)
	}
	// Before a sweep (the form's Spec alone) it is the form's.
	q := privacy.New(m.Common)
	q.SetSize(46, 30)
	q.Update(common.SpecMsg{Spec: m.form.Resolved()})
	if v := stripANSI(q.View()); !strings.Contains(v, "ρ = ε²/2 = 0.5 zCDP") || strings.Contains(v, "sweep point") {
		t.Errorf("without a sweep the panel is not the form's budget:\n%s", v)
	}
}
