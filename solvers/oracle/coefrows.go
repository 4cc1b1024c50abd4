package oracle

import "math"

// coefNorms is clipScaledRows's loop for the rows on its fast path, given
// their norms rn[i] = √sq[i]: for i = 0, 1, … while sq[i] ∈ (2⁻⁹⁰⁰, 2⁹⁰⁰)
// and ‖z_i‖ = |k[i]|·rn[i] ≤ math.MaxFloat64, it sets coef[i] =
// min(1, c/‖z_i‖)·inv·k[i] — the same operations, in the same order, as
// that loop — and returns the number of rows done and how many of them
// clipped (‖z_i‖ > c). A leaf without calls or other stores, so that its
// operands stay in registers.
// On amd64 coefPairs does the rows two at a time first (the same
// operations on each), the loop here the rest.
func coefNorms(coef, k, sq, rn []float64, c, inv float64) (done, nclip int) {
	coef, sq, rn = coef[:len(k)], sq[:len(k)], rn[:len(k)]
	done, nclip = coefPairs(coef, k, sq, rn, c, inv)
	more, nc := coefNormsGo(coef[done:], k[done:], sq[done:], rn[done:], c, inv)
	return done + more, nclip + nc
}

// coefNormsGo is coefNorms's loop in Go, a row at a time.
func coefNormsGo(coef, k, sq, rn []float64, c, inv float64) (done, nclip int) {
	coef, sq, rn = coef[:len(k)], sq[:len(k)], rn[:len(k)]
	for i, ki := range k {
		ssq := sq[i]
		if !(ssq > 0x1p-900 && ssq < 0x1p+900) {
			return i, nclip
		}
		norm := math.Abs(ki) * rn[i]
		if !(norm <= math.MaxFloat64) {
			return i, nclip
		}
		nclip += b2i(norm > c)
		coef[i] = min(1, c/norm) * inv * ki
	}
	return len(k), nclip
}

// coefRoots is coefNorms with each norm's root taken here:
// ‖z_i‖ = |k[i]|·√sq[i]. On amd64 coefRootPairs does the rows two at a
// time first (the same operations on each: the roots and quotients of a
// pair in one instruction each), coefRootsGo the rest.
func coefRoots(coef, k, sq []float64, c, inv float64) (done, nclip int) {
	coef, sq = coef[:len(k)], sq[:len(k)]
	done, nclip = coefRootPairs(coef, k, sq, c, inv)
	more, nc := coefRootsGo(coef[done:], k[done:], sq[done:], c, inv)
	return done + more, nclip + nc
}

// coefRootsGo is coefRoots's loop in Go, a row at a time.
func coefRootsGo(coef, k, sq []float64, c, inv float64) (done, nclip int) {
	coef, sq = coef[:len(k)], sq[:len(k)]
	for i, ki := range k {
		ssq := sq[i]
		if !(ssq > 0x1p-900 && ssq < 0x1p+900) {
			return i, nclip
		}
		norm := math.Abs(ki) * math.Sqrt(ssq)
		if !(norm <= math.MaxFloat64) {
			return i, nclip
		}
		nclip += b2i(norm > c)
		coef[i] = min(1, c/norm) * inv * ki
	}
	return len(k), nclip
}
