package scenarios

import (
	"context"
	"errors"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"
)

// smoothFunc evaluates a differentiable convex function on R^d: it writes
// ∇f(w) into g (overwriting it) and returns f(w).
type smoothFunc func(w, g []float64) float64

// lbfgsMemory is the number of correction pairs L-BFGS keeps.
const lbfgsMemory = 12

// lbfgsMaxIter caps the major iterations of one L-BFGS run.
const lbfgsMaxIter = 20000

// lbfgs minimizes f(w) + (ν/2)‖w‖² over R^d from x0 with gonum's
// optimize.Minimize and optimize.LBFGS (Nocedal & Wright, Algorithm
// 7.4/7.5: two-loop recursion, lbfgsMemory pairs) with a line search for
// convex objectives under the approximate Wolfe conditions
// (convexLinesearch), until the gradient's Euclidean norm is at most gtol
// (lbfgsConverger), progress stops at the rounding level (lbfgsStall
// iterations without a lower value or gradient norm, or the line search
// cannot move), the evaluation budget (nil: none) runs out
// (Settings.FuncEvaluations), or lbfgsMaxIter iterations. Stopping early is not an error: callers certify
// the point they get (see fwGap). Cancelling ctx stops it after the
// evaluation of f in progress (Problem.Status) and returns ctx's error.
func lbfgs(ctx context.Context, f smoothFunc, nu float64, x0 []float64, gtol float64, budget *evalBudget) ([]float64, error) {
	d := len(x0)
	// gonum asks for the value and the gradient at the same point in two
	// calls; f computes both at once, so the last point is cached.
	ev := &lbfgsEval{f: f, nu: nu, budget: budget, x: make([]float64, d), g: make([]float64, d)}
	prob := optimize.Problem{
		Func: ev.value,
		Grad: ev.grad,
		Status: func() (optimize.Status, error) {
			if err := ctx.Err(); err != nil {
				return optimize.Failure, err
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		Converger:       &lbfgsConverger{gtol: gtol},
		MajorIterations: lbfgsMaxIter,
	}
	if budget != nil && budget.limit > 0 {
		settings.FuncEvaluations = max(1, budget.limit-budget.used)
	}
	method := &optimize.LBFGS{Store: lbfgsMemory, GradStopThreshold: math.NaN(), Linesearcher: &convexLinesearch{}}
	res, err := optimize.Minimize(prob, x0, settings, method)
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	var ef optimize.ErrFunc
	var eg optimize.ErrGrad
	if errors.As(err, &ef) || errors.As(err, &eg) {
		return nil, errors.New("scenarios: the objective is not finite at the start of the F* minimization")
	}
	// Any other error is the method's own stop (the line search cannot
	// make progress in floating point, a non-descent direction): the best
	// point so far is returned and certified by the caller.
	if res == nil || math.IsInf(res.F, 1) { // stopped before its first iteration
		return append([]float64(nil), x0...), nil
	}
	for _, v := range res.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("scenarios: the F* minimizer diverged (non-finite iterate)")
		}
	}
	return res.X, nil
}

// lbfgsEval evaluates f + (ν/2)‖·‖² for gonum, remembering the last point,
// and counts the evaluations against the budget.
type lbfgsEval struct {
	f      smoothFunc
	nu     float64
	budget *evalBudget
	x, g   []float64 // the last point and its gradient
	v      float64
	valid  bool
}

func (e *lbfgsEval) at(x []float64) {
	if e.valid && floats.Equal(x, e.x) {
		return
	}
	if e.budget != nil {
		e.budget.used++
	}
	v := e.f(x, e.g)
	if e.nu != 0 {
		v += e.nu / 2 * sqnorm(x)
		floats.AddScaled(e.g, e.nu, x)
	}
	copy(e.x, x)
	e.v, e.valid = v, true
}

func (e *lbfgsEval) value(x []float64) float64 { e.at(x); return e.v }
func (e *lbfgsEval) grad(g, x []float64)       { e.at(x); copy(g, e.g) }

