package scenarios

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"

	"dpso/solvers"
)

// ClipBias is the clipping bias of a threshold C: the excess risk
// F(w_C) − F* of the clipped population fixed point w_C, the point of W
// where projected steps along the clipped mean gradient
// G_C(w) = E[clip_C(∇f(w, x))] (clip_C(g) = g·min(1, C/‖g‖), the
// projection onto B(0, C) of Lemma "bias and variance of bd14") stop:
// ⟨G_C(w_C), w − w_C⟩ ≥ 0 for every w ∈ W (with the problem's regularizer
// f¹ added outside the clip, as proximal SGD adds it). It is where an
// oracle that clips ∇f(w, x) at C drives the iterates with the noise off
// and the sample and the steps unlimited: what clipping alone costs, with
// no sampling, optimization or privacy error.
//
// For the (a, y) losses without an in-loss ℓ2 term, clip_C(ℓ'(⟨w, a⟩, y)a)
// = clamp(ℓ', ±C/‖a‖)·a is the gradient of a convex function of w (ℓ with
// its slope clamped: Huber's loss for the squared loss, the hinge and the
// absolute loss weighted by min(1, C/‖a‖)); so are clip_C(μ(w − x)) (μ
// times Huber's function of ‖w − x‖) and clip_C(−x) (linear). w_C is then
// the minimizer over W of that potential plus f¹, found by the same
// certified minimization as F* (newSampleRisk).
type ClipBias struct {
	// Excess is F(w_C) − F*; NaN when it is not computed (Method says why).
	Excess float64
	// SE is its evaluation sample's Monte Carlo error (0 when exact or on
	// user data, whose empirical risk is the target).
	SE float64
	// Method says how it was computed, or why not.
	Method string
}

// ClipBias computes the clipping bias at threshold c (see ClipBias):
//
//   - exactly 0 when c = ∞ (nothing is clipped);
//   - exactly 0 when the law of ∇f(w*, x) is symmetric about 0 at an
//     interior minimizer w* with no regularizer (linear regressions with
//     symmetric noise, example1, absreg-t without ℓ2): then
//     E clip_C(∇f(w*, x)) = 0, and w* is the strictly convex potential's
//     unique minimizer, so w_C = w*;
//   - in closed form on the two-point laws of the hard instances
//     (mean-hard: a root of a piecewise-linear function of one variable;
//     affine-hard: 0, clipping rescales the one non-zero atom);
//   - on the fixed sample F is measured on (the evaluation sample of
//     logreg-t and hinge-t, the user's rows): F̂(ŵ_C) − F̂* with ŵ_C and F̂*
//     both minimized on it, and its Monte Carlo error at ŵ_C (what every
//     excess risk there carries);
//   - otherwise (F in closed form, w_C not: contaminated, lasso-t, a
//     regression whose w* lies outside W) ŵ_C minimized on an evaluation
//     sample of the law (EvalSizeFor draws of the stream keyed
//     StreamKey(Seeded, 0, 0, "eval")) and F(ŵ_C) − F* by the closed form,
//     with a batch-means standard error (clipBiasClosed).
//
// It is NaN for c ≤ 0 or NaN, and where the clipped field has no
// potential: an ℓ2 term inside the per-sample loss is clipped with it. It
// returns an error only when ctx is cancelled.
func (in *Instance) ClipBias(ctx context.Context, c float64) (ClipBias, error) {
	m := in.m
	switch {
	case !(c > 0):
		return ClipBias{Excess: math.NaN(), SE: math.NaN(), Method: "no clip threshold"}, nil
	case math.IsInf(c, 1):
		return ClipBias{Method: "exact: nothing is clipped at C = ∞"}, nil
	case m.obj.inLossL2() != 0:
		return ClipBias{Excess: math.NaN(), SE: math.NaN(), Method: "not computed: the loss's ℓ2 term is clipped with it, so the clipped mean gradient is not the gradient of a function to minimize"}, nil
	case m.twoPoint != nil:
		return m.twoPoint.clipBias(m, c), nil
	case m.symAt != nil && m.reg == (solvers.Regularizer{}) && in.interiorOptimum():
		return ClipBias{Method: "exact: ∇f(w*, x) has a law symmetric about 0 at the interior minimizer w*, so E clip_C(∇f(w*, x)) = 0 and w_C = w*"}, nil
	}
	if s, ok := m.risk.(*sampleRisk); ok {
		return clipBiasOn(ctx, m, s, c)
	}
	return in.clipBiasClosed(ctx, c)
}

// clipBiasOn is the clipping bias at c on the fixed sample s on which F
// itself is measured (logreg-t's and hinge-t's evaluation sample, user
// data's rows): the clipped potential (plus f¹) minimized over W on the
// sample, and F̂(ŵ_C) − F̂* with its standard error at that point
// (sampleRisk.excess), the error every excess risk there carries.
func clipBiasOn(ctx context.Context, m *model, s *sampleRisk, c float64) (ClipBias, error) {
	w, err := clippedMinimizer(ctx, m, s.data, c)
	if err != nil {
		return ClipBias{}, err
	}
	ex, se := s.excess(w)
	if ex < 0 && ex >= -s.width-1e-12*math.Abs(s.fopt) {
		ex = 0 // below F̂* only by F̂*'s certified width or rounding
	}
	method := fmt.Sprintf("on the evaluation sample of %d draws: ŵ_C and F̂* both minimized on it", s.data.Len())
	if s.kind == Empirical {
		method = fmt.Sprintf("on the %d rows: ŵ_C and F̂* both minimized on them (a non-private diagnostic)", s.data.Len())
	}
	return ClipBias{Excess: ex, SE: se, Method: method}, nil
}

