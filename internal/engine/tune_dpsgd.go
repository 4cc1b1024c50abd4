package engine

import (
	"fmt"
	"math"

	"dpso/solvers/accountant"
)

// dpsgdRDP is the Rényi DP, at each order, of dp-sgd's T steps of the
// Poisson-subsampled Gaussian mechanism at rate q and noise multiplier z
// under replace-one adjacency, the paper's and the search's
// (accountant.ComposedRDP).
func dpsgdRDP(q, z float64, steps int, orders []float64) []float64 {
	return accountant.ComposedRDP(accountant.ReplaceOne, q, z, steps, orders)
}

// dpsgdMultiplier is the smallest noise multiplier z (to relative 10⁻⁶,
// rounded up) whose dp-sgd run of T steps at rate q has Rényi DP at most
// ρ_Q·λ at every order λ of the search's grid: so that a dp-sgd candidate
// enters Papernot & Steinke's theorem with the same curve as a ρ_Q-zCDP
// one (the theorem and the conversion read the curve at those orders
// only). The curve decreases in z, so bisection on ln z keeps the upper
// end feasible.
func dpsgdMultiplier(q float64, steps int, rho float64, orders []float64) (float64, error) {
	fits := func(z float64) bool {
		c := dpsgdRDP(q, z, steps, orders)
		for i, a := range orders {
			if !(c[i] <= rho*a) {
				return false
			}
		}
		return true
	}
	hi := 1.0
	for !fits(hi) {
		hi *= 2
		if hi > 1e6 {
			return math.NaN(), fmt.Errorf("no noise multiplier up to 10⁶ keeps %d steps at rate %g under ρ = %g", steps, q, rho)
		}
	}
	lo := hi / 2
	for fits(lo) {
		hi, lo = lo, lo/2
		if lo < 1e-6 {
			return hi, nil
		}
	}
	for hi/lo-1 > 1e-6 {
		mid := math.Sqrt(lo * hi)
		if fits(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}
