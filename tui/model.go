package tui

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/tui/style"
)

// Options configure the explorer.
type Options struct {
	// Runner is the engine; nil means Engine (scenarios' runner).
	Runner Runner
	// Preset is the index in Presets of the preset opened first.
	Preset int
	// Start, if set, is the Spec the explorer opens on instead of the
	// preset's (`dpso explore` with run flags); it must resolve.
	Start *spec.Spec
	// Plain drops every colour (NO_COLOR).
	Plain bool
	// Light starts with the light-background styles (before the terminal
	// answers the background query; e.g. from COLORFGBG).
	Light bool
	// Manual starts with live mode off (a toggles it).
	Manual bool
	// ExportDir is where e writes its files ("" = the current directory).
	ExportDir string
	// Now is the clock (tests); nil means time.Now.
	Now func() time.Time
}

// Minimum terminal size of the layout: 34 columns of parameters beside a
// 45-column chart, and 24 lines. Below it a notice replaces the layout and
// every key but q is inert.
const (
	MinWidth  = 80
	MinHeight = 24
)

// screenEntry is a screen of the right-hand column, the key that shows it
// (nil for the chart, the home screen) and what r runs on it.
type screenEntry struct {
	toggle *key.Binding
	run    runKind
	screen Screen
}

// Model is the explorer's root model, the only one that returns a
// tea.View. It owns the components and the two services (Runs, the run
// lifecycle; Prescriber, the prescriptions), routes each key to the one
// component it is for, forwards the services' messages and the shared
// state to every component, and lays them out.
type Model struct {
	opts   Options
	styles style.Styles
	keymap KeyMap
	common
	now func() time.Time

	width, height int
	compact       bool // the small-terminal layout (side tabs)

	form    *Form
	privacy *PrivacyPanel
	clip    *ClipPanel
	formula *FormulaPanel
	side    *SideTabs
	status  *StatusBar
	help    *HelpView
	presets *PresetList
	overlay overlay // help or presets over the body (nil: none)
	screens []screenEntry
	active  int // index in screens

	runs  *Runs
	presc *Prescriber
	// lastPresc is the latest prescription forwarded (the header names
	// user data with the rows and columns it read).
	lastPresc prescriptionMsg
	userRows  bool // the form's Spec reads user data (the layout depends on it)

	specRev  int
	preset   string // title of the loaded preset ("" once edited)
	live     liveMode
	initCmd  tea.Cmd
	quitting bool
}

// New builds the explorer on the preset opts.Preset.
func New(opts Options) (*Model, error) {
	if opts.Runner == nil {
		opts.Runner = Engine{}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Preset < 0 || opts.Preset >= len(Presets) {
		return nil, fmt.Errorf("preset %d is outside [0, %d]", opts.Preset, len(Presets)-1)
	}
	m := &Model{opts: opts, now: opts.Now, live: liveMode{on: !opts.Manual, now: opts.Now}}
	m.styles = style.New(!opts.Light, opts.Plain)
	m.keymap = DefaultKeyMap()
	m.common = common{st: &m.styles, keys: &m.keymap}
	c := m.common
	p := startPreset(opts)
	form, err := NewForm(c, p.Spec)
	if err != nil {
		return nil, fmt.Errorf("preset %q: %w", p.Title, err)
	}
	form.SetFocus(p.Focus)
	m.form = form
	m.preset = p.Title
	m.runs = newRuns(opts.Runner, opts.Now)
	m.presc = newPrescriber(opts.Runner)
	m.formula = NewFormulaPanel(c)
	m.privacy = NewPrivacyPanel(c)
	m.clip = &ClipPanel{common: c}
	m.status = &StatusBar{common: c, now: opts.Now, live: m.live.on}
	m.help = NewHelpView(c)
	m.presets = &PresetList{common: c, items: Presets, cursor: opts.Preset}
	// The screens of the right-hand column: a new screen is one more line.
	m.screens = []screenEntry{
		{nil, runSingle, NewChartScreen(c, m.formula)},
		{&m.keymap.Sweep, runSweep, NewSweepScreen(c)},
		{&m.keymap.Moments, runSingle, NewMomentsScreen(c, m.formula)},
		{&m.keymap.Clip, runClip, NewClipScreen(c)},
		{&m.keymap.Audit, runAudit, NewAuditScreen(c)},
	}
	title, panel := m.screens[0].screen.Panel()
	m.side = NewSideTabs(c, []string{title, "Privacy", "Clipping"}, []Component{panel, m.privacy, m.clip})
	// The first Spec, as the form would report it.
	m.initCmd = m.onSpec(specMsg{rev: form.rev, user: form.Spec(), spec: form.Resolved(), load: true})
	return m, nil
}

// components are every component that the shared state is forwarded to.
func (m *Model) components() []Component {
	cs := []Component{m.form, m.status, m.privacy, m.clip, m.formula, m.help, m.presets}
	for _, e := range m.screens {
		cs = append(cs, e.screen)
	}
	return cs
}

// broadcast forwards msg to every component, in order (nil: nothing).
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	if msg == nil {
		return nil
	}
	if p, ok := msg.(prescriptionMsg); ok {
		m.lastPresc = p
	}
	var cmds []tea.Cmd
	for _, c := range m.components() {
		_, cmd := c.Update(msg) // components are pointers: Update returns the receiver
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// Init asks for the terminal's background colour and computes the first
// prescription.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, m.initCmd)
}

// Update routes every message: keys to the component they are for, the
// services' messages to the services, the components' outcomes to the
// root's handlers, and the shared state to every component.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.BackgroundColorMsg:
		if m.styles.Dark == msg.IsDark() {
			return m, nil
		}
		m.styles = style.New(msg.IsDark(), m.opts.Plain)
		m.form.styleInput()
		return m, m.broadcast(msg)
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case specMsg:
		return m, m.onSpec(msg)
	case prescDoneMsg:
		return m, m.broadcast(m.presc.Update(msg))
	case progressMsg, resultMsg, tickMsg:
		ev, cmd := m.runs.Update(msg)
		return m, tea.Batch(m.broadcast(ev), cmd)
	case runRequestMsg:
		if msg.control {
			return m, m.startAudit(true, false)
		}
		return m, m.start(msg.kind, false)
	case presetMsg:
		return m, m.loadPreset(msg.index, true)
	case closeMsg:
		m.overlay = nil
		return m, nil
	case exportedMsg:
		return m, m.broadcast(exportStatus(msg))
	case liveTickMsg:
		return m, m.onLiveTick(msg)
	}
	return m, m.broadcast(msg) // statusMsg, the text input's cursor, …
}

