package solvers

import (
	"context"
	"fmt"
	"math"

	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// batches splits n samples into `calls` consecutive disjoint batches of
// ⌊n/calls⌋ or ⌊n/calls⌋ + 1 samples (the first n mod calls batches get the
// extra one), so that a one-pass solver reads every sample exactly once.
type batches struct {
	n, calls   int
	base, xtra int
}

func newBatches(n, calls int) batches {
	return batches{n: n, calls: calls, base: n / calls, xtra: n % calls}
}

// size of batch t (0-based).
func (b batches) size(t int) int {
	if t < b.xtra {
		return b.base + 1
	}
	return b.base
}

// onePass is what a one-pass solver's prescription fixes besides its own
// step rule: the number of oracle calls and their batches, the ℓ2 clip
// threshold and the oracle.
type onePass struct {
	oracle string
	calls  int
	b      batches
	clip   float64 // ℓ2 C, +Inf for none
}

// prepOnePass validates what every one-pass solver needs and returns n, d,
// the consts helper and the oracle name.
func prepOnePass(p Problem, n int, cfg Config) (consts, string, error) {
	if err := validateConfig(cfg); err != nil {
		return consts{}, "", err
	}
	if p == nil || p.Dim() < 1 {
		return consts{}, "", &ConfigError{"problem", "the problem must have dimension d ≥ 1"}
	}
	if n < 1 {
		return consts{}, "", &ConfigError{"n", fmt.Sprintf("n = %d samples; want n ≥ 1", n)}
	}
	name := oracleName(cfg, "clip-gaussian")
	if _, err := newOracle(name, cfg); err != nil {
		return consts{}, "", err
	}
	c := consts{c: p.Constants(), k: cfg.K, a: cfg.Assumption, d: float64(p.Dim()), eps: cfg.Eps}
	if _, err := c.D(); err != nil {
		return consts{}, "", err
	}
	if kindOf(name) == oracle.Shuffle {
		c.eps = shuffleEps(cfg.Eps, float64(p.Dim()), cfg.Delta)
	}
	return c, name, nil
}

// shuffleEps is the ε at which the zCDP prescriptions reproduce the noise
// of an (ε, δ)-shuffle run: ε̃ = ε/ln(d/δ). Lemma "lem: pvec" (Cheu et al.,
// Theorem 3.2) gives the shuffle protocol's error variance
// O(dC²ln²(d/δ)/ε²) where MeanOracle1's Gaussian has 4dC²/ε², with the
// same clipping bias (Lemma "bias and variance of sdp bd14"), so the
// precise theorems' T and C are the zCDP ones at ε̃ (the appendix's shuffle
// bounds are theirs at ε̃; theory.ShuffleEps, which a test holds equal).
func shuffleEps(eps, d, delta float64) float64 { return eps / math.Log(d/delta) }

// shuffleNote says that a shuffle run's prescription is the zCDP one at ε̃,
// and by which statement: for the coordinate-wise shuffle oracle,
// Proposition "prop: sdp bias var" (its noise variance read with the
// factor d its proof drops, the KLZ oracle's dσ² of Remark "rem: sdp has
// same bias var": the Gaussian's at ε̃ with τ = C/√d).
func shuffleNote(c consts, cfg Config) string {
	if oracleName(cfg, "") == "shuffle-coordinate" {
		return fmt.Sprintf("(ε, δ)-shuffle model: T and C are the zCDP prescription at ε̃ = ε/ln(d/δ) = %s (prop: sdp bias var, rem: sdp has same bias var: the coordinate-wise shuffle protocol's noise at τ = C/√d is the Gaussian's at ε̃, up to logs)", num4(c.eps))
	}
	return fmt.Sprintf("(ε, δ)-shuffle model: T and C are the zCDP prescription at ε̃ = ε/ln(d/δ) = %s (Lemma lem: pvec: the shuffle protocol's noise is the Gaussian's at ε̃)", num4(c.eps))
}

// onePassClip is a one-pass solver's ℓ2 clip threshold: the override if
// one is given, +Inf at ε = ∞ (no clipping), and otherwise C = r̃_k·a^{1/k}
// with a the solver's privacy ratio: a = εn/√(dT) for acsa
// (C = r̃_k(εn/√(dT))^{1/k}) and clipped-sgd (C = r̃_k(ε²n²/(dT))^{1/(2k)},
// the same number), a = εn/(√d·T) for prox-sgd
// (C = r̃_k(ε²n²/(dT²))^{1/(2k)}).
func onePassClip(c consts, cfg Config, a float64) (float64, error) {
	switch {
	case cfg.Clip > 0:
		return cfg.Clip, nil
	case math.IsInf(c.eps, 1):
		return inf, nil
	}
	rk, err := c.rk()
	if err != nil {
		return 0, err
	}
	C := rk * math.Pow(a, invK(cfg.K))
	if math.IsInf(C, 1) {
		// r̃_k finite but near the largest float: the threshold overflows.
		return 0, &ConfigError{Field: "rk", Msg: fmt.Sprintf("the prescribed clip threshold C = r̃_k·a^(1/k) overflows at r̃_k = %s (a = %s): no finite C, so no noise calibrates to it; give a smaller r̃_k (or --clip)", theory.FormatNumber(rk), theory.Sig4.Format(a))}
	}
	return C, nil
}

// onePassSigma is the per-coordinate noise of the first (smallest-index)
// batch: 2C/(sε) for clip-gaussian, the oracle's own report otherwise. An
// oracle that refuses the call's parameters (a shuffle protocol past what
// it can simulate) is a *ConfigError of --oracle with the oracle's reason.
func onePassSigma(op onePass, d int, cfg Config) (float64, error) {
	o, err := oracle.New(op.oracle)
	if err != nil {
		return math.NaN(), nil
	}
	c, cost := o.Threshold(op.clip, d), callCost(o.Kind(), cfg, 1)
	if probe := newSigmaProbe(op.oracle); probe.o != nil && !math.IsInf(cfg.Eps, 1) {
		if err := probe.o.Begin(d, op.b.base, c, cost); err != nil {
			return math.NaN(), &ConfigError{Field: "oracle", Msg: fmt.Sprintf("%s cannot make a call of %s samples in d = %s at these parameters: %v; choose another oracle, or fewer samples per call (a smaller n)", op.oracle, theory.FormatCount(op.b.base), theory.FormatCount(d), err)}
		}
	}
	return oracleSigma(op.oracle, d, op.b.base, c, cost), nil
}

// onePassLoop is a one-pass run in progress: for t = 0..calls−1 it asks
// point(t) for the point w at which to estimate the gradient, reads the
// next batch, calls the oracle with the whole per-sample budget (parallel
// composition over disjoint batches), and hands the estimate to
// update(t, g̃), which returns the current output iterate for progress.
// run makes every call in turn; RunShared makes the calls of several loops
// on the same batches together (share.go). err, once set, ends the run
// (res then holds what abort filled in).
type onePassLoop struct {
	r      *runner
	op     onePass
	res    Result
	point  func(t int) []float64
	update func(t int, g []float64) []float64
	c      float64     // the oracle's clip parameter
	cost   ledger.Cost // each call's budget
	t, lo  int         // the next call and its first sample
	cur    []float64   // the current output iterate
	err    error
}

// newOnePassLoop prepares the one-pass run of res.Solver on data, w0 the
// starting point.
func newOnePassLoop(ctx context.Context, p Problem, data Samples, cfg Config, op onePass, private bool, res Result,
	w0 []float64, point func(t int) []float64, update func(t int, g []float64) []float64) *onePassLoop {
	l := &onePassLoop{op: op, res: res, point: point, update: update, cur: w0}
	n := data.Len()
	r, err := newRunner(ctx, p, cfg, op.oracle, private, n, data.SampleDim(), int64(n), op.calls)
	if err != nil {
		l.err = err
		return l
	}
	l.r = r
	l.res.Oracle = r.o.Name()
	if !private {
		l.res.Oracle = "none (non-private mean: no clipping, no noise)"
	}
	if err := r.start(w0); err != nil {
		l.fail(err)
		return l
	}
	r.stream(data)
	l.c = r.threshold(op.clip)
	l.cost = r.cost(1)
	return l
}

// fail ends the run with err.
func (l *onePassLoop) fail(err error) {
	l.r.abort(l.cur, &l.res)
	l.err = err
}

// live reports whether the loop has calls left to make.
func (l *onePassLoop) live() bool { return l.err == nil && l.t < l.op.calls }

// size is the number of samples of the next call.
func (l *onePassLoop) size() int { return l.op.b.size(l.t) }

// advance ends the call just made: the update and the step.
func (l *onePassLoop) advance() {
	l.lo += l.size()
	l.cur = l.update(l.t, l.r.est)
	l.t++
	if err := l.r.step(l.cur); err != nil {
		l.fail(err)
	}
}

// run makes the loop's calls one after the other and ends the run.
func (l *onePassLoop) run() (Result, error) {
	l.calls()
	return l.end()
}

// calls makes the loop's calls left, one after the other.
func (l *onePassLoop) calls() {
	for l.live() {
		if err := l.r.streamCall(l.lo, l.size(), l.point(l.t), l.c, l.cost); err != nil {
			l.fail(err)
			return
		}
		l.advance()
	}
}

// end checks the ledger and reports the run's result.
func (l *onePassLoop) end() (Result, error) {
	if l.err != nil {
		return l.res, l.err
	}
	err := l.r.end(append([]float64(nil), l.cur...), &l.res)
	return l.res, err
}

// checkOnePassIters validates an Iters override of a one-pass solver that
// makes calls = T + extra oracle calls on n samples.
func checkOnePassIters(cfg Config, n, extra int) error {
	if cfg.Iters > 0 && cfg.Iters+extra > n {
		return &ConfigError{"iters", fmt.Sprintf("T = %d; a one-pass solver needs a fresh batch for each of its %d oracle calls, so T must be in [1, %d] for n = %d", cfg.Iters, cfg.Iters+extra, n-extra, n)}
	}
	return nil
}
