package scenarios

import (
	"context"
	"fmt"
	"math"

	"dpso/solvers"
	"dpso/theory"
)

// Kinds of excess risk.
const (
	// Population: F(w) − F* for the scenario's distribution.
	Population = "population"
	// Empirical: the empirical-risk gap F̂(w) − F̂* over the user's data
	// set.
	Empirical = "empirical"
)

// EvalSize is the size M of the fixed evaluation sample (the chunked stream
// keyed by solvers.StreamKey(Seeded, 0, 0, "eval"), independent of every
// run) on which
// F is estimated for scenarios without a closed form, for d ≤ 99; above,
// EvalSizeFor keeps the sample under EvalFloats numbers.
const EvalSize = 40000

// EvalFloats caps the evaluation sample at 4·10⁶ numbers (32 MB).
const EvalFloats = 4_000_000

// EvalSizeFor is the evaluation sample's size for samples of length sdim:
// min(EvalSize, max(5000, EvalFloats/sdim)).
func EvalSizeFor(sdim int) int { return min(EvalSize, max(5000, EvalFloats/sdim)) }

// RiskInfo says how F(w) − F* is computed.
type RiskInfo struct {
	Kind   string // Population or Empirical
	Method string // e.g. "closed form", "evaluation sample of 40000 draws"
	// FStar is F* = F(WStar), the value at the best point found.
	FStar float64
	// FStarErr certifies F*: the true minimum lies in [FStar − FStarErr,
	// FStar] (0 for closed forms, up to rounding). It bounds by how much a
	// reported excess risk can be negative.
	FStarErr float64
	// EvalSize is the evaluation sample's size M (0 for closed forms; n for
	// user data).
	EvalSize int
	// WStar is the minimizer of F over W.
	WStar []float64
}

// riskModel computes F(w) and F(w) − F*.
type riskModel interface {
	// excess returns F(w) − F* and the standard error of that estimate
	// (0 when exact).
	excess(w []float64) (ex, se float64)
	value(w []float64) float64
	info() RiskInfo
}

// clampRounding returns x, or 0 when x is negative only by the rounding
// error of a difference of two values of magnitude ≈ scale.
func clampRounding(x, scale float64) float64 {
	if x < 0 && x >= -1e-12*math.Max(scale, 1e-300) {
		return 0
	}
	return x
}

// quadRisk is F(w) = ½Σ_j h_j(w_j − c_j)² + λ₁‖w‖₁ + (λ₂/2)‖w‖² + const
// over W = B(0, R), with h ≥ 0 (a diagonal quadratic: linear regression
// with a diagonal covariance, mean estimation).
type quadRisk struct {
	h, c   []float64
	cst    float64
	l1, l2 float64
	radius float64
	wopt   []float64
	phiOpt float64
	nu     float64 // the ball's KKT multiplier at wopt
}

func (q *quadRisk) phi(w []float64) float64 {
	var s, l1, l2 float64
	for j, v := range w {
		t := v - q.c[j]
		s += q.h[j] * t * t
		l1 += math.Abs(v)
		l2 += v * v
	}
	return s/2 + q.l1*l1 + q.l2/2*l2
}

// newQuadRisk computes the minimizer over the ball exactly from the KKT
// conditions: coordinate-wise, w_j(ν) = S(h_j c_j, λ₁)/(h_j + λ₂ + ν) with S
// the soft threshold and ν ≥ 0 the multiplier of ‖w‖ ≤ R; ‖w(ν)‖ is
// decreasing in ν, so ν = 0 if ‖w(0)‖ ≤ R and otherwise the root of
// ‖w(ν)‖ = R, found by bisection to the last bit.
func newQuadRisk(h, c []float64, cst, l1, l2, radius float64) *quadRisk {
	q := &quadRisk{h: h, c: c, cst: cst, l1: l1, l2: l2, radius: radius}
	d := len(h)
	num := make([]float64, d)
	for j := range num {
		v := h[j] * c[j]
		switch {
		case v > l1:
			num[j] = v - l1
		case v < -l1:
			num[j] = v + l1
		}
	}
	at := func(nu float64, w []float64) float64 {
		for j := range w {
			den := h[j] + l2 + nu
			if num[j] == 0 || den == 0 {
				w[j] = 0
			} else {
				w[j] = num[j] / den
			}
		}
		return math.Sqrt(sqnorm(w))
	}
	w := make([]float64, d)
	if at(0, w) > radius {
		lo, hi := 0.0, math.Sqrt(sqnorm(num))/radius
		for range 2000 {
			mid := (lo + hi) / 2
			if mid <= lo || mid >= hi {
				break
			}
			if at(mid, w) > radius {
				lo = mid
			} else {
				hi = mid
			}
		}
		at(hi, w)
		q.nu = hi
		projectBall(w, radius)
	}
	q.wopt = w
	q.phiOpt = q.phi(w)
	return q
}

