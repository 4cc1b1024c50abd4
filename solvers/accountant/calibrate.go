package accountant

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"sync"
)

// CalibrateTol is the relative width at which [CalibrateContext]'s bisections
// stop: the σ a bisection returns meets the target and σ/(1 + CalibrateTol)
// does not (up to the accountant's own monotonicity in σ).
const CalibrateTol = 1e-4

// PredictMargin is how far above its prediction of where the default PLD
// grid meets the target [CalibrateContext] evaluates that grid (relative). Over
// 98 settings of dp-sgd's range (q from 6.4·10⁻⁵ to 1, T from 4 to
// 19 532, ε' from 0.3 to 10, δ from 10⁻⁹ to 10⁻⁵, both adjacencies) the
// prediction from two coarse evaluations fell within 4.3·10⁻⁴ below and
// 1.1·10⁻⁵ above the default grid's bisection answer where it was taken
// (73 settings; the others are refused by its convergence check, mostly
// at ε' = 0.5), and the prediction from the coarse bisection's answer
// within 3·10⁻⁴ below and 10⁻⁴ above it, except at ε' = 0.5 and T ≥ 7813
// (2–5·10⁻³ below, where that evaluation misses and the bisection runs):
// 10⁻³ is over twice the largest error below, and raises σ by about 0.1%
// over the bisection's answer where a prediction is taken
// (TestCalibrationFastPathIsNearThePlainBisection).
const PredictMargin = 1e-3

// PredictMarginWords is how an output says how far above the smallest
// noise multiplier a PLD calibration may land: "an estimated 0.1%". The
// σ returned is certified to meet the target (evaluated on the default
// grid); that it lies within PredictMargin of the smallest rests on the
// prediction's measured error (above), not on a proof, hence "estimated".
func PredictMarginWords() string {
	return "an estimated " + strconv.FormatFloat(100*PredictMargin, 'g', 2, 64) + "%"
}

// MaxSigma is the largest noise multiplier [CalibrateContext] tries.
const MaxSigma = 1e6

// coarseH is the PLD grid of CalibrateContext's first stage.
const coarseH = 1e-3

// mediumH is the second grid of the Richardson extrapolation that guesses
// where the default grid meets the target (see [CalibrateContext]).
const mediumH = 5e-4

// ErrNoSigma is CalibrateContext's answer when no noise multiplier up to
// [MaxSigma] meets the target.
var ErrNoSigma = errors.New("no noise multiplier up to 10⁶ meets the target")

