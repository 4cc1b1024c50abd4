package solvers

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"

	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
)

// cancelEvery is the most per-sample gradient evaluations that pass between
// two checks of the context (the runner checks it before every block of
// samples, at most checkInterval(sd) of them). At d = 50 one evaluation (gradient, clip,
// accumulate) costs ~0.1–0.2 µs on a materialized dataset and ~1–3 µs when
// streaming generated heavy-tailed data, so 256 of them take well under a
// millisecond. For large d the interval shrinks to ⌈cancelWork/d⌉ (at
// least 1), so that the work between two checks stays about cancelWork
// floating-point entries whatever the dimension. (ctx.Err is an atomic load,
// a few ns.)
const (
	cancelEvery = 256
	cancelWork  = 16384
)

// checkInterval is the context-check interval for dimension d.
func checkInterval(d int) int64 {
	return int64(max(1, min(cancelEvery, (cancelWork+d-1)/d)))
}

// testChargeHook, when set (by tests only, never concurrently with runs),
// sees every charge a run makes to its ledger, as the ledger receives it.
var testChargeHook func(lo, hi int, c ledger.Cost)

// errShortData is returned when a dataset yields fewer samples than Len.
var errShortData = errors.New("the dataset ended before Len() samples were read")

// parallelMinFloats is the least work of an oracle call, in floats of
// data read (batch size × SampleDim), for which its chunks are spread over
// Config.Workers goroutines; smaller calls run on the solver's goroutine.
// Which goroutines run the chunks never changes the result (see
// runPieces), only the time. Waking the workers and joining them costs a
// few µs per call (5–20 µs measured); 2¹⁷ floats take 80–250 µs to read and
// process (d = 50 and d = 10, one core), so above the threshold the
// fork/join costs under about 10%. BenchmarkCallCrossover measures the
// actual crossover on a machine: on the shared 2-core development machine
// spreading paid from 2¹⁵–2¹⁶ floats at d = 10 and not reliably at d = 50
// (the second core was busy with other jobs); re-measure on many cores.
const parallelMinFloats = 1 << 17

// runner is the machinery every solver shares: the oracle, the ledger, the
// noise stream, the data source, the per-goroutine buffers, the counters,
// progress and cancellation. Nothing in its per-sample path allocates.
//
// An oracle call reads its batch [lo, hi) in pieces: the intersections of
// the batch with the data's chunks (Chunked, or ChunkLenFor(sd) rows of a
// Matrix). A call of one piece feeds the oracle directly; a call of several
// pieces feeds each piece into its own oracle.Part (when the oracle is an
// oracle.Splitter) on up to Config.Workers goroutines and merges the parts
// in order, so the output depends on the data's chunking, never on the
// number of workers. Within a piece, samples are processed in blocks:
// for a LinearLoss problem the scores ⟨w, a_i⟩ of a block, one call of
// Slopes, and the clipped accumulation of slope·a (oracle.ScaledAdder),
// without forming the gradients; for other problems Grad and Add per
// sample.
type runner struct {
	ctx     context.Context
	p       Problem
	lin     LinearLoss // p, when it is one
	cfg     Config
	d       int
	sd      int
	o       oracle.Oracle
	split   oracle.Splitter // o, when it splits
	private bool            // false: the non-private baseline nonprivate-schedule (C = ∞, no noise)
	led     *ledger.Ledger
	charges chargeBuf
	rng     *rand.Rand

	est     []float64 // the oracle's output
	g       []float64 // a gradient buffer for solvers that feed an oracle themselves (with tick)
	block   int       // samples per block
	workers int
	minPar  int     // parallelMinFloats (benchmarks lower it)
	slots   []*slot // per-goroutine state; slots[0] serves the serial paths
	src     source

	gradEvals int64
	nonFinite int64
	clipped   int64 // vectors clipping changed, over all calls
	fed       int64 // vectors fed, over all calls
	last      oracle.BatchStats

	prog  checkpointPlan
	iter  int
	iters int
	phase int

	// inCall counts the samples of the oracle call in progress that its
	// goroutines have reported (slot.unpulsed), for Config.Pulse;
	// nextPulse is the gradient evaluation count of tick's next pulse.
	inCall    atomic.Int64
	nextPulse int64

	// fixedBudget, when set, is the run's budget instead of the per-call
	// one of cfg (dp-sgd's target (ε', δ)).
	fixedBudget *ledger.Cost
	// memo, when set, holds the oracle's state after the latest call on
	// the materialized rows of a problem whose gradient does not depend on
	// w (memo.go).
	memo *callMemo
	// perIter, when > 0, schedules checkpoints by the expected gradient
	// evaluations iter·perIter instead of the counted ones, so that a
	// solver with random batch sizes (dp-sgd's Poisson batches) reports
	// its checkpoints at the same iterations in every trial.
	perIter float64
}

