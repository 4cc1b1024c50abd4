package common

import (
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// Component is a part of the explorer's screen (soft-serve's pattern): the
// root model alone returns a tea.View and routes messages; a component
// handles the messages it is given, renders a block of exactly its size,
// and reports what happened — a new Spec, a chosen preset, a closed
// overlay, a status line — as a message returned by the tea.Cmd of its
// Update, never as state for the root to poll.
type Component interface {
	// Update handles msg and returns the component and a command, whose
	// message (if any) is the component's outcome.
	Update(msg tea.Msg) (Component, tea.Cmd)
	// View renders the component as a block of its size (style.Block).
	View() string
	// SetSize sets the component's size in cells.
	SetSize(w, h int)
	// ShortHelp and FullHelp list the key bindings the component handles
	// (help.KeyMap); components without keys return nil.
	help.KeyMap
}

// Screen is a view of the right-hand column (the chart, a sweep, the
// moment profile, the audit): a component with a companion panel (the
// theorem, the slope table) drawn under it, or in the side tabs on a
// small terminal, that knows what r runs on it and how to reproduce what
// it shows. A screen that can be exported implements Exporter; one with
// something to do when shown implements Activator.
type Screen interface {
	Component
	// Panel is the companion panel and its tab title.
	Panel() (title string, c Component)
	// Job is the run r starts on the screen for the form's Spec res, or
	// why there is none (a runs.JobMaker).
	Job(res spec.Resolved) (runs.Job, string)
	// Reproduce is the reproduce line's command while the screen is
	// shown: user is the form's Spec as set (defaults left zero), res the
	// same resolved, shown the run the screen draws (nil: none).
	Reproduce(user spec.Spec, res spec.Resolved, shown *runs.Run) string
}

// ScreenDef is a screen's entry in the registry: its kind, its keys, where
// the help lists them, and its constructor. What the screen draws, runs,
// reproduces and exports is the screen's own (its methods).
type ScreenDef struct {
	Kind runs.ScreenKind
	// draws is the kind whose runs the screen shows ("": its own): the
	// moment profile draws no run of its own, and its r runs the chart's.
	Draws runs.ScreenKind
	// key shows the screen and, pressed on it, the chart again; the
	// chart, the home screen, has none (esc returns to it).
	Key key.Binding
	// keys are the screen's own keys, sent to it while it is shown (the
	// audit's negative control); the help lists them after key.
	Keys []key.Binding
	// short is key's word on the one-line help, at place (helpNone: the
	// full help only).
	Short string
	Place HelpPlace
	// help is the screen's paragraph in the help ("": none beyond the
	// key's line).
	Help string
	// build makes the screen; formula is the theorem panel, which the
	// chart and the moment profile share as their companion.
	Build func(c Common, formula Component) Screen
}

// Family is the kind of the runs the screen draws.
func (d ScreenDef) Family() runs.ScreenKind {
	if d.Draws != "" {
		return d.Draws
	}
	return d.Kind
}

// HelpPlace is where the one-line help lists a screen's key: beside run
// and compare (the screens whose r runs a job of their own kind), or after
// the form's keys (the views of the form's Spec).
type HelpPlace int

const (
	HelpNone HelpPlace = iota
	HelpBesideRun
	HelpAfterForm
)

// ScreenDefs are registry entries, in the registry's order.
type ScreenDefs []ScreenDef

// Keys are the help's bindings of every screen: each one's key and its
// own keys.
func (ds ScreenDefs) Keys() []key.Binding {
	var out []key.Binding
	for _, d := range ds {
		if d.Key.Enabled() {
			out = append(out, d.Key)
		}
		out = append(out, d.Keys...)
	}
	return out
}

// Shorts are the one-line help's bindings of the screens listed at
// place, each with its short word.
func (ds ScreenDefs) Shorts(place HelpPlace) []key.Binding {
	var out []key.Binding
	for _, d := range ds {
		if d.Place == place && d.Short != "" {
			out = append(out, key.NewBinding(key.WithKeys(d.Key.Keys()...), key.WithHelp(d.Key.Help().Key, d.Short)))
		}
	}
	return out
}

// Help are the screens' paragraphs of the help.
func (ds ScreenDefs) Help() []string {
	var out []string
	for _, d := range ds {
		if d.Help != "" {
			out = append(out, d.Help)
		}
	}
	return out
}

// Activator is a screen that has something to do when it is shown: its
// command's message asks for it (a sweep screen asks for a sweep when it
// has none for the current Spec).
type Activator interface {
	Activate() tea.Cmd
}

// Exporter is a screen whose content e exports: what to write, or why
// there is nothing to export.
type Exporter interface {
	Export() (export *ExportJob, why string)
}

// Common is what every component shares: the one Styles and the one KeyMap
// (pointers, so that a background change reaches every component).
type Common struct {
	Styles *style.Styles
	KeyMap *KeyMap
	// limit is Options.Limit, applied to every Spec the form takes.
	Limit func(spec.Spec) (spec.Spec, error)
}

// ShortHelp is nil for a component without keys.
func (Common) ShortHelp() []key.Binding { return nil }

// FullHelp is nil for a component without keys.
func (Common) FullHelp() [][]key.Binding { return nil }

// Emit is the command whose message is msg: how a component reports an
// outcome.
func Emit(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// EmitIf is emit, or no command for no message.
func EmitIf(msg tea.Msg) tea.Cmd {
	if msg == nil {
		return nil
	}
	return Emit(msg)
}

// Overlay is a component drawn over the body that takes every key (the
// help, the presets list). Its outcome (PresetMsg, CloseMsg) is decided by
// a key alone, so the root takes it from key and applies it within that
// key's own Update rather than as a command's message: a key sent right
// after it (p, 5, r in a burst) acts on what the overlay left — the
// loaded preset, the screen under it —, not on the overlay, still open
// until the message came back.
type Overlay interface {
	Component
	Key(tea.KeyPressMsg) tea.Msg
}

// ---- the messages the components exchange ----
//
// Outcomes of components go up to the root through commands; the root
// forwards the shared state (SpecMsg, runs.PrescriptionMsg, runs.Event, ScreenMsg,
// liveMsg) to every component, in order, within its own Update.

// SpecMsg is the form's outcome: its Spec changed. rev increases with every
// change, so that the root drops an older one delivered late.
type SpecMsg struct {
	Rev  int
	User spec.Spec     // as the user set it (defaults left zero)
	Spec spec.Resolved // resolved, once (what the engine is given)
	// load is set when the change is a loaded preset, not an edit.
	Load bool
}

// StatusMsg is a transient line for the status bar (an export's paths, a
// refusal); any key press clears it.
type StatusMsg struct {
	Text string
	Err  bool
	// Short, if set, is a shorter form of Text for a status bar too
	// narrow for it (then marked "(? full)": the help gives Text) where
	// Text would take more rows than the bar holds; with Fold it is
	// preferred to rows under the state line (it says all the key did,
	// Text adds what the help repeats: a key's note, which must not move
	// the panels under the key that scrolls them next).
	Short string
	Fold  bool
	// Repro, if set, replaces the reproduce line until the next key (the
	// state string, y), after Label ("state: " when empty).
	Repro, Label string
}

// PresetMsg is the presets list's outcome: load preset index and start
// its action.
type PresetMsg struct{ Index int }

// CloseMsg is an overlay's outcome (help, presets): close it.
type CloseMsg struct{}

// RunRequestMsg asks the root for the run that make builds on the form's
// Spec (a screen's activation, the audit's negative control).
type RunRequestMsg struct{ Make runs.JobMaker }

// ReproChangedMsg tells the status bar that the shown screen's reproduce
// line changed without a change of the Spec, the screen or the run (the k
// sweep's grid, once its reach computed off the event loop is known).
type ReproChangedMsg struct{}

// ScreenMsg tells the components which screen is shown: the kind of the
// runs it draws (the status bar, the help and the privacy panel describe
// that family's latest run) and its reproduce line (screen.Reproduce).
type ScreenMsg struct {
	Draws     runs.ScreenKind
	Reproduce func(user spec.Spec, res spec.Resolved, shown *runs.Run) string
}

// LiveStateMsg tells the components whether live mode is on and the
// longest run it repeats.
type LiveStateMsg struct {
	On  bool
	Max time.Duration
}

// ViewCache keeps a component's rendered block until what it shows
// changes (the component calls invalidate on every such change: new data,
// a size, a scroll, a background colour).
type ViewCache struct {
	s  string
	ok bool
}

func (c *ViewCache) Invalidate() { c.ok = false }

// View returns the cached block, rendering it if needed.
func (c *ViewCache) View(render func() string) string {
	if !c.ok {
		c.s, c.ok = render(), true
	}
	return c.s
}

// ScrollBody is a side panel's scrolling body: the viewport of its lines
// under its title (fillScrolled, scrolledPanel), its size, and its
// rendered block, cached until what it shows changes. A panel embeds it
// and supplies the lines.
type ScrollBody struct {
	Viewport viewport.Model
	W, H     int
	Cache    ViewCache
}

func NewScrollBody() ScrollBody { return ScrollBody{Viewport: viewport.New()} }

// SetSize sets the panel size.
func (b *ScrollBody) SetSize(w, h int) {
	b.W, b.H = w, h
	b.Viewport.SetWidth(w)
	b.Cache.Invalidate()
}

// Scroll scrolls the body on the scroll keys (pgup, pgdn, k, j, the
// mouse wheel), from its lines as fill (nil: the viewport's as they are)
// puts them in the viewport, and repaints it on a new background colour;
// any other key leaves it as it is.
func (b *ScrollBody) Scroll(keys *KeyMap, msg tea.Msg, fill func()) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if !key.Matches(msg, keys.PageUp, keys.PageDown, keys.LineUp, keys.LineDown) {
			return
		}
		if fill != nil {
			fill()
		}
		ScrollPage(&b.Viewport, keys, msg)
		b.Cache.Invalidate()
	case tea.BackgroundColorMsg:
		b.Cache.Invalidate()
	}
}

// LimitSpec applies Options.Limit (none: s as it is).
func (c Common) LimitSpec(s spec.Spec) (spec.Spec, error) {
	if c.Limit == nil {
		return s, nil
	}
	return c.Limit(s)
}

// WaitingRunMsg says that the run What (a preset's action) starts once
// the form's Spec's constants — its prescription, which the theorem panel
// shows queued and computed — have come: the status bar shows that wait
// in the run's place. What "" ends the wait (the run started, or it was
// dropped for a key that changed what is shown).
type WaitingRunMsg struct{ What string }
