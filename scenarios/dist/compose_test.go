package dist

// The laws the tests compose from the package's samplers, as the
// scenarios compose them in their own readers: each is checked against
// gonum's distribution (dist_test.go), so the samplers beneath are.

import "math"

// Gamma is one draw of GammaSampler(a).
func Gamma(r *Rand, a float64) float64 {
	g := NewGamma(a)
	return g.Draw(r)
}

// ChiSquare draws from the χ² distribution with k > 0 degrees of freedom:
// 2·Gamma(k/2). It returns 0 for k = 0 (the degenerate χ²_0).
func ChiSquare(r *Rand, k float64) float64 {
	if k == 0 {
		return 0
	}
	return 2 * Gamma(r, k/2)
}

// StudentT draws from the standard Student-t distribution with ν > 0
// degrees of freedom: Z/√(χ²_ν/ν) with Z standard normal.
func StudentT(r *Rand, nu float64) float64 {
	z := r.NormFloat64()
	return z * math.Sqrt(nu/ChiSquare(r, nu))
}

// SymPareto draws from the symmetric Pareto distribution: a Pareto(α, xm)
// magnitude with a uniform random sign.
func SymPareto(r *Rand, alpha, xm float64) float64 {
	p := Pareto(r, alpha, xm)
	if r.Uint64()&1 == 0 {
		return -p
	}
	return p
}

// MVT writes a draw of the d-dimensional multivariate Student-t vector
// a = z·√(ν/χ²_ν) (scale matrix I, d = len(a)) into a and returns the
// mixing factor √(ν/χ²_ν).
func MVT(r *Rand, nu float64, a []float64) float64 {
	m := math.Sqrt(nu / ChiSquare(r, nu))
	for i := range a {
		a[i] = m * r.NormFloat64()
	}
	return m
}

// RadialPareto writes a draw of the spherically symmetric Pareto vector
// a = P·u into a, with P ~ Pareto(xm, α) and u uniform on the unit sphere
// of R^len(a), and returns P. E‖a‖^p = ParetoMoment(α, xm, p) and
// Cov a = E P²/d · I = α xm²/((α−2) d) · I for α > 2.
func RadialPareto(r *Rand, alpha, xm float64, a []float64) float64 {
	UnitSphere(r, a)
	p := Pareto(r, alpha, xm)
	for i := range a {
		a[i] *= p
	}
	return p
}
