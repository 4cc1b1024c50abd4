package report

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/estimate"
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
		{"flagged private estimates", flaggedPoint(rep(0.1, 0.05, 0.02, nil)), "certificate on flagged private estimates"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := PointVerdict(c.p); got != c.want {
				t.Errorf("%s: %q, want %q", c.name, got, c.want)
			}
		})
	}
}

// TestSweepVerdictSlopeOverTwoPoints: where the theory is in force at two
// points of a sweep only, the slope over them is a line through two
// points, and the verdict says it has no interval — beside a fitted
// slope's 95% interval it is not measured with the same care.
func TestSweepVerdictSlopeOverTwoPoints(t *testing.T) {
	pt := func(n, excess, cert float64) engine.SweepPoint {
		r := &engine.Report{W0: engine.Estimate{Mean: 0.1}, Excess: engine.Estimate{Mean: excess},
			Certified: engine.Certified{Cert: &theory.Certificate{ID: "c", Value: cert}}}
		return engine.SweepPoint{Value: n, Reports: []*engine.Report{r}}
	}
	rep := &engine.SweepReport{Solvers: []string{"acsa"}, Points: []engine.SweepPoint{pt(1e3, 0.05, 0.2), pt(1e4, 0.01, 0.05), pt(1e5, 0.001, 0.02)}}
	got, _ := SweepVerdict(rep, "n", theory.Human.Format, theory.Human.Format, false)
	if !strings.Contains(got, "over the 2 other points acsa's slope is") || !strings.Contains(got, "through 2 points: no interval") {
		t.Errorf("the verdict %q does not say the 2-point slope has no interval", got)
	}
}

// TestBoundNoSlopeWhy: a bound without a slope over the sweep says why —
// a Lipschitz bound on data with L_f = ∞ is ∞ at every point — and one
// with a slope says nothing.
func TestBoundNoSlopeWhy(t *testing.T) {
	pt := func(lf, v float64) engine.SweepPoint {
		r := &engine.Report{Theory: scenarios.TheoryInputs{Lf: lf}, Bounds: []theory.Bound{{ID: "prior", Kind: theory.Prior, Value: v}}}
		return engine.SweepPoint{Reports: []*engine.Report{r}}
	}
	inf := math.Inf(1)
	for _, c := range []struct {
		name string
		pts  []engine.SweepPoint
		want string
	}{
		{"L_f = ∞", []engine.SweepPoint{pt(inf, inf), pt(inf, inf)}, "no slope: ∞ at every point (L_f = ∞ here, the constant it reads)"},
		{"∞ at some", []engine.SweepPoint{pt(10, 1), pt(10, inf)}, "no slope: ∞ at 1 of the 2 points"},
		{"finite", []engine.SweepPoint{pt(10, 1), pt(10, 0.5)}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := BoundNoSlopeWhy(&engine.SweepReport{Points: c.pts}, "prior"); got != c.want {
				t.Errorf("%q, want %q", got, c.want)
			}
		})
	}
}

// flaggedPoint is p with its first report's certificate computed from
// private estimates of the constants whose release is flagged.
func flaggedPoint(p engine.SweepPoint) engine.SweepPoint {
	r := *p.Reports[0]
	r.ConstantsRho = 0.05
	r.Trials = []engine.TrialResult{{Constants: &estimate.Estimates{Flags: []string{"c likely lies far below the data"}}}}
	return engine.SweepPoint{Reports: []*engine.Report{&r}}
}

// TestCertFromSkipsFlagged: a certificate below w₀ on flagged private
// estimates promises nothing: the sweep's legend names the first point
// whose certificate stands, or says none does.
func TestCertFromSkipsFlagged(t *testing.T) {
	pt := func(w0, c float64) engine.SweepPoint {
		return engine.SweepPoint{Reports: []*engine.Report{{W0: engine.Estimate{Mean: w0}, Certified: engine.Certified{Cert: &theory.Certificate{ID: "c", Value: c}}}}}
	}
	tick := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, c := range []struct {
		name   string
		points []engine.SweepPoint
		want   string
	}{
		{"first in force is flagged", []engine.SweepPoint{flaggedPoint(pt(0.1, 0.05)), pt(0.1, 0.2), pt(0.1, 0.05)}, "below w₀ from ε = 3"},
		{"only the flagged one below w₀", []engine.SweepPoint{flaggedPoint(pt(0.1, 0.05)), pt(0.1, 0.2)}, "vacuous (above w₀) or on flagged private estimates at every ε"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for i := range c.points {
				c.points[i].Value = float64(i + 1)
			}
			if got := CertFrom(&engine.SweepReport{Points: c.points}, 0, "ε", tick); got != c.want {
				t.Errorf("%q, want %q", got, c.want)
			}
		})
	}
}
