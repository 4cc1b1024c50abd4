package common

import (
	"dpso/tui/style"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
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
// fit (presses: how many presses of the panel key t move the scroll keys
// to it, 0 where they reach it now; the line names them).
func ScrolledPanel(st *style.Styles, keys *KeyMap, vp viewport.Model, head string, w, h int, presses int) string {
	out := []string{head}
	if h > 1 {
		out = append(out, vp.View())
	}
	if vp.TotalLineCount() > vp.Height() && h > 2 {
		out = append(out, scrollHint(st, vp, keys, w, presses))
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
// keys that scroll it, after presses of t (0: they reach it now).
func ScrollHint(st *style.Styles, vp viewport.Model, keys *KeyMap, w int, presses int) string {
	return scrollHint(st, vp, keys, w, presses)
}

// scrollHint is ScrollHint; for a panel the scroll keys do not reach
// (presses > 0) it names the key that moves them to it first, and how
// many times ("t, then j", "t twice, then j"). Its words give way to
// shorter ones where the line is narrow (the up key first), never cut.
func scrollHint(st *style.Styles, vp viewport.Model, keys *KeyMap, w int, presses int) string {
	below := vp.TotalLineCount() - vp.YOffset() - vp.Height()
	pgup, k, pgdn, t := keys.PageUp.Help().Key, keys.LineUp.Keys()[0], keys.PageDown.Help().Key, keys.Panel.Help().Key
	ups := []string{pgup, k}
	down := "j, " + pgdn
	if presses > 0 {
		t = PressesText(t, presses)
		ups = []string{t + ", then " + k, t + ", " + k}
		down = t + ", then j"
	}
	var line string
	// Where even the shortest up key's words do not fit, the down part
	// alone: the keys that show what is below are always named.
	for _, up := range append(ups, "") {
		var parts []string
		if vp.YOffset() > 0 && up != "" {
			parts = append(parts, "↑ "+up)
		}
		if below > 0 {
			parts = append(parts, fmt.Sprintf("↓ %d more line%s: %s", below, Plural(below), down))
		}
		if line = strings.Join(parts, " · "); lipgloss.Width(line) <= w {
			break
		}
	}
	return style.FitWords(st.Muted.Render(line), w)
}

// PressesText is key pressed n times in words: "t", "t twice", "t 3
// times".
func PressesText(key string, n int) string {
	switch n {
	case 1:
		return key
	case 2:
		return key + " twice"
	}
	return fmt.Sprintf("%s %d times", key, n)
}

// ScrollPanel is a side panel whose lines under its title scroll (the
// theorem, a sweep's table, the search, the audit's tests, the privacy
// panel), and the default those panels share: the one Common, the
// ScrollBody, the scroll keys as the panel's key map (ShortHelp,
// FullHelp), their handling (ScrollKeys), the frame (Fill, Framed: the
// title, the lines that fit, and a last line saying how many are below
// and which keys scroll them), and whether the scroll keys reach the
// panel now or how many presses of t move them to it (SetFocus: the
// root moves them along its ring of scrolling panels). A
// panel embeds it, supplies its lines and calls ScrollKeys from its
// Update.
type ScrollPanel struct {
	Common
	ScrollBody
	// presses: how many presses of t move the scroll keys to the panel
	// (0, the zero value, a panel alone on its side: it has them).
	presses int
}

// NewScrollPanel returns an empty panel, focused.
func NewScrollPanel(c Common) ScrollPanel { return ScrollPanel{Common: c, ScrollBody: NewScrollBody()} }

// ShortHelp is the panel's scroll keys.
func (p *ScrollPanel) ShortHelp() []key.Binding {
	return []key.Binding{p.KeyMap.PageUp, p.KeyMap.PageDown}
}

// FullHelp is the panel's scroll keys, by page and by line.
func (p *ScrollPanel) FullHelp() [][]key.Binding {
	return [][]key.Binding{{p.KeyMap.PageUp, p.KeyMap.PageDown, p.KeyMap.LineUp, p.KeyMap.LineDown}}
}

// SetFocus says how many presses of t move the scroll keys to the panel,
// 0 where they reach it now (Focuser).
func (p *ScrollPanel) SetFocus(presses int) {
	if p.presses != presses {
		p.presses = presses
		p.Cache.Invalidate()
	}
}

// Focused reports whether the scroll keys reach the panel.
func (p *ScrollPanel) Focused() bool { return p.presses == 0 }

// Presses is how many presses of t move the scroll keys to the panel.
func (p *ScrollPanel) Presses() int { return p.presses }

// ScrollKeys scrolls the panel on the scroll keys (ScrollBody.Scroll,
// fill as there).
func (p *ScrollPanel) ScrollKeys(msg tea.Msg, fill func()) { p.Scroll(p.KeyMap, msg, fill) }

// Fill puts lines, the panel's body under its title, in the viewport
// (FillScrolled).
func (p *ScrollPanel) Fill(lines []string) { FillScrolled(&p.Viewport, lines, p.H) }

// Framed renders the panel: head (its title's rule) over the viewport's
// lines, and the line that says how to scroll them when they do not fit.
func (p *ScrollPanel) Framed(head string) string {
	return ScrolledPanel(p.Styles, p.KeyMap, p.Viewport, head, p.W, p.H, p.presses)
}

// Focuser is a panel that the scroll keys reach only while it has the
// focus (ScrollPanel): the root moves the focus along its ring of
// scrolling panels with t (the wide layout's screen panel, the privacy
// panel; the compact one's side tabs; a ScrollScreen's own lines) and
// tells each how many presses of t reach it (0: it has the keys).
type Focuser interface {
	SetFocus(presses int)
}

// ScrollScreen is a screen whose own lines scroll (the tuning screen, the
// moment profile):
// t moves the scroll keys to it as to a panel, and Title names it in the
// status line that says where they go.
type ScrollScreen interface {
	Screen
	Focuser
	Title() string
}

// OrderSections puts first the sections that fit h lines — dropping the
// least important (highest prio, the last first) until the rest fits —
// and after them, in their order, the ones dropped; so the first screen
// of a short panel has the most important lines and scrolling shows the
// rest.
func OrderSections(secs []Section, h int) []string {
	kept := keptSections(secs, h)
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

// keptSections says which sections fit h lines: all, less the least
// important (highest prio, the last first) until the rest fits; a
// section of prio 0 is never dropped.
func keptSections(secs []Section, h int) []bool {
	kept := make([]bool, len(secs))
	n := 0
	for i, s := range secs {
		kept[i] = true
		n += len(s.Lines)
	}
	for n > h {
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
		n -= len(secs[worst].Lines)
	}
	return kept
}
