package scenarios

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/floats"

	"dpso/theory"
)

// Loss is a per-sample loss f(w, (a, y)) = ℓ(⟨w, a⟩, y) of a feature
// vector a ∈ R^d and a label y; it is also the CLI's --loss value for user
// data. The sample layout is x = (a_1, …, a_d, y). Each loss is its own
// type (as gonum's stat/distuv has one type per distribution), in its own
// file with its formulas in its doc comment, and one line of scoreLosses.
type Loss string

// scoreLosses are the losses of the (a, y) family in display order, the
// default first. A new loss is its file (a scoreLoss) and its line here;
// TestLossRegistryComplete checks every entry's formulas against each
// other and against finite differences.
var scoreLosses = []scoreLoss{
	squaredLoss{},
	logisticLoss{},
	hingeLoss{},
	absoluteLoss{},
}

// Losses lists the losses accepted for user data, the default first.
var Losses = lossNames()

func lossNames() []Loss {
	out := make([]Loss, len(scoreLosses))
	for i, l := range scoreLosses {
		out[i] = l.Name()
	}
	return out
}

// ParseLoss parses a loss name.
func ParseLoss(s string) (Loss, error) {
	if _, ok := scoreLossOf(Loss(s)); ok {
		return Loss(s), nil
	}
	names := make([]string, len(Losses))
	for i, l := range Losses {
		names[i] = string(l)
	}
	return "", fmt.Errorf("unknown loss %s (want one of %s)", theory.Quote(s), strings.Join(names, ", "))
}

// scoreLossOf is the registered loss named l.
func scoreLossOf(l Loss) (scoreLoss, bool) {
	for _, s := range scoreLosses {
		if s.Name() == l {
			return s, true
		}
	}
	return nil, false
}

// score is the registered loss named l (the default loss for an unknown
// name: ParseLoss has refused it before).
func (l Loss) score() scoreLoss {
	if s, ok := scoreLossOf(l); ok {
		return s
	}
	return scoreLosses[0]
}

// Smooth reports whether the loss is differentiable with a Lipschitz
// gradient in w (for fixed x): its curvature in the score is bounded.
func (l Loss) Smooth() bool { return !math.IsInf(l.score().curvature(), 1) }

// Classification reports whether labels must be ±1.
func (l Loss) Classification() bool { return l.score().classification() }

// scoreStronglyConvex reports whether the loss's curvature in the score
// is bounded below by a positive constant (μ of F is then at least that
// times λ_min(E aaᵀ), plus λ₂).
func (l Loss) scoreStronglyConvex() bool { return l.score().minCurvature() > 0 }

// scoreLoss is a loss ℓ(s, y) of the score s = ⟨w, a⟩ and the label y: the
// per-sample loss is f(w, (a, y)) = ℓ(⟨w, a⟩, y) + (λ₂/2)‖w‖² (glm), with
// ∇_w f = ℓ'(s, y)·a + λ₂w and ∇²_w f = ℓ”(s, y)·aaᵀ + λ₂I. Each method
// is the loss's own formula; the block methods are its loops over a block
// of samples x_i = xs[i·sd:(i+1)·sd] (label at index d), so that nothing
// dispatches per sample.
type scoreLoss interface {
	// Name is the loss's --loss value.
	Name() Loss
	// classification reports whether labels must be ±1.
	classification() bool
	// value is ℓ(s, y).
	value(s, y float64) float64
	// slope is ∂ℓ/∂s (at a kink, the subgradient 0).
	slope(s, y float64) float64
	// slopes sets c[i] = slope(s[i], y_i).
	slopes(c, s, xs []float64, sd, d int)
	// smoothed is the surrogate ℓ_τ(s, y) of a non-smooth loss at level
	// τ > 0 and its slope, with ℓ ≤ ℓ_τ ≤ ℓ + smoothGap·τ (the minimizer
	// of F̂* smooths at decreasing τ); a smooth loss returns ℓ exactly.
	smoothed(s, y, tau float64) (v, c float64)
	// smoothedRows adds v_i to acc and sets coef[i] = weight·c_i, sample
	// after sample, for v_i, c_i = smoothed(s[i], y_i, τ), and returns
	// acc.
	smoothedRows(coef, s, xs []float64, sd, d int, tau, weight, acc float64) float64
	// smoothGap is the constant of smoothed (0: smooth, ℓ_τ = ℓ).
	smoothGap() float64
	// clipped is the potential h_C of the clipped gradient
	// clip_C(ℓ'(s, y)·a) along the score, for a feature norm na > 0, and
	// its slope (see Instance.ClipBias): h_C's slope is ℓ' clamped to
	// ±C/na; a non-smooth loss gives its smoothed surrogate's, weighted
	// by min(1, C/na) (its |ℓ'| ≤ 1).
	clipped(s, y, c, na, tau float64) (v, slope float64)
	// supSlope is sup_{|s| ≤ t} |ℓ'(s, y)|: with t = R‖a‖ it gives
	// sup_{w∈B(0,R)} ‖∇f(w, x)‖ = ‖a‖·supSlope(R‖a‖, y) + λ₂R (the two
	// terms are parallel at the maximizer w = ±R·a/‖a‖), the quantity
	// whose moments Assumption 1 (ass:tilde) bounds.
	supSlope(t, y float64) float64
	// supValue is sup_{|s| ≤ t} ℓ(s, y) for y ≥ 0 given as |y| (an upper
	// bound for the hinge and the logistic loss), with t = R‖a‖:
	// checkFiniteRows holds it finite.
	supValue(t, absY float64) float64
	// curvature is sup_s ℓ''(s, y), the Hessian bound: β ≤
	// curvature·λ_max(E aaᵀ) + λ₂; +Inf for a non-smooth loss.
	curvature() float64
	// minCurvature is inf_s ℓ''(s, y): μ ≥ minCurvature·λ_min(E aaᵀ) + λ₂.
	minCurvature() float64
	// unitSlope says why |ℓ'(0, y)| = 1 for every sample (so that w = 0
	// attains sup_W ‖∇f(w, x)‖ = ‖a‖ when λ₂ = 0), "" when it does not.
	unitSlope() string
}

// eigenBounder is a smooth loss whose β a private run estimates, from the
// features' noisy second moment: where that estimate fails,
// Instance.BetaBound falls back to eigenBound, the bound on λ_max(E aaᵀ)
// that r̃₂ = (E G²)^{1/2}, G = sup_{w∈B(0,R)} ‖∇f(w, x)‖, implies, and
// the flag names eigenBoundFormula. TestLossRegistryComplete holds
// every smooth loss to it.
type eigenBounder interface {
	eigenBound(r2, radius float64) float64
	eigenBoundFormula() string
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

// clipWeight is min(1, C/norm) (1 when norm = 0).
func clipWeight(c, norm float64) float64 {
	if norm <= c {
		return 1
	}
	return c / norm
}
