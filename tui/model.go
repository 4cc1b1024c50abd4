package tui

import (
	"context"
	"fmt"
	"image/color"
	"os"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/internal/state"
	"dpso/tui/backend"
	"dpso/tui/style"
)

// Options configure the explorer (Run, New).
type Options struct {
	// Runner is the engine; nil means Engine (package internal/engine).
	// An embedding may wrap Engine (to share one CPU budget between
	// sessions, say); tests inject a fake.
	Runner backend.Runner
	// Preset is the index in Presets of the preset opened first.
	Preset int
	// PresetRun loads Preset and starts its action at once, as choosing
	// it in the presets list does (`dpso explore --preset`); with Start
	// set, on Start (the preset's Spec with flags over it), the caption
	// saying what was changed.
	PresetRun bool
	// Start, if set, is the Spec the explorer opens on instead of the
	// preset's (`dpso explore` with run flags); it must resolve.
	Start *spec.Spec
	// Plain drops every colour (NO_COLOR).
	Plain bool
	// Light starts with the light-background styles (before the terminal
	// answers the background query; e.g. from COLORFGBG).
	Light bool
	// Theme forces the colours: "dark", "light" or "high-contrast" (the
	// strongest colours for the terminal's background); "" follows the
	// background (`--theme`; T cycles them).
	Theme string
	// Manual starts with live mode off (a toggles it).
	Manual bool
	// LiveMax is the longest run live mode repeats by itself after a
	// change (0: 2 s); a longer run stays manual, and the status bar says
	// why (`--live-max`).
	LiveMax time.Duration
	// ExportDir is where e writes its files ("" = the current directory).
	ExportDir string
	// Screen is the screen shown first (a state string's, or dpso explore
	// --screen's); "" the chart. A preset opened with it (PresetRun) is
	// loaded on that screen, its run not started: r starts the screen's.
	Screen state.Screen
	// Limit, if set, is applied to every Spec the form takes (the first,
	// a preset, an edit, a state string): it returns the Spec to use or
	// an error the form shows as a refusal (a *spec.SpecError names the
	// field). dpso serve sets it: secure randomness and the session caps.
	Limit func(spec.Spec) (spec.Spec, error)
	// NoExport, if set, is the sentence e answers instead of exporting
	// (an SSH session must not write the server's disk).
	NoExport string
	// Link, if set, is the address of a page that serves the explorer in a
	// browser (dpso serve --web: "http://host:port/?token=T"); y then
	// shows the link that opens what is shown, its state string in it.
	Link string

	// now is the clock (tests); nil means time.Now.
	now func() time.Time
}

// Minimum terminal size of the layout: 34 columns of parameters beside a
// 45-column chart, and 24 lines. Below it a notice replaces the layout and
// every key but q is inert.
const (
	minWidth  = 80
	minHeight = 24
)

// shownScreen is a screen of the right-hand column and its registry entry.
type shownScreen struct {
	def    screenDef
	screen screen
}

// Model is the explorer's root model, the only one that returns a
// tea.View; outside the package it is a tea.Model (Init, Update, View).
// It owns the components and the two services (the run lifecycle; the
// prescriber, the prescriptions), routes each key to the one component
// it is for, forwards the services' messages and the shared state to
// every component, and lays them out.
type Model struct {
	opts   Options
	styles style.Styles
	keymap keyMap
	common
	now func() time.Time

	width, height int
	compact       bool // the small-terminal layout (side tabs)

	form    *form
	privacy *privacyPanel
	clip    *clipPanel
	formula *formulaPanel
	side    *sideTabs
	status  *statusBar
	help    *helpView
	presets *presetList
	overlay overlay       // help or presets over the body (nil: none)
	screens []shownScreen // the registry's screens, in its order
	active  int           // index in screens
	// back is the screens shown before the active one, the latest last:
	// esc returns to it (the chart when there is none).
	back []int

	runs  *lifecycle
	presc *prescriber
	// stop cancels the explorer's context: every run and prescription.
	stop context.CancelFunc
	// lastPresc is the latest prescription forwarded (the header names
	// user data with the rows and columns it read).
	lastPresc prescriptionMsg
	userRows  bool // the form's Spec reads user data (the layout depends on it)

	specRev int
	// dark is the terminal's background (asked at start; Options.Light
	// the first guess); theme the colours, forced (themed) by --theme or
	// T, else following the background.
	dark   bool
	theme  style.Theme
	themed bool
	// preset is the title of the loaded preset ("": none), presetAt its
	// index in Presets (−1: none) and presetSpec its Spec resolved as
	// loaded: the caption names what the user changed since (changedFrom).
	preset     string
	presetAt   int
	presetSpec spec.Spec
	live       liveMode
	initCmd    tea.Cmd
	quitting   bool
}

