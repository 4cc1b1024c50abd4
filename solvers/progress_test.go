package solvers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// countingProblem counts Grad calls (one goroutine only).
type countingProblem struct {
	Problem
	calls int64
}

func (c *countingProblem) Grad(g, w, x []float64) {
	c.calls++
	c.Problem.Grad(g, w, x)
}

// Checkpoints: the first at w_0 with no work, then at log-spaced
// thresholds, the last with Done; at most K + 2 of them; gradient
// evaluations and iterations increase; W is a fresh copy.
func TestCheckpoints(t *testing.T) {
	mp := &meanProblem{d: 3, radius: 2, center: []float64{0.3, 0.1, -0.2}, scale: 1, nu: 5}
	for _, name := range []string{"acsa", "clipped-sgd", "prox-sgd", "localized", "nonprivate-schedule"} {
		t.Run(name, func(t *testing.T) {
			s, _ := Lookup(name)
			var cps []Checkpoint
			n := 20000
			cfg := Config{Eps: 1, K: 2, Seed: 3, Checkpoints: 16, WorkBudget: 300000, Observe: func(c Checkpoint) {
				cps = append(cps, c)
				c.W[0] = 1e9 // the receiver owns W
			}}
			if name == "localized" {
				n = 512
			}
			res, err := s.Run(context.Background(), mp, mp.samples(n, 1, 0), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(cps) < 3 || len(cps) > 16+2 {
				t.Fatalf("%d checkpoints, want 3..18", len(cps))
			}
			first, last := cps[0], cps[len(cps)-1]
			if first.GradEvals != 0 || first.Iter != 0 || first.Done || vec0(first.W[1:]) != 0 {
				t.Errorf("first checkpoint %+v, want w_0 = 0 with no work", first)
			}
			if !last.Done || last.GradEvals != res.GradEvals || last.Iter != last.Iters {
				t.Errorf("last checkpoint Done=%v GradEvals=%d Iter=%d/%d, want Done at %d", last.Done, last.GradEvals, last.Iter, last.Iters, res.GradEvals)
			}
			for i, c := range cps[:len(cps)-1] {
				if c.Done {
					t.Errorf("checkpoint %d is Done before the end", i)
				}
			}
			if res.W[0] == 1e9 {
				t.Error("the observer's write to W reached the result")
			}
			for i := 1; i < len(cps); i++ {
				if cps[i].GradEvals <= cps[i-1].GradEvals || cps[i].Iter <= cps[i-1].Iter {
					t.Errorf("checkpoint %d: evals %d → %d, iter %d → %d do not increase", i, cps[i-1].GradEvals, cps[i].GradEvals, cps[i-1].Iter, cps[i].Iter)
				}
				if cps[i].Spent.Rho < cps[i-1].Spent.Rho {
					t.Errorf("spent privacy decreased at checkpoint %d", i)
				}
			}
			// Log spacing: an intermediate checkpoint fires at the first
			// iteration boundary at or after a threshold E^{j/K}, so the
			// index ⌊K ln(evals)/ln E⌋ of the latest threshold reached is
			// ≥ 1 and strictly increases from one to the next.
			E := float64(res.Params.GradEvals)
			prev := 0
			for _, c := range cps[1 : len(cps)-1] {
				j := int(math.Floor(16*math.Log(float64(c.GradEvals))/math.Log(E) + 1e-9))
				if j <= prev {
					t.Errorf("checkpoint at %d evaluations reached threshold %d, not past %d", c.GradEvals, j, prev)
				}
				prev = j
				if c.Batch.Size == 0 {
					t.Errorf("intermediate checkpoint without batch statistics")
				}
			}
			if math.IsNaN(last.Batch.Quantiles[1]) || last.Batch.Size == 0 {
				t.Errorf("last checkpoint's batch stats %+v are empty", last.Batch)
			}
		})
	}
}

func vec0(w []float64) float64 {
	var s float64
	for _, v := range w {
		s += math.Abs(v)
	}
	return s
}

// Cancellation from inside Observe (deterministic): the run returns the
// context's error, and the number of gradient evaluations after the
// cancellation point is at most the check interval cancelEvery, with
// seeded and with secure randomness (whose exact noise costs each oracle
// call d draws of a few hundred nanoseconds, between the same checks).
func TestCancelFromObserve(t *testing.T) {
	base := &meanProblem{d: 4, radius: 2, center: []float64{0.1, 0.2, 0.3, 0.4}, scale: 1, nu: 5}
	for _, mode := range []RandMode{Seeded, Secure} {
		for _, name := range []string{"acsa", "clipped-sgd", "prox-sgd", "localized", "localized-sc", "nonprivate-schedule", "lipschitz-dpsgd", "dp-sgd"} {
			cancelFromObserve(t, base, mode, name)
		}
	}
}

// cancelFromObserve is one case of TestCancelFromObserve: solver name
// under randomness mode.
func cancelFromObserve(t *testing.T, base *meanProblem, mode RandMode, name string) {
	t.Run(name+" "+mode.String(), func(t *testing.T) {
		s, _ := Lookup(name)
		cp := &countingProblem{Problem: base}
		if name == "lipschitz-dpsgd" {
			cp.Problem = &meanProblem{d: 4, radius: 2, center: []float64{0.1, 0.2, 0.3, 0.4}, scale: 1, nu: 5, cut: 50}
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var at int64 = -1
		seen := 0
		cfg := Config{Eps: 1, K: 2, Checkpoints: 64, Rand: mode, Observe: func(c Checkpoint) {
			seen++
			if seen == 4 {
				at = cp.calls
				cancel()
			}
		}}
		n := 200000
		if name == "localized" || name == "localized-sc" {
			n = 2048
		}
		res, err := s.Run(ctx, cp, cp.Problem.(interface {
			samples(int, uint64, int) *genSamples
		}).samples(n, 1, 0), cfg)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if at < 0 {
			t.Fatal("never cancelled")
		}
		if after := cp.calls - at; after > cancelEvery {
			t.Errorf("%d gradient evaluations after cancellation, want ≤ %d", after, cancelEvery)
		}
		if res.GradEvals != cp.calls || len(res.W) != 4 {
			t.Errorf("partial result GradEvals = %d (counted %d), len(W) = %d", res.GradEvals, cp.calls, len(res.W))
		}
	})
}

// Cancellation from another goroutine while a run is inside a long oracle
// call: the run returns within the check interval of its own clock (the
// test asserts the count of evaluations after the cancel, read by the
// solver's goroutine through the problem, not the wall clock).
func TestCancelFromOutside(t *testing.T) {
	base := &meanProblem{d: 4, radius: 2, center: []float64{0.1, 0.2, 0.3, 0.4}, scale: 1, nu: 5}
	gate := make(chan struct{})
	cp := &gatedProblem{Problem: base, at: 5000, gate: gate}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-gate // the solver is blocked at evaluation 5000 inside a batch
		cancel()
		gate <- struct{}{}
	}()
	// One oracle call over all n samples: T = 1.
	_, err := ACSA{}.Run(ctx, cp, base.samples(100000, 1, 0), Config{Eps: 1, K: 2, Iters: 1, Clip: 1, Step: 1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if after := cp.calls - cp.at; after > cancelEvery {
		t.Errorf("%d evaluations after cancellation, want ≤ %d", after, cancelEvery)
	}
}

// gatedProblem pauses the solver at evaluation `at` until the test has
// cancelled the context.
type gatedProblem struct {
	Problem
	calls, at int64
	gate      chan struct{}
}

func (g *gatedProblem) Grad(gr, w, x []float64) {
	g.calls++
	if g.calls == g.at {
		g.gate <- struct{}{}
		<-g.gate
	}
	g.Problem.Grad(gr, w, x)
}

// The checkpoint plan's thresholds are E^{j/K}.
func TestCheckpointPlan(t *testing.T) {
	p := newCheckpointPlan(4, 10000)
	var fired []int64
	for e := int64(1); e <= 10000; e++ {
		if p.due(e) {
			fired = append(fired, e)
		}
	}
	want := []int64{10, 100, 1000, 10000}
	if len(fired) != len(want) {
		t.Fatalf("fired at %v, want %v", fired, want)
	}
	for i := range want {
		if fired[i] != want[i] {
			t.Errorf("fired at %v, want %v", fired, want)
		}
	}
	// One big step crosses several thresholds: one checkpoint.
	p = newCheckpointPlan(4, 10000)
	if !p.due(5000) || p.due(5001) || !p.due(10000) {
		t.Error("a jump over several thresholds should fire once, then at the next one")
	}
}

// hugeSamples claims more samples than fit in memory; it is never read.
type hugeSamples struct{}

func (hugeSamples) Len() int           { return 1 << 40 }
func (hugeSamples) SampleDim() int     { return 4 }
func (hugeSamples) Open() SampleReader { panic("a refused dataset must not be read") }

// Multi-pass solvers refuse a dataset they cannot hold, and stop reading a
// streamed dataset into memory when cancelled (within cancelEvery rows).
func TestMaterializeGuards(t *testing.T) {
	_, err := materialize(context.Background(), "localized", hugeSamples{}, 1)
	if ce, ok := configErr(err); !ok || ce.Field != "n" || !strings.Contains(ce.Msg, "one-pass solver") {
		t.Errorf("huge dataset: err = %v, want a ConfigError on n", err)
	}
	mp := &meanProblem{d: 4, radius: 1, center: make([]float64, 4), scale: 1, nu: 5}
	cp := &countingReaderSamples{genSamples: mp.samples(100000, 1, 0)}
	ctx, cancel := context.WithCancel(context.Background())
	cp.onRead = func(i int) {
		if i == 1000 {
			cancel()
		}
	}
	if _, err := materialize(ctx, "localized", cp, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if cp.read-1000 > cancelEvery {
		t.Errorf("read %d rows after cancellation, want ≤ %d", cp.read-1000, cancelEvery)
	}
}

// countingReaderSamples counts the rows read through it.
type countingReaderSamples struct {
	*genSamples
	read   int
	onRead func(i int)
}

func (c *countingReaderSamples) Open() SampleReader {
	return &countingReader{c: c, r: c.genSamples.Open()}
}

type countingReader struct {
	c *countingReaderSamples
	r SampleReader
}

func (r *countingReader) Next(x []float64) bool {
	r.c.read++
	r.c.onRead(r.c.read)
	return r.r.Next(x)
}

// The context is checked every min(256, ⌈16384/d⌉) evaluations: about 16k
// floating-point entries of work between checks whatever d is.
func TestCheckInterval(t *testing.T) {
	for _, c := range []struct {
		d    int
		want int64
	}{{1, 256}, {4, 256}, {64, 256}, {100, 164}, {16384, 1}, {100000, 1}} {
		t.Run(fmt.Sprintf("d=%d", c.d), func(t *testing.T) {
			if got := checkInterval(c.d); got != c.want {
				t.Errorf("checkInterval(%d) = %d, want %d", c.d, got, c.want)
			}
		})
	}
}

// The quantiles of the batch's norms are computed for the calls whose
// statistics a checkpoint reports (the runner turns them off for the
// others): every checkpoint after the start carries finite quantiles,
// one-pass and multi-pass.
func TestCheckpointQuantiles(t *testing.T) {
	for _, name := range []string{"acsa", "localized"} {
		t.Run(name, func(t *testing.T) {
			s, _ := Lookup(name)
			n := 20000
			if name == "localized" {
				n = 256
			}
			var cps []Checkpoint
			cfg := Config{Eps: 1, K: 2, Checkpoints: 16, WorkBudget: 20000, Observe: func(c Checkpoint) { cps = append(cps, c) }}
			if _, err := s.Run(context.Background(), tpMean, tpMean.samples(n, 1, 0), cfg); err != nil {
				t.Fatal(err)
			}
			if len(cps) < 4 {
				t.Fatalf("%s: %d checkpoints", name, len(cps))
			}
			for i, c := range cps[1:] {
				for _, q := range c.Batch.Quantiles {
					if math.IsNaN(q) || !(q > 0) {
						t.Errorf("%s: checkpoint %d (done %v) has quantiles %v", name, i+1, c.Done, c.Batch.Quantiles)
						break
					}
				}
			}
		})
	}
}

// ticks (for solvers that feed an oracle themselves, a block at a time)
// counts evaluations and reports a cancelled context at the next block.
func TestTicks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r, err := newRunner(ctx, tpMean, Config{Eps: 1, K: 2}, "clip-gaussian", true, 10, 4, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	for range 250 {
		if err := r.ticks(4); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	if err := r.ticks(3); !errors.Is(err, context.Canceled) {
		t.Fatalf("ticks after the cancellation = %v, want context.Canceled", err)
	}
	if r.gradEvals != 1003 {
		t.Errorf("gradEvals = %d, want 1003", r.gradEvals)
	}
}
