package cli

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"dpso/internal/testutil/userrows"
)

// TestDPSGDTargetAfterPrivateConstants: on the user's rows with
// --constants private, the estimate spends ρ₀ = a tenth of ρ = ε²/2 = 0.5
// first, and dp-sgd is calibrated so that the estimate's release and its
// steps together meet the exact ε' of the whole ρ = 0.5 at δ = 10⁻⁵ — the
// budget every other solver spends (ρ₀ + (ρ − ρ₀) = ρ) — at one δ, where it
// was calibrated to ρ − ρ₀ = 0.45 and ρ₀ then added on top at a second δ
// ((ε', δ) = (5.31, 2·10⁻⁵) in all). Its privacy row, its JSON target and
// the run's total say so. Golden values: the exact ε' of ρ-zCDP at δ =
// 10⁻⁵ is the Gaussian mechanism's with μ = √(2ρ) (Balle & Wang 2018,
// Theorem 8: δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2)), solved by scipy's
// brentq: 4.377178095681225 at ρ = 0.5, 4.1186353440438195 at ρ = 0.45.
func TestDPSGDTargetAfterPrivateConstants(t *testing.T) {
	const epsAt045, epsAt05 = 4.1186353440438195, 4.377178095681225
	r := rand.New(rand.NewPCG(11, 5))
	p := userrows.Write(t, "rows.csv", 300, func(int) []float64 {
		x1, x2 := r.NormFloat64(), r.NormFloat64()
		return []float64{x1, x2, 0.5*x1 - x2 + 0.3*r.NormFloat64()}
	})
	t.Run("table", func(t *testing.T) {
		code, out, errs := dpsoCLI("run", "--data", p, "--constants", "private", "--solver", "dp-sgd", "--trials", "1")
		if code != 0 {
			t.Fatalf("status %d; stderr %q", code, errs)
		}
		for _, want := range []string{
			"calibrated to ε' ≤ 4.37718, the exact ε' of ρ = ε²/2 = 0.5 zCDP at δ = 10⁻⁵, met by the private constants' ρ₀ = 0.05 release and the steps together",
			"the private constants' ρ₀ = 0.05 zCDP release, then T = ",
			"spent in all (ε', δ) = (",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output does not say dp-sgd's whole release; want %q in\n%s", want, out)
			}
		}
		if strings.Contains(out, "4.11864") || strings.Contains(out, "2·10⁻⁵") {
			t.Errorf("output still names the run's share alone (4.11864) or a second δ:\n%s", out)
		}
	})
	t.Run("json", func(t *testing.T) {
		code, out, errs := dpsoCLI("run", "--data", p, "--constants", "private", "--solver", "dp-sgd", "--trials", "1", "--json")
		if code != 0 {
			t.Fatalf("status %d; stderr %q", code, errs)
		}
		var doc struct {
			Privacy struct {
				Target   map[string]float64 `json:"target"`
				EpsDelta map[string]float64 `json:"eps_delta"`
				Total    map[string]any     `json:"total"`
			} `json:"privacy"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v in %.400s", err, out)
		}
		tg := doc.Privacy.Target
		if math.Abs(tg["rho"]-0.5) > 1e-12 || math.Abs(tg["eps_exact"]-epsAt05) > 1e-6 {
			t.Errorf("target %v, want rho 0.5 and eps_exact %v (not ρ − ρ₀ = 0.45's %v)", tg, epsAt05, epsAt045)
		}
		ed := doc.Privacy.EpsDelta
		if e := ed["eps"]; !(e > epsAt045 && e <= epsAt05*(1+1e-9)) {
			t.Errorf("accounted ε' = %v, want in (%v, %v]: the constants' release composed in", e, epsAt045, epsAt05)
		}
		if ed["prior_rho"] != 0.05 {
			t.Errorf("eps_delta.prior_rho = %v, want 0.05", ed["prior_rho"])
		}
		if e, d := doc.Privacy.Total["eps_dp"], doc.Privacy.Total["delta_dp"]; e == nil || !(e.(float64) <= epsAt05*(1+1e-9)) || d != 1e-5 {
			t.Errorf("total (ε', δ) = (%v, %v), want ε' ≤ %v at δ = 10⁻⁵", e, d, epsAt05)
		}
	})
}
