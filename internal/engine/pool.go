package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/ledger"
	"dpso/theory"
)

// unit is one built problem with the solvers to run on its trials: a run,
// a comparison, or one point of a sweep.
type unit struct {
	in      *scenarios.Instance
	run     spec.Resolved
	spec    spec.Spec // run.Spec with the instance's n
	solvers []solvers.Descriptor
	params  []solvers.Params
	refused []string
	point   int
	results [][]TrialResult // [solver][trial]
	// w0 is F(w₀) − F* at the common start w₀ = 0; w0Holdout its loss on
	// user data's held-out rows (NaN when none).
	w0, w0Holdout Estimate
	// noiseOff: run every trial a second time with the noise off, and
	// compute each solver's clipping bias (clipBias, by finish).
	noiseOff bool
	clipBias []scenarios.ClipBias
	// holds are the overrides a clip sweep holds per solver (its step,
	// and T, at the values it prescribes at its own prescribed C), nil
	// elsewhere: each solver's as the sweep of that solver alone holds it.
	holds   []heldSchedule
	profile []scenarios.MomentEntry
}

// heldSchedule is what a clip sweep holds fixed for one solver across its grid:
// the step and, for the one-pass solvers, T, at their values prescribed at
// that solver's prescribed C (0: not held, the prescription at each C).
type heldSchedule struct {
	Step  float64
	Iters int
}

// config is the solvers.Config of solver si in trial: the run's, with the
// solver's holds.
func (u *unit) config(si, trial int, observe func(solvers.Checkpoint)) solvers.Config {
	cfg := u.runConfig(trial, observe)
	if si < len(u.holds) {
		if h := u.holds[si]; h.Step != 0 || h.Iters != 0 {
			if h.Step != 0 {
				cfg.Step = h.Step
			}
			if h.Iters != 0 {
				cfg.Iters = h.Iters
			}
		}
	}
	return cfg
}

// testAfterTrials, when set (by tests), runs when a sweep's trials have
// all finished, before its reports are assembled.
var testAfterTrials func()

// finish computes what the unit's reports share after its trials (the
// moment profile, a few Monte Carlo moments), checking ctx: a sweep's or
// a comparison's assembly ends within 50 ms of a cancellation too.
func (u *unit) finish(ctx context.Context) error {
	p, err := u.in.ProfileContext(ctx)
	if err != nil {
		return err
	}
	u.profile = p
	if u.noiseOff && u.clipBias == nil {
		return u.finishClipBias(ctx)
	}
	return nil
}

// finishClipBias computes each solver's clipping bias at its C (once per
// distinct C): for the oracles that clip ∇f(w, x) at C (clip-gaussian,
// shuffle-clip, dp-sgd's noisy sum), scenarios.Instance.ClipBias; NaN with
// the reason for a coordinate-wise oracle and for a schedule whose phases
// clip at different C.
func (u *unit) finishClipBias(ctx context.Context) error {
	out := make([]scenarios.ClipBias, len(u.solvers))
	at := map[float64]scenarios.ClipBias{}
	for si, d := range u.solvers {
		if u.refused[si] != "" {
			out[si] = scenarios.ClipBias{Excess: math.NaN(), SE: math.NaN(), Method: "the solver refused"}
			continue
		}
		name := u.run.Spec.Oracle
		if name == "" {
			name = d.DefaultOracle
		}
		par := u.params[si]
		c := par.Clip
		switch {
		case name == "coordinate" || name == "shuffle-coordinate":
			out[si] = scenarios.ClipBias{Excess: math.NaN(), SE: math.NaN(), Method: "not computed: the " + name + " oracle clips each coordinate around a median estimate, not ∇f at one C"}
			continue
		case phasesClipApart(par.Phases):
			out[si] = scenarios.ClipBias{Excess: math.NaN(), SE: math.NaN(), Method: "not computed: its phases clip at different C"}
			continue
		}
		b, ok := at[c]
		if !ok {
			var err error
			if b, err = u.in.ClipBias(ctx, c); err != nil {
				return err
			}
			at[c] = b
		}
		out[si] = b
	}
	u.clipBias = out
	return nil
}

// phasesClipApart reports whether a multi-phase schedule clips at more
// than one C.
func phasesClipApart(ph []solvers.Phase) bool {
	for _, p := range ph {
		if p.Clip != ph[0].Clip {
			return true
		}
	}
	return false
}