// New builds the explorer's root model on opts, for a tea.Program that
// the caller runs on its own input and output (an SSH session's, say; Run
// is the terminal's): it reads no environment and no terminal. Every run
// and prescription it starts is cancelled when ctx is, or when the user
// quits. It opens on the preset opts.Preset, or on opts.Start.
func New(ctx context.Context, opts Options) (*Model, error) {
	if opts.Runner == nil {
		opts.Runner = backend.Local{}
	}
	if opts.now == nil {
		opts.now = time.Now
	}
	if opts.Preset < 0 || opts.Preset >= len(Presets) {
		return nil, fmt.Errorf("preset %d is outside [0, %d]", opts.Preset, len(Presets)-1)
	}
	if opts.LiveMax <= 0 {
		opts.LiveMax = defaultLiveMax
	}
	m := &Model{opts: opts, now: opts.now, live: liveMode{on: !opts.Manual, max: opts.LiveMax, now: opts.now}}
	m.dark = !opts.Light
	if opts.Theme != "" {
		t, ok := style.ParseTheme(opts.Theme)
		if !ok {
			return nil, fmt.Errorf("theme %q is not dark, light or high-contrast", opts.Theme)
		}
		m.theme, m.themed = t, true
	}
	m.styles = m.newStyles()
	m.keymap = defaultKeyMap(screenRegistry)
	m.common = common{st: &m.styles, keys: &m.keymap, limit: opts.Limit}
	c := m.common
	p, at := startPreset(opts)
	f, err := newForm(c, p.Spec)
	if err != nil {
		return nil, fmt.Errorf("preset %q: %w", p.Title, err)
	}
	f.SetFocus(p.focus)
	m.form = f
	m.setPreset(at)
	ctx, m.stop = context.WithCancel(ctx)
	m.runs = newLifecycle(ctx, opts.Runner, opts.now)
	m.presc = newPrescriber(ctx, opts.Runner)
	m.formula = newFormulaPanel(c)
	m.privacy = newPrivacyPanel(c)
	m.clip = &clipPanel{common: c}
	m.status = &statusBar{common: c, now: opts.now, live: m.live.on, liveMax: m.live.max}
	m.help = newHelpView(c)
	m.presets = &presetList{common: c, items: Presets, cursor: opts.Preset}
	for _, d := range screenRegistry {
		m.screens = append(m.screens, shownScreen{def: d, screen: d.build(c, m.formula)})
	}
	title, panel := m.screens[0].screen.Panel()
	m.side = newSideTabs(c, []string{title, "Privacy", "Clipping"}, []component{panel, m.privacy, m.clip})
	// The screen shown and the first Spec, as the form would report it.
	m.broadcast(m.screenMsg())
	m.initCmd = m.onSpec(specMsg{rev: f.rev, user: f.Spec(), spec: f.Resolved(), load: true})
	switch {
	case opts.Screen != "": // a preset's own action waits for r
		m.initCmd = tea.Batch(m.initCmd, m.show(m.screenIndex(screenKind(opts.Screen))))
	case opts.PresetRun && at >= 0:
		m.initCmd = tea.Batch(m.initCmd, m.presetAction(at))
	}
	return m, nil
}

// components are every component that the shared state is forwarded to.
func (m *Model) components() []component {
	cs := []component{m.form, m.status, m.privacy, m.clip, m.formula, m.help, m.presets}
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
		m.dark = msg.IsDark()
		st := m.newStyles()
		if st.Dark == m.styles.Dark && st.Theme == m.styles.Theme {
			return m, nil
		}
		m.styles = st
		m.form.styleInput()
		return m, m.broadcast(msg)
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.MouseWheelMsg:
		return m, m.wheel(msg)
	case specMsg:
		return m, m.onSpec(msg)
	case prescDoneMsg:
		return m, m.broadcast(m.presc.Update(msg))
	case progressMsg, resultMsg, tickMsg:
		ev, cmd := m.runs.Update(msg)
		return m, tea.Batch(m.broadcast(ev), cmd)
	case runRequestMsg:
		return m, m.start(msg.make, false)
	case presetMsg:
		return m, m.loadPreset(msg.index, true)
	case openStateMsg:
		return m, m.openState(msg.st)
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
func (m *Model) tooSmall() bool { return m.width < minWidth || m.height < minHeight }

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
		m.stop()
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
		return m.start(m.jobOf(m.active), false)
	case key.Matches(k, keys.Compare):
		return tea.Batch(m.navigate(0), m.start(compareJob, false))
	case key.Matches(k, keys.Pause):
		ev, cmd := m.runs.TogglePause()
		return tea.Batch(m.broadcast(ev), cmd)
	case key.Matches(k, keys.Export):
		return m.export()
	case key.Matches(k, keys.State):
		return m.showState()
	case key.Matches(k, keys.Live):
		m.live.on = !m.live.on
		return m.broadcast(liveStateMsg{on: m.live.on, max: m.live.max})
	case key.Matches(k, keys.Theme):
		return m.nextTheme()
	case key.Matches(k, keys.Panel, keys.PageUp, keys.PageDown, keys.LineUp, keys.LineDown):
		_, c := m.panel().Update(k)
		return c
	case key.Matches(k, keys.Back):
		return m.goBack()
	case key.Matches(k, m.screens[m.active].def.keys...):
		// The shown screen's own keys (the audit's negative control).
		_, c := m.screens[m.active].screen.Update(k)
		return c
	}
	for i, e := range m.screens {
		if key.Matches(k, e.def.key) {
			if m.active == i {
				return m.goBack()
			}
			return m.navigate(i)
		}
	}
	_, cmd := m.form.Update(k)
	return cmd
}