// CalibrateContext is the smallest noise multiplier σ (to relative precision
// [CalibrateTol]) for which T steps of the Poisson-subsampled Gaussian
// mechanism with rate q meet (ε', δ) under the adjacency adj by the
// accountant k with its default settings ([Epsilon]), or, for PLD, a σ
// at most [PredictMargin] above a prediction of it. Every σ returned was
// evaluated by that accountant on its default grid and meets the target:
// the result never overshoots the target. For RDP it is the bisection on
// ln σ, which keeps the invariant ε'(σ_hi) ≤ target and returns σ_hi. For
// PLD, the default grid (h = 10⁻⁴) is first evaluated at σ₁ =
// (1 + PredictMargin)·σ̂, σ̂ its prediction from two evaluations of a grid
// ten times coarser (h = 10⁻³, ten times faster) and one of h = 5·10⁻⁴
// (see [calibration.fastPath]), never above a σ that met the target on the
// coarse grid: where it meets the target, σ₁ is the answer (one
// evaluation of the default grid; about 0.1% above the bisection's
// answer). Else the bisection runs on the coarse grid, giving σ₀, the
// same prediction from σ₀ is tried (never above σ₀), and where that
// misses too, the bisection continues on the default grid, from σ₀, to
// its own answer.
// Where a grid passes the cap, [composedPLD] widens it, so both stages may
// end on a coarser grid than these (still pessimistic).
// PLD refuses, with [ErrGridTooLarge], a target whose RDP-calibrated σ
// already has a PLD grid past the cap, or whose answer lies just above a σ
// whose grid could not be computed; the RDP accountant answers both.
// Results are cached: the same question from every trial of a sweep costs
// one calibration.
//
// It is cancelled by ctx: it returns ctx's error once ctx is done, within one evaluation of the RDP accountant or one
// stage of a PLD one (4096 grid points, one FFT). It fails
// fast, with [ErrNoSigma], when the target is missed at σ = [MaxSigma]
// (the bisection would otherwise double σ up to it first).
//
// The bisections are the ones described above, and their answer
// is theirs; what is evaluated is not every point they visit. Each
// accountant (RDP; PLD on the coarse grid; PLD on the default grid) is a
// [probe]: a question whose answer is implied by monotonicity in σ (above
// an evaluated σ that meets the target, or below one that misses it) is not
// evaluated, and one that is not implied is first answered by a guess from
// a local model of ln ε' in ln σ (the secant through the evaluated points,
// and for the default grid a Richardson extrapolation in h² from the coarse
// grid and a grid of h = 5·10⁻⁴ at the coarse answer). A bisection run on
// guesses ends on its last bracket; the guesses nearest the model's
// threshold, which that bracket's ends are, are then evaluated, and the
// bisection is run again, until it runs on evaluated and implied answers
// only. With an accurate model that is two evaluations per stage, against
// about fifteen; the answer is the one that evaluating every point gives
// wherever the accountant is monotone in σ, and the returned σ is always
// one that was evaluated and met the target. A probe that needs more than
// [maxGuessEvals] evaluations stops guessing. The same extrapolation is
// PLD's fast path: the default grid is evaluated first at the guess raised
// by [PredictMargin] (never above a σ that met the target on the coarse
// grid), which, where it meets the target, is the answer without a
// bisection on that grid; where it misses, the default grid's bisection
// runs, that point one of its model's ([calibration.fastPath]).
func CalibrateContext(ctx context.Context, k Kind, adj Adjacency, q float64, steps int, epsPrime, delta float64) (float64, error) {
	if !(epsPrime > 0) || math.IsInf(epsPrime, 1) {
		return math.NaN(), fmt.Errorf("target ε' = %g; want a finite ε' > 0", epsPrime)
	}
	if err := checkDelta(delta); err != nil {
		return math.NaN(), err
	}
	if err := (Mechanism{Sigma: 1, Q: q, Steps: steps, Adjacency: adj}).check(); err != nil {
		return math.NaN(), err
	}
	if k != PLD && k != RDP {
		return math.NaN(), fmt.Errorf("unknown accountant %v", k)
	}
	if q == 0 {
		return 0, nil
	}
	r, err := calibrate(ctx, k, adj, q, steps, epsPrime, delta)
	return r.sigma, err
}

// calResult is a calibration's answer and the slope d ln ε'/d ln σ its
// accountant had there (a prior for another accountant's search).
type calResult struct{ sigma, slope float64 }

// calibrate is CalibrateContext on checked arguments, q > 0.
func calibrate(ctx context.Context, k Kind, adj Adjacency, q float64, steps int, epsPrime, delta float64) (calResult, error) {
	key := calKey{k, adj, q, steps, epsPrime, delta}
	if v, ok := calCache.Load(key); ok {
		return v.(calResult), nil
	}
	c := newCalibration(ctx, k, adj, q, steps, epsPrime, delta)
	c.scratch.ctx = ctx
	sigma, err := c.solve()
	if k == PLD {
		// The scratch (about 20 MB of grids and FFT buffers at dp-sgd's
		// defaults) is released and collected at once, so that what the
		// caller allocates next (a run's dataset) reuses its pages instead
		// of faulting in fresh ones: one collection of a heap of a few
		// pointers, against some 2000 page faults (the whole dp-sgd
		// process at n = 10⁵: 10% less CPU, peak memory 53 → 45 MB).
		c.scratch = pldScratch{}
		runtime.GC()
	}
	if ctx.Err() != nil {
		return calResult{sigma: math.NaN()}, ctx.Err()
	}
	if err == nil && c.gridMiss >= sigma/(1+CalibrateTol)*(1-1e-9) {
		// The σ just below the answer was counted as missing only because
		// its grid could not be computed: the answer is not known to be
		// the smallest σ that meets the target.
		err = fmt.Errorf("%w: just below σ = %.6g the PLD grid passes its cap, so the smallest σ that meets the target is not known", ErrGridTooLarge, sigma)
	}
	if err != nil {
		return calResult{sigma: math.NaN()}, &CalibrationError{Q: q, Steps: steps, Eps: epsPrime, Delta: delta, Adjacency: adj, Err: err}
	}
	if c.kept != nil && c.kept.s == sigma {
		storeComposed(c.mech(sigma), PLDOptions{}.withDefaults(), c.kept.used, c.kept.ps)
	}
	r := calResult{sigma: sigma, slope: c.slope}
	calCache.Store(key, r)
	return r, nil
}

