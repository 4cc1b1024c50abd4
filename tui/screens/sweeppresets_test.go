package screens

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/presets"
)

// TestPresetSweepsStartAndEnd: every preset's sweeps over n, ε and k —
// the grids its keys (s, v, o) run on its own Spec — start: the engine
// prepares every point (each problem built with the declared constants,
// each solver prescribed), so that no sweep fails as a whole for a point
// its own grid chose (preset 1's k sweep once reached k = 5.66, where
// r̃_2k = ∞ exceeds its declared L_f = 10⁴); a sweep a preset does not
// offer says why instead. And they end: the same sweep, on the preset's
// Spec with n cut to smallN and one trial, returns a point for every
// grid value.
func TestPresetSweepsStartAndEnd(t *testing.T) {
	const smallN = 500
	ctx := context.Background()
	for i, p := range presets.All {
		for _, a := range []*sweepAxis{&sweepNAxis, &sweepEpsAxis, &sweepKAxis} {
			t.Run(fmt.Sprintf("preset %d/%s", i+1, a.what), func(t *testing.T) {
				res := mustResolve(t, p.Spec)
				if a.reach {
					primeReachK(res) // as the screen does, off the event loop
				}
				sw, why := a.grid(res)
				if why != "" {
					t.Logf("not offered: %s", why)
					return
				}
				if _, err := engine.PrepareSweep(ctx, res, sw); err != nil {
					t.Fatalf("the %s over %g … %g fails as a whole: %v", a.what, sw.From, sw.To, err)
				}
				small := p.Spec.Clone()
				small.N, small.Trials = min(small.N, smallN), 1
				sres := mustResolve(t, small)
				if a.reach {
					primeReachK(sres)
				}
				ssw, why := a.grid(sres)
				if why != "" {
					t.Fatalf("at n = %d: not offered: %s", small.N, why)
				}
				rep, err := engine.Sweep(ctx, sres, ssw, nil)
				if err != nil {
					t.Fatalf("at n = %d, 1 trial: the %s over %g … %g fails: %v", small.N, a.what, ssw.From, ssw.To, err)
				}
				if got, want := len(rep.Points), len(ssw.Grid()); got != want {
					t.Errorf("at n = %d: %d points, want %d", small.N, got, want)
				}
			})
		}
	}
}

// TestKSweepSaysWhereItStops: the k sweep's grid stops at the largest end
// whose every point builds, and the panel says where and why — before the
// sweep, beside the intro, and after it, under the points: a declared
// L_f = 10⁴ with ν = 20 (r̃_2k = ∞ from k = 5 on) and ν = 10 alone (r̃_k =
// ∞ from k = 5 on) stop at 4; example1, whose moments all exist, reaches
// the last end, 16, and says nothing.
func TestKSweepSaysWhereItStops(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    spec.Spec
		top  float64
		says []string // in the stop sentence ("": none)
	}{
		{"declared L_f", spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 20, K: 4, Lf: 1e4, N: 20000}, 4,
			[]string{"k stops at 4: at k = 6, L_f = 10000 < r̃_2k = ∞"}},
		{"tails", spec.Spec{Scenario: scenarios.LinRegT, Tail: 10}, 4,
			[]string{"k stops at 4: at k = 6, r̃_k is infinite for linreg-t at ν = 10"}},
		{"every moment", example1, 16, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := mustResolve(t, tc.s)
			primeReachK(res)
			sw, why := sweepKAxis.grid(res)
			if why != "" || sw.From != 2 || sw.To != tc.top {
				t.Fatalf("grid %+v %q, want 2 … %g", sw, why, tc.top)
			}
			stop := sweepKAxis.stop(res)
			for _, w := range tc.says {
				if !strings.Contains(stop, w) {
					t.Errorf("stop sentence %q lacks %q", stop, w)
				}
			}
			if len(tc.says) == 0 && stop != "" {
				t.Errorf("the grid reaches the last end, yet it says %q", stop)
			}
			s := newRateSweepScreen(testCommon(), &sweepKAxis)
			s.Table.SetSize(60, 40)
			s.Table.stop = stop
			s.Table.set(nil, "")
			before := strings.Join(strings.Fields(stripANSI(s.Table.View())), " ")
			s.Table.set(&engine.SweepReport{Sweep: sw, Solvers: []string{"acsa"}, NoiseOff: true,
				Points: []engine.SweepPoint{{Value: 2, Reports: []*engine.Report{{}}}, {Value: tc.top, Reports: []*engine.Report{{}}}}}, "")
			after := strings.Join(strings.Fields(stripANSI(s.Table.View())), " ")
			for _, w := range tc.says {
				if !strings.Contains(before, w) || !strings.Contains(after, w) {
					t.Errorf("the panel does not say %q:\nbefore the sweep: %s\nafter: %s", w, before, after)
				}
			}
		})
	}
}
