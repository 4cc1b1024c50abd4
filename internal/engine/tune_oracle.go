package engine

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
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
// workers and in any order.
func (t *tuner) oracles(ctx context.Context, rep *TuneReport, outs [][]trialOut) error {
	refused := func(si int) bool { return rep.Solvers[si].Refused != "" }
	trials := t.r.Spec.Trials
	for si := range outs {
		if refused(si) {
			continue
		}
		for tr := range outs[si] {
			o := &outs[si][tr]
			o.oracle = make([]float64, len(o.tuned.Grid))
			o.oracleHold = make([]float64, len(o.tuned.Grid))
		}
	}
	workers := t.r.Spec.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	for tr := range trials {
		var units []oraclePoint
		for si := range outs {
			if refused(si) {
				continue
			}
			for p := range outs[si][tr].tuned.Grid {
				units = append(units, oraclePoint{si, p})
			}
		}
		if len(units) == 0 {
			continue
		}
		if err := t.oracleTrial(ctx, tr, units, outs, workers); err != nil {
			return err
		}
	}
	for si := range rep.Solvers {
		if !refused(si) {
			rep.Solvers[si].Oracle = t.assembleOracle(outs[si])
		}
	}
	return nil
}

// oracleTrial runs the oracle's units of trial tr on one materialized
// copy of its draw, over workers goroutines, and gives the copy back.
func (t *tuner) oracleTrial(ctx context.Context, tr int, units []oraclePoint, outs [][]trialOut, workers int) error {
	data, release, err := t.draw(ctx, tr, workers)
	if err != nil {
		return err
	}
	defer release()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	full := t.r.Config(tr, nil)
	full.Context = gctx
	done := make([]atomic.Int64, len(outs)) // each solver's points done in this trial
	progress := t.set.progress()
	for _, u := range units {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() (err error) {
			d := t.ds[u.si]
			out := &outs[u.si][tr]
			cd := out.tuned.Grid[u.p]
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("internal error in %s's oracle-tuned reference, trial %d, grid point %d: %v (this is a bug; please report it with the command line)", d.Name(), tr, u.p, p)
				}
			}()
			if err := gctx.Err(); err != nil {
				return err
			}
			ocfg := full
			res, err := cd.apply(&ocfg, d, 0).Run(gctx, out.ref, data, ocfg)
			switch {
			case err != nil && gctx.Err() != nil:
				return gctx.Err()
			case err != nil:
				out.oracle[u.p], out.oracleHold[u.p] = math.NaN(), math.NaN()
			default:
				out.oracle[u.p], _ = t.in.Excess(res.W)
				out.oracleHold[u.p], _ = t.in.HoldoutLoss(res.W)
			}
			n := int(done[u.si].Add(1))
			if progress != nil {
				progress.Put(Progress{Solver: d.Name(), Trial: tr, Iter: n, Iters: len(out.tuned.Grid), Phase: 2, Oracle: true, Total: t.total, Elapsed: time.Since(t.start)})
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
