package scenarios

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"sync"

	"dpso/scenarios/dist"
	"dpso/solvers"
	"dpso/theory"
)

// The moment constants of Assumptions "ass:boundednoncentral" and
// "ass:coordinatewise", which take the sup over W outside the expectation:
//
//	r_k = sup_{w∈W} (E‖∇f(w, x)‖^k)^{1/k}                         (≤ r̃_k)
//	γ_k = sup_{w∈W} max_j E|∂_j f(w, x) − ∂_j F(w)|^k              (the first clause)
//
// For every scenario whose gradient is affine in w (example1, the linear
// regressions, contaminated, the hard instances) E|·|^k of an affine
// function of w is convex in w, so its sup over the ball W is on the
// sphere, and each scenario's symmetries (rotations of the Gaussian or
// spherical features within a block of equal scale) reduce it to a
// function of two numbers: the sup is either at a point the symmetries
// single out (derived in the builders' comments), or over an arc of a
// circle, where arcMax certifies it by convexity. The expectations are
// exact where a closed form exists (every such scenario at k = 2), else
// Monte Carlo means over MCDraws draws with their standard errors.

// SupEntry is r_k or γ_k^{1/k} at one order k.
type SupEntry struct {
	K float64 // the order; +Inf for the essential sup
	// V is the value: the sup over W, or a certified upper bound on it when
	// Lo < V. +Inf when the moment does not exist; NaN when not computed.
	V float64
	// SE is the Monte Carlo standard error of V (0 when exact, +Inf when
	// the estimator's variance is infinite).
	SE float64
	// Lo is a lower bound on the sup (the value at a point of W, or the
	// certified search's best point): Lo = V when the sup is computed, Lo < V
	// when only bracketed, NaN when no lower bound is known.
	Lo float64
	// Method says how V was obtained and where the sup is attained.
	Method string
}

// Bracketed reports whether only a bracket [Lo, V] of the sup is known,
// wider than 0.1% (a certified search's own gap, ≤ 0.01%, is not shown
// as one).
func (e SupEntry) Bracketed() bool {
	return !math.IsInf(e.V, 1) && !math.IsNaN(e.V) && !(e.V-e.Lo <= 1e-3*e.V)
}

// supVal is a finite-order evaluation.
type supVal struct {
	v, se, lo float64
	method    string
}

// supSide is r_k or γ_k^{1/k} for all k: eval at finite k < kmax, inf at
// k = ∞, +Inf for kmax ≤ k < ∞. Values are cached per k. eval passes ctx
// to its samples and moments (a sup over an arc is up to supMaxEvals
// Monte Carlo moments); a value computed while ctx was cancelled is
// discarded, never cached.
type supSide struct {
	inf, kmax float64
	infMethod string
	eval      func(ctx context.Context, k float64) supVal

	cache memo[supVal] // at most 1024 orders
}

// entry is the value at k, computed under ctx: on cancellation it returns
// ctx's error (and caches nothing).
func (s *supSide) entry(ctx context.Context, k float64) (SupEntry, error) {
	switch {
	case s == nil || s.eval == nil:
		return SupEntry{K: k, V: math.NaN(), SE: math.NaN(), Lo: math.NaN(), Method: "not computed"}, nil
	case math.IsNaN(k) || k <= 0:
		return SupEntry{K: k, V: math.NaN(), SE: math.NaN(), Lo: math.NaN(), Method: "invalid order"}, nil
	case math.IsInf(k, 1):
		return SupEntry{K: k, V: s.inf, Lo: s.inf, Method: s.infMethod}, nil
	case k >= s.kmax:
		return SupEntry{K: k, V: math.Inf(1), Lo: math.Inf(1), Method: fmt.Sprintf("does not exist (k ≥ %s)", theory.FormatNumber(s.kmax))}, nil
	}
	v, ok := s.cache.get(k)
	if !ok {
		if err := ctx.Err(); err != nil {
			return SupEntry{}, err
		}
		v = s.eval(ctx, k)
		if err := ctx.Err(); err != nil {
			return SupEntry{}, err // v may rest on a cut sample or moment
		}
		s.cache.put(k, v, 1024)
	}
	return SupEntry{K: k, V: v.v, SE: v.se, Lo: v.lo, Method: v.method}, nil
}

