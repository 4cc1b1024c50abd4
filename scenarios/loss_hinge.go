package scenarios

import "math"

// Hinge is the hinge loss max(0, 1 − y⟨w, a⟩) with y ∈ {−1, +1}:
// non-smooth, convex (hingeLoss).
const Hinge Loss = "hinge"

// hingeLoss is ℓ(s, y) = max(0, 1 − ys), s = ⟨w, a⟩, y ∈ {−1, +1} (a
// support vector machine):
//
//	ℓ'(s, y) = −y where ys < 1, 0 beyond (the subgradient 0 at the kink),
//	no Hessian bound (β = ∞), inf ℓ'' = 0 (μ = λ₂ only),
//	sup_{|s|≤t} |ℓ'| = 1 (s = 0 is on the active piece), so
//	sup_{w∈B(0,R)} ‖∇f‖ = ‖a‖ + λ₂R, attained at w = 0 when λ₂ = 0,
//	sup_{|s|≤t} ℓ = 1 + t|y|.
//
// Its smoothed surrogate at level τ is τ·softplus((1 − ys)/τ) ∈
// [ℓ, ℓ + τ ln 2]; the potential of the clipped gradient is that
// surrogate times min(1, C/‖a‖) (|ℓ'|·‖a‖ ≤ ‖a‖).
type hingeLoss struct{}

// Name implements scoreLoss.
func (hingeLoss) Name() Loss { return Hinge }

func (hingeLoss) classification() bool { return true }

func (hingeLoss) value(s, y float64) float64 { return math.Max(0, 1-y*s) }

func (hingeLoss) slope(s, y float64) float64 {
	if y*s < 1 {
		return -y
	}
	return 0
}

func (hingeLoss) slopes(c, s, xs []float64, sd, d int) {
	for i, v := range s {
		c[i] = 0
		if y := xs[i*sd+d]; y*v < 1 {
			c[i] = -y
		}
	}
}

func (hingeLoss) smoothed(s, y, tau float64) (v, c float64) {
	sp, sg := softplusSigmoid((1 - y*s) / tau)
	return tau * sp, -y * sg
}

// smoothedRows writes smoothed's formula out again: smoothed does not
// inline (cost 81, budget 80), and a call per row is 8% of the
// instructions of hinge-t's F* solve. TestLossRegistryComplete holds the
// two to the same bits.
func (hingeLoss) smoothedRows(coef, s, xs []float64, sd, d int, tau, weight, acc float64) float64 {
	for i, si := range s {
		y := xs[i*sd+d]
		sp, sg := softplusSigmoid((1 - y*si) / tau)
		acc += tau * sp
		coef[i] = weight * (-y * sg)
	}
	return acc
}

func (hingeLoss) smoothGap() float64 { return math.Ln2 }

func (hingeLoss) clipped(s, y, c, na, tau float64) (v, slope float64) {
	om := clipWeight(c, na)
	sp, sg := softplusSigmoid((1 - y*s) / tau)
	return om * tau * sp, -y * om * sg
}

func (hingeLoss) supSlope(_, _ float64) float64 { return 1 }

func (hingeLoss) supValue(t, absY float64) float64 { return 1 + t*absY }

func (hingeLoss) curvature() float64 { return math.Inf(1) }

func (hingeLoss) minCurvature() float64 { return 0 }

func (hingeLoss) unitSlope() string {
	return "w = 0 attains sup_w ‖∇f(w, x)‖ = ‖a‖ for every x"
}
