package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"dpso/tui/common"
)

// stopKind is what has the scroll keys (j, k, pgup, pgdn, the wheel).
type stopKind int

const (
	// stopPanel: the screen's companion panel (wide) or the side tab
	// shown (compact).
	stopPanel stopKind = iota
	// stopPrivacy: the wide layout's privacy panel.
	stopPrivacy
	// stopScreen: the screen's own lines (a common.ScrollScreen).
	stopScreen
)

// stop is one place of the focus ring: a kind, and the side tab of a
// compact layout's stopPanel.
type stop struct {
	kind stopKind
	tab  int
}

// ring is the stops t moves the scroll keys through, in order: on a wide
// terminal the screen's companion panel, the screen's own lines where
// they scroll (common.ScrollScreen), the privacy panel; on a compact one
// the first side tab (the screen's companion), the screen's own lines
// where they scroll, then the other tabs.
func (m *frame) ring(screen common.Screen) []stop {
	_, scrolls := screen.(common.ScrollScreen)
	if !m.compact {
		out := []stop{{kind: stopPanel}}
		if scrolls {
			out = append(out, stop{kind: stopScreen})
		}
		return append(out, stop{kind: stopPrivacy})
	}
	titles, _ := m.side.Tabs()
	var out []stop
	for i := range titles {
		out = append(out, stop{kind: stopPanel, tab: i})
		if i == 0 && scrolls {
			out = append(out, stop{kind: stopScreen})
		}
	}
	return out
}

// at is the stop that has the scroll keys now.
func (m *frame) at(screen common.Screen) stop {
	_, scrolls := screen.(common.ScrollScreen)
	switch {
	case m.focusOn == stopScreen && scrolls:
		return stop{kind: stopScreen}
	case m.compact:
		return stop{kind: stopPanel, tab: m.side.Index()}
	case m.focusOn == stopPrivacy:
		return stop{kind: stopPrivacy}
	}
	return stop{kind: stopPanel}
}

// presses is how many presses of t move the scroll keys from stop from
// to stop to along ring (0: the same stop).
func presses(ring []stop, from, to stop) int {
	i, j := slices.Index(ring, from), slices.Index(ring, to)
	if i < 0 || j < 0 {
		return 0
	}
	return (j - i + len(ring)) % len(ring)
}

// focus tells the scrolling panels, and a screen whose lines scroll, how
// many presses of t move the scroll keys to them (0: they have them), so
// that each one's last line names the key as many times as it takes.
func (m *frame) focus(screen common.Screen) {
	ring, cur := m.ring(screen), m.at(screen)
	dist := func(s stop) int { return presses(ring, cur, s) }
	if s, ok := screen.(common.ScrollScreen); ok {
		s.SetFocus(dist(stop{kind: stopScreen}))
	}
	if m.compact {
		_, panels := m.side.Tabs()
		for i, p := range panels {
			if f, ok := p.(common.Focuser); ok {
				f.SetFocus(dist(stop{kind: stopPanel, tab: i}))
			}
		}
		return
	}
	_, panel := screen.Panel()
	if f, ok := panel.(common.Focuser); ok {
		f.SetFocus(dist(stop{kind: stopPanel}))
	}
	m.privacy.SetFocus(dist(stop{kind: stopPrivacy}))
}

// stopName names a stop in the status line ("the Theorem panel").
func (m *frame) stopName(screen common.Screen, s stop) string {
	switch s.kind {
	case stopScreen:
		if ss, ok := screen.(common.ScrollScreen); ok {
			return "the " + ss.Title() + " screen"
		}
	case stopPrivacy:
		return "the Privacy panel"
	}
	if m.compact {
		titles, _ := m.side.Tabs()
		return "the " + titles[s.tab] + " panel"
	}
	title, _ := screen.Panel()
	return "the " + title + " panel"
}

// nextFocus moves the scroll keys to the next stop of the ring (t); on a
// compact terminal the side tab shown while the screen has them is the
// next stop's, one press away. The status line says where they are now
// and where t moves them next — on a wide terminal, or wherever the
// screen's own lines are a stop.
func (m *Model) nextFocus() tea.Cmd {
	screen := m.screens[m.active].screen
	ring := m.ring(screen)
	i := max(slices.Index(ring, m.at(screen)), 0)
	next, after := ring[(i+1)%len(ring)], ring[(i+2)%len(ring)]
	m.focusOn = next.kind
	if m.compact {
		tab := next.tab
		if next.kind == stopScreen {
			tab = after.tab
		}
		m.side.Select(tab)
	}
	m.focus(screen)
	if _, scrolls := screen.(common.ScrollScreen); m.compact && !scrolls {
		return nil
	}
	to, then := m.stopName(screen, next), m.stopName(screen, after)
	return m.broadcast(common.StatusMsg{Text: "j, k, pgup, pgdn scroll " + to + " (t: " + then + ")", Short: "j, k scroll " + to, Fold: true})
}

// panel is what the scroll keys act on: the screen's own lines after t
// brought them there; else the side tabs on a small terminal, otherwise
// the screen's companion panel or, after t, the privacy panel.
func (m *Model) panel() common.Component {
	screen := m.screens[m.active].screen
	switch m.at(screen).kind {
	case stopScreen:
		return screen
	case stopPrivacy:
		return m.privacy
	}
	if m.compact {
		return m.side
	}
	_, p := screen.Panel()
	return p
}
