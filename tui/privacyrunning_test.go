package tui

import (
	"strings"
	"testing"

	"dpso/solvers"
	"dpso/tui/runs"
)

// TestRunningComparisonPrivacyPanel: while a comparison runs, its
// privacy panel's first line says what it releases on one draw — every
// solver's output, the non-private baseline's without noise, so what the
// chart draws is not private — where it gave the form's one-solver budget
// alone ("(ε', δ=10⁻⁵)-DP: ε' = 4.38 exact", "spent ρ 0.5 of 0.5") under
// five curves, one of them nonprivate-schedule's.
func TestRunningComparisonPrivacyPanel(t *testing.T) {
	sp := example1
	sp.Lf = 10
	fr := &fakeRunner{points: 3, hold: make(chan struct{}), holdAt: 2, holdSolver: 1, holdTrial: 1}
	defer close(fr.hold)
	m := newTestModel(t, fr, &sp, 120, 32)
	_, cmd := m.Update(press("c"))
	r := m.run()
	if r == nil || len(r.Names) < 3 {
		t.Fatalf("the comparison did not start with three solvers or more: %+v", r)
	}
	pump(t, m, cmd, func() bool { return len(r.Traces[r.Names[1]][1]) >= 2 })
	lines := strings.Split(stripANSI(m.privacy.View()), "\n")
	// What the panel shows at 120×32 before its fold: its first lines.
	top := strings.Join(strings.Fields(strings.Join(lines[1:min(4, len(lines))], " ")), " ")
	want := "comparison running, " + itoa(len(r.Names)) + " solvers on one draw: not private (" + solvers.NonPrivateScheduleName + " releases without noise)"
	if !strings.HasPrefix(top, want) {
		t.Errorf("the panel does not begin %q:\n%s", want, strings.Join(lines, "\n"))
	}
}

// TestPausedComparisonOnUserRows: on the user's rows an unfinished
// comparison's first line names what its releases read — the rows, every
// release of which composes — not "one draw" of a scenario.
func TestPausedComparisonOnUserRows(t *testing.T) {
	sp := userDataSpec(t)
	m := newTestModel(t, &fakeRunner{points: 3}, &sp, 132, 42)
	_, cmd := m.Update(press("c"))
	pump(t, m, cmd, func() bool { return m.run() != nil && m.run().Active() })
	m.Update(press("space"))
	if r := m.run(); r == nil || r.Phase != runs.Paused || !r.Compare {
		t.Fatalf("no paused comparison: %+v", r)
	}
	v := strings.Join(strings.Fields(stripANSI(m.privacy.View())), " ")
	if !strings.Contains(v, "comparison paused, ") || !strings.Contains(v, " solvers on your rows") || strings.Contains(v, "on one draw") {
		t.Errorf("the panel does not say the paused comparison's releases read your rows:\n%s", v)
	}
}
