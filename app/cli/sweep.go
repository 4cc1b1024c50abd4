package cli

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dpso/internal/engine"
	"dpso/internal/plot"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/theory"

	"github.com/spf13/cobra"
)

// sweepOpts are the sweep command's flags.
type sweepOpts struct {
	sf       *specFlags
	vary     string
	from, to float64
	points   int
	// from2, to2, points2: the second parameter's grid (--vary a,b).
	from2, to2    float64
	points2       int
	solverList    []string
	asJSON, asCSV bool
	plotPath      string
	force         bool
	shape         plotShape
	// shard and out: run shard I/N and write its results (see
	// sweep_shard.go).
	shard, out string
}

func newSweepCmd(e *env) *cobra.Command {
	cmd, _ := newSweepCommand(e)
	return cmd
}

func newSweepCommand(e *env) (*cobra.Command, *sweepOpts) {
	o := &sweepOpts{}
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "Run at every point of a log grid of n, ε, d, the clip threshold C or k: rates against the bounds, or the clipping trade-off",
		Long: `sweep runs the same problem (every flag of dpso run) at --points values of n, ε,
d, C (clip) or k spaced evenly on a log scale from --from to --to (n and d
rounded, duplicates dropped), every solver of --solvers on the same draws at
each point (common random numbers). Every row carries F(w₀) − F* (the excess
risk of doing nothing) and the certificate: the paper's explicit-constant bound
at that point's own parameters (in an n sweep, the output says from which n on
it promises something).

n, ε, d: each solver's log-log slope is fitted (ordinary least squares of
ln(mean excess risk) on ln(x) with a 95% Student-t interval; points without a
positive finite mean are left out, and the output says so). Beside it stands
each theory bound's own slope over the same grid (rates, constants set to 1:
compare slopes, not levels) and, for n, the bound's analytic local rate, withheld
where the scenario's constants change with n (the hard instances).

clip, k: the clipping trade-off. Each row also carries "clipped" (the fraction
of per-sample gradients clipped), "noise_off" (the same T, C, steps and
draws with the noise switched off: clipping, sampling and optimization error
together) and "clip_bias" (the clipping bias itself, F(w_C) − F* of the
clipped population fixed point at the solver's C, with its Monte Carlo error
and its method), and the output names the prescribed C and the empirical best
point; no slope is fitted. --vary clip without --from/--to
runs ` + strconv.Itoa(engine.DefaultClipPoints) + ` points from 10⁻⁴ to 1 times the prescribed C, with the step size
(and T for the one-pass solvers) held at their prescribed values, as the
output says.

--vary a,b (two of n, eps, d, clip, k; clip second) runs the sweep of b
(--from2, --to2, --points2; clip may leave them out) at every value of a on
its grid: one table per value of a, one JSON document {"sweep","outer","grid",
"total","sweeps":[each a sweep's document]}, or one long-format CSV with both
parameters as its first columns. Every point of the grid composes with the
others.

A solver's rows are what the sweep of that solver alone gives: a clip sweep
holds each solver's step (and T) at its own prescription at its own
prescribed C.

Defaults as dpso run (see dpso run --help), --points ` + strconv.Itoa(engine.DefaultSweepPoints) + `, --solvers the --solver.

Output: a table; --json the document of the JSON fields below (the swept one of
n, d, eps is null; null also where a value is infinite or does not exist, and
"seed" with secure randomness, which reads no seed); --csv gives one
long-format row per point and solver (header: the swept name, solver, mean,
stderr, median, q1, q3, clipped, noise_off, clip_bias, w0_excess, reference,
certificate, eps_delta, every parameter held fixed — scenario, data, loss,
class, n, d, k, eps, delta, diam, trials — the bound ids, and the citation:
dpso_version, command, rand, seed, data_sha256; inf for an infinite value,
empty where none exists). The median and quartiles are of the trials' values
(type 7); "reference" is the non-private reference, the empirical risk
minimizer's excess risk on the point's draws. --plot FILE.png|FILE.svg draws the
log-log figure with the bounds' curves and the slopes in the legend.

Shards: the sweep's units (one trial at one grid point, every solver) are
deterministic in (seed, point, trial). --shard I/N --out FILE runs only shard I
of N and writes its raw results (atomically; an existing FILE only with
--force); dpso sweep merge FILE… checks that the N files are the shards of one
sweep, each once, and prints exactly what the unsharded sweep prints (see dpso
sweep merge --help). --out without --shard saves the whole sweep's results.`,
		Example: `  dpso sweep --scenario mean-hard --class smooth-sc --vary n --from 1000 --to 64000 --points 4
  dpso sweep --scenario linreg-t --d 3 --vary eps --from 0.1 --to 10 --solvers acsa,nonprivate-schedule,klz-gd --json
  dpso sweep --scenario affine-hard --vary n --from 500 --to 8000 --plot rates.svg
  dpso sweep --scenario linreg-t --class smooth-sc --vary clip --plot clip.png
  dpso sweep --scenario linreg-t --vary eps --from 0.1 --to 10 --shard 2/3 --out part-2.json`,
	}
	fs := cmd.Flags()
	o.sf = addSpecFlags(fs, spec.Problem|spec.Data|spec.Constant|spec.Solver|spec.Runner)
	fs.StringVar(&o.vary, "vary", "", "the parameter to sweep: n, eps, d, clip or k (required); two, a,b, sweep the grid of both (clip, if one of them, second)")
	newNumFlag(fs, &o.from, "from", "first grid value, a positive number (required, except with --vary clip: 10⁻⁴ times the prescribed C)")
	newNumFlag(fs, &o.to, "to", "last grid value, greater than --from (required, except with --vary clip: the prescribed C)")
	newIntFlag(fs, &o.points, "points", 0, 2, engine.MaxSweepPoints, fmt.Sprintf("grid points (default %d)", engine.DefaultSweepPoints))
	fs.Lookup("points").DefValue = ""
	newNumFlag(fs, &o.from2, "from2", "--vary a,b: the second parameter's first grid value (required, except for clip)")
	newNumFlag(fs, &o.to2, "to2", "--vary a,b: the second parameter's last grid value (required, except for clip)")
	newIntFlag(fs, &o.points2, "points2", 0, 2, engine.MaxSweepPoints, fmt.Sprintf("--vary a,b: the second parameter's grid points (default %d)", engine.DefaultSweepPoints))
	fs.Lookup("points2").DefValue = ""
	fs.StringSliceVar(&o.solverList, "solvers", nil, "comma-separated solvers to run on the same draws at every point (default the --solver)")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON (its fields below)")
	fs.BoolVar(&o.asCSV, "csv", false, "print long-format CSV rows (header above): the swept values, solver, the statistics, the fixed parameters, the bounds, the citation")
	fs.StringVar(&o.plotPath, "plot", "", "write the log-log figure to this new .png or .svg file (an existing file is refused unless --force)")
	fs.BoolVar(&o.force, "force", false, "let --out or --plot replace an existing file (atomically; never through a symbolic link)")
	addPlotShape(fs, &o.shape, true, false)
	addShardFlags(fs, o)
	setFlagGroup(fs, "Sweep", "vary", "from", "to", "points", "from2", "to2", "points2")
	setFlagGroup(fs, headingSolver, "solvers")
	setFlagGroup(fs, headingOutput, "json", "csv", "plot", "force", "plot-size", "plot-hide", "shard", "out")
	merge := newSweepMergeCmd(e)
	registerCompletions(merge, e.completing())
	cmd.AddCommand(merge)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return o.run(e, cmd) }
	return cmd, o
}

