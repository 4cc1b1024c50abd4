package engine

import (
	"context"
	"fmt"
	"math"

	"dpso/solvers"
	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
	"dpso/solvers/vec"
)

// fakeGD is a small deterministic solver for the runner's tests: T steps of
// projected gradient descent on disjoint batches of n/T samples through
// the real clip-gaussian oracle (so the noise stream, the ledger and the
// checkpoints are those of a real solver), with step η/√t. It reads the
// whole dataset once, streaming.
type fakeGD struct {
	name string
	// block makes every iteration after the first wait for the context's
	// cancellation, so that a run can only end cancelled (the
	// cancellation test's solver: no sleep, no race with the run's end).
	block bool
}

func (f *fakeGD) Name() string { return f.name }
func (f *fakeGD) Describe() string {
	return "test solver: projected clipped noisy GD on disjoint batches"
}

func (f *fakeGD) Prescribe(p solvers.Problem, n int, cfg solvers.Config) (solvers.Params, error) {
	if n < 1 {
		return solvers.Params{}, &solvers.ConfigError{Field: "n", Msg: "n must be ≥ 1"}
	}
	T := 20
	if cfg.Iters > 0 {
		T = cfg.Iters
	}
	T = min(T, n)
	c := p.Constants()
	clip := c.R(cfg.K)
	if cfg.Clip > 0 {
		clip = cfg.Clip
	}
	if math.IsInf(clip, 1) || math.IsNaN(clip) {
		return solvers.Params{}, &solvers.RefusedError{Solver: f.name, Reason: "r̃_k is not finite"}
	}
	step := c.D / math.Max(clip, 1e-12)
	if cfg.Step > 0 {
		step = cfg.Step
	}
	batch := n / T
	sigma := 0.0
	if !math.IsInf(cfg.Eps, 1) {
		sigma = 2 * clip / (float64(batch) * cfg.Eps)
	}
	return solvers.Params{Iters: T, Batch: batch, Clip: clip, Sigma: sigma, Step: step, Prescribed: cfg.Iters == 0 && cfg.Clip == 0 && cfg.Step == 0,
		GradEvals: int64(batch * T)}, nil
}

func (f *fakeGD) Run(ctx context.Context, p solvers.Problem, data solvers.Samples, cfg solvers.Config) (solvers.Result, error) {
	n := data.Len()
	par, err := f.Prescribe(p, n, cfg)
	if err != nil {
		return solvers.Result{}, err
	}
	d := p.Dim()
	R := p.Constants().Radius()
	w := make([]float64, d)
	g := make([]float64, d)
	est := make([]float64, d)
	x := make([]float64, data.SampleDim())
	o, err := oracle.New("clip-gaussian")
	if err != nil {
		return solvers.Result{}, err
	}
	led := ledger.New(n)
	rho := cfg.Budget(oracle.ZCDP).Rho
	noise := solvers.NewRand(cfg.Rand, cfg.Seed, cfg.Trial, "noise")
	rd := data.Open()
	var evals, nonFinite int64
	for t := 0; t < par.Iters; t++ {
		if err := ctx.Err(); err != nil {
			return solvers.Result{}, err
		}
		if f.block && t > 0 {
			<-ctx.Done()
			return solvers.Result{}, ctx.Err()
		}
		clip := par.Clip
		if math.IsInf(cfg.Eps, 1) {
			clip = math.Inf(1)
		}
		if err := o.Begin(d, par.Batch, clip, ledger.Cost{Rho: rho}); err != nil {
			return solvers.Result{}, err
		}
		for range par.Batch {
			if !rd.Next(x) {
				return solvers.Result{}, fmt.Errorf("fake: data ended early")
			}
			p.Grad(g, w, x)
			o.Add(g)
			evals++
		}
		call := o.Finish(est, noise)
		nonFinite += int64(call.Stats.NonFinite)
		if err := led.Charge(t*par.Batch, (t+1)*par.Batch, call.Cost); err != nil {
			return solvers.Result{}, err
		}
		eta := par.Step / math.Sqrt(float64(t+1))
		for j := range w {
			w[j] -= eta * est[j]
		}
		vec.ProjectBall(w, R)
		if cfg.Observe != nil {
			cfg.Observe(solvers.Checkpoint{Iter: t + 1, Iters: par.Iters, GradEvals: evals, W: append([]float64(nil), w...),
				Spent: led.Spent(), Batch: call.Stats, NonFinite: nonFinite, Done: t+1 == par.Iters})
		}
	}
	budget := cfg.Budget(o.Kind())
	if err := led.Check(budget); err != nil {
		return solvers.Result{}, err
	}
	return solvers.Result{Solver: f.name, Oracle: o.Name(), W: w, Params: par, GradEvals: evals, Budget: budget,
		Spent: led.Spent(), NonFinite: nonFinite, Rand: cfg.Rand}, nil
}

