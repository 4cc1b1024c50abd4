package tui

import (
	"fmt"
	"strings"
	"testing"

	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/tui/common"
	"dpso/tui/screens"
)

// TestTuneClipPanelShowsTheTunedBatch: on the tuning screen the clipping
// panel shows the tuned run's own batch — trial 0's released candidate's,
// the engine's (engine.TunedTrial.Clip): its C (the released C, not the
// prescribed run's), the batch's fraction clipped, its size and whose it
// is — and the whole runs' fractions clipped, mean over the trials, of
// the tuned run and of the prescribed run, all under the rule's
// "non-private diagnostic" and with where the norms were read: the
// draw's training rows on a scenario, the user's rows on theirs (where
// it showed the prescribed run's batch, or on the user's rows none).
func TestTuneClipPanelShowsTheTunedBatch(t *testing.T) {
	s := tuneSpec
	s.Workers = 1
	u := userDataSpec(t)
	u.Workers = 1
	for _, c := range []struct {
		name, where string
		s           *spec.Spec
	}{
		{"scenario", "read from the draw's training rows", &s},
		{"user rows", "read from your rows", &u},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newEngineModel(t, c.s, 132, 42)
			keyUntil(t, m, "g", func() bool { return doneOf(m, screens.TuneKind) })
			rep := m.run().Tune
			ts := rep.Solvers[0]
			tr := ts.Tuned.Trials[0]
			b := tr.Clip.Batch
			if b.Size == 0 || b.Threshold != tr.Candidate.Clip {
				t.Fatalf("trial 0's released candidate reports a batch of %d at C = %v; its C is %v", b.Size, b.Threshold, tr.Candidate.Clip)
			}
			if p := ts.Prescribed; p != nil && p.Params.Clip == b.Threshold {
				t.Fatalf("the prescribed C %v is the tuned one: the test cannot tell their batches apart", p.Params.Clip)
			}
			v := strings.Join(strings.Fields(stripANSI(m.clip.View())), " ")
			want := []string{
				"non-private diagnostic",
				"C = " + common.FmtNum(b.Threshold) + " · " + fmt.Sprintf("%.1f%%", 100*b.ClipFraction()) + " clipped",
				"batch of " + common.FmtInt(int64(b.Size)) + " · " + ts.Solver + " · trial 0 · tuned run (released)",
				"whole runs, mean over " + common.TrialCount(len(ts.Tuned.Trials)) + ": tuned " + report.Percent(ts.Tuned.Clipped) + " clipped",
				"; " + c.where,
			}
			if p := ts.Prescribed; p != nil {
				want = append(want, ", prescribed "+report.Percent(p.Clipped)+"; ")
			}
			for _, w := range want {
				if !strings.Contains(v, w) {
					t.Errorf("the clipping panel does not say %q:\n%s", w, v)
				}
			}
			if strings.Contains(v, "prescribed run") {
				t.Errorf("the clipping panel names the prescribed run's batch:\n%s", v)
			}
		})
	}
}
