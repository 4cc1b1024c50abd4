package tui

import (
	"strings"
	"testing"

	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
)

// TestStoppedRunKeepsItsLedger: after a server stops a comparison part
// way, the privacy panel keeps what its finished trials spent — the
// ledger of the last checkpoint of the paper's solver's latest finished
// trial, as the engine reported it (ρ = ε²/2 of the budget, each trial a
// release at the full budget) — and says whose, never "the ledger fills
// up during a run", the words shown before any run. The fake stops in
// the middle of the paper's solver's third trial, after its first two.
func TestStoppedRunKeepsItsLedger(t *testing.T) {
	sp := example1
	sp.Lf = 10
	m := newTestModel(t, &fakeRunner{points: 3, stop: &backend.StoppedError{Short: "stopped after 30 s on its CPU slots", Reason: "stopped"}, stopAfter: 2, stopMid: 2}, &sp, 132, 42)
	keyUntil(t, m, "c", func() bool { r := m.run(); return r != nil && !r.Active() && r.Drained })
	r := m.run()
	if r.Phase != runs.Stopped {
		t.Fatalf("the run ended in phase %d", r.Phase)
	}
	rho := r.Spec.Privacy.Rho
	spent, budget, who, _, final, ok := m.privacy.Spent()
	if !ok || final || spent.Rho != rho || budget.Rho != rho || who != r.Names[0]+" trial 1 (finished before the stop; the trials it cut are not drawn)" {
		t.Errorf("Spent() = ρ %g of %g, %q, final %v, ok %v; want ρ %g of %g, %s's trial 1 finished before the stop", spent.Rho, budget.Rho, who, final, ok, rho, rho, r.Names[0])
	}
	v := strings.Join(strings.Fields(stripANSI(m.privacy.View())), " ")
	if strings.Contains(v, "the ledger fills up during a run") || !strings.Contains(v, "ρ "+common.FmtNum(rho)+" of "+common.FmtNum(rho)) {
		t.Errorf("the privacy panel of the stopped run:\n%s", v)
	}
}
