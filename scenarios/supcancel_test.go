package scenarios

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// cancelAfter is a context that reports cancellation from its (n+1)-th
// Err call on: a cancellation that lands inside a computation, at a
// point fixed by the computation's own checks (no clock).
type cancelAfter struct {
	context.Context
	n, calls atomic.Int64
	checks   atomic.Int64 // Err calls that answered Canceled
}

func newCancelAfter(n int64) *cancelAfter {
	c := &cancelAfter{Context: context.Background()}
	c.n.Store(n)
	return c
}

func (c *cancelAfter) Err() error {
	if c.calls.Add(1) > c.n.Load() {
		c.checks.Add(1)
		return context.Canceled
	}
	return nil
}

// TestSupMomentsAnswerCancellation: contaminated's r_3 and γ_3 at d = 4
// take about 4,200 checks of the context, γ_3's a certified search over a
// half circle of W, up to supMaxEvals Monte Carlo moments of 2²⁰ draws
// (64 chunks each). Cancelled after 1,500 checks (inside that search),
// SupMomentsContext returns
// context.Canceled having consulted the context at most once per chunk of
// one more moment per remaining search step (not the whole search again);
// and nothing computed after the cancellation is kept: the value computed
// afterwards with a live context is the same bits as a fresh instance's.
func TestSupMomentsAnswerCancellation(t *testing.T) {
	def := ProblemDef{Scenario: Contaminated, D: 4}
	in := build(t, def)
	ctx := newCancelAfter(1500)
	err := in.SupMomentsContext(ctx, []float64{3})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("SupMomentsContext cancelled: %v, want context.Canceled", err)
	}
	// Each remaining evaluation of the search stops at its first chunk
	// (ParallelSum checks before each chunk, on each core).
	if got, most := ctx.checks.Load(), int64(4*supMaxEvals*cores()); got > most {
		t.Errorf("%d checks answered Canceled, want at most %d (one per core per remaining moment)", got, most)
	}
	t.Logf("%d checks after the cancellation", ctx.checks.Load())
	after, err := in.CoordinateContext(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	fresh := build(t, def).Coordinate(3)
	if after != fresh || after.V != after.V {
		t.Errorf("γ_3 after a cancelled computation %+v, on a fresh instance %+v", after, fresh)
	}
}