func newUnit(ctx context.Context, r spec.Resolved, names []string, point int, holds []heldSchedule) (*unit, error) {
	in, err := scenarios.Build(ctx, r.Problem)
	if err != nil {
		return nil, err
	}
	u := &unit{in: in, run: r, spec: specOf(r, in), point: point, w0: startExcess(in), holds: holds}
	u.w0Holdout = holdoutAt(in, make([]float64, in.Dim()))
	// With private constants the configuration is checked on placeholder
	// constants; each trial prescribes from its own estimates.
	check := in
	if r.PrivateConstants() {
		check = in.WithEstimates(placeholderEstimates(in, r.Problem.Needs.R2k))
	}
	if err := spec.CheckSamplingRate(r.Spec, u.spec.N); err != nil {
		return nil, err
	}
	// The names are checked first, and the prescriptions (dp-sgd's
	// calibration, klz-gd's search, each solver's constants) made at once,
	// a goroutine each: they depend on nothing but their solver. Their
	// answers are then taken in the list's order, so that a refusal or an
	// error is the one the first failing name gives.
	ds := make([]solvers.Descriptor, 0, len(names))
	var nameErr error
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			nameErr = &spec.SpecError{Field: "solver", Msg: fmt.Sprintf("solver %s is listed twice", name)}
			break
		}
		seen[name] = true
		d, ok := solvers.DescriptorOf(name)
		if !ok {
			nameErr = &spec.SpecError{Field: "solver", Msg: fmt.Sprintf("unknown solver %s (registered: %s)", theory.Quote(name), strings.Join(solvers.Names(), ", "))}
			break
		}
		if !d.Baseline() && d.Class != r.Spec.Class {
			nameErr = &spec.SpecError{Field: "solver", Msg: fmt.Sprintf("%s is the paper's algorithm for class %s, not %s", name, d.Class, r.Spec.Class)}
			break
		}
		ds = append(ds, r.Configured(d))
	}
	pars := make([]solvers.Params, len(ds))
	errs := make([]error, len(ds))
	var wg sync.WaitGroup
	for i, d := range ds {
		wg.Go(func() {
			cfg := u.config(i, 0, nil)
			cfg.Context = ctx // dp-sgd's calibration answers Ctrl-C
			pars[i], errs[i] = d.Solver.Prescribe(check, u.spec.N, cfg)
		})
	}
	wg.Wait()
	for i, d := range ds {
		name := d.Name()
		par, err := pars[i], errs[i]
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err == nil && d.Name() != r.Solver.Name() {
			// r's own solver passed this check in Resolve; a listed one
			// may materialize where it does not.
			err = r.CheckSize(d)
		}
		var re *solvers.RefusedError
		var ce *solvers.ConfigError
		var se *spec.SpecError
		switch {
		case errors.As(err, &re):
			u.refused = append(u.refused, re.Reason)
		case len(names) > 1 && errors.As(err, &ce):
			// In a comparison, a solver that cannot run with this
			// configuration is reported; the others run.
			u.refused = append(u.refused, ce.Error())
		case len(names) > 1 && errors.As(err, &se) && se.Field == "n":
			u.refused = append(u.refused, se.Msg)
		case err != nil:
			return nil, err
		default:
			if err := checkParams(r, name, par); err != nil {
				return nil, err
			}
			u.refused = append(u.refused, "")
		}
		u.solvers = append(u.solvers, d)
		u.params = append(u.params, par)
	}
	if nameErr != nil {
		return nil, nameErr
	}
	u.results = make([][]TrialResult, len(u.solvers))
	for i := range u.results {
		u.results[i] = make([]TrialResult, r.Spec.Trials)
	}
	return u, nil
}

