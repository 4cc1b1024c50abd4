package cli

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dpso/internal/spec"
	"dpso/internal/statestring"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
	"dpso/tui"
	"dpso/tui/presets"
	"dpso/tui/style"
)

// explore opens the interactive explorer with opts; q or ctrl+c quits with
// status 0 (the running solver is cancelled first). A signal (kill -INT,
// -TERM, -HUP, -QUIT) closes it with the terminal restored and the
// shell's status for that signal (130 for SIGINT).
func (e *env) explore(opts tui.Options) error {
	var err error
	if e.explorer != nil {
		err = e.explorer(context.Background(), opts)
	} else {
		err = tui.Run(context.Background(), opts)
	}
	var se *tui.SignalError
	if errors.As(err, &se) {
		return &exitError{code: se.ExitCode(), msg: "interrupted: " + se.Error()}
	}
	return err
}

// screenNames lists the explorer's screens as --screen takes them.
func screenNames() string {
	return strings.Join(tui.ScreenNames(), ", ")
}

// needTTY is the error of the explorer without a terminal.
func needTTY() error {
	return usageErrorf("the explorer needs an interactive terminal; for scripts use the headless subcommands: dpso run, sweep, tune, bounds, privacy, moments, audit, list (see dpso --help)")
}

// exploreOpts are the explore command's flags, bound to a flag set: the
// command's, or one made for an SSH session's arguments (ExploreArgs), so
// that both are parsed and checked by one function.
type exploreOpts struct {
	fs                        *pflag.FlagSet
	sf                        *specFlags
	preset, out, state, theme string
	screen                    string
	liveMax                   time.Duration
}

// addExploreFlags adds explore's flags to fs.
func addExploreFlags(fs *pflag.FlagSet) *exploreOpts {
	o := &exploreOpts{fs: fs}
	o.sf = addSpecFlags(fs, spec.Problem|spec.Data|spec.Constant|spec.Solver|spec.Runner)
	fs.StringVar(&o.preset, "preset", "", "open this preset: its number (1 = the first of the explorer's list) or a part of its title only it has")
	fs.StringVar(&o.state, "state", "", "open this state string (the explorer's y shows it: every form field and the screen); other flags change it. On --data it runs nothing until r: a run is a new release of the rows, composing with the earlier ones")
	fs.StringVar(&o.screen, "screen", "", "open this screen of the right-hand column: "+screenNames()+" (default the state string's, else chart); a screen that runs what it shows (the sweeps, clip, tune, audit) starts that run, the chart and moments wait for r; with --preset, the preset's own run waits for r")
	fs.StringVar(&o.out, "out", "", "folder where the explorer's e writes its exports (default the current folder); it must exist")
	fs.StringVar(&o.theme, "theme", "", "colours: dark, light or high-contrast (default: follow the terminal's background; T cycles them)")
	fs.DurationVar(&o.liveMax, "live-max", 2*time.Second, "longest run that live mode repeats by itself after a change (e.g. 500ms, 5s); longer ones wait for r")
	setFlagGroup(fs, "Explorer", "preset", "state", "screen", "out", "theme", "live-max")
	return o
}

func newExploreCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "explore",
		Short: "Open the interactive explorer on a configuration (any flags of dpso run) or a preset",
		Long: `explore opens the interactive explorer (what dpso does without arguments) on
the configuration the flags describe — the flags of dpso run, so the explorer's
reproduce line, "dpso run …", opens the same configuration as "dpso explore …" —
or on a preset (--preset: its number in the explorer's list, or a part of its
title that only it has; it starts its run at once, as choosing it in the list
does, except preset 5, where nothing runs on loading: its bounds are the point) or a state string (--state: what the explorer's y shows, every form field
and the screen), with any run flags given changing it.

Every value is checked before the explorer opens; an invalid one exits with
status 2 and one line naming the flag, as dpso run does. --out sets the folder
where e writes its exports (PNG, SVG and the JSON document of dpso run --json,
dpso run --solvers --json or dpso sweep --json). --theme forces the colours
(T cycles them); --live-max sets the longest run that live mode repeats by
itself after a change.`,
		Example: `  dpso explore --scenario linreg-t --n 20000
  dpso explore --scenario linreg-t --solver lipschitz-dpsgd
  dpso explore --preset 3 --trials 16
  mkdir -p figures && dpso explore --preset "hard instance" --out figures
  dpso explore --state dpso2.yrM1AgckNq_C0zogAAD__xC4spc`,
	}
	o := addExploreFlags(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		opts, err := o.options()
		if err != nil {
			return err
		}
		if !e.isTTY() {
			return needTTY()
		}
		return e.explore(opts)
	}
	return cmd
}