// sweepRename maps the SweepSpec's field names to the sweep's flags.
var sweepRename = map[string]string{"sweep": "vary"}

// validated returns the resolved run and the sweep, and the flags' renames
// for the sweep's errors.
func (o *sweepOpts) validated(cmd *cobra.Command) (spec.Resolved, engine.SweepSpec, map[string]string, error) {
	var sw engine.SweepSpec
	rename := sweepRename
	if o.asJSON && o.asCSV {
		return spec.Resolved{}, sw, rename, usageErrorf("--json and --csv exclude each other: choose one output format")
	}
	if fs := cmd.Flags(); fs.Changed("plot") && o.plotPath == "" {
		return spec.Resolved{}, sw, rename, usageErrorf("--plot: an empty file name; give a .png or .svg file name")
	}
	if o.force && o.plotPath == "" && o.out == "" {
		return spec.Resolved{}, sw, rename, usageErrorf("--force: lets --out or --plot replace an existing file; give --out FILE or --plot FILE")
	}
	if err := o.checkShardFlags(cmd); err != nil {
		return spec.Resolved{}, sw, rename, err
	}
	if o.plotPath != "" {
		if _, err := plot.FormatOf(o.plotPath); err != nil {
			return spec.Resolved{}, sw, rename, usageErrorf("--plot: %v", err)
		}
	}
	if err := o.shape.check(cmd.Flags(), o.plotPath); err != nil {
		return spec.Resolved{}, sw, rename, err
	}
	fs := cmd.Flags()
	// A bad --vary is named before the --from and --to it would need: the
	// user's first mistake is the value they typed, not a flag they left out.
	if fs.Changed("vary") && !slices.Contains([]string{spec.SweepN, spec.SweepEps, spec.SweepD, spec.SweepClip, spec.SweepK}, o.vary) {
		if o.vary == "" {
			return spec.Resolved{}, sw, rename, usageErrorf("--vary: an empty value is not allowed (want n, eps, d, clip or k)")
		}
		return spec.Resolved{}, sw, rename, usageErrorf("--vary: cannot sweep %s (want n, eps, d, clip or k)", theory.Quote(o.vary))
	}
	for _, req := range []string{"vary", "from", "to"} {
		if !fs.Changed(req) && !(req != "vary" && o.vary == spec.SweepClip && !fs.Changed("from") && !fs.Changed("to")) {
			return spec.Resolved{}, sw, rename, usageErrorf("--%s: required (a sweep needs --vary n|eps|d|clip|k, --from and --to, with 0 < from < to; --vary clip alone runs 10⁻⁴ to 1 times the prescribed C)", req)
		}
	}
	if fs.Changed("solvers") && fs.Changed("solver") {
		return spec.Resolved{}, sw, rename, usageErrorf("--solver and --solvers exclude each other: give one solver, or the list")
	}
	if fs.Changed("solvers") && len(o.solverList) == 0 {
		return spec.Resolved{}, sw, rename, usageErrorf("--solvers: an empty list; give comma-separated solver names (or leave it out for the --solver)")
	}
	if len(o.solverList) > 0 {
		for i, n := range o.solverList {
			o.solverList[i] = strings.TrimSpace(n)
			if o.solverList[i] == "" {
				return spec.Resolved{}, sw, rename, usageErrorf("--solvers: an empty name in the list %s; give comma-separated solver names", theory.Quote(strings.Join(o.solverList, ",")))
			}
		}
		// The first listed solver is the Spec's: it is resolved with the
		// class.
		o.sf.spec.Solver = o.solverList[0]
		rename = map[string]string{"sweep": "vary", "solver": "solvers"}
	}
	if fs.Changed(o.vary) && (o.vary == spec.SweepN || o.vary == spec.SweepD || o.vary == spec.SweepEps || o.vary == spec.SweepClip || o.vary == spec.SweepK) {
		return spec.Resolved{}, sw, rename, usageErrorf("--%s: cannot be given with --vary %s, which sets it at every grid point", o.vary, o.vary)
	}
	sw = engine.SweepSpec{Param: o.vary, From: o.from, To: o.to, Points: o.points, Solvers: o.solverList}
	// --delta reaches every solver through the Spec (each row's ε' is at
	// that δ). Each grid point is checked by the sweep itself.
	r, _, err := resolveFlags(o.sf, rename, o.solverList)
	return r, sw, rename, err
}