// tooSmall reports whether the terminal is below the minimum size.
func (m *Model) tooSmall() bool { return m.width < MinWidth || m.height < MinHeight }

// handleKey routes a key: q quits anywhere (unless a value, or the
// presets list's filter, is being typed); under the size notice nothing else acts; an overlay or a value
// being typed takes every key; then the root's keys; the rest is the
// form's.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	typing := m.form.Editing() && m.overlay == nil || m.overlay == m.presets && m.presets.Filtering()
	if k.String() == "ctrl+c" || (!typing && key.Matches(k, m.keys.Quit)) {
		m.quitting = true
		m.runs.Cancel()
		m.presc.Stop()
		return tea.Quit
	}
	if m.tooSmall() {
		return nil
	}
	_, clear := m.status.Update(k) // a key press clears the transient status
	var cmd tea.Cmd
	switch {
	case m.overlay != nil:
		// The overlay's outcome is applied now (see overlay).
		if out := m.overlay.key(k); out != nil {
			_, cmd = m.Update(out)
		}
	case typing:
		_, cmd = m.form.Update(k)
	default:
		cmd = m.rootKey(k)
	}
	return tea.Batch(clear, cmd)
}

// rootKey handles the keys that are not an overlay's or the form's.
func (m *Model) rootKey(k tea.KeyPressMsg) tea.Cmd {
	keys := m.keys
	switch {
	case key.Matches(k, keys.Help):
		m.overlay = m.help
	case key.Matches(k, keys.Presets):
		m.overlay = m.presets
	case key.Matches(k, keys.Run):
		return m.start(m.screens[m.active].run, false)
	case key.Matches(k, keys.Compare):
		return tea.Batch(m.show(0), m.start(runCompare, false))
	case key.Matches(k, keys.Pause):
		ev, cmd := m.runs.TogglePause()
		return tea.Batch(m.broadcast(ev), cmd)
	case key.Matches(k, keys.Export):
		return m.export()
	case key.Matches(k, keys.Live):
		m.live.on = !m.live.on
		return m.broadcast(liveStateMsg{on: m.live.on})
	case key.Matches(k, keys.Panel, keys.PageUp, keys.PageDown):
		_, c := m.panel().Update(k)
		return c
	case key.Matches(k, keys.Back):
		return m.show(0)
	case key.Matches(k, keys.Control) && m.screens[m.active].run == runAudit:
		_, c := m.screens[m.active].screen.Update(k)
		return c
	}
	for i, e := range m.screens {
		if e.toggle != nil && key.Matches(k, *e.toggle) {
			if m.active == i {
				return m.show(0)
			}
			return m.show(i)
		}
	}
	_, cmd := m.form.Update(k)
	return cmd
}

// panel is the panel area the scroll and tab keys act on: the side tabs
// on a small terminal, the screen's companion panel otherwise.
func (m *Model) panel() Component {
	if m.compact {
		return m.side
	}
	_, p := m.screens[m.active].screen.Panel()
	return p
}

// show makes screen i the right-hand column's.
func (m *Model) show(i int) tea.Cmd {
	if i == m.active {
		return nil
	}
	m.active = i
	e := m.screens[i]
	m.side.SetFirst(e.screen.Panel())
	m.layout()
	cmds := []tea.Cmd{m.broadcast(screenMsg{sweep: e.run == runSweep, clip: e.run == runClip, audit: e.run == runAudit})}
	if a, ok := e.screen.(activator); ok {
		cmds = append(cmds, a.Activate())
	}
	return tea.Batch(cmds...)
}

