package solvers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"dpso/solvers/accountant"
	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// dp-sgd's privacy is checked end to end: the ledger holds one accounted
// event whose (ε', δ) under its adjacency (replace-one unless asked) is at
// most the exact (ε', δ) of ρ = ε²/2 zCDP, the run's budget; the noise
// multiplier is the calibrated one; the checkpoints report the C of each
// step.
func TestDPSGDAccountsAgainstTheZCDPTarget(t *testing.T) {
	for _, c := range []struct {
		name string
		opt  DPSGD
		eps  float64
	}{
		{"pld", DPSGD{}, 1},
		{"rdp", DPSGD{Accountant: "rdp"}, 1},
		{"pld add-remove", DPSGD{Adjacency: "add-remove"}, 1},
		{"pld adaptive", DPSGD{Adaptive: true}, 0.5},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := Config{Eps: c.eps, K: 2, Seed: 3}
			res, err := c.opt.Run(context.Background(), tpLinReg, tpLinReg.samples(5000, 3, 0), cfg)
			if err != nil {
				t.Fatal(err)
			}
			target := theory.EpsExact(c.eps, DefaultDPSGDDelta) // 4.3772 at ε = 1
			if len(res.Events) != 1 {
				t.Fatalf("events %+v, want one", res.Events)
			}
			e := res.Events[0]
			B := DefaultDPSGDBatch
			T := int(math.Ceil(DefaultDPSGDEpochs * 5000 / float64(B)))
			if e.Mechanism != "poisson-subsampled-gaussian" || e.Q != float64(B)/5000 || e.Steps != T || e.Delta != DefaultDPSGDDelta {
				t.Errorf("event %+v: want q = %g, T = %d, δ = 1e-5", e, float64(B)/5000, T)
			}
			acct := accountant.PLD
			if c.opt.Accountant == "rdp" {
				acct = accountant.RDP
			}
			if e.Accountant != acct.String() || !(e.Eps <= target) || e.Eps < target*(1-0.01) {
				t.Errorf("accounted ε' = %g by %s; want ≤ the target %g and within 1%% of it (the calibration is tight)", e.Eps, e.Accountant, target)
			}
			if acct == accountant.PLD && !(e.EpsLower <= e.Eps && e.EpsLower > e.Eps-0.05) {
				t.Errorf("PLD bracket [%g, %g]", e.EpsLower, e.Eps)
			}
			adj := accountant.ReplaceOne
			if c.opt.Adjacency == "add-remove" {
				adj = accountant.AddRemove
			}
			if e.Adjacency != adj.String() {
				t.Errorf("event adjacency %q, want %v", e.Adjacency, adj)
			}
			z, err := accountant.CalibrateContext(context.Background(), acct, adj, e.Q, e.Steps, target, e.Delta)
			if err != nil || e.Sigma != z {
				t.Errorf("noise multiplier %g, calibrated %g (%v)", e.Sigma, z, err)
			}
			if res.Budget != (ledger.Cost{Eps: target, Delta: DefaultDPSGDDelta}) || res.Spent != (ledger.Cost{Eps: e.Eps, Delta: e.Delta}) {
				t.Errorf("budget %+v, spent %+v", res.Budget, res.Spent)
			}
		})
	}
}

// The check a dp-sgd run ends with is real: a recorded event whose ε'
// exceeds the budget fails it.
func TestDPSGDLedgerRefusesOverspending(t *testing.T) {
	l := ledger.New(10)
	if err := l.Record(0, 10, ledger.Event{Eps: 4.5, Delta: 1e-5}); err != nil {
		t.Fatal(err)
	}
	if err := l.Check(ledger.Cost{Eps: 4.3772, Delta: 1e-5}); err == nil {
		t.Error("ε' = 4.5 passed a budget of 4.3772")
	}
	if err := l.Check(ledger.Cost{Eps: 4.5, Delta: 1e-5}); err != nil {
		t.Error(err)
	}
	if ev := l.Events(); len(ev) != 1 || ev[0].Eps != 4.5 {
		t.Errorf("events %+v", ev)
	}
}