func (q *quadRisk) value(w []float64) float64 { return q.phi(w) + q.cst }

func (q *quadRisk) excess(w []float64) (float64, float64) {
	p := q.phi(w)
	return clampRounding(p-q.phiOpt, math.Abs(p)+math.Abs(q.phiOpt)), 0
}

func (q *quadRisk) info() RiskInfo {
	return RiskInfo{Kind: Population, Method: "closed form", FStar: q.phiOpt + q.cst, WStar: q.wopt}
}

// linRisk is the linear F(w) = −⟨w, m⟩ over B(0, R): F* = −R‖m‖ at
// w* = R m/‖m‖.
type linRisk struct {
	m      []float64
	radius float64
}

func (l *linRisk) value(w []float64) float64 { return -dot(w, l.m) }

func (l *linRisk) excess(w []float64) (float64, float64) {
	nm := math.Sqrt(sqnorm(l.m))
	v := l.radius*nm - dot(w, l.m)
	return clampRounding(v, l.radius*nm), 0
}

func (l *linRisk) info() RiskInfo {
	nm := math.Sqrt(sqnorm(l.m))
	w := make([]float64, len(l.m))
	if nm > 0 {
		for j, v := range l.m {
			w[j] = l.radius * v / nm
		}
	}
	return RiskInfo{Kind: Population, Method: "closed form", FStar: -l.radius * nm, WStar: w}
}

// absRisk is the population risk of absreg-t:
// F(w) = c·√(‖w − w*‖² + σ²) + (λ₂/2)‖w‖², c = √(2/π)·E m (see buildAbsReg).
// Its minimizer over B(0, R) lies on the segment [0, w*] (for a fixed ‖w‖
// both terms are smallest with w parallel to w*), at the root of the
// derivative in t = ‖w‖, found by bisection.
type absRisk struct {
	c, sigma, l2, radius float64
	wstar                []float64
	wopt                 []float64
	fopt                 float64
}

func (a *absRisk) value(w []float64) float64 {
	var s float64
	for j, v := range w {
		t := v - a.wstar[j]
		s += t * t
	}
	return a.c*math.Sqrt(s+a.sigma*a.sigma) + a.l2/2*sqnorm(w)
}

func newAbsRisk(c, sigma, l2, radius float64, wstar []float64) *absRisk {
	a := &absRisk{c: c, sigma: sigma, l2: l2, radius: radius, wstar: wstar}
	ws := math.Sqrt(sqnorm(wstar))
	tmax := math.Min(radius, ws)
	// φ(t) = c√((‖w*‖ − t)² + σ²) + λ₂t²/2 is convex on [0, tmax];
	// φ'(t) = −c(‖w*‖ − t)/√((‖w*‖ − t)² + σ²) + λ₂t.
	dphi := func(t float64) float64 {
		u := ws - t
		h := math.Hypot(u, sigma)
		if h == 0 {
			return a.l2 * t
		}
		return -c*u/h + l2*t
	}
	t := tmax
	if ws > 0 && dphi(tmax) > 0 {
		lo, hi := 0.0, tmax
		for range 2000 {
			mid := (lo + hi) / 2
			if mid <= lo || mid >= hi {
				break
			}
			if dphi(mid) > 0 {
				hi = mid
			} else {
				lo = mid
			}
		}
		t = (lo + hi) / 2
	}
	a.wopt = make([]float64, len(wstar))
	if ws > 0 {
		for j, v := range wstar {
			a.wopt[j] = t * v / ws
		}
	}
	a.fopt = a.value(a.wopt)
	return a
}

