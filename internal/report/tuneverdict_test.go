package report

import (
	"math"
	"strings"
	"testing"

	"dpso/internal/engine"
)

// tuneSolverOf is a TuneSolver whose tuned, prescribed and oracle-tuned
// runs have these per-trial excess risks (nil: that run is absent).
func tuneSolverOf(tuned, prescribed, oracle []float64) engine.TuneSolver {
	est := func(xs []float64) engine.Estimate { return engine.Paired(xs, make([]float64, len(xs))) }
	ts := engine.TuneSolver{Solver: "clipped-sgd", Tuned: engine.Tuned{Excess: est(tuned)}}
	for i, x := range tuned {
		ts.Tuned.Trials = append(ts.Tuned.Trials, engine.TunedTrial{Trial: i, Excess: x})
	}
	if prescribed != nil {
		ts.Prescribed = &engine.Report{Excess: est(prescribed)}
		for i, x := range prescribed {
			ts.Prescribed.Trials = append(ts.Prescribed.Trials, engine.TrialResult{Trial: i, Excess: x})
		}
	}
	if oracle != nil {
		ts.Oracle = &engine.OracleTuned{Excess: est(oracle), Trials: oracle}
	}
	return ts
}

// TestTuneSolverVerdict: the tuning's verdict names its test — the paired
// difference over the same draws at 2 s.e., dpso tune's — and judges by
// it: runs that move together across trials differ clearly even where
// independent means overlap within 3 s.e.; a ratio that reads 1 is "level
// with", never "1× above";
// one trial has no standard error to test by; its ratios have 3
// significant digits wherever it is printed (dpso tune printed 4 where
// the tuning screen printed 3).
func TestTuneSolverVerdict(t *testing.T) {
	cases := []struct {
		name                      string
		tuned, prescribed, oracle []float64
		want                      []string
		not                       []string
	}{
		{"paired clear where the means overlap", []float64{1, 2, 3, 4}, []float64{1.5, 2.5, 3.5, 4.5}, nil,
			[]string{"paired test over the same 4 draws at 2 s.e.", "1.2× below prescribed (clear)"}, []string{"no clear"}},
		{"paired within 2 s.e.", []float64{1, 2, 3, 4}, []float64{1.5, 1.9, 3.6, 3.9}, []float64{0.5, 1, 1.5, 2},
			[]string{"below prescribed (within 2 s.e.: no clear difference)", "2× above oracle-tuned (clear)"}, nil},
		{"a ratio of 1", []float64{0.0299, 0.0299, 0.0299}, []float64{0.02991, 0.02989, 0.0299}, nil,
			[]string{"level with prescribed (within 2 s.e.: no clear difference)"}, []string{"1× above", "1× below"}},
		{"3 significant digits, the explorer's", []float64{1, 1, 1}, []float64{2.8765, 2.8765, 2.8765}, nil,
			[]string{"2.88× below prescribed (clear)"}, []string{"2.877", "2.876"}},
		{"one trial", []float64{0.1}, []float64{0.3}, nil,
			[]string{"one trial (no standard error to test a gap by)", "3× below prescribed"}, []string{"clear"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := TuneSolverVerdict(tuneSolverOf(c.tuned, c.prescribed, c.oracle), "oracle-tuned")
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			for _, w := range c.not {
				if strings.Contains(got, w) {
					t.Errorf("%q says %q", got, w)
				}
			}
		})
	}
}

// TestW0TuneVerdict: a tuning's run below F(w₀) − F* by less than 2 s.e.
// is no better than doing nothing by its trials, as one above it is; one
// clearly below is not flagged.
func TestW0TuneVerdict(t *testing.T) {
	for _, c := range []struct {
		mean, se, w0 float64
		want         string
	}{
		{0.029906, 4.5e-6, 0.029907, "below F(w₀) − F* by less than 2 s.e.: no better than doing nothing"},
		{0.2, 0.1, 0.18, "no better than doing nothing"},
		{0.1, 0.01, 0.18, ""},
		{0.645, math.NaN(), 0.177, "above F(w₀) − F* in its one trial: no better than doing nothing there"},
	} {
		got := W0TuneVerdict(c.mean, c.se, c.w0)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("W0TuneVerdict(%g, %g, %g) = %q, want %q", c.mean, c.se, c.w0, got, c.want)
		}
	}
}
