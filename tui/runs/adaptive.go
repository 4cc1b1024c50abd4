package runs

import (
	"math"
	"slices"

	"dpso/internal/engine"
	"dpso/solvers"
	"dpso/tui/backend"
)

// Adaptive reports whether r runs dp-sgd with adaptive clipping, whose C
// moves from step to step.
func (r *Run) Adaptive() bool {
	return r.Spec.Spec.AdaptiveClip && slices.ContainsFunc(r.Names, Adapts) && r.Kind == backend.Compare
}

// recordClip adds p's threshold to the adaptive C trail (dp-sgd's trial 0;
// a checkpoint repeated at the end replaces the one of the same iteration).
func (r *Run) recordClip(p engine.Progress) {
	c := p.Batch.Threshold
	if !Adapts(p.Solver) || p.Trial != 0 || !(c > 0) || math.IsInf(c, 1) {
		return
	}
	r.ClipIters, r.ClipSolver = p.Iters, p.Solver
	if n := len(r.ClipTrail); n > 0 && r.ClipTrail[n-1].Iter >= p.Iter {
		if r.ClipTrail[n-1].Iter == p.Iter {
			r.ClipTrail[n-1].C = c
		}
		return
	}
	r.ClipTrail = append(r.ClipTrail, ClipPoint{Iter: p.Iter, C: c})
}

// Adapts reports whether the solver named name has adaptive clipping
// among its own settings (its Descriptor's Settings: dp-sgd).
func Adapts(name string) bool {
	d, ok := solvers.DescriptorOf(name)
	return ok && d.Settings.Has(AdaptiveFlag)
}

// AdaptiveFlag is dp-sgd's adaptive clipping: its flag and Spec field,
// one of dp-sgd's own settings (its Descriptor's).
const AdaptiveFlag = "adaptive-clip"