// supProfile is what a scenario knows of its sup-outside moments.
type supProfile struct {
	r, g *supSide
	// l is L = sup_{w∈W} ‖∇F(w)‖ (∇F⁰ for class ppl), or an upper bound
	// on it when lExact is false; NaN when not known.
	l       float64
	lExact  bool
	lMethod string
}

// mom is a moment E v^k kept as its logarithm, with its relative standard
// error se/E v^k, so that mixtures of parts of very different scale
// (contaminated's outliers, M^{2k}) neither overflow nor lose the small
// part.
type mom struct{ log, rel float64 }

func exactMom(m float64) mom { return mom{log: math.Log(m)} }

// mix is w1·a + w2·b for independent estimates a and b.
func mixMom(w1 float64, a mom, w2 float64, b mom) mom {
	la, lb := math.Log(w1)+a.log, math.Log(w2)+b.log
	switch {
	case w1 == 0 || math.IsInf(la, -1):
		return mom{log: lb, rel: b.rel}
	case w2 == 0 || math.IsInf(lb, -1):
		return mom{log: la, rel: a.rel}
	}
	m := math.Max(la, lb)
	ea, eb := math.Exp(la-m), math.Exp(lb-m)
	t := ea + eb
	return mom{log: m + math.Log(t), rel: math.Hypot(ea*a.rel, eb*b.rel) / t}
}

// root is (c·E v^k)^{1/k} and its delta-method standard error
// (c·E v^k)^{1/k}·rel/k.
func (m mom) root(k, c float64) (r, se float64) {
	r = math.Exp((math.Log(c) + m.log) / k)
	return r, r * m.rel / k
}

// colSample is a Monte Carlo sample of MCDraws draws of a few random
// variables (one column each), drawn in MCChunk chunks from the stream
// StreamKey(Seeded, 0, 0, "moments/"+purpose) (chunk c from
// dist.New(chunkKey(key, c))) on every core: the same bits for any number
// of cores, independent of every run and of the r̃_k samples.
type colSample struct {
	cols [][]float64
	n    int
}

// colCache holds the column samples of the sup moments, keyed by their
// purpose and every parameter their law depends on.
var colCache = lazyCache[*colSample]{max: 8, what: "the Monte Carlo sample of the sup moments"}

