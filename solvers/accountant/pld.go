package accountant

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
)

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
//
// A distribution that a calibration composed for its answer is taken from
// [composedCache] instead of being composed again.
func composedPLD(m Mechanism, o PLDOptions) ([]*pmf, PLDOptions, error) {
	o = o.withDefaults()
	if err := o.check(); err != nil {
		return nil, o, err
	}
	if ps, used, ok := cachedComposed(m, o); ok {
		return ps, used, nil
	}
	return composedPLDWith(m, o, nil, nil)
}

// composedPLDWith is composedPLD on checked options, in the working memory
// s (nil: its own; else the distributions returned are s's, until its next
// use). Where stop (nil: none) reports true of a direction's distribution,
// the directions after it are not composed: the result holds the
// directions up to that one.
func composedPLDWith(m Mechanism, o PLDOptions, s *pldScratch, stop func(*pmf) bool) ([]*pmf, PLDOptions, error) {
	for {
		out, err := composedPLDAt(m, o, s, stop)
		if !errors.Is(err, ErrGridTooLarge) || o.Discretization*10 > maxDiscretization {
			return out, o, err
		}
		o.Discretization *= 10
	}
}

// composedCache holds the composed distributions of the latest
// calibrations' answers, keyed by mechanism and options (the run that
// calibrated σ then accounts σ: PLDBounds at the same mechanism). Two
// entries, a few megabytes each.
var composedCache struct {
	sync.Mutex
	entries [2]composedEntry
	next    int
}

type composedEntry struct {
	m    Mechanism
	o    PLDOptions // as asked, with defaults
	used PLDOptions // as composed (the grid widened where it had to be)
	ps   []*pmf
}

func cachedComposed(m Mechanism, o PLDOptions) ([]*pmf, PLDOptions, bool) {
	composedCache.Lock()
	defer composedCache.Unlock()
	for _, e := range composedCache.entries {
		if e.ps != nil && e.m == m && e.o == o {
			return e.ps, e.used, true
		}
	}
	return nil, o, false
}

func storeComposed(m Mechanism, o, used PLDOptions, ps []*pmf) {
	composedCache.Lock()
	defer composedCache.Unlock()
	composedCache.entries[composedCache.next] = composedEntry{m: m, o: o, used: used, ps: ps}
	composedCache.next = (composedCache.next + 1) % len(composedCache.entries)
}

// maxDiscretization is the widest PLD grid [composedPLD] widens to.
const maxDiscretization = 0.1

// pldAdjacencies are the directions composedPLD composes for m: under
// add/remove both (one when q = 1, where they coincide), under replace-one
// its one symmetric pair.
func pldAdjacencies(m Mechanism) []adjacency {
	switch {
	case m.Adjacency == ReplaceOne:
		return []adjacency{replace}
	case m.Q == 1:
		return []adjacency{remove}
	}
	return []adjacency{remove, add}
}

// pldComputable reports whether [composedPLD] computes m's distribution on
// some grid it widens to, rather than failing with [ErrGridTooLarge]: the
// one-step grids and the composition's FFT lengths only, without
// composing, from the widest grid down (the cheapest, and the one that
// fits first). A trivial mechanism needs no grid.
func pldComputable(m Mechanism, o PLDOptions) bool {
	if _, ok := m.trivial(); ok {
		return true
	}
	o = o.withDefaults()
	hs := []float64{o.Discretization}
	for h := o.Discretization; h*10 <= maxDiscretization; {
		h *= 10
		hs = append(hs, h)
	}
	for i := len(hs) - 1; i >= 0; i-- {
		fits := true
		for _, a := range pldAdjacencies(m) {
			p, err := newSGLoss(m.Sigma, m.Q, a).connectDots(hs[i], o.LogMassTruncation)
			if err == nil && m.Steps > 1 {
				_, _, L := composeWindow(p.probs, m.Steps, o.TailMassTruncation, nil)
				fits = L <= maxFFTLen
			}
			if err != nil || !fits {
				fits = false
				break
			}
		}
		if fits {
			return true
		}
	}
	return false
}

func composedPLDAt(m Mechanism, o PLDOptions, s *pldScratch, stop func(*pmf) bool) ([]*pmf, error) {
	out := make([]*pmf, 0, 2)
	for i, a := range pldAdjacencies(m) {
		p, err := newSGLoss(m.Sigma, m.Q, a).connectDotsIn(o.Discretization, o.LogMassTruncation, s)
		if err != nil {
			return nil, err
		}
		if p, err = p.selfComposeIn(m.Steps, o.TailMassTruncation, s, i); err != nil {
			return nil, err
		}
		if s != nil && m.Steps == 1 {
			p.probs = slices.Clone(p.probs) // not the next direction's buffer
		}
		out = append(out, p)
		if stop != nil && stop(p) {
			break
		}
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
