package cli

import (
	"dpso/internal/report"
	"dpso/internal/spec"

	"github.com/spf13/cobra"
)

func newListCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the scenarios (with their classes and tail parameters), classes, solvers and oracles",
		Long: `list prints the catalogue: every scenario with its loss, supported classes (the
first is the default), tail parameter and other adjustable parameters (each a
flag of dpso run, with its default and allowed range) and the defaults a run
uses for n, k, d and D (per class where they differ); the loss classes with the
paper's algorithm for each; the solvers; and the mean oracles with their privacy
model.

JSON (fields below): a scenario parameter has the keys of tail, lambda1 and
lambda2, which are null where the scenario has none; diam is null where the
proof sets it; n and k are those a run of the default class uses, and defaults
gives them for each class, with why a default moved.`,
		Example: `  dpso list
  dpso list --json`,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (its fields below)")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		l := report.List()
		if asJSON {
			return report.WriteCitedJSON(e.stdout, l, e.citation(spec.Spec{}, false))
		}
		return report.WriteList(e.stdout, l)
	}
	return cmd
}
