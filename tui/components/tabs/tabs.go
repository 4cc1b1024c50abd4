package tabs

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dpso/tui/common"
	"dpso/tui/style"
)

// Model is the compact layout's side panel: one of the screen's
// companion panel (theorem or slopes), the privacy panel and the clipping
// panel at a time, chosen with t. Its title line is the tab bar, in the
// place of the panel's own title.
type Model struct {
	common.Common
	titles []string
	panels []common.Component
	cur    int
	w, h   int
}

// New returns the tabs over panels, titled titles.
func New(c common.Common, titles []string, panels []common.Component) *Model {
	return &Model{Common: c, titles: titles, panels: panels}
}

// SetFirst replaces the first tab (the screen's companion panel).
func (t *Model) SetFirst(title string, c common.Component) {
	t.titles[0], t.panels[0] = title, c
	c.SetSize(t.w, t.h)
}

// Current is the panel shown.
func (t *Model) Current() common.Component { return t.panels[t.cur] }

// Index is the tab shown.
func (t *Model) Index() int { return t.cur }

// Select shows tab i.
func (t *Model) Select(i int) { t.cur = i }

// Tabs are the tabs' titles and panels, in their order.
func (t *Model) Tabs() ([]string, []common.Component) { return t.titles, t.panels }

// SetSize sets the size of the tabs and of every panel.
func (t *Model) SetSize(w, h int) {
	t.w, t.h = w, h
	for _, p := range t.panels {
		p.SetSize(w, h)
	}
}

// ShortHelp is the tabs' key.
func (t *Model) ShortHelp() []key.Binding { return []key.Binding{t.KeyMap.Panel} }

// Update switches tabs on t and passes the scroll keys to the panel shown.
func (t *Model) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return t, nil
	}
	switch {
	case key.Matches(k, t.KeyMap.Panel):
		t.cur = (t.cur + 1) % len(t.panels)
	case key.Matches(k, t.KeyMap.PageUp, t.KeyMap.PageDown, t.KeyMap.LineUp, t.KeyMap.LineDown):
		var cmd tea.Cmd
		t.panels[t.cur], cmd = t.panels[t.cur].Update(k)
		return t, cmd
	}
	return t, nil
}

// View renders the tab bar over the panel shown (its own title line
// replaced).
func (t *Model) View() string {
	st := t.Styles
	var tabs []string
	for i, title := range t.titles {
		if i == t.cur {
			tabs = append(tabs, st.Selected.Render(" "+title+" "))
		} else {
			tabs = append(tabs, st.Muted.Render(" "+title+" "))
		}
	}
	bar := strings.Join(tabs, st.Rule.Render("│")) + st.Rule.Render(" ") + st.Key.Render(t.KeyMap.Panel.Help().Key)
	lines := strings.Split(t.panels[t.cur].View(), "\n")
	lines[0] = style.Pad(bar, t.w)
	return style.Block(strings.Join(lines, "\n"), t.w, t.h)
}
