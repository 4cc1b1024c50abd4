package spec

import (
	"fmt"
	"math"
	"testing"
)

// TestShare: m shares of a budget compose back to it — ρ/m each under
// zCDP composition (ρ's add: Bun & Steinke 2016, Lemma 2.3), (ε/m, δ/m)
// each under basic composition (Dwork & Roth 2014, Theorem 3.16); one
// release keeps the budget; a model without a rule says so.
func TestShare(t *testing.T) {
	z := Privacy{Model: ZCDP, Eps: 2, Rho: 2}
	sh := Privacy{Model: Shuffle, Eps: 1, Delta: 1e-6}
	cases := []struct {
		p        Privacy
		m        int
		eps, rho float64
		delta    float64
	}{
		{z, 1, 2, 2, 0},
		{z, 4, 1, 0.5, 0}, // ε/√4, ρ/4
		{z, 3, 2 / math.Sqrt(3), 2.0 / 3, 0},
		{sh, 4, 0.25, 0, 2.5e-7},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v m=%d", c.p.Model, c.m), func(t *testing.T) {
			got, ok := c.p.Share(c.m)
			if !ok || math.Abs(got.Eps-c.eps) > 1e-15*c.eps || math.Abs(got.Rho-c.rho) > 1e-15*math.Max(c.rho, 1) || math.Abs(got.Delta-c.delta) > 1e-21 {
				t.Errorf("%+v.Share(%d) = %+v, %v; want ε %g, ρ %g, δ %g", c.p, c.m, got, ok, c.eps, c.rho, c.delta)
			}
			if got.Model == ZCDP && math.Abs(float64(c.m)*got.Rho-c.p.Rho) > 1e-15*c.p.Rho {
				t.Errorf("m·ρ_share = %g, want ρ = %g", float64(c.m)*got.Rho, c.p.Rho)
			}
		})
	}
	if _, ok := (Privacy{Model: PrivacyModel(99), Eps: 1}).Share(2); ok {
		t.Error("a model without a share rule was shared")
	}
}