// lbfgsConverger stops at a gradient of Euclidean norm ≤ gtol, or when
// lbfgsStall major iterations in a row neither decrease the value nor
// reach a smaller gradient norm than before (progress has stopped at the
// rounding level).
type lbfgsConverger struct {
	gtol         float64
	bestF, bestG float64
	stall        int
}

// lbfgsStall is the number of iterations without progress after which
// lbfgsConverger stops.
const lbfgsStall = 8

func (c *lbfgsConverger) Init(int) { c.bestF, c.bestG, c.stall = math.Inf(1), math.Inf(1), 0 }

func (c *lbfgsConverger) Converged(loc *optimize.Location) optimize.Status {
	gn := floats.Norm(loc.Gradient, 2)
	if gn <= c.gtol {
		return optimize.GradientThreshold
	}
	progress := false
	if loc.F < c.bestF {
		c.bestF, progress = loc.F, true
	}
	if gn < c.bestG {
		c.bestG, progress = gn, true
	}
	if progress {
		c.stall = 0
		return optimize.NotTerminated
	}
	if c.stall++; c.stall >= lbfgsStall {
		return optimize.FunctionConvergence
	}
	return optimize.NotTerminated
}

// convexLinesearch is an optimize.Linesearcher for convex objectives: it
// accepts a step α satisfying the approximate Wolfe conditions of Hager &
// Zhang (SIAM J. Optim. 16, 2005, eq. (23) with δ = 0.1, σ = 0.9),
//
//	0.9·φ'(0) ≤ φ'(α) ≤ −0.8·φ'(0)  and  φ(α) ≤ φ(0) + 10⁻¹²·|φ(0)|,
//
// locating it from derivatives: φ' is non-decreasing (φ is convex), so a
// step with φ'(α) < 0.9·φ'(0) is too short and one with φ'(α) > −0.8·φ'(0)
// (or a larger value, or a non-finite one) too long; the next trial is the
// secant root of φ' between the shortest too-long and the longest
// too-short step (kept in the middle 80% of that bracket), or 4α while no
// step is too long yet. On a quadratic the secant step is the exact
// minimizer along the line.
//
// gonum's Moré–Thuente and bisection searches insist on φ(α) ≤ φ(0) (up to
// a sufficient decrease) and interpolate φ, but near the minimizer the
// decrease along a quasi-Newton step is below the rounding error of a sum
// over tens of thousands of samples, while φ' is still computed
// accurately: they then stop (or stall) with a gradient orders of
// magnitude above the tolerance the Frank–Wolfe certificate needs. The
// price of the approximate conditions is an increase of φ of at most
// 10⁻¹² relative per accepted step.
type convexLinesearch struct {
	f0, g0  float64 // φ(0), φ'(0) < 0
	lo, glo float64 // the longest too-short step and its φ'
	hi, ghi float64 // the shortest too-long step (+Inf: none yet) and its φ'
	step    float64 // the step being evaluated
	iter    int
}

// convexLinesearchMaxIter caps the trial steps of one line search.
const convexLinesearchMaxIter = 60

// Init implements optimize.Linesearcher.
func (l *convexLinesearch) Init(f, g, step float64) optimize.Operation {
	*l = convexLinesearch{f0: f, g0: g, glo: g, hi: math.Inf(1), ghi: math.NaN(), step: step}
	return optimize.FuncEvaluation | optimize.GradEvaluation
}

