package screens

import (
	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/style"
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

// TestSlopesNotesWrap: a bound's rate note is wrapped in full when the
// panel has the rows (mean-hard's sweep cut it at "lf from 4.239…",
// before the explanation, over three empty rows); on a panel too short
// for every note wrapped, each note keeps one line and the closing
// sentence stays.
func TestSlopesNotesWrap(t *testing.T) {
	note := "local rate withheld: the scenario's constants change with n here (lf from 4.239 to 16.96), so the analytic rate at fixed constants is not the slope along this sweep; the fitted slope is that of the bound's values along this grid"
	rep := &engine.SweepReport{
		Solvers: []string{"clipped-sgd"},
		Slopes:  []engine.Slope{{Solver: "clipped-sgd", Slope: -1, Lo: -1.02, Hi: -0.98, Points: 5}},
		Bounds:  []engine.BoundSlope{{ID: "lipschitz", Kind: theory.Prior, Slope: -0.03, RateNote: note}},
		Points:  []engine.SweepPoint{{Value: 625}, {Value: 10000}},
	}
	for _, tc := range []struct {
		w, h int
		full bool
	}{{84, 16, true}, {84, 6, false}} {
		t.Run(fmt.Sprintf("%dx%d", tc.w, tc.h), func(t *testing.T) {
			p := &slopesPanel{sweepPanel: sweepPanel{Common: testCommon()}, axis: &sweepNAxis}
			p.SetSize(tc.w, tc.h)
			p.set(rep, "")
			v := style.StripANSI(p.View())
			flat := strings.Join(strings.Fields(v), " ")
			if got := strings.Contains(flat, note); got != tc.full {
				t.Errorf("%d×%d: the whole note shown = %v, want %v:\n%s", tc.w, tc.h, got, tc.full, v)
			}
			if !strings.Contains(flat, "compare slopes") && tc.h > 4 {
				t.Errorf("%d×%d: the closing sentence is missing:\n%s", tc.w, tc.h, v)
			}
		})
	}
}
