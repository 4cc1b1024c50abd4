package cli

import (
	"strconv"

	"github.com/spf13/cobra"

	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/theory"
	"dpso/tui/presets"
)

// registerCompletions gives the shells' completion (dpso completion
// bash|zsh|fish|powershell) the values of the flags that take a name, and
// file or folder completion for the flags that take a path. The values
// are registered only when the command line is a completion request
// (cobra's __complete, which the shells' scripts run): cobra keeps every
// flag given a completion function in a package-level map for the life of
// the process, so a process that runs Main many times (the tests) would
// keep every command tree it ever built.
func registerCompletions(cmd *cobra.Command, completing bool) {
	classes := make([]string, len(theory.Classes))
	for i, c := range theory.Classes {
		classes[i] = string(c)
	}
	losses := make([]string, len(scenarios.Losses))
	for i, l := range scenarios.Losses {
		losses[i] = string(l)
	}
	presetNames := make([]string, len(presets.All))
	for i, p := range presets.All {
		presetNames[i] = strconv.Itoa(i+1) + "\t" + p.Title
	}
	values := map[string][]string{
		"scenario": scenarios.ScenarioNames(),
		"class":    classes,
		"solver":   solvers.Names(),
		"solvers":  solvers.Names(),
		"oracle":   oracle.Names(),
		"loss":     losses,
		"rand":     {"seeded", "secure"},
		"vary":     {"n", "eps", "d", "clip", "k"},
		"preset":   presetNames,
		"canary":   {"first", "last"},
	}
	for name, vs := range values {
		if !completing || cmd.Flags().Lookup(name) == nil {
			continue
		}
		cmd.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return vs, cobra.ShellCompDirectiveNoFileComp
		})
	}
	for name, ext := range map[string][]string{"data": {"csv"}, "plot": {"png", "svg"}} {
		if cmd.Flags().Lookup(name) != nil {
			cmd.MarkFlagFilename(name, ext...)
		}
	}
	if cmd.Flags().Lookup("out") != nil {
		if cmd.Name() == "sweep" { // a shard's results file
			cmd.MarkFlagFilename("out", "json")
		} else {
			cmd.MarkFlagDirname("out")
		}
	}
}
