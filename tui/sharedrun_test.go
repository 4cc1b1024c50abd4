package tui

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"dpso/internal/statestring"
	"dpso/tui/screens"
)

// TestStateCarriesTheChartsRun: a lecturer's chart with a preset loaded, a
// field changed since and a run drawn — c's comparison with every
// baseline, or r's run (the preset's comparison) — gives a state string
// that names the run; a student's explorer on another preset that opens
// it (the broadcast accepted: OpenState) or starts on it
// (Options.OpenState: dpso explore --state, ssh -- --state) draws the same
// screen: the same caption, the same run of the same solvers, the same
// state. Another screen names no run: it starts its own when shown.
func TestStateCarriesTheChartsRun(t *testing.T) {
	const preset = 3 // preset 4, its focus on k
	for _, c := range []struct {
		key, run string
	}{
		{"c", statestring.CompareKey},
		{"r", statestring.RunKey},
	} {
		t.Run(c.key, func(t *testing.T) {
			lect := newTestModel(t, &fakeRunner{points: 3}, nil, 132, 42)
			_, cmd := lect.Update(OpenPreset(preset))
			pump(t, lect, cmd, func() bool { return settled(lect) && prescReady(lect) })
			formKeys(t, lect, "right")
			keyUntil(t, lect, c.key, func() bool { return doneOf(lect, screens.ChartKind) && lect.run().Spec.Spec.K == lect.form.Spec().K })
			st := lect.State()
			if st.Run != c.run || st.Preset == "" || st.Screen != string(screens.ChartKind) {
				t.Fatalf("the lecturer's state %+v: want run %q on the chart, with its preset", st, c.run)
			}
			parsed, err := statestring.Parse(st.String(), ScreenNames())
			if err != nil || !reflect.DeepEqual(parsed, st) {
				t.Fatalf("the state string reads back as %+v, %v", parsed, err)
			}
			head := func(m *Model) string { return strings.Join(strings.Split(screenText(m), "\n")[:2], "\n") }
			same := func(who string, m *Model) {
				t.Helper()
				if got, want := m.run().Names, lect.run().Names; !slices.Equal(got, want) || m.run().What != lect.run().What {
					t.Errorf("%s draws %s %v; the lecturer %s %v", who, m.run().What, got, lect.run().What, want)
				}
				if got, want := head(m), head(lect); got != want {
					t.Errorf("%s's caption:\n%s\nthe lecturer's:\n%s", who, got, want)
				}
				if !reflect.DeepEqual(m.State(), st) {
					t.Errorf("%s's state %+v, the lecturer's %+v", who, m.State(), st)
				}
			}

			student := newTestModel(t, &fakeRunner{points: 3}, nil, 132, 42)
			_, cmd = student.Update(OpenState(parsed))
			pump(t, student, cmd, func() bool { return doneOf(student, screens.ChartKind) && prescReady(student) })
			same("the student who accepts the broadcast", student)

			opts := testOpts(t, &fakeRunner{points: 3}, 0)
			if err := opts.OpenState(parsed); err != nil {
				t.Fatal(err)
			}
			opened := newTestModelOpts(t, opts, nil, 132, 42)
			pump(t, opened, nil, func() bool { return doneOf(opened, screens.ChartKind) })
			same("an explorer opened on the state", opened)
		})
	}
	m := newTestModel(t, &fakeRunner{points: 3}, nil, 132, 42)
	keyUntil(t, m, "x", func() bool { return doneOf(m, screens.ClipKind) })
	if st := m.State(); st.Run != "" {
		t.Errorf("the clipping screen's state names the run %q: it starts its own when shown", st.Run)
	}
}
