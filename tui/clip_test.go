package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/presets"
	"dpso/tui/runs"
)

// dpsgd is the solver with adaptive clipping.
const dpsgd = "dp-sgd"

// TestAdaptiveClipTrail: a dp-sgd run with adaptive
// clipping draws C over the steps on the clipping panel — trial 0's
// checkpoints' thresholds (the fake's 2·0.7^j) —, from its prescribed C₀
// to the last C, beside the C the paper's solver (acsa) is prescribed at
// the same Spec; without adaptive clipping nothing of it appears.
func TestAdaptiveClipTrail(t *testing.T) {
	const points = 6
	for _, adaptive := range []bool{false, true} {
		t.Run(fmt.Sprintf("adaptive=%v", adaptive), func(t *testing.T) {
			s := example1
			s.Solver, s.AdaptiveClip = dpsgd, adaptive
			m := newTestModel(t, &fakeRunner{points: points}, &s, 132, 42)
			keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
			v := stripANSI(m.clip.View())
			if !adaptive {
				if strings.Contains(v, "adaptive C") || len(m.run().ClipTrail) != 0 {
					t.Errorf("without adaptive clipping the panel shows a C trajectory:\n%s", v)
				}
				return
			}
			trail := m.run().ClipTrail
			if len(trail) != points+1 {
				t.Fatalf("%d points on the trail, want %d (one a checkpoint): %v", len(trail), points+1, trail)
			}
			for j, p := range trail {
				if want := fakeThreshold(dpsgd, s, j); p.Iter != j || p.C != want {
					t.Errorf("trail point %d: %+v, want iteration %d, C %g", j, p, j, want)
				}
			}
			paper := example1
			paperRes, err := backend.Resolve(paper)
			if err != nil {
				t.Fatal(err)
			}
			pp, err := engine.Prescribe(context.Background(), paperRes)
			if err != nil {
				t.Fatal(err)
			}
			last := fakeThreshold(dpsgd, s, points)
			for _, want := range []string{
				"adaptive C, 6 steps, dp-sgd trial 0 (log scale)",
				// The fake's reports prescribe C = 2.
				"prescribed C₀ 2 → last C " + common.FmtNum(last),
				"paper's C " + common.FmtNum(pp.Params.Clip) + " (" + pp.Solver + ")",
				common.FmtNum(2), common.FmtNum(last), // the sparkline's labels: its largest and smallest C
			} {
				if !strings.Contains(strings.Join(strings.Fields(v), " "), want) {
					t.Errorf("the clipping panel lacks %q:\n%s", want, v)
				}
			}
			if !strings.ContainsAny(v, "▁▂▃▄▅▆▇") {
				t.Errorf("no sparkline on the clipping panel:\n%s", v)
			}
			golden(t, "clip-adaptive-46x13", m.clip.View())
		})
	}
}

// TestClipPanelStaysWithItsRun: the clipping panel
// forgets the previous run's batches when a preset that runs nothing is
// loaded, and for a multi-phase solver names the phase of its batch, as
// the theorem panel names the phase of its batch and C.
func TestClipPanelStaysWithItsRun(t *testing.T) {
	sp := spec.Spec{Scenario: scenarios.AffineHard, Class: theory.NonsmoothConvex, K: 2, N: 10000, Trials: 2}
	m := newTestModel(t, &fakeRunner{points: 5}, &sp, 132, 42)
	if v := stripANSI(m.clip.View()); !strings.Contains(v, "C₁ = ") || !strings.Contains(v, "(prescribed, phase 1 of ") {
		t.Errorf("the prescribed C of a multi-phase solver does not name its phase:\n%s", v)
	}
	if v := stripANSI(m.formula.View()); !strings.Contains(v, "phase 1: batch ") {
		t.Errorf("the theorem's solver line does not name the phase of its batch:\n%s", v)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
	if v := stripANSI(m.clip.View()); !strings.Contains(v, "phase 3: C = 2") || !strings.Contains(v, "batch of 100 · localized · trial 1 · phase 3") {
		t.Errorf("the clipping panel does not name the phase of its batch:\n%s", v)
	}
	i := 0
	for ; i < len(presets.All) && !strings.HasPrefix(presets.All[i].Action, "none"); i++ {
	}
	keyUntil(t, m, "p", func() bool { return m.overlay != nil })
	cur, _ := m.presets.Selected()
	for range i - cur {
		m.Update(press("down"))
	}
	keyUntil(t, m, "enter", func() bool { return m.head.Title() == presets.All[i].Title && prescReady(m) })
	if v := stripANSI(m.clip.View()); strings.Contains(v, "latest batch") || strings.Contains(v, "localized · trial") || !strings.Contains(v, "prescribed") {
		t.Errorf("the clipping panel kept the previous run after loading %q:\n%s", presets.All[i].Title, v)
	}
	if m.run() != nil {
		t.Errorf("a preset that runs nothing left run #%d", m.run().ID)
	}
}
