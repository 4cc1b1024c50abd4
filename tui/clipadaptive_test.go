package tui

import (
	"fmt"
	"strings"
	"testing"

	"dpso/solvers/oracle"
	"dpso/tui/backend"
	"dpso/tui/runs"
)

// TestClipAdaptiveSaysWhatIsNotShown: on a comparison with adaptive
// clipping the clipping panel draws C's trajectory, and at every height
// it still draws the histogram with its axis or says it is not shown,
// and keeps the warning that the parameters changed since the run whole
// — the trajectory gives way to them, never they to it.
func TestClipAdaptiveSaysWhatIsNotShown(t *testing.T) {
	m := goldenModel(t, 80, 24)
	hist := testBatchHist()
	call := backend.Call{Kind: backend.Compare, Names: []string{"dp-sgd"}}
	call.Spec.Spec.AdaptiveClip = true
	r := &runs.Run{Job: runs.Job{Call: call}, HaveHist: true, HistWho: "dp-sgd · trial 0",
		Hist: oracle.BatchStats{Size: 256, Threshold: 3.2, Hist: hist}, ClipIters: 4000, ClipSolver: "dp-sgd"}
	for i := range 40 {
		r.ClipTrail = append(r.ClipTrail, runs.ClipPoint{Iter: 100 * i, C: 10 / float64(i+1)})
	}
	if !r.Adaptive() {
		t.Fatal("the test's run is not adaptive")
	}
	for _, tc := range []struct {
		w, h  int
		stale bool
	}{
		{42, 4, false}, {42, 5, false}, {42, 6, false}, {42, 8, false}, {42, 12, false},
		{42, 5, true}, {42, 6, true}, {42, 8, true}, {42, 12, true}, {30, 7, true},
	} {
		t.Run(fmt.Sprintf("%dx%d/stale=%v", tc.w, tc.h, tc.stale), func(t *testing.T) {
			v := clipPanelView(m, r, tc.w, tc.h, tc.stale)
			// The histogram's top row says what a bar counts, its
			// bottom row is its axis (the trajectory's sparkline
			// draws blocks too).
			count, axis := strings.Contains(v, " rows "), strings.Contains(v, "‖∇f‖")
			if count != axis {
				t.Errorf("the histogram's count drawn %v, its axis %v:\n%s", count, axis, v)
			}
			if !axis && !strings.Contains(v, "histogram: ") {
				t.Errorf("the histogram is not drawn and no line says so:\n%s", v)
			}
			if words := strings.Join(strings.Fields(v), " "); tc.stale && !strings.Contains(words, "parameters changed since (r runs them)") {
				t.Errorf("the warning that the parameters changed is not whole:\n%s", v)
			}
		})
	}
}
