package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/accountant"
	"dpso/theory"
)

// DPSGDSearch is the accounting of dp-sgd's private search. A dp-sgd
// candidate is not zCDP: it runs T steps of the Poisson-subsampled
// Gaussian mechanism at rate q = B/n_train (B its batch, T set by its
// epochs), whose Rényi curve under replace-one adjacency
// (accountant.ComposedRDP) is far below ρλ at the orders Papernot &
// Steinke's theorem reads for the same noise. So each of the grid's
// mechanisms — each distinct (B, T) — enters the theorem with its own
// curve, beside the private score's Gaussian curve, and their noise is
// calibrated together (accountant.CalibrateSearch): each mechanism's
// smallest noise multiplier for a search of that mechanism alone, all
// times the smallest common factor at which the search over all of them
// meets the target.
type DPSGDSearch struct {
	// Mechanisms are the grid's distinct (B, T), in the grid's order, with
	// their noise multipliers.
	Mechanisms []DPSGDMechanism
	// ScoreRho is the ρ of each candidate's private score (a Gaussian
	// mechanism on the validation rows, noise multiplier ScoreZ; ScoreAlone
	// is the one a search of scores alone could have).
	ScoreRho, ScoreZ, ScoreAlone float64
	// Scale is the common factor of the noise multipliers over their
	// Alone.
	Scale float64
	// Orders and RDP are the search's curve: the theorem on the
	// mechanisms' pointwise maximum plus (ρ_s + ρ₀)·λ, at the noise
	// multipliers the search runs; RDPEps its ε' at the target's δ, at
	// Order. Eps is the search's ε': RDPEps, or where the privacy-profile
	// bound set the noise (Accountant PLD), that bound.
	Orders, RDP        []float64
	Eps, RDPEps, Order float64
	// Accountant is the bound the noise was calibrated to: RDP
	// (Papernot & Steinke), or PLD (accountant.SelectionEpsilon, asked for
	// with TuneSpec.SelectionPLD, where it allows smaller noise): then
	// every noise multiplier is PLDFactor times the Rényi calibration's,
	// and PLDShift is the theorem's ε₂.
	Accountant          accountant.Kind
	PLDFactor, PLDShift float64
	// Dropped says which (B, T) no noise multiplier up to 10⁶ lets the
	// search meet the target with (their grid points are dropped).
	Dropped []string
}

// DPSGDMechanism is one (B, T) of dp-sgd's grid.
type DPSGDMechanism struct {
	Batch int
	Q     float64
	Steps int
	// Z is the candidate's noise multiplier; Alone the smallest for a
	// search of this mechanism alone, on the calibration's coarse orders
	// (Z = Scale·Alone).
	Z, Alone float64
}

// multiplier is the noise multiplier of the mechanism (B, T), and
// whether the search has it.
func (s *DPSGDSearch) multiplier(batch, steps int) (float64, bool) {
	for _, m := range s.Mechanisms {
		if m.Batch == batch && m.Steps == steps {
			return m.Z, true
		}
	}
	return math.NaN(), false
}

// dpsgdPlanned is the (B, T) a dp-sgd grid point runs on nt training
// rows: its prescription at placeholder C, step and z (T and B depend on
// none of them); bound: the work budget would cut its T (gridFor drops
// it).
func dpsgdPlanned(ref *scenarios.Instance, d solvers.Descriptor, nt int, cfg solvers.Config, epochs float64, batch int) (B, T int, bound bool, err error) {
	cd := Candidate{Clip: 1, Step: 1, Epochs: epochs, Batch: batch}
	par, err := cd.apply(&cfg, d, 1).Prescribe(ref, nt, cfg)
	if err != nil {
		return 0, 0, false, err
	}
	return par.Batch, par.Iters, par.BudgetBound, nil
}