func (o *sweepOpts) run(e *env, cmd *cobra.Command) error {
	if strings.Contains(o.vary, ",") {
		return o.runGrid(e, cmd)
	}
	for _, name := range []string{"from2", "to2", "points2"} {
		if cmd.Flags().Changed(name) {
			return usageErrorf("--%s: the second parameter's grid; give two parameters, --vary a,b", name)
		}
	}
	r, sw, rename, err := o.validated(cmd)
	if err != nil {
		return err
	}
	if o.out != "" {
		return o.runShard(e, r, sw, rename)
	}
	if err := checkPlot(o.plotPath, o.force); err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	pctx, set, stopProgress := e.progress(ctx, "dpso sweep")
	rep, err := engine.Sweep(pctx, r, sw, set)
	stopProgress()
	if ctx.Err() != nil {
		return errInterrupted(ctx, "dpso sweep")
	}
	if err != nil {
		return userError(err, rename)
	}
	return writeSweep(ctx, e, rep, o.asJSON, o.asCSV, o.plotPath, o.force, &o.shape)
}

// writeSweep prints a sweep's report — the table, --json or --csv — and
// draws --plot: what dpso sweep and dpso sweep merge print alike.
func writeSweep(ctx context.Context, e *env, rep *engine.SweepReport, asJSON, asCSV bool, plotPath string, force bool, shape *plotShape) error {
	var s spec.Spec
	if len(rep.Points) > 0 && len(rep.Points[0].Reports) > 0 {
		s = rep.Points[0].Reports[0].Spec
	}
	cit := e.citation(s, true)
	var err error
	switch {
	case asJSON:
		err = report.WriteCitedJSON(e.stdout, report.Sweep(rep), cit)
	case asCSV:
		err = report.WriteSweepCSV(e.stdout, rep, cit)
		if len(rep.Points) > 0 && len(rep.Points[0].Reports) > 0 {
			r0 := rep.Points[0].Reports[0]
			csvPrivacyNote(e, r0.UserRows, r0.NotPrivate)
		}
	default:
		err = report.WriteSweepTable(e.stdout, rep)
	}
	if err != nil {
		return err
	}
	if plotPath != "" {
		return savePlot(ctx, "dpso sweep", plotPath, force, shape.figure(func(opt plot.Options) (*plot.Figure, error) { return plot.Sweep(rep, opt) }))
	}
	return nil
}

