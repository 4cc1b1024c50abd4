package accountant

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"
)

// SearchCurve is the Rényi DP curve, at each order of orders, of one
// mechanism a search's candidate may run, at noise multiplier z: the curve
// must not increase as z grows, at any order. [SubsampledGaussianCurve]
// and [GaussianCurve] are the two dpso's searches run.
type SearchCurve func(z float64, orders []float64) []float64

// SubsampledGaussianCurve is the curve of T steps of the Poisson-
// subsampled Gaussian mechanism at rate q under adj ([ComposedRDP]).
func SubsampledGaussianCurve(adj Adjacency, q float64, steps int) SearchCurve {
	return func(z float64, orders []float64) []float64 { return ComposedRDP(adj, q, z, steps, orders) }
}

// GaussianCurve is the curve of a Gaussian mechanism whose noise is z
// times its ℓ2 sensitivity: ρ = 1/(2z²) zCDP, RDP ρλ.
func GaussianCurve(z float64, orders []float64) []float64 {
	out := make([]float64, len(orders))
	rho := 1 / (2 * z * z)
	for i, a := range orders {
		out[i] = rho * a
	}
	return out
}

// SearchNoise is [CalibrateSearch]'s answer.
type SearchNoise struct {
	// Z are the mechanisms' noise multipliers; Alone the smallest z (to
	// relative [CalibrateTol]) at which a search whose every candidate
	// runs that mechanism meets the target on the coarse orders
	// (searchOrders); Scale the common factor, Z = Scale·Alone.
	Z, Alone []float64
	Scale    float64
	// Orders and RDP are the search's Rényi DP curve: Papernot &
	// Steinke's theorem applied to the candidates' curve, the maximum over
	// the mechanisms at Z, plus the fixed curve. Eps is its ε' at δ (the
	// conversion of [EpsFromRDP]), at Order.
	Orders, RDP []float64
	Eps, Order  float64
}

// SearchEpsilon is the (ε', δ) of a private search whose candidates are
// drawn at random among mechanisms with the Rényi curves cand (each at
// orders), repeated K ~ r times with the best released (Papernot &
// Steinke 2022: [RepeatAndSelectRDP]), composed with the curve fixed of
// the search's other releases. A candidate is one draw h of the
// hyperparameters, with weights w_h that do not depend on the data, and
// one run of mechanism M_h, its output (h, M_h(D)): so
// e^{(λ−1)D_λ} of two neighbouring datasets' outputs is the w-average of
// the mechanisms' e^{(λ−1)D_λ}, at most the largest, and the candidates'
// curve is the mechanisms' pointwise maximum. It returns the search's curve and its ε' at δ,
// with the order attaining it.
func SearchEpsilon(orders []float64, cand [][]float64, r Repetitions, fixed []float64, delta float64) (rdp []float64, eps, order float64, err error) {
	if len(cand) == 0 || len(fixed) != len(orders) {
		return nil, math.NaN(), math.NaN(), ErrOrders
	}
	q := make([]float64, len(orders))
	for i := range q {
		q[i] = math.Inf(-1)
		for _, c := range cand {
			if len(c) != len(orders) {
				return nil, math.NaN(), math.NaN(), ErrOrders
			}
			q[i] = math.Max(q[i], c[i])
		}
	}
	if rdp, err = RepeatAndSelectRDP(orders, q, r); err != nil {
		return nil, math.NaN(), math.NaN(), err
	}
	for i := range rdp {
		rdp[i] += fixed[i]
	}
	eps, order, err = EpsFromRDP(orders, rdp, delta)
	return rdp, eps, order, err
}

// searchOrders are the coarse orders of [CalibrateSearch], a subset of
// [DefaultOrders] (a third of them): 1.1 to 2 by tenths, 2.5 to 11 by
// halves, then the integers and powers of two where the conversion and
// the theorem's λ̂ pick their orders.
var searchOrders = []float64{1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5, 10, 10.5, 11,
	12, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32, 40, 48, 56, 63, 128, 256, 512, 1024}

