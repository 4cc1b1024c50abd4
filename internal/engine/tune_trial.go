package engine

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	privest "dpso/solvers/estimate"
	"dpso/theory"
)

// tuner is one Tune call's shared state.
type tuner struct {
	r     spec.Resolved
	ts    TuneSpec
	in    *scenarios.Instance
	pv    TunePrivacy
	ds    []solvers.Descriptor
	n, nv int
	set   *Settings
	start time.Time
	done  atomic.Int64
	total int
	// dpsgd is each accounted solver's search (nil for a zCDP solver).
	dpsgd []*DPSGDSearch
}

// tuneJob is one (solver, trial): its private search.
type tuneJob struct{ si, trial int }

// trialOut is what one job found.
type trialOut struct {
	tuned   TunedTrial
	refused string
	// ref is the instance the search's candidates read (with the trial's
	// private estimates of the constants where the run estimates them).
	ref *scenarios.Instance
	// oracle is every grid point's excess risk (and held-out loss) at the
	// full budget on all rows (nil without references).
	oracle, oracleHold []float64
}

// jobs runs do for every (solver, trial) on an errgroup of the run's
// workers (skip: a solver whose jobs do not run), each writing its own
// out: the same bits for any number of workers.
func (t *tuner) jobs(ctx context.Context, outs [][]trialOut, skip func(si int) bool, what string, do func(context.Context, tuneJob, *trialOut) error) error {
	workers := t.r.Spec.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for si := range outs {
		if skip(si) {
			continue
		}
		for tr := range outs[si] {
			if gctx.Err() != nil {
				break
			}
			j := tuneJob{si, tr}
			g.Go(func() (err error) {
				defer func() {
					if p := recover(); p != nil {
						err = fmt.Errorf("internal error in %s's %s, trial %d: %v (this is a bug; please report it with the command line)", t.ds[j.si].Name(), what, j.trial, p)
					}
				}()
				return do(gctx, j, &outs[j.si][j.trial])
			})
		}
	}
	err := g.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// search runs every solver's private search on every trial and assembles
// their tuned runs, in solver and trial order, into rep (no oracle-tuned
// reference yet: oracles runs it on the outs returned).
func (t *tuner) search(ctx context.Context, rep *TuneReport) ([][]trialOut, error) {
	outs := make([][]trialOut, len(t.ds))
	for si := range t.ds {
		outs[si] = make([]trialOut, t.r.Spec.Trials)
	}
	t.total = len(t.ds) * t.r.Spec.Trials
	err := t.jobs(ctx, outs, func(int) bool { return false }, "search", func(ctx context.Context, j tuneJob, out *trialOut) (err error) {
		*out, err = t.job(ctx, j)
		return err
	})
	if err != nil {
		return nil, err
	}
	for si, d := range t.ds {
		ts := TuneSolver{Solver: d.Name(), DPSGD: t.dpsgd[si]}
		for _, o := range outs[si] {
			if o.refused != "" {
				ts.Refused = o.refused
			}
		}
		if ts.Refused == "" {
			ts.Tuned = t.assemble(outs[si])
		} else {
			nan := Estimate{Mean: math.NaN(), SE: math.NaN()}
			ts.Tuned = Tuned{Excess: nan, Holdout: nan, Clipped: math.NaN()}
		}
		rep.Solvers = append(rep.Solvers, ts)
	}
	return outs, nil
}

// assemble sums one solver's trials in order.
func (t *tuner) assemble(outs []trialOut) Tuned {
	var tu Tuned
	xs := make([]float64, len(outs))
	hs := make([]float64, len(outs))
	for i, o := range outs {
		tu.Trials = append(tu.Trials, o.tuned)
		xs[i], hs[i] = o.tuned.Excess, o.tuned.Holdout
		tu.EvalSE += o.tuned.ExcessSE / float64(len(outs))
	}
	tu.Excess = estimate(xs)
	tu.Clipped = meanClipped(len(outs), func(i int) (int64, int64) { return outs[i].tuned.Clip.Clipped, outs[i].tuned.Clip.Fed })
	tu.Holdout = Estimate{Mean: math.NaN(), SE: math.NaN()}
	if t.in.HoldoutRows() > 0 {
		tu.Holdout = estimate(hs)
	}
	return tu
}

// candidateSeed is the seed of candidate j's noise stream in a seeded
// search, SHA-256 of (seed, trial, solver, j): every candidate's noise is
// independent of the others' (the theorem's runs are independent) and of
// the prescribed run's.
func candidateSeed(seed uint64, trial int, solver string, j int) uint64 {
	h := sha256.New()
	var b [24]byte
	binary.LittleEndian.PutUint64(b[:8], seed)
	binary.LittleEndian.PutUint64(b[8:16], uint64(trial))
	binary.LittleEndian.PutUint64(b[16:], uint64(j))
	h.Write([]byte("dpso/tune/candidate\x00"))
	h.Write(b[:])
	h.Write([]byte(solver))
	return binary.LittleEndian.Uint64(h.Sum(nil))
}

// job runs solver si's private search on trial's draw.
func (t *tuner) job(ctx context.Context, j tuneJob) (trialOut, error) {
	d := t.ds[j.si]
	name := d.Name()
	r := t.r
	data, release, err := t.draw(ctx, j.trial, 1)
	if err != nil {
		return trialOut{}, err
	}
	defer release()
	nt := t.n - t.nv
	train := prefix(data, nt)
	valid, err := suffixRows(ctx, data, nt)
	if err != nil {
		return trialOut{}, err
	}
	rng := solvers.NewNoise(r.Rand, r.Spec.Seed, j.trial, "tune/"+name)
	ref := t.in
	var est *privest.Estimates
	if r.PrivateConstants() {
		e, err := t.in.EstimatePrivately(ctx, train, t.in.PrivateNeeds(r.Problem.Needs.R2k), t.pv.ConstantsRho, rng)
		if err != nil {
			return trialOut{}, err
		}
		est, ref = &e, t.in.WithEstimates(e)
	}
	if name == (solvers.SGD{}).Name() {
		return trialOut{refused: "the non-private baseline (no clipping, no noise): a private search has nothing to tune in it"}, nil
	}
	cfg := r.Config(j.trial, nil)
	cfg.Context = ctx // dp-sgd's calibration answers a cancellation
	cfg.Eps = math.Sqrt(2 * t.pv.CandidateRho)
	grid, drops, err := gridFor(t.ts.Grid, ref, d, nt, cfg, t.dpsgd[j.si])
	if err != nil {
		if ctx.Err() != nil {
			return trialOut{}, ctx.Err() // a cancellation, not this solver's refusal
		}
		var se *spec.SpecError
		var re *solvers.RefusedError
		if errors.As(err, &re) {
			return trialOut{refused: re.Reason}, nil
		}
		if len(t.ds) > 1 && !errors.As(err, &se) {
			return trialOut{refused: err.Error()}, nil
		}
		return trialOut{}, err
	}
	out := trialOut{ref: ref, tuned: TunedTrial{Trial: j.trial, Chosen: -1, Grid: grid, Dropped: drops.Total(), Drops: drops, Constants: est}}
	tt := &out.tuned

	// The score clip: the private ScoreQuantile-quantile of the loss at
	// w₀ over the training rows.
	w0 := make([]float64, t.in.Dim())
	if tt.ScoreClip, err = t.scoreClip(ctx, train, w0, rng.Rand); err != nil {
		return trialOut{}, err
	}
	shift, err := scoreShifts(ctx, t.in, valid, w0, tt.ScoreClip)
	if err != nil {
		return trialOut{}, err
	}
	tt.K = t.ts.Repetitions.Sample(rng.Rand)
	scoreRho := t.pv.CandidateRho
	if s := t.dpsgd[j.si]; s != nil {
		scoreRho = s.ScoreRho
	}
	multipliers := map[int]float64{} // dp-sgd's z per grid point
	losses := make([]float64, valid.Len())
	var best []float64
	progress := t.set.progress()
	for c := range tt.K {
		if err := ctx.Err(); err != nil {
			return trialOut{}, err
		}
		idx := rng.IntN(len(grid))
		ccfg := cfg
		var z float64
		if d.Accounted {
			var ok bool
			if z, ok = multipliers[idx]; !ok {
				if z, err = t.multiplier(ref, d, nt, grid[idx], ccfg, t.dpsgd[j.si]); err != nil {
					return trialOut{}, err
				}
				multipliers[idx] = z
			}
		}
		solver := grid[idx].apply(&ccfg, d, z)
		if r.Rand == solvers.Seeded {
			ccfg.Seed = candidateSeed(r.Spec.Seed, j.trial, name, c)
		}
		var seen ClipSeen
		ccfg.Observe, ccfg.Checkpoints = seen.observe, seenCheckpoints
		res, err := solver.Run(ctx, ref, train, ccfg)
		if err != nil {
			if ctx.Err() != nil {
				return trialOut{}, ctx.Err()
			}
			return trialOut{}, fmt.Errorf("%s, trial %d, candidate %d (%s): %w", name, j.trial, c, grid[idx].Text(theory.Sig4.Format), err)
		}
		if !within(res.Spent, res.Budget) || (!d.Accounted && !(res.Budget.Rho <= t.pv.CandidateRho*(1+1e-9))) {
			return trialOut{}, fmt.Errorf("%s, trial %d: a candidate spent %+v of its budget %+v, above ρ_Q = %g", name, j.trial, res.Spent, res.Budget, t.pv.CandidateRho)
		}
		for i := range losses {
			losses[i] = t.in.Loss(res.W, valid.Row(i)) - shift[i]
		}
		score, sigma, err := privest.ClippedMean(losses, tt.ScoreClip, scoreRho, rng)
		if err != nil {
			return trialOut{}, err
		}
		tt.ScoreSigma = sigma
		tt.Tried = append(tt.Tried, idx)
		tt.Scores = append(tt.Scores, score)
		if t.ts.KeepCandidates {
			tt.Ws = append(tt.Ws, append([]float64(nil), res.W...))
		}
		if tt.Chosen < 0 || score < tt.Scores[tt.Chosen] {
			tt.Chosen, best = len(tt.Tried)-1, res.W
			tt.Candidate, tt.Params = grid[idx], res.Params
			seen.Clipped, seen.Fed = res.Clipped, res.Fed
			tt.Clip = seen
		}
		if progress != nil {
			progress.Put(Progress{Solver: name, Trial: j.trial, Iter: c + 1, Iters: tt.K, Phase: 1, Total: t.total, Elapsed: time.Since(t.start)})
		}
		t.set.wait(ctx)
	}
	if best == nil {
		best = w0 // K = 0: nothing released; the trial counts the start point
	}
	tt.W = best
	tt.Excess, tt.ExcessSE = t.in.Excess(best)
	tt.Holdout, _ = t.in.HoldoutLoss(best)

	nd := int(t.done.Add(1))
	if progress != nil {
		progress.Put(Progress{Solver: name, Trial: j.trial, Done: true, Searched: true, Excess: tt.Excess, ExcessSE: tt.ExcessSE, TrialsDone: nd, Total: t.total, Elapsed: time.Since(t.start)})
	}
	return out, nil
}

// tuneDrawMaxBytes is the largest streamed draw a search materializes
// (tuner.draw): solvers.MaxMaterializeBytes, which materialize refuses
// past.
var tuneDrawMaxBytes float64 = solvers.MaxMaterializeBytes

// draw is trial's dataset, materialized once on workers goroutines (the
// same matrix for any number: materialize keeps the stream's chunks) where
// it is streamed and fits tuneDrawMaxBytes: a search's K candidates, its
// score clip and validation rows read that copy in place, and so does
// every point of every solver's oracle grid of the trial (tuner.oracles),
// instead of generating the draw again for each — at preset 1's
// n = 2·10⁶ with the default grid of 72 points, generating the rows was
// most of the oracle's work. The copy is reserved under
// solvers.MaxMaterializedAtOnce (a caller waits for memory that the
// others give back) and no run reserves another: it reads the copy's rows
// (prefix). release gives it back.
func (t *tuner) draw(ctx context.Context, trial, workers int) (data solvers.Samples, release func(), err error) {
	r := t.r
	data = t.in.Dataset(r.Rand, r.Spec.Seed, trial)
	none := func() {}
	if _, stored := data.(*solvers.Matrix); stored {
		return data, none, nil
	}
	if size := float64(data.Len()) * float64(data.SampleDim()) * 8; size > tuneDrawMaxBytes {
		return data, none, nil
	}
	m, release, err := solvers.LoadDataset(ctx, data, workers)
	if err != nil {
		if ctx.Err() != nil {
			return nil, none, ctx.Err()
		}
		return data, none, nil // the stream, as without the copy
	}
	return m, release, nil
}

// scoreClip is c_s, the private ScoreQuantile-quantile (estimate.Quantile,
// ρ_s) of the loss at w at the first min(n, MaxScoreClipRows) training
// rows.
func (t *tuner) scoreClip(ctx context.Context, train solvers.Samples, w []float64, rng *rand.Rand) (float64, error) {
	n := min(train.Len(), MaxScoreClipRows)
	losses := make([]float64, n)
	x := make([]float64, train.SampleDim())
	rd := train.Open()
	for i := range n {
		if i%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return math.NaN(), err
			}
		}
		if !rd.Next(x) {
			return math.NaN(), errors.New("engine: the training rows ended early (a bug)")
		}
		losses[i] = t.in.Loss(w, x)
	}
	return privest.Quantile(losses, t.ts.ScoreQuantile, privest.DefaultGrid, t.pv.ScoreRho, rng)
}

