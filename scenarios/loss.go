package scenarios

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"dpso/solvers/vec"
	"dpso/theory"
)

// Loss is a per-sample loss f(w, (a, y)) of a feature vector a ∈ R^d and a
// label y; it is also the CLI's --loss value for user data. The sample
// layout is x = (a_1, …, a_d, y).
type Loss string

// The losses of the (a, y) family.
const (
	// Squared is ½(⟨w, a⟩ − y)²: smooth, convex.
	Squared Loss = "squared"
	// Logistic is ln(1 + e^{−y⟨w, a⟩}) with y ∈ {−1, +1}: smooth, convex.
	Logistic Loss = "logistic"
	// Hinge is max(0, 1 − y⟨w, a⟩) with y ∈ {−1, +1}: non-smooth, convex.
	Hinge Loss = "hinge"
	// Absolute is |⟨w, a⟩ − y|: non-smooth, convex.
	Absolute Loss = "absolute"
)

// Losses lists the losses accepted for user data, the default first.
var Losses = []Loss{Squared, Logistic, Hinge, Absolute}

// ParseLoss parses a loss name.
func ParseLoss(s string) (Loss, error) {
	for _, l := range Losses {
		if string(l) == s {
			return l, nil
		}
	}
	return "", fmt.Errorf("unknown loss %s (want one of squared, logistic, hinge, absolute)", theory.Quote(s))
}

// Smooth reports whether the loss is differentiable with a Lipschitz
// gradient in w (for fixed x).
func (l Loss) Smooth() bool { return l == Squared || l == Logistic }

// Classification reports whether labels must be ±1.
func (l Loss) Classification() bool { return l == Logistic || l == Hinge }

type lossKind int

const (
	kindSquared  lossKind = iota // ½(⟨w,a⟩ − y)²
	kindLogistic                 // ln(1 + e^{−y⟨w,a⟩})
	kindHinge                    // max(0, 1 − y⟨w,a⟩)
	kindAbsolute                 // |⟨w,a⟩ − y|
	kindMeanQuad                 // (μ/2)‖w − x‖²
	kindLinear                   // −⟨w, x⟩
)

func kindOf(l Loss) lossKind {
	switch l {
	case Logistic:
		return kindLogistic
	case Hinge:
		return kindHinge
	case Absolute:
		return kindAbsolute
	}
	return kindSquared
}

// objective is a per-sample loss f(w, x) = ℓ(w, x) + (l2/2)‖w‖². For
// proximal-PL problems it is f⁰ only (l2 = 0; the regularizer is separate).
type objective struct {
	kind  lossKind
	d     int
	scale float64 // μ of kindMeanQuad; unused otherwise
	l2    float64 // ℓ2 weight inside the per-sample loss
}

// dot is ⟨a, b⟩ (gonum's SIMD kernel); len(b) ≥ len(a).
func dot(a, b []float64) float64 { return floats.Dot(a, b[:len(a)]) }

// sqnorm is ‖a‖².
func sqnorm(a []float64) float64 { return floats.Dot(a, a) }

// sigmoid is 1/(1 + e^{−t}), computed without overflow.
func sigmoid(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + math.Exp(-t))
	}
	e := math.Exp(t)
	return e / (1 + e)
}

// softplus is ln(1 + e^t), computed without overflow.
func softplus(t float64) float64 {
	if t > 0 {
		return t + math.Log1p(math.Exp(-t))
	}
	return math.Log1p(math.Exp(t))
}

// softplusSigmoid returns softplus(t) and sigmoid(t) from one exponential,
// e^{−|t|}, with the same bits as the two functions, and without the
// operations whose result the bits already decide. From t = 37 on,
// e = e^{−t} < 2^{−53}, so 1 + e rounds to 1 and t + log1p(e) to t (half
// an ulp of t ≥ 32 is 2^{−48}): softplus(t) = t and sigmoid(t) = 1. Up to
// t = −38, e = e^{t} < 2^{−54}, which math.Log1p returns as it is, and
// 1 + e rounds to 1: both are e. Beyond |t| = 746 the exponential is 0
// in float64 (e^{−745.2} is the least subnormal). At the F* solve's small
// smoothing levels most samples are in these ranges.
func softplusSigmoid(t float64) (sp, sg float64) {
	switch {
	case t >= 37:
		return t, 1
	case t <= -746:
		return 0, 0
	case t <= -38:
		e := math.Exp(t)
		return e, e
	}
	e := 0.0
	if a := math.Abs(t); a < 746 {
		e = math.Exp(-a)
	}
	if t > 0 {
		return t + math.Log1p(e), 1 / (1 + e)
	}
	if t == 0 {
		return math.Log1p(e), 1 / (1 + e)
	}
	return math.Log1p(e), e / (1 + e)
}

