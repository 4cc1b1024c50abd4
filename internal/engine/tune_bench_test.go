//go:build unix

package engine

import (
	"context"
	"syscall"
	"testing"
	"time"

	"dpso/internal/spec"
	"dpso/scenarios"
)

// BenchmarkTuneStages times what the tuning screen shows on preset 1
// (linreg-t, k = 4, n = 2·10⁶, ν = 20, L_f = 10⁴, 8 trials, acsa: the
// flags of scripts/bench/presets.sh's "1 g"), from the call's start, as
// wall seconds: the private searches (Searched's first report), the
// prescribed runs (its second), the coarse oracle (Settings.Coarse) and
// the whole grid's reference (Tune's return); and the process's CPU
// seconds at each. One iteration is a whole search (about 40 s of CPU):
//
//	go test ./internal/engine -run '^$' -bench TuneStages -benchtime 1x
func BenchmarkTuneStages(b *testing.B) {
	s := spec.Spec{Scenario: scenarios.LinRegT, K: 4, N: 2_000_000, Tail: 20, Lf: 10_000, Trials: 8}
	r := resolve(b, s)
	cpu := func() float64 {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	}
	names := []string{"private", "prescribed", "coarse", "whole"}
	sums := make([][2]float64, len(names))
	for b.Loop() {
		start, c0 := time.Now(), cpu()
		var at [][2]float64
		mark := func(*TuneReport) { at = append(at, [2]float64{time.Since(start).Seconds(), cpu() - c0}) }
		if _, err := Tune(context.Background(), r, TuneSpec{References: true}, &Settings{Searched: mark, Coarse: mark}); err != nil {
			b.Fatal(err)
		}
		mark(nil)
		if len(at) != len(names) {
			b.Fatalf("%d stages reported, want %d", len(at), len(names))
		}
		for i, a := range at {
			sums[i][0] += a[0]
			sums[i][1] += a[1]
		}
	}
	for i, n := range names {
		b.ReportMetric(sums[i][0]/float64(b.N), n+"-wall-s")
		b.ReportMetric(sums[i][1]/float64(b.N), n+"-cpu-s")
	}
}
