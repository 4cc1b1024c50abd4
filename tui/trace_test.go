package tui

import (
	"dpso/tui/chart"
	"dpso/tui/components/form"
	"dpso/tui/runs"
	"strings"
	"testing"
)

// TestPreviousRunTrace: a run of changed parameters is drawn over a faint
// trace of the one before, named by what changed.
func TestPreviousRunTrace(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
	m.form.SetFocus(form.Eps)
	formKeys(t, m, "right")
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done && m.run().ID == 2 })
	var trace *chart.Series
	for _, s := range m.chartScreen().Chart.Series() {
		if s.Kind == chart.Trace {
			trace = &s
		}
	}
	if trace == nil || trace.Label != "acsa before (ε = 1)" || len(trace.Points) == 0 {
		t.Fatalf("no trace of the run before the change: %+v", trace)
	}
	if v := screenText(m); !strings.Contains(v, "acsa before (ε = 1)") {
		t.Errorf("the legend does not name the trace:\n%s", v)
	}
}
