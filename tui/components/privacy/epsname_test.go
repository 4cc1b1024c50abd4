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

// TestSessionLineNamesEpsPrime: on the user's rows a run (ρ) and a search
// (its (ε', δ), Papernot & Steinke's) compose into "ρ … plus (ε', δ)": the
// search's value is an ε', as dpso calls the approximate-DP value
// everywhere, never ε, its name for the zCDP parameter; a shuffle oracle's
// budget is its own (ε, δ).
func TestSessionLineNamesEpsPrime(t *testing.T) {
	rows := spec.Resolved{Spec: spec.Spec{Data: "rows.csv"}}
	run := &runs.Run{Job: runs.Job{Call: backend.Call{Spec: rows}}, ID: 1, Phase: runs.Done, Result: backend.Result{Comparison: &engine.Comparison{Reports: []*engine.Report{{
		Total: engine.PrivacyTotal{UserRows: true, Composition: spec.Composition{Releases: 1}, Spent: ledger.Cost{Rho: 0.5}},
	}}}}}
	search := &runs.Run{Job: runs.Job{Call: backend.Call{Spec: rows}}, ID: 2, Phase: runs.Done, Result: backend.Result{Tune: &engine.TuneReport{
		UserRows: true, Total: engine.TuneTotal{Searches: 1, Eps: 4.38, Delta: 1e-5},
	}}}
	var l SessionLedger
	l.Add(run)
	l.Add(search)
	got := l.Line("rows.csv")
	if !strings.Contains(got, "ρ = 0.5 zCDP plus (ε', δ) = (4.38, 10⁻⁵)") {
		t.Errorf("session line %q: want ρ plus (ε', δ)", got)
	}
	if strings.Contains(got, "(ε, δ)") {
		t.Errorf("session line %q names the search's ε' as ε", got)
	}
	shuffled := spec.Resolved{Spec: spec.Spec{Data: "s.csv"}, Privacy: spec.Privacy{Model: spec.Shuffle}}
	var s SessionLedger
	for id := range 2 {
		s.Add(&runs.Run{Job: runs.Job{Call: backend.Call{Spec: shuffled}}, ID: id, Phase: runs.Done, Result: backend.Result{Comparison: &engine.Comparison{Reports: []*engine.Report{{
			Total: engine.PrivacyTotal{UserRows: true, Composition: spec.Composition{Releases: 1}, Spent: ledger.Cost{Eps: 1, Delta: 1e-6}},
		}}}}})
	}
	if got := s.Line("s.csv"); !strings.Contains(got, "(ε, δ) = (2, 2·10⁻⁶)") {
		t.Errorf("shuffle session line %q: want the shuffle's (ε, δ)", got)
	}
}
