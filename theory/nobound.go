package theory

import "math"

// NoBoundWhy says why no bound of the paper is evaluated at privacy
// parameter eps (ε of ρ = ε²/2-zCDP, +Inf: no privacy) when none is: at
// ε = ∞ none applies — every upper and lower bound of the paper is about
// a private algorithm, its privacy term √d/(εn) — and at a finite ε a
// constant each one needs (r̃_k, β, μ, D, ...) is not declared for the
// problem ([MissingError]).
func NoBoundWhy(eps float64) string {
	if math.IsInf(eps, 1) {
		return "ε = ∞: the run is not private, and every bound of the paper is about a private algorithm at a finite ε"
	}
	return "a constant it needs is not declared for this problem"
}
