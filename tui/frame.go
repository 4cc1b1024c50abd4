package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"dpso/tui/common"
	"dpso/tui/components/clip"
	"dpso/tui/components/form"
	"dpso/tui/components/header"
	"dpso/tui/components/help"
	"dpso/tui/components/longrun"
	"dpso/tui/components/presetlist"
	"dpso/tui/components/privacy"
	"dpso/tui/components/statusbar"
	"dpso/tui/components/tabs"
	"dpso/tui/style"
)

// The compact layout (side tabs, the screen at full height) is used below
// these sizes; 80×24, the common terminal, is compact.
const (
	compactW = 100
	compactH = 30
)

// The rows the panels under the form keep when a refusal or the typing
// hint under it takes their room: the side tabs' bar (compact), the
// clipping panel's title, then the privacy panel's; a message longer
// still is shown a page at a time (f).
const (
	minSide = 1
	minClip = 1
	minPriv = 1
)

// formRows is the number of the form's rows the layout makes room for:
// every field but dp-sgd's adaptive clipping, shown only while the solver
// is dp-sgd, whose row then takes a line of the form's message (the status
// bar repeats a refusal in full). That keeps 80×24's side tabs at six lines.
const formRows = int(form.NumFields) - 1

// frame is the explorer's layout: the terminal's size and the parts that
// are always on screen (the header, the form, the panels of the
// left-hand column or their side tabs, the status bar) with the overlays
// (the help, the presets list). The root model embeds it and says which
// screen and overlay are shown.
type frame struct {
	width, height int
	compact       bool // the small-terminal layout (side tabs)
	// formWant is the form's MessageRows at the latest layout: the root
	// lays out again when it changes.
	formWant int
	// statusRows is the status bar's rows at the latest layout
	// (statusbar.Rows): the root lays out again when they change.
	statusRows int
	// focusOn is what the scroll keys reach (t moves them along the
	// ring, focus.go): the screen's panel or the side tab shown, the
	// privacy panel (wide), or the screen's own lines.
	focusOn stopKind

	st      *style.Styles
	head    *header.Model
	form    *form.Model
	privacy *privacy.Model
	clip    *clip.Model
	side    *tabs.Model
	status  *statusbar.Model
	help    *help.Model
	presets *presetlist.Model
	long    *longrun.Model
}

// tooSmall reports whether the terminal is below the minimum size.
func (m *frame) tooSmall() bool { return m.width < minWidth || m.height < minHeight }

// layout gives every component its size for the current terminal, screen
// being the right-hand column's.
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
func (m *frame) layout(screen common.Screen) {
	w, h := m.width, m.height
	if m.tooSmall() {
		return
	}
	// The status bar: 3 rows, 4 where the reproduce line wraps to a
	// second row (a terminal of compactH rows or more).
	m.statusRows = m.status.Rows(w, h >= compactH)
	bodyH := h - 1 - m.statusRows - m.head.Rows(w, h)
	leftW := leftWidth(w)
	rightW := w - leftW - 1
	m.compact = w < compactW || h < compactH
	m.head.SetSize(w, 1+m.head.Rows(w, h))
	m.status.SetSize(w, m.statusRows)
	m.help.SetSize(w, bodyH)
	m.presets.SetSize(w, bodyH)
	m.long.SetSize(w, bodyH)
	// The line under the form, while it is about the key just pressed (a
	// refusal, the typing hint), takes the rows it needs whole from the
	// panels under the form, which keep minSide (compact) or minClip and
	// minPriv rows.
	m.formWant = m.formMessageRows(leftW)
	if m.compact {
		// The form keeps 1–3 lines for its message; the side tabs at least
		// 6 (a privacy panel).
		msgLines := min(max(bodyH-1-formRows-6, 1), 3)
		msgLines = max(msgLines, min(m.formWant, bodyH-1-formRows-minSide))
		formH := 1 + formRows + msgLines
		m.form.SetSize(leftW, formH)
		m.side.SetSize(leftW, bodyH-formH)
		screen.SetSize(rightW, bodyH)
		m.focus(screen)
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
	if clipH > 13 {
		// A taller histogram says nothing more: the privacy panel gets
		// the rows its lines wrap into (up to 8), the form the rest.
		more := min(clipH-13, max(8-privH, 0))
		privH += more
		formH += clipH - 13 - more
		clipH = 13
	}
	if more := min(m.formWant-(formH-1-formRows), clipH-minClip); more > 0 {
		formH += more
		clipH -= more
	}
	if more := min(m.formWant-(formH-1-formRows), privH-minPriv); more > 0 {
		formH += more // then the privacy panel's rows
		privH -= more
	}
	m.form.SetSize(leftW, formH)
	m.privacy.SetSize(leftW, privH)
	m.clip.SetSize(leftW, clipH)
	formulaH := min(max(bodyH*40/100, 7), 16)
	screen.SetSize(rightW, bodyH-formulaH)
	_, panel := screen.Panel()
	panel.SetSize(rightW, formulaH)
	m.focus(screen)
}

// formMessageRows is the rows under the layout's formRows fields that
// the form's message needs whole at w cells while it is about the key
// just pressed (form.MessageRows), with the row a field beyond formRows
// takes; 0 for the focused field's reason.
func (m *frame) formMessageRows(w int) int {
	n := m.form.MessageRows(w)
	if n == 0 {
		return 0
	}
	return n + m.form.FieldRows() - formRows
}

// leftWidth is the left-hand column's width (the form, the panels under
// it) on a terminal w cells wide.
func leftWidth(w int) int { return min(max(w*36/100, 34), 50) }

// render renders the screen: screen in the right-hand column, overlay
// (nil: none) over the body.
func (m *frame) render(screen common.Screen, overlay common.Overlay) string {
	w, h := m.width, m.height
	if w == 0 || h == 0 {
		return ""
	}
	if m.tooSmall() {
		return m.tooSmallNotice()
	}
	var body string
	switch {
	case overlay != nil:
		body = overlay.View()
	case m.compact:
		body = style.Cols(style.Rows(m.form.View(), m.side.View()), " ", screen.View())
	default:
		_, panel := screen.Panel()
		body = style.Cols(style.Rows(m.form.View(), m.privacy.View(), m.clip.View()), " ", style.Rows(screen.View(), panel.View()))
	}
	return strings.Join([]string{m.head.View(), body, m.status.View()}, "\n")
}

// tooSmallNotice replaces the layout below the minimum size.
func (m *frame) tooSmallNotice() string {
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
