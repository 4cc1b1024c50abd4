package chart

import (
	"fmt"
	"strings"
	"testing"

	"dpso/tui/style"
)

// TestWarnOutranksLegend: a chart's warning (a run whose parameters the
// form does not hold) is shown whole however many legend lines give
// way to it — preset 3's, at 120×32, was cut mid-sentence under four
// refusals and "… 3 more legend lines".
func TestWarnOutranksLegend(t *testing.T) {
	warn := "⚠ parameters changed since run #2: its curves, legend and certificate are that run's (r runs the form's)"
	reason := "solver: klz-gd is gradient descent on a β-smooth loss (Kamath, Liu & Zhang's setting: step 1/β), and this problem's loss is not smooth"
	for _, sz := range [][2]int{{52, 16}, {76, 13}, {76, 18}, {82, 22}} {
		w, h := sz[0], sz[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			st := style.NewTheme(style.Dark, true, true)
			c := New(&st, testNum)
			c.SetSize(w, h)
			c.SetTitle("Excess risk", "comparison #2 · 5 trials, same draws · parameters changed since: press r")
			c.SetNote("ε': each solver's (ε', δ = 10⁻⁵)-DP\nrates: theorem panel · their slopes: sweeps")
			c.SetWarn(warn)
			c.SetData([]Series{
				{Label: "localized", Kind: Run, Points: []Point{{10, 0.8}, {80, 0.15}}},
				{Label: "dp-sgd", Kind: Run, Points: []Point{{10, 0.8}, {80, 0.06}}},
				{Label: "nonprivate-schedule", Kind: Run, Points: []Point{{10, 0.8}, {80, 0.01}}},
				{Label: "lipschitz-dpsgd", Kind: Run, Refused: "the worst-case Lipschitz parameter L_f is infinite for this problem, so no finite noise level makes it private"},
				{Label: "klz-gd", Kind: Run, Refused: reason},
			}, 10, 160, "")
			v := c.View()
			if n := len(strings.Split(v, "\n")); n != h {
				t.Fatalf("%d lines, not %d", n, h)
			}
			if got := strings.Join(strings.Fields(style.StripANSI(v)), " "); !strings.Contains(got, warn) {
				t.Errorf("the warning is not whole:\n%s", style.StripANSI(v))
			}
		})
	}
}
