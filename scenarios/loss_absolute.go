package scenarios

import "math"

// Absolute is the absolute loss |⟨w, a⟩ − y|: non-smooth, convex
// (absoluteLoss).
const Absolute Loss = "absolute"

// absoluteLoss is ℓ(s, y) = |s − y|, s = ⟨w, a⟩ (least absolute
// deviations):
//
//	ℓ'(s, y) = sign(s − y) (the subgradient 0 at the kink s = y),
//	no Hessian bound (β = ∞), inf ℓ'' = 0 (μ = λ₂ only),
//	|ℓ'| = 1 off the kink, so sup_{w∈B(0,R)} ‖∇f‖ = ‖a‖ + λ₂R, and
//	‖∇f(w, x)‖ = ‖a‖ at every w when λ₂ = 0,
//	sup_{|s|≤t} ℓ = t + |y|.
//
// Its smoothed surrogate at level τ is √((s − y)² + τ²) ∈ [ℓ, ℓ + τ]; the
// potential of the clipped gradient is that surrogate times
// min(1, C/‖a‖).
type absoluteLoss struct{}

// Name implements scoreLoss.
func (absoluteLoss) Name() Loss { return Absolute }

func (absoluteLoss) classification() bool { return false }

func (absoluteLoss) value(s, y float64) float64 { return math.Abs(s - y) }

func (absoluteLoss) slope(s, y float64) float64 {
	switch r := s - y; {
	case r > 0:
		return 1
	case r < 0:
		return -1
	}
	return 0
}

func (absoluteLoss) slopes(c, s, xs []float64, sd, d int) {
	for i, v := range s {
		switch r := v - xs[i*sd+d]; {
		case r > 0:
			c[i] = 1
		case r < 0:
			c[i] = -1
		default:
			c[i] = 0
		}
	}
}

func (absoluteLoss) smoothed(s, y, tau float64) (v, c float64) {
	u := s - y
	h := math.Hypot(u, tau)
	return h, u / h
}

// smoothedRows writes smoothed's formula out again: smoothed does not
// inline (cost 82, budget 80). TestLossRegistryComplete holds the two to
// the same bits.
func (absoluteLoss) smoothedRows(coef, s, xs []float64, sd, d int, tau, weight, acc float64) float64 {
	for i, si := range s {
		u := si - xs[i*sd+d]
		h := math.Hypot(u, tau)
		acc += h
		coef[i] = weight * (u / h)
	}
	return acc
}

func (absoluteLoss) smoothGap() float64 { return 1 }

func (absoluteLoss) clipped(s, y, c, na, tau float64) (v, slope float64) {
	om := clipWeight(c, na)
	u := s - y
	h := math.Hypot(u, tau)
	v = om * h
	if h > 0 {
		slope = om * u / h
	}
	return v, slope
}

func (absoluteLoss) supSlope(_, _ float64) float64 { return 1 }

func (absoluteLoss) supValue(t, absY float64) float64 { return t + absY }

func (absoluteLoss) curvature() float64 { return math.Inf(1) }

func (absoluteLoss) minCurvature() float64 { return 0 }

func (absoluteLoss) unitSlope() string { return "‖∇f(w, x)‖ = ‖a‖ at every w" }
