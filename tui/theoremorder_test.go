package tui

import (
	"strings"
	"testing"

	"dpso/tui/components/theorem"
	"dpso/tui/runs"
)

// TestTheoremPanelRunParamsInEitherOrder: the theorem panel shows the
// parameters a finished run used (the fake runner's T 6 · batch 100, not
// the real prescription's) whether the run's end reaches it before or
// after the prescription of the run's Spec — under load the run can end
// first, and the prescription's arrival then dropped them.
func TestTheoremPanelRunParamsInEitherOrder(t *testing.T) {
	m := goldenModel(t, 132, 42)
	presc := m.chartScreen().Presc
	r := m.run()
	if presc.Prescription == nil || presc.Key != runs.PrescKey(r.Spec) {
		t.Fatalf("the model's prescription is not the run's (key %q, run's %q)", presc.Key, runs.PrescKey(r.Spec))
	}
	want := "T 6 · batch 100"
	if real := presc.Prescription.Params; real.Iters == 6 && real.Batch == 100 {
		t.Fatalf("the real prescription is the fake run's (T %d, batch %d): the test cannot tell them apart", real.Iters, real.Batch)
	}
	for _, order := range []string{"prescription first", "run first"} {
		t.Run(order, func(t *testing.T) {
			p := theorem.New(m.Common)
			p.SetSize(80, 30)
			if order == "prescription first" {
				p.Update(presc)
				p.Update(runs.Event{Run: r})
			} else {
				p.Update(runs.Event{Run: r})
				p.Update(presc)
			}
			if v := oneLine(stripANSI(p.View())); !strings.Contains(v, want) {
				t.Errorf("the panel does not show the run's parameters %q:\n%s", want, v)
			}
		})
	}
}
