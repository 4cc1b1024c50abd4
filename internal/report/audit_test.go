package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"dpso/internal/audit"
	"dpso/solvers/oracle"
)

// TestAuditDocumentNulls: the audit document writes null exactly where a
// value does not apply or does not exist (NaN, ±Inf), keeps the headline
// keys first, and names a whole run's solver.
func TestAuditDocumentNulls(t *testing.T) {
	r := &audit.Result{Oracle: "clip-gaussian", Kind: oracle.ZCDP, Eps: 1, Delta: math.NaN(), Trials: 10,
		MuHat: math.Inf(1), MuSE: math.NaN(), MuLower: 0.9, MuUpper: math.NaN(), EpsLower: math.NaN(), NegativeControl: 1,
		MuClaim: 1, NoiseWaste: 0, EpsGauss: math.NaN(), Sensitivity: math.NaN(), Shift: math.NaN()}
	b, err := MarshalJSON(Audit(r))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"delta", "mu_hat", "mu_upper", "eps_lower", "mu_se", "eps_gauss", "solver", "sensitivity", "shift"} {
		if v, ok := doc[k]; !ok || v != nil {
			t.Errorf("%s = %v (present %v), want null", k, v, ok)
		}
	}
	if doc["mu_lower"] != 0.9 || doc["audit"] != "oracle" || doc["claim"] != "zcdp" || doc["confidence"] != 0.95 {
		t.Errorf("document %s", b)
	}
	if !strings.HasPrefix(string(b), "{\n  \"oracle\": \"clip-gaussian\",\n  \"eps\": 1,\n  \"delta\": null,\n  \"trials\": 10,\n  \"mu_hat\": null,\n  \"mu_lower\": 0.9,\n  \"mu_upper\": null,\n  \"eps_lower\": null,\n  \"violation\": false,") {
		t.Errorf("headline keys not first or not in order:\n%s", b)
	}
	r.Solver = "acsa"
	if d := Audit(r); d.Audit != "run" || d.Solver == nil || *d.Solver != "acsa" {
		t.Errorf("whole run: audit %q, solver %v", d.Audit, d.Solver)
	}
}
