package ledger

import (
	"fmt"
	"math"
	"slices"
)

// Cost is the privacy cost of one mechanism for each sample it reads:
// ρ-zCDP (Gaussian oracles) and/or (ε, δ)-DP (shuffle oracles).
type Cost struct {
	Rho   float64 // zCDP ρ; +Inf for a mechanism that is not private
	Eps   float64 // approximate-DP ε (shuffle oracles); +Inf if not private
	Delta float64 // approximate-DP δ (shuffle oracles)
}

// Add is the basic composition of two costs: ρ's add (zCDP composition,
// Bun & Steinke 2016 Lemma 2.3, the paper's Lemma "composition"), and ε's
// and δ's add (basic composition of (ε, δ)-DP, Dwork & Roth 2014 Thm 3.16).
func (c Cost) Add(o Cost) Cost {
	return Cost{Rho: c.Rho + o.Rho, Eps: c.Eps + o.Eps, Delta: c.Delta + o.Delta}
}

// IsZero reports whether c costs nothing.
func (c Cost) IsZero() bool { return c == Cost{} }

// max is the component-wise maximum.
func (c Cost) max(o Cost) Cost {
	return Cost{Rho: math.Max(c.Rho, o.Rho), Eps: math.Max(c.Eps, o.Eps), Delta: math.Max(c.Delta, o.Delta)}
}

// Event is a mechanism accounted as a whole by a privacy accountant rather
// than call by call: DP-SGD's T steps of the Poisson-subsampled Gaussian
// mechanism, whose (ε, δ) no per-call zCDP sum describes (subsampling
// amplifies privacy only in the accountant's composition). [Ledger.Record]
// charges its (ε, δ) to every sample it may have read.
type Event struct {
	// Mechanism names it, e.g. "poisson-subsampled-gaussian".
	Mechanism string
	// Q is the Poisson sampling rate, Sigma the noise multiplier (noise
	// standard deviation over sensitivity), Steps the number of steps T.
	Q, Sigma float64
	Steps    int
	// Accountant is "pld" or "rdp".
	Accountant string
	// Adjacency is the neighbouring relation the accountant's (ε', δ)
	// is about: "replace-one" or "add-remove".
	Adjacency string
	// Eps, Delta: the mechanism is (Eps, Delta)-DP by the accountant (an
	// upper bound); EpsLower is a proved lower bound on its exact ε at
	// Delta when the accountant gives one (PLD), else NaN.
	Eps, Delta, EpsLower float64
	// PriorRho is the ρ of a zCDP release on the same rows made before the
	// steps and composed into Eps (dpso's private estimates of the
	// constants: accountant.AfterZCDPMechanismEpsilon), 0 for the steps
	// alone; EpsLower stays the steps' own (a lower bound on the two
	// composed too).
	PriorRho float64
}

type charge struct {
	lo, hi int // sample indices [lo, hi)
	cost   Cost
}

// Ledger accumulates per-sample privacy costs over index ranges of a
// dataset of N samples. The zero value is not usable; call [New].
//
// The per-sample cost of sample i is the composition (sum) of the costs of
// every charge whose range contains i; [Ledger.Spent] is its maximum over
// i, component-wise. Storage is one entry per distinct range, and two
// rules keep it small without changing any per-sample sum:
//   - a charge of the same range as the latest one adds to it (T passes of
//     a full-batch method cost one entry);
//   - two stored neighbouring ranges [a, b) and [b, c) of equal cost are
//     coalesced into [a, c) (n one-sample charges cost O(1) entries).
//
// When every charge lies at or after the end of all the ones before it (disjoint
// batches read in order, the schedule of every one-pass algorithm) or
// repeats the latest range, Spent is kept current in O(1) per charge.
// Otherwise Spent sweeps the stored ranges, O(m log m) for m entries, and
// caches the result until the next charge.
type Ledger struct {
	n       int
	charges []charge

	// ordered: the stored ranges are pairwise disjoint and sorted, so the
	// maximum per-sample cost is the maximum entry cost, kept in spent.
	ordered bool
	hiMax   int  // largest hi charged so far
	spent   Cost // current when !dirty
	dirty   bool
	events  []event // scratch for the sweep, reused
	records []Event
}

type event struct {
	at   int
	sign int // +1 arrival, −1 departure
	cost Cost
}

// New returns an empty ledger for a dataset of n samples.
func New(n int) *Ledger { return &Ledger{n: n, ordered: true} }

