package runs

import (
	"fmt"
	"slices"
	"time"

	"dpso/tui/backend"
)

// Active reports whether the run is under way: running or paused.
func (r *Run) Active() bool { return r.Phase == Running || r.Phase == Paused }

// StopText is a stopped run's label, the run as a whole: "stopped after
// 30 s on its CPU slots (15/16 trials done)" ("" unless stopped).
func (r *Run) StopText() string {
	if r.Phase != Stopped {
		return ""
	}
	if r.Total > 0 {
		return fmt.Sprintf("%s (%s done)", r.Stop, r.DoneCount())
	}
	return r.Stop
}

// DoneCount is the run's progress in what Total counts — the engine's
// tasks, one solver over one trial (at one sweep point) each —, saying
// what that is where it is not the form's trials: "3/8 trials" for one
// solver, "35 of 40 runs (5 solvers × 8 trials)" for a comparison, "… (5
// points × 2 solvers × 8 trials)" for a sweep; "" before the engine
// reports a total.
func (r *Run) DoneCount() string {
	t, n := r.Spec.Spec.Trials, r.Total
	if n <= 0 {
		return ""
	}
	if t <= 0 || n == t || n%t != 0 || r.Kind != backend.Compare && r.Kind != backend.Sweep {
		return fmt.Sprintf("%d/%d trial%s", r.TrialsDone, n, plural(n))
	}
	per := n / t // the (point, solver) pairs
	what := fmt.Sprintf("%d solvers", per)
	if p := r.SweepSpec.Points; r.Kind == backend.Sweep && p > 0 && per%p == 0 {
		what = fmt.Sprintf("%d points", p)
		if s := per / p; s > 1 {
			what += fmt.Sprintf(" × %d solvers", s)
		}
	} else if r.Kind == backend.Sweep {
		what = fmt.Sprintf("%d per trial", per)
	}
	return fmt.Sprintf("%d of %d runs (%s × %d trial%s)", r.TrialsDone, n, what, t, plural(t))
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Waiting reports whether the run is under way but holds no CPU slot yet:
// it asks for one, or waits in the queue (Queue).
func (r *Run) Waiting() bool { return r.Phase == Running && r.Queue != nil }

// WhileWaiting is a screen's words for its run's work, doing ("sweeping C
// over …"), said as what comes after the wait while the run waits for a
// CPU slot ("waiting for a CPU slot, then sweeping C over …").
func (r *Run) WhileWaiting(doing string) string {
	if r.Waiting() {
		return "waiting for a CPU slot, then " + doing
	}
	return doing
}

// Elapsed is the run's active time (pauses excluded).
func (r *Run) Elapsed(now time.Time) time.Duration {
	end := now
	switch {
	case r.Phase == Paused:
		end = r.pausedAt
	case !r.Active():
		end = r.end
	}
	return end.Sub(r.start) - r.paused
}

// TotalEvals is the sum of the latest gradient evaluations of every
// (solver, trial, point).
func (r *Run) TotalEvals() int64 {
	var s int64
	for _, e := range r.evals {
		s += e
	}
	return s
}

// FinishedTraces are the traces (trial → gradient evaluations → excess
// risk) of a comparison's trials of solver that reached their last
// checkpoint: what a stopped run has of that solver, each trial whole,
// the trials it was stopped in left out (empty when none finished).
func (r *Run) FinishedTraces(solver string) map[int]map[int64]float64 {
	si := slices.Index(r.Names, solver)
	out := map[int]map[int64]float64{}
	for trial, tr := range r.Traces[solver] {
		if r.finished[[2]int{si, trial}] {
			out[trial] = tr
		}
	}
	return out
}

// ParamSymbol is how the explorer writes a swept parameter: ε for eps,
// C for clip, the name itself for n, d and k.
func ParamSymbol(param string) string {
	if sym, ok := map[string]string{"eps": "ε", "clip": "C"}[param]; ok {
		return sym
	}
	return param
}

// PartialMeansOn is PartialMeans over grid, the sweep's points in the
// engine's order (Progress.Point indexes it): a clipping sweep over the
// engine's default grid carries none in its SweepSpec, which the engine
// fills from the prescribed C.
func (r *Run) PartialMeansOn(si int, grid []float64) (xs, means []float64, counts []int) {
	means, counts = make([]float64, len(grid)), make([]int, len(grid))
	for i := range grid {
		sum := 0.0
		for trial := range r.Spec.Spec.Trials { // in order: the same sum every time
			if v, ok := r.finals[[3]int{si, trial, i}]; ok {
				sum += v
				counts[i]++
			}
		}
		means[i] = sum / float64(max(counts[i], 1))
	}
	return grid, means, counts
}

// SearchedTrials are a search's trials finished so far for solver si
// (engine.Progress.Searched): the measured excess risk of the point each
// one's search released, in trial order — of a stopped search, what it
// released before the stop.
func (r *Run) SearchedTrials(si int) []float64 {
	var xs []float64
	for trial := range r.Spec.Spec.Trials {
		if v, ok := r.finals[[3]int{si, trial, 0}]; ok {
			xs = append(xs, v)
		}
	}
	return xs
}
