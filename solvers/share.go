package solvers

import (
	"context"

	"dpso/solvers/oracle"
)

// passSharer is a solver whose runs on one materialized dataset can share
// their passes over it: a one-pass solver, whose batches (the consecutive
// disjoint [lo, lo + s_t) of newBatches) are fixed by n and its number of
// calls T alone, whatever its clip threshold, step or iterates.
type passSharer interface {
	Solver
	sharedLoop(ctx context.Context, p Problem, data Samples, cfg Config) (*onePassLoop, error)
}

func (s ACSA) sharedLoop(ctx context.Context, p Problem, data Samples, cfg Config) (*onePassLoop, error) {
	pl, pr, err := s.plan(p, data.Len(), cfg)
	if err != nil {
		return nil, err
	}
	return s.loop(ctx, p, data, cfg, pl, pr, true, s.Name()), nil
}

func (s ClippedSGD) sharedLoop(ctx context.Context, p Problem, data Samples, cfg Config) (*onePassLoop, error) {
	pl, pr, err := s.plan(p, data.Len(), cfg)
	if err != nil {
		return nil, err
	}
	return s.loop(ctx, p, data, cfg, pl, pr, true, s.Name()), nil
}

func (s ProxSGD) sharedLoop(ctx context.Context, p Problem, data Samples, cfg Config) (*onePassLoop, error) {
	pl, pr, err := s.plan(p, data.Len(), cfg)
	if err != nil {
		return nil, err
	}
	return s.loop(ctx, p, data, cfg, pl, pr, true, s.Name()), nil
}

// SharesPasses reports whether RunShared shares the passes of s's runs:
// the one-pass solvers (acsa, clipped-sgd, prox-sgd), on a materialized
// dataset, between runs with the same number of calls T.
func SharesPasses(s Solver) bool {
	_, ok := s.(passSharer)
	return ok
}

// RunShared runs s at each of cfgs on the same data, on the calling
// goroutine: res[i] and errs[i] are, bit for bit, what s.Run(ctx, p, data,
// cfgs[i]) returns — each run's own clip threshold, step, iterates, noise
// stream (its cfgs[i]'s), oracle and ledger, in its own order of
// operations. What the runs share is the reading of the rows: for a solver
// that SharesPasses on a *Matrix, the runs whose batches coincide (the same
// T) make their t-th oracle calls together, each block of rows
// (runner.block of them, a few KiB) fed to every run's oracle in turn while
// it is in cache, instead of each run streaming the whole dataset from
// memory once. Runs of other solvers, or on other data, run one after
// the other.
func RunShared(ctx context.Context, s Solver, p Problem, data Samples, cfgs []Config) (res []Result, errs []error) {
	res, errs = make([]Result, len(cfgs)), make([]error, len(cfgs))
	sh, ok := s.(passSharer)
	m, stored := data.(*Matrix)
	if !ok || !stored || len(cfgs) < 2 {
		for i, cfg := range cfgs {
			res[i], errs[i] = s.Run(ctx, p, data, cfg)
		}
		return res, errs
	}
	loops := make([]*onePassLoop, len(cfgs))
	for i, cfg := range cfgs {
		l, err := sh.sharedLoop(ctx, p, data, cfg)
		if err != nil {
			res[i], errs[i] = Result{Solver: s.Name()}, err
			continue
		}
		loops[i] = l
	}
	done := make([]bool, len(loops))
	for i, l := range loops {
		if l == nil || done[i] {
			continue
		}
		if !l.live() || l.r.src.m != m || l.r.memo != nil {
			l.calls()
			done[i] = true
			continue
		}
		var g passGroup
		for j := i; j < len(loops); j++ {
			lj := loops[j]
			if lj != nil && !done[j] && lj.live() && lj.r.src.m == m && lj.r.memo == nil && lj.op.b == l.op.b {
				g.loops = append(g.loops, lj)
				done[j] = true
			}
		}
		g.run(m)
	}
	for i, l := range loops {
		if l != nil {
			res[i], errs[i] = l.end()
		}
	}
	return res, errs
}

// passGroup is one-pass runs on the same batches of one *Matrix, made in
// step: their t-th calls read the t-th batch together (sharedCall). The
// slices are the scratch of each call, one entry a run.
type passGroup struct {
	loops []*onePassLoop
	act   []*onePassLoop // the runs in the call at hand
	w     [][]float64    // their points
	fed   []*onePassLoop // those of act whose call began
	fw    [][]float64    // and their points
	dst   []oracle.Part  // what each feeds: its oracle or its part
	sa    []oracle.ScaledAdder
}

// run makes every call of the group's runs.
func (g *passGroup) run(m *Matrix) {
	n := len(g.loops)
	g.act = make([]*onePassLoop, 0, n)
	g.w = make([][]float64, 0, n)
	g.fed = make([]*onePassLoop, 0, n)
	g.fw = make([][]float64, 0, n)
	g.dst = make([]oracle.Part, n)
	g.sa = make([]oracle.ScaledAdder, n)
	for {
		g.act, g.w = g.act[:0], g.w[:0]
		for _, l := range g.loops {
			if l.live() {
				g.act = append(g.act, l)
				g.w = append(g.w, l.point(l.t))
			}
		}
		if len(g.act) == 0 {
			return
		}
		g.call(m)
		for _, l := range g.act {
			if l.err == nil {
				l.advance()
			}
		}
	}
}

// call is the runs' next oracle call, on the same rows [lo, hi): for each
// run what runner.call does on a materialized dataset without a memo —
// begin, the pieces fed in order (each into the run's part and merged, or
// into its oracle directly, as runner.call chooses), finish — with the
// loop over blocks of rows outside the loop over the runs.
func (g *passGroup) call(m *Matrix) {
	l0 := g.act[0]
	lo, hi := l0.lo, l0.lo+l0.size()
	act, w := g.fed[:0], g.fw[:0]
	for i, l := range g.act {
		if err := l.r.begin(hi-lo, l.c, l.cost); err != nil {
			l.fail(err)
			continue
		}
		l.r.startPulses()
		act, w = append(act, l), append(w, g.w[i])
	}
	if len(act) == 0 {
		return
	}
	r0 := act[0].r
	k, sd := r0.pieces(lo, hi), r0.sd
	split := func(r *runner) bool { return k > 1 && r.split != nil }
	for i := range k {
		a, b := r0.piece(lo, hi, i)
		for j, l := range act {
			r := l.r
			g.dst[j] = r.o
			if split(r) {
				r.split.StartPart(r.slots[0].part, a-lo, b-lo)
				g.dst[j] = r.slots[0].part
			}
			g.sa[j], _ = g.dst[j].(oracle.ScaledAdder)
		}
		for x := a; x < b; {
			if err := r0.ctx.Err(); err != nil {
				for _, l := range act {
					l.fail(err)
				}
				return
			}
			nb := min(r0.block, b-x)
			xs := m.Data[x*sd : (x+nb)*sd]
			for j, l := range act {
				r := l.r
				r.feedBlock(r.slots[0], g.dst[j], g.sa[j], xs, x, nb, w[j])
				if r.cfg.Pulse != nil {
					r.pulse(r.slots[0], nb)
				}
			}
			x += nb
		}
		for _, l := range act {
			if r := l.r; split(r) {
				r.split.MergePart(r.slots[0].part)
			}
		}
	}
	for _, l := range act {
		r := l.r
		r.gradEvals += int64(hi - lo)
		r.remember(lo, hi, l.c)
		if err := r.finish(lo, hi); err != nil {
			l.fail(err)
		}
	}
}
