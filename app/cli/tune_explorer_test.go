package cli

import (
	"context"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// TestTuneDefaultsAreTheExplorers: `dpso tune` with a configuration's
// flags alone prints the document of engine.Tune with every default of
// the search and the references on a scenario, off on --data — the search
// the explorer's tuning screen runs for the same form (its reproduce line
// is this command; tui's TestTuneIsTheCLITune checks that side).
func TestTuneDefaultsAreTheExplorers(t *testing.T) {
	atRepoRoot(t)
	for _, c := range []struct {
		name string
		s    spec.Spec
	}{
		{"a scenario", spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, N: 3000, D: 3, Trials: 2}},
		{"the example CSV", spec.Spec{Data: "examples/linreg-t-d3.csv", Class: theory.SmoothSC, Constants: "private", Holdout: 0.2, Rand: "seeded", Seed: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := dpsoCLI(append(append([]string{"tune"}, c.s.Args()...), "--json")...)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errs)
			}
			res, err := c.s.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			rep, err := engine.Tune(context.Background(), res, engine.TuneSpec{References: !res.UserRows()}, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, err := report.MarshalJSON(report.Tune(rep))
			if err != nil {
				t.Fatal(err)
			}
			if out = uncited(out); out != string(want) {
				t.Errorf("dpso tune %v --json:\n%s\nwant engine.Tune's document:\n%s", c.s.Args(), out, want)
			}
		})
	}
}
