package common

import (
	"dpso/tui/style"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
)

type Section struct {
	Prio  int // 0 first kept … higher dropped first when space is short
	Lines []string
}

// FillScrolled puts lines, a panel's body under its title, in vp for a
// panel h rows high: the rows under the title, less the last when they
// do not fit (it then says how to scroll).
func FillScrolled(vp *viewport.Model, lines []string, h int) {
	vp.SetHeight(max(h-1, 1))
	if len(lines) > h-1 {
		vp.SetHeight(max(h-2, 1))
	}
	vp.SetContentLines(lines)
}

// ScrolledPanel renders a panel w×h: head (its title's rule), vp's lines
// under it, and the line that says how to scroll them when they do not
// fit.
func ScrolledPanel(st *style.Styles, keys *KeyMap, vp viewport.Model, head string, w, h int) string {
	out := []string{head}
	if h > 1 {
		out = append(out, vp.View())
	}
	if vp.TotalLineCount() > vp.Height() && h > 2 {
		out = append(out, ScrollHint(st, vp, keys, w))
	}
	return style.Block(strings.Join(out, "\n"), w, h)
}

// ScrollPage scrolls vp up or down on the scroll keys of keys, a page
// (pgup, pgdn) or a line (k, j, the mouse wheel); it reports whether msg
// was one of them.
func ScrollPage(vp *viewport.Model, keys *KeyMap, msg tea.KeyPressMsg) bool {
	switch {
	case key.Matches(msg, keys.PageUp):
		vp.PageUp()
	case key.Matches(msg, keys.PageDown):
		vp.PageDown()
	case key.Matches(msg, keys.LineUp):
		vp.ScrollUp(1)
	case key.Matches(msg, keys.LineDown):
		vp.ScrollDown(1)
	default:
		return false
	}
	return true
}

// ScrollHint is the line under a scrolled viewport: where it is and the
// keys that scroll it.
func ScrollHint(st *style.Styles, vp viewport.Model, keys *KeyMap, w int) string {
	below := vp.TotalLineCount() - vp.YOffset() - vp.Height()
	var parts []string
	if vp.YOffset() > 0 {
		parts = append(parts, "↑ "+keys.PageUp.Help().Key)
	}
	if below > 0 {
		parts = append(parts, fmt.Sprintf("↓ %d more line%s: j, %s", below, Plural(below), keys.PageDown.Help().Key))
	}
	return style.FitWords(st.Muted.Render(strings.Join(parts, " · ")), w)
}

// OrderSections puts first the sections that fit h lines — dropping the
// least important (highest prio, the last first) until the rest fits —
// and after them, in their order, the ones dropped; so the first screen
// of a short panel has the most important lines and scrolling shows the
// rest.
func OrderSections(secs []Section, h int) []string {
	count := func(ss []Section) int {
		n := 0
		for _, s := range ss {
			n += len(s.Lines)
		}
		return n
	}
	kept := make([]bool, len(secs))
	for i := range kept {
		kept[i] = true
	}
	keptLines := count(secs)
	for keptLines > h {
		worst := -1
		for i, s := range secs {
			if kept[i] && (worst < 0 || s.Prio >= secs[worst].Prio) {
				worst = i
			}
		}
		if worst < 0 || secs[worst].Prio == 0 {
			break
		}
		kept[worst] = false
		keptLines -= len(secs[worst].Lines)
	}
	var out, rest []string
	for i, s := range secs {
		if kept[i] {
			out = append(out, s.Lines...)
		} else {
			rest = append(rest, s.Lines...)
		}
	}
	return append(out, rest...)
}
