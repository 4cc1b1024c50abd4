package scenarios

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"dpso/solvers/vec"
)

// objective is a per-sample loss f(w, x) of the problem library: an (a, y)
// loss of the score ⟨w, a⟩ with an ℓ2 term inside (glm, over a scoreLoss),
// or one of the hard instances' objectives of w and x alone (meanQuad,
// linear). For proximal-PL problems it is f⁰ only (the regularizer is
// separate).
type objective interface {
	// dim is d, the dimension of w.
	dim() int
	// inLossL2 is the ℓ2 weight λ₂ inside the per-sample loss (0 for the
	// hard instances' objectives).
	inLossL2() float64
	// value is f(w, x).
	value(w, x []float64) float64
	// grad writes ∇_w f(w, x) into g. It allocates nothing.
	grad(g, w, x []float64)
	// nonsmooth reports whether value is non-smooth in w, so that F* is
	// found on a smoothed surrogate (see smoothed).
	nonsmooth() bool
	// smoothGap is the constant c with f ≤ f_τ ≤ f + cτ for the surrogate
	// of smoothed (0 for a smooth objective, returned exactly).
	smoothGap() float64
	// smoothed returns the smoothed per-sample loss f_τ(w, x) and adds
	// weight·∇f_τ(w, x) to g.
	smoothed(w, x []float64, tau, weight float64, g []float64) float64
	// supGrad is sup_{‖w‖ ≤ R} ‖∇_w f(w, x)‖, the quantity whose moments
	// Assumption 1 (ass:tilde) bounds.
	supGrad(x []float64, radius float64) float64
	// clippedSmoothed is the potential h_C(w, x) of the clipped per-sample
	// gradient, ∇h_C = clip_C(∇f(w, x)) (see Instance.ClipBias), at
	// smoothing level τ for a non-smooth loss (h_C ≤ h_{C,τ} ≤
	// h_C + smoothGap·τ): it returns h_C and adds weight·∇h_C into g. An
	// (a, y) loss must have no in-loss ℓ2 term (ClipBias checks).
	clippedSmoothed(w, x []float64, c, tau, weight float64, g []float64) float64
	// twoPointClipBias is ClipBias on the hard instances' two-point law,
	// in closed form where the objective has one.
	twoPointClipBias(l *twoPointLaw, radius, c float64) ClipBias
	// affine reports whether ∇f(·, x) does not depend on w.
	affine() bool
	// key identifies the objective in the caches' keys.
	key() string
}

// glm is f(w, (a, y)) = ℓ(⟨w, a⟩, y) + (λ₂/2)‖w‖² for a scoreLoss ℓ, with
// x = (a_1, …, a_d, y):
//
//	∇f = ℓ'(s, y)·a + λ₂w,   sup_{‖w‖≤R} ‖∇f‖ = ‖a‖·sup_{|s|≤R‖a‖}|ℓ'(s, y)| + λ₂R
//
// (the supremum is attained at w = ±R·a/‖a‖ with the sign that makes the
// two terms of ∇f parallel).
type glm struct {
	loss scoreLoss
	d    int
	l2   float64 // ℓ2 weight inside the per-sample loss
}

func (o *glm) dim() int           { return o.d }
func (o *glm) inLossL2() float64  { return o.l2 }
func (o *glm) nonsmooth() bool    { return o.loss.smoothGap() != 0 }
func (o *glm) smoothGap() float64 { return o.loss.smoothGap() }
func (o *glm) affine() bool       { return false }
func (o *glm) key() string        { return fmt.Sprintf("%s/d=%d/l2=%v", o.loss.Name(), o.d, o.l2) }

func (o *glm) value(w, x []float64) float64 {
	v := o.loss.value(dot(w, x[:o.d]), x[o.d])
	if o.l2 != 0 {
		v += o.l2 / 2 * sqnorm(w)
	}
	return v
}

func (o *glm) grad(g, w, x []float64) {
	c := o.loss.slope(dot(w, x[:o.d]), x[o.d])
	l2, a, w := o.l2, x[:len(g)], w[:len(g)]
	for j := range g {
		g[j] = c*a[j] + l2*w[j]
	}
}

func (o *glm) smoothed(w, x []float64, tau, weight float64, g []float64) float64 {
	a := x[:o.d]
	v, c := o.loss.smoothed(dot(w, a), x[o.d], tau)
	if o.l2 == 0 {
		floats.AddScaled(g, weight*c, a)
		return v
	}
	for j := range g {
		g[j] += weight * (c*a[j] + o.l2*w[j])
	}
	return v + o.l2/2*sqnorm(w)
}

// rowBlock is how many rows smoothedRows takes at a time (its scratch
// lives on the stack).
const rowBlock = 64

// rowsSmoothed reports whether smoothedRows computes this objective (no
// in-loss ℓ2 term).
func (o *glm) rowsSmoothed() bool { return o.l2 == 0 }

// smoothedRows is smoothed for each row of xs (rows of stride sd), for a
// loss without an in-loss ℓ2 term: the value of row i is added to *acc
// and its gradient, times weight, to g, row after row as smoothed adds
// them (the same sums to the bit), with the scores, the loss's formulas
// and the gradient's accumulation done a block of rows at a time.
func (o *glm) smoothedRows(w, xs []float64, sd int, tau, weight float64, g []float64, acc *float64) {
	var score, coef [rowBlock]float64
	d := o.d
	rows := len(xs) / sd
	for lo := 0; lo < rows; lo += rowBlock {
		n := min(rowBlock, rows-lo)
		blk := xs[lo*sd:]
		vec.DotRows(score[:n], w[:d], blk, sd)
		*acc = o.loss.smoothedRows(coef[:n], score[:n], blk, sd, d, tau, weight, *acc)
		vec.AxpyRows(g[:d], coef[:n], blk, sd)
	}
}

func (o *glm) supGrad(x []float64, radius float64) float64 {
	n := math.Sqrt(sqnorm(x[:o.d]))
	return n*o.loss.supSlope(radius*n, x[o.d]) + o.l2*radius
}

func (o *glm) clippedSmoothed(w, x []float64, c, tau, weight float64, g []float64) float64 {
	a := x[:o.d]
	na := math.Sqrt(sqnorm(a))
	if na == 0 {
		return o.value(w, x) // f does not depend on w
	}
	v, slope := o.loss.clipped(dot(w, a), x[o.d], c, na, tau)
	floats.AddScaled(g, weight*slope, a)
	return v
}

func (o *glm) twoPointClipBias(*twoPointLaw, float64, float64) ClipBias {
	return ClipBias{Excess: math.NaN(), SE: math.NaN(), Method: "not computed for this loss"}
}
