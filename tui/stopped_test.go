package tui

import (
	"math"
	"strings"
	"testing"

	"dpso/solvers"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
)

// TestStoppedRunIsNotRefused: a comparison a server stops part way (its
// bound on the time a run holds its CPU slots: backend.StoppedError) is
// labelled stopped, on the run as a whole — the status bar and the
// chart's note say "stopped after … (k/n trials done)" — never "refused",
// and never pinned on one solver: every solver's curve so far keeps its
// legend entry, saying the trials it finished. The status bar gives the
// stop whole under its state line, as the help does.
func TestStoppedRunIsNotRefused(t *testing.T) {
	const short = "stopped after 30 s on its CPU slots"
	const reason = "this run held its CPU slots for 30 s, the most this server gives one run (dpso serve --max-run-time), and was stopped"
	sp := example1
	sp.Lf = 10 // lipschitz-dpsgd runs: two solvers, no refusal of their own
	m := newTestModel(t, &fakeRunner{points: 3, stop: &backend.StoppedError{Short: short, Reason: reason}, stopAfter: sp.Trials + 1}, &sp, 132, 42)
	keyUntil(t, m, "c", func() bool { r := m.run(); return r != nil && !r.Active() && r.Drained })
	r := m.run()
	if r.Phase != runs.Stopped {
		t.Fatalf("the stopped run ended in phase %d (%q)", r.Phase, r.Refusal)
	}
	v := screenText(m)
	label := short + " (" + r.DoneCount() + " done)"
	if strings.Contains(v, "refused") {
		t.Errorf("a stopped run reads as refused:\n%s", v)
	}
	if state := strings.Split(v, "\n")[m.stateRow()]; !strings.HasPrefix(state, "■ stopped comparison") || !strings.Contains(state, r.DoneCount()+" done") {
		t.Errorf("the status bar's state %q does not say the run was stopped, with its trials done", state)
	}
	if msg := statusMessage(m); msg != label+": "+reason {
		t.Errorf("the status bar's message under the state is %q, want the stop whole", msg)
	}
	flat := strings.Join(strings.Fields(stripANSI(m.chartScreen().View())), " ")
	if !strings.Contains(flat, label) {
		t.Errorf("the chart does not label the run %q:\n%s", label, v)
	}
	for _, name := range r.Names[:2] {
		if !strings.Contains(flat, name+" ") || !strings.Contains(flat, "finished trial") {
			t.Errorf("%s's curve has no legend entry saying its finished trials:\n%s", name, v)
		}
	}
	m.Update(press("?"))
	help := strings.Join(strings.Fields(screenText(m)), " ")
	m.Update(press("?"))
	if !strings.Contains(help, label+": "+reason) {
		t.Errorf("the help does not give the stop whole:\n%s", help)
	}
}

// TestStoppedRunSaysTrialsAveraged: after a stop, each solver's curve and
// legend value are the mean of its finished trials only, and the legend
// says how many of the trials asked for they are; a solver with none
// finished draws nothing and shows no number, only that no trial
// finished; the header does not announce the trials asked for as if
// every one were averaged. The fake stops in the middle of the paper's
// solver's third trial, after its first two.
func TestStoppedRunSaysTrialsAveraged(t *testing.T) {
	const short = "stopped after 30 s on its CPU slots"
	sp := example1
	sp.Lf = 10
	const points = 3
	m := newTestModel(t, &fakeRunner{points: points, stop: &backend.StoppedError{Short: short, Reason: "stopped"}, stopAfter: 2, stopMid: 2}, &sp, 120, 32)
	keyUntil(t, m, "c", func() bool { r := m.run(); return r != nil && !r.Active() && r.Drained })
	r := m.run()
	if r.Phase != runs.Stopped || len(r.Names) < 2 {
		t.Fatalf("the run ended in phase %d with solvers %v", r.Phase, r.Names)
	}
	series := map[string][]float64{}
	for _, s := range m.chartScreen().Chart.Series() {
		for _, p := range s.Points {
			series[s.Label] = append(series[s.Label], p.Y)
		}
	}
	t.Run("curve of the finished trials", func(t *testing.T) {
		got := series[r.Names[0]]
		if len(got) != points+1 {
			t.Fatalf("%s's curve has %d points, want %d: %v", r.Names[0], len(got), points+1, got)
		}
		for j, y := range got {
			want := (fakeExcess(0, 0, j) + fakeExcess(0, 1, j)) / 2
			if math.Abs(y-want) > 1e-12 {
				t.Errorf("%s's checkpoint %d is %g, want %g: the mean of its two finished trials", r.Names[0], j, y, want)
			}
		}
		for _, name := range r.Names[1:] {
			if len(series[name]) > 0 {
				t.Errorf("%s finished no trial, yet draws %v", name, series[name])
			}
		}
	})
	flat := strings.Join(strings.Fields(stripANSI(m.chartScreen().View())), " ")
	t.Run("legend says how many trials", func(t *testing.T) {
		if want := r.Names[0] + " " + common.FmtNum(series[r.Names[0]][points]) + " mean of 2 finished trials of 3"; !strings.Contains(flat, want) {
			t.Errorf("the legend does not read %q:\n%s", want, flat)
		}
		for _, name := range r.Names[1:] {
			if want := name + " no trial finished before the stop"; !strings.Contains(flat, want) {
				t.Errorf("the legend does not read %q:\n%s", want, flat)
			}
		}
	})
	t.Run("header", func(t *testing.T) {
		if _, right := m.chartScreen().Chart.Title(); strings.Contains(right, "3 trials") || !strings.Contains(right, "stopped") {
			t.Errorf("the stopped comparison's header reads %q", right)
		}
	})
}

// TestServerRefusalIsTheRuns: a comparison the server refuses as a whole
// before it starts (its plan past the run-time bound) is said refused by
// the server in the legend — never "✗ acsa refused", pinned on the
// paper's solver — and the solvers that never ran get no entry with an
// empty value.
func TestServerRefusalIsTheRuns(t *testing.T) {
	const why = "this run's planned work would take about 13 s on its CPU slots, more than the 6 s this server gives one run"
	sp := example1
	sp.Lf = 10
	m := newTestModel(t, &fakeRunner{points: 3, refuse: &solvers.RefusedError{Solver: "this server", Reason: why}}, &sp, 120, 32)
	keyUntil(t, m, "c", func() bool { r := m.run(); return r != nil && !r.Active() && r.Drained })
	r := m.run()
	if r.Phase != runs.Refused {
		t.Fatalf("the refused run ended in phase %d", r.Phase)
	}
	flat := strings.Join(strings.Fields(stripANSI(m.chartScreen().View())), " ")
	if !strings.Contains(flat, "✗ this server refused: this run's planned work") {
		t.Errorf("the legend does not say the server refused the run:\n%s", flat)
	}
	for _, name := range r.Names {
		if strings.Contains(flat, name+" refused") || strings.Contains(flat, name+" …") {
			t.Errorf("the legend gives %s the server's refusal or an empty value:\n%s", name, flat)
		}
	}
}
