package screens

import (
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/theory"
)

// TestLegendSaysMeanAboveCertificate: the run chart's certificate entry
// says a measured mean above it in `dpso run`'s words
// (report.AboveCertText, report.MeanAboveCert's rule), and nothing of
// the kind for a mean below it or before a run.
func TestLegendSaysMeanAboveCertificate(t *testing.T) {
	cert := engine.Certified{Cert: &theory.Certificate{ID: "c", Value: 0.1}}
	for _, c := range []struct {
		name string
		mean float64
		run  bool
		want bool
	}{
		{"above", 0.12, true, true},
		{"below", 0.08, true, false},
		{"before a run", 0, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			series := RefSeries(testCommon(), engine.Estimate{Mean: 0.5}, cert)
			b := runCertBasis(nil, &engine.Prescription{W0: engine.Estimate{Mean: 0.5}, Certified: cert}, 1)
			if c.run {
				b = runCertBasis(&engine.Report{Solver: "acsa", W0: engine.Estimate{Mean: 0.5}, Certified: cert, Excess: engine.Estimate{Mean: c.mean}}, nil, 1)
			}
			b.label(series)
			var tags []string
			for _, s := range series {
				tags = append(tags, s.Label+" "+s.Tag)
			}
			text := strings.Join(tags, "\n")
			if got := strings.Contains(text, report.AboveCertText); got != c.want {
				t.Errorf("the legend says %q: %v, want %v:\n%s", report.AboveCertText, got, c.want, text)
			}
		})
	}
}
