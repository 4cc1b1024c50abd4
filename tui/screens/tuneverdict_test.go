package screens

import (
	"strings"
	"testing"

	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
)

// TestTuneScreenVerdictIsDpsoTunes: the tuning screen's verdict on the
// tuned run is report.TuneSolverVerdict's — the paired difference over
// the same draws at 2 s.e., the test dpso tune prints — and it names that
// test; no verdict by independent means ("within 3 s.e.") is left on the
// screen.
func TestTuneScreenVerdictIsDpsoTunes(t *testing.T) {
	rep := tuneReport(t, spec.Spec{Scenario: scenarios.LinRegT, Class: "smooth-sc", N: 200, D: 3, Trials: 3, Seed: 1})
	want := report.TuneSolverVerdict(rep.Solvers[0], "oracle-tuned")
	if !strings.Contains(want, "paired test over the same 3 draws at 2 s.e.") {
		t.Fatalf("the verdict does not name its test: %q", want)
	}
	for _, w := range []int{132, 80} {
		text := tuneWords(rep, w)
		if !strings.Contains(text, want) || strings.Contains(text, "3 s.e.") {
			t.Errorf("width %d: the screen's verdict is not dpso tune's %q:\n%s", w, want, text)
		}
	}
}
