package solvers

import (
	"context"
	"runtime"
	"sync"
	"testing"
)

// Same seed, same bits, whatever the number of goroutines: every solver
// runs 8 trials one after the other, then all 8 at once on 8 goroutines
// (each trial owns its data stream and noise stream, keyed by (seed,
// trial)), and the outputs agree bit for bit. Distinct trials differ; the
// secure mode is recorded in the result and does not repeat itself.
func TestDeterminismAcrossGoroutines(t *testing.T) {
	huge := &meanProblem{d: 3, radius: 1, center: []float64{0.3, 0.1, -0.2}, scale: 1, nu: 7, cut: 1e3}
	runs := []struct {
		solver string
		p      testProblem
		n      int
		cfg    Config
		s      Solver // the solver with its settings; nil: the registered one
	}{
		{"acsa", tpLinReg, 4000, Config{Eps: 1, K: 2}, nil},
		{"acsa", tpLinReg, 4000, Config{Eps: 1, K: 2, Oracle: "shuffle-clip", Delta: 1e-6}, nil},
		{"clipped-sgd", tpMean, 4000, Config{Eps: 1, K: 2, Oracle: "coordinate"}, nil},
		{"prox-sgd", tpMeanL1, 4000, Config{Eps: 1, K: 2, Oracle: "shuffle-coordinate", Delta: 1e-6}, nil},
		{"localized", tpLAD, 128, Config{Eps: 1, K: 3, WorkBudget: 50000}, nil},
		{"localized-sc", tpMean, 128, Config{Eps: 1, K: 3, WorkBudget: 50000}, nil},
		{"nonprivate-schedule", tpMean, 4000, Config{Eps: 1, K: 2}, nil},
		{"lipschitz-dpsgd", huge, 4000, Config{Eps: 1, K: 2}, nil},
		{"klz-gd", tpLinReg, 2000, Config{Eps: 1, K: 2, WorkBudget: 50000}, nil},
		{"dp-sgd", tpLinReg, 2000, Config{Eps: 1, K: 2}, nil},
		{"dp-sgd", tpLinReg, 2000, Config{Eps: 1, K: 2}, DPSGD{Adaptive: true, Accountant: "rdp"}},
	}
	const trials = 8
	for _, r := range runs {
		t.Run(r.solver+"/"+r.cfg.Oracle, func(t *testing.T) {
			s, _ := Lookup(r.solver)
			if r.s != nil {
				s = r.s
			}
			run := func(tr int) Result {
				c := r.cfg
				c.Seed, c.Trial = 77, tr
				res, err := s.Run(context.Background(), r.p, r.p.samples(r.n, 77, tr), c)
				if err != nil {
					t.Error(err)
				}
				return res
			}
			seq := make([]Result, trials)
			for tr := range seq {
				seq[tr] = run(tr)
			}
			par := make([]Result, trials)
			var wg sync.WaitGroup
			for tr := range par {
				wg.Add(1)
				go func() {
					defer wg.Done()
					runtime.Gosched()
					par[tr] = run(tr)
				}()
			}
			wg.Wait()
			for tr := range seq {
				if !sameBits(seq[tr].W, par[tr].W) {
					t.Errorf("trial %d: sequential %v, parallel %v", tr, seq[tr].W, par[tr].W)
				}
				if seq[tr].Rand != Seeded {
					t.Errorf("Rand = %v, want seeded", seq[tr].Rand)
				}
			}
			if sameBits(seq[0].W, seq[1].W) {
				t.Error("trials 0 and 1 gave the same output")
			}
		})
	}
	// Secure mode: recorded, and two runs with the same seed differ.
	cfg := Config{Eps: 1, K: 2, Rand: Secure, Seed: 1}
	a, err := ACSA{}.Run(context.Background(), tpMean, tpMean.samples(2000, 1, 0), cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ACSA{}.Run(context.Background(), tpMean, tpMean.samples(2000, 1, 0), cfg)
	if a.Rand != Secure || sameBits(a.W, b.W) {
		t.Errorf("secure mode: Rand = %v, outputs equal: %v", a.Rand, sameBits(a.W, b.W))
	}
}
