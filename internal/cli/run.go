package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"dpso/internal/engine"
	"dpso/internal/plot"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
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
		Long: `run runs one solver for --trials independent trials on a scenario of the catalogue
(or on user data, --data) and reports the mean excess risk F(w) − F* ± its standard
error over trials, the parameters the paper's theorem prescribes (or your
overrides), the privacy spent, and the class's bounds at the same parameters.

Privacy is ρ-zCDP with ρ = ε²/2: --eps is this zCDP ε. Constants (r̃_k, β, μ, L_f)
are the scenario's declared ones (its distribution is public); --r2, --rk,
--r2k, --lf, --beta, --mu override them, and the output then says the
prescription uses user-given constants. With --iters, --clip and --step all
given, no moment constant is needed.

Defaults: scenario ` + scenarios.DefaultScenario + `; class the scenario's first; solver the paper's
algorithm for the class; oracle clip-gaussian (klz-gd: coordinate);
ε = 1; trials = ` + strconv.Itoa(spec.DefaultTrials) + ` (on --data ` + strconv.Itoa(spec.DefaultDataTrials) + `: every trial on the same rows spends
the budget again); seed 0 with seeded randomness (on --data secure randomness:
seeded noise on your rows is NOT private, and --rand seeded says so in every
output); the scenario's parameters from its catalogue
entry (dpso list); n, k, d and D as a run resolves them, per class where
they differ (a non-smooth class's n is the largest whose full schedule fits
the work budget; a run's notes say why a default moved):

` + scenarioDefaultsTable() + `
Privacy: every run states its (ε', δ)-DP equivalent at --delta (default
10⁻⁵): the exact ε' of ρ = ε²/2 zCDP (4.3772 at ε = 1). dp-sgd, DP-SGD as
practitioners run it, is calibrated by a privacy accountant (--accountant pld,
the default, or rdp) to an accounted (ε', δ) at most that, so a comparison is
on equal privacy. Its defaults: expected Poisson batch B = min(256, n)
(--batch, or --sampling-rate q = B/n), 5 epochs (--epochs; T = ⌈E/q⌉ steps),
C = r̃_k(B/(√d·z))^{1/k} (--clip), step min{1/β, D/(G√T)} (--step), adaptive
clipping off (--adaptive-clip with --clip-quantile 0.5, --clip-rate 0.2,
--clip-count-noise B/20). klz-gd's number of groups and coordinate threshold
are prescribed unless --klz-groups, --klz-tau are given. These settings are
dp-sgd's and klz-gd's alone: with another --solver they are refused; with
--solvers they apply to dp-sgd (klz-gd) only, and the list must include it.

Output: an aligned table; --json gives
  {"scenario","class","solver","oracle","n","d","k","eps","seed","rand","private","not_private",
   "params":{"iters","batch","clip","sigma","step","prescribed","overridden"},
   "privacy":{"model","rho","delta","eps_exact","spent_rho",
              "total":{"scope","releases","split","composition","private","rho","eps_dp","delta_dp",…,"note"}}
     (dp-sgd: model "accountant", "accountant":"pld"|"rdp",
      "eps_delta":{"eps","delta","eps_lower"}, its accounted (ε', δ),
      "target":{"rho","delta","eps_exact"}, what its noise was calibrated to;
      "rho", "eps_exact" and total's "rho" null: it claims no zCDP ρ;
      its "oracle" is "noisy-sum", its own clipped noisy sum),
   "excess_risk":{"mean","stderr","kind","method","eval_stderr","private","note"},
   "trials":[{"trial","seed","excess_risk","excess_risk_private","w"}],"bounds":[as dpso bounds],"notes":[]}
with null for a value that is infinite or does not exist (k = ∞, ε = ∞, the
standard error of one trial, "seed" with secure randomness, which reads no
seed); --csv gives each trial's trace, one row per
checkpoint: trial,grad_evals,excess_risk. --plot FILE.png|FILE.svg draws the
traces with the bounds into a new file (--force replaces one). Same --seed,
same output, byte for byte (seeded randomness).

Privacy of --data: the rows are the private data. Trials (and the solvers
of a comparison, the points of a sweep) read the same rows and compose: the
"total" row and privacy.total state what everything released costs;
--split-budget makes --eps that total. The excess risk measured on the rows
is a non-private diagnostic ("private": false), not part of the release.

--solvers a,b,c compares solvers on the same draws (each solver's numbers are
those of --solver alone): one table with each solver's paired difference from
the first; --json gives
  {"scenario","class","n","d","k","eps","seed","trials","solvers":[...],
   "runs":[each solver's document, as above; "refused" where it cannot run],
   "paired_differences":[{"solver","minus","mean","stderr"}]}
(the explorer's export of a comparison); --csv adds a solver column; --plot
draws every solver in one figure.

Exit status: 0 ok; 2 invalid input (one line naming the flag and the allowed
range), including a solver's refusal (lipschitz-dpsgd when L_f = ∞); 130 on
Ctrl-C; 1 other failures.`,
		Example: `  dpso run --scenario linreg-t --tail 5 --k 2 --eps 0.5 --n 20000
  dpso run --scenario hinge-t --class nonsmooth-sc --trials 3 --json
  dpso run --scenario contaminated --solver sgd --plot trace.svg
  dpso run --scenario linreg-t --solvers acsa,sgd,lipschitz-dpsgd,klz-gd --plot compare.png
  dpso run --data examples/linreg-t-d3.csv --rk 12 --beta 1.5 --csv`,
	}
	fs := cmd.Flags()
	o.sf = addSpecFlags(fs, spec.Problem|spec.Data|spec.Constant|spec.Solver|spec.Runner)
	fs.BoolVar(&o.emitW, "emit-w", false, "include each trial's output w (JSON: trials[].w; table: one line per trial)")
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the prescription (parameters, privacy, bounds) without running")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON (shape above)")
	fs.BoolVar(&o.asCSV, "csv", false, "print the trials' traces as CSV: trial,grad_evals,excess_risk")
	fs.StringVar(&o.plotPath, "plot", "", "write a figure of the traces and bounds to this new .png or .svg file (an existing file is refused unless --force)")
	fs.BoolVar(&o.force, "force", false, "let --plot replace an existing file (atomically; never through a symbolic link)")
	addPlotShape(fs, &o.shape, true)
	fs.StringSliceVar(&o.solverList, "solvers", nil, "compare these solvers (comma-separated) on the same draws: one table, one JSON document, one figure (instead of --solver)")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return o.run(e, cmd) }
	return cmd, o
}

