package common

import (
	tea "charm.land/bubbletea/v2"

	"dpso/tui/style"
)

// Layout is what a scrolling panel lays out: its title's two sides and
// its lines under the title.
type Layout struct {
	Title, Right string
	Lines        []string
}

// LaidOutPanel is a ScrollPanel whose lines are laid out only when what
// it shows changes: the panel's layout function runs again after
// Invalidate (new data), on a new size, or on new styles (a theme, a
// background colour), and the viewport is filled once per layout; a
// scroll key moves the viewport over the lines it holds, where building
// the lines to scroll and again to draw measured every line's width twice
// a key. The theorem panel and the tuning screen's panels embed it.
type LaidOutPanel struct {
	ScrollPanel
	// held is what the viewport holds, laid out at at (ok: it does).
	held Layout
	at   laidOutKey
	ok   bool
}

// laidOutKey is what a layout depends on beside what the panel shows:
// its size and its styles.
type laidOutKey struct {
	w, h        int
	theme       style.Theme
	dark, plain bool
}

// NewLaidOutPanel returns an empty panel, focused.
func NewLaidOutPanel(c Common) LaidOutPanel { return LaidOutPanel{ScrollPanel: NewScrollPanel(c)} }

// Invalidate says that what the panel shows changed: its lines are laid
// out again when next drawn or scrolled.
func (p *LaidOutPanel) Invalidate() {
	p.ok = false
	p.Cache.Invalidate()
}

// key is the panel's size and styles now.
func (p *LaidOutPanel) key() laidOutKey {
	st := p.Styles
	return laidOutKey{w: p.W, h: p.H, theme: st.Theme, dark: st.Dark, plain: st.Plain}
}

// LayOut puts layout's lines in the viewport unless it holds them at the
// panel's size and styles already, and returns the layout held.
func (p *LaidOutPanel) LayOut(layout func() Layout) Layout {
	if k := p.key(); !p.ok || k != p.at {
		p.held, p.at, p.ok = layout(), k, true
		p.Fill(p.held.Lines)
	}
	return p.held
}

// UpdateLaidOut scrolls on the scroll keys over the lines laid out by
// layout, and lays them out again on a new background colour.
func (p *LaidOutPanel) UpdateLaidOut(msg tea.Msg, layout func() Layout) {
	if _, ok := msg.(tea.BackgroundColorMsg); ok {
		p.Invalidate()
	}
	p.ScrollKeys(msg, func() { p.LayOut(layout) })
}

// RenderLaidOut renders the panel: the title's rule of layout's title and
// right over the lines and the line that says how to scroll them.
func (p *LaidOutPanel) RenderLaidOut(layout func() Layout) string {
	l := p.LayOut(layout)
	return p.Framed(style.Rule(*p.Styles, l.Title, l.Right, p.W, false))
}
