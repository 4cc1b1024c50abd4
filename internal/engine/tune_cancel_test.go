package engine

import (
	"context"
	"errors"
	"testing"

	"dpso/scenarios"
	"dpso/theory"
)

// TestGridForStopsWhenCancelled: a cancelled search's grid stops between
// points with the context's error, which the trial returns as a
// cancellation rather than as the solver's refusal (prescribing every
// point of dp-sgd's default grid is seconds of accounting on real data).
func TestGridForStopsWhenCancelled(t *testing.T) {
	for _, solver := range []string{"acsa", "dp-sgd"} {
		t.Run(solver, func(t *testing.T) {
			s := tuneSpec
			s.Solver, s.Class = solver, theory.SmoothConvex
			r := resolve(t, s)
			ts, ds, err := resolveTune(r, TuneSpec{})
			if err != nil {
				t.Fatal(err)
			}
			in, err := scenarios.Build(context.Background(), r.Problem)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			cfg := r.Config(0, nil)
			cfg.Context = ctx
			grid, _, err := gridFor(ts.Grid, in, ds[0], r.Problem.N, cfg, nil)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("gridFor with a cancelled context: %d points, error %v; want context.Canceled", len(grid), err)
			}
		})
	}
}