// runSolver runs solver si of a job's unit on the trial's draw, which st
// holds for every solver of the trial (see trialState).
func (p *pool) runSolver(ctx context.Context, st *trialState, si, inner int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	u, trial := st.u, st.trial
	ref, prob, est := st.ref, st.prob, st.est
	progress := p.set.progress()
	d := u.solvers[si]
	t0 := time.Now()
	var trace []TracePoint
	name := d.Name()
	observe := func(cp solvers.Checkpoint) {
		ex, se := u.in.Excess(cp.W)
		trace = append(trace, TracePoint{Iter: cp.Iter, GradEvals: cp.GradEvals, Excess: ex, SE: se})
		if progress != nil {
			progress.Put(Progress{Solver: name, Trial: trial, Point: u.point, Iter: cp.Iter, Iters: cp.Iters, Phase: cp.Phase,
				GradEvals: cp.GradEvals, Excess: ex, ExcessSE: se, Spent: cp.Spent, Batch: cp.Batch, NonFinite: cp.NonFinite,
				Planned: u.params[si].GradEvals, Total: p.total, Elapsed: time.Since(p.start)})
		}
		p.set.wait(ctx) // a paused run blocks here (see Gate)
	}
	cfg := u.config(si, trial, observe)
	cfg.Workers = inner
	if progress != nil {
		cfg.Pulse = p.pulses(progress, u, si, trial)
	} else {
		cfg.NoBatchDetail = true // the batch statistics go to Progress only
	}
	sdata := st.data // the draw, or its copy made once for the trial (pool.reference, pool.sharedDraw)
	res, err := d.Solver.Run(ctx, prob, sdata, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s, trial %d: %w", name, trial, err)
	}
	if len(res.W) != u.in.Dim() {
		return fmt.Errorf("%s, trial %d: output has dimension %d, want %d", name, trial, len(res.W), u.in.Dim())
	}
	if !within(res.Spent, res.Budget) {
		return fmt.Errorf("%s, trial %d: privacy ledger: spent %+v exceeds the budget %+v", name, trial, res.Spent, res.Budget)
	}
	noiseOff := math.NaN()
	if u.noiseOff {
		// The same schedule on the same data with the noise switched
		// off: what clipping, sampling and optimization leave.
		cfg := u.config(si, trial, nil)
		cfg.NoNoise = true
		bo, err := d.Solver.Run(ctx, prob, sdata, cfg)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("%s without noise, trial %d: %w", name, trial, err)
		}
		noiseOff, _ = u.in.Excess(bo.W)
	}
	ex, se := u.in.Excess(res.W)
	if n := len(trace); n == 0 || trace[n-1].GradEvals != res.GradEvals {
		trace = append(trace, TracePoint{Iter: res.Params.Iters, GradEvals: res.GradEvals, Excess: ex, SE: se})
	}
	var notes []string
	notes = append(notes, res.Notes...)
	if out, radius := math.Sqrt(sqnorm(res.W)), u.in.Diam()/2; out > radius*(1+1e-9) {
		notes = append(notes, fmt.Sprintf("the output lies outside W (‖w‖ = %s > R = %s); its excess risk may be negative", theory.Sig6.Format(out), theory.Sig6.Format(radius)))
	}
	ho := holdoutAt(u.in, res.W)
	u.results[si][trial] = TrialResult{
		Trial: trial, Excess: ex, ExcessSE: se, Holdout: ho.Mean, HoldoutSE: ho.SE, Constants: est,
		W: res.W, Spent: withEstimateCost(res.Spent, est, res.Events), Budget: withEstimateCost(res.Budget, est, res.Events), Events: res.Events, Params: res.Params,
		GradEvals: res.GradEvals, NonFinite: res.NonFinite, Clipped: res.Clipped, Fed: res.Fed, NoiseOff: noiseOff,
		Reference: ref.excess, ReferenceWidth: ref.width, ReferenceNote: ref.note,
		BudgetBound: res.BudgetBound, Notes: notes, Trace: trace,
		Elapsed: time.Since(t0),
	}
	nd := int(p.done.Add(1))
	if progress != nil {
		progress.Put(Progress{Solver: name, Trial: trial, Point: u.point, Iter: res.Params.Iters, Iters: res.Params.Iters,
			GradEvals: res.GradEvals, Excess: ex, ExcessSE: se, Spent: res.Spent, NonFinite: res.NonFinite, Done: true,
			Planned: u.params[si].GradEvals, TrialsDone: nd, Total: p.total, Elapsed: time.Since(p.start)})
	}
	return nil
}

// PulseEvery is the least time between two pulses (Progress.Pulse) of one
// (solver, trial) run that reach the mailbox.
const PulseEvery = 100 * time.Millisecond

// pulses is the solvers.Config.Pulse of solver si's run on trial: it puts
// a Pulse Progress in the mailbox, at most one per PulseEvery (a pulse
// that comes sooner is dropped; the solver's goroutines may pulse
// concurrently, and one of them wins).
func (p *pool) pulses(mb *Mailbox[Progress], u *unit, si, trial int) func(int64) {
	var last atomic.Int64 // time.Since(p.start) of the latest pulse put, ns
	name, planned := u.solvers[si].Name(), u.params[si].GradEvals
	return func(evals int64) {
		now := time.Since(p.start)
		prev := last.Load()
		if now-time.Duration(prev) < PulseEvery || !last.CompareAndSwap(prev, int64(now)) {
			return
		}
		mb.Put(Progress{Solver: name, Trial: trial, Point: u.point, GradEvals: evals, Planned: planned, Pulse: true,
			Total: p.total, Elapsed: now})
	}
}