// dpsgdSearch calibrates dp-sgd's search on nt training rows: its grid's
// (B, T) from the axes (dpsgdAxes), each mechanism's noise by
// accountant.CalibrateSearch to the run's exact (ε', δ), with the score
// clip's and the constants' releases, (ρ_s + ρ₀)·λ, beside them. A
// (B, T) that no noise lets meet the target is dropped with a note.
// Results are cached: every trial and every call with the same question
// reads one calibration, and the privacy-profile search (pld) starts from
// the cached Rényi calibration of its question.
func dpsgdSearch(ctx context.Context, g TuneGrid, in *scenarios.Instance, d solvers.Descriptor, nt int, cfg solvers.Config, reps accountant.Repetitions, pv TunePrivacy, pld bool) (*DPSGDSearch, error) {
	epochs, batches := dpsgdAxes(g, nt)
	var mechs []DPSGDMechanism
	over, why := 0, map[string]int{} // batches above nt; the points refused, by grid flag
	for _, b := range batches {
		if b > nt {
			over++
			continue
		}
		for _, e := range epochs {
			B, T, bound, err := dpsgdPlanned(in, d, nt, cfg, e, b)
			var ce *solvers.ConfigError
			if errors.As(err, &ce) {
				why[gridFlagOf(ce.Field)]++
				continue // gridFor drops the point
			}
			if bound {
				why[""]++
				continue // gridFor drops the point
			}
			if err != nil {
				return nil, err
			}
			if !slices.ContainsFunc(mechs, func(m DPSGDMechanism) bool { return m.Batch == B && m.Steps == T }) {
				mechs = append(mechs, DPSGDMechanism{Batch: B, Q: math.Min(1, float64(B)/float64(nt)), Steps: T})
			}
		}
	}
	if len(mechs) == 0 {
		// The flag whose values emptied the grid is the one named.
		if over == len(batches) {
			return nil, &spec.SpecError{Field: "grid-batch", Msg: fmt.Sprintf("every batch of the grid is larger than the %s training rows: %s accepts no (batch, epochs) of it", theory.FormatCount(int64(nt)), d.Name())}
		}
		field := "grid-epochs"
		if len(why) == 1 {
			for f := range why {
				if f != "" {
					field = f
				}
			}
		}
		return nil, &spec.SpecError{Field: field, Msg: fmt.Sprintf("%s accepts no (batch, epochs) of the grid at %s training rows", d.Name(), theory.FormatCount(int64(nt)))}
	}
	fixed := pv.ScoreRho + pv.ConstantsRho // both read the training rows
	key := searchKey{reps: reps, fixed: fixed, eps: pv.Target.EpsDelta, delta: pv.Target.Delta, mechs: mechKey(mechs), pld: pld}
	if v, ok := searchCache.Load(key); ok {
		return v.(*DPSGDSearch), nil
	}
	// The privacy-profile search starts from the Rényi calibration of the
	// same question: one calibration serves both (and a search asked both
	// ways, as the tuning screen's toggle does, runs it once).
	rkey := key
	rkey.pld = false
	var r *DPSGDSearch
	if v, ok := searchCache.Load(rkey); ok {
		r = v.(*DPSGDSearch)
	} else {
		var err error
		if r, err = renyiSearch(ctx, d, mechs, reps, fixed, pv); err != nil {
			return nil, err
		}
		searchCache.Store(rkey, r)
	}
	if !pld {
		return r, nil
	}
	s := *r
	s.Mechanisms, s.Dropped = slices.Clone(r.Mechanisms), slices.Clone(r.Dropped)
	curves, fixedCurve := searchCurves(s.Mechanisms, fixed)
	if err := s.selectPLD(ctx, curves, reps, fixed, fixedCurve, pv); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s's search by privacy profiles: %w", d.Name(), err)
	}
	s.ScoreRho = 1 / (2 * s.ScoreZ * s.ScoreZ)
	searchCache.Store(key, &s)
	return &s, nil
}

// searchCurves are the Rényi curves of the search's mechanisms (replace-one,
// each at its q and T) and of the private score (Gaussian), in that order,
// and the curve (ρ_s + ρ₀)·λ of the other releases on the training rows.
func searchCurves(mechs []DPSGDMechanism, fixed float64) ([]accountant.SearchCurve, func([]float64) []float64) {
	curves := make([]accountant.SearchCurve, 0, len(mechs)+1)
	for _, m := range mechs {
		curves = append(curves, accountant.SubsampledGaussianCurve(accountant.ReplaceOne, m.Q, m.Steps))
	}
	curves = append(curves, accountant.GaussianCurve)
	fixedCurve := func(orders []float64) []float64 { return accountant.GaussianCurve(1/math.Sqrt(2*fixed), orders) }
	if fixed == 0 {
		fixedCurve = func(orders []float64) []float64 { return make([]float64, len(orders)) }
	}
	return curves, fixedCurve
}

// renyiCalibrations counts renyiSearch's calibrations (each an
// accountant.CalibrateSearch), for the tests of the cache.
var renyiCalibrations atomic.Int64

