package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// Defaults of a whole-run audit.
const (
	DefaultRunSolver = "acsa"
	DefaultRunN      = 1000
	DefaultRunTrials = 20_000
	// MaxRunN caps the samples of one audited run (every trial runs the
	// solver twice on n rows).
	MaxRunN = 1_000_000
	// chunkSolverRuns is the number of solver runs of one chunk.
	chunkSolverRuns = 64
	// materializeMax is the most floats of a streamed base dataset that a
	// whole-run audit keeps in memory (64 MB) instead of regenerating it
	// for every run.
	materializeMax = 1 << 23
)

// RunConfig is a whole-run audit: a complete run of a solver on a dataset
// whose only non-zero row is a canary. Zero fields take the documented
// defaults.
type RunConfig struct {
	Solver string  // registry name (solvers.Names); default DefaultRunSolver
	Oracle string  // mean oracle; "" is the solver's own default
	Eps    float64 // the claimed ε ∈ (0, ∞) of the run
	Delta  float64 // the claimed δ of a shuffle oracle (default spec.DefaultDelta); 0 otherwise
	K      float64 // the moment order k ∈ [2, ∞] of the prescription; default 2
	// Problem and Data are the base problem and dataset the canary joins
	// (e.g. a scenario's Instance and its trial-0 Dataset, fixed for every
	// run); nil: n zero rows of the mean-estimation problem (zeroProblem).
	// Data's rows are read again by every run, so it must replay the same
	// sequence (solvers.Samples promises it).
	Problem solvers.Problem
	Data    solvers.Samples
	// D and N are the dimension [1, MaxD] (default 1) and samples
	// [2, MaxRunN] (default DefaultRunN) of the zero-row dataset; with a
	// Problem they must be 0 or its own.
	D int
	N int
	// Overrides of the prescription (0: prescribed), as for `dpso run`.
	Iters int
	Clip  float64
	Step  float64
	// WorkBudget caps each run's gradient evaluations (multi-pass
	// solvers); 0 is the solver's default.
	WorkBudget int64
	Trials     int // runs per input, [MinTrials, MaxTrials]; default DefaultRunTrials
	// Canary is where the canary row sits: "first" (read by the first
	// oracle call) or "last" (by the last one). The default is where it
	// moves the output most (measured at the defaults, ε = 1): "last" for
	// the one-pass solvers, whose later steps forget the early batches
	// (acsa μ̂ ≈ 0.62 last vs ≈ 0 first; prox-sgd ≈ 0.85, its output is
	// the last iterate), "first" for the phased schedules of localized and
	// localized-sc (≈ 0.53 first vs ≈ 0.02 last: the first phase's many
	// passes all read it).
	Canary string
	// NegativeControl is F ∈ [1, MaxNegativeControl] (0 or 1: off): see
	// [Run].
	NegativeControl float64
	Seed            uint64
	Rand            solvers.RandMode
	Workers         int
	// Progress, if not nil, counts the audit's finished runs as they
	// finish (read it from any goroutine).
	Progress *Progress
}

// zeroProblem is the default base problem of a whole-run audit: the
// mean-estimation loss f(w, x) = ½‖w − x‖² on W = B(0, 1) with every row
// x = 0, so ∇f(w, 0) = w. F is 1-smooth and 1-strongly convex (and
// proximal-PL with f¹ = 0), so every paper solver's class fits it. Its
// declared constants describe these rows (sup_{w∈W}‖∇f(w, 0)‖ = 1:
// r̃_k = 1 for every k, L_f = 1); they only set the public schedule (T,
// C, steps). The canary is the adversary's row and no declared constant
// covers it: privacy must hold for every dataset.
type zeroProblem struct{ d int }

func (p zeroProblem) Dim() int { return p.d }

func (p zeroProblem) Grad(g, w, x []float64) {
	for j := range g {
		g[j] = w[j] - x[j]
	}
}

func (zeroProblem) Regularizer() solvers.Regularizer { return solvers.Regularizer{} }

func (zeroProblem) Constants() solvers.Constants {
	return solvers.Constants{D: 2, Beta: 1, Mu: 1, Lf: 1, Moment: func(float64) float64 { return 1 }}
}

// canaryProblem wraps a base problem for a gradient canary (Nasr et al.
// 2021's "Dirac" canaries): samples carry one extra last entry, the
// canary flag f ∈ {−1, 0, +1}; a row with f ≠ 0 has the gradient f·G·e₁
// whatever w is, every other row the base problem's gradient of its first
// SampleDim entries. G = canaryNorm(C) ≥ 10⁹·C, so clipping makes the
// canary's contribution ±C·e₁: the largest change one row can make to an
// ℓ2-clipped mean, whatever the loss. (A coordinate-wise oracle's median
// of group means absorbs a lone canary: such an audit is weak.)
type canaryProblem struct {
	base solvers.Problem
	sd   int     // the base samples' dimension
	g    float64 // G
}

