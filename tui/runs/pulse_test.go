package runs

import (
	"testing"

	"dpso/internal/engine"
	"dpso/tui/backend"
)

// A pulse (engine.Progress.Pulse, from inside an oracle call) moves the
// run's gradient evaluations, which the status bar's rate reads, and
// nothing the iterate owns: no trace point, no latest progress, no
// histogram; a late pulse never moves the evaluations back.
func TestPulsesMoveOnlyTheEvaluations(t *testing.T) {
	r := &Run{Job: Job{Call: backend.Call{Names: []string{"acsa"}}}, Traces: map[string]map[int]map[int64]float64{}, evals: map[[3]int]int64{}}
	r.apply(ProgressMsg{Batch: []engine.Progress{
		{Solver: "acsa", Trial: 0, Iters: 1, Excess: 0.5, Total: 1},
		{Solver: "acsa", Trial: 0, GradEvals: 4_000_000, Planned: 100_000_000, Pulse: true, Total: 1},
		{Solver: "acsa", Trial: 0, GradEvals: 3_000_000, Planned: 100_000_000, Pulse: true, Total: 1},
	}})
	if got := r.TotalEvals(); got != 4_000_000 {
		t.Errorf("evaluations %d after the pulses, want 4·10⁶", got)
	}
	if tr := r.Traces["acsa"][0]; len(tr) != 1 || tr[0] != 0.5 {
		t.Errorf("trace %v, want the checkpoint's point only", tr)
	}
	if r.Latest.Pulse || r.Latest.Excess != 0.5 || r.Iter != [2]int{0, 1} {
		t.Errorf("latest progress %+v, iteration %v: want the checkpoint's", r.Latest, r.Iter)
	}
}
