package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/tui/style"
)

// The compact layout (side tabs, the screen at full height) is used below
// these sizes; 80×24, the common terminal, is compact.
const (
	compactW = 100
	compactH = 30
)

// formRows is the number of the form's rows the layout makes room for:
// every field but dp-sgd's adaptive clipping, shown only while the solver
// is dp-sgd, whose row then takes a line of the form's message (the status
// bar repeats a refusal in full). That keeps 80×24's side tabs at six lines.
const formRows = int(numFields) - 1

// layout gives every component its size for the current terminal.
//
// Wide:                                   Compact (e.g. 80×24):
//
//	header                                  header
//	parameters │ screen (chart, sweep, …)   parameters │ screen
//	privacy    │                            side tabs: │
//	clipping   │ panel (theorem, slopes)    theorem ·  │
//	status, reproduce line, keys            privacy ·  │
//	                                        clipping   │
//	                                        status, reproduce line, keys
func (m *Model) layout() {
	w, h := m.width, m.height
	if m.tooSmall() {
		return
	}
	bodyH := h - 4 - m.captionRows(h)
	leftW := min(max(w*36/100, 34), 50)
	rightW := w - leftW - 1
	m.compact = w < compactW || h < compactH
	m.status.SetSize(w, 3)
	m.help.SetSize(w, bodyH)
	m.presets.SetSize(w, bodyH)
	screen := m.screens[m.active].screen
	if m.compact {
		// The form keeps 1–3 lines for its message; the side tabs at least
		// 6 (a privacy panel).
		msgLines := min(max(bodyH-1-formRows-6, 1), 3)
		formH := 1 + formRows + msgLines
		m.form.SetSize(leftW, formH)
		m.side.SetSize(leftW, bodyH-formH)
		m.privacy.setScrolls(true) // pgup/pgdn reach the tab shown
		screen.SetSize(rightW, bodyH)
		return
	}
	// The form's message area (why the focused field matters, or a
	// refusal, which the status bar repeats in full) and the privacy
	// panel shrink first on short terminals.
	msgLines, privH := 2, 5
	switch {
	case bodyH >= 40:
		msgLines, privH = 4, 6
	case bodyH >= 30:
		msgLines, privH = 3, 6
	}
	if bodyH >= 30 && m.form.Resolved().UserRows() {
		privH += 5 // the user data's privacy facts (userDataPrivacy)
	}
	formH := 1 + formRows + msgLines
	clipH := bodyH - formH - privH
	if clipH > 13 { // a taller histogram says nothing more: give the form room
		formH += clipH - 13
		clipH = 13
	}
	m.form.SetSize(leftW, formH)
	m.privacy.SetSize(leftW, privH)
	m.privacy.setScrolls(false)
	m.clip.SetSize(leftW, clipH)
	formulaH := min(max(bodyH*40/100, 7), 16)
	screen.SetSize(rightW, bodyH-formulaH)
	_, panel := screen.Panel()
	panel.SetSize(rightW, formulaH)
}

// View renders the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	// The mouse wheel scrolls the panels and the help (cell motion: the
	// wheel and clicks, no motion events; shift selects text in most
	// terminals).
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "dpso explorer"
	return v
}

func (m *Model) render() string {
	w, h := m.width, m.height
	if w == 0 || h == 0 || m.quitting {
		return ""
	}
	if m.tooSmall() {
		return m.tooSmallNotice()
	}
	var body string
	screen := m.screens[m.active].screen
	switch {
	case m.overlay != nil:
		body = m.overlay.View()
	case m.compact:
		body = cols(rows(m.form.View(), m.side.View()), " ", screen.View())
	default:
		_, panel := screen.Panel()
		body = cols(rows(m.form.View(), m.privacy.View(), m.clip.View()), " ", rows(screen.View(), panel.View()))
	}
	parts := append([]string{m.header()}, m.caption(w, m.captionRows(h))...)
	return strings.Join(append(parts, body, m.status.View()), "\n")
}

// tooSmallNotice replaces the layout below the minimum size.
func (m *Model) tooSmallNotice() string {
	w, h := m.width, m.height
	msg := []string{
		m.st.Error.Render("enlarge the terminal"),
		fmt.Sprintf("now %d×%d, need ≥ %d×%d", w, h, minWidth, minHeight),
		m.st.Muted.Render("q quits; other keys wait"),
	}
	var lines []string
	for _, l := range msg {
		lines = append(lines, style.Wrap(style.StripANSI(l), w)...)
	}
	// Keep the styles when a line was not wrapped.
	if len(lines) == len(msg) {
		lines = msg
	}
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, strings.Join(lines, "\n"))
}

func (m *Model) header() string {
	st := m.st
	left := st.Header.Render("dpso") + st.HeaderDim.Render(" · private optimization with heavy-tailed gradients (Lowy & Razaviyayn)")
	right := "custom parameters"
	title := ""
	switch {
	case m.presetAt >= 0:
		right, title = m.presetLabel(), m.preset
	case m.form.Resolved().UserRows():
		right = dataName(m.form.Resolved().Spec, m.lastPresc)
	}
	const keys = "  ·  p presets  ? help"
	if lipgloss.Width(left)+lipgloss.Width(right+": "+title+keys)+2 > m.width {
		left = st.Header.Render("dpso")
	}
	if title != "" {
		// The preset's title gives way first, cut at a word.
		room := m.width - lipgloss.Width(left) - 2 - lipgloss.Width(right+": "+keys)
		if t := style.Shorten(title, room); room >= 8 {
			right += ": " + t
		}
	}
	right = st.Muted.Render(right + keys)
	return style.Pad(left, m.width-lipgloss.Width(right)) + style.Fit(right, m.width-lipgloss.Width(left))
}

// rows stacks blocks; cols puts blocks side by side line by line (a block
// of one line repeats, e.g. a gap). Every component renders a block of
// exactly its size (style.Block), so joining needs no width measurement —
// the frame's cost is in the components, not in re-measuring them.
func rows(blocks ...string) string { return strings.Join(blocks, "\n") }

func cols(blocks ...string) string {
	split := make([][]string, len(blocks))
	n := 0
	for i, b := range blocks {
		split[i] = strings.Split(b, "\n")
		n = max(n, len(split[i]))
	}
	var sb strings.Builder
	for r := 0; r < n; r++ {
		if r > 0 {
			sb.WriteByte('\n')
		}
		for _, ls := range split {
			switch {
			case r < len(ls):
				sb.WriteString(ls[r])
			case len(ls) == 1:
				sb.WriteString(ls[0])
			}
		}
	}
	return sb.String()
}
