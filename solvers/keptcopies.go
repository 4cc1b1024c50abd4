package solvers

import (
	"runtime"
	"slices"
	"time"
)

// keptMax is how many released copies from collectFloor on a memBudget
// keeps for reuse (memBudget.keep).
const keptMax = 4

// keptIdle is how long a kept copy waits for a next copy before the
// budget drops it (and collects): a call's next trial takes its
// predecessor's copy within milliseconds, and an idle process does not
// hold its last trials' memory.
const keptIdle = 5 * time.Second

// keptCopy is a released dataset copy kept for the next one, with the
// bytes it still holds of the budget.
type keptCopy struct {
	buf   []float64
	bytes int64
}

// keep takes buf, a released copy of collectFloor bytes or more that held
// bytes of the budget, for the next copy that fits (take): its bytes stay
// taken, so that the budget bounds the live copies and the kept ones
// together, and a trial's copy reuses its predecessor's pages instead of
// faulting in fresh ones (a 176 MB draw of preset 1 each trial: the
// kernel's zeroing of fresh pages was 4% of the comparison's CPU, and the
// runtime's clearing of collected ones 1%). The oldest kept copy beyond
// keptMax is dropped, an acquire that finds too few bytes free drops kept
// copies first (oldest first), and all are dropped keptIdle after the
// budget last kept or took one.
func (b *memBudget) keep(buf []float64, bytes int64) {
	b.mu.Lock()
	b.kept = append(b.kept, keptCopy{buf, bytes})
	for len(b.kept) > keptMax {
		b.dropOldest()
	}
	b.wakeAll() // a waiter may now drop what it needs
	b.armIdle()
	b.mu.Unlock()
}

// take returns a kept copy with room for n floats, sliced to n (its
// values are a previous dataset's), and gives its bytes back to the
// budget (the caller's own reservation counts it from now on); nil when
// none fits. Of those that fit it takes the smallest.
func (b *memBudget) take(n int) []float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	best := -1
	for i, k := range b.kept {
		if cap(k.buf) >= n && (best < 0 || cap(k.buf) < cap(b.kept[best].buf)) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	k := b.kept[best]
	b.kept = slices.Delete(b.kept, best, best+1)
	b.free += k.bytes
	b.wakeAll()
	b.armIdle()
	return k.buf[:n]
}

// dropOldest drops the oldest kept copy: its bytes are free, and garbage
// until the next collection (counted in freed, see memBudget.collects).
// b.mu is held.
func (b *memBudget) dropOldest() {
	k := b.kept[0]
	b.kept[0] = keptCopy{}
	b.kept = b.kept[1:]
	b.free += k.bytes
	b.freed += k.bytes
}

// dropIdle drops every kept copy and collects them (keptIdle after the
// last keep or take).
func (b *memBudget) dropIdle() {
	b.mu.Lock()
	dropped := len(b.kept) > 0
	for len(b.kept) > 0 {
		b.dropOldest()
	}
	b.kept = nil
	if dropped {
		b.freed = 0
		b.wakeAll()
	}
	b.mu.Unlock()
	if dropped {
		runtime.GC() // datasets are pointer-free: cheap to mark
	}
}

// armIdle (re)starts the timer that drops the kept copies keptIdle from
// now. b.mu is held.
func (b *memBudget) armIdle() {
	if b.idle == nil {
		b.idle = time.AfterFunc(keptIdle, b.dropIdle)
		return
	}
	b.idle.Reset(keptIdle)
}

// wakeAll wakes every waiter of acquire. b.mu is held.
func (b *memBudget) wakeAll() {
	close(b.wake)
	b.wake = make(chan struct{})
}
