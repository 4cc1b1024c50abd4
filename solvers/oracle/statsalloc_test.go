package oracle

import (
	"runtime"
	"testing"

	"dpso/solvers/ledger"
)

// TestStatsRoomFitsTheBatch: a fresh oracle's call on a batch of s rows
// makes room for the ⌈s/stride⌉ norms it keeps for the quantiles, not for
// NormSampleCap (an audit builds thousands of oracles for batches of a few
// rows): Begin of a fresh clip-gaussian at d = 2, s = 8 allocates under
// 1 KiB a call (room for NormSampleCap norms is 16 KiB); and every call
// still keeps ⌈s/stride⌉ norms, stride = ⌈s/NormSampleCap⌉, at s = 8, at
// NormSampleCap·2 (exactly NormSampleCap) and at 5000 (stride 3: 1667),
// one oracle reused from the smallest batch to the largest.
func TestStatsRoomFitsTheBatch(t *testing.T) {
	const n = 64
	os := make([]*ClipGaussian, n)
	for i := range os {
		os[i] = &ClipGaussian{}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, o := range os {
		if err := o.Begin(2, 8, 1, ledger.Cost{Rho: 1}); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 1024 {
		t.Errorf("Begin at s = 8 allocates %d bytes a fresh oracle, want under 1024", per)
	}
	o := os[0]
	for _, c := range []struct{ s, kept int }{{8, 8}, {2 * NormSampleCap, NormSampleCap}, {5000, 1667}} {
		if err := o.Begin(2, c.s, 1, ledger.Cost{Rho: 1}); err != nil {
			t.Fatal(err)
		}
		for i := range c.s {
			o.Add([]float64{float64(i%7) + 0.5, 1})
		}
		if got := len(o.stats.sample); got != c.kept {
			t.Errorf("s = %d: %d norms kept, want %d", c.s, got, c.kept)
		}
	}
}