// slot is the state of one goroutine working on a piece.
type slot struct {
	part  oracle.Part
	rd    ChunkReader // chunked streamed data
	buf   []float64   // a block of samples
	g     []float64   // one gradient
	score []float64   // a block's scores ⟨w, a_i⟩
	sq    []float64   // a block's ‖a_i‖²
	slope []float64   // a block's slopes ℓ'
	// unpulsed counts the samples this slot fed in the current call that
	// it has not yet added to runner.inCall.
	unpulsed int64
}

// source is how the runner reads its dataset: rows of a Matrix in place,
// the chunks of a Chunked stream (carry is the slot whose reader stands at
// pos, the next unread sample), or a plain sequential reader.
type source struct {
	m     *Matrix
	ch    Chunked
	seq   SampleReader
	clen  int // chunk length of the piece grid; 0: one piece per call
	pos   int
	carry int // index of the slot whose reader stands at pos (-1: none yet)
	// sq holds ‖a_i‖² of every row of m (a materialized dataset of a
	// LinearLoss fed in factored form), summed once for all the passes
	// (sqNorms); nil otherwise.
	sq []float64
	// rn holds ‖a_i‖ = √sq[i] where m keeps them too (WarmSquaredNorms);
	// nil otherwise.
	rn []float64
}

// newRunner prepares a run on n samples of dimension sd with the named
// oracle; private = false makes the non-private baseline, which always
// averages through clip-gaussian with C = ∞ and ρ = ∞ (no clipping, no
// noise; non-finite gradients are still zeroed and counted). The dataset
// is given by the first matrixCall (a materialized *Matrix, read any
// number of times) or by stream (a dataset read once in order by
// streamCall).
func newRunner(ctx context.Context, p Problem, cfg Config, oracleName string, private bool, n, sd int, plannedEvals int64, iters int) (*runner, error) {
	d := p.Dim()
	if d < 1 {
		return nil, &ConfigError{"problem", fmt.Sprintf("dimension d = %d; want d ≥ 1", d)}
	}
	if !private {
		oracleName = "clip-gaussian"
	}
	o, err := newOracle(oracleName, cfg)
	if err != nil {
		return nil, err
	}
	r := &runner{
		ctx:     ctx,
		p:       p,
		cfg:     cfg,
		d:       d,
		sd:      sd,
		o:       o,
		private: private,
		led:     ledger.New(n),
		rng:     NewRand(cfg.Rand, cfg.Seed, cfg.Trial, "noise"),
		est:     make([]float64, d),
		g:       make([]float64, d),
		block:   max(1, min(int(checkInterval(sd)), 4096/max(sd, 1))),
		workers: max(1, cfg.Workers),
		minPar:  parallelMinFloats,
		prog:    newCheckpointPlan(cfg.Checkpoints, plannedEvals),
		iters:   iters,
	}
	if ll, ok := p.(LinearLoss); ok && ll.LinearModel() {
		r.lin = ll
	}
	r.split, _ = o.(oracle.Splitter)
	r.memo = newCallMemo(p, o)
	r.charges.led = r.led
	oracle.SetRand(o, r.rng) // shuffle oracles' local randomizers
	return r, nil
}