// interiorOptimum reports whether the minimizer of F over W is the point
// at which the gradients' law is symmetric, strictly inside W.
func (in *Instance) interiorOptimum() bool {
	m := in.m
	ws := m.risk.info().WStar
	if len(ws) != len(m.symAt) || math.Sqrt(sqnorm(m.symAt)) >= m.radius*(1-1e-12) {
		return false
	}
	for j, v := range ws {
		if math.Abs(v-m.symAt[j]) > 1e-12*math.Max(1, math.Abs(v)) {
			return false
		}
	}
	return true
}

// clipBatches is the number of disjoint batches of the evaluation sample
// whose spread gives the Monte Carlo error of a clipping bias computed on
// it (batch means).
const clipBatches = 8

// clipEval is what the clipping bias of a scenario with F in closed form is
// computed on: the evaluation sample, clipBatches disjoint batches of it,
// and the largest gradient norm over W and the sample,
// max_i sup_{w∈W}‖∇f(w, x_i)‖.
type clipEval struct {
	data    *solvers.Matrix
	batches []*solvers.Matrix
	supG    float64
}

// clipEvals caches the clipEval of a distribution (distKey).
var clipEvals = lazyCache[*clipEval]{max: 8, what: "the clipping bias of the distribution"}

func (in *Instance) clipEval(ctx context.Context) (*clipEval, error) {
	m := in.m
	def := in.def.Clone()
	return clipEvals.get(ctx, "clip/"+distKey(&def, m), func(ctx context.Context) (*clipEval, error) {
		data, err := evalSample(ctx, m)
		if err != nil {
			return nil, err
		}
		ce := &clipEval{data: data}
		n, sd := data.Len(), data.Dim
		for b := range clipBatches {
			lo, hi := b*n/clipBatches, (b+1)*n/clipBatches
			ce.batches = append(ce.batches, &solvers.Matrix{Data: data.Data[lo*sd : hi*sd], Dim: sd})
		}
		for i := range n {
			ce.supG = math.Max(ce.supG, m.obj.supGrad(data.Row(i), m.radius))
		}
		return ce, nil
	})
}

// clipBiasClosed is the clipping bias of a scenario whose F is in closed
// form but whose clipped fixed point is not: ŵ_C minimized on the
// evaluation sample, F(ŵ_C) − F* by the closed form, and its standard
// error from the spread of the same over clipBatches disjoint batches,
// divided by √clipBatches (batch means). It is exactly 0 when C is above
// every gradient norm on W over the sample (nothing is clipped); below,
// it also carries ŵ_C's sampling error, which the standard error
// measures (comparing with F̂'s own minimizer on the sample instead would
// cancel that error only where it is the same in both points, and it is
// not where clipping discards what drives F̂'s minimizer: outliers).
func (in *Instance) clipBiasClosed(ctx context.Context, c float64) (ClipBias, error) {
	m := in.m
	ce, err := in.clipEval(ctx)
	if err != nil {
		return ClipBias{}, err
	}
	if c >= ce.supG {
		return ClipBias{Method: fmt.Sprintf("0: C is above every gradient norm on W over the evaluation sample of %d draws", ce.data.Len())}, nil
	}
	at := func(data *solvers.Matrix) (float64, error) {
		w, err := clippedMinimizer(ctx, m, data, c)
		if err != nil {
			return 0, err
		}
		ex, _ := m.risk.excess(w)
		return ex, nil
	}
	ex, err := at(ce.data)
	if err != nil {
		return ClipBias{}, err
	}
	es := make([]float64, clipBatches)
	for b := range es {
		if es[b], err = at(ce.batches[b]); err != nil {
			return ClipBias{}, err
		}
	}
	return ClipBias{Excess: ex, SE: stat.StdDev(es, nil) / math.Sqrt(clipBatches),
		Method: fmt.Sprintf("ŵ_C minimized on an evaluation sample of %d draws, F(ŵ_C) − F* by the closed form; ± its spread over %d batches", ce.data.Len(), clipBatches)}, nil
}

// clippedMinimizer is the minimizer over W of the clipped potential (plus
// f¹) on the rows of data (see ClipBias).
func clippedMinimizer(ctx context.Context, m *model, data *solvers.Matrix, c float64) ([]float64, error) {
	d := m.obj.dim()
	w, _, _, err := minimizeRows(ctx, d, data, m.reg, m.radius, m.obj.nonsmooth(), m.obj.smoothGap(),
		func(w []float64, lo, hi int, tau, inv float64, acc []float64) {
			for i := lo; i < hi; i++ {
				acc[d] += m.obj.clippedSmoothed(w, data.Row(i), c, tau, inv, acc[:d])
			}
		}, nil)
	return w, err
}

// twoPointLaw is the law of x of the hard instances: 0 with probability
// 1 − p and atom with probability p.
type twoPointLaw struct {
	p    float64
	atom []float64
}

// clipBias is ClipBias on a two-point law, in closed form where the
// objective has one (its twoPointClipBias).
func (l *twoPointLaw) clipBias(m *model, c float64) ClipBias {
	return m.obj.twoPointClipBias(l, m.radius, c)
}
