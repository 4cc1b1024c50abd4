package plot

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/theory"
)

// TestWriteFiguresToLookAt writes the figures of issue 14's bug #1 (the
// flagship comparison, a run, an n sweep and a clip sweep) as PNGs into
// $DPSO_FIG_DIR, for a person to look at; it is skipped when the variable
// is unset. The figure's model is tested by the other tests.
func TestWriteFiguresToLookAt(t *testing.T) {
	dir := os.Getenv("DPSO_FIG_DIR")
	if dir == "" {
		t.Skip("set DPSO_FIG_DIR to write the figures")
	}
	ctx := context.Background()
	flag := spec.Spec{Scenario: "linreg-t", Class: theory.SmoothConvex, Tail: 10, K: 2, Lf: 1e6, N: 200000, Trials: 8}
	rs, err := flag.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.Compare(ctx, rs, []string{"acsa", "nonprivate-schedule", "lipschitz-dpsgd", "klz-gd"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveComparison(filepath.Join(dir, "flagship.png"), c); err != nil {
		t.Fatal(err)
	}
	hs, err := spec.Spec{Scenario: "hinge-t", Class: theory.NonsmoothConvex, K: 4, Tail: 10, N: 1024, Trials: 4}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	hc, err := engine.Compare(ctx, hs, []string{"localized", "nonprivate-schedule", "klz-gd"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveComparison(filepath.Join(dir, "hinge.png"), hc); err != nil {
		t.Fatal(err)
	}
	ms, err := spec.Spec{Scenario: "mean-hard", Class: theory.SmoothSC, Trials: 4}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	sw, err := engine.Sweep(ctx, ms, engine.SweepSpec{Param: "n", From: 1000, To: 1000000, Points: 4, Solvers: []string{"clipped-sgd", "nonprivate-schedule"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveSweep(filepath.Join(dir, "meanhard-n.png"), sw); err != nil {
		t.Fatal(err)
	}
}
