package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
)

// TestFlaggedEstimatesDrawNoCertificate: on 12 rows with a constant
// column (--constants private) the private estimates are flagged (the
// engine's flags); the explorer carries the flag in the words `dpso run`
// prints (report.ReportFlags) in the theorem panel and the legend, and
// draws no certificate on such estimates.
func TestFlaggedEstimatesDrawNoCertificate(t *testing.T) {
	s := spec.Spec{Data: "testdata/flagged-12rows.csv", Constants: "private", Rand: "seeded", Trials: 1}
	m := localRun(t, s)
	rep := m.run().Comparison.Reports[0]
	flags := report.ReportFlags(rep)
	if flags == "" || rep.Certified.Cert == nil {
		t.Fatalf("the premise fails: 12 rows with a constant column give unflagged estimates or no certificate (flags %q)", flags)
	}
	chart := oneLine(stripANSI(m.chartScreen().View()))
	if !strings.Contains(chart, "✗ certificate: "+report.FlaggedNoCert+" — FLAGGED in") {
		t.Errorf("the legend does not carry the flag:\n%s", stripANSI(m.chartScreen().View()))
	}
	if strings.Contains(chart, "certified on private estimates ≤") || strings.Contains(chart, "certified ≤") {
		t.Errorf("the legend draws a certificate on flagged estimates:\n%s", stripANSI(m.chartScreen().View()))
	}
	panel := oneLine(stripANSI(m.formula.View()))
	if !strings.Contains(panel, oneLine(flags)) {
		t.Errorf("the theorem panel does not give the flag whole (%q):\n%s", flags, stripANSI(m.formula.View()))
	}
	if strings.Contains(panel, "certified ≤") {
		t.Errorf("the theorem panel gives a certificate on flagged estimates:\n%s", stripANSI(m.formula.View()))
	}
	// The legend cuts the flag (? full): the help gives it whole.
	m.Update(press("?"))
	help := oneLine(screenText(m))
	m.Update(press("?"))
	if !strings.Contains(help, report.FlaggedNoCert+" — "+oneLine(flags)) {
		t.Errorf("the help does not give the flag whole:\n%s", help)
	}
}

// TestCertificateLegendSaysWhoseAndVacuous: preset 1 compares acsa with
// Lipschitz DP-SGD; the legend names the certificate acsa's, and says
// report.VacuousTag exactly where the engine's certificate is above w₀
// — not at the preset's n, but after its own next step (← on n, r) — and
// never tags a hidden line "(under …)", which reads as a comparison.
func TestCertificateLegendSaysWhoseAndVacuous(t *testing.T) {
	m := loadedPreset(t, 0, 132, 42)
	check := func(name string, wantVacuous bool) {
		t.Run(name, func(t *testing.T) {
			rep := m.run().Comparison.Reports[0]
			c := rep.Certified
			if c.Cert == nil || c.Vacuous(rep.W0.Mean) != wantVacuous {
				t.Fatalf("the premise fails: the engine's certificate %v vacuous %v at w₀ %v", c.Value(), !wantVacuous, rep.W0.Mean)
			}
			view := stripANSI(m.chartScreen().View())
			legend := oneLine(view)
			entry := rep.Solver + " certified ≤ " + common.FmtNum(c.Value())
			if !strings.Contains(legend, entry) {
				t.Errorf("the legend does not name the certificate %q:\n%s", entry, view)
			}
			if got := strings.Contains(legend, entry+" "+report.VacuousTag); got != wantVacuous {
				t.Errorf("the legend says %q: %v, the certificate is vacuous: %v:\n%s", report.VacuousTag, got, wantVacuous, view)
			}
			if strings.Contains(legend, "(under ") {
				t.Errorf("the legend tags a hidden line \"(under …)\":\n%s", view)
			}
		})
	}
	check("preset", false)
	id := m.run().ID
	formKeys(t, m, "left")
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().ID != id && m.run().Phase == runs.Done })
	check("after ← on n", true)
}

