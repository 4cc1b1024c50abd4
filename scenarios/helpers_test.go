package scenarios

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// resolve resolves p as a run's resolution would for the tests' purposes:
// the source, the class (default the first supported), ε (default 1) and
// the scenario's rules, with the catalogue's n.
func resolve(p ProblemDef) (ProblemDef, error) {
	if err := p.ResolveSource(); err != nil {
		return p, err
	}
	if p.Class == "" {
		p.Class = p.Classes()[0]
	}
	if p.Eps == 0 {
		p.Eps = 1
	}
	err := p.Resolve(nil)
	return p, err
}

// resolved is resolve, failing the test on an error.
func resolved(tb testing.TB, p ProblemDef) ProblemDef {
	tb.Helper()
	r, err := resolve(p)
	if err != nil {
		tb.Fatalf("resolve %+v: %v", p, err)
	}
	return r
}

// build resolves and builds p.
func build(tb testing.TB, p ProblemDef) *Instance {
	tb.Helper()
	in, err := Build(context.Background(), resolved(tb, p))
	if err != nil {
		tb.Fatalf("Build(%+v): %v", p, err)
	}
	return in
}

// isUserErr reports whether err is the user's (a field or a data file).
func isUserErr(err error) bool {
	var fe *FieldError
	var de *DataError
	return errors.As(err, &fe) || errors.As(err, &de)
}

// caseName names a test case by the problem it builds: the scenario (or
// the data file), then the class and every field set, in the order the
// CLI's flags list them (linreg-t smooth-sc d=3 tail=30).
func caseName(p ProblemDef) string {
	parts := []string{p.Scenario}
	if p.Data != "" {
		parts = []string{filepath.Base(p.Data)}
	}
	if p.Class != "" {
		parts = append(parts, string(p.Class))
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"n", float64(p.N)}, {"d", float64(p.D)}, {"diam", p.Diam}, {"tail", p.Tail}, {"k", p.K}, {"eps", p.Eps}, {"rk", p.Rk}, {"beta", p.Beta}} {
		if f.v != 0 {
			parts = append(parts, fmt.Sprintf("%s=%g", f.name, f.v))
		}
	}
	if p.Lambda2 != nil {
		parts = append(parts, fmt.Sprintf("l2=%g", *p.Lambda2))
	}
	keys := slices.Sorted(maps.Keys(p.Params))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%g", k, p.Params[k]))
	}
	return strings.Join(parts, " ")
}
