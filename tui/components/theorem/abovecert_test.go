package theorem

import (
	"math"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/theory"
	"dpso/tui/style"
)

// TestRefLinesSayMeanAboveCertificate: where the shown run's measured
// mean is above its certificate, the theorem panel says so in `dpso
// run`'s words (report.AboveCertText, by report.MeanAboveCert's rule);
// at or below it, or before a run, it says nothing of the kind.
func TestRefLinesSayMeanAboveCertificate(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	pr := &engine.Prescription{W0: engine.Estimate{Mean: 0.5}, Certified: engine.Certified{Cert: &theory.Certificate{ID: "c", Value: 0.1}}}
	for _, c := range []struct {
		name string
		mean float64
		want bool
	}{
		{"above", 0.12, true},
		{"below", 0.08, false},
		{"equal", 0.1, false},
		{"before a run", math.NaN(), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var run *engine.Report
			if !math.IsNaN(c.mean) {
				run = &engine.Report{Excess: engine.Estimate{Mean: c.mean, SE: 0.001}}
			}
			text := strings.Join(strings.Fields(style.StripANSI(strings.Join(refLines(&st, pr, 200, run), "\n"))), " ")
			if got := strings.Contains(text, report.AboveCertText); got != c.want {
				t.Errorf("says %q: %v, want %v:\n%s", report.AboveCertText, got, c.want, text)
			}
			if got := report.MeanAboveCert(pr.Certified, c.mean); got != c.want {
				t.Errorf("report.MeanAboveCert = %v, want %v", got, c.want)
			}
		})
	}
}
