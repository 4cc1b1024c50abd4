package engine

import (
	"fmt"

	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/theory"
)

// MaxResultBytes bounds the memory a call's results may take: every
// (point, solver, trial) keeps its output w (d numbers) and its trace (one
// point per checkpoint), so --trials × --checkpoints × --d, × the solvers
// and sweep points, is refused up front beyond it rather than exhausting
// memory near the end of a long run. The datasets the multi-pass solvers
// materialize have their own budget (solvers.MaxMaterializedAtOnce).
const MaxResultBytes = 1 << 30

// resultBytes estimates what one (solver, trial) result keeps: w, the
// trace (at most one point per checkpoint or iteration, plus the first and
// the last, 32 bytes each) and a fixed allowance for its notes.
func resultBytes(d, checkpoints, iters int) int64 {
	if checkpoints == 0 {
		checkpoints = solvers.DefaultCheckpoints
	}
	if iters > 0 {
		checkpoints = min(checkpoints, iters)
	}
	return int64(d)*8 + int64(checkpoints+2)*32 + 512
}

// checkResults refuses a call whose units' results would pass
// MaxResultBytes: trials × Σ over units and their solvers of resultBytes.
func checkResults(r spec.Resolved, units []*unit) error {
	var per int64
	jobs := 0
	for _, u := range units {
		for si := range u.solvers {
			per += resultBytes(u.in.Dim(), r.Spec.Checkpoints, u.params[si].Iters)
			jobs++
		}
	}
	total := per * int64(r.Spec.Trials)
	if total <= MaxResultBytes {
		return nil
	}
	cp := r.Spec.Checkpoints
	if cp == 0 {
		cp = solvers.DefaultCheckpoints
	}
	return &spec.SpecError{Field: "trials", Msg: fmt.Sprintf(
		"%s trials × %s solver run(s) each keep w (d = %s numbers) and a trace of up to %s checkpoints: %s GB of results, more than the %d GiB a call may hold; use at most %s trials here (or fewer --checkpoints, solvers or sweep points)",
		theory.FormatCount(r.Spec.Trials), theory.FormatCount(jobs), theory.FormatCount(units[0].in.Dim()), theory.FormatCount(cp), theory.Sig4.Format(float64(total)/1e9), MaxResultBytes>>30, theory.FormatCount(int64(MaxResultBytes)/per))}
}
