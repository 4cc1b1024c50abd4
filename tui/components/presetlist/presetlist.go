package presetlist

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/scenarios"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/presets"
	"dpso/tui/style"
)

// Model is the presets screen: the list, and the selected preset's
// "what to look at" text and parameters. Its outcomes: common.PresetMsg (enter or
// r loads the preset and starts its action; a digit loads the preset of
// that number) and common.CloseMsg (esc or p). / filters the list by a part of
// the titles (typed; enter loads the match under the cursor, esc clears
// the filter, a second esc closes).
type Model struct {
	common.Common
	items  []presets.Preset
	cursor int
	w, h   int
	// filtering: the filter is being typed, so every key is its text.
	filtering bool
	filter    string
}

// New returns the list of items, the cursor on items[cursor].
func New(c common.Common, items []presets.Preset, cursor int) *Model {
	return &Model{Common: c, items: items, cursor: cursor}
}

// Filtering reports whether a filter is being typed (the root then lets
// every key, q included, through to the list).
func (p *Model) Filtering() bool { return p.filtering }

// visible are the indices of the presets whose title contains the filter
// (case-insensitive), in order.
func (p *Model) visible() []int {
	var out []int
	f := strings.ToLower(p.filter)
	for i, it := range p.items {
		if strings.Contains(strings.ToLower(it.Title), f) {
			out = append(out, i)
		}
	}
	return out
}

// keepCursor moves the cursor to the first visible preset when the filter
// hides the one under it.
func (p *Model) keepCursor() {
	vis := p.visible()
	if len(vis) > 0 && !slices.Contains(vis, p.cursor) {
		p.cursor = vis[0]
	}
}

// updateFilter handles a key while the filter is typed; its outcome
// (common.PresetMsg; nil: none).
func (p *Model) updateFilter(k tea.KeyPressMsg) tea.Msg {
	switch {
	case k.String() == "esc":
		p.filtering, p.filter = false, ""
	case k.String() == "enter":
		p.filtering = false
		if len(p.visible()) > 0 {
			p.filter = ""
			return common.PresetMsg{Index: p.cursor}
		}
	case k.String() == "backspace":
		if r := []rune(p.filter); len(r) > 0 {
			p.filter = string(r[:len(r)-1])
		}
	case key.Matches(k, p.KeyMap.Up):
		p.Move(-1)
	case key.Matches(k, p.KeyMap.Down):
		p.Move(1)
	case k.Text != "":
		p.filter += k.Text
	}
	p.keepCursor()
	return nil
}

// SetSize sets the screen size.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// ShortHelp is the list's keys.
func (p *Model) ShortHelp() []key.Binding {
	return []key.Binding{p.KeyMap.Up, p.KeyMap.Down, p.KeyMap.Run, p.KeyMap.Back}
}

// Update moves the cursor (↑ ↓ tab), chooses (enter, r) or closes (esc,
// p); its outcome is emitted (the root, which owns the list as an
// overlay, takes it from key instead).
func (p *Model) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return p, common.EmitIf(p.Key(k))
	}
	return p, nil
}

// Key handles a key and returns its outcome: common.PresetMsg (a preset
// chosen), common.CloseMsg, or nil.
func (p *Model) Key(k tea.KeyPressMsg) tea.Msg {
	if p.filtering {
		return p.updateFilter(k)
	}
	switch {
	case key.Matches(k, p.KeyMap.Up, p.KeyMap.Prev):
		p.Move(-1)
	case key.Matches(k, p.KeyMap.Down, p.KeyMap.Next):
		p.Move(1)
	case key.Matches(k, p.KeyMap.PickPreset):
		if n, err := strconv.Atoi(k.String()); err == nil && n >= 1 && n <= len(p.items) {
			p.cursor, p.filter = n-1, ""
			return common.PresetMsg{Index: n - 1}
		}
	case key.Matches(k, p.KeyMap.Filter):
		p.filtering = true
	case key.Matches(k, p.KeyMap.Run):
		if len(p.visible()) > 0 {
			p.filter = ""
			return common.PresetMsg{Index: p.cursor}
		}
	case key.Matches(k, p.KeyMap.Back) && p.filter != "":
		p.filter = ""
	case key.Matches(k, p.KeyMap.Back, p.KeyMap.Presets):
		p.filter = ""
		return common.CloseMsg{}
	}
	return nil
}

// Move moves the cursor by d among the visible presets (wrapping).
func (p *Model) Move(d int) {
	vis := p.visible()
	n := len(vis)
	if n == 0 {
		return
	}
	i := max(slices.Index(vis, p.cursor), 0)
	p.cursor = vis[((i+d)%n+n)%n]
}

// Selected is the preset under the cursor.
func (p *Model) Selected() (int, presets.Preset) { return p.cursor, p.items[p.cursor] }

// View renders the screen.
func (p *Model) View() string {
	st := p.Styles
	w, h := p.w, p.h
	lines := []string{style.Rule(*st, "Presets", "↑↓ choose · 1-9 or enter load and run · / filter · esc back", w, true)}
	listW := 0
	for _, it := range p.items {
		listW = max(listW, lipgloss.Width(it.Title)+6)
	}
	stacked := listW > w/2 // narrow: the list above its text
	if stacked {
		listW = w
	}
	textW := w - listW - 2
	if stacked {
		textW = w
	}
	var left []string
	if p.filtering || p.filter != "" {
		cursor := ""
		if p.filtering {
			cursor = "▏"
		}
		left = append(left, style.Pad(" / "+p.filter+cursor, listW))
	}
	vis := p.visible()
	if len(vis) == 0 {
		left = append(left, st.Muted.Render(style.Pad(" no title contains "+strconv.Quote(p.filter), listW)))
	}
	for _, i := range vis {
		it := p.items[i]
		row := fmt.Sprintf(" %d  %s", i+1, it.Title)
		if i == p.cursor {
			left = append(left, st.Selected.Render(style.Pad(row, listW)))
		} else {
			left = append(left, style.Pad(row, listW))
		}
	}
	_, sel := p.Selected()
	var right []string
	right = append(right, st.Emph.Render(style.FitWords(sel.Title, textW)))
	right = append(right, "")
	right = append(right, style.Wrap(sel.Text, textW)...)
	right = append(right, "")
	right = append(right, st.Muted.Render(style.FitWords(summary(sel), textW)))
	if sel.Action != "" {
		right = append(right, st.Muted.Render(style.FitWords("enter loads it and starts: "+sel.Action, textW)))
	}
	var body string
	if stacked {
		body = strings.Join(append(append(left, ""), right[2:]...), "\n")
	} else {
		body = style.Cols(style.Block(strings.Join(left, "\n"), listW, h-1), "  ", style.Block(strings.Join(right, "\n"), textW, h-1))
	}
	lines = append(lines, body)
	return style.Block(strings.Join(lines, "\n"), w, h)
}

// summary is preset p's parameters in one line.
func summary(p presets.Preset) string {
	r, err := backend.Resolve(p.Spec)
	if err != nil {
		return "invalid: " + err.Error()
	}
	rs := r.Spec
	parts := []string{rs.Scenario, string(rs.Class), rs.Solver, "k = " + common.FmtK(rs.K), "ε = " + common.FmtNum(rs.Eps), "n = " + common.FmtN(rs.N), fmt.Sprintf("d = %d", rs.D)}
	if info, ok := scenarios.Lookup(rs.Scenario); ok && info.Tail != nil {
		parts = append(parts, info.Tail.Symbol+" = "+common.FmtNum(rs.Tail))
	}
	parts = append(parts, common.TrialCount(rs.Trials))
	return strings.Join(parts, " · ")
}
