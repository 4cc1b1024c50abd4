package shard

import (
	"bytes"
	"encoding/json"
	"errors"
	"time"

	"dpso/internal/engine"
	"dpso/solvers"
	"dpso/solvers/estimate"
	"dpso/solvers/ledger"
	"dpso/theory"
)

// num is theory.ExactNum: every float of a shard's results, carried
// exactly (NaN and ±Inf as strings).
type num = theory.ExactNum

// each maps xs by f, nil staying nil and empty empty.
func each[A, B any](xs []A, f func(A) B) []B {
	if xs == nil {
		return nil
	}
	out := make([]B, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func toNum(f float64) num      { return num(f) }
func fromNum(x num) float64    { return float64(x) }
func cost(c ledger.Cost) wcost { return wcost{num(c.Rho), num(c.Eps), num(c.Delta)} }
func (c wcost) cost() ledger.Cost {
	return ledger.Cost{Rho: float64(c.Rho), Eps: float64(c.Eps), Delta: float64(c.Delta)}
}

// The wire forms of engine.TrialResult and the types it holds: the same
// fields, every float a num. TestResultsRoundTrip fills every field of
// engine.TrialResult and checks that it comes back bit for bit, so a field
// added there and not here fails it.
type (
	wcost  struct{ Rho, Eps, Delta num }
	wevent struct {
		Mechanism            string
		Q, Sigma             num
		Steps                int
		Accountant           string
		Adjacency            string
		Eps, Delta, EpsLower num
		PriorRho             num
	}
	wphase struct {
		N, Iters                          int
		Clip, Sigma, Step, Lambda, Radius num
		Stage                             int
	}
	wparams struct {
		Iters, Batch      int
		Clip, Sigma, Step num
		Prescribed        bool
		Overridden        []string
		Phases            []wphase
		BudgetBound       bool
		GradEvals         int64
		Notes             []string
	}
	wtrace struct {
		Iter       int
		GradEvals  int64
		Excess, SE num
	}
	wrelease struct {
		What              string
		Rho, Value, Sigma num
		Method            string
	}
	westimates struct {
		Rho                   num
		Rows                  int
		Q, Clip, K            num
		R2, Rk, R2k, Beta, Mu num
		Releases              []wrelease
		Flags                 []string
	}
	wresult struct {
		Trial                int
		Excess, ExcessSE     num
		Holdout, HoldoutSE   num
		Constants            *westimates
		W                    []num
		Spent, Budget        wcost
		Events               []wevent
		Params               wparams
		GradEvals, NonFinite int64
		Clipped, Fed         int64
		NoiseOff             num
		Reference, RefWidth  num
		ReferenceNote        string
		BudgetBound          bool
		Notes                []string
		Trace                []wtrace
		Elapsed              time.Duration
	}
)

func toWire(r engine.TrialResult) wresult {
	p := r.Params
	return wresult{
		Trial: r.Trial, Excess: num(r.Excess), ExcessSE: num(r.ExcessSE), Holdout: num(r.Holdout), HoldoutSE: num(r.HoldoutSE),
		Constants: toWireEstimates(r.Constants), W: each(r.W, toNum),
		Spent: cost(r.Spent), Budget: cost(r.Budget),
		Events: each(r.Events, func(e ledger.Event) wevent {
			return wevent{e.Mechanism, num(e.Q), num(e.Sigma), e.Steps, e.Accountant, e.Adjacency, num(e.Eps), num(e.Delta), num(e.EpsLower), num(e.PriorRho)}
		}),
		Params: wparams{p.Iters, p.Batch, num(p.Clip), num(p.Sigma), num(p.Step), p.Prescribed, p.Overridden,
			each(p.Phases, func(ph solvers.Phase) wphase {
				return wphase{ph.N, ph.Iters, num(ph.Clip), num(ph.Sigma), num(ph.Step), num(ph.Lambda), num(ph.Radius), ph.Stage}
			}),
			p.BudgetBound, p.GradEvals, p.Notes},
		GradEvals: r.GradEvals, NonFinite: r.NonFinite, Clipped: r.Clipped, Fed: r.Fed,
		NoiseOff: num(r.NoiseOff), Reference: num(r.Reference), RefWidth: num(r.ReferenceWidth), ReferenceNote: r.ReferenceNote,
		BudgetBound: r.BudgetBound, Notes: r.Notes,
		Trace: each(r.Trace, func(t engine.TracePoint) wtrace {
			return wtrace{t.Iter, t.GradEvals, num(t.Excess), num(t.SE)}
		}),
		Elapsed: r.Elapsed,
	}
}

func (w wresult) result() engine.TrialResult {
	p := w.Params
	return engine.TrialResult{
		Trial: w.Trial, Excess: float64(w.Excess), ExcessSE: float64(w.ExcessSE), Holdout: float64(w.Holdout), HoldoutSE: float64(w.HoldoutSE),
		Constants: w.Constants.estimates(), W: each(w.W, fromNum),
		Spent: w.Spent.cost(), Budget: w.Budget.cost(),
		Events: each(w.Events, func(e wevent) ledger.Event {
			return ledger.Event{Mechanism: e.Mechanism, Q: float64(e.Q), Sigma: float64(e.Sigma), Steps: e.Steps, Accountant: e.Accountant, Adjacency: e.Adjacency,
				Eps: float64(e.Eps), Delta: float64(e.Delta), EpsLower: float64(e.EpsLower), PriorRho: float64(e.PriorRho)}
		}),
		Params: solvers.Params{Iters: p.Iters, Batch: p.Batch, Clip: float64(p.Clip), Sigma: float64(p.Sigma), Step: float64(p.Step),
			Prescribed: p.Prescribed, Overridden: p.Overridden,
			Phases: each(p.Phases, func(ph wphase) solvers.Phase {
				return solvers.Phase{N: ph.N, Iters: ph.Iters, Clip: float64(ph.Clip), Sigma: float64(ph.Sigma), Step: float64(ph.Step),
					Lambda: float64(ph.Lambda), Radius: float64(ph.Radius), Stage: ph.Stage}
			}),
			BudgetBound: p.BudgetBound, GradEvals: p.GradEvals, Notes: p.Notes},
		GradEvals: w.GradEvals, NonFinite: w.NonFinite, Clipped: w.Clipped, Fed: w.Fed,
		NoiseOff: float64(w.NoiseOff), Reference: float64(w.Reference), ReferenceWidth: float64(w.RefWidth), ReferenceNote: w.ReferenceNote,
		BudgetBound: w.BudgetBound, Notes: w.Notes,
		Trace: each(w.Trace, func(t wtrace) engine.TracePoint {
			return engine.TracePoint{Iter: t.Iter, GradEvals: t.GradEvals, Excess: float64(t.Excess), SE: float64(t.SE)}
		}),
		Elapsed: w.Elapsed,
	}
}

func toWireEstimates(e *estimate.Estimates) *westimates {
	if e == nil {
		return nil
	}
	return &westimates{Rho: num(e.Rho), Rows: e.Rows, Q: num(e.Q), Clip: num(e.Clip), K: num(e.K),
		R2: num(e.R2), Rk: num(e.Rk), R2k: num(e.R2k), Beta: num(e.Beta), Mu: num(e.Mu),
		Releases: each(e.Releases, func(r estimate.Release) wrelease {
			return wrelease{r.What, num(r.Rho), num(r.Value), num(r.Sigma), r.Method}
		}), Flags: e.Flags}
}

func (w *westimates) estimates() *estimate.Estimates {
	if w == nil {
		return nil
	}
	return &estimate.Estimates{Rho: float64(w.Rho), Rows: w.Rows, Q: float64(w.Q), Clip: float64(w.Clip), K: float64(w.K),
		R2: float64(w.R2), Rk: float64(w.Rk), R2k: float64(w.R2k), Beta: float64(w.Beta), Mu: float64(w.Mu),
		Releases: each(w.Releases, func(r wrelease) estimate.Release {
			return estimate.Release{What: r.What, Rho: float64(r.Rho), Value: float64(r.Value), Sigma: float64(r.Sigma), Method: r.Method}
		}), Flags: w.Flags}
}

// marshalResults writes rs as JSON that reads back to the same values, bit
// for bit: floats in the shortest round-trip form (num), nil slices as
// null and empty ones as [].
func marshalResults(rs []engine.TrialResult) ([]byte, error) {
	return marshalPlain(each(rs, toWire))
}

// marshalPlain is json.Marshal without the HTML escapes (<, >, & stay as
// they are: the notes have inequalities) and without the newline.
func marshalPlain(x any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// unmarshalResults reads what marshalResults wrote. It refuses anything
// else — an unknown field, a missing one, a number out of range, a form
// marshalResults does not write — rather than read it as zero or rounded:
// the bytes must be what writing the values read gives.
func unmarshalResults(b []byte) ([]engine.TrialResult, error) {
	var ws []wresult
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ws); err != nil {
		return nil, err
	}
	again, err := marshalPlain(ws)
	if err != nil {
		return nil, err
	}
	var given bytes.Buffer
	if err := json.Compact(&given, b); err != nil {
		return nil, err
	}
	if !bytes.Equal(given.Bytes(), again) {
		return nil, errors.New("the unit results are not in the form dpso writes (a field missing, or a value written otherwise)")
	}
	return each(ws, wresult.result), nil
}