// TestBudgetCappedCertificateNotDrawn: preset 5's run is budget-capped
// (the engine's prescription says the budget binds); its certificate is
// the full schedule's: the legend gives it for the uncapped schedule
// and draws no level, and the theorem panel says the same.
func TestBudgetCappedCertificateNotDrawn(t *testing.T) {
	m := loadedPreset(t, 4, 132, 42)
	p := m.chartScreen().Presc.Prescription
	if p == nil || !p.Params.BudgetBound || p.Certified.Cert == nil || !p.Certified.Cert.Holds() {
		t.Fatal("the premise fails: preset 5's prescription is not budget-capped with a certificate")
	}
	view := stripANSI(m.chartScreen().View())
	legend := oneLine(view)
	if !strings.Contains(legend, "certified ≤ "+common.FmtNum(p.Certified.Value())+" for the uncapped schedule: this run is budget-capped, not covered (not drawn)") {
		t.Errorf("the legend does not say the certificate is the uncapped schedule's:\n%s", view)
	}
	if strings.Contains(legend, "(off scale)") || strings.Contains(legend, "certified ≤ "+common.FmtNum(p.Certified.Value())+" ") && !strings.Contains(legend, "≤ "+common.FmtNum(p.Certified.Value())+" for the uncapped") {
		t.Errorf("the legend draws the full schedule's certificate as the run's level:\n%s", view)
	}
	if n := strings.Count(view, "╍"); n != 2 {
		t.Errorf("the capped run's certificate is drawn (%d ╍ cells, the legend's mark has 2):\n%s", n, view)
	}
	panel := oneLine(stripANSI(m.formula.View()))
	if !strings.Contains(panel, "for the uncapped schedule (this run is budget-capped: not covered)") || strings.Contains(panel, "at these parameters budget") {
		t.Errorf("the theorem panel does not say whose schedule the certificate is:\n%s", stripANSI(m.formula.View()))
	}
}

// TestEstimatedConstantsCertificateSaysSo: with --estimate-constants the
// constants are plug-in estimates read from the rows: the legend's
// certificate says it rests on them (not bounds, not private), the run
// is tagged not private, and the theorem panel names the same basis.
func TestEstimatedConstantsCertificateSaysSo(t *testing.T) {
	s := spec.Spec{Data: "../examples/linreg-t-d3.csv", EstimateConstants: true, Trials: 1}
	m := localRun(t, s)
	rep := m.run().Comparison.Reports[0]
	if rep.Certified.Cert == nil || !rep.Certified.Cert.Holds() {
		t.Fatalf("the premise fails: no certificate on estimated constants (%s)", rep.Certified.Why)
	}
	view := stripANSI(m.chartScreen().View())
	legend := oneLine(view)
	for _, want := range []string{"certified on estimated constants (not bounds; NOT private) ≤ " + common.FmtNum(rep.Certified.Value()), rep.Solver + " " + common.FmtNum(rep.Excess.Mean) + " not private (constants read from the rows)"} {
		if !strings.Contains(legend, want) {
			t.Errorf("the legend does not say %q:\n%s", want, view)
		}
	}
	if panel := oneLine(stripANSI(m.formula.View())); !strings.Contains(panel, "on estimated constants (not bounds; NOT private)") {
		t.Errorf("the theorem panel does not say the certificate rests on estimated constants:\n%s", stripANSI(m.formula.View()))
	}
}

// TestCertificateVacuousAtZeroW0: on preset 3 the start is the optimum
// (w₀ = F(w₀) − F* = 0, "not drawn" on the log scale), so every positive
// certificate is above it: the legend tags acsa's report.VacuousTag, as
// the theorem panel says "vacuous at this n: above w₀", where it gave the
// bare "certified ≤ 0.219", which preset 1 teaches to read as in force.
func TestCertificateVacuousAtZeroW0(t *testing.T) {
	m := loadedPreset(t, 2, 132, 42)
	rep := m.run().Comparison.Reports[0]
	c := rep.Certified
	if c.Cert == nil || rep.W0.Mean != 0 || !(c.Value() > 0) {
		t.Fatalf("the premise fails: w₀ %v, certificate %v", rep.W0.Mean, c.Value())
	}
	view := stripANSI(m.chartScreen().View())
	entry := rep.Solver + " certified ≤ " + common.FmtNum(c.Value()) + " " + report.VacuousTag
	if !strings.Contains(oneLine(view), entry) {
		t.Errorf("the legend does not say %q:\n%s", entry, view)
	}
}

// localRun is the explorer at 132×42 on s with the real engine
// (backend.Local), after r ran its run to the end.
func localRun(t *testing.T, s spec.Spec) *Model {
	t.Helper()
	clock := &fixedClock{t: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), step: 100 * time.Millisecond}
	m, err := New(context.Background(), Options{Runner: backend.Local{}, now: clock.Now, ExportDir: t.TempDir(), Manual: true, Start: &s})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 132, Height: 42})
	pump(t, m, m.initCmd, func() bool { p := m.chartScreen().Presc; return !p.Pending })
	keyUntil(t, m, "r", func() bool { return doneOf(m, runs.ScreenKind("chart")) })
	return m
}
