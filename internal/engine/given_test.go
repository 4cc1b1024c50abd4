package engine

import (
	"context"
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// TestPrescriptionNotesOnlyTheConstantsItReads: the note that a
// prescription rests on user-given constants names only those it reads.
// At finite k AC-SA's prescription reads r̃_2, r̃_k, β and μ, not L_f, so
// preset 1's --lf (given for lipschitz-dpsgd, which prescribes at k = ∞)
// leaves AC-SA's prescription without the note and gives
// lipschitz-dpsgd's; with r̃_2 given as well AC-SA's names r̃₂ alone.
func TestPrescriptionNotesOnlyTheConstantsItReads(t *testing.T) {
	base := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, D: 3, N: 3000, K: 4, Tail: 20}
	lf := base
	lf.Lf = 1e4
	both := lf
	both.R2 = 5
	for _, c := range []struct {
		name, solver string
		s            spec.Spec
		want         string // "" : no note
	}{
		{"acsa, declared", "acsa", base, ""},
		{"acsa, L_f given", "acsa", lf, ""},
		{"lipschitz-dpsgd, L_f given", "lipschitz-dpsgd", lf, "(L_f = 10000)"},
		{"acsa, L_f and r̃₂ given", "acsa", both, "(r̃₂ = 5)"},
		{"lipschitz-dpsgd, L_f and r̃₂ given", "lipschitz-dpsgd", both, "(L_f = 10000, r̃₂ = 5)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.s
			s.Solver = c.solver
			p, err := Prescribe(context.Background(), resolve(t, s))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range p.Notes {
				if strings.Contains(n, "user-given") {
					got = append(got, n)
				}
			}
			switch {
			case c.want == "" && len(got) > 0:
				t.Errorf("notes %q: want no user-given note", got)
			case c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want)):
				t.Errorf("notes %q: want one naming %s", got, c.want)
			}
		})
	}
}