func sqnorm(w []float64) float64 {
	var s float64
	for _, x := range w {
		s += x * x
	}
	return s
}

// within is the ledger's check: s ≤ b component-wise up to 10⁻⁹ relative.
func within(s, b ledger.Cost) bool {
	ok := func(x, lim float64) bool { return x <= lim || x <= lim*(1+1e-9) }
	return ok(s.Rho, b.Rho) && ok(s.Eps, b.Eps) && ok(s.Delta, b.Delta)
}

// report assembles solver si's report.
func (u *unit) report(si int, elapsed time.Duration) *Report {
	d := u.solvers[si]
	oracleName := u.run.Spec.Oracle
	if oracleName == "" {
		oracleName = d.DefaultOracle
	}
	r := &Report{
		Spec: u.spec, Solver: d.Name(), Describe: d.Solver.Describe(), Oracle: d.OracleName(oracleName), Class: u.spec.Class, Privacy: u.run.PrivacyOf(d),
		Theory: theoryOf(u.run, u.in), Profile: u.profile, Rand: u.run.Rand.Label(), Notes: append(slices.Clone(u.run.DefaultNotes), u.in.Notes()...),
		Elapsed: elapsed, UserRows: u.run.UserRows(), NotPrivate: u.run.NotPrivate(),
	}
	if note := givenNote(u.in, d, u.spec.K); note != "" && u.refused[si] == "" {
		r.Notes = append(r.Notes, note)
	}
	r.Bounds, r.Notes = boundsWithNote(r.Theory, r.Notes)
	r.W0, r.W0Holdout, r.HoldoutRows = u.w0, u.w0Holdout, u.in.HoldoutRows()
	r.Holdout = nanEstimate()
	r.Geometry, r.Estimated = u.in.Geometry(), u.in.Estimated()
	r.Clipped = math.NaN()
	r.NoiseOff = nanEstimate()
	r.ClipBias = scenarios.ClipBias{Excess: math.NaN(), SE: math.NaN()}
	r.Reference, r.ReferenceWidth = nanEstimate(), math.NaN()
	if u.refused[si] != "" {
		r.Refused = u.refused[si]
		r.Excess = nanEstimate()
		return r
	}
	r.Risk = u.in.RiskInfo()
	r.Trials = u.results[si]
	r.Params = u.params[si]
	r.Holdout = holdoutEstimate(r.Trials)
	certIn := u.in
	if e := r.Trials[0].Constants; e != nil {
		// Each trial prescribed from its own private estimates: the
		// parameters shown are trial 0's.
		r.Params = r.Trials[0].Params
		r.ConstantsRho = e.Rho
		estIn := u.in.WithEstimates(*e)
		if u.run.UserRows() {
			// User data declare no constants: the bounds and the
			// certificate read trial 0's estimates (a scenario's read its
			// true, declared constants).
			certIn = estIn
			r.Theory = theoryOf(u.run, certIn)
			r.Bounds, r.Notes = boundsWithNote(r.Theory, r.Notes)
			r.Notes = append(r.Notes, "the theory bounds and the certificate read trial 0's private estimates of the constants: they hold if the true constants are at most the estimates")
		}
		r.Notes = append(r.Notes, estIn.Notes()[len(u.in.Notes()):]...)
	}
	xs := make([]float64, len(r.Trials))
	var evalSE float64
	for i, t := range r.Trials {
		xs[i] = t.Excess
		evalSE += t.ExcessSE
	}
	r.Excess = estimate(xs)
	r.EvalSE = evalSE / float64(len(r.Trials))
	r.Clipped = clippedFraction(r.Trials)
	if u.noiseOff {
		bo := make([]float64, len(r.Trials))
		for i, t := range r.Trials {
			bo[i] = t.NoiseOff
		}
		r.NoiseOff = estimate(bo)
		if si < len(u.clipBias) {
			r.ClipBias = u.clipBias[si]
		}
	}
	r.BudgetCapped = r.Params.BudgetBound
	for _, t := range r.Trials {
		r.BudgetCapped = r.BudgetCapped || t.BudgetBound
	}
	r.Reference, r.ReferenceWidth, r.ReferenceNote = referenceOf(r.Trials)
	r.Certified = Certify(certIn, d.Name(), u.run.Schedule, oracleName, u.spec.K, r.Params)
	var note string
	r.Trace, note = meanTrace(r.Trials)
	if note != "" {
		r.Notes = append(r.Notes, note)
	}
	// The solver's own notes (appended below) already say when an override
	// or a binding work budget puts the theorem's prescription out of force,
	// with the numbers.
	if r.Risk.Kind == scenarios.Population && r.Risk.EvalSize > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("F is estimated on a fixed evaluation sample of %d draws: excess risks carry its Monte Carlo error (≈ %s here), common to all trials", r.Risk.EvalSize, theory.Sig4.Format(r.EvalSE)))
	}
	r.Notes = append(r.Notes, r.Params.Notes...)
	r.RefNotes = runNotes(r)
	return r
}

