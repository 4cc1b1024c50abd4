package engine

import (
	"math"
	"testing"
)

// TestBestPrivateDifference: the best private run is the smallest mean
// among the tuned and prescribed runs, and the paired difference
// (runner-up minus best, trial by trial) carries its mean, standard error,
// median and quartiles — type-7 quantiles of the differences, computed
// here by hand.
func TestBestPrivateDifference(t *testing.T) {
	tuned := func(xs ...float64) Tuned {
		tr := make([]TunedTrial, len(xs))
		for i, x := range xs {
			tr[i] = TunedTrial{Trial: i, Excess: x}
		}
		return Tuned{Excess: estimate(xs), Trials: tr}
	}
	r := &TuneReport{Solvers: []TuneSolver{
		{Solver: "acsa", Tuned: tuned(0.5, 0.4, 0.9, 0.6, 0.5)},
		{Solver: "dp-sgd", Tuned: tuned(0.1, 0.4, 0.2, 0.6, 0.3)},
	}}
	b, ok := r.BestPrivate()
	if !ok || b.Best.Solver != "dp-sgd" || !b.HasNext || b.Next.Solver != "acsa" {
		t.Fatalf("best %+v, next %+v (ok %v), want dp-sgd then acsa", b.Best, b.Next, ok)
	}
	// The differences 0.4, 0, 0.7, 0, 0.2 sorted: 0, 0, 0.2, 0.4, 0.7;
	// type 7 at h = 4p: Q1 = x₍₁₎ = 0, median x₍₂₎ = 0.2, Q3 x₍₃₎ = 0.4.
	// Mean 0.26; s.e. = √(Σ(x − 0.26)²/4/5) = √(0.352/20).
	want := Estimate{Mean: 0.26, SE: math.Sqrt(0.352 / 20), N: 5, Median: 0.2, Q1: 0, Q3: 0.4}
	d := b.Diff
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"mean", d.Mean, want.Mean}, {"s.e.", d.SE, want.SE}, {"median", d.Median, want.Median},
		{"Q1", d.Q1, want.Q1}, {"Q3", d.Q3, want.Q3},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("difference's %s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if d.N != 5 {
		t.Errorf("difference over %d trials, want 5", d.N)
	}
}
