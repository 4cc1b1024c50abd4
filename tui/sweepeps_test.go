package tui

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/screens"
)

// epsSweepSpec is a Spec whose ε sweep runs in about a second on the real
// engine: heavy-tailed linear regression, n = 2·10⁴, 3 trials.
var epsSweepSpec = spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, N: 20000, Trials: 3}

// TestSweepEpsIsTheCLISweep: v shows the sweep over ε and runs, on the
// real engine, 5 points from ε/10 to 10ε; its reproduce line is the dpso
// sweep --vary eps command of that grid, and e exports exactly the
// document that command's --json prints — computed here independently,
// by resolving the line's Spec (the form's with ε left to --vary, as the
// CLI refuses both) and calling engine.Sweep with the line's grid.
func TestSweepEpsIsTheCLISweep(t *testing.T) {
	s := epsSweepSpec
	m := newEngineModel(t, &s, 132, 42)
	keyUntil(t, m, "v", func() bool { return doneOf(m, screens.SweepEpsKind) || settled(m) })
	if m.shownKind() != screens.SweepEpsKind || !doneOf(m, screens.SweepEpsKind) {
		t.Fatalf("v: screen %s, run %+v", m.shownKind(), m.run())
	}
	const line = "dpso sweep --scenario linreg-t --n 20000 --trials 3 --vary eps --from 0.1 --to 10 --points 5"
	if got := m.status.Reproduce(); got != line {
		t.Errorf("reproduce line %q, want %q", got, line)
	}
	v := screenText(m)
	for _, want := range []string{"✓ done ε sweep", "Sweep: excess risk vs ε (log-log)", "5 points, 0.1 … 10", "Slopes: d log(excess risk) / d log ε", "acsa measured"} {
		if !strings.Contains(v, want) {
			t.Errorf("the ε sweep screen lacks %q:\n%s", want, v)
		}
	}

	// The privacy panel holds the ledger to the budget of the point it
	// comes from, not to the form's ε.
	spent, budget, _, point, _, ok := m.privacy.Spent()
	if !ok || !strings.HasPrefix(point, "ε = ") || !(spent.Rho <= budget.Rho) || budget.Rho == m.form.Resolved().Privacy.Rho && point != "ε = 1" {
		t.Errorf("privacy panel: spent ρ %g of %g at %q", spent.Rho, budget.Rho, point)
	}

	// What `dpso sweep` runs for the line: its Spec resolved, the grid.
	cli := s.Clone()
	cli.Eps = 0
	base, err := cli.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	sw := engine.SweepSpec{Param: spec.SweepEps, From: 0.1, To: 10, Points: 5}
	if got := m.run().SweepSpec; !reflect.DeepEqual(got, sw) {
		t.Errorf("the explorer swept %+v, the line says %+v", got, sw)
	}
	rep, err := engine.Sweep(context.Background(), base, sw, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := report.MarshalJSON(report.Sweep(rep))
	if err != nil {
		t.Fatal(err)
	}
	exportAndWait(t, m)
	if got := exportedJSON(t, m, "sweep-eps"); got != string(want) {
		t.Errorf("the ε sweep's export is not `%s --json`'s document:\n got %s\nwant %s", line, got, want)
	}

	// v again, or esc, returns to the chart.
	keyUntil(t, m, "v", func() bool { return m.active == 0 })
}

// TestSweepEpsAtInfinity: at ε = ∞ there is no budget to sweep: the screen
// says so and asks for no run, r refuses on the status bar, e says why
// there is nothing to export, and the reproduce line stays the form's
// run.
func TestSweepEpsAtInfinity(t *testing.T) {
	fr := &fakeRunner{points: 3}
	s := spec.Spec{Scenario: scenarios.Example1, Eps: math.Inf(1), Trials: 2}
	m := newTestModel(t, fr, &s, 132, 42)
	keyUntil(t, m, "v", func() bool { return m.shownKind() == screens.SweepEpsKind })
	const why = "ε = ∞: there is no privacy budget to sweep"
	if v := screenText(m); !strings.Contains(v, why) || m.run() != nil || fr.sweeps != 0 {
		t.Errorf("v at ε = ∞: run %+v, %d sweeps, screen:\n%s", m.run(), fr.sweeps, v)
	}
	keyUntil(t, m, "r", func() bool { return m.status.Text != "" })
	if !m.status.Err || !strings.HasPrefix(m.status.Text, why) || m.run() != nil {
		t.Errorf("r at ε = ∞: status %q (error %v), run %+v", m.status.Text, m.status.Err, m.run())
	}
	keyUntil(t, m, "e", func() bool { return m.status.Text != "" })
	if !strings.HasPrefix(m.status.Text, "nothing to export: "+why) {
		t.Errorf("e at ε = ∞: status %q", m.status.Text)
	}
	if got, want := m.status.Reproduce(), m.form.Spec().Command(); got != want {
		t.Errorf("reproduce line %q, want the form's run %q", got, want)
	}
}

// TestGoldenSweepEps: the ε sweep's screen at 80×24, 120×32 and 132×42, after a
// sweep on the real engine (seeded: the same numbers every time; one
// worker, so that the clipping panel's latest batch is the same trial's
// every time).
func TestGoldenSweepEps(t *testing.T) {
	for _, sz := range wordSizes {
		s := epsSweepSpec
		s.Workers = 1
		m := newEngineModel(t, &s, sz[0], sz[1])
		keyUntil(t, m, "v", func() bool { return doneOf(m, screens.SweepEpsKind) })
		golden(t, "screen-sweep-eps-"+itoa(sz[0])+"x"+itoa(sz[1]), m.render())
	}
}