// stream sets the dataset that streamCall reads once, in order.
func (r *runner) stream(data Samples) {
	switch dt := data.(type) {
	case *Matrix:
		r.src = source{m: dt, clen: dt.ChunkLen(), carry: -1}
		if _, ok := r.o.(oracle.ScaledAdder); ok && r.lin != nil && r.lin.L2() == 0 {
			r.src.sq, r.src.rn = dt.keptNorms(r.d) // nil unless kept: the pass sums them
		}
	case Chunked:
		r.src = source{ch: dt, clen: dt.ChunkLen(), carry: -1}
	default:
		r.src = source{seq: data.Open(), carry: -1}
	}
	r.slots = []*slot{r.newSlot()}
}

func (r *runner) newSlot() *slot {
	s := &slot{
		g:     make([]float64, r.d),
		score: make([]float64, r.block),
		sq:    make([]float64, r.block),
		slope: make([]float64, r.block),
	}
	if r.src.m == nil {
		s.buf = make([]float64, r.block*r.sd)
	}
	if r.src.ch != nil {
		s.rd = r.src.ch.NewChunkReader()
	}
	if r.split != nil {
		s.part = r.split.NewPart()
	}
	return s
}

// budget is the per-sample budget the run must stay within.
func (r *runner) budget() ledger.Cost {
	if r.fixedBudget != nil {
		return *r.fixedBudget
	}
	if !r.private {
		return ledger.Cost{Rho: inf}
	}
	if r.cfg.NoNoise {
		return ledger.Cost{Rho: inf, Eps: inf, Delta: 1}
	}
	return r.cfg.Budget(r.o.Kind())
}

// cost is the budget of one call that owns 1/share of the per-sample budget.
func (r *runner) cost(share float64) ledger.Cost {
	if !r.private {
		return ledger.Cost{Rho: inf}
	}
	if r.cfg.NoNoise {
		// An infinite budget: no noise (a shuffle protocol runs without
		// privacy), the clip threshold as given.
		if r.o.Kind() == oracle.Shuffle {
			return ledger.Cost{Eps: inf, Delta: r.cfg.Delta}
		}
		return ledger.Cost{Rho: inf}
	}
	return callCost(r.o.Kind(), r.cfg, share)
}

// threshold maps an ℓ2 clip threshold to the oracle's own parameter.
func (r *runner) threshold(c float64) float64 {
	if !r.private {
		return inf
	}
	return r.o.Threshold(c, r.d)
}

func (r *runner) begin(s int, c float64, cost ledger.Cost) error {
	if ds, ok := r.o.(oracle.DetailSetter); ok {
		// A call's statistics are shown only at a checkpoint (see step and
		// end): the distribution of the norms is kept for those calls only.
		ds.SetDetail(r.cfg.batchDetail() && (r.iter+1 >= r.iters || r.prog.peek(r.gradEvals+int64(s))))
	}
	if err := r.o.Begin(r.d, s, c, cost); err != nil {
		return &ConfigError{"oracle", err.Error()}
	}
	return nil
}

func (r *runner) finish(lo, hi int) error {
	call := r.o.Finish(r.est, r.rng)
	r.last = call.Stats
	r.nonFinite += int64(call.Stats.NonFinite)
	if r.private {
		r.clipped += int64(call.Stats.Clipped)
		r.fed += int64(call.Stats.Size)
	}
	if err := r.charges.add(lo, hi, call.Cost); err != nil {
		return fmt.Errorf("%w (this is a bug)", err)
	}
	return nil
}

// ticks counts a block of n gradient evaluations made outside call (a
// solver that feeds an oracle itself, a block at a time: at most
// checkInterval(sd) of them), pulses (tickPulse) and checks the context.
func (r *runner) ticks(n int) error {
	r.gradEvals += int64(n)
	r.tickPulse()
	return r.ctx.Err()
}

// streamCall reads the next s samples of the run's stream (indices
// [lo, lo+s); calls read consecutive batches), feeds their gradients at w
// to the oracle with clip parameter c (already mapped by threshold) and
// budget cost, and leaves the estimate in r.est.
func (r *runner) streamCall(lo, s int, w []float64, c float64, cost ledger.Cost) error {
	if r.slots == nil {
		return errors.New("solvers: streamCall before stream (this is a bug)")
	}
	if r.src.m == nil && lo != r.src.pos {
		return fmt.Errorf("solvers: stream read at %d, expected %d (this is a bug)", lo, r.src.pos)
	}
	return r.call(lo, lo+s, w, c, cost)
}

