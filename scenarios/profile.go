package scenarios

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"dpso/scenarios/dist"
	"dpso/solvers"
	"dpso/theory"
)

// MomentGrid is the grid of orders k on which the moment profile is shown;
// +Inf stands for r̃_∞ = L_f. Constants.Moment accepts any k ≥ 2.
var MomentGrid = []float64{2, 2.5, 3, 4, 6, 8, 12, 16, math.Inf(1)}

// MCDraws is the size of the Monte Carlo sample a moment profile keeps when
// no closed form exists: 2²⁰ ≥ 10⁶ draws of sup_{w∈W}‖∇f(w, x)‖ (or of its
// Gaussian factor, see the scenarios' docs), in MCChunk chunks of draws,
// chunk c from the generator dist.New(chunkKey(StreamKey(Seeded, 0, 0,
// "moments"), c)), independent of every run.
const MCDraws = 1 << 20

// MCChunk is the number of Monte Carlo draws per chunk: the chunks are drawn
// (and the moments summed) on every core, and combined in chunk order, so
// the profile is the same bits for any number of cores.
const MCChunk = 1 << 14

// MomentEntry is r̃_k at one order k.
type MomentEntry struct {
	K float64 // the order; +Inf for L_f
	// R is r̃_k = (E sup_{w∈W}‖∇f(w, x)‖^k)^{1/k}; +Inf when the moment does
	// not exist.
	R float64
	// SE is the Monte Carlo standard error of R (0 when exact; +Inf when
	// the estimator's variance is infinite, i.e. E sup‖∇f‖^{2k} = ∞).
	SE float64
	// Method says how R was obtained: "exact", "Monte Carlo (N draws)",
	// "user-given", "estimated from the data (not private)", ….
	Method string
}

// profile is a moment profile r̃_k for k ∈ [1, ∞].
type profile struct {
	lf     float64 // r̃_∞
	kmax   float64 // r̃_k < ∞ iff k < kmax
	method string  // how finite moments are obtained
	// eval returns r̃_k and its standard error for finite k < kmax.
	eval func(k float64) (r, se float64)

	cache memo[[2]float64] // r̃_k and its standard error, at most 4096 orders
}

// at returns r̃_k and its standard error.
func (p *profile) at(k float64) (r, se float64) {
	switch {
	case math.IsNaN(k) || k <= 0:
		return math.NaN(), math.NaN()
	case math.IsInf(k, 1):
		return p.lf, 0
	case k >= p.kmax:
		return math.Inf(1), 0
	}
	if v, ok := p.cache.get(k); ok {
		return v[0], v[1]
	}
	r, se = p.eval(k)
	p.cache.put(k, [2]float64{r, se}, 4096)
	return r, se
}

func (p *profile) moment(k float64) float64 {
	r, _ := p.at(k)
	return r
}

func (p *profile) entry(k float64) MomentEntry {
	r, se := p.at(k)
	m := p.method
	switch {
	case math.IsInf(k, 1):
		m = "L_f (worst case)"
	case k >= p.kmax:
		m = fmt.Sprintf("does not exist (k ≥ %s)", theory.FormatNumber(p.kmax))
	}
	return MomentEntry{K: k, R: r, SE: se, Method: m}
}

// mcSample is a sample of a non-negative random variable H (Monte Carlo
// draws, or a user's rows), kept as v_i = H_i/H_max ∈ [0, 1] with the
// largest value H_max, so that E H^k = H_max^k·mean(v^k) can be computed
// for any k > 0 without overflow (a term v_i^k below 2⁻¹⁰⁷⁴ is lost; the
// mean is at least 1/N, so the loss is below 10⁻³⁰⁰ relative).
type mcSample struct {
	v   []float64
	max float64 // H_max
}

// newSampleOf makes the sample of the values h (all ≥ 0 and finite),
// reusing h's storage.
func newSampleOf(h []float64) *mcSample {
	var m float64
	for _, x := range h {
		if x > m || x != x { // NaN propagates, as math.Max would
			m = x
		}
	}
	if m > 0 {
		inv := 1 / m
		for i, x := range h {
			if v := x * inv; v < 1 {
				h[i] = v
			} else {
				h[i] = 1
			}
		}
	}
	return &mcSample{v: h, max: m}
}

