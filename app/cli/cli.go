package cli

import (
	"context"
	"dpso/internal/outfile"
	"dpso/internal/spec"
	"dpso/theory"
	"dpso/tui"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// env is what a command may touch of the outside world, so that tests run
// commands in-process with buffers.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// isTTY reports whether stdout is an interactive terminal.
	isTTY func() bool
	// explorer runs the explorer (nil: tui.Run); tests capture its
	// options.
	explorer func(context.Context, tui.Options) error
	// args are the command line's arguments (after "dpso"), which every
	// output's citation repeats.
	args []string
}

// Main executes dpso with args (os.Args[1:] for the binary) and returns
// the exit status. No panic escapes
// it: a recovered panic is reported in one line with status 1.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, isTTY: func() bool {
		f, ok := stdout.(*os.File)
		return ok && term.IsTerminal(f.Fd())
	}}
	return e.execute(args)
}

func (e *env) execute(args []string) (code int) {
	outfile.Unprotect()
	defer outfile.RemoveTemps()
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(e.stderr, "dpso: internal error: %v (this is a bug; please report it with the command line)\n", r)
			code = 1
		}
	}()
	e.args = args
	root := e.rootFor(args)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return 0
	}
	fmt.Fprintln(e.stderr, "dpso: "+sanitize(oneLine(theory.Cite(err.Error())), 0))
	var ue *usageError
	if errors.As(err, &ue) {
		return 2
	}
	var xe *exitError
	if errors.As(err, &xe) {
		return xe.code
	}
	return 1
}

// completing reports whether the command line is a shell's completion
// request (cobra's hidden __complete commands).
func (e *env) completing() bool {
	return len(e.args) > 0 && (e.args[0] == cobra.ShellCompRequestCmd || e.args[0] == cobra.ShellCompNoDescRequestCmd)
}

// subcommand is one of dpso's commands: its name and its constructor.
type subcommand struct {
	name  string
	build func(*env) *cobra.Command
}

// subcommands are dpso's commands in help order.
func subcommands() []subcommand {
	return []subcommand{
		{"audit", newAuditCmd}, {"bounds", newBoundsCmd}, {"explore", newExploreCmd}, {"list", newListCmd}, {"moments", newMomentsCmd},
		{"privacy", newPrivacyCmd}, {"run", newRunCmd}, {"serve", newServeCmd}, {"sweep", newSweepCmd}, {"tune", newTuneCmd},
	}
}

// rootCmd is dpso's whole command tree.
func (e *env) rootCmd() *cobra.Command { return e.tree(nil) }

// rootFor is the command tree a command line needs. When its first
// argument names one of dpso's commands, that is the root with this
// command alone: cobra finds, parses, runs and helps it exactly as in the
// whole tree (TestRootForIsTheWholeTreeForItsCommand), without building
// the other commands and their flags (a quarter of `dpso list`'s
// instructions); an unknown flag's hint builds the whole tree to name the
// commands that take it (commandsWithFlag). With no arguments (the
// explorer) it is the root alone. Any other first argument (a flag, help,
// completion, a mistyped name) gets the whole tree.
func (e *env) rootFor(args []string) *cobra.Command {
	if len(args) == 0 {
		return e.tree(func(string) bool { return false })
	}
	for _, c := range subcommands() {
		if c.name == args[0] {
			return e.tree(func(name string) bool { return name == args[0] })
		}
	}
	return e.rootCmd()
}

