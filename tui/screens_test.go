package tui

import (
	"dpso/tui/common"
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/screens"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// TestScreenRegistry walks the registry: every screen has its own kind and
// its own keys (none taken by the root, the form or another screen), the
// chart first and without a key; pressed, its key shows it, and from it
// returns to the chart; shown, it fits the terminal at 80×24 and 132×42,
// r starts a job of the family it draws (or says why there is none), and
// its reproduce line is a dpso command.
func TestScreenRegistry(t *testing.T) {
	if screens.Registry[0].Kind != screens.ChartKind || screens.Registry[0].Key.Enabled() {
		t.Fatalf("the first screen is %q (key %v), want the chart, without a key", screens.Registry[0].Kind, screens.Registry[0].Key.Keys())
	}
	km := common.DefaultKeyMap(screens.Registry)
	taken := map[string]string{}
	for _, b := range []key.Binding{km.Run, km.Pause, km.Live, km.Next, km.Prev, km.Up, km.Down, km.Left, km.Right,
		km.Compare, km.Presets, km.Export, km.Help, km.Quit, km.Back, km.Panel, km.PageUp, km.PageDown, km.Type} {
		for _, k := range b.Keys() {
			taken[k] = "the root's " + b.Help().Desc
		}
	}
	kinds := map[runs.ScreenKind]bool{}
	for _, d := range screens.Registry {
		if kinds[d.Kind] || d.Kind == "" {
			t.Errorf("screen kind %q is empty or not unique", d.Kind)
		}
		kinds[d.Kind] = true
		for _, b := range append([]key.Binding{d.Key}, d.Keys...) {
			for _, k := range b.Keys() {
				if who, ok := taken[k]; ok {
					t.Errorf("screen %s: key %q is also %s", d.Kind, k, who)
				}
				taken[k] = string(d.Kind)
			}
		}
		if (d.Short != "") != (d.Place != common.HelpNone) {
			t.Errorf("screen %s: one-line help word %q at place %d", d.Kind, d.Short, d.Place)
		}
	}
	for _, d := range screens.Registry {
		t.Run(string(d.Kind), func(t *testing.T) {
			if !kinds[d.Family()] {
				t.Errorf("screen %s draws the runs of %q, not a screen of the registry", d.Kind, d.Family())
			}
		})
	}

	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	for i, d := range screens.Registry[1:] {
		t.Run(string(d.Kind), func(t *testing.T) {
			keyUntil(t, m, d.Key.Keys()[0], func() bool { return m.shownKind() == d.Kind })
			pump(t, m, nil, func() bool { r := m.run(); return r == nil || !r.Active() || settled(m) })
			for _, sz := range [][2]int{{80, 24}, {132, 42}} {
				m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
				checkFits(t, m.render(), sz[0], sz[1])
			}
			s := m.screens[i+1].screen
			if j, why := s.Job(m.form.Resolved()); why == "" && j.Family != d.Family() {
				t.Errorf("r on %s makes a job of family %q, want %q", d.Kind, j.Family, d.Family())
			}
			if line := m.status.Reproduce(); !strings.HasPrefix(line, "dpso ") {
				t.Errorf("reproduce line on %s: %q", d.Kind, line)
			}
			keyUntil(t, m, d.Key.Keys()[0], func() bool { return m.active == 0 })
		})
	}
}

// TestEscReturnsToTheScreenBefore: esc goes back the way the user came
// (a screen's key pressed on it, too); loading a preset forgets the runs
// of the configuration before, so that after preset 8's sweep, m then esc
// is the sweep again and the chart draws no run of another configuration.
func TestEscReturnsToTheScreenBefore(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
	hard, _ := presets.Index("hard instance")
	pump(t, m, m.loadPreset(hard, true), func() bool { return doneOf(m, screens.SweepNKind) })
	if cs := m.chartScreen(); cs.Run != nil {
		t.Errorf("after loading preset 8 the chart still holds run #%d of %s", cs.Run.ID, cs.Run.Spec.Spec.Scenario)
	}
	for _, step := range []struct {
		key  string
		want runs.ScreenKind
	}{{"m", screens.MomentsKind}, {"esc", screens.SweepNKind}, {"x", screens.ClipKind}, {"v", screens.SweepEpsKind}, {"esc", screens.ClipKind}, {"x", screens.SweepNKind}, {"esc", screens.ChartKind}, {"esc", screens.ChartKind}} {
		keyUntil(t, m, step.key, func() bool { return true })
		if got := m.shownKind(); got != step.want {
			t.Fatalf("after %s: screen %s, want %s", step.key, got, step.want)
		}
	}
}
