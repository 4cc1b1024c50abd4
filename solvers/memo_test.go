package solvers

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
)

// affineProblem is f(w, x) = −⟨w, x⟩ on W = B(0, 1), the shape of the
// convex lower bound's instance (affine-hard), with x = t truncated to
// |t_j| ≤ cut, t with i.i.d. Student-t(ν) coordinates, and one sample in
// a hundred carrying a NaN (zeroed and counted by the oracles). ∇f = −x
// does not depend on w. beta > 0 declares a smoothness β (klz-gd needs
// one); 0 declares the loss affine. grads counts the calls of Grad.
type affineProblem struct {
	d     int
	nu    int
	cut   float64
	beta  float64
	grads *atomic.Int64
}

func (a *affineProblem) Dim() int { return a.d }
func (a *affineProblem) Grad(g, _, x []float64) {
	a.grads.Add(1)
	for j := range g {
		g[j] = -x[j]
	}
}
func (a *affineProblem) Regularizer() Regularizer { return Regularizer{} }
func (a *affineProblem) AffineInW() bool          { return true }
func (a *affineProblem) Constants() Constants {
	lf := a.cut * math.Sqrt(float64(a.d))
	return Constants{D: 2, Beta: a.beta, Affine: a.beta == 0, Lf: lf, GradSup: math.NaN(),
		Moment: func(k float64) float64 {
			if math.IsInf(k, 1) {
				return lf
			}
			return math.Sqrt(float64(a.d)) * math.Pow(tAbsMoment(float64(a.nu), k), 1/k)
		}}
}

func (a *affineProblem) samples(n int, seed uint64, trial int) *genSamples {
	return &Stream{N: n, Dim: a.d, Key: dataKey(seed, trial), Draw: func(r *rand.Rand, x []float64) {
		for j := range x {
			t := studentT(r, a.nu)
			for math.Abs(t) > a.cut {
				t = studentT(r, a.nu)
			}
			x[j] = t
		}
		if r.Float64() < 0.01 {
			x[1] = math.NaN()
		}
	}}
}

// passesOnly hides a problem's AffineInW: every oracle call makes its pass.
type passesOnly struct{ Problem }

// TestAffineReplayMatchesPasses: on a loss affine in w the runner releases
// an oracle call that repeats the previous one (the same rows of the
// materialized data, the same clip parameter) from the oracle's saved
// state instead of a pass. Every solver that makes such calls — localized
// and the baselines on its schedule, with either Gaussian oracle, and
// klz-gd's full batches — gives the same Result and the same checkpoints
// (iterates, ledger, the batches' statistics with their norm
// distributions) as when every call makes its pass, bit for bit, on 1 and
// 3 workers; and it evaluates fewer gradients.
func TestAffineReplayMatchesPasses(t *testing.T) {
	const n, d = 8000, 40 // a localized phase or klz-gd's batch of ≥ 2¹⁷ floats spreads over the workers
	cases := []struct {
		solver string
		cfg    Config
		beta   float64
	}{
		{"localized", Config{Eps: 1, K: 3}, 0},
		{"localized", Config{Eps: 1, K: 3, Oracle: "coordinate"}, 0},
		{"nonprivate-schedule", Config{Eps: 1, K: 3, Schedule: "localized"}, 0},
		{"lipschitz-dpsgd", Config{Eps: 1, K: 3, Schedule: "localized"}, 0},
		{"klz-gd", Config{Eps: 1, K: 3, Iters: 6}, 1},
	}
	for _, c := range cases {
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/%s/workers=%d", c.solver, c.cfg.Oracle, workers), func(t *testing.T) {
				s, ok := Lookup(c.solver)
				if !ok {
					t.Fatalf("no solver %q", c.solver)
				}
				run := func(p Problem, data Samples) (string, []string) {
					var cps []string
					cfg := c.cfg
					cfg.Seed, cfg.Trial, cfg.Workers, cfg.WorkBudget, cfg.Checkpoints = 5, 1, workers, 4e5, 12
					cfg.Observe = func(cp Checkpoint) { cps = append(cps, fmt.Sprintf("%v", cp)) }
					res, err := s.Run(context.Background(), p, data, cfg)
					if err != nil {
						t.Fatal(err)
					}
					return fmt.Sprintf("%v", res), cps
				}
				var memoGrads, passGrads atomic.Int64
				ap := &affineProblem{d: d, nu: 9, cut: 8, beta: c.beta, grads: &memoGrads}
				data := ap.samples(n, 5, 1)
				gotRes, gotCps := run(ap, data)
				pp := &affineProblem{d: d, nu: 9, cut: 8, beta: c.beta, grads: &passGrads}
				wantRes, wantCps := run(passesOnly{pp}, data)
				if gotRes != wantRes {
					t.Errorf("replayed:\n%s\nwith every pass:\n%s", gotRes, wantRes)
				}
				if len(gotCps) != len(wantCps) || len(wantCps) < 2 {
					t.Fatalf("%d checkpoints replayed, %d with every pass", len(gotCps), len(wantCps))
				}
				for i := range wantCps {
					if gotCps[i] != wantCps[i] {
						t.Errorf("checkpoint %d replayed:\n%s\nwith every pass:\n%s", i, gotCps[i], wantCps[i])
					}
				}
				if m, p := memoGrads.Load(), passGrads.Load(); !(m < p/4) {
					t.Errorf("%d gradients evaluated replaying, %d with every pass: want < ¼", m, p)
				}
			})
		}
	}
}