// matrixCall is an oracle call over the rows [lo, hi) of m, the run's
// materialized dataset (any rows, any number of times; every call of a run
// passes the same m).
func (r *runner) matrixCall(m *Matrix, lo, hi int, w []float64, c float64, cost ledger.Cost) error {
	switch {
	case r.slots == nil:
		r.src = source{m: m, clen: m.ChunkLen(), carry: -1}
		if _, ok := r.o.(oracle.ScaledAdder); ok && r.lin != nil && r.lin.L2() == 0 {
			sq, err := m.squaredNorms(r.ctx, r.d)
			if err != nil {
				return err
			}
			r.src.sq = sq
		}
		r.slots = []*slot{r.newSlot()}
	case r.src.m != m:
		return errors.New("solvers: matrixCall on another dataset (this is a bug)")
	}
	return r.call(lo, hi, w, c, cost)
}

// call is one oracle call on the samples [lo, hi), read in pieces (see
// runner).
func (r *runner) call(lo, hi int, w []float64, c float64, cost ledger.Cost) error {
	if err := r.begin(hi-lo, c, cost); err != nil {
		return err
	}
	if ok, err := r.replay(lo, hi, c); ok || err != nil {
		if err != nil {
			return err
		}
		r.gradEvals += int64(hi - lo)
		return r.finish(lo, hi)
	}
	r.startPulses()
	k := r.pieces(lo, hi)
	if k > 1 && r.split != nil {
		if err := r.splitCall(lo, hi, k, w); err != nil {
			return err
		}
	} else {
		// One goroutine, the oracle fed directly, piece after piece.
		s := r.slots[0]
		r.takeCarry(0)
		for i := range k {
			a, b := r.piece(lo, hi, i)
			if err := r.feed(s, r.o, a, b, w); err != nil {
				return err
			}
		}
		if r.src.ch != nil {
			r.src.carry = 0
		}
	}
	r.gradEvals += int64(hi - lo)
	if r.src.m == nil {
		r.src.pos = hi
	}
	r.remember(lo, hi, c)
	return r.finish(lo, hi)
}

// pieces is the number of pieces of the call [lo, hi).
func (r *runner) pieces(lo, hi int) int {
	l := r.src.clen
	if l == 0 || hi <= lo {
		return 1
	}
	return (hi-1)/l - lo/l + 1
}

// piece returns the range of piece i of the call [lo, hi).
func (r *runner) piece(lo, hi, i int) (a, b int) {
	l := r.src.clen
	if l == 0 {
		return lo, hi
	}
	a, b = lo, (lo/l+1)*l
	if i > 0 {
		a = (lo/l + i) * l
		b = a + l
	}
	return a, min(b, hi)
}

// takeCarry moves the reader that stands at the stream's position into
// slots[i] (the slot of the call's first piece).
func (r *runner) takeCarry(i int) {
	if r.src.ch == nil || r.src.carry < 0 || r.src.carry == i {
		return
	}
	r.slots[i].rd, r.slots[r.src.carry].rd = r.slots[r.src.carry].rd, r.slots[i].rd
	r.src.carry = i
}

// splitCall feeds the k pieces of [lo, hi) into parts on up to
// Config.Workers goroutines and merges them in order.
func (r *runner) splitCall(lo, hi, k int, w []float64) error {
	workers := 1
	if (hi-lo)*r.sd >= r.minPar {
		workers = min(r.workers, k)
	}
	for len(r.slots) < 2*workers {
		r.slots = append(r.slots, r.newSlot())
	}
	r.takeCarry(0)
	last := 0
	err := runPieces(workers, k, func(i, si int) error {
		a, b := r.piece(lo, hi, i)
		s := r.slots[si]
		r.split.StartPart(s.part, a-lo, b-lo)
		return r.feed(s, s.part, a, b, w)
	}, func(i, si int) {
		r.split.MergePart(r.slots[si].part)
		last = si
	})
	if err != nil {
		return err
	}
	if r.src.ch != nil {
		r.src.carry = last
	}
	return nil
}