func (p canaryProblem) Dim() int { return p.base.Dim() }

func (p canaryProblem) Grad(g, w, x []float64) {
	if f := x[p.sd]; f != 0 {
		clear(g)
		g[0] = f * p.g
		return
	}
	p.base.Grad(g, w, x[:p.sd])
}

func (p canaryProblem) Regularizer() solvers.Regularizer { return p.base.Regularizer() }

func (p canaryProblem) Constants() solvers.Constants { return p.base.Constants() }

// canarySamples is a base dataset with the flag entry appended: 0 on every
// row but row `row`, where it is flag.
type canarySamples struct {
	base solvers.Samples
	row  int
	flag float64
}

func (c *canarySamples) Len() int       { return c.base.Len() }
func (c *canarySamples) SampleDim() int { return c.base.SampleDim() + 1 }
func (c *canarySamples) Open() solvers.SampleReader {
	return &canaryReader{c: c, r: c.base.Open(), sd: c.base.SampleDim()}
}

type canaryReader struct {
	c  *canarySamples
	r  solvers.SampleReader
	sd int
	i  int
}

func (r *canaryReader) Next(x []float64) bool {
	if !r.r.Next(x[:r.sd]) {
		return false
	}
	x[r.sd] = 0
	if r.i == r.c.row {
		x[r.sd] = r.c.flag
	}
	r.i++
	return true
}

// canaryNorm is G = 10⁹·max(1, C) (10⁹ when C = ∞: an unclipped run then
// moves by the canary's full gradient).
func canaryNorm(c float64) float64 {
	if math.IsInf(c, 1) {
		return 1e9
	}
	return 1e9 * math.Max(1, c)
}

// solverDrawer runs whole solver runs on the two canary datasets.
type solverDrawer struct {
	s    solvers.Solver
	p    solvers.Problem
	data [2]solvers.Samples
	cfg  solvers.Config
}

func (dr *solverDrawer) draw(ctx context.Context, side int, run int, _ *rand.Rand) (float64, error) {
	cfg := dr.cfg
	cfg.Trial = run // the solver's noise stream: NewRand(Rand, Seed, run, "noise")
	res, err := dr.s.Run(ctx, dr.p, dr.data[side], cfg)
	if err != nil {
		return 0, err
	}
	return res.W[0], nil
}

