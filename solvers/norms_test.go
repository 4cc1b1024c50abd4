package solvers

import (
	"context"
	"testing"
)

// A materialized draw keeps its rows' squared norms once a run has summed
// them (klz-gd's passes) or a caller warms them (WarmSquaredNorms, with
// their roots, which clip-gaussian reads instead of taking them): every
// solver that reads the matrix after gives the same bits as on a matrix
// that keeps nothing, where its own pass sums them.
func TestKeptNormsSameBits(t *testing.T) {
	p := tpLinReg
	const n, seed = 3000, 41
	cases := []struct {
		solver string
		cfg    Config
	}{
		{"acsa", Config{Eps: 1, K: 2}},
		{"nonprivate-schedule", Config{Eps: 1, K: 2}},
		{"klz-gd", Config{Eps: 1, K: 2, WorkBudget: 50000}},
		{"dp-sgd", Config{Eps: 1, K: 2}},
	}
	for _, c := range cases {
		t.Run(c.solver, func(t *testing.T) {
			s, _ := Lookup(c.solver)
			cfg := c.cfg
			cfg.Seed, cfg.Trial = seed, 0
			run := func(data Samples) []float64 {
				t.Helper()
				res, err := s.Run(context.Background(), p, data, cfg)
				if err != nil {
					t.Fatal(err)
				}
				return res.W
			}
			m, release, err := LoadDataset(context.Background(), p.samples(n, seed, 0), 2)
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			if sq, rn := m.keptNorms(p.Dim()); sq != nil || rn != nil {
				t.Fatal("a fresh matrix has norms kept")
			}
			plain := run(&Matrix{Data: m.Data, Dim: m.Dim}) // keeps nothing
			cold := run(m)
			if err := m.WarmSquaredNorms(context.Background(), p.Dim()); err != nil {
				t.Fatal(err)
			}
			if sq, rn := m.keptNorms(p.Dim()); sq == nil || rn == nil {
				t.Fatal("WarmSquaredNorms kept no squared norms or no roots")
			}
			warm := run(m)
			for name, w := range map[string][]float64{"before the warm-up": cold, "with its norms kept": warm} {
				if !sameBits(plain, w) {
					t.Errorf("%s: %v, on a matrix keeping nothing %v", name, w, plain)
				}
			}
		})
	}
}
