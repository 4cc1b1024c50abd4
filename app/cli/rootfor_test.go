package cli

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestSubcommandsNameTheirCommands holds the table rootFor looks a
// command line's first argument up in to the commands it builds.
func TestSubcommandsNameTheirCommands(t *testing.T) {
	for _, sub := range subcommands() {
		t.Run(sub.name, func(t *testing.T) {
			if got := sub.build(&env{}).Name(); got != sub.name {
				t.Errorf("subcommands() files %s's constructor under %q", got, sub.name)
			}
		})
	}
	var ours []string
	for _, c := range (&env{}).rootCmd().Commands() {
		if c.Name() != "help" && c.Name() != "completion" { // cobra's
			ours = append(ours, c.Name())
		}
	}
	var listed []string
	for _, sub := range subcommands() {
		listed = append(listed, sub.name)
	}
	if !slices.Equal(ours, listed) {
		t.Errorf("the whole tree's commands are %v, subcommands() lists %v", ours, listed)
	}
}

// flagSignature is every property of c's flags (local and inherited)
// that parsing, completion and help read, one line per flag, sorted.
func flagSignature(c *cobra.Command) string {
	var lines []string
	sig := func(kind string) func(f *pflag.Flag) {
		return func(f *pflag.Flag) {
			ann := make([]string, 0, len(f.Annotations))
			for k, v := range f.Annotations {
				ann = append(ann, k+"="+strings.Join(v, ","))
			}
			sort.Strings(ann)
			lines = append(lines, fmt.Sprintf("%s --%s -%s type=%s def=%q noopt=%q hidden=%v dep=%q usage=%q ann=%v",
				kind, f.Name, f.Shorthand, f.Value.Type(), f.DefValue, f.NoOptDefVal, f.Hidden, f.Deprecated, f.Usage, ann))
		}
	}
	c.LocalFlags().VisitAll(sig("local"))
	c.InheritedFlags().VisitAll(sig("inherited"))
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// executeTree runs a tree on args and returns what it printed and its
// error's text.
func executeTree(root *cobra.Command, args []string) (string, string) {
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	msg := ""
	if err := root.Execute(); err != nil {
		msg = err.Error()
	}
	return out.String(), msg
}

// TestRootForIsTheWholeTreeForItsCommand holds the tree rootFor builds
// for a command line that names a command (the root and that command
// alone) to the whole tree: the same flags and subcommands, the same
// --help, the same refusal of an unknown flag, and of a flag that only
// other commands take, whose hint names those commands.
func TestRootForIsTheWholeTreeForItsCommand(t *testing.T) {
	for _, sub := range subcommands() {
		t.Run(sub.name, func(t *testing.T) {
			t.Parallel()
			whole := (&env{}).rootCmd()
			part := (&env{}).rootFor([]string{sub.name})
			var mine *cobra.Command
			for _, c := range part.Commands() {
				switch c.Name() {
				case sub.name:
					mine = c
				case "help", "completion":
				default:
					t.Errorf("rootFor(%s) builds %s too", sub.name, c.Name())
				}
			}
			if mine == nil {
				t.Fatalf("rootFor(%s) has no %s", sub.name, sub.name)
			}
			var visit func(w, p *cobra.Command)
			visit = func(w, p *cobra.Command) {
				if ws, ps := flagSignature(w), flagSignature(p); ws != ps {
					t.Errorf("dpso %s's flags differ:\nwhole tree:\n%s\nrootFor:\n%s", w.CommandPath(), ws, ps)
				}
				if len(w.Commands()) != len(p.Commands()) {
					t.Fatalf("dpso %s has %d subcommands in the whole tree, %d from rootFor", w.CommandPath(), len(w.Commands()), len(p.Commands()))
				}
				for i := range w.Commands() {
					visit(w.Commands()[i], p.Commands()[i])
				}
			}
			w, _, err := whole.Find([]string{sub.name})
			if err != nil {
				t.Fatal(err)
			}
			visit(w, mine)
			// Flags this command lacks: the hint names the commands that
			// take each.
			others := map[string]bool{}
			for _, c := range whole.Commands() {
				c.Flags().VisitAll(func(f *pflag.Flag) {
					if w.Flags().Lookup(f.Name) == nil {
						others[f.Name] = true
					}
				})
			}
			cases := [][]string{{sub.name, "--help"}, {sub.name, "--no-such-flag"}}
			for _, name := range slices.Sorted(maps.Keys(others)) {
				cases = append(cases, []string{sub.name, "--" + name, "1"})
			}
			// A refused flag leaves a tree as it was: one of each serves
			// every case after --help.
			wt, pt := (&env{}).rootCmd(), (&env{}).rootFor([]string{sub.name})
			for i, args := range cases {
				if i == 1 {
					wt, pt = (&env{}).rootCmd(), (&env{}).rootFor(args)
				}
				wo, we := executeTree(wt, args)
				po, pe := executeTree(pt, args)
				if wo != po || we != pe {
					t.Errorf("dpso %s:\nwhole tree: %q, error %q\nrootFor: %q, error %q", strings.Join(args, " "), wo, we, po, pe)
				}
				if args[1] != "--help" && !strings.Contains(we, "unknown flag") {
					t.Errorf("dpso %s: %q, want an unknown flag's refusal", strings.Join(args, " "), we)
				}
			}
		})
	}
}

// TestRootForWithoutArguments: a command line without arguments (the
// explorer) builds the root alone, which refuses a terminal-less start
// as the whole tree does.
func TestRootForWithoutArguments(t *testing.T) {
	noTTY := func() bool { return false }
	wo, we := executeTree((&env{isTTY: noTTY}).rootCmd(), []string{})
	po, pe := executeTree((&env{isTTY: noTTY}).rootFor(nil), []string{})
	if we == "" || wo != po || we != pe {
		t.Errorf("dpso without arguments and a terminal:\nwhole tree: %q, error %q\nrootFor: %q, error %q", wo, we, po, pe)
	}
}
