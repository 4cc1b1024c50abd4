package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTradeOffSweepRefusesPrivateConstants: a clip or k sweep is built
// around the prescribed C, which private constants leave unknown before
// a run; with --constants private it is refused before any row is read,
// naming the flag the user typed and the two ways on — never "run it",
// which cannot help a sweep.
func TestTradeOffSweepRefusesPrivateConstants(t *testing.T) {
	var b strings.Builder
	b.WriteString("a1,a2,y\n")
	for i := range 40 {
		x1, x2 := float64(i%7)-3, float64(i%5)-2
		b.WriteString(strings.Join([]string{strconv.FormatFloat(x1, 'g', -1, 64), strconv.FormatFloat(x2, 'g', -1, 64), strconv.FormatFloat(0.5*x1-x2, 'g', -1, 64)}, ",") + "\n")
	}
	p := filepath.Join(t.TempDir(), "rows.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
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