// screenOf is the index of the screen that r runs kind on.
func (m *Model) screenOf(kind runKind) int {
	for i, e := range m.screens {
		if e.run == kind {
			return i
		}
	}
	return 0
}

// start starts a run of kind on the form's Spec.
func (m *Model) start(kind runKind, live bool) tea.Cmd {
	if kind == runAudit {
		return m.startAudit(false, live)
	}
	ev, cmd := m.runs.Start(kind, m.form.Resolved(), live)
	return tea.Batch(m.broadcast(ev), cmd)
}

// startAudit starts an audit of the form's oracle and ε, or its negative
// control.
func (m *Model) startAudit(control, live bool) tea.Cmd {
	res := m.form.Resolved()
	if !res.Privacy.Private() {
		return m.broadcast(statusMsg{text: "ε = ∞: there is no privacy claim to audit (set a finite ε)", err: true})
	}
	ev, cmd := m.runs.StartAudit(res, control, live)
	return tea.Batch(m.broadcast(ev), cmd)
}

// onSpec takes the form's new Spec (dropping one delivered after a newer
// one): every component gets it, the prescription is requested, and live
// mode schedules a re-run of an edit.
func (m *Model) onSpec(msg specMsg) tea.Cmd {
	if msg.rev < m.specRev {
		return nil
	}
	m.specRev = msg.rev
	if u := msg.spec.UserRows(); u != m.userRows {
		m.userRows = u
		m.layout() // the privacy panel's room for the user data's facts
	}
	if !msg.load {
		m.preset = ""
	}
	ev, compute := m.presc.Request(msg.spec)
	cmds := []tea.Cmd{m.broadcast(msg), m.broadcast(ev), compute}
	if !msg.load {
		cmds = append(cmds, m.scheduleLive())
	}
	return tea.Batch(cmds...)
}

// scheduleLive starts live mode's debounce timer for an edit.
func (m *Model) scheduleLive() tea.Cmd {
	return m.live.schedule(m.runs, m.screens[m.active].run)
}

// onLiveTick re-runs when the timer is the latest one's.
func (m *Model) onLiveTick(msg liveTickMsg) tea.Cmd {
	if r := m.live.fire(msg, m.runs, m.screens[m.active].run); r != nil {
		if r.kind == runAudit {
			return m.startAudit(r.control, true)
		}
		return m.start(r.kind, true)
	}
	return nil
}

// loadPreset puts preset i in the form and, when start is set, starts its
// action (the paper's solver, the comparison or the sweep).
func (m *Model) loadPreset(i int, start bool) tea.Cmd {
	p := Presets[i]
	specCmd, err := m.form.SetSpec(p.Spec)
	if err != nil {
		return m.broadcast(statusMsg{text: "preset " + p.Title + ": " + specMessage(err), err: true})
	}
	m.form.SetFocus(p.Focus)
	m.preset = p.Title
	m.overlay = nil
	cmds := []tea.Cmd{specCmd}
	switch {
	case start && p.Sweep:
		cmds = append(cmds, m.start(runSweep, false), m.show(m.screenOf(runSweep)))
	case start && p.Clip:
		cmds = append(cmds, m.start(runClip, false), m.show(m.screenOf(runClip)))
	case start && p.Action != "" && !strings.HasPrefix(p.Action, "none"):
		kind := runSingle
		if p.Compare {
			kind = runCompare
		}
		cmds = append(cmds, m.show(0), m.start(kind, false))
	default:
		cmds = append(cmds, m.show(0), m.broadcast(m.runs.Reset()))
	}
	return tea.Batch(cmds...)
}

// export writes what the screen shows (the screen's exporter), off the UI
// loop.
func (m *Model) export() tea.Cmd {
	ex, ok := m.screens[m.active].screen.(exporter)
	if !ok {
		return m.broadcast(statusMsg{text: "nothing to export on this screen: esc returns to the chart, e exports its run", err: true})
	}
	job, why := ex.Export()
	if job == nil {
		return m.broadcast(statusMsg{text: why, err: true})
	}
	return tea.Batch(m.broadcast(statusMsg{text: "exporting…"}), runExport(job, m.opts.ExportDir, m.now()))
}

// Run starts the explorer on the terminal and returns when the user
// quits. The colours follow NO_COLOR and the terminal's background
// (asked for at start; COLORFGBG is the first guess).
func Run(ctx context.Context, opts Options) error {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		opts.Plain = true
	}
	if !opts.Light {
		opts.Light = lightFromColorFGBG(os.Getenv("COLORFGBG"))
	}
	m, err := New(opts)
	if err != nil {
		return err
	}
	return runProgram(ctx, m)
}

// lightFromColorFGBG reads COLORFGBG ("fg;bg" or "fg;default;bg", set by
// some terminals): a background colour 7 or 9–15 is light.
func lightFromColorFGBG(v string) bool {
	if v == "" {
		return false
	}
	parts := strings.Split(v, ";")
	switch parts[len(parts)-1] {
	case "7", "9", "10", "11", "12", "13", "14", "15":
		return true
	}
	return false
}
