package scenarios

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// meanQuad is the hard strongly convex instance's objective f(w, x) =
// (μ/2)‖w − x‖² (mean estimation):
//
//	∇f = μ(w − x),   ∇²f = μI (β = μ_F = μ),
//	sup_{‖w‖≤R} ‖∇f‖ = μ(R + ‖x‖) at w = −R·x/‖x‖,
//
// and the potential of the clipped gradient is μr²/2 for μr ≤ C, r =
// ‖w − x‖, and Cr − C²/(2μ) beyond (Huber in r). It is smooth.
type meanQuad struct {
	d  int
	mu float64
}

func (o *meanQuad) dim() int           { return o.d }
func (o *meanQuad) inLossL2() float64  { return 0 }
func (o *meanQuad) nonsmooth() bool    { return false }
func (o *meanQuad) smoothGap() float64 { return 0 }
func (o *meanQuad) affine() bool       { return false }
func (o *meanQuad) key() string        { return fmt.Sprintf("meanquad/d=%d/mu=%v", o.d, o.mu) }

func (o *meanQuad) value(w, x []float64) float64 {
	var s float64
	for j, wj := range w {
		t := wj - x[j]
		s += t * t
	}
	return o.mu / 2 * s
}

func (o *meanQuad) grad(g, w, x []float64) {
	mu, w, x := o.mu, w[:len(g)], x[:len(g)]
	for j := range g {
		g[j] = mu * (w[j] - x[j])
	}
}

func (o *meanQuad) smoothed(w, x []float64, _, weight float64, g []float64) float64 {
	for j := range g {
		g[j] += weight * o.mu * (w[j] - x[j])
	}
	return o.value(w, x)
}

func (o *meanQuad) supGrad(x []float64, radius float64) float64 {
	return o.mu * (radius + math.Sqrt(sqnorm(x)))
}

func (o *meanQuad) clippedSmoothed(w, x []float64, c, _, weight float64, g []float64) float64 {
	var r2 float64
	for j, v := range w {
		t := v - x[j]
		r2 += t * t
	}
	r := math.Sqrt(r2)
	if o.mu*r <= c {
		for j := range g {
			g[j] += weight * o.mu * (w[j] - x[j])
		}
		return o.mu / 2 * r2
	}
	for j := range g {
		g[j] += weight * c * (w[j] - x[j]) / r
	}
	return c*r - c*c/(2*o.mu)
}

// twoPointClipBias: with W = B(0, R), R = p‖atom‖ (so that w* = p·atom
// lies on the sphere), G_C(w) = (1 − p)clip_C(μw) + p·clip_C(μ(w − atom))
// points along the atom for w = t·u, u = atom/‖atom‖, where
//
//	g(t) = (1 − p)·clamp(μt, ±C) + p·clamp(μ(t − A), ±C),  A = ‖atom‖,
//
// is non-decreasing, with g(0) ≤ 0: w_C = t_C·u with t_C the root of g in
// [0, R] (R when g < 0 on [0, R]), found by bisection, and
// F(w_C) − F* = (μ/2)(R − t_C)².
func (o *meanQuad) twoPointClipBias(l *twoPointLaw, radius, c float64) ClipBias {
	mu, p, A, R := o.mu, l.p, math.Sqrt(sqnorm(l.atom)), radius
	clamp := func(v float64) float64 { return math.Max(-c, math.Min(c, v)) }
	g := func(t float64) float64 { return (1-p)*clamp(mu*t) + p*clamp(mu*(t-A)) }
	t := R
	if g(R) > 0 {
		lo, hi := 0.0, R
		for range 200 {
			mid := (lo + hi) / 2
			if mid <= lo || mid >= hi {
				break
			}
			if g(mid) > 0 {
				hi = mid
			} else {
				lo = mid
			}
		}
		t = (lo + hi) / 2
	}
	return ClipBias{Excess: mu / 2 * (R - t) * (R - t), Method: "exact: the two-point law's clipped fixed point, a root in one variable"}
}

// linear is the hard convex instance's objective f(w, x) = −⟨w, x⟩:
//
//	∇f = −x (independent of w: β = 0, an affine loss),
//	sup_{‖w‖≤R} ‖∇f‖ = ‖x‖,
//
// and the potential of the clipped gradient is −min(1, C/‖x‖)·⟨w, x⟩.
type linear struct {
	d int
}

func (o *linear) dim() int           { return o.d }
func (o *linear) inLossL2() float64  { return 0 }
func (o *linear) nonsmooth() bool    { return false }
func (o *linear) smoothGap() float64 { return 0 }
func (o *linear) affine() bool       { return true }
func (o *linear) key() string        { return fmt.Sprintf("linear/d=%d", o.d) }

func (o *linear) value(w, x []float64) float64 { return -dot(w, x) }

func (o *linear) grad(g, _, x []float64) {
	x = x[:len(g)]
	for j := range g {
		g[j] = -x[j]
	}
}

func (o *linear) smoothed(w, x []float64, _, weight float64, g []float64) float64 {
	for j := range g {
		g[j] -= weight * x[j]
	}
	return o.value(w, x)
}

func (o *linear) supGrad(x []float64, _ float64) float64 { return math.Sqrt(sqnorm(x)) }

func (o *linear) clippedSmoothed(w, x []float64, c, _, weight float64, g []float64) float64 {
	om := clipWeight(c, math.Sqrt(sqnorm(x[:len(w)])))
	floats.AddScaled(g, -weight*om, x[:len(w)])
	return -om * dot(w, x)
}

// twoPointClipBias: G_C = −p·min(1, C/‖atom‖)·atom is parallel to ∇F =
// −p·atom, so w_C = w* and the bias is 0.
func (o *linear) twoPointClipBias(*twoPointLaw, float64, float64) ClipBias {
	return ClipBias{Method: "exact: clipping rescales the two-point law's one non-zero atom, so the clipped mean gradient keeps its direction and w_C = w*"}
}
