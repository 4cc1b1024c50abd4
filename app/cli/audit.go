package cli

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dpso/internal/audit"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// auditOpts are the audit command's flags: the field table's (bound to a
// spec.Spec, so their parsing, help and range are `dpso run`'s) and the
// audit's own.
type auditOpts struct {
	fs   *pflag.FlagSet
	spec spec.Spec

	trials, size, groups, canaries int
	negControl                     float64
	oneRun, asJSON                 bool
	canary                         string
}

// The field-table flags of each kind of audit. Oracle audits take
// auditOracleFields; whole-run audits (--solver) also the problem's and
// the prescription's; one-run audits the oracle's claim only.
var (
	auditOracleFields = []string{"oracle", "eps", "delta", "d", "seed", "rand", "workers"}
	auditRunFields    = []string{"scenario", "class", "k", "n", "diam", "tail", "lambda1", "lambda2", "params", "solver", "iters", "clip", "step", "work-budget"}
	// auditScenarioFields need --scenario: without it a whole-run audit
	// runs on n zero rows of mean estimation, which has none of them.
	auditScenarioFields = []string{"class", "diam", "tail", "lambda1", "lambda2"}
)

func newAuditCmd(e *env) *cobra.Command {
	o := &auditOpts{}
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Check a privacy claim black-box: run a mechanism on neighbouring inputs and bound its privacy loss from below",
		Long: `audit tests dpso's own privacy claims. By default it audits one mean oracle
(--oracle, default clip-gaussian) at --eps: it builds two neighbouring batches
whose clipped statistic differs by the full sensitivity the noise is calibrated
to, runs the oracle --trials times on each (plus a pilot that chooses the
thresholds), projects the outputs on the direction of the difference, and
reports μ̂ (point estimate ± s.e.), a one-sided 95% lower confidence bound on
the Gaussian-DP μ (and, for the shuffle oracles, on ε at the claimed δ), and a
95% upper bound valid for Gaussian outputs. A zCDP claim ε (ρ = ε²/2) is
μ = ε Gaussian DP: it is violated when the lower bound exceeds ε.

  --solver X [run flags]   audits a complete run of solver X instead: one row of
                           the data is a canary whose gradient is ±C·e₁; the
                           run is black-box on its output w. Without --scenario
                           the data are n zero rows of mean estimation.
  --one-run --canaries m   the one-run audit of Steinke, Nasr & Jagielski (2023):
                           m canaries with random signs in ONE oracle call.
  --negative-control F     runs the mechanism at budget F·ε (Gaussian noise ÷ F)
                           while the claim stays ε: the audit must then find a
                           violation — the test that the auditor can fail.

` + audit.Explanation + `

Defaults: oracle clip-gaussian, ε = 1, d = 1, s = ` + strconv.Itoa(audit.DefaultClipS) + ` vectors per call (the
coordinate-wise oracles: one per group), ` + strconv.Itoa(audit.DefaultTrials) + ` runs per input (μ̂ to about
±0.0035 at ε = 1), seed 0, seeded randomness (reproducible bit for bit for any
--workers). Whole runs: solver ` + audit.DefaultRunSolver + `, n = ` + strconv.Itoa(audit.DefaultRunN) + ` zero rows, ` + strconv.Itoa(audit.DefaultRunTrials) + ` runs per input.
One run: m = ` + strconv.Itoa(audit.DefaultCanaries) + ` canaries, δ = ` + theory.Sig6.Format(spec.DefaultDelta) + `.

Output: a table; --json the document of the JSON fields below, with null where
a value does not apply (delta of a zCDP claim, eps_lower of a zCDP oracle audit,
mu_hat of a one-run audit, seed with --rand secure).

Exit status: 0 no violation found; 1 a violation found (or another failure);
2 invalid input (one line naming the flag); 130 on Ctrl-C.`,
		Example: `  dpso audit
  dpso audit --oracle clip-gaussian --eps 1 --negative-control 1.5
  dpso audit --oracle shuffle-clip --eps 1 --json
  dpso audit --solver acsa --eps 1 --n 1000
  dpso audit --one-run --canaries 1000 --eps 4`,
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	o.fs = fs
	addAuditFields(fs, &o.spec, append(slices.Clone(auditOracleFields), auditRunFields...))
	newIntFlag(fs, &o.trials, "trials", 0, audit.MinTrials, audit.MaxTrials, fmt.Sprintf("runs per input (default %d for an oracle, %d for whole runs)", audit.DefaultTrials, audit.DefaultRunTrials))
	fs.Lookup("trials").DefValue = ""
	newFloatFlag(fs, &o.negControl, "negative-control", 1, theory.Interval{Lo: 1, Hi: audit.MaxNegativeControl}, "F: run the mechanism at budget F·ε (noise ÷ F) while the claim stays ε; the audit must then find a violation (1: off);")
	newIntFlag(fs, &o.size, "s", 0, 1, audit.MaxS, "vectors per oracle call (default 16; coordinate-wise oracles: m)")
	fs.Lookup("s").DefValue = ""
	newIntFlag(fs, &o.groups, "groups", 0, 1, audit.MaxS, "groups m of a coordinate-wise oracle (default the oracle's own, as solvers use it)")
	fs.Lookup("groups").DefValue = ""
	fs.StringVar(&o.canary, "canary", "", "whole runs: where the canary row sits, first or last (default where it moves the output most: last for one-pass solvers, first for localized ones)")
	fs.BoolVar(&o.oneRun, "one-run", false, "the one-run audit (Steinke, Nasr & Jagielski 2023) of an ℓ2-clipping oracle")
	newIntFlag(fs, &o.canaries, "canaries", audit.DefaultCanaries, audit.MinCanaries, audit.MaxD, "canaries m of the one-run audit")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON (its fields below)")
	setFlagGroup(fs, "Audit", "trials", "negative-control", "s", "groups", "canary", "one-run", "canaries")
	setFlagGroup(fs, headingOutput, "json")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return o.run(e) }
	return cmd
}

