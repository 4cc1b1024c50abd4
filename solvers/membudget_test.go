package solvers

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMemBudget: with room for two datasets a third waits until one is
// released (an event: its acquire returns only after the release), and a
// waiter whose context is cancelled returns its error and takes nothing
// (so --workers × a materialized dataset stays within MaxMaterializedAtOnce).
func TestMemBudget(t *testing.T) {
	b := newMemBudget(200)
	ctx := context.Background()
	if err := b.acquire(ctx, 100); err != nil {
		t.Fatal(err)
	}
	if err := b.acquire(ctx, 100); err != nil {
		t.Fatal(err)
	}
	got := make(chan error)
	waiting := make(chan struct{}, 4)
	b.onWait = func() { waiting <- struct{}{} }
	go func() { got <- b.acquire(ctx, 100) }()
	<-waiting // the third dataset waits: the budget holds two
	b.release(100)
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	// Full again (100 + 100): a cancelled waiter gives up and takes nothing.
	cctx, cancel := context.WithCancel(ctx)
	go func() { got <- b.acquire(cctx, 100) }()
	<-waiting
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled acquire: %v", err)
	}
	b.release(100)
	b.release(100)
	if b.free != 200 {
		t.Errorf("free = %d after releasing everything, want 200", b.free)
	}
}

// TestReserveDataset: a streamed dataset reserves n × SampleDim × 8
// bytes until released; one already in memory reserves nothing.
func TestReserveDataset(t *testing.T) {
	before := datasets.free
	s := &Stream{N: 1000, Dim: 3}
	rel, err := reserveDataset(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if used := before - datasets.free; used != 1000*3*8 {
		t.Errorf("reserved %d bytes, want %d", used, 1000*3*8)
	}
	rel()
	rel() // twice is once
	if datasets.free != before {
		t.Errorf("free %d after release, want %d", datasets.free, before)
	}
	rel, _ = reserveDataset(context.Background(), &Matrix{Data: make([]float64, 30), Dim: 3})
	if datasets.free != before {
		t.Error("a *Matrix reserved memory")
	}
	rel()
}

// TestMemBudgetCollects: an acquire collects first once collectMin bytes
// were released, or once its own size was, for a dataset of collectFloor
// or more (its copy then reuses the released one's pages); a smaller
// dataset leaves the released bytes to the collector's pacing.
func TestMemBudgetCollects(t *testing.T) {
	for _, c := range []struct {
		name      string
		freed, n  int64
		want      bool
		freedThen int64
	}{
		{"nothing released", 0, collectFloor, false, 0},
		{"a large dataset after its size released", collectFloor, collectFloor, true, 0},
		{"a large dataset after less than its size", 3 * collectFloor / 4, collectFloor, false, 3 * collectFloor / 4},
		{"a small dataset after its size released", 1 << 10, 1 << 10, false, 1 << 10},
		{"a small dataset just below the floor", collectFloor - 8, collectFloor - 8, false, collectFloor - 8},
		{"any dataset after collectMin released", collectMin, 8, true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newMemBudget(1 << 40)
			b.freed = c.freed
			if got := b.collects(c.n); got != c.want {
				t.Errorf("collects(%d) after %d released = %v, want %v", c.n, c.freed, got, c.want)
			}
			if b.freed != c.freedThen {
				t.Errorf("released bytes counted afterwards %d, want %d", b.freed, c.freedThen)
			}
		})
	}
}

// TestMakeFloats: a zeroed slice of the length asked, below and at the
// length made on a goroutine of its own; at that length a done context's
// error instead, with nothing made.
func TestMakeFloats(t *testing.T) {
	for _, n := range []int{0, 10, backgroundAllocFloats} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			s, err := MakeFloats(context.Background(), n)
			if err != nil || len(s) != n {
				t.Fatalf("len %d, err %v; want len %d", len(s), err, n)
			}
			for i := 0; i < n; i += 4096 {
				if s[i] != 0 {
					t.Fatalf("s[%d] = %v, want 0", i, s[i])
				}
			}
		})
	}
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if s, err := MakeFloats(ctx, backgroundAllocFloats); !errors.Is(err, context.Canceled) || s != nil {
			t.Errorf("len %d, err %v; want nil and context.Canceled", len(s), err)
		}
	})
}

// TestDatasetSpares: a released copy of a dataset below collectFloor is
// the next copy's memory (same backing array) and holds exactly what a
// fresh copy holds, a smaller copy over a spare's stale values included;
// a copy from collectFloor on is never kept, nor more than spareMax.
func TestDatasetSpares(t *testing.T) {
	spares.Lock()
	spares.bufs = nil
	spares.Unlock()
	draw := func(r *rand.Rand, x []float64) {
		for j := range x {
			x[j] = r.NormFloat64()
		}
	}
	sized := func(n, dim int, seed uint64) *Stream {
		return &Stream{N: n, Dim: dim, Key: dataKey(seed, 0), Draw: draw}
	}
	fresh := func(s *Stream) []float64 {
		out := make([]float64, s.N*s.Dim)
		rd := s.Open()
		for i := range s.N {
			rd.Next(out[i*s.Dim : (i+1)*s.Dim])
		}
		return out
	}
	load := func(s Samples) (*Matrix, func()) {
		t.Helper()
		m, release, err := loadDataset(context.Background(), "test", s, 1)
		if err != nil {
			t.Fatal(err)
		}
		return m, release
	}
	t.Run("a released copy is the next one's memory", func(t *testing.T) {
		a := sized(100, 5, 1)
		m, release := load(a)
		first := &m.Data[0]
		release()
		if m.Data != nil {
			t.Fatal("a released copy is still reachable from its matrix")
		}
		b := sized(90, 5, 2) // smaller: the spare's tail holds a's values
		m2, release2 := load(b)
		defer release2()
		if &m2.Data[0] != first {
			t.Error("the second copy did not reuse the released one")
		}
		if !slices.Equal(m2.Data, fresh(b)) {
			t.Error("the reused copy differs from a fresh one")
		}
	})
	t.Run("a copy from collectFloor on is not kept", func(t *testing.T) {
		dim := 8
		_, release := load(sized(collectFloor/8/dim, dim, 3))
		release()
		spares.Lock()
		defer spares.Unlock()
		for _, s := range spares.bufs {
			if int64(cap(s))*8 >= collectFloor {
				t.Errorf("a spare of %d bytes is kept", cap(s)*8)
			}
		}
	})
	t.Run("at most spareMax are kept", func(t *testing.T) {
		var releases []func()
		for i := range spareMax + 2 {
			_, r := load(sized(10, 3, uint64(10+i)))
			releases = append(releases, r)
		}
		for _, r := range releases {
			r()
		}
		spares.Lock()
		defer spares.Unlock()
		if len(spares.bufs) != spareMax {
			t.Errorf("%d spares kept, want %d", len(spares.bufs), spareMax)
		}
	})
}
