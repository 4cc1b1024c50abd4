package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	privest "dpso/solvers/estimate"
	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// Settings are a run's optional connections to the outside, in the style
// of gonum's optimize.Settings: a nil *Settings, or a nil field, means
// none. They never change a result.
type Settings struct {
	// Progress receives a Progress at every checkpoint of every (solver,
	// trial) and at its end; Put never blocks the solvers.
	Progress *Mailbox[Progress]
	// Gate pauses the run while it is closed: every solver goroutine blocks
	// at its next checkpoint until the gate opens or the context is
	// cancelled (see Gate).
	Gate *Gate
	// Plan, if not nil, is called once, before the first trial starts,
	// with the call's planned work (an up-front estimate of how long it
	// takes is the caller's: see Plan).
	Plan func(Plan)
	// Searched, if not nil, is called twice by Tune with references,
	// with the report so far: once the private searches are done (every
	// solver's Prescribed and Oracle nil), and again after the prescribed
	// runs, before the oracle-tuned reference (every grid point at the
	// full budget, most of the call's work): every Oracle nil, the rest as
	// Tune returns it. The report is the callee's to keep (Tune goes on
	// with its own copy); a search cancelled before it ends never calls
	// it.
	Searched func(*TuneReport)
	// Coarse, if not nil, is called once by Tune with references, after
	// Searched, when the oracle-tuned reference has run the coarse part of
	// each grid (coarseGrid) in every trial and before the rest of it,
	// with the report so far: each solver's Oracle that of the coarse
	// points (OracleTuned.Coarse). The report is the callee's to keep. A
	// Tune with Coarse set runs the same points and returns the same
	// report as without, reading each trial's draw twice (once a stage).
	Coarse func(*TuneReport)
}

// Plan is a call's planned work, known from the prescriptions before any
// trial runs: Work is the sum over its (trial, point) jobs of the floats
// they draw and process, (d + 1)·(n + Σ over the solvers that run of
// their planned gradient evaluations, solvers.Params.GradEvals, twice in
// a clip or k sweep) — the model PreparedSweep.Cost balances shards
// with — and Workers the goroutines the jobs share (Spec.Workers, or
// GOMAXPROCS). A caller turns it into a duration with a pace it
// measured (seconds per float); the model leaves out what does not grow
// with n·d (the problem's build, F*, the checkpoints' evaluations).
//
// Reads are the rows that each solver that runs plans to read, over all
// the jobs (PlanReads), in the call's solver order: what the call costs
// in a measure that no machine changes.
type Plan struct {
	Jobs    int
	Workers int
	Work    float64
	Reads   []PlanReads
}

func (s *Settings) progress() *Mailbox[Progress] {
	if s == nil {
		return nil
	}
	return s.Progress
}

// wait blocks at a checkpoint while the gate is closed; on cancellation
// the solver sees ctx.Err() itself.
func (s *Settings) wait(ctx context.Context) {
	if s != nil && s.Gate != nil {
		_ = s.Gate.Wait(ctx)
	}
}

// Estimate is a mean over trials with its standard error sd/√N (NaN for
// N < 2: one trial has no spread to estimate), and beside it the median
// and the quartiles of the trials' values (heavy tails make a mean a poor
// summary on its own): sample quantiles of Hyndman & Fan's type 7 (R's and
// NumPy's default, linear interpolation between order statistics at
// h = (N − 1)p), NaN without trials.
type Estimate struct {
	Mean   float64
	SE     float64
	N      int
	Median float64
	Q1, Q3 float64
}

