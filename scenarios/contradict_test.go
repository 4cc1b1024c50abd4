package scenarios

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"dpso/theory"
)

// TestContradictions: a given constant is contradicted when the bound it
// declares is false for the scenario's law — L_f below the scenario's
// (∞ for Student-t features, whose r̃_k is ∞ from k = ν/2 on), r̃_k below
// the scenario's by more than three standard errors, β below its
// smoothness, μ above its strong convexity — and not when it is a looser
// true bound, nor on user data, where the given constants are all there
// is.
func TestContradictions(t *testing.T) {
	own := build(t, ProblemDef{Scenario: LinRegT, Tail: 10, K: 2})
	r2 := own.Moment(2)
	for _, c := range []struct {
		name  string
		p     ProblemDef
		field string
		own   float64
	}{
		{"L_f below ∞", ProblemDef{Scenario: LinRegT, Tail: 10, K: 2, Lf: 1e6}, "lf", math.Inf(1)},
		{"r̃_k below", ProblemDef{Scenario: LinRegT, Tail: 10, K: 2, Rk: r2.R / 2}, "rk", r2.R},
		{"r̃_k within its error", ProblemDef{Scenario: LinRegT, Tail: 10, K: 2, Rk: r2.R - r2.SE}, "", 0},
		{"r̃_k above", ProblemDef{Scenario: LinRegT, Tail: 10, K: 2, Rk: 1.5 * r2.R}, "", 0},
		{"L_f above the scenario's", ProblemDef{Scenario: Example1, K: 2, Lf: 1e21}, "", 0},
		{"L_f below the scenario's", ProblemDef{Scenario: Example1, K: 2, Lf: 1e19}, "lf", 2e20},
		{"β below", ProblemDef{Scenario: LinRegT, Tail: 10, K: 2, Beta: own.m.beta * 0.9, Mu: own.m.mu / 2}, "beta", own.m.beta},
		{"μ above", ProblemDef{Scenario: LinRegT, Tail: 10, K: 2, Class: theory.SmoothSC, Mu: own.m.mu * 1.5, Beta: own.m.beta * 2}, "mu", own.m.mu},
		{"nothing given", ProblemDef{Scenario: LinRegT, Tail: 10, K: 2}, "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := build(t, c.p).Contradictions()
			switch {
			case c.field == "" && len(got) != 0:
				t.Errorf("contradictions %+v, want none", got)
			case c.field != "" && (len(got) != 1 || got[0].Field != c.field):
				t.Errorf("contradictions %+v, want one of %s", got, c.field)
			case c.field != "" && !(got[0].Own == c.own || math.Abs(got[0].Own/c.own-1) < 1e-3):
				t.Errorf("the scenario's own value %g, want %g", got[0].Own, c.own)
			}
		})
	}
	// On user data the given constants are the only ones.
	p := filepath.Join(t.TempDir(), "rows.csv")
	if err := os.WriteFile(p, []byte("a,y\n1,0.5\n-1,0.2\n0.5,-0.3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := build(t, ProblemDef{Data: p, Loss: "squared", Rk: 0.01, Beta: 1}).Contradictions(); len(got) != 0 {
		t.Errorf("user data: contradictions %+v", got)
	}
}
