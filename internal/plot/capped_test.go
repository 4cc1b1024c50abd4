package plot

import (
	"strings"
	"testing"

	"dpso/internal/report"
	"dpso/internal/testutil/sweepfix"
)

// TestSweepFigureCappedCertificate: a sweep figure draws a solver's
// certificate only at the points whose runs it covers — not at a
// budget-capped point, whose certificate is the uncapped schedule's — and
// its entry names the capped points in the screen's words
// (report.CertFrom); with every point capped it draws none and says why.
func TestSweepFigureCappedCertificate(t *testing.T) {
	for _, c := range []struct {
		name   string
		capped []bool
		drawn  int
		words  string
	}{
		{"last two capped", []bool{false, true, true}, 1, report.CappedNotCovered + " at n = 10000, 10⁵"},
		{"all capped", []bool{true, true, true}, 0, "not drawn: " + report.CappedNotCovered + " at every n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Sweep(sweepfix.Capped(c.capped...), Options{})
			if err != nil {
				t.Fatal(err)
			}
			drawn := 0
			var names []string
			for _, s := range f.Series() {
				if s.Role == RoleCertificate {
					drawn += len(s.Points)
					names = append(names, s.Name)
				}
			}
			if drawn != c.drawn {
				t.Errorf("the certificate is drawn at %d points, want %d", drawn, c.drawn)
			}
			all := strings.Join(append(names, f.notes...), "\n")
			if !strings.Contains(all, c.words) {
				t.Errorf("the figure does not say %q:\n%s", c.words, all)
			}
		})
	}
}