// quantile7 is the type-7 sample quantile of the sorted xs at p ∈ [0, 1]:
// x_(⌊h⌋) + (h − ⌊h⌋)(x_(⌊h⌋+1) − x_(⌊h⌋)) with h = (n − 1)p (0-based).
func quantile7(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := float64(n-1) * p
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// estimate is the mean and standard error of xs, summed in order (so the
// result does not depend on how trials were scheduled), with their
// median and quartiles (quantile7).
func estimate(xs []float64) Estimate {
	e := meanSE(xs)
	if len(xs) == 0 || slices.ContainsFunc(xs, math.IsNaN) {
		e.Median, e.Q1, e.Q3 = math.NaN(), math.NaN(), math.NaN()
		return e
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	e.Median, e.Q1, e.Q3 = quantile7(s, 0.5), quantile7(s, 0.25), quantile7(s, 0.75)
	return e
}

// meanSE is the mean and standard error of xs, summed in order.
func meanSE(xs []float64) Estimate {
	n := len(xs)
	if n == 0 {
		return nanEstimate()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	mean := s / float64(n)
	if n < 2 {
		return Estimate{Mean: mean, SE: math.NaN(), N: n}
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return Estimate{Mean: mean, SE: math.Sqrt(ss / float64(n-1) / float64(n)), N: n}
}

// TracePoint is the excess risk at one checkpoint.
type TracePoint struct {
	Iter      int
	GradEvals int64
	// Excess is F(w) − F* of the checkpoint's iterate (per trial), or its
	// mean over trials (Report.Trace).
	Excess float64
	// SE is the evaluation sample's Monte Carlo error (per trial), or the
	// standard error over trials (Report.Trace).
	SE float64
}

// TrialResult is one trial of one solver.
type TrialResult struct {
	Trial int
	// Excess is F(w) − F* of the output, ExcessSE the Monte Carlo error of
	// the evaluation sample (0 when exact).
	Excess, ExcessSE float64
	// Holdout is the output's mean loss on user data's held-out rows and
	// HoldoutSE its standard error over the rows (NaN without --holdout):
	// a non-private diagnostic.
	Holdout, HoldoutSE float64
	// Constants are the trial's private estimates of the constants its
	// solvers' prescriptions read (nil unless --constants private); their
	// cost ρ₀ is part of Spent and Budget.
	Constants     *privest.Estimates
	W             []float64
	Spent, Budget ledger.Cost
	// Events are the mechanisms the ledger accounted as a whole (dp-sgd's
	// Poisson-subsampled Gaussian steps, with their accountant's (ε', δ));
	// nil for the solvers charged call by call.
	Events    []ledger.Event
	Params    solvers.Params
	GradEvals int64
	NonFinite int64
	// Clipped and Fed count the per-sample gradients clipping changed and
	// those fed to the oracle (solvers.Result).
	Clipped, Fed int64
	// NoiseOff is F(w) − F* of the same schedule and data with the noise
	// switched off (solvers.Config.NoNoise): what clipping, sampling and
	// optimization leave; NaN when not run.
	NoiseOff float64
	// Reference is F(ŵ) − F* of the non-private reference on this
	// trial's draw, ŵ the empirical risk minimizer over W (the same for
	// every solver of the trial), and ReferenceWidth its certificate's
	// width (F̂(ŵ) − min F̂ ≤ width); NaN when not computed (user data,
	// where the measured risk is the rows' own and ŵ's excess is 0 by
	// definition, or a dataset too large to hold: ReferenceNote says).
	Reference, ReferenceWidth float64
	ReferenceNote             string
	BudgetBound               bool
	Notes                     []string
	Trace                     []TracePoint
	Elapsed                   time.Duration
}

// Report is the result of running one solver on a run's trials.
type Report struct {
	// Spec is the run's resolved Spec; for user data with n and d those of
	// the data (Theory.N, Theory.D).
	Spec     spec.Spec
	Solver   string
	Describe string // the solver's one-line description
	// Oracle is the mean oracle this solver used: the run's, or the
	// solver's own default; for a solver with its own estimate its name
	// (solvers.Descriptor.OracleName: dp-sgd's oracle.NoisySumName).
	Oracle  string
	Class   theory.Class
	Privacy spec.Privacy
	// Excess is the mean ± standard error over trials of F(w_T) − F*.
	Excess Estimate
	// EvalSE is the mean over trials of the evaluation sample's Monte
	// Carlo error of F(w_T) − F* (0 for closed forms and user data); it is
	// common to all trials, so it does not shrink with more trials.
	EvalSE float64
	Risk   scenarios.RiskInfo
	Trials []TrialResult
	// Trace is the mean over trials of the excess risk at each checkpoint
	// (the checkpoint schedule is deterministic, so trials align).
	Trace []TracePoint
	// Params is the prescription (that of trial 0).
	Params solvers.Params
	Theory scenarios.TheoryInputs
	// Bounds are the theory bounds of the class at the same parameters
	// (Instance.Bounds).
	Bounds  []theory.Bound
	Profile []scenarios.MomentEntry
	Rand    string // the randomness mode's label
	// UserRows: the data are the user's rows, so the excess risk (and
	// everything else measured on them) is a non-private diagnostic.
	UserRows bool
	// NotPrivate says, in words, why the run's outputs are not covered by
	// a privacy guarantee (spec.Resolved.NotPrivate; the baseline nonprivate-schedule
	// adds its own); empty when they are.
	NotPrivate []string
	// Total is what the whole call (this run, or the comparison or sweep
	// it belongs to) released from the same data, composed.
	Total PrivacyTotal
	// Refused is the solver's sentence when it declines the run (e.g.
	// Lipschitz DP-SGD with L_f = ∞) or, in a comparison, cannot run with
	// this configuration (its *solvers.ConfigError); the other fields but
	// Spec, Solver, Theory and Profile are then empty.
	Refused string
	Notes   []string
	Elapsed time.Duration

	// W0 is F(w₀) − F* at the solvers' common start w₀ = 0, the excess
	// risk of doing nothing (closed form, the evaluation sample with its
	// Monte Carlo error in SE, or on user data the empirical gap, a
	// non-private diagnostic); N = 0.
	W0 Estimate
	// Clipped is the mean over trials of the fraction of per-sample
	// gradients clipping changed (NaN for a solver that does not clip);
	// on user data a non-private diagnostic.
	Clipped float64
	// NoiseOff is the mean ± s.e. over trials of the excess risk of the
	// same schedule and draws with the noise switched off (NaN when not
	// run; see SweepSpec): clipping, sampling and optimization together,
	// not the clipping bias alone (at 0% clipped it is all sampling and
	// optimization).
	NoiseOff Estimate
	// ClipBias is the clipping bias itself at the solver's C:
	// F(w_C) − F* of the clipped population fixed point
	// (scenarios.Instance.ClipBias), computed beside NoiseOff (clip and k
	// sweeps); NaN with its reason in Method when it does not apply (an
	// oracle that does not clip ∇f at one C) or cannot be computed.
	ClipBias scenarios.ClipBias
	// Geometry is where the empirical minimizer of user data lies
	// relative to W, and Estimated the constants --estimate-constants
	// computed from the rows (both non-private diagnostics; nil on a
	// scenario).
	Geometry  *scenarios.Geometry
	Estimated []scenarios.EstimatedConstant
	// Reference is the non-private reference: the mean ± s.e. over trials
	// of F(ŵ) − F* for ŵ the empirical risk minimizer over W on each
	// trial's draw (TrialResult.Reference), which depends neither on ε nor
	// on any solver; NaN when not computed (ReferenceNote says why).
	// ReferenceWidth is the largest certificate width over trials.
	Reference      Estimate
	ReferenceWidth float64
	ReferenceNote  string
	// Certified is the paper's explicit-constant bound at this run's own
	// parameters (see Certify).
	Certified Certified
	// BudgetCapped is true when the work budget cut the prescribed
	// schedule (localized methods, klz-gd): the parameters are then not
	// the theorem's prescription.
	BudgetCapped bool
	// Holdout is the mean ± s.e. over trials of the output's loss on user
	// data's held-out rows, W0Holdout the loss of w₀ = 0 there with its
	// standard error over the rows (NaN without --holdout): non-private
	// diagnostics, the population's stand-in beside the in-sample excess
	// risk.
	Holdout, W0Holdout Estimate
	// HoldoutRows is the number of held-out rows (0 without --holdout).
	HoldoutRows int
	// ConstantsRho is ρ₀, the per-trial cost of the private estimates of
	// the constants (0 without --constants private).
	ConstantsRho float64
	// RefNotes are the sentences about the reference lines: the
	// certificate (none, a failed condition, vacuous), a mean above
	// F(w₀) − F*, a budget cap. A run's outputs print them after Notes; a
	// sweep's table shows the same facts in its columns instead.
	RefNotes []string
}

// Private reports whether the run was private: its ledger budget (every
// trial's is the same) is finite. ε = ∞ and the non-private baseline nonprivate-schedule,
// whose ledger budget is infinite, are not.
func (r *Report) Private() bool {
	if !r.Privacy.Private() {
		return false
	}
	for _, t := range r.Trials {
		return !math.IsInf(t.Budget.Rho, 1) && !math.IsInf(t.Budget.Eps, 1)
	}
	return true
}

// Progress is a live report from a running trial, delivered through a
// Mailbox.
type Progress struct {
	Solver string
	Trial  int
	// Point is the sweep point's index (0 outside sweeps).
	Point     int
	Iter      int
	Iters     int
	Phase     int
	GradEvals int64
	// Excess is F(w) − F* of the current iterate, ExcessSE its evaluation
	// error.
	Excess, ExcessSE float64
	Spent            ledger.Cost
	Batch            oracle.BatchStats
	NonFinite        int64
	Done             bool // the trial's last checkpoint
	// Oracle marks a point of a search's oracle-tuned reference (Tune,
	// phase 2): grid point Iter of the trial's Iters, run at the full
	// budget.
	Oracle bool
	// Searched marks the end of one trial's private search (Tune, Done
	// set): Excess and ExcessSE are then the measured excess risk of the
	// point the search released, F(w) − F* (TuneTrial.Excess).
	Searched bool
	// Pulse marks a report from inside an oracle call or a pass over the
	// data (solvers.Config.Pulse, at most every PulseEvery per run): only
	// GradEvals, Planned, Total and Elapsed are new; the iterate's fields
	// (Iter, Excess, Spent, Batch, …) are zero — those of the latest
	// checkpoint stand.
	Pulse bool
	// Planned is the (solver, trial) run's planned gradient evaluations
	// (solvers.Params.GradEvals of its prescription; dp-sgd's is the
	// expected count), 0 when unknown: GradEvals/Planned is the share of
	// the run done.
	Planned int64
	// Calibration, when not nil, marks a report from a noise calibration
	// before the trials (ObserveCalibration): only it and Elapsed are set.
	Calibration *Calibration
	// Queue, when not nil, marks a report of the caller's CPU queue, not
	// of the engine: a Runner that shares CPU slots between sessions (dpso
	// serve) puts it while the call waits for its slots and once it has
	// them; only it is set.
	Queue *Queue
	// TrialsDone counts finished (trial, solver) runs of the whole call,
	// of Total.
	TrialsDone, Total int
	Elapsed           time.Duration
}

// Queue is where a call stands in a shared CPU queue: Position k > 0
// while it waits behind k − 1 calls (in the order the queue serves
// them), for Waited so far; Position 0 once it holds its slots, Waited
// then the whole wait.
type Queue struct {
	Position int
	Waited   time.Duration
}

// Comparison is several solvers run on the same draws (common random
// numbers: every solver of a trial sees the same dataset and the same
// noise stream seed).
type Comparison struct {
	Reports []*Report
	// Total is what the comparison's outputs cost together (every
	// report's Total is this one).
	Total PrivacyTotal
	// Diff[i] is the paired difference of solver i's excess risk minus
	// solver 0's, mean ± standard error over trials (NaN when either
	// refused). Pairing removes the data's variance from the comparison.
	Diff []Estimate
}

// Run runs r.Spec.Trials trials of r's solver in parallel on
// r.Spec.Workers goroutines (default GOMAXPROCS), each trial in one
// goroutine with its own streams, so the result is the same bit for bit
// whatever the number of workers (in seeded mode). It stops within 50 ms
// of ctx's cancellation and then returns ctx's error. A solver's refusal is
// returned as its *solvers.RefusedError.
func Run(ctx context.Context, r spec.Resolved, set *Settings) (*Report, error) {
	c, err := Compare(ctx, r, nil, set)
	if err != nil {
		return nil, err
	}
	rep := c.Reports[0]
	if rep.Refused != "" {
		return nil, &solvers.RefusedError{Solver: rep.Solver, Reason: rep.Refused}
	}
	return rep, nil
}

// Compare runs several solvers (default: r's solver) on the same trials:
// each trial draws its dataset once and runs every solver on it. A solver
// that refuses is reported with its reason; the others run.
func Compare(ctx context.Context, r spec.Resolved, names []string, set *Settings) (*Comparison, error) {
	start := time.Now()
	if len(names) == 0 {
		names = []string{r.Solver.Name()}
	}
	names, renamed := spec.CanonicalNames(names)
	r.DefaultNotes = append(slices.Clone(r.DefaultNotes), renamed...)
	// Everything the comparison releases from the same data composes (see
	// PrivacyTotal); with --split-budget each release gets its share.
	if err := splitAllowed(r, names); err != nil {
		return nil, err
	}
	r, err := r.ForReleases(r.Releases(len(names), 1))
	if err != nil {
		return nil, err
	}
	u, err := newUnit(ctx, r, names, 0, nil)
	if err != nil {
		return nil, err
	}
	if err := checkResults(r, []*unit{u}); err != nil {
		return nil, err
	}
	if err := runUnits(ctx, allJobs([]*unit{u}), r.Spec.Workers, set, start); err != nil {
		return nil, err
	}
	if err := u.finish(ctx); err != nil {
		return nil, err
	}
	c := u.comparison(time.Since(start))
	c.Total = totalOf(r, []*unit{u})
	for _, rep := range c.Reports {
		rep.Total = c.Total
	}
	return c, nil
}

// Prescription is what a run would use, computed without running.
type Prescription struct {
	Spec    spec.Spec
	Solver  string
	Oracle  string
	Privacy spec.Privacy
	Params  solvers.Params
	Theory  scenarios.TheoryInputs
	Bounds  []theory.Bound
	Profile []scenarios.MomentEntry
	// Contradictions are the given constants (--lf, --rk, …) that the
	// scenario's own constants contradict (the explorer's moment profile
	// flags them).
	Contradictions []scenarios.Contradiction
	Risk           scenarios.RiskInfo
	Notes          []string
	// Refused is the solver's sentence when it would decline the run.
	Refused string
	// UserRows, NotPrivate: as Report's.
	UserRows   bool
	NotPrivate []string
	// Total is what the run would release in all (its trials on user
	// rows), planned from the budget.
	Total PrivacyTotal
	// W0 is F(w₀) − F* at w₀ = 0 (see Report.W0).
	W0 Estimate
	// Certified is the certificate at the prescribed parameters.
	Certified Certified
	// RefNotes are the certificate's sentences (see Report.RefNotes).
	RefNotes []string
	// Plan is the run's planned work (its trials of the prescribed
	// solver; see Plan), for an up-front estimate of its duration.
	Plan Plan
	// Geometry and Estimated: as Report's.
	Geometry  *scenarios.Geometry
	Estimated []scenarios.EstimatedConstant
}

// Private reports whether the prescribed run would be private: a finite ε
// and some clipping or noise (the baseline nonprivate-schedule has neither).
func (p *Prescription) Private() bool {
	return p.Privacy.Private() && !(math.IsInf(p.Params.Clip, 1) && p.Params.Sigma == 0)
}

// Prescribe builds r's problem and returns the solver's parameters for it
// without running (for the explorer's formula panel and `run --dry-run`),
// with the constants the theory bounds need.
func Prescribe(ctx context.Context, r spec.Resolved) (*Prescription, error) {
	if err := checkPrivateConstants(r); err != nil {
		return nil, err
	}
	r, err := r.ForReleases(r.Releases(1, 1))
	if err != nil {
		return nil, err
	}
	in, err := scenarios.Build(ctx, r.Problem)
	if err != nil {
		return nil, err
	}
	rs := specOf(r, in)
	prof, err := in.ProfileContext(ctx)
	if err != nil {
		return nil, err
	}
	p := &Prescription{Spec: rs, Solver: r.Solver.Name(), Oracle: r.Solver.OracleName(r.Oracle), Privacy: r.Privacy,
		Theory: theoryOf(r, in), Profile: prof, Contradictions: in.Contradictions(), Risk: in.RiskInfo(), Notes: append(slices.Clone(r.DefaultNotes), in.Notes()...),
		UserRows: r.UserRows(), NotPrivate: r.NotPrivate(), Total: plannedTotal(r)}
	if note := givenNote(in, r.Solver, r.Spec.K); note != "" {
		p.Notes = append(p.Notes, note)
	}
	p.Bounds, p.Notes = boundsWithNote(p.Theory, p.Notes)
	if err := spec.CheckSamplingRate(r.Spec, in.Def().N); err != nil {
		return nil, err
	}
	cfg := r.Config(0, nil)
	cfg.Context = ctx // dp-sgd's calibration answers Ctrl-C
	par, err := r.Solver.Solver.Prescribe(in, in.Def().N, cfg)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var re *solvers.RefusedError
	switch {
	case errors.As(err, &re):
		p.Refused = re.Reason
	case err != nil:
		return nil, err
	default:
		if err := checkParams(r, p.Solver, par); err != nil {
			return nil, err
		}
	}
	p.Params = par
	p.Notes = append(p.Notes, par.Notes...)
	if p.Refused == "" {
		workers := r.Spec.Workers
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		perTrial := float64(in.Dim()+1) * (float64(rs.N) + float64(max(par.GradEvals, 1)))
		trials := float64(r.Spec.Trials)
		p.Plan = Plan{Jobs: r.Spec.Trials, Workers: workers, Work: trials * perTrial,
			Reads: []PlanReads{{Solver: p.Solver, Rows: trials * float64(max(par.GradEvals, 1)), Drawn: trials * float64(rs.N), Random: r.Solver.RandomRows}}}
	}
	p.W0 = startExcess(in)
	p.Geometry, p.Estimated = in.Geometry(), in.Estimated()
	if p.Refused == "" {
		p.Certified = Certify(in, p.Solver, r.Schedule, r.Oracle, r.Spec.K, par)
		p.RefNotes = certNotes(p.Certified, p.W0)
	}
	return p, nil
}

// specOf is r's resolved Spec with the built problem's n (user data: its
// rows, unless a subset was asked for).
func specOf(r spec.Resolved, in *scenarios.Instance) spec.Spec {
	s := r.Spec.Clone()
	s.N = in.Def().N
	return s
}

// theoryOf is the theory inputs of r's run on in: under r's moment
// assumption, in the shuffle model for a shuffle oracle, with the
// coordinate-wise moments its bounds read for the coordinate-wise shuffle
// oracle, and for the non-smooth classes with the empirical moment
// R̃_{2k,n} (R̃_{2k,n/4}) of the localization theorems' precise statements.
func theoryOf(r spec.Resolved, in *scenarios.Instance) scenarios.TheoryInputs {
	var delta float64
	if r.Privacy.Model == spec.Shuffle {
		delta = r.Privacy.Delta
	}
	t := in.TheoryUnder(r.Assumption, delta)
	if t.Shuffle && r.Oracle == "shuffle-coordinate" {
		t = in.WithCoordOracle(t)
	}
	return in.WithEmpirical(t)
}

// boundsWithNote evaluates the run's theory bounds (scenarios.BoundsOf:
// restated for the shuffle model or the run's assumption) with notes
// saying how they were restated; an error (an input outside a bound's
// range) becomes a note.
func boundsWithNote(t scenarios.TheoryInputs, notes []string) ([]theory.Bound, []string) {
	b, err := scenarios.BoundsOf(t)
	if err != nil {
		return nil, append(notes, "theory bounds not evaluated: "+err.Error())
	}
	switch {
	case t.Shuffle && t.CoordOracle:
		notes = append(notes, "(ε, δ)-shuffle run with the coordinate-wise oracle: its bound is the appendix's (prop: sdp bias var, rem: sdp has same bias var: the zCDP formula under ass:coordinatewise, r̃_k → √d·γ_k^(1/k), at ε̃ = ε/ln(d/δ); Õ only); the zCDP lower bound and prior work's zCDP bounds do not apply to it and are not shown")
	case t.Shuffle:
		notes = append(notes, "(ε, δ)-shuffle run: its bounds are the appendix's shuffle-model bounds (lem: pvec: the zCDP formulas at ε̃ = ε/ln(d/δ)); the zCDP lower bound and prior work's zCDP bounds do not apply to it and are not shown")
	}
	if t.EmpWhat != "" && !t.Shuffle {
		notes = append(notes, fmt.Sprintf("the localization theorem's precise statement (the -emp bound) reads the empirical moment in place of r̃_2k = %s: %s", theory.Sig6.Format(t.R2k), t.EmpWhat))
	}
	if a := t.Assumption; a != "" && a != theory.Tilde {
		notes = append(notes, fmt.Sprintf("the prescription reads %s (%s) in place of r̃_k; the lower bound is the one under %s, the upper bound keeps its ass:tilde form with r̃_k (its precise statement under %s is the same expression in %s)", a.Symbol(), a.Label(), a.Label(), a.Label(), a.Symbol()))
	}
	return b, notes
}

// nanEstimate is the Estimate of nothing: every field NaN (N = 0).
func nanEstimate() Estimate {
	nan := math.NaN()
	return Estimate{Mean: nan, SE: nan, Median: nan, Q1: nan, Q3: nan}
}

// EstimateOf is the mean and standard error of xs, summed in order, with
// their median and quartiles, as the engine's reports state them: for a
// caller that holds the trials finished so far (a stopped search's).
func EstimateOf(xs []float64) Estimate { return estimate(xs) }