func (a *absRisk) excess(w []float64) (float64, float64) {
	v := a.value(w)
	return clampRounding(v-a.fopt, v+a.fopt), 0
}

func (a *absRisk) info() RiskInfo {
	return RiskInfo{Kind: Population, Method: "closed form", FStar: a.fopt, WStar: a.wopt}
}

// sampleRisk is F estimated on a fixed sample (the evaluation sample of a
// scenario, or the user's data set): F̂(w) = (1/M)Σ f(w, x_i) + f¹(w), with
// F̂* from a certified minimization over W (see newSampleRisk).
type sampleRisk struct {
	obj    objective
	reg    solvers.Regularizer
	data   *solvers.Matrix
	kind   string
	method string
	wopt   []float64
	fopt   float64
	width  float64
	fo     []float64 // f(wopt, x_i)
}

// sampleSum sets out to Σ_i over the sample's rows of what term adds to
// its accumulator for rows [lo, hi), summed in fixed chunks of the data's
// chunk length on every core (solvers.ParallelSum): the same bits for any
// number of cores.
func sampleSum(data *solvers.Matrix, out []float64, term func(lo, hi int, acc []float64)) {
	_ = solvers.ParallelSum(context.Background(), cores(), data.Len(), data.ChunkLen(), out, func(lo, hi int, acc []float64) error {
		term(lo, hi, acc)
		return nil
	})
}

func (s *sampleRisk) value(w []float64) float64 {
	var sum [1]float64
	sampleSum(s.data, sum[:], func(lo, hi int, acc []float64) {
		for i := lo; i < hi; i++ {
			acc[0] += s.obj.value(w, s.data.Row(i))
		}
	})
	return sum[0]/float64(s.data.Len()) + s.reg.Value(w)
}

// excess is F̂(w) − F̂* with, for an evaluation sample, the standard error
// sd_i(f(w, x_i) − f(w*, x_i))/√M of the population excess risk it
// estimates (0 for user data, whose empirical risk is the target).
func (s *sampleRisk) excess(w []float64) (float64, float64) {
	n := s.data.Len()
	var sums [2]float64
	sampleSum(s.data, sums[:], func(lo, hi int, acc []float64) {
		for i := lo; i < hi; i++ {
			diff := s.obj.value(w, s.data.Row(i)) - s.fo[i]
			acc[0] += diff
			acc[1] += diff * diff
		}
	})
	s1, s2 := sums[0], sums[1]
	m := float64(n)
	mean := s1 / m
	ex := mean + s.reg.Value(w) - s.reg.Value(s.wopt)
	if s.kind == Empirical {
		return ex, 0
	}
	v := math.Max(0, s2/m-mean*mean) * m / (m - 1)
	return ex, math.Sqrt(v / m)
}

func (s *sampleRisk) info() RiskInfo {
	return RiskInfo{Kind: s.kind, Method: s.method, FStar: s.fopt, FStarErr: s.width, EvalSize: s.data.Len(), WStar: s.wopt}
}

// minimizeWork caps the F* minimization at about this many per-sample
// loss evaluations × d (a few seconds): the continuation stops when the
// budget runs out, and the certificate then reports the (larger) width
// actually reached.
const minimizeWork = 1.5e9

// smoothingLevels are the τ of the continuation used for non-smooth
// objectives (see newSampleRisk).
var smoothingLevels = []float64{1e-1, 1e-2, 1e-3, 1e-4, 1e-5}

