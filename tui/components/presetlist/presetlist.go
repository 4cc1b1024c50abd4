package presetlist

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/list"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/scenarios"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/presets"
	"dpso/tui/style"
)

// Model is the presets screen: the list (a bubbles list: its filter,
// its cursor, its rows), and the selected preset's "what to look at" text
// and parameters, never cut: what does not fit scrolls (pgdn/pgup, j/k)
// under a marker that says how much is left. Its outcomes:
// common.PresetMsg (enter or r loads the preset and starts its action; a
// digit loads the preset of that number, 0 the tenth) and common.CloseMsg
// (esc or p). / filters the list by a part of the titles (typed; enter
// loads the match under the cursor, esc clears the filter, a second esc
// closes).
type Model struct {
	common.Common
	items []presets.Preset
	list  list.Model
	w, h  int
	// listW is the list column's width, to which its rows are padded.
	listW int
	// cur is the preset last under the cursor (the cursor when the
	// filter lists none).
	cur int
	// filtering: the filter is being typed, so every key is its text.
	filtering bool
	filter    string
	// off is the first line of the selected preset's text shown (its
	// scroll), room how many lines the last View had for it.
	off, room int
}

// item is a preset of the list: its index in the presets and the preset.
type item struct {
	i int
	p presets.Preset
}

// FilterValue is what the filter reads: the title.
func (it item) FilterValue() string { return it.p.Title }

// rows renders the list's rows: " 4  Title" (the number right-aligned
// in two columns), padded to the list's width, the selected one in the
// Selected style.
type rows struct{ p *Model }

func (rows) Height() int                         { return 1 }
func (rows) Spacing() int                        { return 0 }
func (rows) Update(tea.Msg, *list.Model) tea.Cmd { return nil }

func (d rows) Render(w io.Writer, l list.Model, index int, li list.Item) {
	it := li.(item)
	row := style.Pad(fmt.Sprintf("%2d  %s", it.i+1, it.p.Title), d.p.listW)
	if index == l.Index() {
		row = d.p.Styles.Selected.Render(row)
	}
	fmt.Fprint(w, row)
}

// contains is the list's filter: the titles that contain the term
// (case-insensitive), in the list's order.
func contains(term string, targets []string) []list.Rank {
	var out []list.Rank
	t := strings.ToLower(term)
	for i, s := range targets {
		if at := strings.Index(strings.ToLower(s), t); at >= 0 {
			idx := make([]int, len([]rune(term)))
			for j := range idx {
				idx[j] = len([]rune(s[:at])) + j
			}
			out = append(out, list.Rank{Index: i, MatchedIndexes: idx})
		}
	}
	return out
}

// New returns the list of items, the cursor on items[cursor].
func New(c common.Common, items []presets.Preset, cursor int) *Model {
	p := &Model{Common: c, items: items}
	li := make([]list.Item, len(items))
	for i, it := range items {
		li[i] = item{i: i, p: it}
	}
	l := list.New(li, rows{p}, 0, len(items))
	l.SetShowTitle(false)
	l.SetShowStatusBar(false)
	l.SetShowPagination(false)
	l.SetShowHelp(false)
	l.SetShowFilter(false)
	l.InfiniteScrolling = true
	l.Filter = contains
	p.list = l
	p.list.Select(cursor)
	p.cur = cursor
	return p
}

// Filtering reports whether a filter is being typed (the root then lets
// every key, q included, through to the list).
func (p *Model) Filtering() bool { return p.filtering }

// setFilter filters the list by f ("": none), the cursor kept on its
// preset if it is still listed, else on the first one listed.
func (p *Model) setFilter(f string) {
	cur := p.cursor()
	p.filter = f
	if f == "" {
		p.list.ResetFilter()
	} else {
		p.list.SetFilterText(f)
	}
	p.list.SetHeight(max(len(p.list.VisibleItems()), 1))
	p.off = 0
	for i, li := range p.list.VisibleItems() {
		if li.(item).i == cur {
			p.list.Select(i)
			return
		}
	}
	p.list.Select(0)
}

// cursor is the index in the presets of the preset under the cursor (the
// one last under it when the filter lists none).
func (p *Model) cursor() int {
	if it, ok := p.list.SelectedItem().(item); ok {
		p.cur = it.i
	}
	return p.cur
}

