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
// reads them, nor rows left blank in its place; and where a sweep's
// batch line (naming its point) wraps to fill the panel, its last words
// give way ("…") to that line, never the line to them. The heights are
// those a 120×32 terminal gives the panel (6 rows: the batch line wraps
// to two; with the warning that the parameters changed since, the two
// fill it) and the shorter ones where the batch line fills the rows.
func TestClipHistogramWithItsAxis(t *testing.T) {
	m := goldenModel(t, 80, 24)
	hist := testBatchHist()
	sweep := &runs.Run{Job: runs.Job{Call: backend.Call{Names: []string{"acsa"}}}, HaveHist: true, HistWho: "acsa · trial 7", HistAt: "ε", HistAtValue: 10,
		Hist: oracle.BatchStats{Size: 26700, Threshold: 226, Hist: hist}}
	for _, tc := range []struct {
		w, h    int
		stale   bool // the form moved on: a warning under the batch line
		drawn   bool
		wantRow string
	}{
		{42, 8, false, true, ""}, {42, 7, false, true, ""}, {42, 6, false, true, ""}, {42, 5, false, false, "histogram: needs a taller terminal"},
		{42, 4, false, false, "histogram: needs a taller terminal"}, {46, 6, false, true, ""}, {34, 5, false, false, "histogram: needs a taller terminal"},
		{34, 4, false, false, "histogram: needs a taller terminal"}, {42, 3, false, false, "histogram: needs a taller terminal"},
		{24, 4, false, false, "histogram: no room"}, {24, 6, false, false, "histogram: no room"},
		{42, 6, true, false, "histogram: needs a taller terminal"}, {42, 9, true, true, ""},
	} {
		t.Run(fmt.Sprintf("%dx%d/stale=%v", tc.w, tc.h, tc.stale), func(t *testing.T) {
			v := clipPanelView(m, sweep, tc.w, tc.h, tc.stale)
			rows := strings.Split(v, "\n")
			bars, axis := strings.Contains(v, "█"), strings.Contains(v, "‖∇f‖")
			if bars != axis || bars != tc.drawn {
				t.Errorf("bars drawn %v, axis drawn %v (want both %v):\n%s", bars, axis, tc.drawn, v)
			}
			if tc.stale && (!strings.Contains(v, "parameters changed since (r runs") || !strings.Contains(v, "them)")) {
				t.Errorf("the warning that the parameters changed is not whole:\n%s", v)
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

// testBatchHist is a batch histogram of 310 gradient norms in five of
// its bins, for the clipping panel's tests.
func testBatchHist() [oracle.HistBins]int {
	var hist [oracle.HistBins]int
	for b, n := range map[int]int{14: 10, 16: 40, 17: 80, 18: 120, 19: 60} {
		hist[b] = n
	}
	return hist
}

// clipPanelView is the clipping panel, w×h, showing run r (stale: after
// the form moved on from r's parameters), without its styles.
func clipPanelView(m *Model, r *runs.Run, w, h int, stale bool) string {
	cp := clip.New(m.Common)
	cp.SetSize(w, h)
	if stale {
		cp.Update(runs.PrescriptionMsg{Key: "the form's new parameters"})
	}
	cp.Update(runs.Event{Run: r})
	return stripANSI(cp.View())
}