// scenarioDefaultsTable lists each scenario's defaults for --help: those
// a run resolves to (report.List: spec.Spec.Resolve per class), so that
// the help cannot disagree with a run; classes with other n or k than the
// default class's get a row of their own.
func scenarioDefaultsTable() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  SCENARIO\tN\tK\tD\tDIAM\tTAIL\tCLASSES (first = default)")
	for _, s := range report.List().Scenarios {
		d := strconv.Itoa(s.D)
		if s.FixedD {
			d += " (fixed)"
		}
		diam := "from the proof"
		if s.Diam != nil {
			diam = theory.Sig6.Format(*s.Diam)
			if s.FixedDiam {
				diam += " (fixed)"
			}
		}
		tail := "—"
		if s.Tail != nil {
			tail = s.Tail.Symbol + " = " + theory.Sig6.Format(s.Tail.Default) + " in " + s.Tail.Range
		}
		// Group the classes by their (n, k), in order.
		type row struct {
			n, k    string
			classes []string
		}
		var rows []*row
		for _, c := range s.Defaults {
			n, k, cls := strconv.Itoa(c.N), theory.Sig6.Format(c.K), c.Class
			if c.Error != "" {
				n, k, cls = "—", "—", c.Class+" (needs --"+c.Flag+")"
			}
			if i := slices.IndexFunc(rows, func(r *row) bool { return r.n == n && r.k == k }); i >= 0 && c.Error == "" {
				rows[i].classes = append(rows[i].classes, cls)
				continue
			}
			rows = append(rows, &row{n, k, []string{cls}})
		}
		for i, r := range rows {
			if i == 0 {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, r.n, r.k, d, diam, tail, strings.Join(r.classes, ", "))
				continue
			}
			fmt.Fprintf(tw, "  \t%s\t%s\t\t\t\t%s\n", r.n, r.k, strings.Join(r.classes, ", "))
		}
	}
	tw.Flush()
	return b.String()
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
				return spec.Resolved{}, 0, usageErrorf("--solvers: an empty name in %s (want e.g. acsa,sgd,klz-gd)", theory.Quote(strings.Join(o.solverList, ",")))
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
		p, err := engine.Prescribe(ctx, r)
		if ctx.Err() != nil {
			return errInterrupted("dpso run --dry-run")
		}
		if err != nil {
			return userError(err, nil)
		}
		if p.Refused != "" {
			return userError(&solvers.RefusedError{Solver: p.Solver, Reason: p.Refused}, nil)
		}
		if o.asJSON {
			return report.WriteJSON(e.stdout, report.Prescription(p, report.Options{ConvDelta: conv}))
		}
		return report.WritePrescriptionTable(e.stdout, p, report.Options{ConvDelta: conv})
	}
	if err := checkPlot(o.plotPath, o.force); err != nil {
		return err
	}
	set, stopProgress := e.progress("dpso run")
	rep, err := engine.Run(ctx, r, set)
	stopProgress()
	if ctx.Err() != nil {
		return errInterrupted("dpso run")
	}
	if err != nil {
		return userError(err, nil)
	}
	opt := report.Options{ConvDelta: conv, EmitW: o.emitW}
	switch {
	case o.asJSON:
		err = report.WriteRunJSON(e.stdout, rep, opt)
	case o.asCSV:
		err = report.WriteTraceCSV(e.stdout, rep)
		csvPrivacyNote(e, rep.UserRows, rep.NotPrivate)
	default:
		err = report.WriteRunTable(e.stdout, rep, opt)
	}
	if err != nil {
		return err
	}
	if o.plotPath != "" {
		return savePlot(o.plotPath, o.force, o.shape.figure(func(opt plot.Options) (*plot.Figure, error) { return plot.Run(rep, opt) }))
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
	set, stopProgress := e.progress("dpso run --solvers")
	cmp, err := engine.Compare(ctx, r, o.solverList, set)
	stopProgress()
	if ctx.Err() != nil {
		return errInterrupted("dpso run --solvers")
	}
	if err != nil {
		return userError(err, o.rename)
	}
	opt := report.Options{ConvDelta: conv, EmitW: o.emitW}
	switch {
	case o.asJSON:
		err = report.WriteJSON(e.stdout, report.Comparison(cmp, opt))
	case o.asCSV:
		err = report.WriteComparisonTraceCSV(e.stdout, cmp)
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
		return savePlot(o.plotPath, o.force, o.shape.figure(func(opt plot.Options) (*plot.Figure, error) { return plot.Comparison(cmp, opt) }))
	}
	return nil
}
