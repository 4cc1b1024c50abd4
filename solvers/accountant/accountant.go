package accountant

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
)

// Kind is an accountant: RDP or PLD.
type Kind int

const (
	// PLD is the privacy-loss-distribution accountant (the tight one).
	PLD Kind = iota
	// RDP is the Rényi-DP accountant.
	RDP
)

// String is the accountant's name as used on flags and in JSON.
func (k Kind) String() string {
	switch k {
	case PLD:
		return "pld"
	case RDP:
		return "rdp"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ParseKind parses "rdp" or "pld".
func ParseKind(s string) (Kind, error) {
	switch s {
	case "pld":
		return PLD, nil
	case "rdp":
		return RDP, nil
	}
	return 0, fmt.Errorf("unknown accountant %q (want rdp or pld)", s)
}

// Adjacency is the neighbouring relation a privacy statement is about.
type Adjacency int

const (
	// ReplaceOne: datasets of the same size that differ in one record
	// (Hamming distance 1), the relation of Lowy & Razaviyayn's
	// definition of DP and of every zCDP statement in dpso. It is the zero
	// value.
	ReplaceOne Adjacency = iota
	// AddRemove: one dataset is the other with one record added or
	// removed, the relation of Opacus, TF Privacy and dp_accounting's
	// ADD_OR_REMOVE_ONE (the one their published DP-SGD figures use).
	AddRemove
)

// String is the relation's name as flags and JSON write it.
func (a Adjacency) String() string {
	switch a {
	case ReplaceOne:
		return "replace-one"
	case AddRemove:
		return "add-remove"
	}
	return fmt.Sprintf("Adjacency(%d)", int(a))
}

// ParseAdjacency parses "replace-one" or "add-remove".
func ParseAdjacency(s string) (Adjacency, error) {
	switch s {
	case "replace-one":
		return ReplaceOne, nil
	case "add-remove":
		return AddRemove, nil
	}
	return 0, fmt.Errorf("unknown adjacency %q (want replace-one or add-remove)", s)
}

// Mechanism is T steps of the Poisson-subsampled Gaussian mechanism: each
// step includes each sample independently with probability Q and adds
// N(0, Sigma²·C²) to the sum of the included samples' vectors, each of norm
// at most C (Sigma is the noise multiplier), accounted under Adjacency.
// Under AddRemove one record moves the sum by at most C; under ReplaceOne
// by at most 2C (g − g' with ‖g‖, ‖g'‖ ≤ C), and only in a step that
// samples its slot.
type Mechanism struct {
	Sigma     float64 // noise multiplier σ ≥ 0 (0: not private)
	Q         float64 // sampling rate q ∈ [0, 1]
	Steps     int     // T ≥ 1
	Adjacency Adjacency
}

// check validates m.
func (m Mechanism) check() error {
	switch {
	case math.IsNaN(m.Sigma) || m.Sigma < 0:
		return fmt.Errorf("noise multiplier σ = %g; want σ ≥ 0", m.Sigma)
	case math.IsNaN(m.Q) || m.Q < 0 || m.Q > 1:
		return fmt.Errorf("sampling rate q = %g; want q in [0, 1]", m.Q)
	case m.Steps < 1:
		return fmt.Errorf("steps T = %d; want T ≥ 1", m.Steps)
	case m.Adjacency != ReplaceOne && m.Adjacency != AddRemove:
		return fmt.Errorf("unknown adjacency %v", m.Adjacency)
	}
	return nil
}

// trivial reports the mechanisms whose (ε', δ) needs no accountant: q = 0 or
// σ = ∞ (nothing released about any sample: ε' = 0) and σ = 0 with q > 0
// (no noise: ε' = ∞).
func (m Mechanism) trivial() (eps float64, ok bool) {
	switch {
	case m.Q == 0 || math.IsInf(m.Sigma, 1):
		return 0, true
	case m.Sigma == 0:
		return math.Inf(1), true
	}
	return 0, false
}

// RDPEpsilon is ε' of m at δ by the RDP accountant on the given orders (nil:
// [DefaultOrders]), and the order that attains it.
func RDPEpsilon(m Mechanism, delta float64, orders []float64) (eps, order float64, err error) {
	if err := m.check(); err != nil {
		return math.NaN(), math.NaN(), err
	}
	if e, ok := m.trivial(); ok {
		return e, math.NaN(), checkDelta(delta)
	}
	if orders == nil {
		orders = DefaultOrders()
	}
	return EpsFromRDP(orders, ComposedRDP(m.Adjacency, m.Q, m.Sigma, m.Steps, orders), delta)
}

// RDPDelta is δ of m at ε' by the RDP accountant, and the order attaining it.
func RDPDelta(m Mechanism, epsPrime float64, orders []float64) (delta, order float64, err error) {
	if err := m.check(); err != nil {
		return math.NaN(), math.NaN(), err
	}
	if e, ok := m.trivial(); ok {
		if e == 0 {
			return 0, math.NaN(), nil
		}
		return 1, math.NaN(), nil
	}
	if orders == nil {
		orders = DefaultOrders()
	}
	return DeltaFromRDP(orders, ComposedRDP(m.Adjacency, m.Q, m.Sigma, m.Steps, orders), epsPrime)
}

func checkDelta(delta float64) error {
	if !(delta > 0 && delta < 1) {
		return fmt.Errorf("δ = %g; want δ in (0, 1)", delta)
	}
	return nil
}

// PLDOptions are the PLD accountant's numerical parameters; the zero value
// means dp_accounting's defaults.
type PLDOptions struct {
	// Discretization is the grid width h of the privacy loss (0: 10⁻⁴,
	// dp_accounting's value_discretization_interval).
	Discretization float64
	// LogMassTruncation is ln of the μ_upper mass left outside the
	// discretised x range of one step (0: −50, dp_accounting's
	// log_mass_truncation_bound); pessimistically it goes to +∞.
	LogMassTruncation float64
	// TailMassTruncation is the composed mass the FFT window may drop (0:
	// 10⁻¹⁵, dp_accounting's tail_mass_truncation); pessimistically it goes
	// to +∞.
	TailMassTruncation float64
}

func (o PLDOptions) withDefaults() PLDOptions {
	if o.Discretization == 0 {
		o.Discretization = 1e-4
	}
	if o.LogMassTruncation == 0 {
		o.LogMassTruncation = -50
	}
	if o.TailMassTruncation == 0 {
		o.TailMassTruncation = 1e-15
	}
	return o
}

func (o PLDOptions) check() error {
	switch {
	case !(o.Discretization > 0) || math.IsInf(o.Discretization, 1):
		return fmt.Errorf("discretisation h = %g; want h > 0", o.Discretization)
	case !(o.LogMassTruncation < 0):
		return fmt.Errorf("log mass truncation = %g; want < 0", o.LogMassTruncation)
	case !(o.TailMassTruncation > 0 && o.TailMassTruncation < 1):
		return fmt.Errorf("tail mass truncation = %g; want in (0, 1)", o.TailMassTruncation)
	}
	return nil
}

// composedPLD is m's composed pessimistic privacy loss distribution: under
// add/remove in both directions (one when q = 1, where they coincide),
// under replace-one of its one symmetric pair; with the options that made
// it; o (zero fields: the defaults) is checked first.
//
// Where the grid of width h would pass the caps ([maxGrid] points for one
// step, [maxFFTLen] for the composition: a privacy loss spanning a wide
// range, as at a small σ or a large target ε'), the grid is widened
// tenfold, up to [maxDiscretization], before giving up with
// [ErrGridTooLarge]: a coarser connect-the-dots grid is still pessimistic
// (every δ(ε') it gives is an upper bound), only less tight, and
// [PLDBounds] reports the error of the grid actually used (the returned
// options). This keeps one computation within about 200 MB and seconds;
// at dpso's own settings (ε' ≈ 4, T ≤ 4000) the default grid is 14 times
// below the caps.
func composedPLD(m Mechanism, o PLDOptions) ([]*pmf, PLDOptions, error) {
	o = o.withDefaults()
	if err := o.check(); err != nil {
		return nil, o, err
	}
	for {
		out, err := composedPLDAt(m, o)
		if !errors.Is(err, ErrGridTooLarge) || o.Discretization*10 > maxDiscretization {
			return out, o, err
		}
		o.Discretization *= 10
	}
}

// maxDiscretization is the widest PLD grid [composedPLD] widens to.
const maxDiscretization = 0.1

func composedPLDAt(m Mechanism, o PLDOptions) ([]*pmf, error) {
	adjs := []adjacency{remove, add}
	switch {
	case m.Adjacency == ReplaceOne:
		adjs = []adjacency{replace}
	case m.Q == 1:
		adjs = adjs[:1]
	}
	out := make([]*pmf, 0, 2)
	for _, a := range adjs {
		p, err := newSGLoss(m.Sigma, m.Q, a).connectDots(o.Discretization, o.LogMassTruncation)
		if err != nil {
			return nil, err
		}
		if p, err = p.selfCompose(m.Steps, o.TailMassTruncation); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// PLDEpsilon is ε' of m at δ by the PLD accountant with pessimistic
// (connect-the-dots) discretisation: the smallest ε' whose composed
// hockey-stick divergence is at most δ, under add/remove the maximum over
// its two directions. It is an upper bound on m's exact ε'(δ).
func PLDEpsilon(m Mechanism, delta float64, o PLDOptions) (float64, error) {
	if err := m.check(); err != nil {
		return math.NaN(), err
	}
	if err := checkDelta(delta); err != nil {
		return math.NaN(), err
	}
	if e, ok := m.trivial(); ok {
		return e, nil
	}
	ps, _, err := composedPLD(m, o)
	if err != nil {
		return math.NaN(), err
	}
	var eps float64
	for _, p := range ps {
		eps = math.Max(eps, p.epsForDelta(delta))
	}
	return eps, nil
}

// PLDBounds brackets m's exact ε'(δ): upper is [PLDEpsilon]; lower is a
// proved lower bound from the same composed distribution, so that
// lower ≤ exact ε' ≤ upper and upper − lower is a bound on the
// discretisation error of upper (of every cause: grid width h, truncation,
// FFT window).
//
// The lower bound: with the coupling documented at connectDots, the sum
// S_W of the T discretised step losses and the sum S_X of the exact ones
// satisfy S_W − S_X ≤ s = T·m_h + h√(T ln(1/η)/2) except on an event of
// probability at most η + T·e^{logMass} (Hoeffding's inequality for the
// centred bounded differences, and the truncated tails). As
// δ(ε) = E[(1 − e^{ε−S})₊] is monotone in S with values in [0, 1], this gives
// δ_exact(ε) ≥ δ_W(ε + s) − η − T e^{logMass}, and the computed distribution
// exceeds the ideal composition by at most 2τ (τ moved to +∞ plus at most τ
// wrapped around by the FFT). Hence, in each adjacency direction,
//
//	ε'_exact(δ) ≥ ε'_computed(δ + η + T e^{logMass} + 2τ) − s,
//
// maximised over η ∈ δ·{10⁻¹, 10⁻², …, 10⁻⁶}. The s term is the grid width
// times √T times a log factor: the bound is tight to O(h√(T ln(1/δ))).
func PLDBounds(m Mechanism, delta float64, o PLDOptions) (lower, upper float64, err error) {
	if err := m.check(); err != nil {
		return math.NaN(), math.NaN(), err
	}
	if err := checkDelta(delta); err != nil {
		return math.NaN(), math.NaN(), err
	}
	if e, ok := m.trivial(); ok {
		return e, e, nil
	}
	ps, o, err := composedPLD(m, o)
	if err != nil {
		return math.NaN(), math.NaN(), err
	}
	h, T := o.Discretization, float64(m.Steps)
	r := h / -math.Expm1(-h)
	mh := r - 1 - math.Log(r)
	slack := T*math.Exp(o.LogMassTruncation) + 2*o.TailMassTruncation
	for _, p := range ps {
		upper = math.Max(upper, p.epsForDelta(delta))
		best := 0.0
		for eta := delta / 10; eta >= delta*1e-6; eta /= 10 {
			s := T*mh + h*math.Sqrt(T*math.Log(1/eta)/2)
			d := delta + eta + slack
			if d >= 1 {
				continue
			}
			best = math.Max(best, p.epsForDelta(d)-s)
		}
		lower = math.Max(lower, best)
	}
	return math.Min(lower, upper), upper, nil
}

// PLDDelta is δ of m at ε' by the PLD accountant (pessimistic): the
// composed hockey-stick divergence, under add/remove the maximum over its
// two directions.
func PLDDelta(m Mechanism, epsPrime float64, o PLDOptions) (float64, error) {
	if err := m.check(); err != nil {
		return math.NaN(), err
	}
	if !(epsPrime >= 0) {
		return math.NaN(), fmt.Errorf("ε' = %g; want ε' ≥ 0", epsPrime)
	}
	if e, ok := m.trivial(); ok {
		if e == 0 {
			return 0, nil
		}
		return 1, nil
	}
	ps, _, err := composedPLD(m, o)
	if err != nil {
		return math.NaN(), err
	}
	var d float64
	for _, p := range ps {
		d = math.Max(d, p.deltaForEps(epsPrime))
	}
	return d, nil
}

// Epsilon is ε' of m at δ by the accountant k with its default settings
// (RDP on [DefaultOrders], PLD with h = 10⁻⁴): an upper bound on the exact
// ε'.
func Epsilon(k Kind, m Mechanism, delta float64) (float64, error) {
	switch k {
	case RDP:
		e, _, err := RDPEpsilon(m, delta, nil)
		return e, err
	case PLD:
		return PLDEpsilon(m, delta, PLDOptions{})
	}
	return math.NaN(), fmt.Errorf("unknown accountant %v", k)
}

// CalibrateTol is the relative width at which [Calibrate] stops: the
// returned σ meets the target and σ/(1 + CalibrateTol) does not (up to the
// accountant's own monotonicity in σ).
const CalibrateTol = 1e-4

// MaxSigma is the largest noise multiplier [Calibrate] tries.
const MaxSigma = 1e6

// coarseH is the PLD grid of Calibrate's first stage.
const coarseH = 1e-3

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
// at its next evaluation of the accountant once ctx is done. It fails
// fast, with [ErrNoSigma], when the target is missed at σ = [MaxSigma]
// (the bisection would otherwise double σ up to it first).
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
	key := calKey{k, adj, q, steps, epsPrime, delta}
	if v, ok := calCache.Load(key); ok {
		return v.(float64), nil
	}
	gridMiss := 0.0 // the largest σ whose PLD grid was too large to compute
	meets := func(h float64) func(s float64) (bool, error) {
		return func(s float64) (bool, error) {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			m := Mechanism{Sigma: s, Q: q, Steps: steps, Adjacency: adj}
			var e float64
			var err error
			if k == RDP {
				e, _, err = RDPEpsilon(m, delta, nil)
			} else {
				e, err = PLDEpsilon(m, delta, PLDOptions{Discretization: h})
			}
			if errors.Is(err, ErrGridTooLarge) {
				// Not computable at this σ: counted as missing the target,
				// which can only make the answer larger, never
				// overshooting; if it decided the answer, the answer is
				// not the smallest σ and Calibrate says so below.
				gridMiss = math.Max(gridMiss, s)
				observeStep(ctx, k, s, false)
				return false, nil
			}
			if err == nil {
				observeStep(ctx, k, s, e <= epsPrime)
			}
			return e <= epsPrime, err
		}
	}
	var sigma float64
	var err error
	if ok, merr := meets(0)(MaxSigma); merr == nil && !ok && gridMiss == 0 {
		err = ErrNoSigma
	} else if k == RDP {
		sigma, err = bisectSigma(meets(0), 1, 2, CalibrateTol)
	} else {
		// Fail fast where PLD's grid cannot be computed at RDP's σ: the
		// RDP accountant (always computable) already meets the target
		// there, and is the way out the refusal names. This is a choice,
		// not a proof that PLD could not meet the target at some other σ:
		// whether a grid fits is not monotone in σ (the composition's
		// window and FFT length move in steps), and a widened PLD grid
		// can be looser than RDP at very large T. It saves the bisection
		// the minutes it would spend at grids near the cap (target
		// ε' = 10⁹: 29 s of CPU before a refusal).
		// (Where RDP itself finds no σ, PLD bisects on its own.)
		if sr, rerr := CalibrateContext(ctx, RDP, adj, q, steps, epsPrime, delta); rerr == nil {
			if _, perr := PLDEpsilon(Mechanism{Sigma: sr, Q: q, Steps: steps, Adjacency: adj}, delta, PLDOptions{}); errors.Is(perr, ErrGridTooLarge) {
				err = fmt.Errorf("%w: at σ = %.6g, the noise multiplier the RDP accountant calibrates to this target, the PLD grid passes its cap", ErrGridTooLarge, sr)
			}
		}
		if err == nil {
			sigma, err = refineSigma(meets(coarseH), meets(0))
		}
	}
	if ctx.Err() != nil {
		return math.NaN(), ctx.Err()
	}
	if err == nil && gridMiss >= sigma/(1+CalibrateTol)*(1-1e-9) {
		// The σ just below the answer was counted as missing only because
		// its grid could not be computed: the answer is not known to be
		// the smallest σ that meets the target.
		err = fmt.Errorf("%w: just below σ = %.6g the PLD grid passes its cap, so the smallest σ that meets the target is not known", ErrGridTooLarge, sigma)
	}
	if err != nil {
		return math.NaN(), &CalibrationError{Q: q, Steps: steps, Eps: epsPrime, Delta: delta, Adjacency: adj, Err: err}
	}
	calCache.Store(key, sigma)
	return sigma, nil
}

// refineSigma is the PLD calibration: bisection on the coarse grid, then
// the answer checked on the fine one, σ_c meeting the target and
// σ_c/(1 + tol) not, with a fine bisection only where they disagree (the
// coarse grid is the more pessimistic, so usually they agree: two fine
// evaluations).
func refineSigma(coarse, fine func(float64) (bool, error)) (float64, error) {
	s0, err := bisectSigma(coarse, 1, 2, CalibrateTol)
	if err != nil {
		return 0, err
	}
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
