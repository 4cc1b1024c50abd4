package cli

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dpso/theory"
)

// citeHelp rewrites the paper's LaTeX labels in every command's help and
// every flag's usage as the paper's PDF numbers them (theory.Cite:
// "Assumption [ass:tilde]" becomes "Assumption 1"), so that what a user
// reads can be looked up in the PDF.
func citeHelp(c *cobra.Command) {
	c.Short, c.Long, c.Example = theory.Cite(c.Short), theory.Cite(c.Long), theory.Cite(c.Example)
	cite := func(f *pflag.Flag) { f.Usage = theory.Cite(f.Usage) }
	c.LocalFlags().VisitAll(cite)
	c.PersistentFlags().VisitAll(cite)
	for _, sub := range c.Commands() {
		citeHelp(sub)
	}
}
