package audit

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"dpso/solvers"
)

// countdownCtx is a context whose Err is nil for its first n calls and
// context.Canceled after: a cancellation that lands at a known check,
// with no clock.
type countdownCtx struct {
	context.Context
	n atomic.Int64
}

func (c *countdownCtx) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func (c *countdownCtx) Done() <-chan struct{} { return nil }

func (c *countdownCtx) Deadline() (time.Time, bool) { return time.Time{}, false }

// TestOracleCallStopsMidway: one oracle call on a batch too large to wait
// for (the audit's --s 10⁶ at --d 10⁴ takes seconds a call) checks its
// context while it adds rows, so Ctrl-C stops it within the call.
func TestOracleCallStopsMidway(t *testing.T) {
	const d, s = 1000, 200_000 // a check every 10⁴ rows: 20 checks a call
	nb, err := NewNeighbours("clip-gaussian", d, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	dr, err := newOracleDrawer("clip-gaussian", 0, &nb, d, s, (Config{Eps: 1}).budget(0, 1))
	if err != nil {
		t.Fatal(err)
	}
	ctx := &countdownCtx{Context: context.Background()}
	ctx.n.Store(3) // the 4th check, in the middle of the call
	_, err = dr.call(ctx, nb.D0, dr.cost, solvers.NewRand(solvers.Seeded, 1, 0, "test"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled from inside the call", err)
	}
	if left := ctx.n.Load(); left != -1 {
		t.Errorf("the call went on %d checks past the cancellation", -1-left)
	}
}

// TestNeighboursShareRows: the neighbouring batches hold a few distinct
// rows whatever s (s = 10⁶ at d = 10⁴ held 2·10¹⁰ floats), and D0 and D1
// differ only in the canary's row.
func TestNeighboursShareRows(t *testing.T) {
	for _, name := range []string{"clip-gaussian", "shuffle-clip", "coordinate", "shuffle-coordinate"} {
		t.Run(name, func(t *testing.T) {
			nb, err := NewNeighbours(name, 50, 10_000, 0)
			if err != nil {
				t.Fatal(err)
			}
			distinct := map[*float64]bool{}
			differ := 0
			for i := range nb.D0 {
				distinct[&nb.D0[i][0]] = true
				distinct[&nb.D1[i][0]] = true
				if &nb.D0[i][0] != &nb.D1[i][0] {
					differ++
				}
			}
			if len(distinct) > 5 || differ != 1 {
				t.Errorf("%d distinct rows (want ≤ 5), %d rows differ between D0 and D1 (want 1)", len(distinct), differ)
			}
		})
	}
}

// TestProgressCountsEveryRun: Progress knows the audit's total before
// its first run and ends at it.
func TestProgressCountsEveryRun(t *testing.T) {
	p := &Progress{}
	_, err := Oracle(context.Background(), Config{Oracle: "clip-gaussian", Eps: 1, D: 2, S: 10, Trials: 3000, Seed: 1, Rand: solvers.Seeded, Workers: 2, Progress: p})
	if err != nil {
		t.Fatal(err)
	}
	done, total := p.Runs()
	if want := 2 * (2000 + 3000); total != want || done != total {
		t.Errorf("Runs() = %d, %d; want %d of %d", done, total, want, want)
	}
}
