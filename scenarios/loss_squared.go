package scenarios

import "math"

// Squared is the squared loss ½(⟨w, a⟩ − y)²: smooth, convex (squaredLoss).
const Squared Loss = "squared"

// squaredLoss is ℓ(s, y) = ½(s − y)², s = ⟨w, a⟩ (least squares):
//
//	ℓ'(s, y) = s − y,   ℓ'' = 1: β = λ_max(E aaᵀ) + λ₂, μ = λ_min(E aaᵀ) + λ₂,
//	sup_{|s|≤t} |ℓ'| = t + |y|,   so sup_{w∈B(0,R)} ‖∇f‖ = ‖a‖(R‖a‖ + |y|) + λ₂R,
//	sup_{|s|≤t} ℓ = (t + |y|)²/2,
//
// and the potential of the clipped gradient is the Huber function of the
// residual r = s − y at t_C = C/‖a‖: r²/2 for |r| ≤ t_C, t_C|r| − t_C²/2
// beyond. It is smooth: smoothed is ℓ itself.
type squaredLoss struct{}

// Name implements scoreLoss.
func (squaredLoss) Name() Loss { return Squared }

func (squaredLoss) classification() bool { return false }

func (squaredLoss) value(s, y float64) float64 {
	r := s - y
	return r * r / 2
}

func (squaredLoss) slope(s, y float64) float64 { return s - y }

func (squaredLoss) slopes(c, s, xs []float64, sd, d int) {
	for i, v := range s {
		c[i] = v - xs[i*sd+d]
	}
}

func (squaredLoss) smoothed(s, y, _ float64) (v, c float64) {
	r := s - y
	return r * r / 2, r
}

func (l squaredLoss) smoothedRows(coef, s, xs []float64, sd, d int, tau, weight, acc float64) float64 {
	for i, si := range s {
		v, c := l.smoothed(si, xs[i*sd+d], tau)
		acc += v
		coef[i] = weight * c
	}
	return acc
}

func (squaredLoss) smoothGap() float64 { return 0 }

func (squaredLoss) clipped(s, y, c, na, _ float64) (v, slope float64) {
	t := c / na
	r := s - y
	if math.Abs(r) <= t {
		return r * r / 2, r
	}
	return t*math.Abs(r) - t*t/2, math.Copysign(t, r)
}

func (squaredLoss) supSlope(t, y float64) float64 { return t + math.Abs(y) }

func (squaredLoss) supValue(t, absY float64) float64 { return (t + absY) * (t + absY) / 2 }

func (squaredLoss) curvature() float64 { return 1 }

func (squaredLoss) minCurvature() float64 { return 1 }

func (squaredLoss) unitSlope() string { return "" }

// eigenBound: G = ‖a‖(R‖a‖ + |y|) ≥ R‖a‖², so λ_max(E aaᵀ) ≤ E‖a‖² ≤
// E G/R ≤ r̃₂/R.
func (squaredLoss) eigenBound(r2, radius float64) float64 { return r2 / radius }

func (squaredLoss) eigenBoundFormula() string { return "r̃₂/R" }