// Poisson batches: over 4000 draws at n = 1000, q = 0.05 the mean batch size
// is qn = 50 and its variance qn(1 − q) = 47.5; the sample mean's standard
// error is √(47.5/4000) ≈ 0.11 and the sample variance's ≈ 47.5·√(2/4000)
// ≈ 1.06, so 4 standard errors bound the deviations. Every index appears
// with frequency q (binomial standard error √(q(1−q)/4000) ≈ 0.0034 per
// index; the largest of 1000 deviations stays under 5 of them).
func TestPoissonBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	const n, draws, q = 1000, 4000, 0.05
	counts := make([]int, n)
	var sum, sq float64
	var idx []int
	for range draws {
		idx = poissonAppend(idx[:0], n, q, r)
		for k, i := range idx {
			if i < 0 || i >= n || (k > 0 && i <= idx[k-1]) {
				t.Fatalf("indices %v not increasing in [0, n)", idx)
			}
			counts[i]++
		}
		s := float64(len(idx))
		sum += s
		sq += s * s
	}
	mean := sum / draws
	v := (sq - draws*mean*mean) / (draws - 1)
	if math.Abs(mean-50) > 4*0.11 || math.Abs(v-47.5) > 4*1.06 {
		t.Errorf("batch size mean %.3f (want 50 ± 0.44), variance %.3f (want 47.5 ± 4.2)", mean, v)
	}
	se := math.Sqrt(q * (1 - q) / draws)
	for i, c := range counts {
		if f := float64(c) / draws; math.Abs(f-q) > 5*se {
			t.Errorf("index %d included with frequency %.4f, want %g ± %.4f", i, f, q, 5*se)
		}
	}
	if got := poissonAppend(idx[:0], 7, 1, r); len(got) != 7 {
		t.Errorf("q = 1: %v", got)
	}
	if got := poissonAppend(idx[:0], 7, 0, r); len(got) != 0 {
		t.Errorf("q = 0: %v", got)
	}
}

// The noisy sum: sensitivity C under add/remove (adding any vector moves
// the pre-noise sum by at most C), noise of standard deviation zC/B per
// coordinate (sample std over 20000 draws, relative standard error
// 1/√(2·20000) = 0.5%, checked at 2%).
func TestNoisySum(t *testing.T) {
	o := &oracle.NoisySum{Multiplier: 0, Divisor: 4}
	out := make([]float64, 2)
	pre := func(vs ...[]float64) []float64 {
		if err := o.Begin(2, len(vs), 3); err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			o.Add(v)
		}
		o.Finish(out, nil)
		return []float64{out[0] * 4, out[1] * 4}
	}
	a := pre([]float64{1, 1}, []float64{100, -5})
	b := pre([]float64{1, 1}, []float64{100, -5}, []float64{-1e9, 3e9})
	if d := math.Hypot(a[0]-b[0], a[1]-b[1]); d > 3*(1+1e-12) {
		t.Errorf("adding one vector moved the sum by %g > C = 3", d)
	}
	if e := pre(); e[0] != 0 || e[1] != 0 {
		t.Errorf("empty batch: %v", e)
	}
	pre([]float64{1, 1}, []float64{100, -5}, []float64{math.NaN(), 0})
	if o.Unclipped() != 1 {
		t.Errorf("unclipped count %d, want 1 (‖(1,1)‖ ≤ 3 only)", o.Unclipped())
	}
	o.Multiplier = 1.5
	r := rand.New(rand.NewPCG(1, 1))
	var sq float64
	const draws = 20000
	for range draws {
		if err := o.Begin(2, 0, 3); err != nil {
			t.Fatal(err)
		}
		o.Finish(out, r)
		sq += out[0]*out[0] + out[1]*out[1]
	}
	want := 1.5 * 3 / 4
	if got := math.Sqrt(sq / (2 * draws)); math.Abs(got/want-1) > 0.02 {
		t.Errorf("noise std %g, want zC/B = %g", got, want)
	}
	if err := o.Begin(2, 1, math.Inf(1)); err == nil {
		t.Error("C = ∞ with noise accepted")
	}
}

