package solvers

import (
	"context"
	"slices"
	"sync"
	"testing"
)

// TestPulsesInsideOneIteration is the contract of Config.Pulse: a run
// whose only iteration is one oracle call over the whole dataset (acsa
// with T = 1, on one and on three goroutines), a multi-pass run
// (klz-gd's full-batch calls) and a solver that feeds its oracle itself
// (dp-sgd) report pulses between their checkpoints, each a count of
// gradient evaluations in (0, GradEvals], increasing on one goroutine,
// reaching the run's evaluations less what each goroutine had not yet
// reported (under PulseWork floats per slot); and a run with pulses gives
// the same bits as one without.
func TestPulsesInsideOneIteration(t *testing.T) {
	defer func(w int64) { pulseWork = w }(pulseWork)
	sd := int64(tpLinReg.samples(1, 0, 0).SampleDim())
	pulseWork = 64 * sd // a pulse every 64 samples per goroutine
	cases := []struct {
		name    string
		solver  Solver
		data    Samples
		cfg     Config
		workers int
	}{
		{"acsa one call, one goroutine", ACSA{}, &chunkedGen{genSamples: tpLinReg.samples(40000, 3, 0), clen: 512}, Config{Eps: 1, K: 2, Iters: 1}, 1},
		{"acsa one call, three goroutines", ACSA{}, &chunkedGen{genSamples: tpLinReg.samples(40000, 3, 0), clen: 512}, Config{Eps: 1, K: 2, Iters: 1}, 3},
		{"klz-gd passes", KLZGD{}, tpLinReg.samples(8000, 3, 0), Config{Eps: 1, K: 2, WorkBudget: 40000}, 1},
		{"dp-sgd feeds itself", DPSGD{Epochs: 1}, tpLinReg.samples(20000, 3, 0), Config{Eps: 1, K: 2, Clip: 1}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Seed, cfg.Workers = 4, c.workers
			plain, err := c.solver.Run(context.Background(), tpLinReg, c.data, cfg)
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var pulses []int64
			checkpoints := 0
			cfg.Observe = func(Checkpoint) { checkpoints++ }
			cfg.Pulse = func(e int64) {
				mu.Lock()
				pulses = append(pulses, e)
				mu.Unlock()
			}
			res, err := c.solver.Run(context.Background(), tpLinReg, c.data, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !sameBits(res.W, plain.W) || res.GradEvals != plain.GradEvals || res.Spent != plain.Spent {
				t.Fatalf("with pulses W = %v (%d evaluations), without %v (%d)", res.W, res.GradEvals, plain.W, plain.GradEvals)
			}
			if len(pulses) <= checkpoints {
				t.Fatalf("%d pulses and %d checkpoints: the pulses do not show the work between checkpoints", len(pulses), checkpoints)
			}
			for i, e := range pulses {
				if e <= 0 || e > res.GradEvals {
					t.Fatalf("pulse %d reports %d evaluations, want in (0, %d]", i, e, res.GradEvals)
				}
				if c.workers == 1 && i > 0 && e <= pulses[i-1] {
					t.Fatalf("pulse %d: %d after %d on one goroutine", i, e, pulses[i-1])
				}
			}
			// Every goroutine's slot holds back under 64 samples (a solver
			// feeding itself pulses at its context checks).
			slack := max(int64(2*c.workers*64), checkInterval(int(sd)))
			if top, want := slices.Max(pulses), res.GradEvals-slack; top < want {
				t.Errorf("the last pulse reports %d of %d evaluations, want ≥ %d", top, res.GradEvals, want)
			}
		})
	}
}
