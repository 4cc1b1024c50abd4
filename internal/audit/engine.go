package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/stat"

	"dpso/solvers"
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
}

// Progress counts an audit's finished runs (pilot and main, both
// inputs) while it runs; its methods are safe for concurrent use.
type Progress struct{ done, total atomic.Int64 }

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

// ran counts one finished run.
func (p *plan) ran() {
	if p.progress != nil {
		p.progress.done.Add(1)
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

// chunkAcc accumulates one chunk of one side of the main sample.
type chunkAcc struct {
	n        int64
	mean, m2 float64 // Welford
	below    []int64 // below[i] = #{outputs with exactly i thresholds < output}
	hist     []int64 // bins, then under, over
}

// add is Welford's update (Welford 1962).
func (a *chunkAcc) add(x float64, ts []float64, h *Histogram) {
	a.n++
	d := x - a.mean
	a.mean += d / float64(a.n)
	a.m2 += d * (x - a.mean)
	a.below[sort.SearchFloat64s(ts, x)]++ // thresholds < x (those equal to x are not exceeded)
	switch {
	case x < h.Lo:
		a.hist[h.Bins]++
	case x >= h.Hi:
		a.hist[h.Bins+1]++
	default:
		b := int((x - h.Lo) / (h.Hi - h.Lo) * float64(h.Bins))
		a.hist[min(b, h.Bins-1)]++
	}
}

// merge adds b into a (Chan, Golub & LeVeque's parallel update).
func (a *chunkAcc) merge(b *chunkAcc) {
	if b.n == 0 {
		return
	}
	n := a.n + b.n
	d := b.mean - a.mean
	a.mean += d * float64(b.n) / float64(n)
	a.m2 += b.m2 + d*d*float64(a.n)*float64(b.n)/float64(n)
	a.n = n
	for i := range a.below {
		a.below[i] += b.below[i]
	}
	for i := range a.hist {
		a.hist[i] += b.hist[i]
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

// forEach runs do(j, drawer) for every job on the plan's workers, each
// worker owning one drawer; it stops at the first error or when ctx is
// cancelled.
func (p *plan) forEach(ctx context.Context, js []job, do func(j job, d drawer) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	fail := func(err error) {
		once.Do(func() { firstErr = err; cancel() })
	}
	for range p.workers {
		wg.Go(func() {
			d, err := p.newDrawer()
			if err != nil {
				fail(err)
				return
			}
			for {
				i := int(next.Add(1)) - 1
				if i >= len(js) {
					return
				}
				if err := ctx.Err(); err != nil {
					fail(err)
					return
				}
				if err := do(js[i], d); err != nil {
					fail(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// collect runs the pilot, chooses the thresholds and the histogram's range
// on it, then runs the main sample and accumulates it chunk by chunk; the
// chunks are merged in their fixed order, so the result is the same bit
// for bit for any number of workers.
func (p *plan) collect(ctx context.Context) (*sample, error) {
	if p.workers <= 0 {
		p.workers = runtime.GOMAXPROCS(0)
	}
	if p.progress != nil {
		p.progress.total.Store(int64(2 * (p.pilot + p.trials))) // as start said
	}
	// Pilot: keep every output.
	pilot := [2][]float64{make([]float64, p.pilot), make([]float64, p.pilot)}
	err := p.forEach(ctx, jobs(0, p.pilot, p.chunk), func(j job, d drawer) error {
		r := p.stream(j)
		for i := j.lo; i < j.hi; i++ {
			x, err := d.draw(ctx, j.side, runIndex(j, i), r)
			if err != nil {
				return err
			}
			p.ran()
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
		for s := range pilot {
			for i := range pilot[s] {
				pilot[s][i] = -pilot[s][i]
			}
		}
	}
	pooled := append(append([]float64(nil), pilot[0]...), pilot[1]...)
	slices.Sort(pooled)
	smp.thresholds = chooseThresholds(pooled)
	smp.hist = histRange(pooled)
	k := len(smp.thresholds)

	mainJobs := jobs(1, p.trials, p.chunk)
	accs := make([]chunkAcc, len(mainJobs))
	for i := range accs {
		accs[i] = chunkAcc{below: make([]int64, k+1), hist: make([]int64, histBins+2)}
	}
	err = p.forEach(ctx, mainJobs, func(j job, d drawer) error {
		r := p.stream(j)
		a := &accs[indexOf(mainJobs, j)]
		for i := j.lo; i < j.hi; i++ {
			x, err := d.draw(ctx, j.side, runIndex(j, i), r)
			if err != nil {
				return err
			}
			p.ran()
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("audit: the mechanism returned a non-finite output %g (this is a bug)", x)
			}
			a.add(smp.sign*x, smp.thresholds, &smp.hist)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var tot [2]chunkAcc
	for s := range 2 {
		tot[s] = chunkAcc{below: make([]int64, k+1), hist: make([]int64, histBins+2)}
	}
	for i, j := range mainJobs {
		tot[j.side].merge(&accs[i])
	}
	for s := range 2 {
		smp.n[s], smp.mean[s], smp.m2[s] = tot[s].n, tot[s].mean, tot[s].m2
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

// indexOf finds j's position in js (jobs are generated in a fixed order:
// side-major, then chunk), in O(1).
func indexOf(js []job, j job) int {
	perSide := len(js) / 2
	return j.side*perSide + j.chunk
}

// chooseThresholds returns the distinct pooled-pilot quantiles at
// thresholdLevels with at least minTail pilot outputs beyond them.
func chooseThresholds(sorted []float64) []float64 {
	n := float64(len(sorted))
	var ts []float64
	for _, l := range thresholdLevels {
		if math.Min(l, 1-l)*n < minTail {
			continue
		}
		ts = append(ts, stat.Quantile(l, stat.Empirical, sorted, nil))
	}
	return slices.Compact(ts) // sorted already: levels increase
}

// histRange spans the pooled pilot's 0.1% to 99.9% quantiles, widened by
// a tenth on each side.
func histRange(sorted []float64) Histogram {
	lo := stat.Quantile(0.001, stat.Empirical, sorted, nil)
	hi := stat.Quantile(0.999, stat.Empirical, sorted, nil)
	w := hi - lo
	if !(w > 0) {
		w = math.Max(math.Abs(lo), 1)
	}
	return Histogram{Lo: lo - w/10, Hi: hi + w/10, Bins: histBins}
}