// panel is the panel area the scroll and tab keys act on: the side tabs
// on a small terminal, the screen's companion panel otherwise.
func (m *Model) panel() component {
	if m.compact {
		return m.side
	}
	_, p := m.screens[m.active].screen.Panel()
	return p
}

// navigate shows screen i, remembering the screen shown so that esc
// returns to it. The stack is a path: going to a screen already on it
// cuts it back to where that screen was.
func (m *Model) navigate(i int) tea.Cmd {
	if i == m.active {
		return nil
	}
	if at := slices.Index(m.back, i); at >= 0 {
		m.back = m.back[:at]
	} else {
		m.back = append(m.back, m.active)
	}
	return m.show(i)
}

// goBack shows the screen shown before the active one (esc; the chart
// when there is none).
func (m *Model) goBack() tea.Cmd {
	i := 0
	if n := len(m.back); n > 0 {
		i, m.back = m.back[n-1], m.back[:n-1]
	}
	return m.show(i)
}

// show makes screen i the right-hand column's. A run that only the
// screen left draws (job.leaveCancels: a search) is cancelled.
func (m *Model) show(i int) tea.Cmd {
	if i == m.active {
		return nil
	}
	var cmds []tea.Cmd
	if r := m.runs.Current(); r != nil && r.active() && r.leaveCancels && r.family == m.family() {
		cmds = append(cmds, m.broadcast(m.runs.Cancel()))
	}
	m.active = i
	e := m.screens[i]
	m.side.SetFirst(e.screen.Panel())
	m.layout()
	cmds = append(cmds, m.broadcast(m.screenMsg()))
	if a, ok := e.screen.(activator); ok {
		cmds = append(cmds, a.Activate())
	}
	return tea.Batch(cmds...)
}

// screenMsg tells the components which screen is shown.
func (m *Model) screenMsg() screenMsg {
	e := m.screens[m.active]
	return screenMsg{draws: e.def.family(), reproduce: e.screen.Reproduce}
}

// screenIndex is the index of the screen of kind (the chart's, 0, for a
// kind not in the registry).
func (m *Model) screenIndex(kind screenKind) int {
	for i, e := range m.screens {
		if e.def.kind == kind {
			return i
		}
	}
	return 0
}

// family is the kind of the runs the shown screen draws.
func (m *Model) family() screenKind { return m.screens[m.active].def.family() }

// start starts the run mk makes on the form's Spec (or shows why there is
// none).
func (m *Model) start(mk jobMaker, live bool) tea.Cmd {
	ev, cmd := m.runs.Start(mk, m.form.Resolved(), live)
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
	ev, compute := m.presc.Request(msg.spec)
	cmds := []tea.Cmd{m.broadcast(msg), m.broadcast(ev), compute}
	if !msg.load {
		cmds = append(cmds, m.scheduleLive())
	}
	return tea.Batch(cmds...)
}

// scheduleLive starts live mode's debounce timer for an edit.
func (m *Model) scheduleLive() tea.Cmd {
	return m.live.schedule(m.runs, m.family())
}

// onLiveTick re-runs when the timer is the latest one's.
func (m *Model) onLiveTick(msg liveTickMsg) tea.Cmd {
	if r := m.live.fire(msg, m.runs, m.family()); r != nil {
		return m.start(r.maker, true)
	}
	return nil
}