// Run audits a complete run of a solver black-box on its output w. The two
// neighbouring datasets are the base dataset (by default n zero rows of
// the mean-estimation problem) with its first or last row (see
// RunConfig.Canary) replaced by a gradient canary whose gradient is −G·e₁
// (D0) or +G·e₁ (D1), G so large that its clipped gradient is ∓C·e₁ (see
// canaryProblem); the outputs are projected on e₁ (oriented by the
// pilot). Each run's noise is the
// solver's own stream, solvers.NewRand(Rand, Seed, r, "noise") with r
// unique to the (phase, input, run); runs are grouped in fixed chunks, so
// a seeded audit is the same for any number of workers.
//
// A run releases only its final w, which is a post-processing of all its
// oracle calls; the canary enters one of them (one-pass solvers) or the
// passes of one phase (localized solvers). So the run is at most as
// distinguishable as that call: for the one-pass solvers μ̂ is below ε
// (the other calls' noise drowns part of the canary's shift), and equal to
// it only with one oracle call (Iters = 1).
//
// Negative control (F > 1): the solver runs at budget F·ε while the claim
// stays ε. The schedule is frozen at the claim's prescription (T, C and
// step passed as overrides) when that reproduces it exactly, so only σ
// changes, by 1/F (true of acsa, clipped-sgd and prox-sgd); otherwise (the
// multi-pass solvers, whose overrides are per phase) the run follows its
// own prescription at F·ε, and a note says so.
func Run(ctx context.Context, rc RunConfig) (*Result, error) {
	c, err := rc.resolve()
	if err != nil {
		return nil, err
	}
	c.Progress.start(max(1000, c.Trials/10), c.Trials)
	s, _ := solvers.Lookup(c.Solver)
	var p solvers.Problem = zeroProblem{d: c.D}
	var base0 solvers.Samples = &solvers.Matrix{Data: make([]float64, c.N*c.D), Dim: c.D}
	if c.Problem != nil {
		p, base0 = c.Problem, c.Data
		// Every run reads the whole dataset; generate a streamed one once.
		if _, ok := base0.(*solvers.Matrix); !ok && c.N*base0.SampleDim() <= materializeMax {
			base0 = solvers.Materialize(base0)
		}
	}
	base := solvers.Config{
		Eps: c.Eps, Delta: c.Delta, K: c.K, Oracle: c.Oracle,
		Iters: c.Iters, Clip: c.Clip, Step: c.Step, WorkBudget: c.WorkBudget,
		Seed: c.Seed, Rand: c.Rand, Checkpoints: 1,
	}
	claim, err := s.Prescribe(p, c.N, base)
	if err != nil {
		return nil, err
	}
	if addsNoNoise(claim) {
		// The non-private baseline (sgd) prescribes σ = 0 at a finite ε:
		// it claims no privacy, and a "violation" of ρ = ε²/2 would
		// report a claim nothing makes.
		return nil, specErr("solver", "%s adds no privacy noise (σ = 0 at ε = %s): it claims no privacy, so a whole-run audit has no claim to test; audit a private solver", c.Solver, theory.FormatNumber(c.Eps))
	}
	if c.Canary == "" {
		c.Canary = defaultCanary(claim)
	}
	kind, _ := oracle.KindOf(c.Oracle) // resolved: a registered oracle
	res := &Result{
		Oracle: c.Oracle, Solver: c.Solver, Kind: kind, Eps: c.Eps, Delta: math.NaN(),
		D: c.D, S: c.N, NegativeControl: c.NegativeControl,
		Rand: c.Rand, Seed: c.Seed, Sensitivity: math.NaN(), Shift: math.NaN(),
		Direction: unit(c.D),
	}
	if kind == oracle.Shuffle {
		res.Delta = c.Delta
	}
	res.Notes = append(res.Notes, fmt.Sprintf("%s at the claim: T = %d, batch %d, C = %s, σ = %s per oracle call; the canary is the %s row.", c.Solver, claim.Iters, claim.Batch, theory.Sig4.Format(claim.Clip), theory.Sig4.Format(claim.Sigma), c.Canary))
	cfg := base
	if c.NegativeControl != 1 {
		cfg.Eps = c.Eps * c.NegativeControl
		frozen := cfg
		frozen.Iters, frozen.Clip, frozen.Step = claim.Iters, claim.Clip, claim.Step
		weak, err := s.Prescribe(p, c.N, frozen)
		if err == nil && weak.Iters == claim.Iters && weak.Batch == claim.Batch && weak.Clip == claim.Clip && weak.Step == claim.Step && len(weak.Phases) == len(claim.Phases) {
			cfg = frozen
			res.Notes = append(res.Notes, fmt.Sprintf("Negative control: the same schedule at budget %s·ε, so only the noise changes (σ = %s instead of %s).", theory.Sig4.Format(c.NegativeControl), theory.Sig4.Format(weak.Sigma), theory.Sig4.Format(claim.Sigma)))
		} else {
			if _, err := s.Prescribe(p, c.N, cfg); err != nil {
				return nil, specErr("negative-control", "%s refuses the weakened budget F·ε = %s: %v", c.Solver, theory.FormatNumber(cfg.Eps), err)
			}
			res.Notes = append(res.Notes, fmt.Sprintf("Negative control: %s's overrides cannot freeze its schedule, so it runs with its own prescription at F·ε = %s.", c.Solver, theory.Sig4.Format(cfg.Eps)))
		}
	}
	row := 0
	if c.Canary == "last" {
		row = c.N - 1
	}
	cp := canaryProblem{base: p, sd: base0.SampleDim(), g: canaryNorm(claim.Clip)}
	data := [2]solvers.Samples{&canarySamples{base: base0, row: row, flag: -1}, &canarySamples{base: base0, row: row, flag: 1}}
	pl := plan{
		trials: c.Trials, pilot: max(1000, c.Trials/10), chunk: chunkSolverRuns,
		workers: c.Workers, mode: c.Rand, seed: c.Seed, progress: c.Progress,
		// A run reads at least n rows of d: report every 2¹² of them.
		tick: int(max(1, min(chunkSolverRuns, (1<<12)/(int64(c.N)*int64(c.D))))),
		newDrawer: func() (drawer, error) {
			return &solverDrawer{s: s, p: cp, data: data, cfg: cfg}, nil
		},
	}
	res.Pilot = pl.pilot
	smp, err := pl.collect(ctx)
	if err != nil {
		return nil, err
	}
	analyze(res, smp)
	return res, nil
}

// defaultCanary is where the canary row moves the output most (see
// RunConfig.Canary): "first" on a phased schedule, whose first phase's
// many passes all read the first row, "last" otherwise.
func defaultCanary(claim solvers.Params) string {
	if len(claim.Phases) > 0 {
		return "first"
	}
	return "last"
}

func unit(d int) []float64 {
	u := make([]float64, d)
	u[0] = 1
	return u
}