// feed reads the samples [a, b) (one piece) and feeds their gradients at w
// into dst, a block at a time, checking the context before each block.
func (r *runner) feed(s *slot, dst oracle.Part, a, b int, w []float64) error {
	sd := r.sd
	if r.src.ch != nil && a%r.src.clen == 0 {
		s.rd.Seek(a / r.src.clen)
	}
	sa, _ := dst.(oracle.ScaledAdder)
	for i := a; i < b; {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		nb := min(r.block, b-i)
		var xs []float64
		switch {
		case r.src.m != nil:
			xs = r.src.m.Data[i*sd : (i+nb)*sd]
			// The oracle's AddScaled asks for the next block while it
			// works on this one (oracle.Aheader).
			if ah, ok := sa.(oracle.Aheader); ok && i+nb < b && r.lin != nil && r.lin.L2() == 0 {
				ah.SetAhead(r.src.m.Data[(i+nb)*sd : min(b, i+2*nb)*sd])
			}
		case r.src.ch != nil:
			if got := s.rd.Read(s.buf[:nb*sd]); got != nb {
				return errShortData
			}
			xs = s.buf[:nb*sd]
		default:
			for j := range nb {
				if !r.src.seq.Next(s.buf[j*sd : (j+1)*sd]) {
					return errShortData
				}
			}
			xs = s.buf[:nb*sd]
		}
		r.feedBlock(s, dst, sa, xs, i, nb, w)
		i += nb
		if r.cfg.Pulse != nil {
			r.pulse(s, nb)
		}
	}
	return nil
}

// checkpoint reports progress with w as the current output iterate.
func (r *runner) checkpoint(w []float64, done bool) {
	if r.cfg.Observe == nil {
		return
	}
	r.charges.flush()
	r.cfg.Observe(Checkpoint{
		Iter:      r.iter,
		Iters:     r.iters,
		Phase:     r.phase,
		GradEvals: r.gradEvals,
		W:         append([]float64(nil), w...),
		Spent:     r.led.Spent(),
		Batch:     r.last,
		NonFinite: r.nonFinite,
		Done:      done,
	})
}

// step ends one iteration: counts it and reports a checkpoint when one is
// due. It returns the context's error if the run was cancelled (possibly
// by the observer itself).
func (r *runner) step(w []float64) error {
	r.iter++
	// The last iteration's checkpoint is the Done one, reported by end.
	evals := r.gradEvals
	if r.perIter > 0 {
		evals = int64(float64(r.iter) * r.perIter)
	}
	if r.cfg.Observe != nil && r.iter < r.iters && r.prog.due(evals) {
		r.checkpoint(w, false)
	}
	return r.ctx.Err()
}

// start reports the first checkpoint (w_0).
func (r *runner) start(w []float64) error {
	r.checkpoint(w, false)
	return r.ctx.Err()
}

// end checks the ledger against the budget, reports the last checkpoint and
// fills the common fields of res.
func (r *runner) end(w []float64, res *Result) error {
	if err := r.charges.flush(); err != nil {
		return fmt.Errorf("%w (this is a bug)", err)
	}
	res.W = w
	res.GradEvals = r.gradEvals
	res.NonFinite = r.nonFinite
	res.Clipped, res.Fed = r.clipped, r.fed
	res.Budget = r.budget()
	res.Spent = r.led.Spent()
	res.Events = r.led.Events()
	res.Rand = r.cfg.Rand
	if err := r.led.Check(res.Budget); err != nil {
		return fmt.Errorf("%s: %w (this is a bug in the solver's batch schedule)", res.Solver, err)
	}
	r.checkpoint(w, true)
	return nil
}

// abort fills what is known of a run that stopped early.
func (r *runner) abort(w []float64, res *Result) {
	r.charges.flush()
	res.W = append([]float64(nil), w...)
	res.GradEvals = r.gradEvals
	res.NonFinite = r.nonFinite
	res.Clipped, res.Fed = r.clipped, r.fed
	res.Budget = r.budget()
	res.Spent = r.led.Spent()
	res.Events = r.led.Events()
	res.Rand = r.cfg.Rand
}

