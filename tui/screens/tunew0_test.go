package screens

import (
	"strings"
	"testing"

	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
)

// TestTuneScreenSaysAboveW0: at n = 200 the theorem's constants leave
// clipped-sgd's prescribed run above F(w₀) − F* by more than 2 s.e.; the
// tuning screen says so in the words dpso run and dpso tune print for the
// same run (report.W0Verdict), and says it of no run below w₀.
func TestTuneScreenSaysAboveW0(t *testing.T) {
	rep := tuneReport(t, spec.Spec{Scenario: scenarios.LinRegT, Class: "smooth-sc", N: 200, D: 3, Trials: 2, Seed: 1})
	ts := rep.Solvers[0]
	if ts.Prescribed == nil {
		t.Fatal("no prescribed run")
	}
	p := ts.Prescribed.Excess
	v := report.W0Verdict(p.Mean, p.SE, rep.W0.Mean)
	if v == "" {
		t.Fatalf("prescribed %g ± %g is not above w₀ %g: the fixture no longer shows the case", p.Mean, p.SE, rep.W0.Mean)
	}
	for _, w := range []int{132, 80} {
		text := tuneWords(rep, w)
		if !strings.Contains(text, "prescribed: "+v) {
			t.Errorf("width %d: the screen lacks %q:\n%s", w, "prescribed: "+v, text)
		}
		if t2 := ts.Tuned.Excess; report.W0Verdict(t2.Mean, t2.SE, rep.W0.Mean) == "" && strings.Contains(text, "tuned: above") {
			t.Errorf("width %d: a tuned run below w₀ is said to be above it:\n%s", w, text)
		}
	}
}
