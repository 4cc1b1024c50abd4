package plot

import (
	"context"
	"sync"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// clipSweep is the clipping sweep of linreg-t (smooth-sc, d = 3,
// n = 3000, 2 trials) over the engine's default grid, run once for the
// tests that read its figure (none changes it).
var clipSweep = sync.OnceValues(func() (*engine.SweepReport, error) {
	rs, err := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, D: 3, N: 3000, Trials: 2}.Resolve()
	if err != nil {
		return nil, err
	}
	return engine.Sweep(context.Background(), rs, engine.SweepSpec{Param: spec.SweepClip}, nil)
})

// clipSweepReport is clipSweep's report, failing t where it failed.
func clipSweepReport(t *testing.T) *engine.SweepReport {
	t.Helper()
	rep, err := clipSweep()
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
