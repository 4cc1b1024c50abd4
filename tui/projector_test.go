package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/tui/style"
)

// TestShortHelpFitsAndEndsWithHelp: the one-line help fits the terminal
// at 80 and 132 columns, with whole keys only, and always ends with "?
// all keys" and "q quit" (the full help lists the rest).
func TestShortHelpFitsAndEndsWithHelp(t *testing.T) {
	for _, w := range []int{80, 100, 132} {
		m := newTestModel(t, &fakeRunner{points: 3}, &example1, w, 24)
		lines := strings.Split(screenText(m), "\n")
		keys := strings.TrimRight(lines[len(lines)-1], " ")
		if lipgloss.Width(keys) > w || !strings.HasSuffix(keys, "? all keys • q quit") || strings.Contains(keys, "…") {
			t.Errorf("%d columns: the key line %q", w, keys)
		}
	}
}

// TestThemes: T cycles dark, light and high contrast and says which; a
// forced theme ignores the terminal's background; an unknown --theme is
// refused by New.
func TestThemes(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	want := []style.Theme{style.Light, style.HighContrast, style.Dark}
	for _, th := range want {
		keyUntil(t, m, "T", func() bool { return true })
		if m.styles.Theme != th || !strings.Contains(m.status.text, "theme: "+th.String()) {
			t.Errorf("T: theme %v, status %q; want %v", m.styles.Theme, m.status.text, th)
		}
	}
	m.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#ffffff")})
	if m.styles.Theme != style.Dark || !m.styles.Dark {
		t.Errorf("a light background changed the forced dark theme: %v, dark %v", m.styles.Theme, m.styles.Dark)
	}
	opts := testOpts(t, &fakeRunner{points: 3}, time.Millisecond)
	opts.Theme = "high-contrast"
	hc := newTestModelOpts(t, opts, &example1, 80, 24)
	if hc.styles.Theme != style.HighContrast {
		t.Errorf("Options.Theme high-contrast: %v", hc.styles.Theme)
	}
	opts.Theme = "solarized"
	if _, err := New(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "solarized") {
		t.Errorf("an unknown theme: %v", err)
	}
}

// TestLineScrollAndWheel: j and k scroll the theorem panel by a line, the
// mouse wheel by three, pgdn by a page; the help scrolls the same way.
func TestLineScrollAndWheel(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	vp := &m.formula.vp
	keyUntil(t, m, "j", func() bool { return true })
	keyUntil(t, m, "j", func() bool { return true })
	if vp.YOffset() != 2 {
		t.Fatalf("j j: offset %d, want 2", vp.YOffset())
	}
	keyUntil(t, m, "k", func() bool { return true })
	if vp.YOffset() != 1 {
		t.Errorf("k: offset %d, want 1", vp.YOffset())
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if vp.YOffset() != 1+wheelLines {
		t.Errorf("the wheel down: offset %d, want %d", vp.YOffset(), 1+wheelLines)
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if vp.YOffset() != 1 {
		t.Errorf("the wheel up: offset %d, want 1", vp.YOffset())
	}
	keyUntil(t, m, "?", func() bool { return m.overlay == m.help })
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.help.vp.YOffset() != wheelLines {
		t.Errorf("the wheel in the help: offset %d, want %d", m.help.vp.YOffset(), wheelLines)
	}
	if v := m.View(); v.MouseMode != tea.MouseModeCellMotion {
		t.Error("the view does not ask for the mouse wheel")
	}
}

// TestLiveMaxIsSettable: with Options.LiveMax above a run's time, live
// mode repeats it after a change (the default, 2 s, would not: see
// TestLiveModeLeavesLongRunsManual).
func TestLiveMaxIsSettable(t *testing.T) {
	opts := testOpts(t, &fakeRunner{points: 3}, 2*time.Second)
	opts.Manual, opts.LiveMax = false, time.Minute
	m := newTestModelOpts(t, opts, &example1, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().phase == phaseDone })
	if el := m.run().elapsed(m.now()); el < defaultLiveMax || el >= time.Minute {
		t.Fatalf("the run took %v on the test clock, want between %v and a minute", el, defaultLiveMax)
	}
	m.form.SetFocus(fEps)
	_, cmd := m.Update(press("right"))
	pump(t, m, cmd, func() bool { return m.live.gen > 0 && m.live.ticks == m.live.gen && m.run().id == 2 && settled(m) })
	if !m.run().live {
		t.Error("the change did not re-run the run under the raised limit")
	}
}