// tree is the root command with the subcommands that want accepts (nil:
// all of them).
func (e *env) tree(want func(name string) bool) *cobra.Command {
	root := &cobra.Command{
		Use:   "dpso",
		Short: "Differentially private stochastic optimization with heavy-tailed gradients",
		Long: `dpso runs the algorithms of Lowy & Razaviyayn, "Private Stochastic Optimization
with Large Worst-Case Lipschitz Parameter", and evaluates the paper's bounds at
the same parameters. Without arguments, in a terminal, it opens the explorer
(dpso explore opens it on a configuration or a preset).

Privacy is ρ-zCDP with ρ = ε²/2: every --eps is this zCDP ε.`,
		Args:          noArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !e.isTTY() {
				return needTTY()
			}
			return e.explore(tui.Options{})
		},
	}
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		// The data file is an input: no output may replace it (sweep --out
		// F --force --data F), whatever name reaches it.
		if f := cmd.Flags().Lookup("data"); f != nil && f.Value.String() != "" {
			outfile.Protect(f.Value.String(), "--data")
		}
		return nil
	}
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetIn(e.stdin)
	root.SetFlagErrorFunc(flagError)
	// The paper's labels in the help texts are rewritten as the PDF numbers
	// them (citeHelp) when a help text is first shown, not for every
	// command line: citing the whole tree is a fifth of a command that
	// shows none (`dpso list`: 2.9 M of its 13.1 M instructions).
	cited := false
	cite := func() {
		if !cited {
			cited = true
			citeHelp(root)
		}
	}
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) { cite(); help(c, args) })
	root.SetUsageFunc(func(c *cobra.Command) error { cite(); return usage(c) })
	root.Version = versionString(debug.ReadBuildInfo())
	root.SetVersionTemplate("dpso {{.Version}}\n")
	root.CompletionOptions.HiddenDefaultCmd = false
	for _, sub := range subcommands() {
		if want != nil && !want(sub.name) {
			continue
		}
		c := sub.build(e)
		c.SetFlagErrorFunc(flagError)
		if c.Args == nil {
			c.Args = noArgs
		}
		registerCompletions(c, e.completing())
		root.AddCommand(c)
	}
	strictCobraCommands(root)
	if e.completing() { // the shell shows the commands' and flags' texts
		cite()
	}
	return root
}

// strictCobraCommands makes cobra's own help and completion commands
// refuse what they do not know, with exit status 2 and one line, as every
// dpso command does: "dpso help nope" printed the root's help and "dpso
// completion nope" the completion's, both with status 0, and "dpso
// completion bash extra" exited 1.
func strictCobraCommands(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			show := c.Run
			c.Run = nil
			c.RunE = func(c *cobra.Command, args []string) error {
				if found, rest, err := c.Root().Find(args); found == nil || err != nil || len(rest) > 0 {
					return usageErrorf("dpso help: no command %s (see dpso --help for the commands)", theory.Quote(strings.Join(args, " ")))
				}
				show(c, args)
				return nil
			}
		case "completion":
			var shells []string
			for _, sh := range c.Commands() {
				shells = append(shells, sh.Name())
				sh.Args = noArgs
			}
			c.Args = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return usageErrorf("dpso completion: unknown shell %s (want one of %s)", theory.Quote(args[0]), strings.Join(shells, ", "))
				}
				return nil
			}
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		}
	}
}

// usageError is invalid input: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// exitError ends dpso with its own exit status, e.g. 130 after Ctrl-C.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usageErrorf formats a usage error: one line naming the flag (or file,
// line and column) and the allowed range or form.
func usageErrorf(format string, a ...any) error {
	return &usageError{msg: fmt.Sprintf(format, a...)}
}