// renyiSearch is dpsgdSearch's Rényi calibration of mechs (accountant.
// CalibrateSearch), a mechanism that no noise lets meet the target
// dropped with a note while others remain.
func renyiSearch(ctx context.Context, d solvers.Descriptor, mechs []DPSGDMechanism, reps accountant.Repetitions, fixed float64, pv TunePrivacy) (*DPSGDSearch, error) {
	mechs = slices.Clone(mechs)
	var dropped []string
	for {
		curves, fixedCurve := searchCurves(mechs, fixed)
		renyiCalibrations.Add(1)
		sn, err := accountant.CalibrateSearch(ctx, curves, accountant.DefaultOrders(), reps, fixedCurve, pv.Target.EpsDelta, pv.Target.Delta)
		var se *accountant.SearchError
		if errors.As(err, &se) && errors.Is(err, accountant.ErrNoSigma) && se.Mechanism >= 0 && se.Mechanism < len(mechs) && len(mechs) > 1 {
			m := mechs[se.Mechanism]
			dropped = append(dropped, fmt.Sprintf("batch %d, T = %d (q = %s): no noise multiplier up to 10⁶ lets the search meet ε' = %s", m.Batch, m.Steps, theory.Sig4.Format(m.Q), theory.Sig6.Format(pv.Target.EpsDelta)))
			mechs = slices.Delete(mechs, se.Mechanism, se.Mechanism+1)
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("%s's search cannot meet ε' = %s at δ = %s: %w", d.Name(), theory.Sig6.Format(pv.Target.EpsDelta), theory.FormatNumber(pv.Target.Delta), err)
		}
		s := &DPSGDSearch{Scale: sn.Scale, Orders: sn.Orders, RDP: sn.RDP, Eps: sn.Eps, RDPEps: sn.Eps, Order: sn.Order, Dropped: dropped, Accountant: accountant.RDP, PLDFactor: 1}
		for i := range mechs {
			mechs[i].Z, mechs[i].Alone = sn.Z[i], sn.Alone[i]
		}
		s.Mechanisms = mechs
		k := len(mechs)
		s.ScoreZ, s.ScoreAlone = sn.Z[k], sn.Alone[k]
		s.ScoreRho = 1 / (2 * s.ScoreZ * s.ScoreZ)
		return s, nil
	}
}

// selectPLD calibrates s's noise to the privacy-profile bound of the
// search (accountant.CalibrateSelection: every multiplier of the Rényi
// calibration times the smallest common factor f ≤ 1 at which
// accountant.SelectionEpsilon meets the target) and, where f < 1, runs
// the search at those multipliers: Eps becomes that bound, and RDP,
// RDPEps and Order the Rényi curve and its ε' at them (above the target:
// the curve is what the composition of several searches adds).
func (s *DPSGDSearch) selectPLD(ctx context.Context, curves []accountant.SearchCurve, reps accountant.Repetitions, fixed float64, fixedCurve func([]float64) []float64, pv TunePrivacy) error {
	ms := make([]accountant.Mechanism, len(s.Mechanisms))
	for i, m := range s.Mechanisms {
		ms[i] = accountant.Mechanism{Sigma: m.Z, Q: m.Q, Steps: m.Steps, Adjacency: accountant.ReplaceOne}
	}
	n, ok, err := accountant.CalibrateSelection(ctx, ms, s.ScoreZ, reps, fixed, pv.Target.EpsDelta, pv.Target.Delta, accountant.PLDOptions{})
	if err != nil || !ok || !(n.Factor < 1) {
		return err
	}
	s.Accountant, s.PLDFactor, s.PLDShift = accountant.PLD, n.Factor, n.Shift
	zs := make([]float64, 0, len(curves))
	for i := range s.Mechanisms {
		s.Mechanisms[i].Z *= n.Factor
		zs = append(zs, s.Mechanisms[i].Z)
	}
	s.ScoreZ *= n.Factor
	zs = append(zs, s.ScoreZ)
	cand := make([][]float64, len(curves))
	for i, c := range curves {
		cand[i] = c(zs[i], s.Orders)
	}
	s.RDP, s.RDPEps, s.Order, err = accountant.SearchEpsilon(s.Orders, cand, reps, fixedCurve(s.Orders), pv.Target.Delta)
	s.Eps = math.Min(n.Eps, s.RDPEps)
	return err
}

// searchKey is a dp-sgd search's question.
type searchKey struct {
	reps              accountant.Repetitions
	fixed, eps, delta float64
	mechs             string
	pld               bool
}

func mechKey(ms []DPSGDMechanism) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "%d/%d/%x;", m.Batch, m.Steps, math.Float64bits(m.Q))
	}
	return b.String()
}

var searchCache sync.Map

