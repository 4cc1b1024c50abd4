package tui

import (
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
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

// screenKind names a screen of the right-hand column: one value per
// screen of the registry, declared in the screen's own file. A run
// belongs to the kind of the screen that draws it (job.family).
type screenKind string

// screen is a view of the right-hand column (the chart, a sweep, the
// moment profile, the audit): a component with a companion panel (the
// theorem, the slope table) drawn under it, or in the side tabs on a
// small terminal, that knows what r runs on it and how to reproduce what
// it shows. A screen that can be exported implements exporter; one with
// something to do when shown implements activator.
type screen interface {
	component
	// Panel is the companion panel and its tab title.
	Panel() (title string, c component)
	// Job is the run r starts on the screen for the form's Spec res, or
	// why there is none (a jobMaker).
	Job(res spec.Resolved) (job, string)
	// Reproduce is the reproduce line's command while the screen is
	// shown: user is the form's Spec as set (defaults left zero), res the
	// same resolved, shown the run the screen draws (nil: none).
	Reproduce(user spec.Spec, res spec.Resolved, shown *run) string
}

// screenDef is a screen's entry in the registry: its kind, its keys, where
// the help lists them, and its constructor. What the screen draws, runs,
// reproduces and exports is the screen's own (its methods).
type screenDef struct {
	kind screenKind
	// draws is the kind whose runs the screen shows ("": its own): the
	// moment profile draws no run of its own, and its r runs the chart's.
	draws screenKind
	// key shows the screen and, pressed on it, the chart again; the
	// chart, the home screen, has none (esc returns to it).
	key key.Binding
	// keys are the screen's own keys, sent to it while it is shown (the
	// audit's negative control); the help lists them after key.
	keys []key.Binding
	// short is key's word on the one-line help, at place (helpNone: the
	// full help only).
	short string
	place helpPlace
	// help is the screen's paragraph in the help ("": none beyond the
	// key's line).
	help string
	// build makes the screen; formula is the theorem panel, which the
	// chart and the moment profile share as their companion.
	build func(c common, formula *formulaPanel) screen
}

// family is the kind of the runs the screen draws.
func (d screenDef) family() screenKind {
	if d.draws != "" {
		return d.draws
	}
	return d.kind
}

// helpPlace is where the one-line help lists a screen's key: beside run
// and compare (the screens whose r runs a job of their own kind), or after
// the form's keys (the views of the form's Spec).
type helpPlace int

const (
	helpNone helpPlace = iota
	helpBesideRun
	helpAfterForm
)

// screenDefs are registry entries, in the registry's order.
type screenDefs []screenDef

// keys are the help's bindings of every screen: each one's key and its
// own keys.
func (ds screenDefs) keys() []key.Binding {
	var out []key.Binding
	for _, d := range ds {
		if d.key.Enabled() {
			out = append(out, d.key)
		}
		out = append(out, d.keys...)
	}
	return out
}

// shorts are the one-line help's bindings of the screens listed at
// place, each with its short word.
func (ds screenDefs) shorts(place helpPlace) []key.Binding {
	var out []key.Binding
	for _, d := range ds {
		if d.place == place && d.short != "" {
			out = append(out, key.NewBinding(key.WithKeys(d.key.Keys()...), key.WithHelp(d.key.Help().Key, d.short)))
		}
	}
	return out
}

// help are the screens' paragraphs of the help.
func (ds screenDefs) help() []string {
	var out []string
	for _, d := range ds {
		if d.help != "" {
			out = append(out, d.help)
		}
	}
	return out
}

// activator is a screen that has something to do when it is shown: its
// command's message asks for it (a sweep screen asks for a sweep when it
// has none for the current Spec).
type activator interface {
	Activate() tea.Cmd
}

// exporter is a screen whose content e exports: what to write, or why
// there is nothing to export.
type exporter interface {
	Export() (export *exportJob, why string)
}

// common is what every component shares: the one Styles and the one keyMap
// (pointers, so that a background change reaches every component).
type common struct {
	st   *style.Styles
	keys *keyMap
	// limit is Options.Limit, applied to every Spec the form takes.
	limit func(spec.Spec) (spec.Spec, error)
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
	// repro, if set, replaces the reproduce line until the next key (the
	// state string, y), after label ("state: " when empty).
	repro, label string
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

// liveStateMsg tells the components whether live mode is on and the
// longest run it repeats.
type liveStateMsg struct {
	on  bool
	max time.Duration
}

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

// scrollBody is a side panel's scrolling body: the viewport of its lines
// under its title (fillScrolled, scrolledPanel), its size, and its
// rendered block, cached until what it shows changes. A panel embeds it
// and supplies the lines.
type scrollBody struct {
	vp    viewport.Model
	w, h  int
	cache viewCache
}

func newScrollBody() scrollBody { return scrollBody{vp: viewport.New()} }

// SetSize sets the panel size.
func (b *scrollBody) SetSize(w, h int) {
	b.w, b.h = w, h
	b.vp.SetWidth(w)
	b.cache.invalidate()
}

// scroll scrolls the body on the scroll keys (pgup, pgdn, k, j, the
// mouse wheel), from its lines as fill (nil: the viewport's as they are)
// puts them in the viewport, and repaints it on a new background colour;
// any other key leaves it as it is.
func (b *scrollBody) scroll(keys *keyMap, msg tea.Msg, fill func()) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if !key.Matches(msg, keys.PageUp, keys.PageDown, keys.LineUp, keys.LineDown) {
			return
		}
		if fill != nil {
			fill()
		}
		scrollPage(&b.vp, keys, msg)
		b.cache.invalidate()
	case tea.BackgroundColorMsg:
		b.cache.invalidate()
	}
}