// moment returns the sample mean of H^k and its standard error
// sd(H^k)/√N, as H_max^k·mean(v^k), summed over MCChunk chunks in order
// (on every core). v^k is a product of squarings (times √v) when 2k is an
// integer up to 128 — every order of MomentGrid and the usual k, 2k — and
// e^{k ln v} otherwise.
func (s *mcSample) moment(k float64) (m, se float64) {
	var acc [2]float64
	_ = solvers.ParallelSum(context.Background(), cores(), len(s.v), MCChunk, acc[:], func(lo, hi int, a []float64) error {
		a[0], a[1] = powSums(s.v[lo:hi], 1, k) // v ∈ [0, 1]: min(1, v·1) = v
		return nil
	})
	s1, s2 := acc[0], acc[1]
	n := float64(len(s.v))
	mean := s1 / n
	variance := math.Max(0, s2/n-mean*mean) * n / (n - 1)
	if s.max == 0 {
		return 0, 0
	}
	scale := math.Pow(s.max, k)
	return mean * scale, math.Sqrt(variance/n) * scale
}

// rootFromMC turns an estimate of E G^k = c·E H^k (+ add) with standard
// error c·se(E H^k) into r̃_k = (E G^k)^{1/k} and its delta-method standard
// error se(r̃_k) = r̃_k · se(E G^k) / (k · E G^k).
func rootFromMC(k, c, mh, seh, add float64) (r, se float64) {
	m := c*mh + add
	r = math.Pow(m, 1/k)
	se = r * c * seh / (k * m)
	return r, se
}

// newMCSample draws MCDraws values of H from the "moments" stream, in
// chunks of MCChunk draws on every core (see MCDraws). It checks ctx before
// every chunk.
func newMCSample(ctx context.Context, draw func(r *dist.Rand) float64) (*mcSample, error) {
	key := solvers.StreamKey(solvers.Seeded, 0, 0, "moments")
	h := make([]float64, MCDraws)
	err := solvers.ParallelSum(ctx, cores(), MCDraws, MCChunk, nil, func(lo, hi int, _ []float64) error {
		r := dist.New(chunkKey(key, lo/MCChunk))
		for i := lo; i < hi; i++ {
			x := draw(r)
			if !(x >= 0) || math.IsInf(x, 1) {
				return fmt.Errorf("scenarios: Monte Carlo draw %d of sup‖∇f‖ is %g (a bug in the scenario's sampler)", i, x)
			}
			h[i] = x
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return newSampleOf(h), nil
}

// lazyCache computes values once per key, lets concurrent callers wait for
// an in-flight computation (each able to give up on its own context), and
// forgets a computation that failed, so that a cancelled one is redone by
// the next caller. It keeps at most max entries (oldest evicted first).
// A computation that panics gives an error naming what, in words (keys
// are internal and never shown).
type lazyCache[T any] struct {
	mu    sync.Mutex
	m     map[string]*lazyEntry[T]
	order []string
	max   int
	what  string // what the cache holds, e.g. "the Monte Carlo sample of the moments"
}

type lazyEntry[T any] struct {
	done chan struct{}
	v    T
	err  error
}

func (c *lazyCache[T]) get(ctx context.Context, key string, compute func(context.Context) (T, error)) (T, error) {
	for {
		if err := ctx.Err(); err != nil {
			var zero T
			return zero, err
		}
		c.mu.Lock()
		if c.m == nil {
			c.m = map[string]*lazyEntry[T]{}
		}
		e, ok := c.m[key]
		if !ok {
			e = &lazyEntry[T]{done: make(chan struct{})}
			c.m[key] = e
			c.order = append(c.order, key)
			for len(c.order) > c.max {
				delete(c.m, c.order[0])
				c.order = c.order[1:]
			}
			c.mu.Unlock()
			func() {
				defer func() {
					if r := recover(); r != nil {
						e.err = fmt.Errorf("scenarios: internal error while computing %s: %v (this is a bug; please report it with the command line)", c.what, r)
					}
				}()
				e.v, e.err = compute(ctx)
			}()
			if e.err != nil {
				c.mu.Lock()
				if c.m[key] == e {
					delete(c.m, key)
				}
				c.mu.Unlock()
			}
			close(e.done)
			return e.v, e.err
		}
		c.mu.Unlock()
		select {
		case <-e.done:
			if e.err != nil && ctx.Err() == nil && (errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded)) {
				continue // the computing caller gave up; compute again
			}
			return e.v, e.err
		case <-ctx.Done():
			var zero T
			return zero, ctx.Err()
		}
	}
}

// mcCache holds the Monte Carlo samples of the moment profiles (8 MB
// each), keyed by every parameter the law of sup‖∇f‖ depends on.
var mcCache = lazyCache[*mcSample]{max: 24, what: "the Monte Carlo sample of the moments"}
