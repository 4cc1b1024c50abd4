package tui

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"dpso/tui/common"
	"dpso/tui/components/form"
	"dpso/tui/presets"
)

// TestKHintIsTheTheoremsExponent: over k, the k field's explanation
// names the privacy term the theorem panel lists for the form's Spec and
// its exponent in n at that k, from first principles: −(k−1)/k for
// noisy clipped AC-SA's r̃_k·D·a^((k−1)/k), a = √d/(εn) (preset 3,
// smooth convex), and (2k−2)/k·(1/ln n − 1) for the proximal-PL
// theorem's (r̃_k²/μ)·(√d·κ·ln n/(εn))^((2k−2)/k) (preset 7) — not the
// convex class's (k−1)/k written for every class.
func TestKHintIsTheTheoremsExponent(t *testing.T) {
	for _, c := range []struct {
		preset int
		term   string
		tail   float64 // the scenario's ν (0: the preset's)
		ks     []float64
		slope  func(k, n float64) float64
	}{
		{2, "r̃_k·D·a^((k−1)/k)", 0, []float64{2, 3, 8, math.Inf(1)}, func(k, _ float64) float64 { return -(1 - 1/k) }},
		{6, "(r̃_k²/μ)·(√d·κ·ln n/(εn))^((2k−2)/k)", 40, []float64{2, 3, 8}, func(k, n float64) float64 { return 2 * (1 - 1/k) * (1/math.Log(n) - 1) }},
	} {
		for _, k := range c.ks {
			t.Run(fmt.Sprintf("preset %d at k = %s", c.preset+1, common.FmtNum(k)), func(t *testing.T) {
				s := presets.All[c.preset].Spec.Clone()
				s.K = k
				if c.tail != 0 {
					s.Tail = c.tail // r̃_k exists for k < ν/2
				}
				m := newTestModel(t, &fakeRunner{points: 3}, &s, 120, 32)
				m.form.SetFocus(form.K)
				m.formula.SetSize(60, 200) // every line of the panel
				panel := strings.Join(strings.Fields(stripANSI(m.formula.View())), " ")
				hint := m.form.Message()
				if !strings.Contains(panel, c.term+" (privacy)") {
					t.Fatalf("the theorem panel does not list the privacy term %q:\n%s", c.term, panel)
				}
				want := "the theorem's (the theorem panel) is " + c.term
				if !strings.Contains(hint, want) {
					t.Errorf("the k hint %q does not name the theorem panel's privacy term %q", hint, c.term)
				}
				if exp := "falling like n^" + common.FmtNum(c.slope(k, float64(m.form.Resolved().Spec.N))) + " at k = " + common.FmtNum(k); !strings.Contains(hint, exp) {
					t.Errorf("the k hint %q does not say %q", hint, exp)
				}
				for _, bad := range []string{"exponent (k−1)/k", "exponent (2k−2)/k"} {
					if strings.Contains(hint, bad) {
						t.Errorf("the k hint %q writes %q from a table", hint, bad)
					}
				}
			})
		}
	}
}
