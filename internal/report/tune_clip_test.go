package report

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers/accountant"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// TestTuneReportsTunedClipping: `dpso tune`'s JSON and table carry what
// clipping did in the released candidates, the engine's numbers, marked
// as a non-private diagnostic on a scenario's draws and on the user's
// rows alike: tuned.clipped is the engine's mean fraction with
// "private": false and a meaning that says where it was read; each
// trial's clipping is its released candidate's counts, fraction and last
// batch (the released C as threshold, the norms' quantiles); the line
// under the table gives the prescribed and tuned percentages with the
// same words. A grid of C = 0.3 and 0.6 clips a share strictly between 0
// and 1, so no number is the zero a missing report would give.
func TestTuneReportsTunedClipping(t *testing.T) {
	for _, c := range []struct {
		name  string
		s     spec.Spec
		where string
	}{
		{"scenario", spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, D: 3, N: 4000, Trials: 2, Seed: 11}, "each trial's draw"},
		{"user rows", spec.Spec{Data: "../../examples/linreg-t-d3.csv", Class: theory.SmoothSC, Rk: 12, Beta: 1.5, Mu: 0.5, Rand: "seeded", Trials: 2}, "your rows"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.s.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			rep, err := engine.Tune(context.Background(), r, engine.TuneSpec{Solvers: []string{"clipped-sgd"}, References: true, Oracle: engine.OracleNone,
				Repetitions: accountant.Repetitions{Shape: 1, Mean: 3}, Grid: engine.TuneGrid{Clip: []float64{0.3, 0.6}, Step: []float64{0.1}, Iters: []int{20}}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			tu := rep.Solvers[0].Tuned
			if !(tu.Clipped > 0 && tu.Clipped < 1) {
				t.Fatalf("the engine's tuned fraction clipped %v: want strictly between 0 and 1", tu.Clipped)
			}
			raw, err := json.Marshal(Tune(rep))
			if err != nil {
				t.Fatal(err)
			}
			var doc TuneJSON
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			cj := doc.Solvers[0].Tuned.Clipped
			if cj == nil || cj.Value == nil || *cj.Value != tu.Clipped || cj.Private == nil || *cj.Private || !strings.Contains(cj.Meaning, c.where) || !strings.Contains(cj.Meaning, "non-private diagnostic") {
				t.Errorf("tuned.clipped %+v: want the engine's %v, private false, a meaning naming %q", cj, tu.Clipped, c.where)
			}
			for i, tr := range tu.Trials {
				j := doc.Solvers[0].Tuned.Trials[i].Clipping
				if j == nil || j.Private || j.Clipped != tr.Clip.Clipped || j.Fed != tr.Clip.Fed || j.Fraction == nil || *j.Fraction != tr.Clip.Fraction() {
					t.Fatalf("trial %d's clipping %+v, want the engine's %d of %d, private false", i, j, tr.Clip.Clipped, tr.Clip.Fed)
				}
				b := j.Batch
				if b == nil || b.Size != tr.Clip.Batch.Size || b.Threshold == nil || *b.Threshold != tr.Candidate.Clip || len(b.NormQuantiles) != len(oracle.QuantileLevels) {
					t.Fatalf("trial %d's batch %+v: want %d norms at the released C = %v with %d quantiles", i, b, tr.Clip.Batch.Size, tr.Candidate.Clip, len(oracle.QuantileLevels))
				}
				for k, q := range b.NormQuantiles {
					if q == nil || *q != tr.Clip.Batch.Quantiles[k] {
						t.Errorf("trial %d's norm quantile at %v is %v, the engine's %v", i, b.QuantileLevels[k], q, tr.Clip.Batch.Quantiles[k])
					}
				}
			}
			var out bytes.Buffer
			if err := WriteTuneTable(&out, rep, Options{}); err != nil {
				t.Fatal(err)
			}
			want := "clipped (clipped-sgd): prescribed " + Percent(rep.Solvers[0].Prescribed.Clipped) + ", tuned " + Percent(tu.Clipped) + " of per-sample gradients"
			var line string
			for _, l := range strings.Split(out.String(), "\n") {
				if strings.HasPrefix(l, "clipped (") {
					line = l
				}
			}
			if !strings.HasPrefix(line, want) || !strings.Contains(line, c.where) || !strings.Contains(line, "non-private diagnostic") {
				t.Errorf("the table's clipped line %q: want it to start %q and say it was computed on %s, a non-private diagnostic", line, want, c.where)
			}
			if math.IsNaN(rep.Solvers[0].Prescribed.Clipped) {
				t.Error("the prescribed run reports no fraction clipped")
			}
		})
	}
}
