package tui

import (
	"math"
	"strings"
	"testing"

	"dpso/tui/common"
	"dpso/tui/runs"
)

// TestRunningComparisonShowsFinishedSolvers: while a comparison runs, a
// solver whose trials have all finished shows its curve and its mean
// final excess risk, said to be all its trials; a solver still running
// shows no number in the legend, only that it runs and how many of its
// trials have finished; at the end the report's figures replace both.
// The fake runs the solvers one after another and holds the second
// solver's second trial at its checkpoint 2: the first solver is done,
// the second has one finished trial, the others none.
func TestRunningComparisonShowsFinishedSolvers(t *testing.T) {
	sp := example1
	sp.Lf = 10 // lipschitz-dpsgd runs: no refusal among the solvers
	const points = 3
	fr := &fakeRunner{points: points, hold: make(chan struct{}), holdAt: 2, holdSolver: 1, holdTrial: 1}
	m := newTestModel(t, fr, &sp, 120, 32)
	_, cmd := m.Update(press("c"))
	r := m.run()
	if r == nil || len(r.Names) < 3 {
		t.Fatalf("the comparison did not start with three solvers or more: %+v", r)
	}
	trials := sp.Trials
	pump(t, m, cmd, func() bool {
		tr := r.Traces[r.Names[1]][1]
		return tr != nil && len(tr) >= 2 // the second trial's checkpoints 0 and 1
	})
	series := map[string]int{}
	for i, s := range m.chartScreen().Chart.Series() {
		series[s.Label] = i
	}
	flat := strings.Join(strings.Fields(stripANSI(m.chartScreen().View())), " ")
	t.Run("the finished solver", func(t *testing.T) {
		s := m.chartScreen().Chart.Series()[series[r.Names[0]]]
		if len(s.Points) != points+1 {
			t.Fatalf("%s's curve has %d points, want %d", r.Names[0], len(s.Points), points+1)
		}
		for j, p := range s.Points {
			var want float64
			for trial := range trials {
				want += fakeExcess(0, trial, j)
			}
			want /= float64(trials)
			if math.Abs(p.Y-want) > 1e-12 {
				t.Errorf("checkpoint %d is %g, want %g: the mean of its %d trials", j, p.Y, want, trials)
			}
		}
		if want := r.Names[0] + " " + common.FmtNum(s.Points[points].Y) + " all " + itoa(trials) + " trials done"; !strings.Contains(flat, want) {
			t.Errorf("the legend does not read %q:\n%s", want, flat)
		}
	})
	t.Run("the running solvers", func(t *testing.T) {
		for i, name := range r.Names[1:] {
			done := 0
			if i == 0 {
				done = 1
			}
			want := name + " running, " + itoa(done) + "/" + itoa(trials) + " trials"
			if !strings.Contains(flat, want) {
				t.Errorf("the legend does not read %q:\n%s", want, flat)
			}
		}
		if tr := m.chartScreen().Chart.Series()[series[r.Names[1]]]; len(tr.Points) == 0 {
			t.Errorf("%s's live curve is not drawn", r.Names[1])
		}
	})
	close(fr.hold)
	pump(t, m, nil, func() bool { return r.Phase == runs.Done && r.Drained })
	flat = strings.Join(strings.Fields(stripANSI(m.chartScreen().View())), " ")
	t.Run("the end", func(t *testing.T) {
		if strings.Contains(flat, "running,") || strings.Contains(flat, "trials done") {
			t.Errorf("the finished comparison's legend still says running or trials done:\n%s", flat)
		}
		for si, name := range r.Names {
			rep := r.Comparison.Reports[si]
			if want := name + " " + common.FmtNum(rep.Trace[len(rep.Trace)-1].Excess); !strings.Contains(flat, want) {
				t.Errorf("the legend does not read the report's %q:\n%s", want, flat)
			}
		}
	})
}