// flagError turns pflag's parse errors into usage errors. A value our
// flags refuse (*pflag.InvalidValueError) is reported as "--flag: " and
// our own message, which says the allowed range; pflag's other errors (an
// unknown flag, a missing value, bad syntax) are rebuilt from their parts,
// so that what the user typed is echoed only through theory.Quote (escaped
// and cut: an unknown flag's ESC/OSC sequence never reaches the terminal).
func flagError(cmd *cobra.Command, err error) error {
	var ive *pflag.InvalidValueError
	var ne *pflag.NotExistError
	var vr *pflag.ValueRequiredError
	var se *pflag.InvalidSyntaxError
	switch {
	case errors.As(err, &ive):
		inner := errors.Unwrap(ive)
		var se *spec.SpecError // an explicit 0 outside a field's range
		if errors.As(inner, &se) {
			return usageErrorf("--%s: %s", ive.GetFlag().Name, se.Msg)
		}
		if ive.GetFlag().Value.Type() == "duration" { // pflag's duration flags: time.ParseDuration's words
			return usageErrorf("--%s: %s is not a duration (a number and its unit: 500ms, 30s, 15m, 1h)", ive.GetFlag().Name, theory.Quote(ive.GetValue()))
		}
		var ne *strconv.NumError // pflag's own bool, int and slice flags
		if errors.As(inner, &ne) {
			want := "a number"
			if ive.GetFlag().Value.Type() == "bool" {
				want = "true or false"
			}
			return usageErrorf("--%s: %s is not %s", ive.GetFlag().Name, theory.Quote(ive.GetValue()), want)
		}
		return usageErrorf("--%s: %s", ive.GetFlag().Name, sanitize(inner.Error(), maxForeign))
	case errors.As(err, &ne):
		if sh := ne.GetSpecifiedShortnames(); sh != "" {
			return usageErrorf("unknown shorthand flag %s in %s (see --help for the flags)", theory.Quote(ne.GetSpecifiedName()[:1]), theory.Quote("-"+sh))
		}
		name := ne.GetSpecifiedName()
		if others := commandsWithFlag(cmd, name); len(others) > 0 {
			return usageErrorf("unknown flag %s for dpso %s (see dpso %s --help for its flags); %s is a flag of dpso %s", theory.Quote("--"+name), cmd.Name(), cmd.Name(), "--"+name, strings.Join(others, ", "))
		}
		return usageErrorf("unknown flag %s (see --help for the flags)", theory.Quote("--"+name))
	case errors.As(err, &vr):
		if f := vr.GetFlag(); f != nil {
			return usageErrorf("--%s: needs a value (--%s VALUE)", f.Name, f.Name)
		}
		return usageErrorf("flag %s needs a value", theory.Quote(vr.GetSpecifiedName()))
	case errors.As(err, &se):
		return usageErrorf("bad flag syntax %s (write --name value or --name=value)", theory.Quote(se.GetSpecifiedFlag()))
	}
	return &usageError{msg: sanitize(err.Error(), maxForeign)}
}

// commandsWithFlag are the names of the other visible subcommands of
// cmd's root that take a flag called name ("dpso bounds --scenario" is
// refused, and run, sweep, … take it).
func commandsWithFlag(cmd *cobra.Command, name string) []string {
	if cmd == nil || !cmd.HasParent() {
		return nil
	}
	var out []string
	for _, c := range (&env{}).rootCmd().Commands() { // cmd's tree may hold cmd alone (rootFor)
		if c.Name() == cmd.Name() || c.Hidden || !c.IsAvailableCommand() {
			continue
		}
		if c.Flags().Lookup(name) != nil {
			out = append(out, c.Name())
		}
	}
	return out
}

// maxForeign cuts a message of another package (pflag, cobra), which may
// echo input unquoted, to a readable length.
const maxForeign = 300

// sanitize makes a message that may hold raw input safe to print: control
// and invisible characters are escaped as theory.Quote escapes them, and
// with max > 0 it is cut to max characters. Our own messages quote what
// they echo already (theory.Quote); this is the last line of defence for
// every message dpso prints, and the cut for messages of other packages.
func sanitize(msg string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range msg {
		if max > 0 && n == max {
			b.WriteString("…")
			break
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ' {
			q := theory.Quote(string(r))
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteRune(r)
		}
		n++
	}
	return b.String()
}

// userError maps the errors that are the user's input (spec.UserInputOf)
// to usage errors (exit status 2) naming the flag: by the error's field
// (spec.FlagName, then the command's renames, e.g. sweep's "solver" →
// "solvers"), a data file's error as --data, a solver's refusal as
// --solver. Other errors pass through.
func userError(err error, rename map[string]string) error {
	in, ok := spec.UserInputOf(err)
	switch {
	case !ok:
		return err
	case in.Refused != "":
		return usageErrorf("--solver %s refuses: %s", in.Refused, in.Msg)
	}
	f := in.Flag
	if r, ok := rename[f]; ok {
		f = r
	}
	return usageErrorf("--%s: %s", f, in.Msg)
}

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("%s takes no arguments, got %s (flags start with --; see %s --help)", cmd.CommandPath(), theory.Quote(args[0]), cmd.CommandPath())
	}
	return nil
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
