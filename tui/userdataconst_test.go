package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/chart"
	"dpso/tui/components/form"
	"dpso/tui/runs"
)

// TestPrivateConstantsRunShowsItsEstimates: on user data with
// --constants private no prescription exists before a run (the theorem
// panel says so); after r the panel shows what dpso run prints — the run's
// private estimates with their share ρ₀ of the budget written so that it
// does not read as a percentage ("a tenth of ρ = 0.5"), the parameters
// prescribed from them, and the certificate, said to be vacuous where it
// is above w₀ — in place of "run it, or give the constants"; the chart
// draws the run's w₀, which its status names.
func TestPrivateConstantsRunShowsItsEstimates(t *testing.T) {
	s := spec.Spec{Data: "../examples/linreg-t-d3.csv", Constants: "private", Rand: "seeded", Trials: 1}
	clock := &fixedClock{t: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), step: 100 * time.Millisecond}
	m, err := New(context.Background(), Options{Runner: backend.Local{}, now: clock.Now, ExportDir: t.TempDir(), Manual: true, Start: &s})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 132, Height: 42})
	pump(t, m, m.initCmd, func() bool { p := m.chartScreen().Presc; return !p.Pending && p.Err != "" })
	panel := func() string {
		m.formula.SetSize(84, 60)
		return strings.Join(strings.Fields(stripANSI(m.formula.View())), " ")
	}
	if before := panel(); !strings.Contains(before, "run it, or give the constants") || !strings.Contains(before, "a tenth of ρ = 0.5") {
		t.Fatalf("before a run the panel does not say that no prescription exists yet (ρ₀ a tenth of ρ):\n%s", before)
	}
	keyUntil(t, m, "r", func() bool { return doneOf(m, runs.ScreenKind("chart")) })
	got := panel()
	for _, want := range []string{"run #1's private estimates of the constants", "ρ₀ = 0.05, a tenth of ρ = 0.5", "r̃_2 = ", "estimates, not bounds", "solver acsa", "prescribed", "certified ≤", "vacuous at this n", "w₀ "} {
		if !strings.Contains(got, want) {
			t.Errorf("after the run the theorem panel lacks %q:\n%s", want, got)
		}
	}
	// The status names w₀ ("above w₀ (the start line, …)"): the chart
	// draws it, the run's own.
	if text := screenText(m); !strings.Contains(text, "══ w₀") {
		t.Errorf("the chart draws no w₀ line although the status names it:\n%s", text)
	}
	// The certificate's level rests on the private estimates: its legend
	// entry says so.
	certs := 0
	for _, s := range m.chartScreen().Chart.Series() {
		if s.Kind == chart.Cert && s.Err == "" {
			certs++
			if s.Label != "certified on private estimates ≤" {
				t.Errorf("the certificate's legend label %q does not say it rests on the private estimates", s.Label)
			}
		}
	}
	if certs != 1 {
		t.Errorf("%d certificate levels drawn, want the run's one", certs)
	}
	if strings.Contains(got, "run it, or give the constants") {
		t.Errorf("after the run the panel still asks for a run:\n%s", got)
	}
}

// TestUserDataRowsBeforeTheyAreRead: on private constants no prescription
// reads the file before r, so the form's n gives no count: value and note
// read "all rows of the file", where they read "all rows rows of the
// file".
func TestUserDataRowsBeforeTheyAreRead(t *testing.T) {
	s := spec.Spec{Data: "../examples/linreg-t-d3.csv", Constants: "private", Rand: "seeded", Trials: 1}
	m, err := New(context.Background(), Options{Runner: backend.Local{}, ExportDir: t.TempDir(), Manual: true, Start: &s})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 32})
	pump(t, m, m.initCmd, func() bool { p := m.chartScreen().Presc; return !p.Pending && p.Err != "" })
	if got := m.form.ValueLabel(form.N) + " " + m.form.ValueNote(form.N); got != "all rows of the file" {
		t.Errorf("the form's n reads %q, want %q", got, "all rows of the file")
	}
}
