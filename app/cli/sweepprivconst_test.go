package cli

import (
	"strings"
	"testing"

	"dpso/internal/testutil/userrows"
)

// TestTradeOffSweepRefusesPrivateConstants: a clip or k sweep is built
// around the prescribed C, which private constants leave unknown before
// a run; with --constants private it is refused before any row is read,
// naming the flag the user typed and the two ways on — never "run it",
// which cannot help a sweep.
func TestTradeOffSweepRefusesPrivateConstants(t *testing.T) {
	p := userrows.Write(t, "rows.csv", 40, func(i int) []float64 {
		x1, x2 := float64(i%7)-3, float64(i%5)-2
		return []float64{x1, x2, 0.5*x1 - x2}
	})
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"clip", []string{"--vary", "clip"}},
		{"k", []string{"--vary", "k", "--from", "2", "--to", "8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := dpsoCLI(append([]string{"sweep", "--data", p, "--constants", "private"}, tc.args...)...)
			if code != 2 || out != "" {
				t.Fatalf("status %d, stdout %.200q; want 2 and nothing", code, out)
			}
			want := "dpso: --constants: a " + tc.name + " sweep is built around the prescribed C"
			if !strings.HasPrefix(errs, want) || !strings.Contains(errs, "--estimate-constants (NOT private)") || strings.Contains(errs, "run it") || strings.Count(errs, "\n") != 1 {
				t.Errorf("stderr %q; want one line starting %q, naming --estimate-constants and never 'run it'", errs, want)
			}
		})
	}
}
