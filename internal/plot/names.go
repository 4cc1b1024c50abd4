package plot

import (
	"dpso/solvers"
	"dpso/theory"
)

// SolverLabel is a solver's legend name: its human name (its Descriptor's
// Legend), then its id (the --solver value) and "the paper's" for the
// paper's algorithms, e.g. "noisy clipped AC-SA (acsa, the paper's)"; the
// bare name for a solver that is not registered.
func SolverLabel(name string) string {
	d, ok := solvers.DescriptorOf(name)
	switch {
	case !ok:
		return name
	case !d.Baseline():
		return d.Legend + " (" + name + ", the paper's)"
	}
	return d.Legend + " (" + name + ")"
}

// BoundLabel is a theory bound's legend name from its kind and title,
// without repeating the kind ("lower bound (convex)", not "lower lower
// bound"): "upper bound of noisy clipped AC-SA (smooth convex)", "lower
// bound (convex)", "prior work: uniformly Lipschitz DP-SCO (convex), a
// bound in L_f". Its value is a rate with constants set to 1, which the
// caller says beside it.
func BoundLabel(kind theory.Kind, title string) string {
	switch kind {
	case theory.Upper:
		return "upper bound of " + title
	case theory.Lower:
		return title
	}
	return "prior work: " + title
}
