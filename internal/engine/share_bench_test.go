//go:build unix

package engine

import (
	"context"
	"syscall"
	"testing"
	"time"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
)

// BenchmarkOracleShared times one job of the oracle-tuned reference on
// preset 1's problem (linreg-t, k = 4, ν = 20, L_f = 10⁴) at n = 2·10⁵:
// acsa at six clip thresholds with the same T, run together
// (solvers.RunShared) on one materialized draw with its norms kept. The
// metric ns/row-point is the CPU-bound cost of one row in one grid point.
//
//	go test ./internal/engine -run '^$' -bench OracleShared
func BenchmarkOracleShared(b *testing.B) {
	const n = 200_000
	s := spec.Spec{Scenario: scenarios.LinRegT, K: 4, N: n, Tail: 20, Lf: 10_000, Trials: 1}
	r := resolve(b, s)
	in, err := scenarios.Build(context.Background(), r.Problem)
	if err != nil {
		b.Fatal(err)
	}
	m, release, err := solvers.LoadDataset(context.Background(), in.Dataset(r.Rand, r.Spec.Seed, 0), 1)
	if err != nil {
		b.Fatal(err)
	}
	defer release()
	if err := m.WarmSquaredNorms(context.Background(), in.Dim()); err != nil {
		b.Fatal(err)
	}
	acsa, _ := solvers.Lookup("acsa")
	var cfgs []solvers.Config
	for _, c := range []float64{0.5, 1, 2, 4, 8, 16} {
		cfg := r.Config(0, nil)
		cfg.Clip, cfg.Iters = c, 50
		cfgs = append(cfgs, cfg)
	}
	b.Logf("d = %d, stride %d", in.Dim(), m.Dim)
	c0 := cpuSeconds()
	for b.Loop() {
		_, errs := solvers.RunShared(context.Background(), acsa, in, m, cfgs)
		for _, err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric((cpuSeconds()-c0)*1e9/float64(b.N)/float64(n*len(cfgs)), "cpu-ns/row-point")
}

// cpuSeconds is the process's CPU time (user + system) so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
