package solvers

import "dpso/solvers/oracle"

// callMemo replays the oracle calls of a problem whose per-sample gradient
// does not depend on w ([AffineLoss]). Such a call over rows [lo, hi) of
// the run's materialized dataset with clip parameter c feeds its oracle
// the same vectors, in the same order and split into the same pieces,
// whatever the iterate: a full-batch method (localized's phases, klz-gd)
// that calls it again on the same batch would recompute the same clipped
// sums. The runner saves the oracle's state after such a call
// (oracle.Memoizer) and, when the next call has the same rows and c, loads
// it in place of the pass: the release, its fresh noise drawn from the
// run's stream as always, the batch statistics, the ledger's charges and
// the count of gradient evaluations are those of the pass, bit for bit;
// only the time of the pass and the progress pulses inside it are saved.
type callMemo struct {
	o      oracle.Memoizer
	lo, hi int
	clip   float64
	state  oracle.Memo
	valid  bool
}

// newCallMemo is the memo of a run of p with oracle o, or nil when p's
// gradient depends on w or o cannot save its state.
func newCallMemo(p Problem, o oracle.Oracle) *callMemo {
	a, ok := p.(AffineLoss)
	if !ok || !a.AffineInW() {
		return nil
	}
	mz, ok := o.(oracle.Memoizer)
	if !ok {
		return nil
	}
	return &callMemo{o: mz}
}

// replay loads the saved state into the call just begun on the rows
// [lo, hi) of the materialized dataset with clip parameter c, when the
// memo holds that call's, and reports whether it did.
func (r *runner) replay(lo, hi int, c float64) (bool, error) {
	mm := r.memo
	if mm == nil || r.src.m == nil || !mm.valid || mm.lo != lo || mm.hi != hi || mm.clip != c {
		return false, nil
	}
	if err := r.ctx.Err(); err != nil {
		return false, err
	}
	return mm.o.Load(&mm.state), nil
}

// remember saves the state of the call just fed on the rows [lo, hi) of
// the materialized dataset with clip parameter c.
func (r *runner) remember(lo, hi int, c float64) {
	mm := r.memo
	if mm == nil || r.src.m == nil {
		return
	}
	mm.o.Save(&mm.state)
	mm.lo, mm.hi, mm.clip, mm.valid = lo, hi, c, true
}
