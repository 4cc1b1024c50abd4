package engine

import "dpso/solvers"

// materializes reports whether a solver of u that runs keeps its trial's
// draw in memory (solvers.Descriptor.Materializes on the run's schedule).
func (u *unit) materializes() bool {
	for si, d := range u.solvers {
		if u.refused[si] == "" && d.Materializes(u.run.Schedule) {
			return true
		}
	}
	return false
}

// trialBytes is the memory one trial of u holds of its own while it
// runs: on user data the draw's random subset of the rows
// (scenarios.Instance.TrialMemory), and the draw materialized where
// anything materializes it — a solver that makes many passes, the
// non-private reference on a scenario's draw up to referenceMaxBytes —
// once (they share it; see pool.reference), unless it passes
// solvers.MaxMaterializeBytes, which is never materialized (a solver
// that would need it refuses).
func (u *unit) trialBytes() int64 {
	perm, matrix := u.in.TrialMemory(u.spec.N)
	reference := !u.run.UserRows() && float64(matrix) <= referenceMaxBytes
	if matrix > solvers.MaxMaterializeBytes || !(u.materializes() || reference) {
		matrix = 0
	}
	return perm + matrix
}

// parallelTrials is how many of jobs run at once on workers goroutines:
// workers, fewer where the trials' own data would pass
// solvers.MaxMaterializedAtOnce together (at least one), so that a call's
// memory does not grow with --workers past that budget — the cores
// left over go inside the trials (runUnits), with the same results.
func parallelTrials(jobs []job, workers int) int {
	var most int64
	for _, j := range jobs {
		most = max(most, j.u.trialBytes())
	}
	if most == 0 {
		return workers
	}
	return int(max(1, min(int64(workers), solvers.MaxMaterializedAtOnce/most)))
}