// coef returns the derivative of the loss with respect to the linear score
// ⟨w, a⟩ for the (a, y) losses: ∇ℓ = coef·a. Subgradients at kinks are
// the valid choice 0.
func (o *objective) coef(w, x []float64) float64 {
	return o.slope(dot(w, x[:o.d]), x[o.d])
}

// slope is the derivative of the loss in the score s = ⟨w, a⟩ at the label
// y (see coef).
func (o *objective) slope(s, y float64) float64 {
	switch o.kind {
	case kindSquared:
		return s - y
	case kindLogistic:
		return -y * sigmoid(-y*s)
	case kindHinge:
		if y*s < 1 {
			return -y
		}
		return 0
	case kindAbsolute:
		switch r := s - y; {
		case r > 0:
			return 1
		case r < 0:
			return -1
		}
		return 0
	}
	panic("scenarios: coef of a loss outside the (a, y) family")
}

// grad writes ∇_w f(w, x) into g. It allocates nothing.
func (o *objective) grad(g, w, x []float64) {
	switch o.kind {
	case kindMeanQuad:
		for j := range g {
			g[j] = o.scale * (w[j] - x[j])
		}
		return
	case kindLinear:
		for j := range g {
			g[j] = -x[j]
		}
		return
	}
	c := o.coef(w, x)
	a := x[:o.d]
	for j := range g {
		g[j] = c*a[j] + o.l2*w[j]
	}
}

// value is f(w, x).
func (o *objective) value(w, x []float64) float64 {
	var v float64
	switch o.kind {
	case kindMeanQuad:
		var s float64
		for j, wj := range w {
			t := wj - x[j]
			s += t * t
		}
		return o.scale / 2 * s
	case kindLinear:
		return -dot(w, x)
	case kindSquared:
		r := dot(w, x[:o.d]) - x[o.d]
		v = r * r / 2
	case kindLogistic:
		v = softplus(-x[o.d] * dot(w, x[:o.d]))
	case kindHinge:
		v = math.Max(0, 1-x[o.d]*dot(w, x[:o.d]))
	case kindAbsolute:
		v = math.Abs(dot(w, x[:o.d]) - x[o.d])
	}
	if o.l2 != 0 {
		v += o.l2 / 2 * sqnorm(w)
	}
	return v
}

// nonsmooth reports whether value is non-smooth in w, so that F* is found
// on a smoothed surrogate (see smoothed).
func (o *objective) nonsmooth() bool { return o.kind == kindHinge || o.kind == kindAbsolute }

// smoothGap is the constant c with ℓ ≤ ℓ_τ ≤ ℓ + cτ for the surrogate of
// [objective.smoothed]: ln 2 for the hinge (softplus), 1 for the absolute
// value (√(u² + τ²)), 0 for the smooth losses (returned exactly).
func (o *objective) smoothGap() float64 {
	switch o.kind {
	case kindHinge:
		return math.Ln2
	case kindAbsolute:
		return 1
	}
	return 0
}