// addAuditFields binds the named fields of spec's field table to s, as
// `dpso run` does (addSpecFlags): same parsing, help and range text.
func addAuditFields(fs *pflag.FlagSet, s *spec.Spec, names []string) {
	for _, name := range names {
		f, ok := spec.FieldByName(name)
		if !ok {
			panic("audit: no field " + name) // a programming error, caught by every test
		}
		addFieldFlag(fs, f, s)
	}
}

// auditMode is what an audit runs.
type auditMode int

const (
	modeOracle auditMode = iota
	modeRun
	modeOneRun
)

func (m auditMode) flagText() string {
	switch m {
	case modeRun:
		return "whole-run audits (--solver)"
	case modeOneRun:
		return "the one-run audit (--one-run)"
	}
	return "oracle audits (without --solver or --one-run)"
}

// checkFlags decides the mode and refuses every flag given that does not
// apply to it, naming it; the field-table flags given are range-checked
// here, once, as `dpso run` checks them (spec.Field.Check).
func (o *auditOpts) checkFlags() (auditMode, error) {
	ch := o.fs.Changed
	mode := modeOracle
	switch {
	case o.oneRun && ch("solver"):
		return 0, usageErrorf("--one-run audits one oracle call; --solver audits whole runs: give one of them")
	case o.oneRun:
		mode = modeOneRun
	case ch("solver"):
		mode = modeRun
	}
	pnames, _ := paramNames()
	allowed := map[string]bool{"oracle": true, "eps": true, "delta": true, "seed": true, "rand": true, "negative-control": true, "json": true, "one-run": true}
	switch mode {
	case modeOracle:
		for _, n := range []string{"d", "workers", "trials", "s", "groups"} {
			allowed[n] = true
		}
	case modeRun:
		for _, n := range append(append([]string{"d", "workers", "trials", "canary"}, auditRunFields...), pnames...) {
			allowed[n] = true
		}
	case modeOneRun:
		allowed["canaries"] = true
		// --workers 0 is the default every command accepts (all cores);
		// the one-run audit's single call has no other use for it.
		allowed["workers"] = o.spec.Workers == 0
	}
	var err error
	o.fs.Visit(func(f *pflag.Flag) {
		if err != nil || allowed[f.Name] {
			return
		}
		where := ""
		switch {
		case f.Name == "canaries":
			where = "the one-run audit (--one-run)"
		case f.Name == "s" || f.Name == "groups":
			where = modeOracle.flagText()
		case f.Name == "d" || f.Name == "workers" || f.Name == "trials":
			where = "oracle and whole-run audits (the one-run audit has d = s = --canaries and one run)"
		default:
			where = modeRun.flagText()
		}
		err = usageErrorf("--%s applies to %s, not to %s", f.Name, where, mode.flagText())
	})
	if err != nil {
		return mode, err
	}
	if ch("canary") && o.canary == "" {
		// An empty value is refused, not read as the default.
		return mode, usageErrorf("--canary: an empty value is not allowed (leave the flag out for its default)")
	}
	if mode == modeRun && !ch("scenario") {
		for _, n := range append(slices.Clone(auditScenarioFields), pnames...) {
			if ch(n) {
				return mode, usageErrorf("--%s needs --scenario: without it the whole-run audit runs on n zero rows of mean estimation, which have no %s", n, n)
			}
		}
	}
	// The field table's fixed ranges, for the fields given.
	for _, name := range append(slices.Clone(auditOracleFields), auditRunFields...) {
		f, ok := spec.FieldByName(name)
		if !ok || f.Range == nil || !ch(name) {
			continue
		}
		x, perr := theory.ParseNumber(f.Text(&o.spec))
		if perr != nil { // an explicit 0 of a zero-default field: Set refused those outside the range
			continue
		}
		if err := f.Check(x); err != nil {
			return mode, userError(err, nil)
		}
	}
	if ch("rand") {
		if _, err := solvers.ParseRandMode(o.spec.Rand); err != nil {
			return mode, usageErrorf("--rand: unknown randomness mode %s (want seeded or secure)", theory.Quote(o.spec.Rand))
		}
	}
	if ch("seed") && o.randMode() == solvers.Secure {
		return mode, usageErrorf("--seed: secure randomness reads no seed, so the audit would not be reproducible from it; leave --seed out, or give --rand seeded")
	}
	return mode, nil
}