// gradIsData has ∇f(w, x) = x: the per-sample gradient norms do not depend
// on w, so adaptive clipping's fixed point is known.
type gradIsData struct{ d int }

func (g gradIsData) Dim() int                 { return g.d }
func (g gradIsData) Grad(out, _, x []float64) { copy(out, x) }
func (g gradIsData) Regularizer() Regularizer { return Regularizer{} }
func (g gradIsData) Constants() Constants {
	return Constants{D: 2, Beta: 1, Lf: math.Inf(1), Moment: func(k float64) float64 { return 2 }}
}

// Adaptive clipping tracks the quantile: with gradients x ~ N(0, I_3) the
// median norm is the χ₃ median 1.5382; the geometric update of Andrew et
// al. converges to it. Without noise (ε = ∞, the update's fixed point) the
// C of the last checkpoint, averaged over the last quarter of steps, is
// within 5% of it (its fluctuation with B = 256 and η_C = 0.2 is ~η_C/√B·C ≈
// 1%); with ε = 1 the count noise σ_b = B/20 adds ≈ η_C·σ_b/B ≈ 1% per step.
func TestAdaptiveClippingTracksTheMedian(t *testing.T) {
	const n = 20000
	m := &Matrix{Data: make([]float64, 3*n), Dim: 3}
	r := rand.New(rand.NewPCG(8, 8))
	for i := range m.Data {
		m.Data[i] = r.NormFloat64()
	}
	for _, eps := range []float64{math.Inf(1), 1} {
		t.Run(fmt.Sprintf("eps=%g", eps), func(t *testing.T) {
			var cs []float64
			cfg := Config{Eps: eps, K: 2, Clip: 10, Seed: 2, Checkpoints: 100000, Step: 1e-6,
				Observe: func(c Checkpoint) {
					if c.Batch.Size > 0 {
						cs = append(cs, c.Batch.Threshold)
					}
				}}
			if _, err := (DPSGD{Adaptive: true, Epochs: 5}).Run(context.Background(), gradIsData{3}, m, cfg); err != nil {
				t.Fatal(err)
			}
			if len(cs) < 300 || cs[0] != 10 {
				t.Fatalf("ε = %g: %d checkpoints, first C %v", eps, len(cs), cs[:1])
			}
			tail := cs[len(cs)*3/4:]
			var s float64
			for _, c := range tail {
				s += c
			}
			got := s / float64(len(tail))
			t.Logf("ε = %g: C settles at %.4f", eps, got)
			if math.Abs(got/1.5382-1) > 0.05 {
				t.Errorf("ε = %g: C settles at %.4f, want the median norm 1.5382 ± 5%%", eps, got)
			}
		})
	}
}

