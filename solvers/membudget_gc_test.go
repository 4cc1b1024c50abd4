package solvers

import (
	"context"
	"runtime"
	"testing"
)

// TestBudgetCollectsReleasedCopies: an acquire after the release of
// collectMin bytes runs a collection first (the released dataset is
// garbage until then, and a new copy would add to it: 4 trials of a
// 1.6 GB dataset on 4 workers peaked at 6.3 GB under the 4 GiB budget,
// 3.2 GB with it).
func TestBudgetCollectsReleasedCopies(t *testing.T) {
	b := newMemBudget(2 * collectMin)
	gcs := func() uint32 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.NumGC
	}
	ctx := context.Background()
	if err := b.acquire(ctx, collectMin); err != nil {
		t.Fatal(err)
	}
	b.release(collectMin)
	before := gcs()
	if err := b.acquire(ctx, collectMin); err != nil {
		t.Fatal(err)
	}
	if gcs() == before {
		t.Error("the acquire after a release did not collect")
	}
}