// loadPreset puts preset i in the form and, when start is set, starts its
// action: the run r starts on its screen (the comparison, for a preset
// that compares), shown.
func (m *Model) loadPreset(i int, start bool) tea.Cmd {
	p := Presets[i]
	specCmd, err := m.form.SetSpec(p.Spec)
	if err != nil {
		return m.broadcast(statusMsg{text: "preset " + p.Title + ": " + backend.SpecMessage(err), err: true})
	}
	m.form.SetFocus(p.focus)
	m.setPreset(i)
	m.overlay = nil
	m.back = nil
	// The runs of the configuration before are forgotten: no screen draws
	// them against the preset's.
	cmds := []tea.Cmd{specCmd, m.broadcast(m.runs.Reset())}
	if start && p.starts() {
		cmds = append(cmds, m.presetAction(i))
	} else {
		cmds = append(cmds, m.show(0))
	}
	return tea.Batch(cmds...)
}

// presetAction starts preset i's action on the form's Spec: the run r
// starts on its screen (the comparison, for a preset that compares),
// shown.
func (m *Model) presetAction(i int) tea.Cmd {
	p := Presets[i]
	if !p.starts() {
		return m.show(0)
	}
	// The run first, then the screen: shown with its run going, a
	// screen asks for none.
	at := m.screenIndex(p.screen)
	mk := m.jobOf(at)
	if p.compare {
		mk = compareJob
	}
	return tea.Batch(m.start(mk, false), m.show(at))
}

// jobOf is what r runs on screen i: the screen's job, or on the chart
// while a preset with versus solvers is loaded, the form's solver beside
// them (versusJob).
func (m *Model) jobOf(i int) jobMaker {
	if i == 0 && m.presetAt >= 0 && len(Presets[m.presetAt].versus) > 0 {
		return versusJob(Presets[m.presetAt].versus)
	}
	return m.screens[i].screen.Job
}

// export writes what the screen shows (the screen's exporter), off the UI
// loop.
func (m *Model) export() tea.Cmd {
	if m.opts.NoExport != "" {
		return m.broadcast(statusMsg{text: m.opts.NoExport, err: true})
	}
	ex, ok := m.screens[m.active].screen.(exporter)
	if !ok {
		return m.broadcast(statusMsg{text: "nothing to export on this screen: esc returns to the chart, e exports its run", err: true})
	}
	x, why := ex.Export()
	if x == nil {
		return m.broadcast(statusMsg{text: why, err: true})
	}
	return tea.Batch(m.broadcast(statusMsg{text: "exporting…"}), runExport(x, m.opts.ExportDir, m.now()))
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // every run and prescription ends with the program
	m, err := New(ctx, opts)
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

// newStyles are the styles of the theme for the background: the forced
// theme (dark and light whatever the background, high contrast for it),
// or the background's own.
func (m *Model) newStyles() style.Styles {
	t := m.theme
	if !m.themed {
		t = style.Light
		if m.dark {
			t = style.Dark
		}
	}
	return style.NewTheme(t, m.dark, m.opts.Plain)
}

// nextTheme switches to the next theme (T): dark, light, high contrast.
func (m *Model) nextTheme() tea.Cmd {
	cur := m.styles.Theme
	m.theme, m.themed = style.Themes[(slices.Index(style.Themes, cur)+1)%len(style.Themes)], true
	m.styles = m.newStyles()
	m.form.styleInput()
	// Every component redraws as for a new background.
	bg := color.Color(color.Black)
	if !m.styles.Dark {
		bg = color.White
	}
	return tea.Batch(m.broadcast(tea.BackgroundColorMsg{Color: bg}), m.broadcast(statusMsg{text: "theme: " + m.styles.Theme.String() + " (--theme " + m.styles.Theme.String() + ")"}))
}

// wheelLines is how many lines one step of the mouse wheel scrolls.
const wheelLines = 3

// wheel scrolls the help or the presets list when one is open, else the
// panel the scroll keys reach (Model.panel): each step of the wheel is
// wheelLines presses of k or j.
func (m *Model) wheel(msg tea.MouseWheelMsg) tea.Cmd {
	if m.tooSmall() || m.form.Editing() {
		return nil
	}
	var k tea.KeyPressMsg
	switch msg.Button {
	case tea.MouseWheelUp:
		k = tea.KeyPressMsg{Code: 'k', Text: "k"}
	case tea.MouseWheelDown:
		k = tea.KeyPressMsg{Code: 'j', Text: "j"}
	default:
		return nil
	}
	var cmds []tea.Cmd
	for range wheelLines {
		if m.overlay != nil {
			if m.overlay == m.help {
				m.help.key(k)
			}
			continue
		}
		_, c := m.panel().Update(k)
		cmds = append(cmds, c)
	}
	return tea.Batch(cmds...)
}
