package solvers

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestNoNoiseIsSigmaZero: for every registered solver, Config.NoNoise runs
// the private run's schedule (the same Params: T, batch, C, step as
// prescribed) with noise σ = 0 on the same draws. "σ = 0" is checked
// against a run that cannot contain noise: for the solvers whose only
// randomness is their privacy noise (the data are the test's stream, not
// keyed by the Config's seed), the noise-off runs with two different noise
// seeds agree bit for bit; for dp-sgd, whose Poisson batches are keyed by
// the seed too, the noise-off run equals bit for bit the run at ε = ∞ (noise
// multiplier 0) with its C, T and η given and the same seed. The noise-off
// run differs from the private one (noise was removed), its ledger budget
// is infinite (it is not private), and its clipped counts are those of the
// schedule.
func TestNoNoiseIsSigmaZero(t *testing.T) {
	lip := &meanProblem{d: 3, radius: 1, center: []float64{0.3, 0.1, -0.2}, scale: 1, nu: 7, cut: 1e3}
	cases := map[string]struct {
		p   testProblem
		n   int
		cfg Config
		s   Solver // the solver with its settings; nil: the registered one
	}{
		"acsa":                {tpLinReg, 4000, Config{Eps: 1, K: 2}, nil},
		"clipped-sgd":         {tpMean, 4000, Config{Eps: 1, K: 2}, nil},
		"prox-sgd":            {tpMeanL1, 4000, Config{Eps: 1, K: 2}, nil},
		"localized":           {tpLAD, 128, Config{Eps: 1, K: 3, WorkBudget: 50000}, nil},
		"localized-sc":        {tpMean, 128, Config{Eps: 1, K: 3, WorkBudget: 50000}, nil},
		"nonprivate-schedule": {tpMean, 4000, Config{Eps: 1, K: 2}, nil},
		"lipschitz-dpsgd":     {lip, 4000, Config{Eps: 1, K: 2}, nil},
		"klz-gd":              {tpLinReg, 2000, Config{Eps: 1, K: 2, WorkBudget: 50000}, nil},
		"dp-sgd":              {tpLinReg, 2000, Config{Eps: 1, K: 2}, nil},
		"dp-sgd adaptive":     {tpLinReg, 2000, Config{Eps: 1, K: 2}, DPSGD{Adaptive: true}},
	}
	for _, name := range Names() {
		if _, ok := cases[name]; !ok {
			t.Errorf("solver %s has no noise-off case: add one", name)
		}
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s, _ := Lookup(strings.Fields(name)[0])
			if c.s != nil {
				s = c.s
			}
			run := func(cfg Config) Result {
				res, err := s.Run(context.Background(), c.p, c.p.samples(c.n, 5, 0), cfg)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			with := func(noNoise bool, seed uint64) Config {
				cfg := c.cfg
				cfg.NoNoise, cfg.Seed = noNoise, seed
				return cfg
			}
			priv, off := run(with(false, 1)), run(with(true, 1))
			var zero Result
			if strings.HasPrefix(name, "dp-sgd") {
				// ε = ∞ runs dp-sgd with noise multiplier 0; C, T and η as
				// the private run's.
				cfg := with(false, 1)
				cfg.Eps, cfg.Clip, cfg.Iters, cfg.Step = math.Inf(1), priv.Params.Clip, priv.Params.Iters, priv.Params.Step
				zero = run(cfg)
			} else {
				zero = run(with(true, 2))
			}
			if pa, pp := off.Params, priv.Params; pa.Iters != pp.Iters || pa.Batch != pp.Batch || pa.Clip != pp.Clip || pa.Step != pp.Step {
				t.Errorf("schedule differs: noise off %+v, private %+v", pa, pp)
			}
			if !slices.Equal(off.W, zero.W) {
				t.Errorf("noise off %v, σ = 0 %v: the noise-off run is not noise-free", off.W, zero.W)
			}
			if name == "nonprivate-schedule" {
				// The non-private baseline has no noise to remove.
				if !slices.Equal(off.W, priv.W) {
					t.Errorf("sgd: noise off %v differs from its run %v", off.W, priv.W)
				}
				return
			}
			if slices.Equal(off.W, priv.W) {
				t.Error("the noise-off run equals the private one: no noise was removed")
			}
			if b := off.Budget; !math.IsInf(b.Rho, 1) && !math.IsInf(b.Eps, 1) {
				t.Errorf("noise-off budget %+v: want infinite", b)
			}
			if off.Fed != priv.Fed && !strings.HasPrefix(name, "klz-gd") {
				t.Errorf("fed %d (private %d)", off.Fed, priv.Fed)
			}
		})
	}
}

// TestClippedCounts: Result.Clipped/Fed counts the per-sample gradients
// clipping changed: all of them at a clip threshold below every gradient's
// norm, none at C = ∞ (ε = ∞ with the non-private baseline's zero).
func TestClippedCounts(t *testing.T) {
	s, _ := Lookup("acsa")
	// tpMean's gradient w − x has norm ≥ ‖x‖ − R, almost never below 1e-9.
	res, err := s.Run(context.Background(), tpMean, tpMean.samples(2000, 3, 0), Config{Eps: 1, K: 2, Clip: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	if res.Fed != 2000 || res.Clipped != res.Fed {
		t.Errorf("C = 1e-9: clipped %d of %d, want all 2000", res.Clipped, res.Fed)
	}
	sgd, _ := Lookup("nonprivate-schedule")
	res, err = sgd.Run(context.Background(), tpMean, tpMean.samples(2000, 3, 0), Config{Eps: 1, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Fed != 0 || res.Clipped != 0 {
		t.Errorf("sgd: clipped %d of %d, want no count (it does not clip)", res.Clipped, res.Fed)
	}
}
