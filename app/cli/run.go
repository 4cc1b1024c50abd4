package cli

import (
	"strings"

	"dpso/internal/engine"
	"dpso/internal/plot"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/theory"

	"github.com/spf13/cobra"
)

// runOpts are the run command's flags.
type runOpts struct {
	sf                           *specFlags
	asJSON, asCSV, emitW, dryRun bool
	plotPath                     string
	force                        bool
	shape                        plotShape
	// solverList is --solvers: a comparison on the same draws.
	solverList []string
	rename     map[string]string
}

func newRunCmd(e *env) *cobra.Command {
	cmd, _ := newRunCommand(e)
	return cmd
}

// newRunCommand builds `dpso run` and returns its flag state (for tests
// and the fuzz test, which validate without running).
func newRunCommand(e *env) (*cobra.Command, *runOpts) {
	o := &runOpts{}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run a solver on a scenario (or a CSV file): excess risk, parameters, privacy and the paper's bounds",
		Long: `run runs a solver (--solvers: several, on the same draws) --trials times on a scenario or your
CSV file (--data) and reports its excess risk F(w) − F* ± s.e., parameters, privacy, certificate, bounds.`,
		Example: `  dpso run --scenario linreg-t --solvers acsa,nonprivate-schedule,lipschitz-dpsgd,klz-gd --plot compare.png
  dpso run --data examples/linreg-t-d3.csv --rk 12 --beta 1.5 --csv`,
	}
	fs := cmd.Flags()
	o.sf = addSpecFlags(fs, spec.Problem|spec.Data|spec.Constant|spec.Solver|spec.Runner)
	fs.BoolVar(&o.emitW, "emit-w", false, "include each trial's output w (JSON: trials[].w; table: one line per trial)")
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the prescription (parameters, privacy, bounds) without running")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON (its fields below)")
	fs.BoolVar(&o.asCSV, "csv", false, "print the trials' traces as CSV: trial,grad_evals,excess_risk")
	fs.StringVar(&o.plotPath, "plot", "", "write a figure of the traces and bounds to this new .png or .svg file (an existing file is refused unless --force)")
	fs.BoolVar(&o.force, "force", false, "let --plot replace an existing file (atomically; never through a symbolic link)")
	addPlotShape(fs, &o.shape, true, true)
	fs.StringSliceVar(&o.solverList, "solvers", nil, "compare these solvers (comma-separated) on the same draws: one table, one JSON document, one figure (instead of --solver)")
	setFlagGroup(fs, headingSolver, "solvers")
	setFlagGroup(fs, headingOutput, "emit-w", "dry-run", "json", "csv", "plot", "force", "plot-size", "plot-hide")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return o.run(e, cmd) }
	return cmd, o
}

// validated returns the run the flags describe, resolved, and the δ of
// the (ε', δ) conversion; errors are usage errors naming the flag.
func (o *runOpts) validated(cmd *cobra.Command) (spec.Resolved, float64, error) {
	if cmd.Flags().Changed("solvers") && len(o.solverList) == 0 {
		return spec.Resolved{}, 0, usageErrorf("--solvers: an empty list; give comma-separated solver names (or leave it out for one --solver)")
	}
	if len(o.solverList) > 0 {
		if cmd.Flags().Changed("solver") {
			return spec.Resolved{}, 0, usageErrorf("--solver and --solvers exclude each other: give one solver, or the list to compare")
		}
		if o.dryRun {
			return spec.Resolved{}, 0, usageErrorf("--dry-run prescribes one solver: use --solver, not --solvers")
		}
		for i, n := range o.solverList {
			o.solverList[i] = strings.TrimSpace(n)
			if o.solverList[i] == "" {
				return spec.Resolved{}, 0, usageErrorf("--solvers: an empty name in %s (want e.g. acsa,nonprivate-schedule,klz-gd)", theory.Quote(strings.Join(o.solverList, ",")))
			}
		}
		// The first listed solver is the Spec's: it is resolved with the
		// class; the others are checked by the comparison.
		o.sf.spec.Solver = o.solverList[0]
		o.rename = map[string]string{"solver": "solvers"}
	}
	if o.asJSON && o.asCSV {
		return spec.Resolved{}, 0, usageErrorf("--json and --csv exclude each other: choose one output format")
	}
	if o.sf.fs.Changed("plot") && o.plotPath == "" {
		return spec.Resolved{}, 0, usageErrorf("--plot: an empty file name; give a .png or .svg file name")
	}
	if o.force && o.plotPath == "" {
		return spec.Resolved{}, 0, usageErrorf("--force: lets --plot replace an existing file; give --plot FILE")
	}
	if o.dryRun && (o.asCSV || o.plotPath != "" || o.emitW) {
		return spec.Resolved{}, 0, usageErrorf("--dry-run prints the prescription only: --csv, --plot and --emit-w need a run")
	}
	if o.emitW && o.asCSV {
		return spec.Resolved{}, 0, usageErrorf("--emit-w: the CSV holds the traces only; use --json (trials[].w) or the table for w")
	}
	if o.plotPath != "" {
		if _, err := plot.FormatOf(o.plotPath); err != nil {
			return spec.Resolved{}, 0, usageErrorf("--plot: %v", err)
		}
	}
	if err := o.shape.check(o.sf.fs, o.plotPath); err != nil {
		return spec.Resolved{}, 0, err
	}
	return resolveFlags(o.sf, o.rename, o.solverList)
}

