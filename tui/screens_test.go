package tui

import (
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
	if screenRegistry[0].kind != chartKind || screenRegistry[0].key.Enabled() {
		t.Fatalf("the first screen is %q (key %v), want the chart, without a key", screenRegistry[0].kind, screenRegistry[0].key.Keys())
	}
	km := defaultKeyMap(screenRegistry)
	taken := map[string]string{}
	for _, b := range []key.Binding{km.Run, km.Pause, km.Live, km.Next, km.Prev, km.Up, km.Down, km.Left, km.Right,
		km.Compare, km.Presets, km.Export, km.Help, km.Quit, km.Back, km.Panel, km.PageUp, km.PageDown, km.Type} {
		for _, k := range b.Keys() {
			taken[k] = "the root's " + b.Help().Desc
		}
	}
	kinds := map[screenKind]bool{}
	for _, d := range screenRegistry {
		if kinds[d.kind] || d.kind == "" {
			t.Errorf("screen kind %q is empty or not unique", d.kind)
		}
		kinds[d.kind] = true
		for _, b := range append([]key.Binding{d.key}, d.keys...) {
			for _, k := range b.Keys() {
				if who, ok := taken[k]; ok {
					t.Errorf("screen %s: key %q is also %s", d.kind, k, who)
				}
				taken[k] = string(d.kind)
			}
		}
		if (d.short != "") != (d.place != helpNone) {
			t.Errorf("screen %s: one-line help word %q at place %d", d.kind, d.short, d.place)
		}
	}
	for _, d := range screenRegistry {
		t.Run(string(d.kind), func(t *testing.T) {
			if !kinds[d.family()] {
				t.Errorf("screen %s draws the runs of %q, not a screen of the registry", d.kind, d.family())
			}
		})
	}

	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	for i, d := range screenRegistry[1:] {
		t.Run(string(d.kind), func(t *testing.T) {
			keyUntil(t, m, d.key.Keys()[0], func() bool { return m.shownKind() == d.kind })
			pump(t, m, nil, func() bool { r := m.run(); return r == nil || !r.active() || settled(m) })
			for _, sz := range [][2]int{{80, 24}, {132, 42}} {
				m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
				checkFits(t, m.render(), sz[0], sz[1])
			}
			s := m.screens[i+1].screen
			if j, why := s.Job(m.form.Resolved()); why == "" && j.family != d.family() {
				t.Errorf("r on %s makes a job of family %q, want %q", d.kind, j.family, d.family())
			}
			if line := m.status.reproduce(); !strings.HasPrefix(line, "dpso ") {
				t.Errorf("reproduce line on %s: %q", d.kind, line)
			}
			keyUntil(t, m, d.key.Keys()[0], func() bool { return m.active == 0 })
		})
	}
}

// TestEscReturnsToTheScreenBefore: esc goes back the way the user came
// (a screen's key pressed on it, too); loading a preset forgets the runs
// of the configuration before, so that after preset 8's sweep, m then esc
// is the sweep again and the chart draws no run of another configuration.
func TestEscReturnsToTheScreenBefore(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone })
	hard, _ := PresetIndex("hard instance")
	pump(t, m, m.loadPreset(hard, true), func() bool { return doneOf(m, sweepNKind) })
	if cs := m.chartScreen(); cs.run != nil {
		t.Errorf("after loading preset 8 the chart still holds run #%d of %s", cs.run.id, cs.run.Spec.Spec.Scenario)
	}
	for _, step := range []struct {
		key  string
		want screenKind
	}{{"m", momentsKind}, {"esc", sweepNKind}, {"x", clipKind}, {"v", sweepEpsKind}, {"esc", clipKind}, {"x", sweepNKind}, {"esc", chartKind}, {"esc", chartKind}} {
		keyUntil(t, m, step.key, func() bool { return true })
		if got := m.shownKind(); got != step.want {
			t.Fatalf("after %s: screen %s, want %s", step.key, got, step.want)
		}
	}
}