// options turns the flags into the explorer's options: the preset, or the
// Spec to open on (the preset's or the state string's, if any, with the
// given flags over it), checked by resolving it once, as dpso run does;
// the screen of a state string; the export folder.
func (o *exploreOpts) options() (tui.Options, error) {
	var opts tui.Options
	flags := o.fs
	for _, name := range []string{"preset", "out", "state", "theme", "screen"} {
		// An empty value is refused, not read as the default.
		if f := flags.Lookup(name); f.Changed && f.Value.String() == "" {
			return opts, usageErrorf("--%s: an empty value is not allowed (leave the flag out for its default)", name)
		}
	}
	if o.out != "" {
		st, err := os.Stat(o.out)
		switch {
		case err != nil:
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return opts, usageErrorf("--out: %s: %v (give an existing folder)", theory.Quote(o.out), err)
		case !st.IsDir():
			return opts, usageErrorf("--out: %s is not a folder", theory.Quote(o.out))
		}
		opts.ExportDir = o.out
	}
	if o.theme != "" {
		if _, ok := style.ParseTheme(o.theme); !ok {
			return opts, usageErrorf("--theme: %s is not dark, light or high-contrast", theory.Quote(o.theme))
		}
		opts.Theme = o.theme
	}
	if o.liveMax <= 0 {
		return opts, usageErrorf("--live-max: %s is not a positive duration (e.g. 2s)", theory.Quote(o.liveMax.String()))
	}
	opts.LiveMax = o.liveMax
	var base spec.Spec
	if o.preset != "" && o.state != "" {
		return opts, usageErrorf("--state: give --state or --preset, not both (a state string holds every field)")
	}
	if o.preset != "" {
		i, err := presets.Index(o.preset)
		if err != nil {
			return opts, usageErrorf("--preset: %v", err)
		}
		// A preset starts its run, as choosing it in the list does.
		opts.Preset, opts.PresetRun, base = i, true, presets.All[i].Spec
	}
	own := map[string]bool{"preset": true, "out": true, "theme": true, "live-max": true, "screen": true}
	if o.state != "" {
		st, err := statestring.Parse(o.state, tui.ScreenNames())
		if err != nil {
			return opts, usageErrorf("--state: %v", err)
		}
		// Its preset comes back with it (caption, comparison, what was
		// changed since), on the state's Spec, its run waiting for r.
		if err := opts.OpenState(st); err != nil {
			return opts, usageErrorf("--state: %v (dpso explore --help lists them)", err)
		}
		base, opts.Start = *opts.Start, nil
	}
	if o.screen != "" {
		if !slices.Contains(tui.ScreenNames(), o.screen) {
			return opts, usageErrorf("--screen: %s is not a screen of the explorer (want %s)", theory.Quote(o.screen), screenNames())
		}
		opts.Screen = o.screen
	}
	given := false
	flags.Visit(func(f *pflag.Flag) { given = given || !own[f.Name] })
	if !given {
		return opts, nil
	}
	fspec, _, err := o.sf.Spec()
	if err != nil {
		return opts, userError(err, nil)
	}
	s := base.Overlay(fspec, flags.Changed)
	if s.Data != "" && s.Scenario != "" && !flags.Changed("scenario") {
		s.Scenario = "" // --data replaces the preset's scenario
	}
	if s.Data != "" && s.Scenario == "" {
		if err := scenarios.CheckDataFile(s.Data); err != nil {
			return opts, userError(err, nil)
		}
	}
	r, err := s.Resolve()
	if err == nil {
		err = s.CheckSolverFields(nil)
	}
	if err != nil {
		return opts, userError(err, nil)
	}
	if flags.Changed("seed") && r.Rand == solvers.Secure {
		return opts, usageErrorf("--seed: secure randomness reads no seed, so the runs would not be reproducible from it; leave --seed out, or give --rand seeded (on --data that makes every output say it is NOT private)")
	}
	opts.Start = &s
	return opts, nil
}
