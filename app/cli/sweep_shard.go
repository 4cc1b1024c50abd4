package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dpso/internal/engine"
	"dpso/internal/outfile"
	"dpso/internal/plot"
	"dpso/internal/shard"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

// addShardFlags adds dpso sweep's --shard, --out and --force.
func addShardFlags(fs *pflag.FlagSet, o *sweepOpts) {
	fs.StringVar(&o.shard, "shard", "", "run only shard I of N of the sweep (I/N, counted from 1, e.g. 2/3) and write its results to --out; merge the N files with dpso sweep merge")
	fs.StringVar(&o.out, "out", "", "write the sweep's (or the --shard's) raw results to this new file, for dpso sweep merge, instead of printing a report (an existing file is refused unless --force)")
}

// checkShardFlags refuses what --shard, --out and --force cannot be given
// with: a shard's file holds raw results; the table, the JSON, the CSV
// and the figure are the merge's.
func (o *sweepOpts) checkShardFlags(cmd *cobra.Command) error {
	fs := cmd.Flags()
	if fs.Changed("shard") {
		if _, err := shard.ParseIndex(o.shard); err != nil {
			return usageErrorf("--shard: %v", err)
		}
		if o.out == "" {
			return usageErrorf("--shard: a shard's results go to a file: give --out FILE (then dpso sweep merge FILE…)")
		}
	}
	if fs.Changed("out") && o.out == "" {
		return usageErrorf("--out: an empty file name")
	}
	if o.out != "" && (o.asJSON || o.asCSV || o.plotPath != "") {
		return usageErrorf("--out writes raw results, no report: --json, --csv and --plot belong to dpso sweep merge")
	}
	if o.out != "" {
		if err := outfile.Check(o.out, plotMode(o.force)); err != nil {
			var te *outfile.TargetError
			if errors.As(err, &te) {
				return outError(err)
			}
			// A missing or read-only folder, known before the sweep runs:
			// the user's input, status 2 (as --plot's; it was 1).
			return usageErrorf("--out: %v", err)
		}
	}
	return nil
}

// outError is an --out failure: a refused target (an existing file
// without --force, a link, a folder) is the user's input, status 2; a
// failed write status 1. Either way nothing is left at the target.
func outError(err error) error {
	var te *outfile.TargetError
	if errors.As(err, &te) {
		return usageErrorf("--out: %s", te.Msg)
	}
	return fmt.Errorf("--out: %v (no file written)", err)
}

// runShard runs shard --shard (1/1 without it) of the sweep and writes
// its file.
func (o *sweepOpts) runShard(e *env, r spec.Resolved, sw engine.SweepSpec, rename map[string]string) error {
	idx := shard.Index{I: 1, N: 1}
	if o.shard != "" {
		idx, _ = shard.ParseIndex(o.shard) // checked in validated
	}
	s, _, err := o.sf.Spec()
	if err != nil {
		return userError(err, rename)
	}
	def, err := shard.NewDefinition(s, sw, buildID())
	if err != nil {
		return usageErrorf("--data: %v", err)
	}
	if r.UserRows() && r.Rand == solvers.Secure {
		// A shard file holds released outputs of the user's rows. Under
		// secure randomness a second run of the shard draws fresh noise:
		// its file would be a second release of the same units, which no
		// output counts. Seeded noise gives the same bytes (and every
		// output says it is not private).
		if _, err := os.Lstat(o.out); err == nil {
			return usageErrorf("--out: %s exists: under secure randomness on your rows, running this shard again releases its units a second time with fresh noise, and no privacy statement would count it; merge the file that is there (it is this shard's release), or remove it yourself if it was never released", theory.Quote(o.out))
		}
	}
	ctx, stop := interruptContext()
	defer stop()
	pctx, set, stopProgress := e.progress(ctx, "dpso sweep --shard "+idx.String())
	defer stopProgress()
	p, err := engine.PrepareSweep(pctx, r, sw)
	if ctx.Err() != nil {
		return errInterrupted(ctx, "dpso sweep")
	}
	if err != nil {
		return userError(err, rename)
	}
	if _, err := shard.Plan(p, idx.N); err != nil {
		return usageErrorf("--shard: %v", err)
	}
	f, err := shard.Run(pctx, p, def, idx, set)
	stopProgress()
	if ctx.Err() != nil {
		return errInterrupted(ctx, "dpso sweep")
	}
	if err != nil {
		return userError(err, rename)
	}
	b, err := f.Marshal()
	if err != nil {
		return err
	}
	if err := outfile.WriteContext(ctx, o.out, plotMode(o.force), func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}); err != nil {
		if ctx.Err() != nil {
			return errInterrupted(ctx, "dpso sweep")
		}
		return outError(err)
	}
	fmt.Fprintf(e.stderr, "dpso sweep: shard %s: %d of the sweep's %d units (a unit is one trial at one grid point, every solver) written to %s\n",
		idx, len(f.Units), len(p.Units()), theory.Quote(o.out))
	if idx.N > 1 {
		fmt.Fprintf(e.stderr, "merge the %d shard files with: dpso sweep merge FILE…\n", idx.N)
	}
	return nil
}

// mergeOpts are dpso sweep merge's flags.
type mergeOpts struct {
	asJSON, asCSV bool
	plotPath      string
	force         bool
	shape         plotShape
	data          string
}

