package runs

import (
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/backend"
)

// TestDoneCountSaysWhatItCounts: the engine's total counts one solver
// over one trial (at one sweep point) each, so a comparison's 35 of 40
// is runs — 5 solvers × 8 trials —, never "35/40 trials" beside a chart
// legend that says "7/8 trials"; one solver's count is its trials.
func TestDoneCountSaysWhatItCounts(t *testing.T) {
	run := func(kind backend.Kind, trials, points, done, total int) *Run {
		r := &Run{TrialsDone: done, Total: total}
		r.Kind = kind
		r.Spec = spec.Resolved{Spec: spec.Spec{Trials: trials}}
		r.SweepSpec = engine.SweepSpec{Points: points}
		return r
	}
	for _, tc := range []struct {
		name string
		r    *Run
		want string
	}{
		{"one solver", run(backend.Compare, 8, 0, 3, 8), "3/8 trials"},
		{"one trial", run(backend.Compare, 1, 0, 0, 1), "0/1 trial"},
		{"comparison", run(backend.Compare, 8, 0, 35, 40), "35 of 40 runs (5 solvers × 8 trials)"},
		{"sweep, one solver", run(backend.Sweep, 8, 5, 12, 40), "12 of 40 runs (5 points × 8 trials)"},
		{"sweep, two solvers", run(backend.Sweep, 8, 5, 12, 80), "12 of 80 runs (5 points × 2 solvers × 8 trials)"},
		{"sweep, points unknown", run(backend.Sweep, 3, 0, 9, 9), "9 of 9 runs (3 per trial × 3 trials)"},
		{"comparison, one trial", run(backend.Compare, 1, 0, 4, 4), "4 of 4 runs (4 solvers × 1 trial)"},
		{"no total yet", run(backend.Compare, 8, 0, 0, 0), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.DoneCount(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
