package solvers

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

// TestRunSharedSameBits: runs that share their passes (RunShared) give,
// each, the result of the run alone, bit for bit — the output, the ledger,
// the counts and the notes — whatever their clip thresholds, steps and T
// (runs with different T fall into different groups), through the factored
// path of a linear loss and through Grad, on any oracle, with a run whose
// plan is refused among them, on a matrix that keeps its rows' norms
// and on one that does not.
func TestRunSharedSameBits(t *testing.T) {
	type gradOnly struct{ Problem }
	const n, seed = 6000, 17
	cfgs := func(base Config) []Config {
		var cs []Config
		for _, iters := range []int{3, 7} {
			for _, clip := range []float64{0.05, 0.5, 5} {
				for _, step := range []float64{0, 0.5} {
					c := base
					c.Seed, c.Trial, c.Clip, c.Step, c.Iters = seed, 1, clip, step, iters
					cs = append(cs, c)
				}
			}
		}
		bad := base
		bad.Iters = n + 1 // refused: more calls than samples
		return append(cs, bad)
	}
	cases := []struct {
		solver string
		data   testProblem
		p      Problem
		cfg    Config
	}{
		{"acsa", tpLinReg, tpLinReg, Config{Eps: 1, K: 2}},
		{"acsa", tpLinReg, gradOnly{tpLinReg}, Config{Eps: 1, K: 2}},
		{"acsa", tpLinReg, tpLinReg, Config{Eps: 1, K: 2, Oracle: "shuffle-clip", Delta: 1e-6}},
		{"clipped-sgd", tpLinReg, tpLinReg, Config{Eps: 1, K: 2, Workers: 2}},
		{"prox-sgd", tpLAD, tpLAD, Config{Eps: 1, K: 3}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%T/%s", c.solver, c.p, c.cfg.Oracle), func(t *testing.T) {
			s, ok := Lookup(c.solver)
			if !ok {
				t.Fatalf("no solver %s", c.solver)
			}
			if !SharesPasses(s) {
				t.Fatalf("%s does not share its passes", c.solver)
			}
			m, release, err := LoadDataset(context.Background(), c.data.samples(n, seed, 0), 2)
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			for _, warm := range []bool{false, true} {
				if warm {
					if err := m.WarmSquaredNorms(context.Background(), c.p.Dim()); err != nil {
						t.Fatal(err)
					}
				}
				sharedSameBits(t, s, c.p, m, cfgs(c.cfg))
			}
		})
	}
}

// sharedSameBits checks RunShared's results on m against each run alone
// on a matrix of m's rows that keeps nothing.
func sharedSameBits(t *testing.T, s Solver, p Problem, m *Matrix, cs []Config) {
	t.Helper()
	res, errs := RunShared(context.Background(), s, p, m, cs)
	plain := &Matrix{Data: m.Data, Dim: m.Dim} // keeps no norms
	for i, cfg := range cs {
		want, werr := s.Run(context.Background(), p, plain, cfg)
		if fmt.Sprint(errs[i]) != fmt.Sprint(werr) {
			t.Fatalf("run %d: error %v, alone %v", i, errs[i], werr)
		}
		if werr != nil {
			continue
		}
		if !sameBits(res[i].W, want.W) {
			t.Errorf("run %d (C = %g, step = %g, T = %d): w %v, alone %v", i, cfg.Clip, cfg.Step, cfg.Iters, res[i].W, want.W)
		}
		if !reflect.DeepEqual(res[i], want) {
			t.Errorf("run %d: result\n%+v\nalone\n%+v", i, res[i], want)
		}
	}
}

// Runs that share their passes allocate per run, never per sample or per
// block: RunShared on ten times the rows (10⁴ → 10⁵, six acsa runs of
// T = 10 at six clip thresholds) adds no more than each run's allowance of
// TestAllocationsDoNotGrowWithN (8 KiB).
func TestRunSharedAllocationsDoNotGrowWithN(t *testing.T) {
	p := tpLinReg
	s, _ := Lookup("acsa")
	var cs []Config
	for _, c := range []float64{0.05, 0.1, 0.2, 0.5, 1, 2} {
		cs = append(cs, Config{Eps: 1, K: 2, Iters: 10, Clip: c, Step: 3, Seed: 5})
	}
	bytes := func(n int) uint64 {
		m, release, err := LoadDataset(context.Background(), p.samples(n, 5, 0), 1)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		if err := m.WarmSquaredNorms(context.Background(), p.Dim()); err != nil {
			t.Fatal(err)
		}
		b, _ := allocated(func() {
			if _, errs := RunShared(context.Background(), s, p, m, cs); errs[0] != nil {
				t.Fatal(errs[0])
			}
		})
		return b
	}
	b1, b2 := bytes(10000), bytes(100000)
	if b2 > b1+uint64(len(cs))*8192 {
		t.Errorf("RunShared allocated %d bytes at n = 10⁴, %d at n = 10⁵: it grows with the rows", b1, b2)
	}
}