// runGrid runs `--vary a,b`: the sweep of b at every value of a on a's
// grid (engine.SweepGrid), written as one table per row, one JSON
// document, or one long-format CSV with both parameters as columns.
func (o *sweepOpts) runGrid(e *env, cmd *cobra.Command) error {
	fs := cmd.Flags()
	names := strings.Split(o.vary, ",")
	if len(names) != 2 {
		return usageErrorf("--vary: %s names %d parameters; give one, or two as a,b", theory.Quote(o.vary), len(names))
	}
	p1, p2 := strings.TrimSpace(names[0]), strings.TrimSpace(names[1])
	for _, p := range []string{p1, p2} {
		if !slices.Contains([]string{spec.SweepN, spec.SweepEps, spec.SweepD, spec.SweepClip, spec.SweepK}, p) {
			return usageErrorf("--vary: cannot sweep %s (want two of n, eps, d, clip or k, as a,b)", theory.Quote(p))
		}
	}
	switch {
	case p1 == p2:
		return usageErrorf("--vary: %s twice; give two different parameters", p1)
	case p1 == spec.SweepClip:
		return usageErrorf("--vary: clip must come second (--vary %s,clip): its grid and held steps are relative to each row's prescription", p2)
	case o.out != "" || o.shard != "":
		return usageErrorf("--shard, --out: not for a two-parameter sweep (run one sweep of %s per value of %s to shard it)", p2, p1)
	case o.plotPath != "":
		return usageErrorf("--plot: not for a two-parameter sweep; --csv gives the long-format table to plot")
	case p2 != spec.SweepClip && (!fs.Changed("from2") || !fs.Changed("to2")):
		return usageErrorf("--from2, --to2: required for the second parameter %s (0 < from2 < to2)", p2)
	case fs.Changed(p2):
		return usageErrorf("--%s: cannot be given with --vary %s, which sets it at every grid point", p2, o.vary)
	}
	o.vary = p1
	r, sw1, rename, err := o.validated(cmd)
	if err != nil {
		return err
	}
	sw2 := engine.SweepSpec{Param: p2, From: o.from2, To: o.to2, Points: o.points2, Solvers: o.solverList}
	ctx, stop := interruptContext()
	defer stop()
	pctx, set, stopProgress := e.progress(ctx, "dpso sweep")
	g, err := engine.SweepGrid(pctx, r, engine.GridSpec{Outer: sw1, Inner: sw2}, set)
	stopProgress()
	if ctx.Err() != nil {
		return errInterrupted(ctx, "dpso sweep")
	}
	if err != nil {
		rn := map[string]string{"from": "from2", "to": "to2", "points": "points2"}
		for k, v := range rename {
			rn[k] = v
		}
		return userError(err, rn)
	}
	var s spec.Spec
	var notPrivate []string
	if len(g.Inner) > 0 && len(g.Inner[0].Points) > 0 && len(g.Inner[0].Points[0].Reports) > 0 {
		r0 := g.Inner[0].Points[0].Reports[0]
		s, notPrivate = r0.Spec, r0.NotPrivate
	}
	cit := e.citation(s, true)
	switch {
	case o.asJSON:
		return report.WriteCitedJSON(e.stdout, report.Grid(g), cit)
	case o.asCSV:
		if err := report.WriteGridCSV(e.stdout, g, cit); err != nil {
			return err
		}
		csvPrivacyNote(e, s.Data != "", notPrivate)
		return nil
	}
	return report.WriteGridTable(e.stdout, g)
}
