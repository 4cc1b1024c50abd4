package tui

import (
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/solvers/ledger"
	"dpso/tui/backend"
)

// TestSessionLedgerComposesRuns: every finished call on the user's rows
// is composed into the session's total (ρ adds), each once however many
// events it sends; a call on a scenario is not; the line appears from
// the second call on the same file.
func TestSessionLedgerComposesRuns(t *testing.T) {
	onRows := func(id int, data string, releases int, rho float64) *run {
		rs := spec.Resolved{Spec: spec.Spec{Data: data}}
		return &run{job: job{Call: backend.Call{Spec: rs}}, id: id, phase: phaseDone, Result: backend.Result{Comparison: &engine.Comparison{Reports: []*engine.Report{{
			Total: engine.PrivacyTotal{UserRows: true, Composition: spec.Composition{Releases: releases}, Spent: ledger.Cost{Rho: rho}},
		}}}}}
	}
	var l sessionLedger
	a := onRows(1, "rows.csv", 1, 0.5)
	l.add(a)
	l.add(a) // a second event of the same run
	if got := l.line("rows.csv"); got != "" {
		t.Errorf("after one call: %q, want nothing (the call's own total says it)", got)
	}
	l.add(onRows(2, "rows.csv", 3, 1.5))
	l.add(onRows(3, "other.csv", 1, 0.5))
	l.add(&run{id: 4, phase: phaseDone, Result: backend.Result{Comparison: &engine.Comparison{Reports: []*engine.Report{{Total: engine.PrivacyTotal{Spent: ledger.Cost{Rho: 9}}}}}}})
	got := l.line("rows.csv")
	for _, want := range []string{"2 calls", "4 releases", "ρ = 2 zCDP"} {
		if !strings.Contains(got, want) {
			t.Errorf("session line %q lacks %q", got, want)
		}
	}
}
