package spec

import (
	"testing"

	"dpso/solvers"
)

// kindValues is a solvers.SettingValues that records the kind each
// setting is read as.
type kindValues map[string]Kind

func (v kindValues) Int(name string) int       { v[name] = Int; return 0 }
func (v kindValues) Float(name string) float64 { v[name] = Float; return 0 }
func (v kindValues) Bool(name string) bool     { v[name] = Bool; return false }
func (v kindValues) String(name string) string { v[name] = String; return "" }

// TestSolverSettingsAreFields: every solver's own setting is a Solver
// field of the table, of the kind the solver reads it as, and owned by
// that solver alone (Field.Solver), so that settingValues reads it and
// CheckSolverFields refuses it in a call without the solver.
func TestSolverSettingsAreFields(t *testing.T) {
	owned := 0
	for _, d := range solvers.Descriptors() {
		read := kindValues{}
		d.Configured(read)
		for _, name := range d.Settings.Names {
			f, ok := FieldByName(name)
			switch {
			case !ok:
				t.Errorf("%s's setting %q is not a field of the Spec", d.Name(), name)
			case f.Group != Solver:
				t.Errorf("%s's setting %q is in group %d, want Solver", d.Name(), name, f.Group)
			case f.Kind != read[name]:
				t.Errorf("%s reads its setting %q as kind %d; the field is of kind %d", d.Name(), name, read[name], f.Kind)
			case f.Solver() != d.Name():
				t.Errorf("field %q belongs to %q, want %s", name, f.Solver(), d.Name())
			}
			owned++
		}
	}
	if owned == 0 {
		t.Error("no solver has a setting of its own: the test checks nothing")
	}
	if f, _ := FieldByName("eps"); f.Solver() != "" {
		t.Errorf("eps belongs to %q, want every solver", f.Solver())
	}
}
