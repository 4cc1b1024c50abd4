package engine

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"dpso/solvers"
)

// oraclePoint is one run of an oracle-tuned reference: solver si's grid
// point p, in the trial at hand.
type oraclePoint struct{ si, p int }

// oracles runs the oracle-tuned reference of every solver whose search was
// not refused and sets it in rep. It goes trial by trial: the trial's draw
// is materialized once (tuner.draw, on every worker) and every (solver,
// grid point) of the trial reads it, the runs spread over the workers, so
// that one copy of a draw is held at a time whatever the number of
// workers. Each point runs at the full budget on all of the trial's rows
// with the run's own noise stream (common to the points; independent of
// the search's) and writes its own index: the same bits for any number of
// workers and in any order. With set.Coarse it runs in two stages, every
// trial's coarse points (coarseGrid) first, then set.Coarse is given the
// coarse reference, then every trial's other points.
func (t *tuner) oracles(ctx context.Context, rep *TuneReport, outs [][]trialOut) error {
	refused := func(si int) bool { return rep.Solvers[si].Refused != "" }
	trials := t.r.Spec.Trials
	coarse := make([][]bool, len(outs)) // each solver's coarse points (nil: one stage)
	only := t.ts.Oracle == OracleCoarse // the coarse points alone
	staged := t.set != nil && t.set.Coarse != nil || only
	for si := range outs {
		if refused(si) {
			continue
		}
		for tr := range outs[si] {
			o := &outs[si][tr]
			o.oracle = make([]float64, len(o.tuned.Grid))
			o.oracleHold = make([]float64, len(o.tuned.Grid))
		}
		if staged {
			coarse[si] = coarseGrid(outs[si][0].tuned.Grid)
		}
	}
	workers := t.r.Spec.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	done := make([][]atomic.Int64, len(outs)) // each (solver, trial)'s points run
	for si := range done {
		done[si] = make([]atomic.Int64, trials)
	}
	// stage runs, trial by trial, the points p of each solver for which
	// keep(si, p) holds.
	stage := func(keep func(si, p int) bool) error {
		for tr := range trials {
			var units []oraclePoint
			for si := range outs {
				if refused(si) {
					continue
				}
				for p := range outs[si][tr].tuned.Grid {
					if keep(si, p) {
						units = append(units, oraclePoint{si, p})
					}
				}
			}
			if len(units) == 0 {
				continue
			}
			if err := t.oracleTrial(ctx, tr, units, outs, done, workers); err != nil {
				return err
			}
		}
		return nil
	}
	inCoarse := func(si, p int) bool { return p < len(coarse[si]) && coarse[si][p] }
	if only {
		if err := stage(inCoarse); err != nil {
			return err
		}
		for si := range rep.Solvers {
			if !refused(si) {
				rep.Solvers[si].Oracle = t.assembleOracle(outs[si], coarse[si])
			}
		}
		return nil
	}
	if staged && slices.ContainsFunc(coarse, func(c []bool) bool { return slices.Contains(c, false) }) {
		if err := stage(inCoarse); err != nil {
			return err
		}
		early := *rep
		early.Solvers = slices.Clone(rep.Solvers)
		for si := range early.Solvers {
			if !refused(si) {
				early.Solvers[si].Oracle = t.assembleOracle(outs[si], coarse[si])
			}
		}
		early.Elapsed = time.Since(t.start)
		t.set.Coarse(&early)
		if err := stage(func(si, p int) bool { return !inCoarse(si, p) }); err != nil {
			return err
		}
	} else if err := stage(func(int, int) bool { return true }); err != nil {
		return err
	}
	for si := range rep.Solvers {
		if !refused(si) {
			rep.Solvers[si].Oracle = t.assembleOracle(outs[si], nil)
		}
	}
	return nil
}

// oracleShare is the most grid points of one oracle job: points of a
// solver that shares its passes (solvers.SharesPasses) with the same T
// read the same batches, and run together (solvers.RunShared) in groups of
// at most this many, so that a trial's points still make several jobs to
// spread over the workers (acsa's default grid: 18 points a T, 3 jobs).
const oracleShare = 6

