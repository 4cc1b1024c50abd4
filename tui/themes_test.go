package tui

import (
	"context"
	"dpso/tui/style"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// TestThemes: T cycles dark, light and high contrast and says which; a
// forced theme ignores the terminal's background; an unknown --theme is
// refused by New.
func TestThemes(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	want := []style.Theme{style.Light, style.HighContrast, style.Dark}
	for _, th := range want {
		keyUntil(t, m, "T", func() bool { return true })
		if m.styles.Theme != th || !strings.Contains(m.status.Text, "theme: "+th.String()) {
			t.Errorf("T: theme %v, status %q; want %v", m.styles.Theme, m.status.Text, th)
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
