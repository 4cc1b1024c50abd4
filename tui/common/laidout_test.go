package common

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"dpso/tui/style"
)

// TestLaidOutPanelLaysOutOnce: the panel's layout runs once for what it
// shows, however many scroll keys move over it and however many times it
// is drawn; again after Invalidate, a new size, a new theme or a new
// background; and scrolling moves the viewport over the same lines.
func TestLaidOutPanelLaysOutOnce(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	km := DefaultKeyMap(nil)
	p := NewLaidOutPanel(Common{Styles: &st, KeyMap: &km})
	p.SetSize(40, 8)
	calls := 0
	layout := func() Layout {
		calls++
		var lines []string
		for i := range 20 {
			lines = append(lines, fmt.Sprintf("line %d of layout %d", i, calls))
		}
		return Layout{Title: "Title", Right: "right", Lines: lines}
	}
	down := tea.KeyPressMsg{Code: 'j', Text: "j"}
	draw := func() string { p.Cache.Invalidate(); return style.StripANSI(p.RenderLaidOut(layout)) }

	first := draw()
	if !strings.Contains(first, "Title") || !strings.Contains(first, "line 0 of layout 1") {
		t.Fatalf("the first view lacks its title or first line:\n%s", first)
	}
	for range 5 {
		p.UpdateLaidOut(down, layout)
		draw()
	}
	if calls != 1 {
		t.Errorf("5 scroll keys and 6 views laid the lines out %d times, want 1", calls)
	}
	if got := draw(); !strings.Contains(got, "line 5 of layout 1") || strings.Contains(got, "line 0 of layout 1") {
		t.Errorf("after 5 presses of j the view is not 5 lines down:\n%s", got)
	}
	if !strings.Contains(draw(), "more lines: j, pgdn") {
		t.Errorf("the view lacks the line that says how to scroll:\n%s", draw())
	}

	for _, tc := range []struct {
		name   string
		change func()
	}{
		{"invalidate", func() { p.Invalidate() }},
		{"a new size", func() { p.SetSize(40, 9) }},
		{"a new width", func() { p.SetSize(41, 9) }},
		{"a new theme", func() {
			*p.Styles = style.NewTheme(style.Light, false, true)
		}},
		{"a new background", func() { p.UpdateLaidOut(tea.BackgroundColorMsg{}, layout) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := calls
			tc.change()
			draw()
			p.UpdateLaidOut(down, layout)
			draw()
			if calls != before+1 {
				t.Errorf("laid out %d times after %s, want 1", calls-before, tc.name)
			}
		})
	}
}
