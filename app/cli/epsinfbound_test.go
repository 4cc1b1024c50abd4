package cli

import (
	"strings"
	"testing"
)

// TestNoBoundAtEpsInfSaysWhy: at ε = ∞ no bound of the paper applies
// because the run is not private (every bound is about a private
// algorithm) — not because a constant is undeclared, which linreg-t
// declares; dpso run --dry-run says so.
func TestNoBoundAtEpsInfSaysWhy(t *testing.T) {
	code, out, errs := dpsoCLI("run", "--scenario", "linreg-t", "--eps", "inf", "--n", "200000", "--tail", "10", "--dry-run")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "No theory bound at these parameters: ε = ∞") || strings.Contains(out, "not declared") {
		t.Errorf("the reason no bound applies is not ε = ∞:\n%s", out)
	}
}
