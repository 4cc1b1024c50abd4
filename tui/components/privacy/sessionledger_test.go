package privacy

import (
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/solvers/ledger"
	"dpso/tui/backend"
	"dpso/tui/runs"
)

// TestSessionLedgerComposesRuns: every finished call on the user's rows
// is composed into the session's total (ρ adds), each once however many
// events it sends; a call on a scenario is not; the line appears from
// the second call on the same file.
func TestSessionLedgerComposesRuns(t *testing.T) {
	onRows := func(id int, data string, releases int, rho float64) *runs.Run {
		rs := spec.Resolved{Spec: spec.Spec{Data: data}}
		return &runs.Run{Job: runs.Job{Call: backend.Call{Spec: rs}}, ID: id, Phase: runs.Done, Result: backend.Result{Comparison: &engine.Comparison{Reports: []*engine.Report{{
			Total: engine.PrivacyTotal{UserRows: true, Composition: spec.Composition{Releases: releases}, Spent: ledger.Cost{Rho: rho}},
		}}}}}
	}
	var l SessionLedger
	a := onRows(1, "rows.csv", 1, 0.5)
	l.Add(a)
	l.Add(a) // a second event of the same run
	if got := l.Line("rows.csv"); got != "" {
		t.Errorf("after one call: %q, want nothing (the call's own total says it)", got)
	}
	l.Add(onRows(2, "rows.csv", 3, 1.5))
	l.Add(onRows(3, "other.csv", 1, 0.5))
	l.Add(&runs.Run{ID: 4, Phase: runs.Done, Result: backend.Result{Comparison: &engine.Comparison{Reports: []*engine.Report{{Total: engine.PrivacyTotal{Spent: ledger.Cost{Rho: 9}}}}}}})
	got := l.Line("rows.csv")
	for _, want := range []string{"2 calls", "4 releases", "ρ = 2 zCDP"} {
		if !strings.Contains(got, want) {
			t.Errorf("session line %q lacks %q", got, want)
		}
	}
}
