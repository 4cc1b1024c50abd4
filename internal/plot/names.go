package plot

import "dpso/theory"

// solverNames are the solvers' human names, as a legend writes them.
// (This package does not import solvers: the paper's algorithms are
// marked here, and TestSolverLabels checks the list against the registry.)
var solverNames = map[string]struct {
	human string
	paper bool
}{
	"acsa":                {"noisy clipped AC-SA", true},
	"clipped-sgd":         {"noisy clipped SGD", true},
	"localized":           {"localized noisy clipped subgradient", true},
	"localized-sc":        {"localized method, strongly convex reduction", true},
	"prox-sgd":            {"noisy clipped proximal SGD", true},
	"nonprivate-schedule": {"the paper solver's schedule without clipping or noise (non-private)", false},
	"lipschitz-dpsgd":     {"DP-SGD calibrated to L_f (prior practice)", false},
	"klz-gd":              {"Kamath–Liu–Zhang noisy GD (prior)", false},
	"dp-sgd":              {"DP-SGD with Poisson subsampling", false},
}

// SolverLabel is a solver's legend name: its human name, then its id (the
// --solver value) and "the paper's" for the paper's algorithms, e.g.
// "noisy clipped AC-SA (acsa, the paper's)".
func SolverLabel(name string) string {
	h, ok := solverNames[name]
	switch {
	case !ok:
		return name
	case h.paper:
		return h.human + " (" + name + ", the paper's)"
	}
	return h.human + " (" + name + ")"
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
