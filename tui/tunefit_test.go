package tui

import (
	"fmt"
	"strings"
	"testing"

	"dpso/tui/screens"
)

// TestTuneScreenNothingCut: the tuning screen's block at every height a
// terminal from 24 to 42 rows gives it shows the oracle-tuned reference
// with its "NOT private" label, and each line of what it shows whole:
// where its sections do not all fit, whole ones give way and its last
// row says how many lines a taller terminal shows — at 120×32 the
// prescribed run's privacy line was cut at "… ε' = 4.38 at δ =" and the
// reference's label was not shown.
func TestTuneScreenNothingCut(t *testing.T) {
	s := tuneSpec
	s.Workers = 1
	m := newEngineModel(t, &s, 132, 42)
	keyUntil(t, m, "g", func() bool { return doneOf(m, screens.TuneKind) })
	ts := m.screens[m.screenIndex(screens.TuneKind)].screen
	full := ""
	ts.SetSize(76, 60)
	full = strings.Join(strings.Fields(stripANSI(ts.View())), " ")
	for h := 15; h <= 30; h++ {
		t.Run(fmt.Sprintf("76x%d", h), func(t *testing.T) {
			ts.SetSize(76, h)
			v := stripANSI(ts.View())
			flat := strings.Join(strings.Fields(v), " ")
			if !strings.Contains(flat, "NOT private, not attainable: the best of 72 grid points by their true excess risk") {
				t.Errorf("the oracle-tuned reference's label is not shown whole:\n%s", v)
			}
			marked := strings.Contains(v, "more line")
			if !marked && flat != full {
				t.Errorf("lines left out with no word:\n%s", v)
			}
			if strings.Contains(flat, "at δ =") && !strings.Contains(flat, "ε' = 4.38 at δ = 10⁻⁵") {
				t.Errorf("the prescribed run's privacy line is cut:\n%s", v)
			}
		})
	}
}
