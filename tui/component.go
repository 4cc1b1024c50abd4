package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/tui/style"
)

// component is a part of the explorer's screen (soft-serve's pattern): the
// root model alone returns a tea.View and routes messages; a component
// handles the messages it is given, renders a block of exactly its size,
// and reports what happened — a new Spec, a chosen preset, a closed
// overlay, a status line — as a message returned by the tea.Cmd of its
// Update, never as state for the root to poll.
type component interface {
	// Update handles msg and returns the component and a command, whose
	// message (if any) is the component's outcome.
	Update(msg tea.Msg) (component, tea.Cmd)
	// View renders the component as a block of its size (style.Block).
	View() string
	// SetSize sets the component's size in cells.
	SetSize(w, h int)
	// ShortHelp and FullHelp list the key bindings the component handles
	// (help.KeyMap); components without keys return nil.
	help.KeyMap
}

// activator is a screen that has something to do when it is shown: its
// command's message asks for it (a sweep screen asks for a sweep when it
// has none for the current Spec).
type activator interface {
	Activate() tea.Cmd
}

// exporter is a screen whose content e exports: the job, or why there is
// nothing to export.
type exporter interface {
	Export() (job *exportJob, why string)
}

// common is what every component shares: the one Styles and the one keyMap
// (pointers, so that a background change reaches every component).
type common struct {
	st   *style.Styles
	keys *keyMap
}

// ShortHelp is nil for a component without keys.
func (common) ShortHelp() []key.Binding { return nil }

// FullHelp is nil for a component without keys.
func (common) FullHelp() [][]key.Binding { return nil }

// emit is the command whose message is msg: how a component reports an
// outcome.
func emit(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// emitIf is emit, or no command for no message.
func emitIf(msg tea.Msg) tea.Cmd {
	if msg == nil {
		return nil
	}
	return emit(msg)
}

// overlay is a component drawn over the body that takes every key (the
// help, the presets list). Its outcome (presetMsg, closeMsg) is decided by
// a key alone, so the root takes it from key and applies it within that
// key's own Update rather than as a command's message: a key sent right
// after it (p, 5, r in a burst) acts on what the overlay left — the
// loaded preset, the screen under it —, not on the overlay, still open
// until the message came back.
type overlay interface {
	component
	key(tea.KeyPressMsg) tea.Msg
}

// ---- the messages the components exchange ----
//
// Outcomes of components go up to the root through commands; the root
// forwards the shared state (specMsg, prescriptionMsg, runEvent, screenMsg,
// liveMsg) to every component, in order, within its own Update.

// specMsg is the form's outcome: its Spec changed. rev increases with every
// change, so that the root drops an older one delivered late.
type specMsg struct {
	rev  int
	user spec.Spec     // as the user set it (defaults left zero)
	spec spec.Resolved // resolved, once (what the engine is given)
	// load is set when the change is a loaded preset, not an edit.
	load bool
}

// statusMsg is a transient line for the status bar (an export's paths, a
// refusal); any key press clears it.
type statusMsg struct {
	text string
	err  bool
}

// presetMsg is the presets list's outcome: load preset index and start
// its action.
type presetMsg struct{ index int }

// closeMsg is an overlay's outcome (help, presets): close it.
type closeMsg struct{}

// runRequestMsg asks the root for the run that make builds on the form's
// Spec (a screen's activation, the audit's negative control).
type runRequestMsg struct{ make jobMaker }

// screenMsg tells the components which screen is shown: the kind of the
// runs it draws (the status bar, the help and the privacy panel describe
// that family's latest run) and its reproduce line (screen.Reproduce).
type screenMsg struct {
	draws     screenKind
	reproduce func(user spec.Spec, res spec.Resolved, shown *run) string
}

// liveStateMsg tells the components whether live mode is on.
type liveStateMsg struct{ on bool }

// viewCache keeps a component's rendered block until what it shows
// changes (the component calls invalidate on every such change: new data,
// a size, a scroll, a background colour).
type viewCache struct {
	s  string
	ok bool
}

func (c *viewCache) invalidate() { c.ok = false }

// view returns the cached block, rendering it if needed.
func (c *viewCache) view(render func() string) string {
	if !c.ok {
		c.s, c.ok = render(), true
	}
	return c.s
}
