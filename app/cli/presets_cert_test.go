package cli

import (
	"context"
	"testing"

	"dpso/internal/engine"
	"dpso/tui/presets"
)

// TestPresetsUnderCertificate: on the explorer's presets the paper's
// algorithm at each preset's own Spec has a certificate in force (a
// finite value, every condition holding) and its measured mean lies under
// it (minus 3 standard errors: a one-sided test at about 0.1% per preset,
// the error from the trials' spread). It logs, for the report, the
// certificate, the mean and F(w₀) − F*.
func TestPresetsUnderCertificate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every preset at its own size")
	}
	for _, p := range presets.All {
		s := p.Spec
		s.Solver = "" // the paper's algorithm of the class
		r, err := s.Resolve()
		if err != nil {
			t.Fatalf("%s: %v", p.Title, err)
		}
		rep, err := engine.Run(context.Background(), r, nil)
		if err != nil {
			t.Fatalf("%s: %v", p.Title, err)
		}
		c := rep.Certified
		if c.Cert == nil || !c.Cert.Holds() || !(c.Value() > 0) {
			t.Errorf("%s: %s has no certificate in force: %+v", p.Title, rep.Solver, c)
			continue
		}
		if m, se := rep.Excess.Mean, rep.Excess.SE; m-3*se > c.Value() {
			t.Errorf("%s: %s measured %g ± %g above its certificate %s = %g", p.Title, rep.Solver, m, se, c.Cert.ID, c.Value())
		}
		t.Logf("%s: %s n = %d: mean %.4g ± %.2g, certificate %s = %.4g, F(w₀) − F* = %.4g, budget-capped %v",
			p.Title, rep.Solver, rep.Spec.N, rep.Excess.Mean, rep.Excess.SE, c.Cert.ID, c.Value(), rep.W0.Mean, rep.BudgetCapped)
	}
}
