package tui

import (
	"fmt"
	"strings"
	"testing"

	"dpso/solvers/oracle"
	"dpso/tui/backend"
	"dpso/tui/components/clip"
	"dpso/tui/runs"
)

// TestClipHistogramWithItsAxis: at every height the clipping panel's
// histogram is drawn with its axis (the decades and ▲C), or not at all
// with a line that says so — never a row of bars without the axis that
// reads them, nor rows left blank in its place. The heights are those a
// 120×32 terminal gives the panel (6 rows: a sweep's batch line, naming
// its point, wraps to two).
func TestClipHistogramWithItsAxis(t *testing.T) {
	m := goldenModel(t, 80, 24)
	var hist [oracle.HistBins]int
	for b, n := range map[int]int{14: 10, 16: 40, 17: 80, 18: 120, 19: 60} {
		hist[b] = n
	}
	sweep := &runs.Run{Job: runs.Job{Call: backend.Call{Names: []string{"acsa"}}}, HaveHist: true, HistWho: "acsa · trial 7", HistAt: "ε", HistAtValue: 10,
		Hist: oracle.BatchStats{Size: 26700, Threshold: 226, Hist: hist}}
	for _, tc := range []struct {
		w, h    int
		drawn   bool
		wantRow string
	}{
		{42, 8, true, ""}, {42, 7, true, ""}, {42, 6, true, ""}, {42, 5, false, "histogram: needs a taller terminal"},
		{42, 4, false, ""}, {46, 6, true, ""}, {34, 5, false, "histogram: needs a taller terminal"},
	} {
		t.Run(fmt.Sprintf("%dx%d", tc.w, tc.h), func(t *testing.T) {
			cp := clip.New(m.Common)
			cp.SetSize(tc.w, tc.h)
			cp.Update(runs.Event{Run: sweep})
			v := stripANSI(cp.View())
			rows := strings.Split(v, "\n")
			bars, axis := strings.Contains(v, "█"), strings.Contains(v, "‖∇f‖")
			if bars != axis || bars != tc.drawn {
				t.Errorf("bars drawn %v, axis drawn %v (want both %v):\n%s", bars, axis, tc.drawn, v)
			}
			if tc.wantRow != "" && !strings.Contains(v, tc.wantRow) {
				t.Errorf("no %q where the histogram is not drawn:\n%s", tc.wantRow, v)
			}
			if !tc.drawn && strings.TrimSpace(rows[len(rows)-1]) == "" && len(rows) >= 5 {
				t.Errorf("a row left blank where the histogram is not drawn:\n%s", v)
			}
		})
	}
}
