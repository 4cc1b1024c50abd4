package tui

import (
	"strings"
	"testing"

	"dpso/tui/common"
	"dpso/tui/screens"
)

// TestTuneClipPanelNamesItsRun: on the tuning screen the clipping panel
// says whose batch it shows. In a search only the prescribed reference
// reports its batches (the candidates and the oracle's grid points
// report none), so the batch is the prescribed run's: the panel says so
// beside a threshold equal to the prescribed run's C — where it read
// "C = 788 · 0.0% clipped … clipped-sgd · trial 4 · run #1" beside a
// tuned C = 0.927 and an oracle C = 3.71, with no word of which. On the
// user's rows, where no prescribed run is made beside the search, it
// says the search shows no batch, where it went back to "C: no
// prescription … run to see each batch's …" after a run was made.
func TestTuneClipPanelNamesItsRun(t *testing.T) {
	s := tuneSpec
	s.Workers = 1
	m := newEngineModel(t, &s, 132, 42)
	keyUntil(t, m, "g", func() bool { return doneOf(m, screens.TuneKind) })
	r := m.run()
	pres := r.Tune.Solvers[0].Prescribed
	if !r.HaveHist || pres == nil {
		t.Fatalf("the search has no batch (%v) or no prescribed run", r.HaveHist)
	}
	if r.Hist.Threshold != pres.Params.Clip {
		t.Fatalf("the search's batch has C = %v, not the prescribed run's %v: the panel's label would be false", r.Hist.Threshold, pres.Params.Clip)
	}
	v := strings.Join(strings.Fields(stripANSI(m.clip.View())), " ")
	for _, want := range []string{"C = " + common.FmtNum(pres.Params.Clip), "prescribed run"} {
		if !strings.Contains(v, want) {
			t.Errorf("the clipping panel does not say %q:\n%s", want, v)
		}
	}

	u := userDataSpec(t)
	u.Workers = 1
	m = newEngineModel(t, &u, 132, 42)
	keyUntil(t, m, "g", func() bool { return doneOf(m, screens.TuneKind) })
	if m.run().HaveHist {
		t.Fatal("a search on the user's rows has a batch: the panel would show it")
	}
	v = strings.Join(strings.Fields(stripANSI(m.clip.View())), " ")
	if want := "the search: no batch shown"; !strings.Contains(v, want) || strings.Contains(v, "run to see") {
		t.Errorf("on the user's rows the clipping panel does not say %q, or asks for a run made:\n%s", want, v)
	}
}
