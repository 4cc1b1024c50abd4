package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/stat"

	"dpso/solvers"
	"dpso/theory"
)

// drawer produces projected outputs of the audited mechanism. Each worker
// goroutine owns one (mechanisms are not safe for concurrent use).
type drawer interface {
	// draw runs the mechanism once on input side (0: D0, 1: D1) and
	// returns its output projected on the audit's direction. r is the
	// chunk's random stream; run is a number unique to this (phase, side,
	// run) for mechanisms that key their own streams by it. A draw
	// stops with ctx's error within a fraction of a second of ctx's end.
	draw(ctx context.Context, side int, run int, r *rand.Rand) (float64, error)
}

// plan is what the engine needs to collect a sample.
type plan struct {
	trials, pilot int
	chunk         int // runs per chunk
	workers       int
	mode          solvers.RandMode
	seed          uint64
	newDrawer     func() (drawer, error)
	progress      *Progress // nil: not counted
	// tick is how many runs a worker finishes between its reports to
	// progress (0: 1); each chunk's end reports too. Chosen so that a
	// tick's runs take well under a second.
	tick int
}

// Progress counts an audit's finished runs (pilot and main, both
// inputs) while it runs; its methods are safe for concurrent use.
type Progress struct {
	_           linePad // done shares its cache line with no other object
	done, total atomic.Int64
	_           linePad
}

// cacheLine is the size of a cache line (64 bytes on amd64 and arm64) and
// linePad a padding of that size: memory that one goroutine writes at
// every run shares no cache line with memory that another goroutine
// reads or writes, so that no run waits for a line to move between cores.
const cacheLine = 64

type linePad [cacheLine]byte

// isolated returns a zeroed slice of n values that shares no cache line
// with any other object (a cache line of padding on each side).
func isolated[T int64 | float64](n int) []T {
	const k = cacheLine / 8
	return make([]T, n+2*k)[k : k+n : k+n]
}

// Runs returns the runs finished so far and the audit's total (0 before
// the audit has started its runs).
func (p *Progress) Runs() (done, total int) {
	return int(p.done.Load()), int(p.total.Load())
}

// start sets the total of an audit of pilot and trials runs per input,
// before any work.
func (p *Progress) start(pilot, trials int) {
	if p != nil {
		p.total.Store(int64(2 * (pilot + trials)))
	}
}

// Quantile levels of the pooled pilot sample at which thresholds are put
// (those with fewer than minTail expected pilot outputs beyond them are
// dropped). The middle ones are where a Gaussian shift's μ is estimated
// best (the error of Φ⁻¹ at rate p grows like √(p(1−p))/φ(Φ⁻¹(p)), least
// at p = 1/2); the tail ones are where an (ε, δ) test is strongest.
var thresholdLevels = []float64{0.001, 0.003, 0.01, 0.03, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97, 0.99, 0.997, 0.999}

const (
	minTail  = 20
	histBins = 48
)

// sample is the engine's output: the thresholds' counts and the summary
// statistics of the main sample, and the pilot's direction sign.
type sample struct {
	thresholds []float64
	exceed     [2][]int64 // exceed[side][k] = #{outputs > thresholds[k]}
	n          [2]int64
	mean, m2   [2]float64
	hist       Histogram
	workers    int
	sign       float64 // +1 or −1: the outputs were multiplied by it
}

// moments are the count, mean and sum of squared deviations of one chunk
// of one side of the main sample (Welford 1962), merged over chunks in
// their fixed order: floating-point sums depend on their order.
type moments struct {
	n        int64
	mean, m2 float64
}

// add is Welford's update.
func (a *moments) add(x float64) {
	a.n++
	d := x - a.mean
	a.mean += d / float64(a.n)
	a.m2 += d * (x - a.mean)
}

// merge adds b into a (Chan, Golub & LeVeque's parallel update).
func (a *moments) merge(b moments) {
	if b.n == 0 {
		return
	}
	n := a.n + b.n
	d := b.mean - a.mean
	a.mean += d * float64(b.n) / float64(n)
	a.m2 += b.m2 + d*d*float64(a.n)*float64(b.n)/float64(n)
	a.n = n
}

