package scenarios

import "math"

// Logistic is the logistic loss ln(1 + e^{−y⟨w, a⟩}) with y ∈ {−1, +1}:
// smooth, convex (logisticLoss).
const Logistic Loss = "logistic"

// logisticLoss is ℓ(s, y) = ln(1 + e^{−ys}), s = ⟨w, a⟩, y ∈ {−1, +1}
// (logistic regression), with σ the sigmoid:
//
//	ℓ'(s, y) = −y·σ(−ys),   ℓ'' = σ(s)σ(−s) ≤ ¼: β = λ_max(E aaᵀ)/4 + λ₂,
//	inf ℓ'' = 0 (μ = λ₂ only),
//	sup_{|s|≤t} |ℓ'| = σ(t),   so sup_{w∈B(0,R)} ‖∇f‖ = ‖a‖σ(R‖a‖) + λ₂R,
//	sup_{|s|≤t} ℓ = softplus(t|y|) ≤ t|y| + ln 2,
//
// and the potential of the clipped gradient follows ℓ up to z = −ys =
// z₀ = logit(t_C), t_C = C/‖a‖ < 1, and continues with slope t_C beyond:
// softplus(z₀) + t_C(z − z₀). It is smooth: smoothed is ℓ itself.
type logisticLoss struct{}

// Name implements scoreLoss.
func (logisticLoss) Name() Loss { return Logistic }

func (logisticLoss) classification() bool { return true }

func (logisticLoss) value(s, y float64) float64 { return softplus(-y * s) }

func (logisticLoss) slope(s, y float64) float64 { return -y * sigmoid(-y*s) }

func (l logisticLoss) slopes(c, s, xs []float64, sd, d int) {
	for i, v := range s {
		c[i] = l.slope(v, xs[i*sd+d])
	}
}

func (logisticLoss) smoothed(s, y, _ float64) (v, c float64) {
	sp, sg := softplusSigmoid(-y * s)
	return sp, -y * sg
}

func (l logisticLoss) smoothedRows(coef, s, xs []float64, sd, d int, tau, weight, acc float64) float64 {
	for i, si := range s {
		v, c := l.smoothed(si, xs[i*sd+d], tau)
		acc += v
		coef[i] = weight * c
	}
	return acc
}

func (logisticLoss) smoothGap() float64 { return 0 }

func (logisticLoss) clipped(s, y, c, na, _ float64) (v, slope float64) {
	t := c / na
	z := -y * s
	sp, sg := softplusSigmoid(z)
	if sg <= t {
		return sp, -y * sg
	}
	// σ(z) > t (so t < 1): beyond z₀ = logit(t) the slope stays t.
	z0 := math.Log(t / (1 - t))
	return softplus(z0) + t*(z-z0), -y * t
}

func (logisticLoss) supSlope(t, _ float64) float64 { return sigmoid(t) }

func (logisticLoss) supValue(t, absY float64) float64 { return t*absY + math.Ln2 }

func (logisticLoss) curvature() float64 { return 0.25 }

func (logisticLoss) minCurvature() float64 { return 0 }

func (logisticLoss) unitSlope() string { return "" }

// eigenBound: G = ‖a‖σ(R‖a‖) ≥ ‖a‖/2 (σ ≥ ½ on [0, ∞)), so λ_max(E aaᵀ) ≤
// E‖a‖² ≤ 4E G² ≤ 4r̃₂².
func (logisticLoss) eigenBound(r2, _ float64) float64 { return 4 * r2 * r2 }

func (logisticLoss) eigenBoundFormula() string { return "4r̃₂²" }
