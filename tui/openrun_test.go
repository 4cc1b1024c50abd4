package tui

import (
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/internal/statestring"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// ranOn reports whether the latest run of family is of a Spec with n
// samples, and has ended or is under way: the screen opened asked for it.
func ranOn(m *Model, family runs.ScreenKind, n int) bool {
	r := m.runs.Last(family)
	return r != nil && r.Spec.Spec.N == n
}

// TestOpenStateStartsTheScreenItShows: a state string (an instructor's
// broadcast accepted) whose screen runs on opening — the tuning search,
// the clipping and k sweeps — starts that run on the state's Spec, also
// where the explorer already shows that screen (tune → tune, sweep-k →
// sweep-k) and where it comes from another sweep screen whose Spec's k
// reach is not known (clip → sweep-k): the screen never sits at "ready"
// after opening. Each case has Specs of its own (n), so that no reach of
// the k sweep is known from another case.
func TestOpenStateStartsTheScreenItShows(t *testing.T) {
	base := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, Trials: 2}
	cases := []struct {
		name       string
		from, to   runs.ScreenKind
		fromN, toN int
	}{
		{"tune to tune", screens.TuneKind, screens.TuneKind, 20011, 20013},
		{"sweep-k to sweep-k", screens.SweepKKind, screens.SweepKKind, 20017, 20019},
		{"clip to sweep-k", screens.ClipKind, screens.SweepKKind, 20021, 20023},
		{"tune to clip", screens.TuneKind, screens.ClipKind, 20027, 20029},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			from := base
			from.N = c.fromN
			m := newTestModel(t, &fakeRunner{points: 3}, &from, 120, 32)
			cmd := m.show(m.screenIndex(c.from))
			pump(t, m, cmd, func() bool { return doneOf(m, c.from) && ranOn(m, c.from, c.fromN) })
			st := statestring.State{Spec: base, Screen: string(c.to)}
			st.Spec.N = c.toN
			_, cmd = m.Update(OpenState(st))
			pump(t, m, cmd, func() bool { return ranOn(m, c.to, c.toN) })
			pump(t, m, nil, func() bool { return doneOf(m, c.to) })
			if m.shownKind() != c.to {
				t.Errorf("the explorer shows %s, want %s", m.shownKind(), c.to)
			}
			if v := screenText(m); strings.Contains(v, "○ ready") {
				t.Errorf("the screen opened says ready after its run:\n%s", v)
			}
		})
	}
}
