package accountant

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
)

// CalibrateTol is the relative width at which [Calibrate] stops: the
// returned σ meets the target and σ/(1 + CalibrateTol) does not (up to the
// accountant's own monotonicity in σ).
const CalibrateTol = 1e-4

// MaxSigma is the largest noise multiplier [Calibrate] tries.
const MaxSigma = 1e6

// coarseH is the PLD grid of Calibrate's first stage.
const coarseH = 1e-3

// mediumH is the second grid of the Richardson extrapolation that guesses
// where the default grid meets the target (see [CalibrateContext]).
const mediumH = 5e-4

// Calibrate is the smallest noise multiplier σ (to relative precision
// [CalibrateTol]) for which T steps of the Poisson-subsampled Gaussian
// mechanism with rate q meet (ε', δ) under the adjacency adj by the
// accountant k with its default settings ([Epsilon]). Bisection on ln σ keeps the invariant
// ε'(σ_hi) ≤ target and returns σ_hi, so the result never overshoots the
// target, whatever the accountant's small non-monotonicities. For PLD the
// bisection runs on a grid ten times coarser (h = 10⁻³, ten times faster),
// and its answer is then checked on the default grid (h = 10⁻⁴): it must meet
// the target there and σ/(1 + tol) must not, else the bisection continues on
// the default grid. Where a grid passes the cap, [composedPLD] widens it, so
// both stages may end on a coarser grid than these (still pessimistic).
// PLD refuses, with [ErrGridTooLarge], a target whose RDP-calibrated σ
// already has a PLD grid past the cap, or whose answer lies just above a σ
// whose grid could not be computed; the RDP accountant answers both.
// Results are cached: the same question from every trial of a sweep costs
// one calibration.
func Calibrate(k Kind, adj Adjacency, q float64, steps int, epsPrime, delta float64) (float64, error) {
	return CalibrateContext(context.Background(), k, adj, q, steps, epsPrime, delta)
}

// ErrNoSigma is Calibrate's answer when no noise multiplier up to
// [MaxSigma] meets the target.
var ErrNoSigma = errors.New("no noise multiplier up to 10⁶ meets the target")

// CalibrateContext is Calibrate, cancelled by ctx: it returns ctx's error
// once ctx is done, within one evaluation of the RDP accountant or one
// stage of a PLD one (4096 grid points, one FFT). It fails
// fast, with [ErrNoSigma], when the target is missed at σ = [MaxSigma]
// (the bisection would otherwise double σ up to it first).
//
// The bisections are the ones described at [Calibrate], and their answer
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
// [maxGuessEvals] evaluations stops guessing.
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
	c := &calibration{ctx: ctx, k: k, adj: adj, q: q, steps: steps, target: epsPrime, delta: delta}
	c.scratch.ctx = ctx
	sigma, err := c.solve()
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
				q.probs = slices.Clone(p.probs)
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
	var s0, hintAt, hint float64
	settled := false // s0 is the coarse bisection's answer on evaluated and implied points
	fine.hint = func() float64 {
		if !settled {
			return s0 // a placeholder while the coarse stage still guesses
		}
		if s0 != hintAt {
			hintAt, hint = s0, c.fineGuess(coarse, s0)
		}
		return hint
	}
	fine.priorSlope = coarse.slope
	return replay(func() (float64, error) {
		var err error
		if s0, err = bisectSigma(coarse.meets, 1, 2, CalibrateTol); err != nil {
			return 0, err
		}
		settled = coarse.guesses == 0
		return refineSigma(s0, fine.meets)
	}, coarse, fine)
}

// fineGuess is the guess of where the default grid meets the target,
// from the coarse answer s0: ε' at s0 on the coarse grid and on the grid
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
