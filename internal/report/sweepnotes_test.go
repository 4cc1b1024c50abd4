package report

import (
	"slices"
	"testing"

	"dpso/internal/engine"
)

// TestSweepNotesNameTheirSolver: a note only some solvers of a point have
// is that solver's, prefixed with its name as a comparison's notes are;
// one every solver has stands as it is, and one only some points have
// says at which. A sweep of acsa beside lipschitz-dpsgd with a given L_f
// printed lipschitz-dpsgd's "prescription uses user-given constants
// (L_f = …)" and "prior practice: …" with no name, read as the sweep's.
func TestSweepNotesNameTheirSolver(t *testing.T) {
	given := "the prescription uses user-given constants (L_f = 10000) instead of the declared ones"
	point := func(v float64, acsa, lip []string) engine.SweepPoint {
		return engine.SweepPoint{Value: v, Reports: []*engine.Report{{Solver: "acsa", Notes: acsa}, {Solver: "lipschitz-dpsgd", Notes: lip}}}
	}
	rep := &engine.SweepReport{Sweep: engine.SweepSpec{Param: "n"}, Solvers: []string{"acsa", "lipschitz-dpsgd"}, Points: []engine.SweepPoint{
		point(2000, []string{"shared", "n mod T = 2"}, []string{"shared", given}),
		point(8000, []string{"shared"}, []string{"shared", given}),
	}}
	want := []string{"shared", "at n = 2000: acsa: n mod T = 2", "lipschitz-dpsgd: " + given}
	if got := sweepNotes(rep); !slices.Equal(got, want) {
		t.Errorf("notes\n%q\nwant\n%q", got, want)
	}
}
