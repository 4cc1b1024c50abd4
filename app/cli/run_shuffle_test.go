package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

// The shuffle-model runs: their budget, bounds and prescription.

// TestRunShuffleHeaderAndBounds: a shuffle run states its budget as
// (ε, δ)-shuffle (not "zCDP ε"), shows the appendix's shuffle-model bound
// (theory.Variant of the class's bound) and no zCDP lower bound, and
// prescribes T and C as the zCDP run at ε̃ = ε/ln(d/δ) (theory.ShuffleEps)
// prescribes them.
func TestRunShuffleHeaderAndBounds(t *testing.T) {
	args := []string{"run", "--scenario", "linreg-t", "--oracle", "shuffle-clip", "--delta", "1e-7", "--dry-run"}
	code, human, errs := dpsoCLI(args...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	if !strings.Contains(human, "(ε, δ) = (1, 10⁻⁷)-shuffle") || strings.Contains(human, "zCDP ε") {
		t.Errorf("shuffle header:\n%s", human)
	}
	if !strings.Contains(human, "smooth-convex-acsa-shuffle") || strings.Contains(human, "lower-convex") {
		t.Errorf("shuffle bounds:\n%s", human)
	}
	_, out, _ := dpsoCLI(append(args, "--json")...)
	var j struct {
		Params struct {
			Iters int
			Clip  float64
		}
		Bounds []struct{ ID string }
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	r := resolved(t, spec.Spec{Scenario: "linreg-t"})
	in, err := scenarios.Build(context.Background(), r.Problem)
	if err != nil {
		t.Fatal(err)
	}
	ti := in.Theory()
	et := theory.ShuffleEps(1, float64(ti.D), 1e-7)
	z, err := solvers.ACSA{}.Prescribe(in, ti.N, solvers.Config{Eps: et, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if j.Params.Iters != z.Iters || math.Abs(j.Params.Clip-z.Clip) > 1e-9*z.Clip {
		t.Errorf("shuffle prescription T, C = %d, %g; zCDP at ε̃ = %g: %d, %g", j.Params.Iters, j.Params.Clip, et, z.Iters, z.Clip)
	}
	if len(j.Bounds) != 1 || j.Bounds[0].ID != theory.SmoothConvexACSAShuffle {
		t.Errorf("shuffle bounds %+v", j.Bounds)
	}
}

// TestRunShuffleCoordinateBounds: a run with the coordinate-wise shuffle
// oracle shows its own bound (prop: sdp bias var: the class's bound under
// ass:coordinatewise at ε̃ = ε/ln(d/δ), read at the scenario's γ_k and γ₂),
// per class, where a shuffle-clip run shows lem: pvec's; on user data,
// where γ_k is not computed, the bound is listed as not evaluated, with
// the reason, rather than evaluated with r̃_k.
func TestRunShuffleCoordinateBounds(t *testing.T) {
	atRepoRoot(t)
	for _, c := range []struct {
		class, oracle, want string
	}{
		{"smooth-convex", "shuffle-coordinate", theory.SmoothConvexACSAShuffleCoord},
		{"smooth-sc", "shuffle-coordinate", theory.SmoothSCSGDShuffleCoord},
		{"ppl", "shuffle-coordinate", theory.PPLProxSGDShuffleCoord},
		{"smooth-convex", "shuffle-clip", theory.SmoothConvexACSAShuffle},
		{"smooth-sc", "shuffle-clip", theory.SmoothSCSGDShuffle},
	} {
		t.Run(fmt.Sprintf("%s %s", c.class, c.oracle), func(t *testing.T) {
			args := []string{"run", "--scenario", "linreg-t", "--class", c.class, "--oracle", c.oracle, "--dry-run", "--json"}
			code, out, errs := dpsoCLI(args...)
			if code != 0 {
				t.Fatalf("%v: status %d: %s", args, code, errs)
			}
			var j struct {
				Bounds []struct {
					ID     string
					Source string
					Value  *float64
				}
			}
			if err := json.Unmarshal([]byte(out), &j); err != nil {
				t.Fatal(err)
			}
			if len(j.Bounds) != 1 || j.Bounds[0].ID != c.want {
				t.Errorf("%s %s: bounds %+v, want only %s", c.class, c.oracle, j.Bounds, c.want)
				return
			}
			label := "lem: pvec"
			if c.oracle == "shuffle-coordinate" {
				label = "prop: sdp bias var"
			}
			if !strings.Contains(j.Bounds[0].Source, label) {
				t.Errorf("%s: source %q lacks %q", c.want, j.Bounds[0].Source, label)
			}
			if c.oracle != "shuffle-coordinate" {
				return
			}
			// The value is theory's at the scenario's coordinate-wise moments.
			r := resolved(t, spec.Spec{Scenario: "linreg-t", Class: theory.Class(c.class)})
			in, err := scenarios.Build(context.Background(), r.Problem)
			if err != nil {
				t.Fatal(err)
			}
			ti := in.WithCoordOracle(in.TheoryUnder(theory.Tilde, spec.DefaultDelta))
			p := ti.Params()
			if !(p.Gk > 0) || p.Gk == p.Rk {
				t.Fatalf("γ_k^(1/k) = %g (r̃_k = %g): not the scenario's coordinate-wise moment", p.Gk, p.Rk)
			}
			b, err := theory.Evaluate(c.want, p)
			if err != nil {
				t.Fatal(err)
			}
			if j.Bounds[0].Value == nil || math.Abs(*j.Bounds[0].Value-b.Value) > 1e-12*b.Value {
				t.Errorf("%s: value %v, theory at γ_k^(1/k) = %g: %g", c.want, j.Bounds[0].Value, p.Gk, b.Value)
			}
		})
	}
	code, human, errs := dpsoCLI("run", "--data", "examples/linreg-t-d3.csv", "--rk", "12", "--beta", "1.5", "--trials", "1",
		"--rand", "seeded", "--oracle", "shuffle-coordinate", "--dry-run")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	for _, want := range []string{theory.SmoothConvexACSAShuffleCoord, "✗ not evaluated: the coordinate-wise shuffle oracle's bound", "needs γ_k, which is not known for this run"} {
		if !strings.Contains(human, want) {
			t.Errorf("user-data shuffle-coordinate run lacks %q:\n%s", want, human)
		}
	}
}
