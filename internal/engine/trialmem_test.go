package engine

import (
	"context"
	"fmt"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
)

// TestParallelTrialsBoundedByMemory: trials run as many at once as the
// workers, fewer where their own data would pass
// solvers.MaxMaterializedAtOnce (2 GiB) together. linreg-t at d = 2 draws
// samples of 3 floats: at n = 1000 a trial's copy is 24 kB, made for the
// non-private reference and shared with klz-gd (4 workers, 4 at once); at
// n = 6·10⁷ it is 1.44 GB, which klz-gd materializes: one at a time,
// whatever the workers; acsa streams it, and the reference skips a
// streamed draw past 64 MiB, so nothing is materialized: 4 at once.
func TestParallelTrialsBoundedByMemory(t *testing.T) {
	for _, c := range []struct {
		solver  string
		n       int
		workers int
		want    int
	}{
		{"acsa", 1000, 4, 4},
		{"klz-gd", 1000, 4, 4},
		{"klz-gd", 60_000_000, 4, 1},
		{"klz-gd", 60_000_000, 1, 1},
		{"acsa", 60_000_000, 4, 4},
	} {
		t.Run(fmt.Sprintf("%s n=%d workers=%d", c.solver, c.n, c.workers), func(t *testing.T) {
			s := spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: c.n, Solver: c.solver, Trials: 8}
			if c.solver == "klz-gd" {
				s.Class = "smooth-sc" // klz-gd's class
			}
			r := resolve(t, s)
			u, err := newUnit(context.Background(), r, []string{c.solver}, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := parallelTrials(allJobs([]*unit{u}), c.workers); got != c.want {
				t.Errorf("%s at n = %d, %d workers: %d trials at once (%d bytes each), want %d", c.solver, c.n, c.workers, got, u.trialBytes(), c.want)
			}
		})
	}
}

// TestSolversReadTheReferenceDraw: a multi-pass solver reads the draw the
// non-private reference materialized instead of materializing it again,
// with the same result as on its own: klz-gd's output through the engine
// is the same bits as the solver run directly on the trial's stream.
func TestSolversReadTheReferenceDraw(t *testing.T) {
	s := spec.Spec{Scenario: scenarios.LinRegT, Class: "smooth-sc", D: 3, N: 4000, Solver: "klz-gd", Trials: 2, Seed: 7}
	r := resolve(t, s)
	rep, err := Run(context.Background(), r, nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := newUnit(context.Background(), r, []string{"klz-gd"}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !u.materializes() || rep.Trials[1].ReferenceNote != "" {
		t.Fatalf("klz-gd materializes %v, reference note %q: the case does not share a draw", u.materializes(), rep.Trials[1].ReferenceNote)
	}
	d, _ := solvers.DescriptorOf("klz-gd")
	d = r.Configured(d)
	own, err := d.Solver.Run(context.Background(), u.in, u.in.Dataset(r.Rand, r.Spec.Seed, 1), u.config(0, 1, nil))
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Trials[1].W
	for i := range own.W {
		if got[i] != own.W[i] {
			t.Fatalf("trial 1 through the engine %v, the solver on its own stream %v", got, own.W)
		}
	}
}

// TestSolversShareTheTrialsDraw: where the reference materializes nothing
// (a draw past referenceMaxBytes, lowered here to 0 so that a small n
// reaches that path; user data), a trial whose solvers include a
// multi-pass one materializes its draw once and every solver reads that
// copy. Each solver's trials are the same bits as that solver's run alone,
// where the one-pass solvers stream the draw and klz-gd and dp-sgd
// materialize their own.
func TestSolversShareTheTrialsDraw(t *testing.T) {
	defer func(b float64) { referenceMaxBytes = b }(referenceMaxBytes)
	referenceMaxBytes = 0
	rk, beta := 12.0, 1.5
	for _, s := range []spec.Spec{
		{Scenario: scenarios.LinRegT, Class: "smooth-sc", D: 3, N: 3000, Trials: 2, Seed: 5},
		{Data: "../../examples/linreg-t-d3.csv", Class: "smooth-convex", Rk: rk, Beta: beta, Rand: "seeded", Trials: 2},
	} {
		t.Run(caseName(s), func(t *testing.T) {
			r := resolve(t, s)
			names := []string{paper(r.Spec.Class), "nonprivate-schedule", "klz-gd", "dp-sgd"}
			u, err := newUnit(context.Background(), r, names, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			data := u.in.Dataset(r.Rand, r.Spec.Seed, 0)
			m, release, err := (&pool{}).sharedDraw(context.Background(), u, data, 1)
			if err != nil || m == nil {
				t.Fatalf("the trial shares no draw (%v)", err)
			}
			release()
			cmp, err := Compare(context.Background(), r, names, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, name := range names {
				alone := s
				alone.Solver = name
				rep, err := Run(context.Background(), resolve(t, alone), nil)
				if err != nil {
					t.Fatal(err)
				}
				got := cmp.Reports[i]
				if got.Refused != "" {
					t.Fatalf("%s refused: %s", name, got.Refused)
				}
				for ti := range rep.Trials {
					a, b := rep.Trials[ti], got.Trials[ti]
					if !sameJSON(t, a.W, b.W) || !sameJSON(t, a.Excess, b.Excess) || !sameJSON(t, a.Trace, b.Trace) {
						t.Errorf("%s trial %d: alone w = %v (excess %v), in the comparison %v (%v)", name, ti, a.W, a.Excess, b.W, b.Excess)
					}
				}
			}
		})
	}
}