// newSampleRisk minimizes F̂(w) = (1/M)Σ f(w, x_i) + λ₁‖w‖₁ + (λ₂/2)‖w‖² over
// W = B(0, R) and certifies the result.
//
// Smooth F̂ (squared, logistic loss, λ₁ = 0) is minimized directly by a
// ballSolver (gonum's L-BFGS on F̂ + (ν/2)‖w‖², with the ball's KKT
// multiplier ν). Non-smooth F̂
// (hinge, absolute loss, or λ₁ > 0) is minimized through smooth surrogates
// F̂_τ with F̂ ≤ F̂_τ ≤ F̂ + cτ (hinge: softplus, c = ln 2; absolute value and
// |w_j|: √(u² + τ²), c = 1 per term), for τ = 10⁻¹, …, 10⁻⁵ warm-started,
// each level solved to a Frank–Wolfe gap of cτ/10, within a work budget
// (minimizeWork).
// With w the final point and g its Frank–Wolfe gap for F̂_τ:
//
//	F̂_τ(w) − g − cτ ≤ min F̂_τ − cτ ≤ min F̂ ≤ F̂(w),
//
// so F̂* := F̂(w) is certified to within width = F̂(w) − (F̂_τ(w) − g − cτ).
//
// at, when not nil, is a point this minimization reached before on the
// same sample (knownMinimum): F̂* and its certificate are then computed
// at it, the same numbers to the bit, without the search.
func newSampleRisk(ctx context.Context, obj objective, reg solvers.Regularizer, data *solvers.Matrix, radius float64, kind, method string, at *knownMinimum) (*sampleRisk, error) {
	w, lower, _, err := minimizeSampleFrom(ctx, obj, reg, data, radius, at)
	if err != nil {
		return nil, err
	}
	n := data.Len()
	inv := 1 / float64(n)
	s := &sampleRisk{obj: obj, reg: reg, data: data, kind: kind, method: method, wopt: w, fo: make([]float64, n)}
	var sum [1]float64
	sampleSum(data, sum[:], func(lo, hi int, acc []float64) {
		for i := lo; i < hi; i++ {
			s.fo[i] = obj.value(w, data.Row(i))
			acc[0] += s.fo[i]
		}
	})
	s.fopt = sum[0]*inv + reg.Value(w)
	s.width = math.Max(0, s.fopt-lower)
	if math.IsNaN(s.fopt) || math.IsNaN(s.width) {
		return nil, fmt.Errorf("scenarios: F* is not finite (%s ± %s)", theory.Exact.Format(s.fopt), theory.Exact.Format(s.width))
	}
	return s, nil
}

// minimizeSample minimizes F̂ over W = B(0, R) as newSampleRisk documents
// and returns the point w reached and a proved lower bound on min F̂,
// F̂_τ(w) − g − cτ.
func minimizeSample(ctx context.Context, obj objective, reg solvers.Regularizer, data *solvers.Matrix, radius float64) ([]float64, float64, error) {
	w, lower, _, err := minimizeSampleFrom(ctx, obj, reg, data, radius, nil)
	return w, lower, err
}

// minimizeSampleFrom is minimizeSample, from a known minimum when at is not
// nil (minimizeRows), and returns the last smoothing level τ besides.
func minimizeSampleFrom(ctx context.Context, obj objective, reg solvers.Regularizer, data *solvers.Matrix, radius float64, at *knownMinimum) ([]float64, float64, float64, error) {
	d := obj.dim()
	g, rows := obj.(*glm)
	rows = rows && g.rowsSmoothed() && data.Dim > d
	sum := func(w []float64, lo, hi int, tau, inv float64, acc []float64) {
		if rows {
			g.smoothedRows(w, data.Data[lo*data.Dim:hi*data.Dim], data.Dim, tau, inv, acc[:d], &acc[d])
			return
		}
		for i := lo; i < hi; i++ {
			acc[d] += obj.smoothed(w, data.Row(i), tau, inv, acc[:d])
		}
	}
	return minimizeRows(ctx, d, data, reg, radius, obj.nonsmooth(), obj.smoothGap(), sum, at)
}

// rowSum adds, for the rows [lo, hi) of a sample, inv times the gradient
// of a per-row function at smoothing level τ into acc[:d] and the sum of
// its values into acc[d] (one accumulator of solvers.ParallelSum).
type rowSum func(w []float64, lo, hi int, tau, inv float64, acc []float64)

