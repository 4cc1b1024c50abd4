package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"dpso/scenarios"
	"dpso/scenarios/engine"
	"dpso/scenarios/outfile"
	"dpso/scenarios/plot"
	"dpso/scenarios/report"
	"dpso/scenarios/spec"
	"dpso/solvers"
	"dpso/theory"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
)

// runOpts are the run command's flags.
type runOpts struct {
	sf                           *specFlags
	asJSON, asCSV, emitW, dryRun bool
	plotPath                     string
	force                        bool
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
	return resolveFlags(o.sf, o.rename, o.solverList)
}

// resolveFlags resolves the Spec of a command's flags: a data file is
// checked first (so that a missing file is named before anything the data
// would need), then the Spec is resolved, once, and a setting of a solver
// the command does not run (names: --solvers; none: the --solver) is
// refused (Spec.CheckSolverFields). Errors are usage errors naming the
// flag (renamed by rename).
func resolveFlags(sf *specFlags, rename map[string]string, names []string) (spec.Resolved, float64, error) {
	s, conv, err := sf.Spec()
	if err != nil {
		return spec.Resolved{}, conv, userError(err, rename)
	}
	if s.Data != "" && s.Scenario == "" {
		if err := scenarios.CheckDataFile(s.Data); err != nil {
			return spec.Resolved{}, conv, userError(err, rename)
		}
	}
	r, err := s.Resolve()
	if err == nil {
		err = s.CheckSolverFields(names)
	}
	if err != nil {
		return spec.Resolved{}, conv, userError(err, rename)
	}
	if sf.fs.Changed("seed") && r.Rand == solvers.Secure {
		// A typed seed promises a reproducible run; secure randomness
		// reads none (on --data it is the default).
		return spec.Resolved{}, conv, usageErrorf("--seed: secure randomness reads no seed, so the run would not be reproducible from it; leave --seed out, or give --rand seeded (on --data that makes every output say it is NOT private)")
	}
	return r, conv, nil
}

// interruptContext is cancelled by Ctrl-C (a variable so that tests can
// cancel without a signal).
var interruptContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// errInterrupted ends a cancelled command with status 130.
func errInterrupted(cmd string) error {
	return &exitError{code: 130, msg: "interrupted: " + cmd + " cancelled by Ctrl-C, no result written"}
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
		return savePlot(o.plotPath, o.force, func(w io.Writer, f plot.Format) error { return plot.WriteRun(w, f, rep) })
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
		return savePlot(o.plotPath, o.force, func(w io.Writer, f plot.Format) error { return plot.WriteComparison(w, f, cmp) })
	}
	return nil
}

// plotMode is the outfile mode of --plot: replace an existing file only
// with --force.
func plotMode(force bool) outfile.Mode {
	if force {
		return outfile.Replace
	}
	return outfile.Create
}

// checkPlot checks before a long run that the figure's file can be
// written (outfile.Check: the folder is writable; an existing file is
// refused without --force; a link or folder always), touching nothing at
// path. A refusal is a usage error (exit status 2).
func checkPlot(path string, force bool) error {
	if path == "" {
		return nil
	}
	if err := outfile.Check(path, plotMode(force)); err != nil {
		var te *outfile.TargetError
		if errors.As(err, &te) {
			return plotError(path, err)
		}
		return usageErrorf("--plot: %v", err) // a missing or read-only folder
	}
	return nil
}

// plotError is a --plot failure: a refused target is the user's input
// (status 2), a failed write (a full disk) status 1; either way the file
// at path, if any, is as it was.
func plotError(path string, err error) error {
	var te *outfile.TargetError
	if errors.As(err, &te) {
		return usageErrorf("--plot: %s", te.Msg)
	}
	return fmt.Errorf("--plot: %v (no file written)", err)
}

// savePlot writes the figure through outfile.Write (atomic; see
// checkPlot for what is refused).
func savePlot(path string, force bool, draw func(io.Writer, plot.Format) error) error {
	format, err := plot.FormatOf(path)
	if err != nil {
		return usageErrorf("--plot: %v", err)
	}
	if err := outfile.Write(path, plotMode(force), func(w io.Writer) error { return draw(w, format) }); err != nil {
		return plotError(path, err)
	}
	return nil
}

// progressDelay is how long a run goes before its progress line appears.
var progressDelay = time.Second

// progressTicker is the progress line's clock: a tick every 200 ms, and
// the function that stops it (a variable so that a test sends the ticks
// itself instead of sleeping through them).
var progressTicker = func() (<-chan time.Time, func()) {
	t := time.NewTicker(200 * time.Millisecond)
	return t.C, t.Stop
}

// progress is the engine.Settings of a command labelled label: on a
// terminal its progress goes to showProgress's line on stderr, elsewhere
// nowhere. stop ends the line (a no-op off a terminal).
func (e *env) progress(label string) (set *engine.Settings, stop func()) {
	set = &engine.Settings{}
	if !e.stderrIsTerminal() {
		return set, func() {}
	}
	set.Progress = engine.NewMailbox[engine.Progress](256)
	return set, showProgress(e.stderr, label, set.Progress)
}

