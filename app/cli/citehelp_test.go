package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"dpso/theory"
)

// TestHelpCitesThePDF: the help texts are cited only when one is shown,
// so every way of showing one must cite: `--help`, `-h`, `dpso help …`
// and the shell's completion descriptions print no label of the paper's
// LaTeX source ("Theorem [thm: convex ACSA one pass]") but the PDF's
// number ("Theorem 9"). The tree as built has labels in its texts (else
// this test could not fail).
func TestHelpCitesThePDF(t *testing.T) {
	raw := (&env{}).rootCmd()
	var labelled []*cobra.Command
	VisitCommands(raw, func(c *cobra.Command) {
		if c.Hidden || strings.HasPrefix(c.Name(), "__") || c.Name() == "completion" || c.Name() == "help" {
			return
		}
		if theory.CiteFirst(c.Long) != "" || theory.Cite(c.Long) != c.Long {
			labelled = append(labelled, c)
		}
	})
	if len(labelled) == 0 {
		t.Fatal("no command's help cites the paper: nothing to test")
	}
	// Every way of showing a labelled command's help, and the shell's
	// completions of every command's flags (their usages) and of the
	// commands themselves (their Short texts).
	var invocations [][]string
	for _, c := range labelled {
		path := strings.Fields(c.CommandPath())[1:]
		invocations = append(invocations,
			append(append([]string{}, path...), "--help"),
			append(append([]string{}, path...), "-h"),
			append([]string{"help"}, path...))
	}
	invocations = append(invocations, []string{cobra.ShellCompRequestCmd, ""})
	VisitCommands(raw, func(c *cobra.Command) {
		if c.Runnable() && c.HasAvailableFlags() {
			invocations = append(invocations, append(append([]string{cobra.ShellCompRequestCmd}, strings.Fields(c.CommandPath())[1:]...), "--"))
		}
	})
	for _, args := range invocations {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errb := execTheoryCLI(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			if cited := theory.Cite(out); cited != out {
				t.Errorf("dpso %s shows a label of the paper's source:\n%s", strings.Join(args, " "), firstDiff(out, cited))
			}
		})
	}
}

// firstDiff is the line of a where a and b first differ, and b's.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return la[i] + "\n  cited: " + lb[i]
		}
	}
	return "(lengths differ)"
}