// minimizeRows minimizes (1/M)Σ_i h(w, x_i) + λ₁‖w‖₁ + (λ₂/2)‖w‖² over
// W = B(0, R), h the per-row function that sum accumulates, and returns
// the point w reached and a proved lower bound on the minimum. A smooth h
// (nonsmooth false, λ₁ = 0) is solved at τ = 0 to 10⁻¹⁰ relative; a
// non-smooth one through the smoothing levels τ of newSampleRisk, each to
// a Frank–Wolfe gap of cτ/10 with c = gapC + λ₁d (gapC: h ≤ h_τ ≤ h +
// gapC·τ), within the work budget minimizeWork. It returns the last level
// τ besides. With at not nil (a point and level this minimization reached
// before, knownMinimum) it skips the search: the bound is computed at
// at.w and at.tau as at the search's end, the same bits.
func minimizeRows(ctx context.Context, d int, data *solvers.Matrix, reg solvers.Regularizer, radius float64, nonsmooth bool, gapC float64, sum rowSum, at *knownMinimum) ([]float64, float64, float64, error) {
	n := data.Len()
	inv := 1 / float64(n)
	levels := []float64{0}
	nonsmooth = nonsmooth || reg.L1 > 0
	if nonsmooth {
		levels = smoothingLevels
	}
	var tau float64
	sums := make([]float64, d+1) // the gradient, then the value
	f := func(w, g []float64) float64 {
		sampleSum(data, sums, func(lo, hi int, acc []float64) { sum(w, lo, hi, tau, inv, acc) })
		copy(g, sums[:d])
		v := sums[d] * inv
		if reg.L1 != 0 {
			for j, x := range w {
				h := math.Hypot(x, tau)
				v += reg.L1 * h
				if h > 0 {
					g[j] += reg.L1 * x / h
				}
			}
		}
		if reg.L2 != 0 {
			v += reg.L2 / 2 * sqnorm(w)
			for j, x := range w {
				g[j] += reg.L2 * x
			}
		}
		return v
	}
	c := gapC + reg.L1*float64(d)
	if at != nil {
		w := append([]float64(nil), at.w...)
		tau = at.tau
		gap, fTau := fwGap(f, w, radius)
		return w, fTau - gap - c*tau, tau, nil
	}
	w := make([]float64, d)
	var gap float64
	bs := &ballSolver{ctx: ctx, radius: radius, budget: &evalBudget{limit: max(200, int(minimizeWork/(float64(n)*float64(d))))}}
	for _, t := range levels {
		tau = t
		// Solve each smoothing level to a tenth of its smoothing error; the
		// exact (smooth) problem to 10⁻¹⁰ relative.
		tol := 0.1 * (gapC + reg.L1*float64(d)) * t
		if !nonsmooth {
			g := make([]float64, d)
			tol = 1e-10 * math.Max(1, math.Abs(f(w, g)))
		}
		var err error
		if w, gap, err = bs.solve(f, w, tol); err != nil {
			return nil, 0, 0, err
		}
		if bs.budget.exhausted() {
			break
		}
	}
	_, fTau := fwGap(f, w, radius)
	return w, fTau - gap - c*tau, tau, nil
}

// MinimizeEmpirical is the minimizer over W of the empirical risk of the
// rows of data, F̂(w) = (1/n)Σ f(w, x_i) + f¹(w) (the problem's loss and
// regulariser), by the certified minimization of the F* computations
// (newSampleRisk): w and the certificate's width, F̂(w) − min F̂ ≤ width.
// It reads the rows only; the engine's non-private reference is this
// point's excess risk.
func (in *Instance) MinimizeEmpirical(ctx context.Context, data *solvers.Matrix) ([]float64, float64, error) {
	if data.Len() == 0 {
		return nil, 0, fmt.Errorf("scenarios: no rows to minimize over")
	}
	w, lower, err := minimizeSample(ctx, in.m.obj, in.m.reg, data, in.m.radius)
	if err != nil {
		return nil, 0, err
	}
	var sum [1]float64
	sampleSum(data, sum[:], func(lo, hi int, acc []float64) {
		for i := lo; i < hi; i++ {
			acc[0] += in.m.obj.value(w, data.Row(i))
		}
	})
	f := sum[0]/float64(data.Len()) + in.m.reg.Value(w)
	width := math.Max(0, f-lower)
	if math.IsNaN(width) {
		return nil, 0, fmt.Errorf("scenarios: the empirical minimum is not finite")
	}
	return w, width, nil
}
