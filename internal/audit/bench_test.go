package audit

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"dpso/solvers"
)

// TestDrawAllocates: one audited oracle run (Begin, s Adds, Finish, the
// projection) and one accumulation allocate nothing once warm.
func TestDrawAllocates(t *testing.T) {
	for _, name := range []string{"clip-gaussian", "coordinate", "shuffle-clip", "shuffle-coordinate"} {
		c, kind, err := Config{Oracle: name, Eps: 1, D: 3}.resolve()
		if err != nil {
			t.Fatal(err)
		}
		nb, err := NewNeighbours(name, c.D, c.S, c.Groups)
		if err != nil {
			t.Fatal(err)
		}
		dr, err := newOracleDrawer(name, c.Groups, &nb, c.D, c.S, c.budget(kind, 1))
		if err != nil {
			t.Fatal(err)
		}
		r := solvers.NewRand(solvers.Seeded, 1, 0, "test")
		ts := []float64{-1, 0, 1}
		h := Histogram{Lo: -5, Hi: 5, Bins: histBins}
		var m moments
		cnt := newCounts(len(ts))
		side := 0
		allocs := testing.AllocsPerRun(200, func() {
			x, err := dr.draw(context.Background(), side, 0, r)
			if err != nil {
				t.Fatal(err)
			}
			m.add(x)
			cnt.add(x, ts, &h)
			side = 1 - side
		})
		if allocs != 0 {
			t.Errorf("%s: %g allocations per audited run, want 0", name, allocs)
		}
	}
}

// BenchmarkOracleAuditDefault is `dpso audit` at its defaults
// (clip-gaussian, ε = 1, d = 1, s = 16, 200000 runs per input plus a
// 20000-run pilot each) on all cores.
func BenchmarkOracleAuditDefault(b *testing.B) {
	for b.Loop() {
		if _, err := Oracle(context.Background(), Config{Eps: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOracleAuditWorkers is `dpso audit` at its defaults with its
// progress counted (as the command counts it) on 1, 2, 4, … workers up to
// GOMAXPROCS: the scaling over cores (run it with -cpu to set
// GOMAXPROCS).
func BenchmarkOracleAuditWorkers(b *testing.B) {
	for w := 1; ; w *= 2 {
		w = min(w, runtime.GOMAXPROCS(0))
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			for b.Loop() {
				if _, err := Oracle(context.Background(), Config{Eps: 1, Workers: w, Progress: &Progress{}}); err != nil {
					b.Fatal(err)
				}
			}
		})
		if w == runtime.GOMAXPROCS(0) {
			return
		}
	}
}

// BenchmarkOracleRun is one audited oracle run at the defaults.
func BenchmarkOracleRun(b *testing.B) {
	for _, name := range []string{"clip-gaussian", "coordinate", "shuffle-clip", "shuffle-coordinate"} {
		b.Run(name, func(b *testing.B) {
			c, kind, err := Config{Oracle: name, Eps: 1}.resolve()
			if err != nil {
				b.Fatal(err)
			}
			nb, _ := NewNeighbours(name, c.D, c.S, c.Groups)
			dr, _ := newOracleDrawer(name, c.Groups, &nb, c.D, c.S, c.budget(kind, 1))
			r := solvers.NewRand(solvers.Seeded, 1, 0, "bench")
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := dr.draw(context.Background(), i&1, 0, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