// counts are the integer tallies of one side of the main sample: exact
// in any order, so each worker keeps its own (no memory shared between
// workers while they run) and they are summed at the end.
type counts struct {
	below []int64 // below[i] = #{outputs with exactly i thresholds < output}
	hist  []int64 // bins, then under, over
}

func newCounts(k int) counts {
	all := isolated[int64](k + 1 + histBins + 2)
	return counts{below: all[: k+1 : k+1], hist: all[k+1:]}
}

// add counts x.
func (c *counts) add(x float64, ts []float64, h *Histogram) {
	c.below[sort.SearchFloat64s(ts, x)]++ // thresholds < x (those equal to x are not exceeded)
	switch {
	case x < h.Lo:
		c.hist[h.Bins]++
	case x >= h.Hi:
		c.hist[h.Bins+1]++
	default:
		b := int((x - h.Lo) / (h.Hi - h.Lo) * float64(h.Bins))
		c.hist[min(b, h.Bins-1)]++
	}
}

// merge adds b into c.
func (c *counts) merge(b counts) {
	for i := range c.below {
		c.below[i] += b.below[i]
	}
	for i := range c.hist {
		c.hist[i] += b.hist[i]
	}
}

// job is one chunk of runs of one side in one phase.
type job struct {
	phase int // 0 pilot, 1 main
	side  int
	chunk int
	lo    int // first run index within the side
	hi    int
}

var phaseName = [2]string{"pilot", "main"}

// jobs splits count runs per side of a phase into chunks.
func jobs(phase, count, chunk int) []job {
	var out []job
	for side := range 2 {
		for c, lo := 0, 0; lo < count; c, lo = c+1, lo+chunk {
			out = append(out, job{phase: phase, side: side, chunk: c, lo: lo, hi: min(lo+chunk, count)})
		}
	}
	return out
}

// stream is the random stream of one chunk: solvers.NewRand(mode, seed,
// chunk, "audit/<phase>/D<side>"), so that each chunk's runs, and hence the
// whole sample, are the same whatever goroutine runs them.
func (p *plan) stream(j job) *rand.Rand {
	return solvers.NewRand(p.mode, p.seed, j.chunk, fmt.Sprintf("audit/%s/D%d", phaseName[j.phase], j.side))
}

// runIndex numbers a run uniquely over phases and sides (for mechanisms
// that key their own streams by it): 4·i + 2·phase + side.
func runIndex(j job, i int) int { return 4*i + 2*j.phase + j.side }

// worker is one goroutine's state, written by no other goroutine while
// the workers run, and padded (as its counts are) so that no other
// object shares its cache lines. A run writes nothing that another core
// reads or writes: a shared word written every run (one progress counter,
// the tallies of chunks next to each other in memory) would move its
// cache line between cores at every run, one core at a time.
type worker struct {
	_ linePad
	d drawer
	// counts[side] are the main sample's tallies of this worker's chunks
	// (nil until its first main chunk).
	counts [2]counts
	// unreported are its finished runs not yet added to the plan's
	// Progress (added every plan.tick runs and at the end of each chunk).
	unreported int
	_          linePad
}

// ran counts one finished run, and reports the worker's runs to the
// plan's Progress every p.tick of them.
func (p *plan) ran(w *worker) {
	w.unreported++
	if w.unreported >= p.tick {
		p.report(w)
	}
}

// report adds w's unreported runs to the plan's Progress.
func (p *plan) report(w *worker) {
	if p.progress != nil && w.unreported > 0 {
		p.progress.done.Add(int64(w.unreported))
	}
	w.unreported = 0
}