// showProgress draws one self-overwriting line on w (a terminal) with the
// run's progress — percentage done, estimated time left, the latest
// checkpoint — from progressDelay after the start; the returned function
// stops it and erases the line.
func showProgress(w io.Writer, label string, mb *engine.Mailbox[engine.Progress]) func() {
	width := termWidth(w)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	start := time.Now()
	go func() {
		defer wg.Done()
		ticks, stopTicks := progressTicker()
		defer stopTicks()
		st := newProgressState()
		drawn := false
		for {
			select {
			case <-done:
				if drawn {
					fmt.Fprint(w, "\r\x1b[K")
				}
				return
			case <-ticks:
			}
			vals, _ := mb.Take()
			for _, v := range vals {
				st.add(v)
			}
			if !st.have || time.Since(start) < progressDelay {
				continue
			}
			fmt.Fprint(w, "\r\x1b[K"+st.line(label, time.Since(start), width))
			drawn = true
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// termWidth is the width of the terminal w writes to, 0 when unknown.
func termWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	cols, _, err := term.GetSize(f.Fd())
	if err != nil {
		return 0
	}
	return cols
}

// progressKey is one running (sweep point, solver, trial).
type progressKey struct {
	point, trial int
	solver       string
}

// progressState accumulates a run's progress reports (the mailbox keeps
// the latest; a dropped one only delays the estimate) into the fraction
// of the work done: finished (solver, trial) runs, plus iter/iters of
// each one still running.
type progressState struct {
	last     engine.Progress
	have     bool
	done     int
	inflight map[progressKey]float64
}

func newProgressState() *progressState {
	return &progressState{inflight: map[progressKey]float64{}}
}

func (s *progressState) add(p engine.Progress) {
	s.last, s.have = p, true
	s.done = max(s.done, p.TrialsDone)
	k := progressKey{p.Point, p.Trial, p.Solver}
	switch {
	case p.Done:
		delete(s.inflight, k)
	case p.Iters > 0:
		s.inflight[k] = min(1, float64(p.Iter)/float64(p.Iters))
	}
}

// fraction is the share of the work done, in [0, 1] (NaN before the
// total is known).
func (s *progressState) fraction() float64 {
	if s.last.Total <= 0 {
		return math.NaN()
	}
	f := float64(s.done)
	for _, x := range s.inflight {
		f += x
	}
	return min(1, f/float64(s.last.Total))
}

// eta is the time left at the rate so far, elapsed·(1 − f)/f; NaN until
// 1% is done.
func eta(f float64, elapsed time.Duration) float64 {
	if !(f >= 0.01) {
		return math.NaN()
	}
	return elapsed.Seconds() * (1 - f) / f
}

// fmtSeconds writes a duration as "0.8 s", "12 s", "3 min 05 s".
func fmtSeconds(x float64) string {
	switch {
	case x < 10:
		return fmt.Sprintf("%.1f s", x)
	case x < 60:
		return fmt.Sprintf("%.0f s", x)
	}
	m := int(x) / 60
	return fmt.Sprintf("%d min %02d s", m, int(x)-60*m)
}

// line is the progress line: "label: 42% · ETA 12 s · 2/5 trials done ·
// acsa trial 2 iter 3/10 · 12345 grad evals · excess risk 0.0123 · 1.5 s
// (Ctrl-C cancels)". On a terminal of the given width (0: unknown) the
// parts that do not fit are left out, the least useful first, so the
// line never wraps and no word is cut.
func (s *progressState) line(label string, elapsed time.Duration, width int) string {
	p := s.last
	head := label + ":"
	if f := s.fraction(); !math.IsNaN(f) {
		head += fmt.Sprintf(" %d%%", int(100*f+1e-9)) // floor, forgiving rounding
		if t := eta(f, elapsed); !math.IsNaN(t) {
			head += " · ETA " + fmtSeconds(t)
		}
	}
	where := fmt.Sprintf("%s trial %d", p.Solver, p.Trial)
	if p.Iters > 0 {
		where += fmt.Sprintf(" iter %d/%d", p.Iter, p.Iters)
	}
	parts := []struct {
		text string
		prio int // lower: kept longer
	}{
		{head, 0},
		{fmt.Sprintf("%d/%d trials done", s.done, p.Total), 1},
		{where, 4},
		{theory.Sig4.Format(float64(p.GradEvals)) + " grad evals", 5},
		{"excess risk " + theory.Sig4.Format(p.Excess), 3},
		{fmtSeconds(elapsed.Seconds()) + " elapsed", 2},
		{"(Ctrl-C cancels)", 6},
	}
	keep := make([]bool, len(parts))
	used := -3
	for prio := 0; prio <= 6; prio++ {
		for i, q := range parts {
			if q.prio != prio {
				continue
			}
			n := utf8.RuneCountInString(q.text) + 3
			if width > 0 && used+n >= width && prio > 0 {
				continue
			}
			keep[i], used = true, used+n
		}
	}
	var out []string
	for i, q := range parts {
		if keep[i] {
			out = append(out, q.text)
		}
	}
	return fitWidth(strings.Join(out, " · "), width)
}

// fitWidth cuts s to fewer than width runes (no limit when width ≤ 0), at
// a space where there is one, so that the line never wraps and "\r"
// always returns to its start.
func fitWidth(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) < width {
		return s
	}
	r := []rune(s)
	cut := max(width-2, 0)
	if i := strings.LastIndex(string(r[:cut]), " "); i > 0 {
		return strings.TrimRight(string(r[:cut])[:i], " ·") + "…"
	}
	return string(r[:cut]) + "…"
}

// stderrIsTerminal reports whether progress may be drawn on stderr.
func (e *env) stderrIsTerminal() bool {
	f, ok := e.stderr.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// csvPrivacyNote says on stderr what a CSV cannot carry (issue 10): that
// its excess risks, measured on the user's rows, are a non-private
// diagnostic, and why a run is NOT private.
func csvPrivacyNote(e *env, userRows bool, notPrivate []string) {
	for _, why := range notPrivate {
		fmt.Fprintf(e.stderr, "dpso: NOT PRIVATE: %s\n", why)
	}
	if userRows {
		fmt.Fprintf(e.stderr, "dpso: note: the excess risks in this CSV are %s\n", report.DiagnosticNote)
	}
}
