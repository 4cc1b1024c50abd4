package engine

import (
	"dpso/solvers"
	"dpso/solvers/oracle"
)

// MinHistBatch is the smallest batch whose statistics replace a larger
// one's as a run's batch to show (ClipSeen.observe): the last phases of
// the localized methods read batches of a few samples, whose histogram
// says nothing.
const MinHistBatch = 32

// ClipSeen is what clipping did in one run: Clipped of Fed per-sample
// gradients changed by clipping (solvers.Result: Clipped/Fed is the
// fraction clipped over the whole run), and Batch the per-sample gradient
// norms of its latest batch worth a histogram (its last checkpoint's,
// unless that batch is under MinHistBatch vectors and an earlier one was
// not), of phase Phase (1-based for multi-phase solvers, else 0); Batch.Size
// is 0 when the run reported none. Both are read from the run's private
// draw outside its mechanism: a non-private diagnostic (on user data,
// computed on the user's rows), not part of any release.
type ClipSeen struct {
	Clipped, Fed int64
	Batch        oracle.BatchStats
	Phase        int
}

// Fraction is Clipped/Fed, NaN when the run fed no clipped mean.
func (c ClipSeen) Fraction() float64 {
	return meanClipped(1, func(int) (int64, int64) { return c.Clipped, c.Fed })
}

// observe keeps cp's batch by ClipSeen's rule (a solvers.Config.Observe).
func (c *ClipSeen) observe(cp solvers.Checkpoint) {
	b := cp.Batch
	if b.Size == 0 || (b.Size < MinHistBatch && c.Batch.Size >= MinHistBatch) {
		return
	}
	c.Batch, c.Phase = b, cp.Phase
}

// seenCheckpoints is the checkpoints a search's candidate reports
// besides its first and last (solvers.Config.Checkpoints): it is
// observed for its batch alone (ClipSeen), and the norms' distribution is
// computed at every checkpoint's oracle call, so as few as the solvers
// allow.
const seenCheckpoints = 1
