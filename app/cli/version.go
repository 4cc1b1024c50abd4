package cli

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"dpso/internal/report"
	"dpso/internal/shard"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/theory"
	"dpso/tui/presets"
)

// versionString is what `dpso --version` prints after "dpso": the module
// version (Go writes "(devel)" for a build from a source tree, and so do
// we when no build information exists), the VCS commit the binary was
// built from with its time and whether the tree had uncommitted changes,
// and the Go version — from runtime/debug.ReadBuildInfo, so that nothing
// is claimed that the build did not record.
func versionString(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil {
		return "(devel) · no build information recorded"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	parts := []string{v}
	if rev == "" {
		parts = append(parts, "commit unknown (built without VCS information)")
	} else {
		c := "commit " + rev
		var extra []string
		if at != "" {
			extra = append(extra, at)
		}
		if modified {
			extra = append(extra, "with uncommitted changes")
		}
		if len(extra) > 0 {
			c += " (" + strings.Join(extra, ", ") + ")"
		}
		parts = append(parts, c)
	}
	if bi.GoVersion != "" {
		parts = append(parts, "built with "+bi.GoVersion)
	}
	return strings.Join(parts, " · ")
}

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

// citedVersion is the version line a citation states: that of dpso
// --version. The package's tests fix it (their goldens must not move with
// the toolchain that builds the test binary).
var citedVersion = func() string { return versionString(debug.ReadBuildInfo()) }

// citation is what every JSON document and CSV file of this command
// carries (report.Citation): the version line of `dpso --version`, the
// command line as given (each argument quoted for a POSIX shell), the
// randomness of s with its seed where seeded (random false: the command
// draws nothing, as the privacy conversions), and for user data the
// SHA-256 of the file's bytes.
func (e *env) citation(s spec.Spec, random bool) *report.Citation {
	words := make([]string, 0, len(e.args)+1)
	words = append(words, "dpso")
	for _, a := range e.args {
		words = append(words, spec.ShellQuote(a))
	}
	c := &report.Citation{Version: citedVersion(), Command: strings.Join(words, " ")}
	if random {
		c.Rand, c.Seed = s.Rand, s.Seed
	}
	if s.Data != "" {
		if _, err := os.Stat(s.Data); err == nil {
			if h, err := shard.FileHash(s.Data); err == nil {
				c.DataSHA256 = h
			}
		}
	}
	return c
}