// chargeBuf forwards charges to the ledger, merging a charge with the
// pending one when that is exactly equivalent per sample:
//   - the same range and the same cost (T passes of a full-batch method):
//     counted, and charged once as count·cost, which is exact to two
//     roundings where adding ρ/T up to T times could drift by T ulps;
//   - the adjacent range with the same cost, pending a single charge
//     (consecutive disjoint batches of a one-pass method): every sample of
//     the union pays that cost once.
//
// This keeps the ledger's memory independent of T (T can be n). Overlapping
// or non-adjacent ranges are never merged, so a schedule that reads a sample
// twice still shows in the ledger.
type chargeBuf struct {
	led    *ledger.Ledger
	lo, hi int
	cost   ledger.Cost
	count  int
	err    error
}

func (c *chargeBuf) add(lo, hi int, cost ledger.Cost) error {
	if c.count > 0 && cost == c.cost {
		switch {
		case lo == c.lo && hi == c.hi:
			c.count++
			return nil
		case lo == c.hi && c.count == 1:
			c.hi = hi
			return nil
		}
	}
	if err := c.flush(); err != nil {
		return err
	}
	c.lo, c.hi, c.cost, c.count = lo, hi, cost, 1
	return nil
}

func (c *chargeBuf) flush() error {
	if c.count > 0 {
		m := float64(c.count)
		total := ledger.Cost{Rho: c.cost.Rho * m, Eps: c.cost.Eps * m, Delta: c.cost.Delta * m}
		c.count = 0
		if testChargeHook != nil {
			testChargeHook(c.lo, c.hi, total)
		}
		if err := c.led.Charge(c.lo, c.hi, total); err != nil && c.err == nil {
			c.err = err
		}
	}
	return c.err
}

// MaxMaterializeBytes caps the memory a multi-pass solver may take to
// materialize a streamed dataset (n × SampleDim float64s): beyond it the run
// is refused with a *ConfigError instead of exhausting memory.
const MaxMaterializeBytes = 2 << 30

// materialize is Materialize for the multi-pass solvers: a *Matrix is
// used as is; a streamed dataset is read once into memory — chunk by chunk
// on up to workers goroutines when it is Chunked (each chunk lands at its
// own rows, so the matrix is the same for any number of workers), checking
// the context before every chunk or every cancelEvery rows — and datasets
// above MaxMaterializeBytes are refused.
func materialize(ctx context.Context, solver string, data Samples, workers int) (*Matrix, error) {
	if m, ok := data.(*Matrix); ok {
		return m, nil
	}
	n, sd := data.Len(), data.SampleDim()
	if bytes := float64(n) * float64(sd) * 8; bytes > MaxMaterializeBytes {
		return nil, &ConfigError{"n", fmt.Sprintf("%s makes many passes and keeps the dataset in memory: n·d = %d·%d floats take %s GB, more than the %d GB allowed; use fewer samples or a one-pass solver (acsa, clipped-sgd, prox-sgd)",
			solver, n, sd, num4(bytes/1e9), MaxMaterializeBytes>>30)}
	}
	buf, err := datasetFloats(ctx, n*sd)
	if err != nil {
		return nil, err
	}
	m := &Matrix{Data: buf, Dim: sd, norms: &rowNorms{}}
	if ch, ok := data.(Chunked); ok {
		l := ch.ChunkLen()
		k := (n + l - 1) / l
		w := 1
		if n*sd >= parallelMinFloats {
			w = max(1, min(workers, k))
		}
		rds := make([]ChunkReader, 2*w)
		for i := range rds {
			rds[i] = ch.NewChunkReader()
		}
		err := runPieces(w, k, func(c, slot int) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			lo, hi := c*l, min(n, (c+1)*l)
			rd := rds[slot]
			rd.Seek(c)
			if rd.Read(m.Data[lo*sd:hi*sd]) != hi-lo {
				return errShortData
			}
			return nil
		}, func(int, int) {})
		if err != nil {
			return nil, err
		}
		return m, nil
	}
	rd := data.Open()
	for i := 0; i < n; i++ {
		if i%cancelEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if !rd.Next(m.Data[i*sd : (i+1)*sd]) {
			return nil, errShortData
		}
	}
	return m, nil
}
