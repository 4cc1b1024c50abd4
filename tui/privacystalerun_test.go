package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/tui/common"
	"dpso/tui/components/privacy"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// TestStalePrivacyPanelIsTheRunsStatements: once the form's parameters
// change after a finished run (no r), the privacy panel states that
// run's statements — line for line what it stated while the run was the
// form's, between the tag "run #N's: parameters changed since" and the
// form's "next run (r):" — read from the run (its Spec, its reports),
// not from the form's prescription. A run of the non-private baseline
// keeps "NOT PRIVATE … non-private baseline" and no ρ; it read "ρ = ε²/2
// … zCDP" as soon as the form's prescription, of another Spec, came in.
func TestStalePrivacyPanelIsTheRunsStatements(t *testing.T) {
	for _, tc := range []struct {
		name    string
		solver  string
		compare bool
		want    string // a statement of the run the stale panel keeps
	}{
		{"the non-private baseline", solvers.NonPrivateScheduleName, false, "NOT PRIVATE: nonprivate-schedule is the non-private baseline (no clipping, no noise)"},
		{"the paper's solver", "", false, "zCDP"},
		{"a comparison", "", true, "(ε', δ=10⁻⁵)-DP of each solver:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp := example1
			sp.Solver = tc.solver
			m := newTestModel(t, &fakeRunner{points: 3}, &sp, 132, 42)
			if tc.compare {
				pump(t, m, m.start(screens.VersusJob([]string{"lipschitz-dpsgd"}), false), func() bool { return settled(m) })
				keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Compare })
			} else {
				keyUntil(t, m, "r", func() bool { return settled(m) })
			}
			run := m.run()
			p := privacy.New(m.Common)
			p.SetSize(46, 80)
			show := func(res spec.Resolved) []string {
				t.Helper()
				pr, err := engine.Prescribe(context.Background(), res)
				if err != nil {
					t.Fatal(err)
				}
				p.Update(common.SpecMsg{Spec: res})
				p.Update(runs.PrescriptionMsg{Spec: res, Key: runs.PrescKey(res), Prescription: pr})
				p.Update(runs.Event{Run: run})
				var out []string
				for _, l := range strings.Split(stripANSI(p.View()), "\n") {
					if l = strings.TrimSpace(l); l != "" {
						out = append(out, l)
					}
				}
				return out
			}
			drawn := show(run.Spec)
			if !strings.Contains(strings.Join(drawn, " "), tc.want) {
				t.Fatalf("the run's panel does not say %q:\n%s", tc.want, strings.Join(drawn, "\n"))
			}
			next := run.Spec.Spec.Clone()
			next.N *= 2
			res, err := next.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			stale := show(res)
			tag := fmt.Sprintf("run #%d's: parameters changed since (r runs them)", run.ID)
			i := 1
			for i < len(stale) && strings.Contains(tag, stale[i]) {
				i++
			}
			j := i
			for j < len(stale) && !strings.HasPrefix(stale[j], "next run (r):") {
				j++
			}
			got := append([]string{stale[0]}, stale[i:j]...)
			if i == 1 || j == len(stale) || strings.Join(got, "\n") != strings.Join(drawn, "\n") {
				t.Errorf("the stale panel is not the run's statements, tagged, then the next run's:\nstale:\n%s\n\nthe run's:\n%s", strings.Join(stale, "\n"), strings.Join(drawn, "\n"))
			}
		})
	}
}