func newSweepMergeCmd(e *env) *cobra.Command {
	o := &mergeOpts{}
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Merge the shard files of a sweep (dpso sweep --shard I/N --out FILE) into the report one unsharded run gives",
		Long: `merge reads the N shard files that dpso sweep --shard 1/N … N/N --out FILE wrote
(on any machines), checks that they are the N shards of one sweep, each once —
the same run, sweep, dpso build and platform (a fingerprint of them is in every
file), the same N, no shard twice, none missing; a refusal names the file and
what differs — and prints exactly what dpso sweep with the same flags prints:
the table, --json or --csv, and --plot draws the same figure. Slopes and every
other summary are computed here, from all the units' results.

The sweep's points are rebuilt (no trial is run), so a sweep on user data needs
its data file: at the path the shards read it from, or --data PATH; its content
must be the same (its SHA-256 is in the fingerprint).`,
		Example: `  dpso sweep --scenario linreg-t --vary eps --from 0.1 --to 10 --shard 1/3 --out part-1.json
  dpso sweep --scenario linreg-t --vary eps --from 0.1 --to 10 --shard 2/3 --out part-2.json
  dpso sweep --scenario linreg-t --vary eps --from 0.1 --to 10 --shard 3/3 --out part-3.json
  dpso sweep merge part-*.json --json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("dpso sweep merge: give the shard files, e.g. dpso sweep merge part-*.json")
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&o.asJSON, "json", false, "print the sweep's JSON (as dpso sweep --json)")
	fs.BoolVar(&o.asCSV, "csv", false, "print the sweep's CSV (as dpso sweep --csv)")
	fs.StringVar(&o.plotPath, "plot", "", "write the sweep's log-log figure to this .png or .svg file (as dpso sweep --plot)")
	fs.BoolVar(&o.force, "force", false, "let --plot replace an existing file (atomically; never through a symbolic link)")
	addPlotShape(fs, &o.shape, true, true)
	fs.StringVar(&o.data, "data", "", "the user data file, where it is not at the path the shards read it from")
	cmd.RunE = func(cmd *cobra.Command, args []string) error { return o.run(e, cmd, args) }
	return cmd
}

func (o *mergeOpts) run(e *env, cmd *cobra.Command, names []string) error {
	for _, n := range names {
		outfile.Protect(n, "dpso sweep merge")
	}
	if o.asJSON && o.asCSV {
		return usageErrorf("--json and --csv exclude each other: choose one output format")
	}
	if cmd.Flags().Changed("plot") && o.plotPath == "" {
		return usageErrorf("--plot: an empty file name; give a .png or .svg file name")
	}
	if o.force && o.plotPath == "" {
		return usageErrorf("--force: lets --plot replace an existing file; give --plot FILE")
	}
	files := make([]*shard.File, len(names))
	for i, n := range names {
		f, err := shard.Read(n)
		if err != nil {
			return usageErrorf("%v", err)
		}
		files[i] = f
	}
	if err := shard.Check(files); err != nil {
		return usageErrorf("%v", err)
	}
	def := files[0].Definition
	if b := buildID(); b != def.Build {
		return usageErrorf("the shards were written by another dpso build (%s); this is %s: merge with the binary that ran them", theory.Quote(def.Build), theory.Quote(b))
	}
	if o.plotPath != "" {
		if _, err := plot.FormatOf(o.plotPath); err != nil {
			return usageErrorf("--plot: %v", err)
		}
	}
	if err := o.shape.check(cmd.Flags(), o.plotPath); err != nil {
		return err
	}
	s := def.Spec.Clone()
	if def.DataSHA256 != "" {
		if o.data != "" {
			s.Data = o.data
		}
		if err := scenarios.CheckDataFile(s.Data); err != nil {
			msg := err.Error()
			var fe *scenarios.FieldError
			if errors.As(err, &fe) {
				msg = fe.Msg
			}
			return usageErrorf("--data: the shards ran on user data %s, which merge reads again to rebuild the sweep's points: %s (give --data PATH)", theory.Quote(def.Spec.Data), msg)
		}
		h, err := shard.FileHash(s.Data)
		if err != nil {
			return usageErrorf("--data: cannot read %s: %v", theory.Quote(s.Data), err)
		}
		if h != def.DataSHA256 {
			return usageErrorf("--data: %s is not the data the shards ran on (its SHA-256 differs)", theory.Quote(s.Data))
		}
	} else if o.data != "" {
		return usageErrorf("--data: the shards ran on scenario %s, not on user data", s.Scenario)
	}
	r, err := s.Resolve()
	if err != nil {
		return userError(err, nil)
	}
	if err := checkPlot(o.plotPath, o.force); err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	p, err := engine.PrepareSweep(ctx, r, def.Sweep)
	if err == nil {
		err = shard.Merge(p, files)
	}
	var rep *engine.SweepReport
	if err == nil {
		rep, err = p.Report(ctx)
	}
	if ctx.Err() != nil {
		return errInterrupted(ctx, "dpso sweep merge")
	}
	if err != nil {
		return userError(err, map[string]string{"sweep": "vary"})
	}
	return writeSweep(ctx, e, rep, o.asJSON, o.asCSV, o.plotPath, o.force, &o.shape)
}

// buildID names this dpso binary for a shard's fingerprint: the version
// line (module version, VCS commit, Go version) and, when that does not
// pin the code — no VCS information, or uncommitted changes — the
// executable's SHA-256.
var buildID = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	id := versionString(bi, ok)
	if ok && strings.Contains(id, "commit ") && !strings.Contains(id, "uncommitted") && !strings.Contains(id, "commit unknown") {
		return id
	}
	if h, err := executableHash(); err == nil {
		return id + " · executable sha256 " + h
	}
	return id
})

// executableHash is the first 16 hex digits of this binary's SHA-256.
func executableHash() (string, error) {
	path, err := os.Executable()
	if err != nil {
		return "", err
	}
	h, err := shard.FileHash(path)
	if err != nil {
		return "", err
	}
	return h[:16], nil
}
