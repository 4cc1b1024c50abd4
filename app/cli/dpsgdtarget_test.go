package cli

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDPSGDTargetAfterPrivateConstants: on the user's rows with
// --constants private, the estimate spends ρ₀ = a tenth of ρ = ε²/2 = 0.5
// first and dp-sgd is calibrated to the rest, ρ − ρ₀ = 0.45; its privacy
// row and its JSON target name that budget, not ρ's. Golden values: the
// exact ε' of ρ-zCDP at δ = 10⁻⁵ is the Gaussian mechanism's with
// μ = √(2ρ) (Balle & Wang 2018, Theorem 8: δ(ε) = Φ(−ε/μ + μ/2) −
// e^ε·Φ(−ε/μ − μ/2)), solved by scipy's brentq: 4.1186353440438195 at
// ρ = 0.45, 4.377178095681225 at ρ = 0.5.
func TestDPSGDTargetAfterPrivateConstants(t *testing.T) {
	const epsAt045, epsAt05 = 4.1186353440438195, 4.377178095681225
	r := rand.New(rand.NewPCG(11, 5))
	var b strings.Builder
	b.WriteString("a1,a2,y\n")
	for range 300 {
		x1, x2 := r.NormFloat64(), r.NormFloat64()
		b.WriteString(strconv.FormatFloat(x1, 'g', -1, 64) + "," + strconv.FormatFloat(x2, 'g', -1, 64) + "," +
			strconv.FormatFloat(0.5*x1-x2+0.3*r.NormFloat64(), 'g', -1, 64) + "\n")
	}
	p := filepath.Join(t.TempDir(), "rows.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("table", func(t *testing.T) {
		code, out, errs := dpsoCLI("run", "--data", p, "--constants", "private", "--solver", "dp-sgd", "--trials", "1")
		if code != 0 {
			t.Fatalf("status %d; stderr %q", code, errs)
		}
		want := "calibrated to ε' ≤ 4.11864, the exact ε' of ρ − ρ₀ = 0.45 zCDP"
		if !strings.Contains(out, want) || strings.Contains(out, "calibrated to ε' ≤ 4.37718") {
			t.Errorf("privacy row does not name dp-sgd's budget after the estimate; want %q in\n%s", want, out)
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
			} `json:"privacy"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v in %.400s", err, out)
		}
		tg := doc.Privacy.Target
		if math.Abs(tg["rho"]-0.45) > 1e-12 || math.Abs(tg["eps_exact"]-epsAt045) > 1e-6 {
			t.Errorf("target %v, want rho 0.45 and eps_exact %v (not ρ = 0.5's %v)", tg, epsAt045, epsAt05)
		}
		if e := doc.Privacy.EpsDelta["eps"]; !(e > 0 && e <= epsAt045*(1+1e-9)) {
			t.Errorf("accounted ε' = %v, want in (0, %v]", e, epsAt045)
		}
	})
}