// Iterate implements optimize.Linesearcher.
func (l *convexLinesearch) Iterate(f, g float64) (optimize.Operation, float64, error) {
	l.iter++
	finite := !math.IsNaN(f) && !math.IsInf(f, 0) && !math.IsNaN(g) && !math.IsInf(g, 0)
	switch {
	case finite && g < 0.9*l.g0:
		l.lo, l.glo = l.step, g
	case !finite || g > -0.8*l.g0 || f > l.f0+1e-12*math.Abs(l.f0):
		l.hi, l.ghi = l.step, g
	default:
		return optimize.MajorIteration, l.step, nil
	}
	next := 4 * l.step
	if !math.IsInf(l.hi, 1) {
		w := l.hi - l.lo
		next = l.lo + w/2
		if !math.IsNaN(l.ghi) && l.ghi > l.glo {
			next = l.lo - l.glo*w/(l.ghi-l.glo)
		}
		next = math.Min(math.Max(next, l.lo+0.1*w), l.hi-0.1*w)
	}
	if l.iter >= convexLinesearchMaxIter || !(next > l.lo && next < l.hi) || next == l.step {
		return optimize.NoOperation, l.step, optimize.ErrLinesearcherFailure
	}
	l.step = next
	return optimize.FuncEvaluation | optimize.GradEvaluation, next, nil
}

// fwGap is the Frank–Wolfe gap of a convex f at a feasible w of the ball
// B(0, R): max_{‖u‖≤R} ⟨∇f(w), w − u⟩ = ⟨∇f(w), w⟩ + R‖∇f(w)‖. By
// convexity f(w) − min_{B(0,R)} f ≤ gap, so it certifies the accuracy of
// F* = f(w). It returns f(w) too.
func fwGap(f smoothFunc, w []float64, radius float64) (gap, value float64) {
	g := make([]float64, len(w))
	value = f(w, g)
	gap = dot(g, w) + radius*math.Sqrt(sqnorm(g))
	return math.Max(gap, 0), value
}

// projectBall maps w onto B(0, R) in place.
func projectBall(w []float64, radius float64) {
	n := math.Sqrt(sqnorm(w))
	if n > radius {
		s := radius / n
		for i := range w {
			w[i] *= s
		}
	}
}

// ballSolver minimizes smooth convex functions over the ball B(0, R),
// remembering the last KKT multiplier so that a sequence of related
// problems (the smoothing levels of newSampleRisk) starts from it, and
// spending at most a budget of function evaluations (nil: unlimited).
type ballSolver struct {
	ctx    context.Context
	radius float64
	nu     float64 // the multiplier of the last solution (0: interior)
	budget *evalBudget
}

// evalBudget counts function evaluations against a limit.
type evalBudget struct{ used, limit int }

func (b *evalBudget) exhausted() bool { return b != nil && b.limit > 0 && b.used >= b.limit }

// errNoFiniteIterate is solve's error when no candidate has a finite
// Frank–Wolfe gap: the objective's values or gradients (or their squares)
// overflow float64 on the ball, so no point can be certified.
var errNoFiniteIterate = errors.New("scenarios: the F* minimization found no point of W where the objective's value and gradient are finite (its gradient's squared norm overflows float64); rescale the data (e.g. standardize each column)")