// randMode is the --rand value (seeded when not given).
// citedSpec is the audit's randomness and data, for its citation.
func (o *auditOpts) citedSpec() spec.Spec {
	return spec.Spec{Rand: o.randMode().String(), Seed: o.spec.Seed, Data: o.spec.Data}
}

func (o *auditOpts) randMode() solvers.RandMode {
	m, err := solvers.ParseRandMode(o.spec.Rand)
	if err != nil || o.spec.Rand == "" {
		return solvers.Seeded
	}
	return m
}

// eps is --eps, default 1 (the run's default).
func (o *auditOpts) eps() float64 {
	if o.spec.Eps == 0 {
		return 1
	}
	return o.spec.Eps
}

// delta is --delta when given, else 0 (the audit's default for the claim).
func (o *auditOpts) delta() float64 {
	if o.fs.Changed("delta") {
		return o.spec.Delta
	}
	return 0
}

// errViolation ends an audit that found a violation with status 1.
func errViolation(summary string) error {
	return &exitError{code: 1, msg: "audit: VIOLATION found: " + summary}
}

func (o *auditOpts) run(e *env) error {
	mode, err := o.checkFlags()
	if err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	switch mode {
	case modeOneRun:
		return o.runOneRun(e)
	case modeRun:
		return o.runWhole(ctx, e)
	}
	prog := &audit.Progress{}
	stopProgress := e.countProgress("dpso audit", "runs", "fewer --trials, or a smaller --s or --d, shortens it", prog.Runs)
	res, err := audit.Oracle(ctx, audit.Config{
		Oracle: o.spec.Oracle, Eps: o.eps(), Delta: o.delta(), D: o.spec.D, S: o.size, Groups: o.groups,
		Trials: o.trials, NegativeControl: o.negControl, Seed: o.spec.Seed, Rand: o.randMode(), Workers: o.spec.Workers,
		Progress: prog,
	})
	stopProgress()
	return o.finish(e, ctx, res, err)
}