// addsNoNoise reports whether a prescription adds no privacy noise in any
// phase (σ = 0 everywhere).
func addsNoNoise(p solvers.Params) bool {
	if len(p.Phases) == 0 {
		return p.Sigma == 0
	}
	for _, ph := range p.Phases {
		if ph.Sigma != 0 {
			return false
		}
	}
	return true
}

func (c RunConfig) resolve() (RunConfig, error) {
	if c.Solver == "" {
		c.Solver = DefaultRunSolver
	}
	if _, ok := solvers.Lookup(c.Solver); !ok {
		return c, specErr("solver", "%q is not a solver; want one of %s", c.Solver, strings.Join(solvers.Names(), ", "))
	}
	if d, _ := solvers.DescriptorOf(c.Solver); d.Accounted {
		// Its claim is the accountant's (ε', δ), not μ = ε GDP: testing
		// it against μ would call a subsampled mechanism's non-Gaussian
		// trade-off curve a violation.
		return c, specErr("solver", "%s is accounted as a whole to an (ε', δ) by its privacy accountant, not to ρ = ε²/2 zCDP; a whole-run audit tests zCDP and shuffle claims only (an audit of an accountant's (ε', δ) is not implemented)", c.Solver)
	}
	if c.Oracle == "" {
		d, _ := solvers.DescriptorOf(c.Solver)
		c.Oracle = d.DefaultOracle
	}
	kind, ok := oracle.KindOf(c.Oracle)
	if !ok {
		return c, specErr("oracle", "%q is not an oracle; want one of %s", c.Oracle, strings.Join(oracle.Names(), ", "))
	}
	switch {
	case !(c.Eps > 0) || math.IsInf(c.Eps, 1):
		return c, specErr("eps", "ε = %s; want a finite ε > 0 (an audit of ε = ∞ has no claim to test)", theory.FormatNumber(c.Eps))
	case kind == oracle.ZCDP && c.Delta != 0:
		return c, specErr("delta", "δ applies to the shuffle oracles only; %s is ρ-zCDP with ρ = ε²/2", c.Oracle)
	case kind == oracle.Shuffle && c.Delta == 0:
		c.Delta = spec.DefaultDelta
	}
	if kind == oracle.Shuffle && !(c.Delta > 0 && c.Delta < 0.5) {
		return c, specErr("delta", "δ = %s; want δ in (0, 1/2) (the shuffle protocols' range)", theory.FormatNumber(c.Delta))
	}
	if c.K == 0 {
		c.K = scenarios.DefaultK
	}
	if math.IsNaN(c.K) || c.K < 2 {
		return c, specErr("k", "k = %s; want k in [2, ∞]", theory.FormatNumber(c.K))
	}
	if (c.Problem == nil) != (c.Data == nil) {
		return c, specErr("data", "a whole-run audit needs both a problem and its dataset, or neither")
	}
	if c.Problem != nil {
		d, n := c.Problem.Dim(), c.Data.Len()
		if (c.D != 0 && c.D != d) || (c.N != 0 && c.N != n) {
			return c, specErr("d", "d = %d, n = %d given, but the problem has d = %d and its dataset n = %d", c.D, c.N, d, n)
		}
		c.D, c.N = d, n
	}
	if c.D == 0 {
		c.D = 1
	}
	if c.D < 1 || c.D > MaxD {
		return c, specErr("d", "d = %s; want d in [1, %s]", theory.FormatCount(c.D), theory.FormatCount(MaxD))
	}
	if c.N == 0 {
		c.N = DefaultRunN
	}
	if c.N < 2 || c.N > MaxRunN {
		return c, specErr("n", "n = %s; want n in [2, %s]", theory.FormatCount(c.N), theory.FormatCount(MaxRunN))
	}
	if c.Trials == 0 {
		c.Trials = DefaultRunTrials
	}
	if c.Trials < MinTrials || c.Trials > MaxTrials {
		return c, specErr("trials", "%s runs per input; want [%s, %s]", theory.FormatCount(c.Trials), theory.FormatCount(MinTrials), theory.FormatCount(MaxTrials))
	}
	var err error
	if c.NegativeControl, err = negativeControl(c.NegativeControl); err != nil {
		return c, err
	}
	if c.Workers < 0 {
		return c, specErr("workers", "%d; want ≥ 0 (0 = all cores)", c.Workers)
	}
	switch c.Canary {
	case "", "first", "last": // "": Run's default, from the prescription
	default:
		return c, specErr("canary", "%q; want first or last", c.Canary)
	}
	if c.Rand != solvers.Seeded && c.Rand != solvers.Secure {
		return c, specErr("rand", "%v; want seeded or secure", c.Rand)
	}
	return c, nil
}