// updateFilter handles a key while the filter is typed; its outcome
// (common.PresetMsg; nil: none).
func (p *Model) updateFilter(k tea.KeyPressMsg) tea.Msg {
	switch {
	case k.String() == "esc":
		p.filtering = false
		p.setFilter("")
	case k.String() == "enter":
		p.filtering = false
		if len(p.list.VisibleItems()) > 0 {
			i := p.cursor()
			p.setFilter("")
			return common.PresetMsg{Index: i}
		}
	case k.String() == "backspace":
		if r := []rune(p.filter); len(r) > 0 {
			p.setFilter(string(r[:len(r)-1]))
		}
	case key.Matches(k, p.KeyMap.Up):
		p.Move(-1)
	case key.Matches(k, p.KeyMap.Down):
		p.Move(1)
	case k.Text != "":
		p.setFilter(p.filter + k.Text)
	}
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
	case key.Matches(k, p.KeyMap.PageDown):
		p.off += max(p.room-1, 1)
	case key.Matches(k, p.KeyMap.PageUp):
		p.off = max(p.off-max(p.room-1, 1), 0)
	case key.Matches(k, p.KeyMap.LineDown):
		p.off++
	case key.Matches(k, p.KeyMap.LineUp):
		p.off = max(p.off-1, 0)
	case key.Matches(k, p.KeyMap.PickPreset):
		n, err := strconv.Atoi(k.String())
		if n == 0 {
			n = 10
		}
		if err == nil && n >= 1 && n <= len(p.items) {
			p.setFilter("")
			p.list.Select(n - 1)
			p.off = 0
			return common.PresetMsg{Index: n - 1}
		}
	case key.Matches(k, p.KeyMap.Filter):
		p.filtering = true
	case key.Matches(k, p.KeyMap.Run):
		if len(p.list.VisibleItems()) > 0 {
			i := p.cursor()
			p.setFilter("")
			return common.PresetMsg{Index: i}
		}
	case key.Matches(k, p.KeyMap.Back) && p.filter != "":
		p.setFilter("")
	case key.Matches(k, p.KeyMap.Back, p.KeyMap.Presets):
		p.setFilter("")
		return common.CloseMsg{}
	}
	return nil
}

// Move moves the cursor by d among the listed presets (wrapping).
func (p *Model) Move(d int) {
	for ; d < 0; d++ {
		p.list.CursorUp()
	}
	for ; d > 0; d-- {
		p.list.CursorDown()
	}
	p.off = 0
}

// Selected is the preset under the cursor.
func (p *Model) Selected() (int, presets.Preset) {
	i := p.cursor()
	return i, p.items[i]
}

// View renders the screen.
func (p *Model) View() string {
	st := p.Styles
	w, h := p.w, p.h
	lines := []string{style.Rule(*st, "Presets", "↑↓ · 1-9, 0, enter: load, run · pgdn: text · / filter · esc", w, true)}
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
	if len(p.list.VisibleItems()) == 0 {
		left = append(left, st.Muted.Render(style.Pad(" no title contains "+strconv.Quote(p.filter), listW)))
	} else {
		p.listW = listW
		left = append(left, p.list.View())
	}
	_, sel := p.Selected()
	var right []string
	right = append(right, style.WrapLines(st.Emph, sel.Title, textW)...)
	right = append(right, "")
	right = append(right, style.Wrap(sel.Text(), textW)...)
	right = append(right, "", presets.Seed0+".")
	right = append(right, style.WrapLines(st.Muted, summary(sel), textW)...)
	if sel.Action != "" {
		right = append(right, style.WrapLines(st.Muted, "enter loads it and starts: "+sel.Action, textW)...)
	}
	room := h - 1
	if stacked {
		room = h - 1 - lipgloss.Height(strings.Join(left, "\n")) - 1
	}
	right = p.scrolled(right, room, textW)
	var body string
	if stacked {
		body = strings.Join(append(append(left, ""), right...), "\n")
	} else {
		body = style.Cols(style.Block(strings.Join(left, "\n"), listW, h-1), "  ", style.Block(strings.Join(right, "\n"), textW, h-1))
	}
	lines = append(lines, body)
	return style.Block(strings.Join(lines, "\n"), w, h)
}

// scrolled is the text's lines from the scroll offset that fit room
// rows, the last row a marker of what is above and below (pgup, pgdn)
// when not all fit.
func (p *Model) scrolled(lines []string, room, w int) []string {
	p.room = room
	if room <= 0 || len(lines) <= room {
		p.off = 0
		return lines
	}
	p.off = min(p.off, len(lines)-(room-1))
	shown := slices.Clone(lines[p.off : p.off+room-1])
	var marks []string
	if p.off > 0 {
		marks = append(marks, "↑ pgup")
	}
	if rest := len(lines) - (p.off + room - 1); rest > 0 {
		marks = append(marks, fmt.Sprintf("↓ %d more lines: pgdn, j", rest))
	}
	return append(shown, p.Styles.Emph.Render(style.FitWords(strings.Join(marks, " · "), w)))
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