// finish writes an oracle or whole-run audit and maps its outcome to the
// exit status.
func (o *auditOpts) finish(e *env, ctx context.Context, res *audit.Result, err error) error {
	if ctx.Err() != nil {
		return errInterrupted(ctx, "dpso audit")
	}
	if err != nil {
		return userError(err, nil)
	}
	if o.asJSON {
		err = report.WriteCitedJSON(e.stdout, report.Audit(res), e.citation(o.citedSpec(), true))
	} else {
		err = report.WriteAuditTable(e.stdout, res)
	}
	if err != nil {
		return err
	}
	if res.Violation {
		if res.Kind == oracle.Shuffle {
			return errViolation(fmt.Sprintf("ε ≥ %s at δ = %s with 95%% confidence, claimed ε = %s", theory.Sig4.Format(res.EpsLower), theory.Sig6.Format(res.Delta), theory.Sig6.Format(res.Eps)))
		}
		return errViolation(fmt.Sprintf("μ ≥ %s with 95%% confidence, claimed μ = ε = %s", theory.Sig4.Format(res.MuLower), theory.Sig6.Format(res.Eps)))
	}
	return nil
}

// runWhole audits a complete run: on a scenario's trial-0 dataset when
// --scenario is given (the Spec resolved once, as `dpso run` resolves
// it), else on n zero rows.
func (o *auditOpts) runWhole(ctx context.Context, e *env) error {
	rc := audit.RunConfig{
		Solver: o.spec.Solver, Oracle: o.spec.Oracle, Eps: o.eps(), Delta: o.delta(), K: o.spec.K,
		D: o.spec.D, N: o.spec.N, Iters: o.spec.Iters, Clip: o.spec.Clip, Step: o.spec.Step, WorkBudget: o.spec.WorkBudget,
		Trials: o.trials, Canary: o.canary, NegativeControl: o.negControl, Seed: o.spec.Seed, Rand: o.randMode(), Workers: o.spec.Workers,
	}
	if o.fs.Changed("scenario") {
		r, err := o.spec.Resolve()
		if err != nil {
			return userError(err, nil)
		}
		in, err := scenarios.Build(ctx, r.Problem)
		if ctx.Err() != nil {
			return errInterrupted(ctx, "dpso audit")
		}
		if err != nil {
			return userError(err, nil)
		}
		rc.Solver, rc.Oracle, rc.K = r.Solver.Name(), r.Oracle, r.Spec.K
		if r.Privacy.Model == spec.Shuffle { // a zCDP run's δ is a conversion's: no part of its claim
			rc.Delta = r.Privacy.Delta
		}
		rc.D, rc.N = 0, 0
		rc.Problem, rc.Data = in, in.Dataset(r.Rand, r.Spec.Seed, 0)
	}
	rc.Progress = &audit.Progress{}
	stopProgress := e.countProgress("dpso audit --solver", "runs", "fewer --trials, or a smaller --n or --d, shortens it", rc.Progress.Runs)
	res, err := audit.Run(ctx, rc)
	stopProgress()
	return o.finish(e, ctx, res, err)
}

// runOneRun is the one-run audit.
func (o *auditOpts) runOneRun(e *env) error {
	res, err := audit.OneRun(audit.OneRunConfig{
		Oracle: o.spec.Oracle, Eps: o.eps(), Delta: o.delta(), M: o.canaries,
		NegativeControl: o.negControl, Seed: o.spec.Seed, Rand: o.randMode(),
	})
	if err != nil {
		return userError(err, nil)
	}
	if o.asJSON {
		err = report.WriteCitedJSON(e.stdout, report.AuditOneRun(res), e.citation(o.citedSpec(), true))
	} else {
		err = report.WriteOneRunTable(e.stdout, res)
	}
	if err != nil {
		return err
	}
	if res.Violation {
		return errViolation(fmt.Sprintf("one run refutes ε' = %s at δ = %s with 95%% confidence; the claim allows %s", theory.Sig4.Format(res.EpsLower), theory.Sig6.Format(res.Delta), theory.Sig4.Format(res.EpsClaim)))
	}
	return nil
}
