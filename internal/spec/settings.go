package spec

import "dpso/solvers"

// settingValues reads a solver's own settings (solvers.Settings.Names)
// from the Spec's fields of the same names; a name that is not a field of
// that kind reads as the zero value, the solver's default
// (TestSolverSettingsAreFields checks that every name is one).
type settingValues struct{ s *Spec }

func (v settingValues) field(name string) Field {
	f, _ := FieldByName(name)
	return f
}

func (v settingValues) Int(name string) int {
	if f := v.field(name); f.i != nil {
		return *f.i(v.s)
	}
	return 0
}

func (v settingValues) Float(name string) float64 {
	if f := v.field(name); f.f64 != nil {
		return *f.f64(v.s)
	}
	return 0
}

func (v settingValues) Bool(name string) bool {
	if f := v.field(name); f.bl != nil {
		return *f.bl(v.s)
	}
	return false
}

func (v settingValues) String(name string) string {
	if f := v.field(name); f.str != nil {
		return *f.str(v.s)
	}
	return ""
}

// Configured is d with its solver's own settings (d.Settings) read from
// r's Spec: what the engine runs for d in a call of r, the run's solver
// or one of a comparison's.
func (r Resolved) Configured(d solvers.Descriptor) solvers.Descriptor {
	return d.Configured(settingValues{&r.Spec})
}

// Solver is the one solver whose own settings include the field
// (solvers.Settings.Names: dp-sgd's accountant, batch, …; klz-gd's
// groups and τ), "" when every solver reads it: see
// Spec.CheckSolverFields.
func (f Field) Solver() string {
	return solvers.SettingOwner(f.Name)
}
