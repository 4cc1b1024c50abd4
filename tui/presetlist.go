package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/tui/style"
)

// presetList is the presets screen: the list, and the selected preset's
// "what to look at" text and parameters. Its outcomes: presetMsg (enter or
// r loads the preset and starts its action; a digit loads the preset of
// that number) and closeMsg (esc or p). / filters the list by a part of
// the titles (typed; enter loads the match under the cursor, esc clears
// the filter, a second esc closes).
type presetList struct {
	common
	items  []Preset
	cursor int
	w, h   int
	// filtering: the filter is being typed, so every key is its text.
	filtering bool
	filter    string
}

// Filtering reports whether a filter is being typed (the root then lets
// every key, q included, through to the list).
func (p *presetList) Filtering() bool { return p.filtering }

// visible are the indices of the presets whose title contains the filter
// (case-insensitive), in order.
func (p *presetList) visible() []int {
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
func (p *presetList) keepCursor() {
	vis := p.visible()
	if len(vis) > 0 && !slices.Contains(vis, p.cursor) {
		p.cursor = vis[0]
	}
}

// updateFilter handles a key while the filter is typed; its outcome
// (presetMsg; nil: none).
func (p *presetList) updateFilter(k tea.KeyPressMsg) tea.Msg {
	switch {
	case k.String() == "esc":
		p.filtering, p.filter = false, ""
	case k.String() == "enter":
		p.filtering = false
		if len(p.visible()) > 0 {
			p.filter = ""
			return presetMsg{index: p.cursor}
		}
	case k.String() == "backspace":
		if r := []rune(p.filter); len(r) > 0 {
			p.filter = string(r[:len(r)-1])
		}
	case key.Matches(k, p.keys.Up):
		p.Move(-1)
	case key.Matches(k, p.keys.Down):
		p.Move(1)
	case k.Text != "":
		p.filter += k.Text
	}
	p.keepCursor()
	return nil
}

// SetSize sets the screen size.
func (p *presetList) SetSize(w, h int) { p.w, p.h = w, h }

// ShortHelp is the list's keys.
func (p *presetList) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Up, p.keys.Down, p.keys.Run, p.keys.Back}
}

// Update moves the cursor (↑ ↓ tab), chooses (enter, r) or closes (esc,
// p); its outcome is emitted (the root, which owns the list as an
// overlay, takes it from key instead).
func (p *presetList) Update(msg tea.Msg) (component, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return p, emitIf(p.key(k))
	}
	return p, nil
}

// key handles a key and returns its outcome: presetMsg (a preset
// chosen), closeMsg, or nil.
func (p *presetList) key(k tea.KeyPressMsg) tea.Msg {
	if p.filtering {
		return p.updateFilter(k)
	}
	switch {
	case key.Matches(k, p.keys.Up, p.keys.Prev):
		p.Move(-1)
	case key.Matches(k, p.keys.Down, p.keys.Next):
		p.Move(1)
	case key.Matches(k, p.keys.PickPreset):
		if n, err := strconv.Atoi(k.String()); err == nil && n >= 1 && n <= len(p.items) {
			p.cursor, p.filter = n-1, ""
			return presetMsg{index: n - 1}
		}
	case key.Matches(k, p.keys.Filter):
		p.filtering = true
	case key.Matches(k, p.keys.Run):
		if len(p.visible()) > 0 {
			p.filter = ""
			return presetMsg{index: p.cursor}
		}
	case key.Matches(k, p.keys.Back) && p.filter != "":
		p.filter = ""
	case key.Matches(k, p.keys.Back, p.keys.Presets):
		p.filter = ""
		return closeMsg{}
	}
	return nil
}

// Move moves the cursor by d among the visible presets (wrapping).
func (p *presetList) Move(d int) {
	vis := p.visible()
	n := len(vis)
	if n == 0 {
		return
	}
	i := max(slices.Index(vis, p.cursor), 0)
	p.cursor = vis[((i+d)%n+n)%n]
}

// Selected is the preset under the cursor.
func (p *presetList) Selected() (int, Preset) { return p.cursor, p.items[p.cursor] }

// View renders the screen.
func (p *presetList) View() string {
	st := p.st
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
	right = append(right, style.Wrap(sel.text, textW)...)
	right = append(right, "")
	right = append(right, st.Muted.Render(style.FitWords(sel.summary(), textW)))
	if sel.action != "" {
		right = append(right, st.Muted.Render(style.FitWords("enter loads it and starts: "+sel.action, textW)))
	}
	var body string
	if stacked {
		body = strings.Join(append(append(left, ""), right[2:]...), "\n")
	} else {
		body = cols(style.Block(strings.Join(left, "\n"), listW, h-1), "  ", style.Block(strings.Join(right, "\n"), textW, h-1))
	}
	lines = append(lines, body)
	return style.Block(strings.Join(lines, "\n"), w, h)
}
