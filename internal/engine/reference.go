package engine

import (
	"context"
	"fmt"
	"math"

	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

// startExcess is F(w₀) − F* at the solvers' common start w₀ = 0 (the
// centre of W): the excess risk of returning the start point, i.e. of
// doing nothing. Its SE is the evaluation sample's Monte Carlo error (0 for
// a closed form and for user data, whose gap is exact on the rows).
func startExcess(in *scenarios.Instance) Estimate {
	ex, se := in.Excess(make([]float64, in.Dim()))
	return Estimate{Mean: ex, SE: se}
}

// clippedFraction is the mean over trials of Clipped/Fed, NaN when no
// trial fed its oracle a clipped mean (the non-private baseline).
func clippedFraction(trials []TrialResult) float64 {
	return meanClipped(len(trials), func(i int) (int64, int64) { return trials[i].Clipped, trials[i].Fed })
}

// meanClipped is the mean of clipped/fed over the n runs at(i) counts
// that fed their oracle anything, NaN when none did.
func meanClipped(n int, at func(i int) (clipped, fed int64)) float64 {
	var s float64
	m := 0
	for i := range n {
		if c, f := at(i); f > 0 {
			s += float64(c) / float64(f)
			m++
		}
	}
	if m == 0 {
		return math.NaN()
	}
	return s / float64(m)
}

// Vacuous reports whether a certificate promises nothing that doing
// nothing does not already achieve: its value (or +Inf) is at least
// F(w₀) − F*.
func (c Certified) Vacuous(w0 float64) bool {
	v := c.Value()
	return !math.IsNaN(v) && !math.IsNaN(w0) && v >= w0
}

// certNotes are the sentences a certificate needs beside it: why there is
// none, which condition failed, that it is vacuous at these parameters.
func certNotes(c Certified, w0 Estimate) []string {
	num := theory.Sig4.Format
	var out []string
	switch {
	case c.Cert == nil:
		if c.Why != "" {
			out = append(out, "no certificate: "+c.Why)
		}
	case !c.Cert.Holds():
		out = append(out, fmt.Sprintf("certificate %s not in force: its condition %s fails, so it says nothing about this run", c.Cert.ID, c.Cert.Failed()[0]))
	case math.IsInf(c.Cert.Value, 1):
		out = append(out, fmt.Sprintf("certificate %s is infinite here (a moment it needs does not exist): the guarantee is vacuous", c.Cert.ID))
	case c.Vacuous(w0.Mean):
		out = append(out, fmt.Sprintf("certificate %s = %s (the paper's explicit-constant bound at these parameters) is above F(w₀) − F* = %s: the guarantee is vacuous at this n — returning the start point already does better than it promises",
			c.Cert.ID, num(c.Cert.Value), num(w0.Mean)))
	}
	return append(out, c.Notes...)
}

// runNotes are a finished run's sentences about its reference lines: the
// certificate's, and whether the run did worse than doing nothing.
func runNotes(r *Report) []string {
	num := theory.Sig4.Format
	out := certNotes(r.Certified, r.W0)
	m, se, w0 := r.Excess.Mean, r.Excess.SE, r.W0.Mean
	if m > w0 && !math.IsNaN(w0) {
		sig := "by more than 2 standard errors"
		switch {
		case math.IsNaN(se):
			sig = "one trial: no standard error to say whether beyond chance"
		case !(m-2*se > w0):
			sig = "though within 2 standard errors of it"
		}
		out = append(out, fmt.Sprintf("the mean excess risk %s is above F(w₀) − F* = %s (%s): at these parameters %s did worse than returning its start point w₀ = 0",
			num(m), num(w0), sig, r.Solver))
	}
	if r.BudgetCapped {
		out = append(out, "budget-capped: the work budget cut the prescribed schedule, so these are not the theorem's parameters; its rate assumes the full schedule (the certificate, where shown, is evaluated at the steps actually run)")
	}
	return out
}

// referenceMaxBytes is the largest streamed draw (n·d float64s) the
// non-private reference materializes: 64 MiB, so that the reference costs
// a small run a few passes over its draw and never turns a streamed
// one-pass run (O(d) memory) into one that holds its data. (A variable
// only so that tests can reach the larger draws' path at a small n.)
var referenceMaxBytes float64 = 64 << 20

// trialRef is the non-private reference of one trial's draw.
type trialRef struct {
	excess, width float64
	note          string
}

// reference computes the non-private reference of trial's draw: the
// empirical risk minimizer ŵ over W of the draw's n samples (certified:
// scenarios.Instance.MinimizeEmpirical) and its excess risk F(ŵ) − F*. It
// reads the draw only, so it depends neither on ε nor on any solver, and
// it is not private (it is a reference, not a release). On user data it
// is not computed: the excess risk there is measured on the rows against
// their own minimizer, so ŵ's is 0 by definition. A streamed draw larger
// than referenceMaxBytes gives a note instead (materializing it would
// cost the run its O(d) memory and several times its time); only ctx's
// error is returned.
//
// The draw it materialized is m, for every solver of the trial: they read
// it in place, the same bits as the stream (materialize is
// deterministic), instead of materializing it again (a solver that makes
// many passes) or generating it again (a one-pass solver streams a draw
// it can read: 5–10% of the CPU of a comparison at n = 5·10⁴, d = 50).
// A trial holds one copy at most, which its memory plan (trialBytes)
// already counts; release gives it back (m is nil, and release a no-op,
// when the reference materialized nothing).
func (p *pool) reference(ctx context.Context, u *unit, data solvers.Samples, inner int) (ref trialRef, m *solvers.Matrix, release func(), err error) {
	nan := math.NaN()
	none := func() {}
	if u.run.UserRows() {
		return trialRef{nan, nan, "on user data the excess risk is measured on the rows against their own minimizer F̂*, which the empirical risk minimizer attains: its excess is 0 by definition, so no reference is computed"}, nil, none, nil
	}
	if _, stored := data.(*solvers.Matrix); !stored {
		if size := float64(data.Len()) * float64(data.SampleDim()) * 8; size > referenceMaxBytes {
			return trialRef{nan, nan, fmt.Sprintf("the non-private reference was not computed: it minimizes over the whole draw, which the run streams; holding it would take %s MiB (the reference is computed for draws up to %s MiB)",
				theory.Sig4.Format(size/(1<<20)), theory.Sig4.Format(referenceMaxBytes/(1<<20)))}, nil, none, nil
		}
	}
	m, release, err = solvers.LoadDataset(ctx, data, inner)
	if err != nil {
		if ctx.Err() != nil {
			return trialRef{}, nil, none, ctx.Err()
		}
		return trialRef{nan, nan, "the non-private reference was not computed: " + err.Error()}, nil, none, nil
	}
	w, width, err := u.in.MinimizeEmpirical(ctx, m)
	if ctx.Err() != nil {
		release()
		return trialRef{}, nil, none, ctx.Err()
	}
	if err != nil {
		ref = trialRef{nan, nan, "the non-private reference was not computed: " + err.Error()}
	} else {
		ex, _ := u.in.Excess(w)
		ref = trialRef{excess: ex, width: width}
	}
	return ref, m, release, nil
}

// sharedDraw materializes trial's draw once for every solver of the
// trial where the reference did not (a draw above referenceMaxBytes, or
// user data) and a solver of the trial that runs makes many passes over
// it (unit.materializes): each such solver then reads this copy instead
// of making its own, and the one-pass solvers read it in place instead of
// generating it again — the same bits (materialize is deterministic and
// keeps the stream's chunks). At n = 2·10⁶, d = 10 a draw is 176 MB,
// which preset 1's comparison generated five times a trial. The copy is
// the one the trial's memory plan counts (unit.trialBytes); a draw above
// solvers.MaxMaterializeBytes is left to the solvers, which refuse it. m
// is nil, and release a no-op, when nothing is materialized; only ctx's
// error is returned.
func (p *pool) sharedDraw(ctx context.Context, u *unit, data solvers.Samples, inner int) (m *solvers.Matrix, release func(), err error) {
	none := func() {}
	if _, stored := data.(*solvers.Matrix); stored || !u.materializes() {
		return nil, none, nil
	}
	if size := float64(data.Len()) * float64(data.SampleDim()) * 8; size > solvers.MaxMaterializeBytes {
		return nil, none, nil
	}
	m, release, err = solvers.LoadDataset(ctx, data, inner)
	if err != nil {
		if ctx.Err() != nil {
			return nil, none, ctx.Err()
		}
		return nil, none, nil // the solvers meet the same error and report it
	}
	return m, release, nil
}

// referenceOf is the reference's mean ± s.e. over trials, its largest
// certificate width and the first trial's note (NaN and the note when a
// trial has none).
func referenceOf(trials []TrialResult) (Estimate, float64, string) {
	xs := make([]float64, len(trials))
	width := 0.0
	for i, t := range trials {
		if math.IsNaN(t.Reference) {
			return nanEstimate(), math.NaN(), t.ReferenceNote
		}
		xs[i] = t.Reference
		width = math.Max(width, t.ReferenceWidth)
	}
	if len(xs) == 0 {
		return nanEstimate(), math.NaN(), ""
	}
	return estimate(xs), width, ""
}

// holdoutAt is the loss of w on user data's held-out rows with its
// standard error over the rows (NaN without held-out rows).
func holdoutAt(in *scenarios.Instance, w []float64) Estimate {
	m, se := in.HoldoutLoss(w)
	return Estimate{Mean: m, SE: se}
}

// holdoutEstimate is the mean ± s.e. over trials of the held-out loss
// (NaN without held-out rows).
func holdoutEstimate(trials []TrialResult) Estimate {
	xs := make([]float64, 0, len(trials))
	for _, t := range trials {
		if math.IsNaN(t.Holdout) {
			return Estimate{Mean: math.NaN(), SE: math.NaN()}
		}
		xs = append(xs, t.Holdout)
	}
	if len(xs) == 0 {
		return Estimate{Mean: math.NaN(), SE: math.NaN()}
	}
	return estimate(xs)
}
