package tui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/runs"
)

// TestUserDataLegendSaysDiagnostic: on the user's rows the run's excess
// risk and w₀ are computed on the rows apart from the released output;
// the chart's legend — what a screenshot shows without the panels — says
// so beside each value ("non-private diagnostic") and says where
// ("measured on your rows"), at 80×24 and 132×42; on a scenario it says
// neither.
func TestUserDataLegendSaysDiagnostic(t *testing.T) {
	entry := func(name string) *regexp.Regexp {
		return regexp.MustCompile(regexp.QuoteMeta(name) + ` [0-9.·⁻]+ non-private diagnostic`)
	}
	for _, size := range [][2]int{{80, 24}, {132, 42}} {
		t.Run(itoa(size[0])+"x"+itoa(size[1]), func(t *testing.T) {
			s := spec.Spec{Data: "../examples/linreg-t-d3.csv", Constants: "private", Rand: "seeded", Trials: 1}
			clock := &fixedClock{t: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), step: 100 * time.Millisecond}
			m, err := New(context.Background(), Options{Runner: backend.Local{}, now: clock.Now, ExportDir: t.TempDir(), Manual: true, Start: &s})
			if err != nil {
				t.Fatal(err)
			}
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			pump(t, m, m.initCmd, func() bool { p := m.chartScreen().Presc; return !p.Pending })
			keyUntil(t, m, "r", func() bool { return doneOf(m, runs.ScreenKind("chart")) })
			chart := stripANSI(m.chartScreen().View())
			for _, name := range []string{"acsa", "w₀"} {
				if !entry(name).MatchString(chart) {
					t.Errorf("the legend's %s entry does not say it is a non-private diagnostic:\n%s", name, chart)
				}
			}
			if !strings.Contains(chart, "non-private diagnostic: measured on your rows") {
				t.Errorf("the legend does not say where the diagnostics are measured:\n%s", chart)
			}
		})
	}
	t.Run("scenario", func(t *testing.T) {
		m := newTestModel(t, &fakeRunner{points: 3}, &example1, 80, 24)
		keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
		if chart := stripANSI(m.chartScreen().View()); strings.Contains(chart, "non-private") {
			t.Errorf("a scenario's legend calls its values non-private diagnostics:\n%s", chart)
		}
	})
}
