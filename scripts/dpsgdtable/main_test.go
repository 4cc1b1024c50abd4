package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// TestTable: on a small scenario the table has the paper's solver and the
// three baselines, each with its (ε', δ) at δ = 10⁻⁵ — the exact 4.37718
// of ρ = ½ (dp_accounting's Gaussian value, solvers/accountant's
// golden_test.go) for the zCDP solvers, the PLD accountant's for dp-sgd —
// and lipschitz-dpsgd's refusal when L_f is not declared.
func TestTable(t *testing.T) {
	saved := Scenarios
	defer func() { Scenarios = saved }()
	Scenarios = []spec.Spec{{Scenario: scenarios.LinRegT, D: 3, N: 3000, Trials: 2}}
	var b bytes.Buffer
	if err := write(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2+4+2 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	exact := theory.Sig6.Format(theory.EpsExact(1, 1e-5))
	delta := theory.Sig6.Format(1e-5)
	for i, want := range []string{"| acsa | ", "| dp-sgd | ", "| klz-gd | ", "| lipschitz-dpsgd | refused"} {
		row := lines[2+i]
		if !strings.Contains(row, want) {
			t.Errorf("row %d %q lacks %q", i, row, want)
		}
		switch {
		case i == 1 && !strings.Contains(row, ", "+delta+"), pld accountant"):
			t.Errorf("dp-sgd row %q lacks its accountant", row)
		case (i == 0 || i == 2) && !strings.Contains(row, "("+exact+", "+delta+"), exact"):
			t.Errorf("row %q lacks ε' = %s", row, exact)
		}
	}
}