// calibration is one question of CalibrateContext.
type calibration struct {
	ctx           context.Context
	k             Kind
	adj           Adjacency
	q             float64
	steps         int
	target, delta float64
	// gridMiss is the largest σ whose PLD grid was too large to compute.
	gridMiss float64
	// slope is the final probe's d ln ε'/d ln σ.
	slope float64
	// scratch is the PLD computations' working memory; kept is the
	// default grid's composed distribution at the smallest σ evaluated
	// that meets the target (the answer's, which the caller's accounting
	// then reads from composedCache).
	scratch pldScratch
	kept    *keptPLD
	// fine and coarse are the probes of the default grid (or of RDP) and
	// of the coarse grid; plain makes them evaluate every point the
	// bisections visit (the bisections as written, without guesses).
	fine, coarse *probe
	plain        bool
	// margin is the fast path's PredictMargin (a negative one makes the
	// prediction miss, to test the bisection after it; plain turns the
	// fast path off).
	margin float64
}

// newCalibration is a calibration of ε' = target at δ = delta, with the
// fast path at PredictMargin.
func newCalibration(ctx context.Context, k Kind, adj Adjacency, q float64, steps int, target, delta float64) *calibration {
	return &calibration{ctx: ctx, k: k, adj: adj, q: q, steps: steps, target: target, delta: delta, margin: PredictMargin}
}

type keptPLD struct {
	s    float64
	used PLDOptions
	ps   []*pmf
}

func (c *calibration) mech(s float64) Mechanism {
	return Mechanism{Sigma: s, Q: c.q, Steps: c.steps, Adjacency: c.adj}
}

// epsAt returns the exact evaluation of ε'(σ) by the calibration's
// accountant (for PLD on the grid h; 0: the default). A σ whose PLD grid
// cannot be computed is counted as missing the target (ε' = +Inf), which
// can only make the answer larger, never overshooting; if it decided the
// answer, the answer is not the smallest σ and CalibrateContext says so.
func (c *calibration) epsAt(h float64) func(s float64) (float64, error) {
	return func(s float64) (float64, error) {
		if err := c.ctx.Err(); err != nil {
			return 0, err
		}
		if c.k == RDP {
			e, _, err := RDPEpsilon(c.mech(s), c.delta, nil)
			if err == nil {
				observeStep(c.ctx, c.k, s, e <= c.target)
			}
			return e, err
		}
		// PLDEpsilon's computation (the mechanism and δ are valid and not
		// trivial: q > 0, 0 < σ ≤ MaxSigma), in the calibration's memory.
		// Under add/remove, a direction whose ε' already misses the target
		// decides the answer (ε' is the maximum over the two): the other
		// is not composed (remove comes first, the larger ε' at dp-sgd's
		// settings, and the shorter FFT). Its ε' is then a lower bound on
		// the maximum, still above the target, which is all the probe's
		// model asks of a point that misses.
		ps, used, err := composedPLDWith(c.mech(s), PLDOptions{Discretization: h}.withDefaults(), &c.scratch,
			func(p *pmf) bool { return p.epsForDelta(c.delta) > c.target })
		if errors.Is(err, ErrGridTooLarge) {
			c.gridMiss = math.Max(c.gridMiss, s)
			observeStep(c.ctx, c.k, s, false)
			return math.Inf(1), nil
		}
		if err != nil {
			return math.NaN(), err
		}
		var e float64
		for _, p := range ps {
			e = math.Max(e, p.epsForDelta(c.delta))
		}
		observeStep(c.ctx, c.k, s, e <= c.target)
		if h == 0 && e <= c.target && (c.kept == nil || s < c.kept.s) {
			k := &keptPLD{s: s, used: used}
			for _, p := range ps {
				q := *p
				q.probs = c.scratch.take(p.probs)
				k.ps = append(k.ps, &q)
			}
			c.kept = k
		}
		return e, nil
	}
}