// forEach runs do(j, w) for every job on the plan's workers, each worker
// goroutine owning one drawer and its worker state, and returns the
// workers' states; it stops at the first error or when ctx is cancelled.
func (p *plan) forEach(ctx context.Context, js []job, do func(j job, w *worker) error) ([]*worker, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	fail := func(err error) {
		once.Do(func() { firstErr = err; cancel() })
	}
	ws := make([]*worker, p.workers)
	for i := range ws {
		wg.Go(func() {
			d, err := p.newDrawer()
			if err != nil {
				fail(err)
				return
			}
			w := &worker{d: d} // allocated by its own goroutine
			ws[i] = w
			for {
				k := int(next.Add(1)) - 1
				if k >= len(js) {
					return
				}
				if err := ctx.Err(); err != nil {
					fail(err)
					return
				}
				err := do(js[k], w)
				p.report(w)
				if err != nil {
					fail(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return ws, ctx.Err()
}

// collect runs the pilot, chooses the thresholds and the histogram's range
// on it, then runs the main sample and accumulates it chunk by chunk; the
// chunks' moments are merged in their fixed order and the integer counts
// summed, so the result is the same bit for bit for any number of
// workers.
func (p *plan) collect(ctx context.Context) (*sample, error) {
	if p.workers <= 0 {
		p.workers = runtime.GOMAXPROCS(0)
	}
	p.tick = max(p.tick, 1)
	if p.progress != nil {
		p.progress.total.Store(int64(2 * (p.pilot + p.trials))) // as start said
	}
	// Pilot: keep every output, D0's then D1's in one slice.
	pooled := make([]float64, 2*p.pilot)
	pilot := [2][]float64{pooled[:p.pilot], pooled[p.pilot:]}
	_, err := p.forEach(ctx, jobs(0, p.pilot, p.chunk), func(j job, w *worker) error {
		r := p.stream(j)
		for i := j.lo; i < j.hi; i++ {
			x, err := w.d.draw(ctx, j.side, runIndex(j, i), r)
			if err != nil {
				return err
			}
			p.ran(w)
			if err := finite(x); err != nil {
				return err
			}
			pilot[j.side][i] = x
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Orient the projection so that D1's outputs are the larger on the
	// pilot (the threshold tests say "D1" above a threshold); the pilot is
	// independent of the main sample, so this choice is fixed for it.
	smp := &sample{workers: p.workers, sign: 1}
	if stat.Mean(pilot[1], nil) < stat.Mean(pilot[0], nil) {
		smp.sign = -1
		for i := range pooled {
			pooled[i] = -pooled[i]
		}
	}
	if smp.thresholds, smp.hist, err = pilotQuantiles(ctx, pooled); err != nil {
		return nil, err
	}
	k := len(smp.thresholds)

	mainJobs := jobs(1, p.trials, p.chunk)
	moms := make([]moments, len(mainJobs))
	ws, err := p.forEach(ctx, mainJobs, func(j job, w *worker) error {
		r := p.stream(j)
		c := &w.counts[j.side]
		if c.below == nil {
			*c = newCounts(k)
		}
		var m moments
		for i := j.lo; i < j.hi; i++ {
			x, err := w.d.draw(ctx, j.side, runIndex(j, i), r)
			if err != nil {
				return err
			}
			p.ran(w)
			if err := finite(x); err != nil {
				return err
			}
			x *= smp.sign
			m.add(x)
			c.add(x, smp.thresholds, &smp.hist)
		}
		moms[indexOf(mainJobs, j)] = m
		return nil
	})
	if err != nil {
		return nil, err
	}
	var mom [2]moments
	tot := [2]counts{newCounts(k), newCounts(k)}
	for i, j := range mainJobs {
		mom[j.side].merge(moms[i])
	}
	for _, w := range ws {
		for s := range 2 {
			if w != nil && w.counts[s].below != nil {
				tot[s].merge(w.counts[s])
			}
		}
	}
	for s := range 2 {
		smp.n[s], smp.mean[s], smp.m2[s] = mom[s].n, mom[s].mean, mom[s].m2
		// exceed[k] = #{x > t_k} = Σ_{i > k} below[i].
		ex := make([]int64, k)
		var run int64
		for i := k; i >= 1; i-- {
			run += tot[s].below[i]
			ex[i-1] = run
		}
		smp.exceed[s] = ex
		h := tot[s].hist
		if s == 0 {
			smp.hist.Count0 = h[:histBins:histBins]
		} else {
			smp.hist.Count1 = h[:histBins:histBins]
		}
		smp.hist.Under[s], smp.hist.Over[s] = h[histBins], h[histBins+1]
	}
	return smp, nil
}

// finite refuses a non-finite output of the mechanism.
func finite(x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("audit: the mechanism returned a non-finite output %s (this is a bug)", theory.FormatNumber(x))
	}
	return nil
}

// indexOf finds j's position in js (jobs are generated in a fixed order:
// side-major, then chunk), in O(1).
func indexOf(js []job, j job) int {
	perSide := len(js) / 2
	return j.side*perSide + j.chunk
}