// smoothed returns the smoothed per-sample loss f_τ(w, x) and adds
// weight·∇f_τ(w, x) to g. For the hinge, max(0, u) is replaced by
// τ·softplus(u/τ) ∈ [max(0, u), max(0, u) + τ ln 2]; for the absolute loss,
// |u| by √(u² + τ²) ∈ [|u|, |u| + τ]. Smooth losses are returned exactly.
func (o *objective) smoothed(w, x []float64, tau, weight float64, g []float64) float64 {
	switch o.kind {
	case kindMeanQuad:
		for j := range g {
			g[j] += weight * o.scale * (w[j] - x[j])
		}
		return o.value(w, x)
	case kindLinear:
		for j := range g {
			g[j] -= weight * x[j]
		}
		return o.value(w, x)
	}
	a, y := x[:o.d], x[o.d]
	s := dot(w, a)
	var v, c float64
	switch o.kind {
	case kindHinge:
		u := 1 - y*s
		sp, sg := softplusSigmoid(u / tau)
		v, c = tau*sp, -y*sg
	case kindAbsolute:
		u := s - y
		h := math.Hypot(u, tau)
		v, c = h, u/h
	case kindSquared:
		r := s - y
		v, c = r*r/2, r
	case kindLogistic:
		sp, sg := softplusSigmoid(-y * s)
		v, c = sp, -y*sg
	}
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

// smoothedRows is smoothed for each row of xs (rows of stride sd), for an
// (a, y) loss without an in-loss ℓ2 term: the value of row i is added to
// *acc and its gradient, times weight, to g, row after row as smoothed
// adds them (the same sums to the bit), with the scores and the
// gradient's accumulation done a block of rows at a time.
func (o *objective) smoothedRows(w, xs []float64, sd int, tau, weight float64, g []float64, acc *float64) {
	var score, coef [rowBlock]float64
	d := o.d
	rows := len(xs) / sd
	for lo := 0; lo < rows; lo += rowBlock {
		n := min(rowBlock, rows-lo)
		blk := xs[lo*sd:]
		vec.DotRows(score[:n], w[:d], blk, sd)
		for i := range n {
			s, y := score[i], blk[i*sd+d]
			var v, c float64
			switch o.kind {
			case kindHinge:
				sp, sg := softplusSigmoid((1 - y*s) / tau)
				v, c = tau*sp, -y*sg
			case kindAbsolute:
				u := s - y
				h := math.Hypot(u, tau)
				v, c = h, u/h
			case kindSquared:
				r := s - y
				v, c = r*r/2, r
			case kindLogistic:
				sp, sg := softplusSigmoid(-y * s)
				v, c = sp, -y*sg
			}
			*acc += v
			coef[i] = weight * c
		}
		vec.AxpyRows(g[:d], coef[:n], blk, sd)
	}
}

// rowsSmoothed reports whether smoothedRows computes this objective.
func (o *objective) rowsSmoothed() bool {
	switch o.kind {
	case kindHinge, kindAbsolute, kindSquared, kindLogistic:
		return o.l2 == 0
	}
	return false
}

// supGrad is sup_{‖w‖ ≤ R} ‖∇_w f(w, x)‖, the quantity whose moments
// Assumption 1 (ass:tilde) bounds. With n = ‖a‖ and λ₂ the in-loss ℓ2
// weight, the supremum is attained at w = ±R·a/n with the sign that makes
// the two terms of ∇f parallel:
//
//	squared:  n(Rn + |y|) + λ₂R
//	logistic: n·σ(Rn) + λ₂R        (σ the sigmoid; |∂ℓ/∂s| = σ(−ys) ≤ σ(R n))
//	hinge:    n + λ₂R              (the active piece is reachable: y⟨w,a⟩ = −Rn < 1)
//	absolute: n + λ₂R              (one of ±Rn − y has the matching sign)
//	(μ/2)‖w − x‖²:  μ(R + ‖x‖)
//	−⟨w, x⟩:        ‖x‖
func (o *objective) supGrad(x []float64, radius float64) float64 {
	switch o.kind {
	case kindMeanQuad:
		return o.scale * (radius + math.Sqrt(sqnorm(x)))
	case kindLinear:
		return math.Sqrt(sqnorm(x))
	}
	n := math.Sqrt(sqnorm(x[:o.d]))
	y := x[o.d]
	var g float64
	switch o.kind {
	case kindSquared:
		g = n * (radius*n + math.Abs(y))
	case kindLogistic:
		g = n * sigmoid(radius*n)
	case kindHinge, kindAbsolute:
		g = n
	}
	return g + o.l2*radius
}
