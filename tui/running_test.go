package tui

import (
	"math"
	"strings"
	"testing"

	"dpso/internal/engine"
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
		return len(tr) >= 2 // the second trial's checkpoints 0 and 1
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

// TestRunningComparisonNamesItsLargeReads: while a comparison whose plan
// reads 10⁸ rows or more runs, the chart's note names each solver that
// reads its rows two times or more a trial, with its reads, passes and
// whether at random, their share of the rows read, and that a smaller n
// reads fewer — preset 1's comparison's plan (n = 2·10⁶, 8 trials: the
// one-pass solvers 1.6·10⁷ rows each, klz-gd 10 passes, dp-sgd 5 at
// random; 1.6·10⁷ rows drawn); a plan a hundredth of it says nothing,
// and neither does the finished run.
func TestRunningComparisonNamesItsLargeReads(t *testing.T) {
	const n, trials = 2e6, 8
	drawn := float64(n * trials)
	preset1 := []engine.PlanReads{
		{Solver: "acsa", Rows: drawn, Drawn: drawn},
		{Solver: "nonprivate-schedule", Rows: drawn, Drawn: drawn},
		{Solver: "lipschitz-dpsgd", Rows: drawn, Drawn: drawn},
		{Solver: "klz-gd", Rows: 10 * drawn, Drawn: drawn},
		{Solver: "dp-sgd", Rows: 5 * drawn, Drawn: drawn, Random: true},
	}
	// 2.4·10⁸ of (3 + 10 + 5)·1.6·10⁷ read and 1.6·10⁷ drawn, 3.04·10⁸: 79%.
	const want = "row reads: klz-gd 1.6·10⁸ (10 passes), dp-sgd 8·10⁷ (5 passes, at random) — 79% of 3·10⁸ drawn and read; a smaller n reads fewer"
	small := make([]engine.PlanReads, len(preset1))
	for i, rd := range preset1 {
		small[i] = rd
		small[i].Rows /= 100
		small[i].Drawn /= 100
	}
	for _, tc := range []struct {
		name  string
		reads []engine.PlanReads
		says  bool
	}{
		{"preset 1's plan", preset1, true},
		{"a hundredth of it", small, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp := example1
			sp.Lf = 10
			fr := &fakeRunner{points: 3, hold: make(chan struct{}), holdAt: 1, reads: tc.reads}
			m := newTestModel(t, fr, &sp, 120, 32)
			_, cmd := m.Update(press("c"))
			r := m.run()
			pump(t, m, cmd, func() bool { return r.Plan != nil && len(r.Traces) > 0 })
			note := strings.Join(strings.Fields(stripANSI(m.chartScreen().View())), " ")
			if got := strings.Contains(note, want); got != tc.says {
				t.Errorf("the running chart's note says the reads: %v, want %v (%q):\n%s", got, tc.says, want, note)
			}
			close(fr.hold)
			pump(t, m, nil, func() bool { return r.Phase == runs.Done && r.Drained })
			if note := stripANSI(m.chartScreen().View()); strings.Contains(note, "row reads:") {
				t.Errorf("the finished run's note still gives the plan's reads:\n%s", note)
			}
		})
	}
}
