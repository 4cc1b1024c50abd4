package tui

import (
	"strings"
	"testing"

	"dpso/tui/backend"
	"dpso/tui/runs"
)

// TestStoppedRunIsNotRefused: a comparison a server stops part way (its
// bound on the time a run holds its CPU slots: backend.StoppedError) is
// labelled stopped, on the run as a whole — the status bar, the chart's
// header and its note say "stopped after … (k/n trials done)" — never
// "refused", and never pinned on one solver: every solver's curve so far
// keeps its legend entry, marked partial. The help gives the reason whole.
func TestStoppedRunIsNotRefused(t *testing.T) {
	const short = "stopped after 30 s on its CPU slots"
	const reason = "this run held its CPU slots for 30 s, the most this server gives one run (dpso serve --max-run-time), and was stopped"
	sp := example1
	sp.Lf = 10 // lipschitz-dpsgd runs: two solvers, no refusal of their own
	m := newTestModel(t, &fakeRunner{points: 3, stop: &backend.StoppedError{Short: short, Reason: reason}, stopAfter: sp.Trials + 1}, &sp, 80, 24)
	keyUntil(t, m, "c", func() bool { r := m.run(); return r != nil && !r.Active() && r.Drained })
	r := m.run()
	if r.Phase != runs.Stopped {
		t.Fatalf("the stopped run ended in phase %d (%q)", r.Phase, r.Refusal)
	}
	v := screenText(m)
	label := short + " (" + itoa(r.TrialsDone) + "/" + itoa(r.Total) + " trials done)"
	if strings.Contains(v, "refused") {
		t.Errorf("a stopped run reads as refused:\n%s", v)
	}
	if state := strings.Split(v, "\n")[m.stateRow()]; !strings.HasPrefix(state, "■ stopped comparison") || !strings.Contains(state, "trials done") {
		t.Errorf("the status bar's state %q does not say the run was stopped, with its trials done", state)
	}
	flat := strings.Join(strings.Fields(stripANSI(m.chartScreen().View())), " ")
	if !strings.Contains(flat, label) {
		t.Errorf("the chart does not label the run %q:\n%s", label, v)
	}
	for _, name := range r.Names[:2] {
		if !strings.Contains(flat, name+" ") || !strings.Contains(v, "partial") {
			t.Errorf("%s's curve has no legend entry marked partial:\n%s", name, v)
		}
	}
	m.Update(press("?"))
	help := strings.Join(strings.Fields(screenText(m)), " ")
	m.Update(press("?"))
	if !strings.Contains(help, label+": "+reason) {
		t.Errorf("the help does not give the stop whole:\n%s", help)
	}
}
