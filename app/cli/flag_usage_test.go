package cli

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestFlagUsageIsOneEntry: every flag's usage is its own short text, not a
// paragraph of its command's long help. `dpso moments --json` once read
// "print For the non-smooth classes it also shows …": a help paragraph
// pasted into the flag's usage. A usage has no blank line and does not
// repeat a sentence of its command's Long text.
func TestFlagUsageIsOneEntry(t *testing.T) {
	cmds := (&env{}).rootCmd().Commands()
	if len(cmds) < 8 {
		t.Fatalf("only %d commands", len(cmds))
	}
	for _, c := range cmds {
		t.Run(c.Name(), func(t *testing.T) {
			c.Flags().VisitAll(func(f *pflag.Flag) {
				if strings.Contains(f.Usage, "\n\n") {
					t.Errorf("dpso %s --%s: usage has a blank line: %q", c.Name(), f.Name, f.Usage)
				}
				for _, line := range strings.Split(f.Usage, "\n") {
					if len(line) > 40 && strings.Contains(c.Long, line) {
						t.Errorf("dpso %s --%s: usage repeats the command's help: %q", c.Name(), f.Name, line)
					}
				}
			})
		})
	}
}