// newColSample draws the sample; draw fills one row (len ncol).
func newColSample(ctx context.Context, key string, ncol int, draw func(r *dist.Rand, row []float64)) (*colSample, error) {
	return colCache.get(ctx, key, func(ctx context.Context) (*colSample, error) {
		sk := solvers.StreamKey(solvers.Seeded, 0, 0, "moments/"+key)
		s := &colSample{cols: make([][]float64, ncol), n: MCDraws}
		for i := range s.cols {
			s.cols[i] = make([]float64, MCDraws)
		}
		err := solvers.ParallelSum(ctx, cores(), MCDraws, MCChunk, nil, func(lo, hi int, _ []float64) error {
			r := dist.New(chunkKey(sk, lo/MCChunk))
			row := make([]float64, ncol)
			for i := lo; i < hi; i++ {
				draw(r, row)
				for j, v := range row {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return fmt.Errorf("scenarios: Monte Carlo draw %d of %s is %g (a bug in the sampler)", i, key, v)
					}
					s.cols[j][i] = v
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return s, nil
	})
}

// moment is the sample mean of v^k (v ≥ 0) as a mom, where fill writes the
// draws' values v_lo, …, v_{lo+len(dst)−1} into dst (a loop over the
// columns, not a call a draw). Each fixed chunk of MCChunk draws fills a
// scratch buffer, finds its maximum m_c and sums (v/m_c)^k and
// (v/m_c)^{2k}, in its own slots; the chunks run on every core and are
// combined in chunk order (in logarithms), so the result is the same bits
// for any number of cores and nothing overflows. It checks ctx before each
// chunk; cancelled, it returns a NaN moment (which supSide.entry discards).
func (s *colSample) moment(ctx context.Context, k float64, fill func(dst []float64, lo int)) mom {
	nc := (s.n + MCChunk - 1) / MCChunk
	slots := make([]float64, 3*nc)
	if err := solvers.ParallelSum(ctx, cores(), s.n, MCChunk, slots, func(lo, hi int, a []float64) error {
		bp := scratchPool.Get().(*[]float64)
		buf := (*bp)[:hi-lo]
		fill(buf, lo)
		var mx float64
		for _, v := range buf {
			if v > mx {
				mx = v
			}
		}
		var s1, s2 float64
		if mx > 0 {
			s1, s2 = powSums(buf, 1/mx, k)
		}
		scratchPool.Put(bp)
		c := 3 * (lo / MCChunk)
		a[c], a[c+1], a[c+2] = mx, s1, s2
		return nil
	}); err != nil {
		return mom{log: math.NaN(), rel: math.NaN()}
	}
	var mx float64
	for c := 0; c < nc; c++ {
		mx = math.Max(mx, slots[3*c])
	}
	if mx == 0 {
		return mom{log: math.Inf(-1)}
	}
	var s1, s2 float64
	for c := 0; c < nc; c++ {
		if m := slots[3*c]; m > 0 {
			f := powK(m/mx, k) // (m_c/m)^k rescales the chunk's sums
			s1 += f * slots[3*c+1]
			s2 += f * f * slots[3*c+2]
		}
	}
	n := float64(s.n)
	mean := s1 / n
	variance := math.Max(0, s2/n-mean*mean) * n / (n - 1)
	return mom{log: k*math.Log(mx) + math.Log(mean), rel: math.Sqrt(variance/n) / mean}
}

var scratchPool = sync.Pool{New: func() any { b := make([]float64, MCChunk); return &b }}

// powSums returns Σ p and Σ p² over buf with p = powK(min(1, v·inv), k),
// the case of powK decided once for the whole buffer (the same products,
// to the bit).
func powSums(buf []float64, inv, k float64) (s1, s2 float64) {
	if k == 2 {
		for _, v := range buf {
			x := clip1(v * inv)
			p := x * x
			s1 += p
			s2 += p * p
		}
		return s1, s2
	}
	if n, half, ok := halfInteger(k); ok {
		var x, y, p [powBlock]float64
		for len(buf) > 0 {
			m := min(len(buf), powBlock)
			halfIntPows(p[:m], x[:m], y[:m], buf[:m], inv, n, half)
			for _, v := range p[:m] {
				s1 += v
				s2 += v * v
			}
			buf = buf[m:]
		}
		return s1, s2
	}
	for _, v := range buf {
		p := math.Exp(k * math.Log(clip1(v*inv)))
		s1 += p
		s2 += p * p
	}
	return s1, s2
}

// powK is v^k for v ∈ [0, 1]: v·v at k = 2, by squarings when 2k is an
// integer up to 128 (halfIntPow: every order of MomentGrid and the usual
// k, 2k), e^{k ln v} otherwise.
func powK(v, k float64) float64 {
	if k == 2 {
		return v * v
	}
	if n, half, ok := halfInteger(k); ok {
		return halfIntPow(v, n, half)
	}
	return math.Exp(k * math.Log(v))
}

// halfInteger reports whether k = n + ½·half with 2k an integer in
// [0, 128], the orders halfIntPow computes.
func halfInteger(k float64) (n int, half, ok bool) {
	h := 2 * k
	if h != math.Trunc(h) || !(h >= 0 && h <= 128) {
		return 0, false, false
	}
	return int(h) / 2, int(h)%2 == 1, true
}

// clip1 is min(1, x) for every x, NaN (kept) and −0 (kept) included, by
// one comparison: the builtin min's float code, which orders the signed
// zeros and NaN, is several instructions a value in powSums' loops.
func clip1(x float64) float64 {
	if x > 1 {
		return 1
	}
	return x
}

// powBlock is the length of the blocks in which powSums raises its values
// to a half-integer power (three stack buffers of it stay in L1).
const powBlock = 256

// halfIntPows sets x_i = min(1, src_i·inv) and p_i = halfIntPow(x_i, n,
// half), the same products in the same order, to the bit, but a pass over
// the block per squaring instead of a loop of branches per value; y is
// scratch. All four have the same length.
func halfIntPows(p, x, y, src []float64, inv float64, n int, half bool) {
	x, y = x[:len(p)], y[:len(p)]
	for i, v := range src[:len(p)] {
		x[i] = clip1(v * inv)
	}
	copy(y, x)
	set := false // p holds a product (1·y_b = y_b, so the first factor is copied)
	for b := n; b > 0; b >>= 1 {
		if b&1 == 1 {
			if set {
				for i, v := range y {
					p[i] *= v
				}
			} else {
				copy(p, y)
				set = true
			}
		}
		if b > 1 {
			for i, v := range y {
				y[i] = v * v
			}
		}
	}
	if !set {
		for i := range p {
			p[i] = 1
		}
	}
	if half {
		for i, v := range x {
			p[i] *= math.Sqrt(v)
		}
	}
}

// halfIntPow is x^(n + ½·half) for x ≥ 0: x^n by repeated squaring, times
// √x for the half.
func halfIntPow(x float64, n int, half bool) float64 {
	p := 1.0
	for b, y := n, x; b > 0; b >>= 1 {
		if b&1 == 1 {
			p *= y
		}
		y *= y
	}
	if half {
		p *= math.Sqrt(x)
	}
	return p
}

// arcResult is a certified maximum of a function over an arc.
type arcResult struct {
	lo    float64    // the largest value found at a point of the arc
	hi    float64    // a certified upper bound on the sup over the arc
	at    [2]float64 // the point of lo
	evals int
}

type arcPiece struct {
	a0, a1 float64 // angles
	f0, f1 float64 // f at the ends
	u      float64 // upper bound on f over the piece
}

type arcHeap []arcPiece

func (h arcHeap) Len() int           { return len(h) }
func (h arcHeap) Less(i, j int) bool { return h[i].u > h[j].u }
func (h arcHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *arcHeap) Push(x any)        { *h = append(*h, x.(arcPiece)) }
func (h *arcHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// arcMax maximises f over the arc {R(cos α, sin α): α ∈ [a0, a1]} of the
// circle of radius R about 0, where f is the image under a monotone map
// (a logarithm) of a function convex on R², by branch and bound: on a piece
// [α, α'] (α' − α < π) the arc lies in the triangle of its two ends and
// the intersection of their tangents (at radius R/cos((α' − α)/2) on the
// bisector), and a convex function's maximum over a triangle is at a
// vertex, so max{f(ends), f(tangent point)} bounds f on the piece. The
// piece with the largest bound is split at its middle until that bound is
// within tol of the best value found (or maxEvals evaluations). lo is then
// the best value (a point of the arc) and hi ≥ sup the certificate.
func arcMax(f func(a, b float64) float64, R, a0, a1, tol float64, maxEvals int) arcResult {
	pt := func(al float64) (float64, float64) { return R * math.Cos(al), R * math.Sin(al) }
	res := arcResult{lo: math.Inf(-1)}
	eval := func(a, b float64, onArc bool) float64 {
		v := f(a, b)
		res.evals++
		if onArc && v > res.lo {
			res.lo, res.at = v, [2]float64{a, b}
		}
		return v
	}
	if R == 0 || a1 <= a0 {
		a, b := pt(a0)
		v := eval(a, b, true)
		res.hi = v
		return res
	}
	tangent := func(al, ar float64) float64 {
		mid, half := (al+ar)/2, (ar-al)/2
		r := R / math.Cos(half)
		return eval(r*math.Cos(mid), r*math.Sin(mid), false)
	}
	n0 := max(2, int(math.Ceil((a1-a0)/(math.Pi/4)-1e-9)))
	vals := make([]float64, n0+1)
	angles := make([]float64, n0+1)
	for i := range vals {
		angles[i] = a0 + (a1-a0)*float64(i)/float64(n0)
		a, b := pt(angles[i])
		vals[i] = eval(a, b, true)
	}
	h := &arcHeap{}
	for i := 0; i < n0; i++ {
		u := math.Max(math.Max(vals[i], vals[i+1]), tangent(angles[i], angles[i+1]))
		heap.Push(h, arcPiece{angles[i], angles[i+1], vals[i], vals[i+1], u})
	}
	for h.Len() > 0 && res.evals < maxEvals {
		top := (*h)[0]
		if top.u <= res.lo+tol {
			break
		}
		heap.Pop(h)
		mid := (top.a0 + top.a1) / 2
		ma, mb := pt(mid)
		fm := eval(ma, mb, true)
		heap.Push(h, arcPiece{top.a0, mid, top.f0, fm, math.Max(math.Max(top.f0, fm), tangent(top.a0, mid))})
		heap.Push(h, arcPiece{mid, top.a1, fm, top.f1, math.Max(math.Max(fm, top.f1), tangent(mid, top.a1))})
	}
	res.hi = res.lo
	for _, p := range *h {
		res.hi = math.Max(res.hi, p.u)
	}
	return res
}