// oracleJobs splits a trial's units into jobs: on a materialized draw,
// the points of a solver that shares its passes with the same T (and
// epochs and batch), in grid order, at most oracleShare a job; every
// other point a job of its own.
func (t *tuner) oracleJobs(units []oraclePoint, outs [][]trialOut, tr int, stored bool) [][]oraclePoint {
	type key struct {
		si, iters, batch int
		epochs           float64
	}
	var jobs [][]oraclePoint
	open := map[key]int{} // each key's job being filled
	for _, u := range units {
		if !stored || !solvers.SharesPasses(t.ds[u.si].Solver) {
			jobs = append(jobs, []oraclePoint{u})
			continue
		}
		cd := outs[u.si][tr].tuned.Grid[u.p]
		k := key{u.si, cd.Iters, cd.Batch, cd.Epochs}
		if j, ok := open[k]; ok && len(jobs[j]) < oracleShare {
			jobs[j] = append(jobs[j], u)
			continue
		}
		open[k] = len(jobs)
		jobs = append(jobs, []oraclePoint{u})
	}
	return jobs
}

// oracleTrial runs the oracle's units of trial tr on one materialized
// copy of its draw, over workers goroutines, and gives the copy back;
// done counts each (solver, trial)'s points run, for the progress. Each
// job's points run together (solvers.RunShared: each point's result the
// bits of its run alone).
func (t *tuner) oracleTrial(ctx context.Context, tr int, units []oraclePoint, outs [][]trialOut, done [][]atomic.Int64, workers int) error {
	data, release, err := t.draw(ctx, tr, workers)
	if err != nil {
		return err
	}
	defer release()
	// Every point reads the rows' squared norms: summed once here
	// instead of in each point's pass.
	m, stored := data.(*solvers.Matrix)
	if stored {
		if err := m.WarmSquaredNorms(ctx, t.in.Dim()); err != nil {
			return err
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	full := t.r.Config(tr, nil)
	full.Context = gctx
	progress := t.set.progress()
	for _, job := range t.oracleJobs(units, outs, tr, stored) {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() (err error) {
			d := t.ds[job[0].si]
			out := &outs[job[0].si][tr]
			defer func() {
				if p := recover(); p != nil {
					pts := make([]string, len(job))
					for i, u := range job {
						pts[i] = strconv.Itoa(u.p)
					}
					err = fmt.Errorf("internal error in %s's oracle-tuned reference, trial %d, grid points %s (run together): %v (this is a bug; please report it with the command line)", d.Name(), tr, strings.Join(pts, ", "), p)
				}
			}()
			if err := gctx.Err(); err != nil {
				return err
			}
			cfgs := make([]solvers.Config, len(job))
			var s solvers.Solver
			for i, u := range job {
				cfgs[i] = full
				s = out.tuned.Grid[u.p].apply(&cfgs[i], d, 0)
			}
			res, errs := solvers.RunShared(gctx, s, out.ref, data, cfgs)
			for i, u := range job {
				switch {
				case errs[i] != nil && gctx.Err() != nil:
					return gctx.Err()
				case errs[i] != nil:
					out.oracle[u.p], out.oracleHold[u.p] = math.NaN(), math.NaN()
				default:
					out.oracle[u.p], _ = t.in.Excess(res[i].W)
					out.oracleHold[u.p], _ = t.in.HoldoutLoss(res[i].W)
				}
				n := int(done[u.si][tr].Add(1))
				if progress != nil {
					progress.Put(Progress{Solver: d.Name(), Trial: tr, Iter: n, Iters: len(out.tuned.Grid), Phase: 2, Oracle: true, Total: t.total, Elapsed: time.Since(t.start)})
				}
			}
			t.set.wait(gctx)
			return nil
		})
	}
	err = g.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// coarseGrid marks the coarse points of a grid: those whose value on
// every axis (C, step, T, epochs, batch) is one of that axis's coarse
// values — of its m distinct values, k = max(2, ⌈m/2⌉) evenly spread
// from the smallest to the largest (positions round(j·(m − 1)/(k − 1)),
// j = 0, …, k − 1), both ends included, since a grid's best point often
// lies at an end of an axis. A point's value on the clip axis is its C's
// rank among the C's of the points with its T, epochs and batch: acsa's
// default clip axis is one of noise, whose C differs with T (noiseClip).
// On acsa's default grid of 72 points (6 C × 3 steps × 4 T) it keeps 12:
// the C's of step noise r̃₂·2^j for j = −10, −7, −5, the two end steps,
// the smallest and largest T.
func coarseGrid(grid []Candidate) []bool {
	axes := []func(Candidate) float64{
		clipRanks(grid),
		func(c Candidate) float64 { return c.Step },
		func(c Candidate) float64 { return float64(c.Iters) },
		func(c Candidate) float64 { return c.Epochs },
		func(c Candidate) float64 { return float64(c.Batch) },
	}
	keep := slices.Repeat([]bool{true}, len(grid))
	for _, ax := range axes {
		var vals []float64
		for _, c := range grid {
			vals = append(vals, ax(c))
		}
		slices.Sort(vals)
		vals = slices.Compact(vals)
		m := len(vals)
		if m < 2 {
			continue
		}
		k := max(2, (m+1)/2)
		coarse := make([]bool, m)
		for j := range k {
			coarse[int(math.Round(float64(j*(m-1))/float64(k-1)))] = true
		}
		for i, c := range grid {
			if j, _ := slices.BinarySearch(vals, ax(c)); !coarse[j] {
				keep[i] = false
			}
		}
	}
	return keep
}

// clipRanks gives a grid point its C's rank among the distinct C's of the
// points with the same T, epochs and batch.
func clipRanks(grid []Candidate) func(Candidate) float64 {
	type key struct {
		iters  int
		epochs float64
		batch  int
	}
	clips := map[key][]float64{}
	for _, c := range grid {
		k := key{c.Iters, c.Epochs, c.Batch}
		clips[k] = append(clips[k], c.Clip)
	}
	for k, v := range clips {
		slices.Sort(v)
		clips[k] = slices.Compact(v)
	}
	return func(c Candidate) float64 {
		j, _ := slices.BinarySearch(clips[key{c.Iters, c.Epochs, c.Batch}], c.Clip)
		return float64(j)
	}
}

// assembleOracle is one solver's oracle-tuned reference: each grid point's
// mean over the trials, in order, and the best (nil without references).
// With ran not nil, only the points it marks have run (the coarse
// reference: OracleTuned.Coarse): the others' Estimates are empty.
func (t *tuner) assembleOracle(outs []trialOut, ran []bool) *OracleTuned {
	if !t.ts.References || len(outs) == 0 || outs[0].oracle == nil {
		return nil
	}
	points := len(outs[0].oracle)
	or := &OracleTuned{Best: -1, Points: make([]Estimate, points), Holdout: Estimate{Mean: math.NaN(), SE: math.NaN()}, Coarse: ran != nil}
	for p := range points {
		if ran != nil && !(p < len(ran) && ran[p]) {
			or.Points[p] = estimate(nil)
			continue
		}
		if ran != nil {
			or.Ran = append(or.Ran, p)
		}
		ys := make([]float64, 0, len(outs))
		for _, o := range outs {
			if p < len(o.oracle) {
				ys = append(ys, o.oracle[p])
			}
		}
		or.Points[p] = estimate(ys)
		if len(ys) == len(outs) && (or.Best < 0 || or.Points[p].Mean < or.Points[or.Best].Mean) {
			or.Best = p
		}
	}
	if or.Best >= 0 {
		or.Candidate = outs[0].tuned.Grid[or.Best]
		or.Excess = or.Points[or.Best]
		or.Trials = make([]float64, len(outs))
		for i, o := range outs {
			or.Trials[i] = o.oracle[or.Best]
		}
		if t.in.HoldoutRows() > 0 {
			ys := make([]float64, len(outs))
			for i, o := range outs {
				ys[i] = o.oracleHold[or.Best]
			}
			or.Holdout = estimate(ys)
		}
	}
	return or
}