// refuser always refuses, as lipschitz-dpsgd does when L_f = ∞.
type refuser struct{ name string }

func (r *refuser) Name() string     { return r.name }
func (r *refuser) Describe() string { return "test solver that refuses" }
func (r *refuser) Prescribe(p solvers.Problem, n int, cfg solvers.Config) (solvers.Params, error) {
	return solvers.Params{}, &solvers.RefusedError{Solver: r.name, Reason: "L_f = ∞, so noise calibrated to it would be infinite"}
}
func (r *refuser) Run(ctx context.Context, p solvers.Problem, data solvers.Samples, cfg solvers.Config) (solvers.Result, error) {
	_, err := r.Prescribe(p, data.Len(), cfg)
	return solvers.Result{}, err
}

func init() {
	// Test solvers, registered after the real ones.
	solvers.Register(solvers.Descriptor{Solver: &fakeGD{name: "test-gd"}, Legend: "a test solver", Certificate: solvers.CertNone, Settings: solvers.NoSettings, DefaultOracle: "clip-gaussian"})
	solvers.Register(solvers.Descriptor{Solver: &fakeGD{name: "test-gd-slow", block: true}, Legend: "a test solver", Certificate: solvers.CertNone, Settings: solvers.NoSettings, DefaultOracle: "clip-gaussian"})
	solvers.Register(solvers.Descriptor{Solver: &refuser{name: "test-refuse"}, Legend: "a test solver", Certificate: solvers.CertNone, Settings: solvers.NoSettings, DefaultOracle: "clip-gaussian"})
}

// probe reads its whole dataset and reports a fingerprint of it in its
// notes (to test common random numbers); it outputs w = 0.
type probe struct{ name string }

func (p *probe) Name() string     { return p.name }
func (p *probe) Describe() string { return "test solver that fingerprints its data" }
func (p *probe) Prescribe(solvers.Problem, int, solvers.Config) (solvers.Params, error) {
	return solvers.Params{Iters: 1, Prescribed: true}, nil
}
func (p *probe) Run(ctx context.Context, pr solvers.Problem, data solvers.Samples, cfg solvers.Config) (solvers.Result, error) {
	x := make([]float64, data.SampleDim())
	rd := data.Open()
	var sum float64
	i := 0
	for rd.Next(x) {
		i++
		for j, v := range x {
			sum += float64(i*(j+1)) * v
		}
	}
	w := make([]float64, pr.Dim())
	if cfg.Observe != nil {
		cfg.Observe(solvers.Checkpoint{Iter: 1, Iters: 1, GradEvals: int64(i), W: w, Done: true})
	}
	return solvers.Result{Solver: p.name, W: w, GradEvals: int64(i), Params: solvers.Params{Iters: 1, Prescribed: true},
		Budget: cfg.Budget(oracle.ZCDP), Notes: []string{fmt.Sprintf("%d:%x", i, math.Float64bits(sum))}}, nil
}

func init() {
	solvers.Register(solvers.Descriptor{Solver: &probe{name: "test-probe-a"}, Legend: "a test solver", Certificate: solvers.CertNone, Settings: solvers.NoSettings, DefaultOracle: "clip-gaussian"})
	solvers.Register(solvers.Descriptor{Solver: &probe{name: "test-probe-b"}, Legend: "a test solver", Certificate: solvers.CertNone, Settings: solvers.NoSettings, DefaultOracle: "clip-gaussian"})
}
