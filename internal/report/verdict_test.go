package report

import (
	"testing"

	"dpso/internal/engine"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

// TestPointVerdict: a point is pre-asymptotic when the certificate is at
// or above w₀ or missing, or when localized-sc's stages are all at radius
// D; in force otherwise — whatever the upper rate (constants set to 1, no
// level to compare with w₀).
func TestPointVerdict(t *testing.T) {
	cert := func(v float64) engine.Certified {
		return engine.Certified{Cert: &theory.Certificate{ID: "c", Value: v}}
	}
	rep := func(w0, c, upper float64, phases []solvers.Phase) engine.SweepPoint {
		r := &engine.Report{W0: engine.Estimate{Mean: w0}, Certified: cert(c), Bounds: []theory.Bound{{ID: "u", Kind: theory.Upper, Value: upper}},
			Params: solvers.Params{Phases: phases}, Theory: scenarios.TheoryInputs{Diam: 2}}
		return engine.SweepPoint{Reports: []*engine.Report{r}}
	}
	for _, c := range []struct {
		name string
		p    engine.SweepPoint
		want string
	}{
		{"in force", rep(0.1, 0.05, 0.02, nil), ""},
		{"vacuous certificate", rep(0.1, 0.2, 0.02, nil), "certificate ≥ w₀"},
		{"upper rate above w₀", rep(0.1, 0.05, 0.3, nil), ""},
		{"stages at D", rep(0.1, 0.05, 0.02, []solvers.Phase{{Stage: 1, Radius: 2}, {Stage: 2, Radius: 3}}), "every stage at radius D"},
		{"a stage inside D", rep(0.1, 0.05, 0.02, []solvers.Phase{{Stage: 1, Radius: 2}, {Stage: 2, Radius: 1}}), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := PointVerdict(c.p); got != c.want {
				t.Errorf("%s: %q, want %q", c.name, got, c.want)
			}
		})
	}
}