func (o *runOpts) run(e *env, cmd *cobra.Command) error {
	r, conv, err := o.validated(cmd)
	if err != nil {
		return err
	}
	if len(o.solverList) > 0 {
		return o.compare(e, r, conv)
	}
	ctx, stop := interruptContext()
	defer stop()
	if o.dryRun {
		pctx, _, stopProgress := e.progress(ctx, "dpso run --dry-run")
		p, err := engine.Prescribe(pctx, r)
		stopProgress()
		if ctx.Err() != nil {
			return errInterrupted(ctx, "dpso run --dry-run")
		}
		if err != nil {
			return userError(err, nil)
		}
		if p.Refused != "" {
			return userError(&solvers.RefusedError{Solver: p.Solver, Reason: p.Refused}, nil)
		}
		e.warnLongWork("dpso run --dry-run", p.Plan, true, workHint("dpso run"))
		if o.asJSON {
			return report.WriteJSON(e.stdout, report.Prescription(p, report.Options{ConvDelta: conv, Citation: e.citation(r.Spec, true)}))
		}
		return report.WritePrescriptionTable(e.stdout, p, report.Options{ConvDelta: conv})
	}
	if err := checkPlot(o.plotPath, o.force); err != nil {
		return err
	}
	pctx, set, stopProgress := e.progress(ctx, "dpso run")
	rep, err := engine.Run(pctx, r, set)
	stopProgress()
	if ctx.Err() != nil {
		return errInterrupted(ctx, "dpso run")
	}
	if err != nil {
		return userError(err, nil)
	}
	opt := report.Options{ConvDelta: conv, EmitW: o.emitW, Citation: e.citation(r.Spec, true)}
	switch {
	case o.asJSON:
		err = report.WriteRunJSON(e.stdout, rep, opt)
	case o.asCSV:
		err = report.WriteTraceCSV(e.stdout, rep, opt.Citation)
		csvPrivacyNote(e, rep.UserRows, rep.NotPrivate)
	default:
		err = report.WriteRunTable(e.stdout, rep, opt)
	}
	if err != nil {
		return err
	}
	if o.plotPath != "" {
		return savePlot(ctx, "dpso run", o.plotPath, o.force, o.shape.figure(func(opt plot.Options) (*plot.Figure, error) { return plot.Run(rep, opt) }))
	}
	return nil
}

// compare runs --solvers on the same draws (engine.Compare) and writes
// one table, one JSON document (report.ComparisonJSON, the explorer's
// export of a comparison), or the traces' CSV, and the comparison figure.
// A solver that refuses is a row of the result, not an error.
func (o *runOpts) compare(e *env, r spec.Resolved, conv float64) error {
	ctx, stop := interruptContext()
	defer stop()
	if err := checkPlot(o.plotPath, o.force); err != nil {
		return err
	}
	pctx, set, stopProgress := e.progress(ctx, "dpso run --solvers")
	cmp, err := engine.Compare(pctx, r, o.solverList, set)
	stopProgress()
	if ctx.Err() != nil {
		return errInterrupted(ctx, "dpso run --solvers")
	}
	if err != nil {
		return userError(err, o.rename)
	}
	opt := report.Options{ConvDelta: conv, EmitW: o.emitW, Citation: e.citation(r.Spec, true)}
	switch {
	case o.asJSON:
		err = report.WriteJSON(e.stdout, report.Comparison(cmp, opt))
	case o.asCSV:
		err = report.WriteComparisonTraceCSV(e.stdout, cmp, opt.Citation)
		if len(cmp.Reports) > 0 {
			csvPrivacyNote(e, cmp.Reports[0].UserRows, cmp.Reports[0].NotPrivate)
		}
	default:
		err = report.WriteComparisonTable(e.stdout, cmp, opt)
	}
	if err != nil {
		return err
	}
	if o.plotPath != "" {
		return savePlot(ctx, "dpso run --solvers", o.plotPath, o.force, o.shape.figure(func(opt plot.Options) (*plot.Figure, error) { return plot.Comparison(cmp, opt) }))
	}
	return nil
}