// solve runs the bisections of Calibrate on the calibration's probes.
func (c *calibration) solve() (float64, error) {
	fine := newProbe(c.epsAt(0), c.target)
	c.fine, fine.exactly = fine, c.plain
	// One evaluation at σ = MaxSigma first: a target missed there is
	// refused at once. Not a point of the model (far from any answer).
	if ok, err := fine.exact(MaxSigma, false); err == nil && !ok && c.gridMiss == 0 {
		return 0, ErrNoSigma
	}
	defer func() { c.slope = fine.slope() }()
	if c.k == RDP {
		return replay(func() (float64, error) { return bisectSigma(fine.meets, 1, 2, CalibrateTol) }, fine)
	}
	// Fail fast where PLD's grid cannot be computed at RDP's σ: the RDP
	// accountant (always computable) already meets the target there, and
	// is the way out the refusal names. This is a choice, not a proof that
	// PLD could not meet the target at some other σ: whether a grid fits is
	// not monotone in σ (the composition's window and FFT length move in
	// steps), and a widened PLD grid can be looser than RDP at very large
	// T. It saves the bisection the minutes it would spend at grids near
	// the cap (target ε' = 10⁹: 29 s of CPU before a refusal). (Where RDP
	// itself finds no σ, PLD bisects on its own.)
	coarse := newProbe(c.epsAt(coarseH), c.target)
	c.coarse, coarse.exactly = coarse, c.plain
	if r, err := calibrate(c.ctx, RDP, c.adj, c.q, c.steps, c.target, c.delta); err == nil {
		if !pldComputable(c.mech(r.sigma), PLDOptions{}) {
			return 0, fmt.Errorf("%w: at σ = %.6g, the noise multiplier the RDP accountant calibrates to this target, the PLD grid passes its cap", ErrGridTooLarge, r.sigma)
		}
		// PLD is the tighter accountant: its σ lies below RDP's (by about
		// 6% at dp-sgd's defaults), along a similar slope.
		coarse.hint = func() float64 { return r.sigma * 0.94 }
		coarse.priorSlope = func() float64 { return r.slope }
	} else if c.ctx.Err() != nil {
		return 0, c.ctx.Err()
	}
	fine.priorSlope = coarse.slope
	if !c.plain {
		if s, ok, err := c.fastPath(coarse, fine); err != nil || ok {
			return s, err
		}
	}
	s0, err := replay(func() (float64, error) { return bisectSigma(coarse.meets, 1, 2, CalibrateTol) }, coarse)
	if err != nil {
		return 0, err
	}
	guess := math.NaN()
	if !c.plain {
		guess = c.fineGuess(coarse, s0)
	}
	fine.hint = func() float64 { return guess }
	// The fast path's second chance, from the coarse answer s0: a margin
	// above the prediction there, never above s0. Where it misses, it is
	// a point of the bisection's model.
	if s1 := math.Min(s0, guess*(1+c.margin)); s1 > 0 {
		ok, known := fine.implied(s1)
		if !known {
			if ok, err = fine.exact(s1, true); err != nil {
				return 0, err
			}
		}
		if ok {
			return s1, nil
		}
	}
	return replay(func() (float64, error) { return refineSigma(s0, fine.meets) }, fine)
}

// fastPath is PLD's answer from one evaluation of the default grid, where
// it meets the target (ok): two evaluations of the coarse grid, at the
// coarse model's threshold (from RDP's answer, see solve) and at its
// secant's, give the default grid's predicted σ̂ ([calibration.fineGuess]
// at the second); the default grid is evaluated at (1 + margin)·σ̂, but
// never above a σ that met the target on the coarse grid (the coarser
// grid is the more pessimistic). Where it misses, that point stays in the
// default grid's model, the coarse points in the coarse grid's, and the
// bisections run.
func (c *calibration) fastPath(coarse, fine *probe) (s float64, ok bool, err error) {
	var at, e float64
	for range 2 {
		th := coarse.threshold()
		if !(th > 0) || th > MaxSigma {
			return 0, false, nil
		}
		if e, err = coarse.exactValue(th); err != nil {
			return 0, false, err
		}
		at = th
	}
	// The extrapolation is taken only from a coarse ε' within 1% of the
	// target (the secant has converged): it then moves σ by about 0.3%
	// at most along the coarse grid's slope.
	if !(math.Abs(math.Log(e/c.target)) <= 0.01) {
		return 0, false, nil
	}
	s = c.fineGuess(coarse, at) * (1 + c.margin)
	for _, q := range coarse.pts {
		if q.ok && q.s < s {
			s = q.s
		}
	}
	if !(s > 0) || s > MaxSigma || c.ctx.Err() != nil {
		return 0, false, c.ctx.Err()
	}
	ok, err = fine.exact(s, true)
	return s, ok, err
}

