package screens

import (
	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/common"
	"fmt"
	"strings"
	"testing"
)

// TestSweepScreensOfDAndK: d and k are sweepable from the explorer, each
// with its grid inside what the Spec allows (k up to the largest order
// whose moments the data have), or with why there is none (d and o show
// them: TestSweepKeys).
func TestSweepScreensOfDAndK(t *testing.T) {
	lt := mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, Tail: 10})
	primeReachK(lt)
	sw, why := sweepKAxis.grid(lt)
	if why != "" || sw.From != 2 || sw.To != 4 {
		t.Errorf("k sweep on linreg-t, ν = 10: %+v %q, want 2 … 4 (r̃_k exists for k < 5)", sw, why)
	}
	sw, why = sweepDAxis.grid(lt)
	if why != "" || sw.From != 1 || sw.To != 40 {
		t.Errorf("d sweep on linreg-t, d = 10: %+v %q, want 1 … 40", sw, why)
	}
	if _, why := sweepDAxis.grid(mustResolve(t, example1)); !strings.Contains(why, "fixed dimension") {
		t.Errorf("d sweep on example1: %q", why)
	}
}

// TestSlopesNotesWrap: a bound's rate note is shown whole, wrapped
// (mean-hard's sweep cut it at "lf from 4.239…", and a short panel cut
// every note to one line): on a panel with the rows at once, on a short
// one under a "↓ more" line whose key (j) scrolls to the rest, the
// closing sentence last.
func TestSlopesNotesWrap(t *testing.T) {
	note := "local rate withheld: the scenario's constants change with n here (lf from 4.239 to 16.96), so the analytic rate at fixed constants is not the slope along this sweep; the fitted slope is that of the bound's values along this grid"
	rep := &engine.SweepReport{
		Solvers: []string{"clipped-sgd"},
		Slopes:  []engine.Slope{{Solver: "clipped-sgd", Slope: -1, Lo: -1.02, Hi: -0.98, Points: 5}},
		Bounds:  []engine.BoundSlope{{ID: "lipschitz", Kind: theory.Prior, Slope: -0.03, RateNote: note}},
		Points:  []engine.SweepPoint{{Value: 625}, {Value: 10000}},
	}
	for _, tc := range []struct {
		w, h   int
		scroll bool
	}{{84, 16, false}, {84, 6, true}, {40, 6, true}} {
		t.Run(fmt.Sprintf("%dx%d", tc.w, tc.h), func(t *testing.T) {
			p := &slopesPanel{sweepPanel: newSweepPanel(testCommon()), axis: &sweepNAxis}
			p.SetSize(tc.w, tc.h)
			p.set(rep, "")
			first := stripANSI(p.View())
			if got := strings.Contains(first, "↓"); got != tc.scroll {
				t.Errorf("%d×%d: a \"↓ more\" line = %v, want %v:\n%s", tc.w, tc.h, got, tc.scroll, first)
			}
			flat := strings.Join(strings.Fields(scrolledText(p)), " ")
			if !strings.Contains(flat, note) {
				t.Errorf("%d×%d: the whole note is not on the panel, scrolled to its end:\n%s", tc.w, tc.h, flat)
			}
			if !strings.HasSuffix(flat, "compare slopes, not levels.") {
				t.Errorf("%d×%d: the closing sentence is not last:\n%s", tc.w, tc.h, flat)
			}
		})
	}
}

// scrolledText is every line of a scrolling panel (its title, then each
// line its j key brings into view, to the end), without the scroll line.
func scrolledText(p common.Component) string {
	body := func() []string {
		lines := strings.Split(stripANSI(p.View()), "\n")
		if n := len(lines); n > 0 && (strings.Contains(lines[n-1], "↓ ") || strings.HasPrefix(lines[n-1], "↑ ")) {
			lines = lines[:n-1]
		}
		return lines
	}
	out := body()
	for i := 0; i < 200 && strings.Contains(stripANSI(p.View()), "↓"); i++ {
		p.Update(press("j"))
		b := body()
		out = append(out, b[len(b)-1])
	}
	return strings.Join(out, "\n")
}