func (u *unit) comparison(elapsed time.Duration) *Comparison {
	c := &Comparison{}
	for si := range u.solvers {
		c.Reports = append(c.Reports, u.report(si, elapsed))
	}
	for si := range u.solvers {
		if u.refused[si] != "" || u.refused[0] != "" {
			c.Diff = append(c.Diff, nanEstimate())
			continue
		}
		xs := make([]float64, u.run.Spec.Trials)
		for t := range xs {
			xs[t] = u.results[si][t].Excess - u.results[0][t].Excess
		}
		c.Diff = append(c.Diff, estimate(xs))
	}
	return c
}

// meanTrace averages the trials' traces checkpoint by checkpoint. The
// schedule is deterministic, so every trial has the same checkpoints. A
// solver with random batch sizes (dp-sgd's Poisson batches) checkpoints at
// the same iterations in every trial but after different gradient counts:
// its trace is averaged by iteration, at the mean gradient count, and a
// note says so. Otherwise (a schedule that depends on the data) only the
// gradient counts present in every trial are kept, and a note says so.
func meanTrace(trials []TrialResult) ([]TracePoint, string) {
	if len(trials) == 0 {
		return nil, ""
	}
	if out, ok := meanTraceByIter(trials); ok {
		return out, "the trials' gradient counts differ (random batch sizes): the mean trace averages each checkpoint's iteration over the trials, at the mean gradient count"
	}
	aligned := true
	ref := trials[0].Trace
	for _, t := range trials[1:] {
		if len(t.Trace) != len(ref) {
			aligned = false
			break
		}
		for i := range ref {
			if t.Trace[i].GradEvals != ref[i].GradEvals {
				aligned = false
				break
			}
		}
	}
	var keep []int64
	if aligned {
		for _, p := range ref {
			keep = append(keep, p.GradEvals)
		}
	} else {
		count := map[int64]int{}
		for _, t := range trials {
			seen := map[int64]bool{}
			for _, p := range t.Trace {
				if !seen[p.GradEvals] {
					seen[p.GradEvals] = true
					count[p.GradEvals]++
				}
			}
		}
		for _, p := range ref {
			if count[p.GradEvals] == len(trials) {
				keep = append(keep, p.GradEvals)
			}
		}
	}
	out := make([]TracePoint, 0, len(keep))
	for i, g := range keep {
		xs := make([]float64, 0, len(trials))
		iter := 0
		for _, t := range trials {
			if aligned {
				xs = append(xs, t.Trace[i].Excess)
				iter = t.Trace[i].Iter
				continue
			}
			for _, p := range t.Trace {
				if p.GradEvals == g {
					xs = append(xs, p.Excess)
					iter = p.Iter
					break
				}
			}
		}
		e := estimate(xs)
		out = append(out, TracePoint{Iter: iter, GradEvals: g, Excess: e.Mean, SE: e.SE})
	}
	if !aligned {
		return out, "the trials' checkpoints differ; the mean trace keeps the checkpoints common to all trials"
	}
	return out, ""
}

// meanTraceByIter is the mean trace of trials whose checkpoints fall at the
// same iterations but not at the same gradient counts; ok is false when
// the gradient counts agree (the ordinary case) or the iterations do not.
func meanTraceByIter(trials []TrialResult) ([]TracePoint, bool) {
	ref := trials[0].Trace
	sameEvals := true
	for _, t := range trials[1:] {
		if len(t.Trace) != len(ref) {
			return nil, false
		}
		for i := range ref {
			if t.Trace[i].Iter != ref[i].Iter {
				return nil, false
			}
			sameEvals = sameEvals && t.Trace[i].GradEvals == ref[i].GradEvals
		}
	}
	if sameEvals {
		return nil, false
	}
	out := make([]TracePoint, len(ref))
	xs := make([]float64, len(trials))
	for i := range ref {
		var evals float64
		for ti, t := range trials {
			xs[ti] = t.Trace[i].Excess
			evals += float64(t.Trace[i].GradEvals)
		}
		e := estimate(xs)
		out[i] = TracePoint{Iter: ref[i].Iter, GradEvals: int64(math.Round(evals / float64(len(trials)))), Excess: e.Mean, SE: e.SE}
	}
	return out, true
}