// fineGuess is the guess of where the default grid meets the target,
// from a σ s0 near the coarse grid's: ε' at s0 on the coarse grid and on the grid
// mediumH, extrapolated to the default grid as ε'(h) ≈ ε'₀ + c·h² (the
// connect-the-dots error is second order in h), then moved along the
// coarse grid's slope in ln σ. NaN when it cannot be had.
func (c *calibration) fineGuess(coarse *probe, s0 float64) float64 {
	ec, err := coarse.exactValue(s0)
	if err != nil || !(ec > 0) || math.IsInf(ec, 1) {
		return math.NaN()
	}
	em, err := c.epsAt(mediumH)(s0)
	if err != nil || !(em > 0) || math.IsInf(em, 1) {
		return math.NaN()
	}
	h := PLDOptions{}.withDefaults().Discretization
	ef := em - (ec-em)*(mediumH*mediumH-h*h)/(coarseH*coarseH-mediumH*mediumH)
	slope := coarse.slope()
	if !(ef > 0) || !(slope < 0) {
		return math.NaN()
	}
	return s0 * math.Exp((math.Log(c.target)-math.Log(ef))/slope)
}

// refineSigma is the PLD calibration's second stage from the coarse
// answer s0: the answer checked on the fine grid, s0 meeting the target
// and s0/(1 + tol) not, with a fine bisection only where they disagree
// (the coarse grid is the more pessimistic, so usually they agree).
func refineSigma(s0 float64, fine func(float64) (bool, error)) (float64, error) {
	ok, err := fine(s0)
	if err != nil || !ok {
		return bisectSigmaErr(fine, s0, err)
	}
	below := s0 / (1 + CalibrateTol)
	if ok, err = fine(below); err != nil || ok {
		return bisectSigmaErr(fine, below, err)
	}
	return s0, nil
}

func bisectSigmaErr(fine func(float64) (bool, error), start float64, err error) (float64, error) {
	if err != nil {
		return 0, err
	}
	return bisectSigma(fine, start, 1.02, CalibrateTol)
}

// bisectSigma returns σ_hi with meets(σ_hi) and !meets(σ_hi/(1+tol)) by
// a geometric search from start (steps ×/÷ grow) and bisection on ln σ.
func bisectSigma(meets func(float64) (bool, error), start, grow, tol float64) (float64, error) {
	hi := start
	ok, err := meets(hi)
	if err != nil {
		return 0, err
	}
	for !ok {
		hi *= grow
		if hi > MaxSigma {
			return 0, ErrNoSigma
		}
		if ok, err = meets(hi); err != nil {
			return 0, err
		}
	}
	lo := hi / grow
	for {
		ok, err := meets(lo)
		if err != nil {
			return 0, err
		}
		if !ok {
			break
		}
		hi, lo = lo, lo/grow
		if lo < 1e-6 {
			return hi, nil
		}
	}
	for hi/lo-1 > tol {
		mid := math.Sqrt(lo * hi)
		ok, err := meets(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}

// CalibrationError is a calibration that failed, with its question (a
// caller that formats numbers its own way rebuilds the message from the
// fields).
type CalibrationError struct {
	Q          float64
	Steps      int
	Eps, Delta float64
	Adjacency  Adjacency
	Err        error
}

func (e *CalibrationError) Error() string {
	return fmt.Sprintf("%v (q = %g, T = %d, (ε', δ) = (%g, %g), %v)", e.Err, e.Q, e.Steps, e.Eps, e.Delta, e.Adjacency)
}

func (e *CalibrationError) Unwrap() error { return e.Err }

type calKey struct {
	k        Kind
	adj      Adjacency
	q        float64
	steps    int
	eps, del float64
}

var calCache sync.Map