// CalibrateSearch calibrates the noise of a private search's mechanisms
// (Papernot & Steinke 2022) to a target (ε', δ) of the whole search,
// each mechanism accounted by its own Rényi curve: mechanism i at noise z
// has curve curves[i](z); fixed(λ) is the curve of the search's other
// releases (each row's: those on disjoint rows enter as their maximum).
// It first finds each mechanism's Alone z — the smallest at which a
// search running that mechanism only meets the target, on the coarse
// orders searchOrders (cheap: a third of the default grid) — then the
// smallest common factor Scale at which the search over all of them, at
// Z = Scale·Alone, meets it on orders (their curves' maximum exceeds each
// curve where they cross, which raises the factor; the full orders give
// room the coarse ones miss, which may lower it below 1): first on the
// coarse orders (an upper end, since the theorem's minimum over λ̂ and the
// conversion's over λ only fall as orders are added), then on orders
// from there. Every search is solved by smallestMeeting to relative
// [CalibrateTol]. orders must contain searchOrders ([DefaultOrders]
// does). ctx cancels between evaluations of the curves; a mechanism that
// misses the target at z = [MaxSigma] fails with [ErrNoSigma] (its index
// in a [SearchError]).
func CalibrateSearch(ctx context.Context, curves []SearchCurve, orders []float64, r Repetitions, fixed func(orders []float64) []float64, epsTarget, delta float64) (SearchNoise, error) {
	if err := r.Check(); err != nil {
		return SearchNoise{}, err
	}
	if len(curves) == 0 || !(epsTarget > 0) || math.IsInf(epsTarget, 1) {
		return SearchNoise{}, fmt.Errorf("accountant: a search of %d mechanisms with target ε' = %g", len(curves), epsTarget)
	}
	if err := checkDelta(delta); err != nil {
		return SearchNoise{}, err
	}
	for _, a := range searchOrders {
		if !slices.Contains(orders, a) {
			return SearchNoise{}, fmt.Errorf("accountant: the orders lack %g, an order of the calibration", a)
		}
	}
	workers := runtime.GOMAXPROCS(0)
	coarseFixed, fullFixed := fixed(searchOrders), fixed(orders)
	// search is the search's curve and ε' on os (with its fixed curve)
	// when mechanism idx[k] runs at zs[k].
	search := func(os, fx, zs []float64, idx []int) ([]float64, float64, float64, error) {
		if err := ctx.Err(); err != nil {
			return nil, math.NaN(), math.NaN(), err
		}
		cand := make([][]float64, len(idx))
		var g errgroup.Group
		g.SetLimit(workers)
		for k, i := range idx {
			g.Go(func() error { cand[k] = curves[i](zs[k], os); return nil })
		}
		g.Wait()
		return SearchEpsilon(os, cand, r, fx, delta)
	}
	n := SearchNoise{Alone: make([]float64, len(curves)), Z: make([]float64, len(curves)), Orders: orders}
	errs := make([]error, len(curves))
	var g errgroup.Group
	g.SetLimit(workers)
	for i := range curves {
		g.Go(func() error {
			n.Alone[i], errs[i] = smallestMeeting(func(z float64) (float64, error) {
				_, e, _, err := search(searchOrders, coarseFixed, []float64{z}, []int{i})
				return e, err
			}, epsTarget, 1, math.E, MaxSigma)
			return nil
		})
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return SearchNoise{}, err
	}
	for i, err := range errs {
		if err != nil {
			return SearchNoise{}, &SearchError{Mechanism: i, Err: err}
		}
	}
	all := make([]int, len(curves))
	for i := range all {
		all[i] = i
	}
	// full keeps the searches on orders by their factor: the answer is a
	// factor the last bisection evaluated, whose curve is then read, not
	// computed again.
	type answer struct {
		rdp        []float64
		eps, order float64
	}
	full := map[float64]answer{}
	scaled := func(os, fx []float64, keep bool) func(f float64) (float64, error) {
		return func(f float64) (float64, error) {
			zs := make([]float64, len(curves))
			for i, z := range n.Alone {
				zs[i] = f * z
			}
			rdp, e, o, err := search(os, fx, zs, all)
			if err == nil && keep {
				full[f] = answer{rdp, e, o}
			}
			return e, err
		}
	}
	top := MaxSigma / slices.Max(n.Alone)
	coarse, err := smallestMeeting(scaled(searchOrders, coarseFixed, false), epsTarget, 1, 1.05, top)
	if err == nil {
		n.Scale, err = smallestMeeting(scaled(orders, fullFixed, true), epsTarget, coarse, 1.02, top)
	}
	if err != nil {
		if ctx.Err() != nil {
			return SearchNoise{}, ctx.Err()
		}
		return SearchNoise{}, &SearchError{Mechanism: -1, Err: err}
	}
	for i, z := range n.Alone {
		n.Z[i] = n.Scale * z
	}
	if a, ok := full[n.Scale]; ok {
		n.RDP, n.Eps, n.Order = a.rdp, a.eps, a.order
	} else {
		n.RDP, n.Eps, n.Order, err = search(orders, fullFixed, n.Z, all)
	}
	if err == nil && !(n.Eps <= epsTarget) {
		err = fmt.Errorf("accountant: the search's ε' = %g is above the target %g (a bug)", n.Eps, epsTarget)
	}
	return n, err
}

