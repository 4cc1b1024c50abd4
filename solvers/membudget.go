package solvers

import (
	"context"
	"runtime"
	"slices"
	"sync"
)

// MaxMaterializedAtOnce is the most memory, in bytes, that all the
// materialized datasets of the multi-pass solvers (klz-gd, localized,
// localized-sc, dp-sgd) and of the engine's non-private reference may take
// together at once in this process, whatever the number of workers. It is
// set to room for one dataset at the largest size that one copy may have
// (MaxMaterializeBytes), so that the largest run still fits alone. The
// engine runs fewer trials at once where their copies would pass it (each
// with more cores inside), and beyond it a copy made elsewhere (another
// call of the same process) waits until one is given back. Results do not depend
// on it (each trial's result lands at its own index), only the wall time
// does.
const MaxMaterializedAtOnce = MaxMaterializeBytes

// collectMin is the released bytes from which an acquire collects first:
// at most this much of released datasets' memory is garbage not yet
// collected when a new copy is reserved.
const collectMin = 64 << 20

// collectFloor is the smallest dataset whose acquire collects as soon as
// as much has been released since the last collection: the new copy then
// reuses a released one's pages instead of faulting in fresh ones (5
// trials of n = 5·10⁴, d = 50, 20 MB each: 21 000 page faults → 11 000,
// peak 97 → 58 MB, 0.72× the CPU). Below it a trial's work is too small
// for a forced collection to pay (40 trials of 1 MiB: 1.24× the CPU).
const collectFloor = 4 << 20

// datasets is the process-wide budget of materialized datasets.
var datasets = newMemBudget(MaxMaterializedAtOnce)

// memBudget is a counting semaphore of bytes whose Acquire waits, with a
// context, until enough are free.
type memBudget struct {
	mu   sync.Mutex
	free int64
	// freed counts the bytes released since the last collection: a
	// released dataset is garbage until the collector runs, so an
	// acquire that follows the release of collectMin bytes or more, or
	// of its own size when that is collectFloor or more, collects first,
	// and the new copy reuses the old ones' memory instead of adding to
	// it (4 trials of a 1.6 GB dataset on 4 workers peaked at 6.3 GB
	// under a 4 GiB budget). Smaller releases are left to the
	// collector's own pacing: a forced collection marks the whole heap,
	// and concurrent ones wait on each other (1000 trials of a 32-row
	// dataset spent 90% of their CPU in them).
	freed int64
	wake  chan struct{} // closed (and replaced) whenever bytes are freed
	// onWait, if set (tests), is called each time acquire is about to
	// wait.
	onWait func()
}

func newMemBudget(total int64) *memBudget {
	return &memBudget{free: total, wake: make(chan struct{})}
}