// scoreShifts is each validation row's window offset in the search's
// score, (ℓ(w₀; x) − c_s)⁺ (0 where ℓ(w₀; x) is not finite). A candidate w
// scores (1/n_v) Σ_i clip(ℓ(w; x_i) − (ℓ(w₀; x_i) − c_s)⁺, 0, c_s) plus
// Gaussian noise: each row's loss clipped to a window of width c_s, [0, c_s]
// on a row whose loss at w₀ is at most c_s (the clipped loss), [ℓ(w₀; x) −
// c_s, ℓ(w₀; x)] above it, where a row scores its gain over w₀ (up to c_s)
// instead of the constant c_s whatever the candidate. The offset depends on
// its own row and on c_s and w₀ only (both fixed before the scores are
// computed), so each row's term lies in [0, c_s] and replacing one
// validation row moves the sum by at most c_s: sensitivity c_s/n_v, the
// clipped loss's.
func scoreShifts(ctx context.Context, in *scenarios.Instance, valid *solvers.Matrix, w0 []float64, clip float64) ([]float64, error) {
	shift := make([]float64, valid.Len())
	for i := range shift {
		if i%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		shift[i] = scoreShift(in.Loss(w0, valid.Row(i)), clip)
	}
	return shift, nil
}

// scoreShift is one row's window offset, (l0 − clip)⁺ for its loss l0 at
// w₀, 0 where l0 is not finite.
func scoreShift(l0, clip float64) float64 {
	if l0 > clip && !math.IsInf(l0, 1) {
		return l0 - clip
	}
	return 0
}

// multiplier is the noise multiplier of an accounted (dp-sgd) candidate:
// its mechanism's in the search's calibration (DPSGDSearch), at the T and
// batch the candidate runs.
func (t *tuner) multiplier(ref *scenarios.Instance, d solvers.Descriptor, n int, cd Candidate, cfg solvers.Config, s *DPSGDSearch) (float64, error) {
	par, err := cd.apply(&cfg, d, 1).Prescribe(ref, n, cfg) // T and the batch do not depend on z
	if err != nil {
		return math.NaN(), err
	}
	z, ok := s.multiplier(par.Batch, par.Iters)
	if !ok {
		return math.NaN(), fmt.Errorf("%s: the search has no noise multiplier for batch %d, T = %d (a bug)", d.Name(), par.Batch, par.Iters)
	}
	return z, nil
}
