package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestNoTTY: without a terminal, dpso with no arguments does not open the
// explorer: one line on stderr points to the headless subcommands, exit 2.
func TestNoTTY(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main(nil, strings.NewReader(""), &stdout, &stderr)
	if code != 2 {
		t.Errorf("exit status %d, want 2", code)
	}
	msg := stderr.String()
	if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "dpso run, sweep, tune, bounds, privacy, moments, audit, list") {
		t.Errorf("stderr %q, want one line naming the headless subcommands", msg)
	}
	// Every headless subcommand is named (audit was missing), so that the
	// line cannot fall behind the command list.
	for _, c := range (&env{stdout: &stdout, stderr: &stderr}).rootCmd().Commands() {
		switch name := c.Name(); name {
		case "explore", "help", "completion", "serve":
		default:
			if !strings.Contains(msg, " "+name+",") && !strings.Contains(msg, " "+name+" (") {
				t.Errorf("stderr %q does not name the subcommand %s", msg, name)
			}
		}
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q, want nothing", stdout.String())
	}
}