// acquire takes n bytes, waiting until they are free or ctx is done (then
// it returns ctx's error and takes nothing).
func (b *memBudget) acquire(ctx context.Context, n int64) error {
	for {
		b.mu.Lock()
		if b.free >= n {
			b.free -= n
			collect := b.collects(n)
			b.mu.Unlock()
			if collect {
				runtime.GC() // datasets are pointer-free: cheap to mark
			}
			return nil
		}
		w, hook := b.wake, b.onWait
		b.mu.Unlock()
		if hook != nil {
			hook()
		}
		select {
		case <-w:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// collects reports whether an acquire of n bytes collects first (see
// memBudget.freed), and starts counting the released bytes afresh when
// it does. b.mu is held.
func (b *memBudget) collects(n int64) bool {
	if b.freed >= collectMin || (n >= collectFloor && b.freed >= n) {
		b.freed = 0
		return true
	}
	return false
}

// release gives n bytes back and wakes every waiter.
func (b *memBudget) release(n int64) {
	b.mu.Lock()
	b.free += n
	b.freed += n
	close(b.wake)
	b.wake = make(chan struct{})
	b.mu.Unlock()
}

// LoadDataset is loadDataset for a caller outside the solvers (the
// engine: its non-private reference, which minimizes the empirical risk of
// a trial's draw, and a trial's draw that its solvers share): the same
// reservation under MaxMaterializedAtOnce and the same matrix; release
// gives the memory back.
func LoadDataset(ctx context.Context, data Samples, workers int) (m *Matrix, release func(), err error) {
	return loadDataset(ctx, "the non-private reference", data, workers)
}

// loadDataset is how a multi-pass solver takes its data: the memory is
// reserved under MaxMaterializedAtOnce (reserveDataset, at most that much in
// all trials' copies together), then the data are materialized on up to
// workers goroutines (materialize: the same matrix for any number).
// The caller calls release when its run ends.
func loadDataset(ctx context.Context, solver string, data Samples, workers int) (m *Matrix, release func(), err error) {
	release, err = reserveDataset(ctx, data)
	if err != nil {
		return nil, nil, err
	}
	if m, err = materialize(ctx, solver, data, workers); err != nil {
		release()
		return nil, nil, err
	}
	if _, shared := data.(*Matrix); !shared {
		// The copy is this run's: drop it (and its kept squared norms)
		// when the run ends, so that the collection the next acquire
		// makes frees it (the caller's frame still holds m).
		give := release
		release = func() { putSpare(m.Data); m.Data, m.norms = nil, nil; give() }
	}
	return m, release, nil
}

// reserveDataset reserves the memory that materializing data will take
// (none for a dataset already in memory, a *Matrix, or for one larger
// than MaxMaterializeBytes, which materialize refuses), waiting for it
// under MaxMaterializedAtOnce; the returned function gives it back. A
// multi-pass solver calls it before materialize and the release when its
// run ends.
func reserveDataset(ctx context.Context, data Samples) (func(), error) {
	if _, ok := data.(*Matrix); ok {
		return func() {}, nil
	}
	n := int64(data.Len()) * int64(data.SampleDim()) * 8
	if n > MaxMaterializeBytes || n <= 0 {
		return func() {}, nil
	}
	if err := datasets.acquire(ctx, n); err != nil {
		return nil, err
	}
	var once sync.Once
	return func() { once.Do(func() { datasets.release(n) }) }, nil
}

// spareMax is how many released dataset copies spares keeps.
const spareMax = 4

// spares are released copies of datasets smaller than collectFloor, kept
// for the next copy that fits (datasetFloats): a trial's copy then reuses
// a previous trial's pages instead of faulting in fresh ones, which at
// these sizes the collector does not free in time (collectFloor). They
// hold at most spareMax·collectFloor bytes (16 MiB) beyond what
// MaxMaterializedAtOnce counts.
var spares struct {
	sync.Mutex
	bufs [][]float64
}

// putSpare keeps b, the copy of a dataset its run has released, for the
// next copy that fits, if it is smaller than collectFloor and spares has
// room.
func putSpare(b []float64) {
	if cap(b) == 0 || int64(cap(b))*8 >= collectFloor {
		return
	}
	spares.Lock()
	defer spares.Unlock()
	if len(spares.bufs) < spareMax {
		spares.bufs = append(spares.bufs, b[:0])
	}
}

// datasetFloats is n zeros for a dataset's copy: a spare of capacity n
// or more, cleared, or else MakeFloats' new slice.
func datasetFloats(ctx context.Context, n int) ([]float64, error) {
	if int64(n)*8 < collectFloor {
		spares.Lock()
		var b []float64
		for i, s := range spares.bufs {
			if cap(s) >= n {
				b = s[:n]
				spares.bufs = slices.Delete(spares.bufs, i, i+1)
				break
			}
		}
		spares.Unlock()
		if b != nil {
			clear(b)
			return b, nil
		}
	}
	return MakeFloats(ctx, n)
}

// backgroundAllocFloats is the length from which MakeFloats allocates on a
// goroutine of its own (64 MiB).
const backgroundAllocFloats = 8 << 20

// MakeFloats is make([]float64, n), or ctx's error once ctx is done. A
// slice of backgroundAllocFloats or more is made on a goroutine of its
// own while the caller waits for it or for ctx: the runtime clears a large
// allocation whose address range was used before in one call that
// nothing interrupts, and where a page fault costs tens of microseconds
// (this project's virtual machine) clearing a 400 MB matrix takes about
// a second, which Ctrl-C would otherwise wait for. A slice made after ctx
// was done is garbage.
//
// A slice of hugeMinFloats or more is backed by transparent huge pages
// where Linux allows it (adviseHugePages): one trial of dp-sgd at
// n = 2·10⁶, d = 10 (a 176 MB draw, read at random rows) took 0.84× the
// CPU on one core (median of 9 interleaved pairs, load 19).
func MakeFloats(ctx context.Context, n int) ([]float64, error) {
	if n < backgroundAllocFloats {
		return makeFloats(n), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	made := make(chan []float64, 1)
	go func() { made <- makeFloats(n) }()
	select {
	case s := <-made:
		return s, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// hugeMinFloats is the length from which makeFloats asks for huge pages
// (8 MiB: four 2 MiB pages at least).
const hugeMinFloats = 1 << 20

// makeFloats is make([]float64, n), backed by huge pages from
// hugeMinFloats on.
func makeFloats(n int) []float64 {
	s := make([]float64, n)
	if n >= hugeMinFloats {
		adviseHugePages(s)
	}
	return s
}