// Charge records that one mechanism with cost c read samples [lo, hi).
// It returns an error (and records nothing) for a range that is empty or
// not inside [0, N), or for a negative or NaN cost component (+Inf, a
// mechanism that is not private, is allowed).
func (l *Ledger) Charge(lo, hi int, c Cost) error {
	if lo < 0 || hi > l.n || lo >= hi {
		return fmt.Errorf("ledger: range [%d, %d) is not a non-empty part of [0, %d)", lo, hi, l.n)
	}
	if !(c.Rho >= 0) || !(c.Eps >= 0) || !(c.Delta >= 0) {
		return fmt.Errorf("ledger: invalid cost ρ = %g, ε = %g, δ = %g (each must be ≥ 0, +Inf allowed)", c.Rho, c.Eps, c.Delta)
	}
	k := len(l.charges) - 1
	if k >= 0 && l.charges[k].lo == lo && l.charges[k].hi == hi {
		l.charges[k].cost = l.charges[k].cost.Add(c)
		if l.ordered {
			// The latest range is disjoint from every other one.
			l.spent = l.spent.max(l.charges[k].cost)
		} else {
			l.dirty = true
		}
		return nil
	}
	// Coalesce the two latest entries if they are neighbours of equal
	// cost: every sample keeps the same sum of covering costs.
	if k >= 1 && l.charges[k-1].hi == l.charges[k].lo && l.charges[k-1].cost == l.charges[k].cost {
		l.charges[k-1].hi = l.charges[k].hi
		l.charges = l.charges[:k]
	}
	l.charges = append(l.charges, charge{lo, hi, c})
	if l.ordered && lo >= l.hiMax {
		l.spent = l.spent.max(c)
	} else {
		l.ordered = false
		l.dirty = true
	}
	l.hiMax = max(l.hiMax, hi)
	return nil
}

// Record charges an accounted mechanism's (Eps, Delta) to the samples
// [lo, hi) it may have read (all of them, for Poisson sampling) and keeps
// its description ([Ledger.Events]).
func (l *Ledger) Record(lo, hi int, e Event) error {
	if err := l.Charge(lo, hi, Cost{Eps: e.Eps, Delta: e.Delta}); err != nil {
		return err
	}
	l.records = append(l.records, e)
	return nil
}

// Events are the accounted mechanisms recorded, in order.
func (l *Ledger) Events() []Event { return append([]Event(nil), l.records...) }

// Spent is the maximum over samples of the composed cost, component-wise:
// Spent().Rho = max_i Σ_{charges covering i} ρ, and likewise for ε and δ.
// A component is +Inf when a sample was read by a mechanism that is not
// private. See [Ledger] for its cost.
func (l *Ledger) Spent() Cost {
	if !l.dirty {
		return l.spent
	}
	ev := l.events[:0]
	for _, c := range l.charges {
		ev = append(ev, event{c.lo, 1, c.cost}, event{c.hi, -1, c.cost})
	}
	// Every event at one position is applied before the sum is measured,
	// so [a, b) and [b, c) never count as overlapping.
	slices.SortFunc(ev, func(a, b event) int { return a.at - b.at })
	var cur, best sweepSum
	for i := 0; i < len(ev); {
		// Apply every event at this position, then measure.
		at := ev[i].at
		for ; i < len(ev) && ev[i].at == at; i++ {
			cur.add(ev[i].sign, ev[i].cost)
		}
		best.maxWith(cur)
	}
	l.events = ev
	l.spent, l.dirty = best.cost(), false
	return l.spent
}

// sweepSum is a running sum of costs in which +Inf terms are counted
// rather than added, so that removing one again never gives Inf − Inf =
// NaN.
type sweepSum struct {
	fin [3]float64
	inf [3]int
}

func (s *sweepSum) add(sign int, c Cost) {
	for k, v := range [3]float64{c.Rho, c.Eps, c.Delta} {
		if math.IsInf(v, 1) {
			s.inf[k] += sign
		} else {
			s.fin[k] += float64(sign) * v
		}
	}
}

func (s *sweepSum) value(k int) float64 {
	if s.inf[k] > 0 {
		return math.Inf(1)
	}
	return math.Max(s.fin[k], 0) // rounding residue of add-then-remove
}

// maxWith sets s to the component-wise maximum of s and o (as values).
func (s *sweepSum) maxWith(o sweepSum) {
	for k := range s.fin {
		if o.value(k) > s.value(k) {
			s.fin[k], s.inf[k] = o.fin[k], o.inf[k]
		}
	}
}

func (s *sweepSum) cost() Cost { return Cost{Rho: s.value(0), Eps: s.value(1), Delta: s.value(2)} }

// Check returns an error if the maximum per-sample cost exceeds budget in
// any component. A relative slack of 1e-9 absorbs floating-point rounding
// of sums of many equal shares (ε²/(2T) added T times).
func (l *Ledger) Check(budget Cost) error {
	s := l.Spent()
	if within(s, budget) {
		return nil
	}
	return fmt.Errorf("privacy ledger: spent ρ = %g, (ε, δ) = (%g, %g) per sample exceeds the budget ρ = %g, (ε, δ) = (%g, %g)",
		s.Rho, s.Eps, s.Delta, budget.Rho, budget.Eps, budget.Delta)
}

func within(s, b Cost) bool {
	ok := func(x, lim float64) bool { return x <= lim*(1+1e-9) || x <= lim }
	return ok(s.Rho, b.Rho) && ok(s.Eps, b.Eps) && ok(s.Delta, b.Delta)
}
