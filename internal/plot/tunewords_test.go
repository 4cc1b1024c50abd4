package plot

import (
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/theory"
)

// TestTuneFigureNamesWhatItDraws: the tuning figure names its bars as one
// solver's procedures, not as solvers; labels no slot of a run that did
// not happen (references off); and promises no standard error on a
// one-trial bar.
func TestTuneFigureNamesWhatItDraws(t *testing.T) {
	est := func(m, se float64) engine.Estimate { return engine.Estimate{Mean: m, SE: se, N: 8} }
	base := func(trials int, refs bool) *engine.TuneReport {
		ts := engine.TuneSolver{Solver: "acsa", Tuned: engine.Tuned{Excess: est(2.849e-4, 1.2e-4)}}
		if refs {
			ts.Prescribed = &engine.Report{Excess: est(7.825e-5, 1.3e-5)}
			ts.Oracle = &engine.OracleTuned{Excess: est(3.011e-5, 5.9e-6)}
		}
		return &engine.TuneReport{Spec: spec.Spec{Scenario: "linreg-t", Class: theory.SmoothConvex, K: 2, Eps: 1, Trials: trials},
			N: 1000, W0: engine.Estimate{Mean: 0.1389}, Solvers: []engine.TuneSolver{ts}}
	}
	t.Run("references", func(t *testing.T) {
		tr := base(8, true)
		f, err := Tune(tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if n := f.namesNote(); strings.HasPrefix(n, "solvers:") || !strings.Contains(n, "procedures of acsa") {
			t.Errorf("names note %q calls the procedures solvers", n)
		}
	})
	t.Run("user data, one trial", func(t *testing.T) {
		f, err := Tune(base(1, false), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var labels []string
		for _, tk := range f.Plot.X.Tick.Marker.Ticks(f.Plot.X.Min, f.Plot.X.Max) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if len(labels) != 1 || labels[0] != tuneKinds[1].short {
			t.Errorf("x axis slots %q, want only %q", labels, tuneKinds[1].short)
		}
		if l := f.Plot.X.Label.Text; strings.Contains(l, "standard error") && !strings.Contains(l, "no standard error") {
			t.Errorf("x label %q promises a standard error on a one-trial bar", l)
		}
	})
}