// smallestMeeting is the smallest x ∈ (0, top] (to relative
// [CalibrateTol]) with eps(x) ≤ target, for eps non-increasing in x: the
// upper end of a bracket [lo, hi] with eps(lo) > target ≥ eps(hi) and
// hi/lo ≤ 1 + CalibrateTol, found from x = start by steps of a factor step, then
// narrowed by regula falsi on (ln x, ln eps − ln target) with the
// Illinois rule, a bisection step wherever the secant's point is not
// inside the bracket or a value is not finite (ε' = 0 or +Inf), and a
// step of a third of the tolerance inside the bracket from the end the
// secant lands nearest (so that the last step closes it). Every answer
// was evaluated and meets the target; where every x down to 10⁻⁶ meets it,
// the smallest x tried is the answer. It fails with [ErrNoSigma] when top
// misses.
func smallestMeeting(eps func(float64) (float64, error), target, start, step, top float64) (float64, error) {
	g := func(x float64) (float64, error) {
		e, err := eps(math.Exp(x))
		if err != nil {
			return math.NaN(), err
		}
		return math.Log(e) - math.Log(target), nil // −Inf at ε' = 0; +Inf, NaN only where ε' is
	}
	ls := math.Log(step)
	hi := math.Log(start)
	ghi, err := g(hi)
	if err != nil {
		return 0, err
	}
	var lo, glo float64
	if ghi > 0 {
		lo, glo = hi, ghi
		for {
			hi += ls
			if hi > math.Log(top) {
				hi = math.Log(top)
			}
			if ghi, err = g(hi); err != nil {
				return 0, err
			}
			if ghi <= 0 {
				break
			}
			if hi >= math.Log(top) {
				return 0, ErrNoSigma
			}
			lo, glo = hi, ghi
		}
	} else {
		for {
			x := hi - ls
			if x < math.Log(1e-6) {
				return math.Exp(hi), nil
			}
			gx, err := g(x)
			if err != nil {
				return 0, err
			}
			if gx > 0 {
				lo, glo = x, gx
				break
			}
			hi, ghi = x, gx
		}
	}
	w := math.Log1p(CalibrateTol)
	side := 0            // the end the last step moved: −1 lo, +1 hi
	flo, fhi := glo, ghi // Illinois-weighted values
	for hi-lo > w {
		x := (lo + hi) / 2
		if !math.IsInf(flo, 0) && !math.IsInf(fhi, 0) && !math.IsNaN(flo) && !math.IsNaN(fhi) && flo > fhi {
			if s := hi - fhi*(hi-lo)/(fhi-flo); s > lo && s < hi {
				x = s
			}
		}
		x = math.Min(math.Max(x, lo+w/3), hi-w/3)
		gx, err := g(x)
		if err != nil {
			return 0, err
		}
		if gx <= 0 {
			hi, ghi, fhi = x, gx, gx
			if side == 1 {
				flo /= 2
			}
			side = 1
		} else {
			lo, glo, flo = x, gx, gx
			if side == -1 {
				fhi /= 2
			}
			side = -1
		}
	}
	return math.Exp(hi), nil
}

// SearchError is a calibration of a search that failed at one mechanism
// (Mechanism, its index; −1: the common factor).
type SearchError struct {
	Mechanism int
	Err       error
}

func (e *SearchError) Error() string {
	if e.Mechanism < 0 {
		return fmt.Sprintf("the search's mechanisms together: %v", e.Err)
	}
	return fmt.Sprintf("mechanism %d of the search: %v", e.Mechanism, e.Err)
}

func (e *SearchError) Unwrap() error { return e.Err }
