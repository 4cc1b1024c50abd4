package dist

import (
	"math"
)

// lgamma is log Γ(x) for x > 0.
func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// ChiMoment is E χ_k^p = E (χ²_k)^{p/2} for k > 0 degrees of freedom:
//
//	E χ_k^p = 2^{p/2} Γ((k+p)/2) / Γ(k/2),   p > −k,
//
// +Inf for p ≤ −k (the moment does not exist).
func ChiMoment(k, p float64) float64 {
	switch {
	case math.IsNaN(k) || math.IsNaN(p) || !(k > 0):
		return math.NaN()
	case p <= -k:
		return math.Inf(1)
	case math.IsInf(k, 1):
		return math.Inf(1)
	}
	return math.Exp(p/2*math.Ln2 + lgamma((k+p)/2) - lgamma(k/2))
}

// StudentTAbsMoment is E|T|^p for T standard Student-t with ν degrees of
// freedom, 0 ≤ p:
//
//	E|T|^p = ν^{p/2} Γ((p+1)/2) Γ((ν−p)/2) / (√π Γ(ν/2)),   p < ν,
//
// (T = Z√(ν/χ²_ν): E|Z|^p · ν^{p/2} · E(χ²_ν)^{−p/2}), and +Inf for p ≥ ν:
// ν is the tail index.
func StudentTAbsMoment(nu, p float64) float64 {
	switch {
	case math.IsNaN(nu) || math.IsNaN(p) || !(nu > 0) || p < 0:
		return math.NaN()
	case p >= nu:
		return math.Inf(1)
	}
	return math.Exp(p/2*math.Log(nu) + lgamma((p+1)/2) + lgamma((nu-p)/2) - 0.5*math.Log(math.Pi) - lgamma(nu/2))
}

// InvChiSquareMoment is E (χ²_ν)^{−q} for q ≥ 0:
//
//	E (χ²_ν)^{−q} = 2^{−q} Γ(ν/2 − q) / Γ(ν/2),   q < ν/2,
//
// and +Inf for q ≥ ν/2.
func InvChiSquareMoment(nu, q float64) float64 {
	switch {
	case math.IsNaN(nu) || math.IsNaN(q) || !(nu > 0) || q < 0:
		return math.NaN()
	case q >= nu/2:
		return math.Inf(1)
	}
	return math.Exp(-q*math.Ln2 + lgamma(nu/2-q) - lgamma(nu/2))
}

// ParetoMoment is E X^p for X ~ Pareto(xm, α), p ≥ 0:
//
//	E X^p = α xm^p / (α − p),   p < α,
//
// and +Inf for p ≥ α: α is the tail index.
func ParetoMoment(alpha, xm, p float64) float64 {
	switch {
	case math.IsNaN(alpha) || math.IsNaN(xm) || math.IsNaN(p) || !(alpha > 0) || !(xm > 0) || p < 0:
		return math.NaN()
	case p >= alpha:
		return math.Inf(1)
	}
	return alpha * math.Pow(xm, p) / (alpha - p)
}

// MVTNormMoment is E‖a‖^p for the d-dimensional multivariate Student-t
// vector a = z·√(ν/χ²_ν), z ~ N(0, I_d) independent of χ²_ν (scale matrix
// I_d, so Cov a = ν/(ν−2)·I_d for ν > 2):
//
//	E‖a‖^p = ν^{p/2} · E χ_d^p · E (χ²_ν)^{−p/2}
//	       = ν^{p/2} Γ((d+p)/2) Γ((ν−p)/2) / (Γ(d/2) Γ(ν/2)),   p < ν,
//
// and +Inf for p ≥ ν.
func MVTNormMoment(nu float64, d int, p float64) float64 {
	if d < 1 || math.IsNaN(p) || p < 0 {
		return math.NaN()
	}
	inv := InvChiSquareMoment(nu, p/2)
	if math.IsNaN(inv) || math.IsInf(inv, 1) {
		return inv
	}
	return math.Pow(nu, p/2) * ChiMoment(float64(d), p) * inv
}
