package chart

import (
	"fmt"
	"strings"
	"testing"

	"dpso/tui/style"
)

// TestLegendCutWhole: where the legend would leave the plot too few
// rows, refusals take one line each and, if that is not enough, whole
// lines give way to a line that says how many are not shown — no entry
// or marker is cut mid-word ("(? fu… …", as preset 6's comparison at
// 120×32 showed with two refusals).
func TestLegendCutWhole(t *testing.T) {
	reason := "solver: klz-gd is gradient descent on a β-smooth loss (Kamath, Liu & Zhang's setting: step 1/β), and this problem's loss is not smooth"
	for _, h := range []int{22, 16, 13, 11} {
		t.Run(fmt.Sprintf("76x%d", h), func(t *testing.T) {
			st := style.NewTheme(style.Dark, true, true)
			c := New(&st, testNum)
			c.SetSize(76, h)
			c.SetTitle("Excess risk", "")
			c.SetNote("ε': each solver's (ε', δ = 10⁻⁵)-DP\nrates: theorem panel · their slopes: sweeps")
			c.SetData([]Series{
				{Label: "localized", Kind: Run, Points: []Point{{10, 0.8}, {80, 0.15}}},
				{Label: "dp-sgd", Kind: Run, Points: []Point{{10, 0.8}, {80, 0.06}}},
				{Label: "lipschitz-dpsgd", Kind: Run, Refused: "the worst-case Lipschitz parameter L_f is infinite for this problem, so no finite noise level makes it private"},
				{Label: "klz-gd", Kind: Run, Refused: reason},
			}, 10, 160, "")
			v := style.StripANSI(c.View())
			lines := strings.Split(v, "\n")
			if len(lines) != h {
				t.Fatalf("%d lines, not %d:\n%s", len(lines), h, v)
			}
			for _, l := range lines {
				l = strings.TrimRight(l, " ")
				if strings.Contains(l, "… …") || strings.Contains(l, "(? fu…") {
					t.Errorf("a legend line is cut twice: %q", l)
				}
				if strings.Contains(l, "refused") && strings.Contains(l, "…") && !strings.HasSuffix(l, "…"+FullMark) {
					t.Errorf("a cut refusal does not end in \"…%s\": %q", FullMark, l)
				}
			}
			notes := strings.Contains(v, "rates: theorem panel")
			marked := strings.Contains(v, "more legend line")
			if !notes && !marked {
				t.Errorf("the legend's end is not shown and no line says so:\n%s", v)
			}
		})
	}
}