// solve minimizes f over the ball from w0 and returns a feasible w with
// its certified gap f(w) − min f ≤ gap; it aims at gap ≤ tol and stops
// early (with an honest, larger gap) when the budget runs out. When no
// candidate has a finite gap it returns errNoFiniteIterate, never a nil w.
//
// Method: the KKT conditions are ∇f(w) + νw = 0 with ν ≥ 0 and ν = 0 or
// ‖w‖ = R. w(ν) = argmin f + (ν/2)‖·‖² (found by lbfgs) has ‖w(ν)‖
// decreasing in ν, ‖w(ν)‖ ≤ ‖∇f(0)‖/ν, and ψ(ν) = 1/‖w(ν)‖ − 1/R is nearly
// linear (as in Moré–Sorensen's trust-region solver), so ν is found by the
// Illinois regula falsi on a bracket: [0, ‖∇f(0)‖/R] from scratch, or
// grown geometrically around the previous multiplier. Every candidate is
// projected onto the ball and certified by its Frank–Wolfe gap; the best
// is kept.
func (b *ballSolver) solve(f smoothFunc, w0 []float64, tol float64) (w []float64, gap float64, err error) {
	radius := b.radius
	d := len(w0)
	// For an interior point, gap ≤ ‖∇f‖(‖w‖ + R) ≤ 2R‖∇f‖.
	gtol := tol / (4 * radius)
	psi := func(w []float64) float64 { return 1/math.Sqrt(sqnorm(w)) - 1/radius }
	type point struct {
		nu, psi float64
		w       []float64
	}
	best, bestGap, bestNu := []float64(nil), math.Inf(1), 0.0
	consider := func(w []float64, nu float64) bool {
		c := append([]float64(nil), w...)
		projectBall(c, radius)
		if g, _ := fwGap(f, c, radius); g < bestGap {
			best, bestGap, bestNu = c, g, nu
		}
		return bestGap <= tol || b.budget.exhausted()
	}
	at := func(nu float64, warm []float64) (point, error) {
		w, err := lbfgs(b.ctx, f, nu, warm, gtol, b.budget)
		if err != nil {
			return point{}, err
		}
		return point{nu, psi(w), w}, nil
	}
	finish := func() ([]float64, float64, error) {
		if best == nil {
			// Every candidate's gap was NaN: f or ∇f overflows on the ball.
			return nil, 0, errNoFiniteIterate
		}
		b.nu = bestNu
		return best, bestGap, nil
	}

	var lo, hi point
	if b.nu > 0 {
		// Grow a bracket around the previous multiplier.
		p, err := at(b.nu, w0)
		if err != nil {
			return nil, 0, err
		}
		if consider(p.w, p.nu) {
			return finish()
		}
		if p.psi < 0 {
			lo, hi = p, point{}
			for nu := 2 * p.nu; ; nu *= 2 {
				q, err := at(nu, lo.w)
				if err != nil {
					return nil, 0, err
				}
				if consider(q.w, q.nu) {
					return finish()
				}
				if q.psi >= 0 {
					hi = q
					break
				}
				lo = q
			}
		} else {
			hi = p
			q, err := at(p.nu/4, p.w)
			if err != nil {
				return nil, 0, err
			}
			if consider(q.w, q.nu) {
				return finish()
			}
			if q.psi < 0 {
				lo = q
			} else if q, err = at(0, q.w); err != nil {
				return nil, 0, err
			} else if consider(q.w, 0) || q.psi >= 0 {
				return finish() // interior solution
			} else {
				lo = q
			}
		}
	} else {
		p, err := at(0, w0)
		if err != nil {
			return nil, 0, err
		}
		if consider(p.w, 0) || p.psi >= 0 {
			return finish() // interior solution
		}
		lo = p
		g0 := make([]float64, d)
		f(make([]float64, d), g0)
		start := append([]float64(nil), p.w...)
		projectBall(start, radius)
		if hi, err = at(math.Sqrt(sqnorm(g0))/radius*1.01+1e-300, start); err != nil {
			return nil, 0, err
		}
		if consider(hi.w, hi.nu) || hi.psi < 0 { // hi.psi < 0 cannot happen for convex f
			return finish()
		}
	}
	// Illinois false position: the ψ value of an endpoint retained twice
	// in a row is halved.
	fLo, fHi := lo.psi, hi.psi
	side := 0
	for range 100 {
		nu := (lo.nu*fHi - hi.nu*fLo) / (fHi - fLo)
		if !(nu > lo.nu && nu < hi.nu) {
			nu = (lo.nu + hi.nu) / 2
		}
		if nu <= lo.nu || nu >= hi.nu {
			break // the bracket is exhausted in floating point
		}
		warm := lo.w
		if math.Abs(hi.psi) < math.Abs(lo.psi) {
			warm = hi.w
		}
		p, err := at(nu, warm)
		if err != nil {
			return nil, 0, err
		}
		if consider(p.w, p.nu) {
			break
		}
		if p.psi < 0 {
			lo, fLo = p, p.psi
			if side == -1 {
				fHi /= 2
			}
			side = -1
		} else {
			hi, fHi = p, p.psi
			if side == 1 {
				fLo /= 2
			}
			side = 1
		}
	}
	return finish()
}
