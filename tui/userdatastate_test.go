package tui

import (
	"strings"
	"testing"
	"time"

	"dpso/internal/statestring"
	"dpso/tui/runs"
)

// TestStateOnUserRowsRunsNothing: a state string of a screen on the
// user's rows (dpso explore --state S, S copied with y on --data) opens
// its screen and runs nothing — neither the run it names (r's, c's) nor
// the sweep or search its screen starts when shown —, since every run on
// the rows is a new release of them; the status says that r runs it, a
// release that composes with the earlier ones this explorer cannot see.
// A state string of a scenario still starts its run.
func TestStateOnUserRowsRunsNothing(t *testing.T) {
	rows := userDataSpec(t)
	for _, sc := range ScreenNames() {
		for _, run := range []string{"", statestring.RunKey, statestring.CompareKey} {
			t.Run(sc+"/"+run, func(t *testing.T) {
				st := statestring.State{Spec: rows, Screen: sc, Run: run}
				opts := testOpts(t, &fakeRunner{points: 3}, 100*time.Millisecond)
				if err := opts.OpenState(st); err != nil {
					t.Fatal(err)
				}
				m := newTestModelOpts(t, opts, nil, 132, 42)
				if got := m.shownKind(); got != runs.ScreenKind(sc) {
					t.Fatalf("opened on %s, want %s", got, sc)
				}
				if r := m.run(); r != nil {
					t.Fatalf("opening the state string started run #%d (%s) on the user's rows without a key", r.ID, r.What)
				}
				for _, want := range []string{"nothing ran", "r runs it", "new release of the rows", "composes with every earlier release"} {
					if !strings.Contains(m.status.Text, want) {
						t.Fatalf("status %q does not say %q", m.status.Text, want)
					}
				}
			})
		}
	}
	t.Run("a scenario's run starts", func(t *testing.T) {
		opts := testOpts(t, &fakeRunner{points: 3}, 100*time.Millisecond)
		if err := opts.OpenState(statestring.State{Spec: example1, Screen: "chart", Run: statestring.RunKey}); err != nil {
			t.Fatal(err)
		}
		if m := newTestModelOpts(t, opts, nil, 132, 42); m.run() == nil {
			t.Fatal("a scenario's state string naming r's run started none")
		}
	})
}
