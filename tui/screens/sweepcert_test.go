package screens

import (
	"strings"
	"testing"

	"dpso/internal/report"
	"dpso/internal/testutil/sweepfix"
	"dpso/tui/runs"
)

// TestSweepCappedPointHasNoCertificateLevel: an n sweep whose last two
// points are budget-capped, every certificate below w₀: the chart draws
// the certificate (╍╍) at the first point only, its legend entry and the
// slope table's verdict say "budget-capped: not covered" at the capped
// points, and neither says the theory is in force there; with every
// point capped no level is drawn and the entry says so.
func TestSweepCappedPointHasNoCertificateLevel(t *testing.T) {
	for _, c := range []struct {
		name   string
		capped []bool
		levels int // certificate points drawn
		entry  string
	}{
		{"none capped", []bool{false, false, false}, 3, "below w₀ from n = 10³"},
		{"last two capped", []bool{false, true, true}, 1, "below w₀ from n = 10³; " + report.CappedNotCovered + " at n = 10⁴, 10⁵"},
		{"all capped", []bool{true, true, true}, 0, report.CappedNotCovered + " at every n (not drawn)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := sweepfix.Capped(c.capped...)
			cert, ok := sweepCertSeries(rep, &sweepNAxis, 0)
			if !ok {
				t.Fatal("no certificate entry")
			}
			if len(cert.Points) != c.levels {
				t.Errorf("the certificate is drawn at %d points, want %d", len(cert.Points), c.levels)
			}
			if cert.Note != c.entry {
				t.Errorf("entry %q, want %q", cert.Note, c.entry)
			}
			s := newRateSweepScreen(testCommon(), &sweepNAxis)
			s.SetSize(120, 32)
			s.Table.SetSize(60, 20)
			r := &runs.Run{Phase: runs.Done}
			r.Sweep = rep
			s.Run = r
			s.rebuild()
			view := strings.Join(strings.Fields(stripANSI(s.View())), " ")
			if !strings.Contains(view, c.entry) {
				t.Errorf("the legend does not say %q:\n%s", c.entry, stripANSI(s.View()))
			}
			table := strings.Join(strings.Fields(scrolledText(s.Table)), " ")
			capped := strings.Contains(table, report.CappedNotCovered)
			if want := c.levels < 3; capped != want || want && strings.Contains(table, "in force at every point") {
				t.Errorf("the slope table says %q: %v, want %v:\n%s", report.CappedNotCovered, capped, want, table)
			}
		})
	}
}