func TestDPSGDConfigErrors(t *testing.T) {
	for _, c := range []struct {
		s     DPSGD
		cfg   Config
		field string
	}{
		{DPSGD{}, Config{Eps: 1, K: 2, Oracle: "coordinate"}, "oracle"},
		{DPSGD{Accountant: "gdp"}, Config{Eps: 1, K: 2}, "accountant"},
		{DPSGD{Batch: 6000}, Config{Eps: 1, K: 2}, "batch"},
		{DPSGD{Epochs: math.NaN()}, Config{Eps: 1, K: 2}, "epochs"},
		{DPSGD{Quantile: 1}, Config{Eps: 1, K: 2}, "clip-quantile"},
		{DPSGD{Adaptive: true, CountNoise: 0.01}, Config{Eps: 1, K: 2}, "clip-count-noise"},
		{DPSGD{}, Config{Eps: 1, K: 2, Delta: 1}, "delta"},
	} {
		t.Run(c.field, func(t *testing.T) {
			_, err := c.s.Prescribe(tpLinReg, 5000, c.cfg)
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != c.field {
				t.Errorf("%+v %+v: error %v, want a ConfigError on %q", c.s, c.cfg, err, c.field)
			}
		})
	}
	pr, err := DPSGD{}.Prescribe(tpLinReg, 5000, Config{Eps: math.Inf(1), K: 2})
	if err != nil || !math.IsInf(pr.Clip, 1) || pr.Sigma != 0 {
		t.Errorf("ε = ∞: C = %g, σ = %g (%v); want no clipping, no noise", pr.Clip, pr.Sigma, err)
	}
	if !strings.Contains(strings.Join(pr.Notes, " "), "Poisson") {
		t.Errorf("notes %q", pr.Notes)
	}
}

// dp-sgd's Poisson batches make the gradient count random, but its
// checkpoints fall at the same steps in every trial (scheduled by the
// expected count t·B), so that trials' traces can be averaged step by step;
// the counts themselves differ. The sampling rate q = B/n is the same
// mechanism as the expected batch B.
func TestDPSGDCheckpointsAtTheSameSteps(t *testing.T) {
	iters := func(trial int, s DPSGD) ([]int, []int64) {
		var its []int
		var evals []int64
		cfg := Config{Eps: 1, K: 2, Seed: 3, Trial: trial, Observe: func(c Checkpoint) {
			its = append(its, c.Iter)
			evals = append(evals, c.GradEvals)
		}}
		if _, err := s.Run(context.Background(), tpLinReg, tpLinReg.samples(3000, 3, trial), cfg); err != nil {
			t.Fatal(err)
		}
		return its, evals
	}
	i0, e0 := iters(0, DPSGD{Batch: 100})
	i1, e1 := iters(1, DPSGD{Batch: 100})
	if len(i0) < 10 || !slices.Equal(i0, i1) {
		t.Errorf("checkpoint steps differ between trials:\n%v\n%v", i0, i1)
	}
	if slices.Equal(e0, e1) {
		t.Errorf("gradient counts %v equal in two trials: the batches are not random", e0)
	}
	iq, eq := iters(0, DPSGD{SamplingRate: 100.0 / 3000})
	if !slices.Equal(iq, i0) || !slices.Equal(eq, e0) {
		t.Errorf("q = B/n differs from B: %v %v vs %v %v", iq, eq, i0, e0)
	}
}

// TestDPSGDCountsItsClipping: dp-sgd reports the vectors it fed and the
// ones clipping changed, as every solver does through its oracle calls
// (it counted neither, so its clipped-fraction diagnostic was missing).
// Each Poisson batch's samples are fed once, so Fed is the gradient count;
// at C = 10⁻⁹ every non-zero gradient is clipped.
func TestDPSGDCountsItsClipping(t *testing.T) {
	for _, c := range []struct {
		clip    float64
		allClip bool
	}{{0, false}, {1e-9, true}} {
		t.Run(fmt.Sprintf("clip=%g", c.clip), func(t *testing.T) {
			cfg := Config{Eps: 1, K: 2, Seed: 3, Clip: c.clip}
			res, err := DPSGD{}.Run(context.Background(), tpLinReg, tpLinReg.samples(5000, 3, 0), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if res.Fed != res.GradEvals || res.Fed == 0 || res.Clipped > res.Fed {
				t.Errorf("C = %g: fed %d, clipped %d, gradient evaluations %d", c.clip, res.Fed, res.Clipped, res.GradEvals)
			}
			if c.allClip && res.Clipped != res.Fed {
				t.Errorf("C = %g: %d of %d clipped, want all", c.clip, res.Clipped, res.Fed)
			}
		})
	}
}