// dpsgdAxes are dp-sgd's epochs and batch axes on nt training rows: the
// given values, or the defaults (TuneGrid).
func dpsgdAxes(g TuneGrid, nt int) ([]float64, []int) {
	epochs, batches := g.Epochs, g.Batch
	if len(epochs) == 0 {
		epochs = dpsgdEpochs
	}
	if len(batches) == 0 {
		batches = defaultBatches(nt)
	}
	return epochs, batches
}

// defaultBatches is dp-sgd's default batch axis on nt training rows: the
// sampling rates dpsgdRates as batches B = round(q·nt) (at least 1,
// duplicates dropped).
func defaultBatches(nt int) []int {
	var out []int
	for _, f := range dpsgdRates {
		b := max(1, int(math.Round(f*float64(nt))))
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

// dpsgdStepRef is the reference of dp-sgd's default step axis at one grid
// point: the constant step of projected SGD for a β-smooth convex F from
// stochastic gradients of variance σ_g² on a domain of diameter D,
//
//	η_ref = min{1/β, D/(σ_g·√T)},
//
// within a factor 2 of Bubeck's 1/(β + σ_g√T/D) ("Convex Optimization:
// Algorithms and Complexity", 2015, Theorem 6.3 with the Euclidean mirror
// map, R = D/√2: error at most βD²/(2T) + Dσ_g/√T for the averaged
// iterate; dp-sgd returns the last, and the axis's factors 4^j, j = −3…0,
// span the uncertainty), with σ_g² the variance of dp-sgd's step around
// its clipped mean at clip C, expected batch B and noise multiplier z:
//
//	σ_g² = min(C, r)²/B + d·(zC/B)²,
//
// the Poisson batch's sampling variance (a clipped per-sample gradient's
// second moment is at most min(C, r)², r the per-sample gradients' scale
// r̃₂; each row is in the batch with probability q = B/n, so the batch
// mean's variance is at most that over B) plus the Gaussian noise's d
// coordinates of variance (zC/B)². Every quantity is public or already
// released (β, r̃₂ as the search reads them; z the search's calibration),
// so the axis costs no privacy. Where the noise is small against D/√T —
// many rows, large batches — η_ref is 1/β; where a small batch's noise
// would carry the last iterate across the domain, the step shrinks with
// it. r = +Inf (r̃₂ unknown) reads min(C, r) = C.
func dpsgdStepRef(beta, diam, r, C, z float64, d, B, T int) float64 {
	m := math.Min(C, r)
	bf := float64(B)
	ns := z * C / bf
	v := m*m/bf + float64(d)*ns*ns
	return math.Min(1/beta, diam/(math.Sqrt(v)*math.Sqrt(float64(T))))
}

// dpsgdPointNoise is what dpsgdStepRef reads at a dp-sgd grid point
// (epochs, batch) on nt training rows, whatever its C and step: its (B, T)
// planned (dpsgdPlanned) and its z the search's. ok is false where the
// point cannot be planned or the search dropped its (B, T): gridFor drops
// such a point for that reason, and its step reference is then 1.
func dpsgdPointNoise(ref *scenarios.Instance, d solvers.Descriptor, nt int, cfg solvers.Config, search *DPSGDSearch, epochs float64, batch int) (pt dpsgdPoint, err error) {
	if cfg.Context != nil && cfg.Context.Err() != nil {
		return pt, cfg.Context.Err() // a cancelled search stops between points
	}
	if search == nil {
		return pt, errors.New("dp-sgd's default step axis is relative to each point's noise, and the grid has no search calibrated (a bug)")
	}
	B, T, _, err := dpsgdPlanned(ref, d, nt, cfg, epochs, batch)
	if err != nil {
		return pt, nil
	}
	z, ok := search.multiplier(B, T)
	return dpsgdPoint{B: B, T: T, z: z, ok: ok}, nil
}

// dpsgdPoint is a dp-sgd grid point's expected batch B, steps T and
// noise multiplier z (ok: planned and kept by the search).
type dpsgdPoint struct {
	B, T int
	z    float64
	ok   bool
}

// step is dpsgdStepRef at clip C for the point on ref: r the r̃₂ the clip
// axis reads (L_f where r̃₂ is not known, +Inf where neither is); 1 where
// the point is not ok.
func (pt dpsgdPoint) step(ref *scenarios.Instance, C float64) float64 {
	if !pt.ok {
		return 1
	}
	c := ref.Constants()
	r := c.R(2)
	if !(r > 0 && r < math.Inf(1)) {
		r = c.Lf
	}
	if !(r > 0) {
		r = math.Inf(1)
	}
	return dpsgdStepRef(c.Beta, c.D, r, C, pt.z, ref.Dim(), pt.B, pt.T)
}
