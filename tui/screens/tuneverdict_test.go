package screens

import (
	"context"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/tui/common"
	"dpso/tui/style"
)

// TestTuneScreenVerdictIsDpsoTunes: the tuning screen's verdict on the
// tuned run is report.TuneSolverVerdict's — the paired difference over
// the same draws at 2 s.e., the test dpso tune prints — and it names that
// test; no verdict by independent means ("within 3 s.e.") is left on the
// screen.
func TestTuneScreenVerdictIsDpsoTunes(t *testing.T) {
	res := mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, Class: "smooth-sc", N: 200, D: 3, Trials: 3, Seed: 1})
	tj, why := tuneJob(res)
	if why != "" {
		t.Fatal(why)
	}
	rep, err := engine.Tune(context.Background(), res, tj.TuneSpec, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := report.TuneSolverVerdict(rep.Solvers[0], "oracle-tuned", common.FmtNum)
	if !strings.Contains(want, "paired test over the same 3 draws at 2 s.e.") {
		t.Fatalf("the verdict does not name its test: %q", want)
	}
	for _, w := range []int{132, 80} {
		st := style.NewTheme(style.Dark, true, true)
		var lines []string
		for _, sec := range tuneSections(&st, rep, nil, w, w < 100) {
			lines = append(lines, sec.Lines...)
		}
		text := strings.Join(strings.Fields(stripANSI(strings.Join(lines, " "))), " ")
		if !strings.Contains(text, want) || strings.Contains(text, "3 s.e.") {
			t.Errorf("width %d: the screen's verdict is not dpso tune's %q:\n%s", w, want, text)
		}
	}
}
