package tui

import (
	"context"
	"fmt"
	"image/color"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dpso/tui/backend"
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
	"dpso/tui/components/theorem"
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/screens"
	"dpso/tui/style"
)

// shownScreen is a screen of the right-hand column and its registry entry.
type shownScreen struct {
	def    common.ScreenDef
	screen common.Screen
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
	keymap common.KeyMap
	common.Common
	now func() time.Time

	frame
	formula *theorem.Model
	overlay common.Overlay // help or presets over the body (nil: none)
	screens []shownScreen  // the registry's screens, in its order
	active  int            // index in screens
	// back is the screens shown before the active one, the latest last:
	// esc returns to it (the chart when there is none).
	back []int

	runs  *runs.Lifecycle
	presc *runs.Prescriber
	// stop cancels the explorer's context: every run and prescription.
	stop     context.CancelFunc
	userRows bool // the form's Spec reads user data (the layout depends on it)

	specRev int
	// dark is the terminal's background (asked at start; Options.Light
	// the first guess); theme the colours, forced (themed) by --theme or
	// T, else following the background.
	dark     bool
	theme    style.Theme
	themed   bool
	live     runs.Live
	wait     *presetWait // a preset's action waiting for its constants (nil: none)
	initCmd  tea.Cmd
	quitting bool
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
	if opts.Preset < 0 || opts.Preset >= len(presets.All) {
		return nil, fmt.Errorf("preset %d is outside [0, %d]", opts.Preset, len(presets.All)-1)
	}
	if opts.LiveMax <= 0 {
		opts.LiveMax = runs.DefaultLiveMax
	}
	m := &Model{opts: opts, now: opts.now, live: runs.Live{On: !opts.Manual, Max: opts.LiveMax, Now: opts.now}}
	m.dark = !opts.Light
	if opts.Theme != "" {
		t, ok := style.ParseTheme(opts.Theme)
		if !ok {
			return nil, fmt.Errorf("theme %q is not dark, light or high-contrast", opts.Theme)
		}
		m.theme, m.themed = t, true
	}
	m.styles = m.newStyles()
	m.keymap = common.DefaultKeyMap(screens.Registry)
	m.Common = common.Common{Styles: &m.styles, KeyMap: &m.keymap, Limit: opts.Limit}
	m.st = &m.styles
	c := m.Common
	p, at := startPreset(opts)
	f, err := form.New(c, p.Spec)
	if err != nil {
		return nil, fmt.Errorf("preset %q: %w", p.Title, err)
	}
	f.FocusOn(p.Focus)
	m.form = f
	m.head = header.New(c, f)
	m.head.ScreenName = screenName
	m.setPreset(at)
	ctx, m.stop = context.WithCancel(ctx)
	m.runs = runs.NewLifecycle(ctx, opts.Runner, opts.now)
	m.presc = runs.NewPrescriber(ctx, opts.Runner)
	m.formula = theorem.New(c)
	m.privacy = privacy.New(c)
	m.clip = clip.New(c)
	m.status = statusbar.New(c, opts.now, m.live.On, m.live.Max)
	m.help = help.New(c)
	m.help.Repro = m.status.Reproduce
	m.help.Field = m.form.Message
	m.help.Facts = m.status.Facts
	m.help.Changed = m.head.Changed
	m.presets = presetlist.New(c, presets.All, opts.Preset)
	m.long = longrun.New(c)
	for _, d := range screens.Registry {
		m.screens = append(m.screens, shownScreen{def: d, screen: d.Build(c, m.formula)})
	}
	title, panel := m.screens[0].screen.Panel()
	m.side = tabs.New(c, []string{title, "Privacy", "Clipping"}, []common.Component{panel, m.privacy, m.clip})
	// The screen shown and the first Spec, as the form would report it.
	m.broadcast(m.screenMsg())
	var action tea.Cmd
	if opts.Screen == "" && opts.PresetRun && at >= 0 {
		action = m.presetAction(at) // waits for the constants the first Spec asks for
	}
	m.initCmd = tea.Batch(action, m.onSpec(common.SpecMsg{Rev: f.Rev(), User: f.Spec(), Spec: f.Resolved(), Load: true}))
	if opts.Screen != "" { // a preset's own action waits for r, a state's run starts (none on the user's rows)
		at := m.screenIndex(runs.ScreenKind(opts.Screen))
		m.initCmd = tea.Batch(m.initCmd, m.openOn(opts.ShownRun, at))
	}
	return m, nil
}

// components are every component that the shared state is forwarded to.
func (m *Model) components() []common.Component {
	cs := []common.Component{m.head, m.form, m.status, m.privacy, m.clip, m.formula, m.help, m.presets}
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
	if n, ok := msg.(runs.Notice); ok { // the lifecycle's word on the key just pressed
		msg = common.StatusMsg{Text: n.Text, Err: n.Err}
	}
	rows := m.head.Rows(m.width, m.height)
	var cmds []tea.Cmd
	for _, c := range m.components() {
		_, cmd := c.Update(msg) // components are pointers: Update returns the receiver
		cmds = append(cmds, cmd)
	}
	if ev, ok := msg.(runs.Event); ok {
		// What the chart draws picks the preset's caption.
		switch r := ev.Run; {
		case r == nil:
			m.head.SetDrawn(presets.DrawnNone)
		case r.Family != screens.ChartKind:
		case r.What == screens.CompareWhat:
			m.head.SetDrawn(presets.DrawnC)
		default:
			m.head.SetDrawn(presets.DrawnR)
		}
	}
	if m.head.Rows(m.width, m.height) != rows {
		m.relayout() // the caption for what is drawn or shown now folded
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
	_, cmd := m.update(msg)
	if m.overlay == m.long && !m.holding() {
		m.overlay = nil // the held run went another way (live mode, a preset)
	}
	if m.width > 0 && (m.formMessageRows(leftWidth(m.width)) != m.formWant || m.status.Rows(m.width, m.height >= compactH) != m.statusRows) {
		m.relayout() // a refusal or the typing hint under the form came or went, or the reproduce line needs another row
		if m.form.MessageRows(leftWidth(m.width)) > m.form.MessageRoom() && m.head.Unfolded() {
			// The message about the key just pressed goes before the
			// caption's page that w opened: folded, it gives its rows.
			m.head.FoldCaption()
			m.relayout()
		}
	}
	return m, cmd
}

// update is Update without the layout's check.
func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.relayout()
		return m, nil
	case tea.BackgroundColorMsg:
		m.dark = msg.IsDark()
		st := m.newStyles()
		if st.Dark == m.styles.Dark && st.Theme == m.styles.Theme {
			return m, nil
		}
		m.styles = st
		m.form.StyleInput()
		return m, m.broadcast(msg)
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.MouseWheelMsg:
		return m, m.wheel(msg)
	case common.SpecMsg:
		return m, m.onSpec(msg)
	case runs.PrescDoneMsg:
		p := m.presc.Update(msg)
		return m, tea.Batch(m.broadcast(p), m.constantsCame(p))
	case runs.PrescPollMsg:
		msg2, cmd := m.presc.Poll(msg)
		return m, tea.Batch(m.broadcast(msg2), cmd)
	case runs.ProgressMsg, runs.SearchedMsg, runs.ResultMsg, runs.TickMsg:
		ev, cmd := m.runs.Update(msg)
		return m, tea.Batch(m.broadcast(ev), cmd)
	case runs.HeldMsg:
		ev, cmd := m.runs.Update(msg)
		return m, tea.Batch(m.broadcast(ev), cmd, m.showLong())
	case runs.FitMsg:
		m.long.SetFit(msg)
		return m, nil
	case longrun.ChoiceMsg:
		return m, m.onLongChoice(msg)
	case common.RunRequestMsg:
		return m, m.start(msg.Make, false)
	case common.PresetMsg:
		return m, m.loadPreset(msg.Index, true)
	case openStateMsg:
		return m, m.openState(msg.st)
	case common.CloseMsg:
		m.overlay = nil
		return m, nil
	case common.ExportedMsg:
		return m, m.broadcast(common.ExportStatus(msg))
	case runs.LiveTickMsg:
		return m, m.onLiveTick(msg)
	}
	return m, m.broadcast(msg) // common.StatusMsg, the text input's cursor, …
}

// handleKey routes a key: q quits anywhere (unless a value, or the
// presets list's filter, is being typed); under the size notice nothing else acts; an overlay or a value
// being typed takes every key; then the root's keys; the rest is the
// form's.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	typing := m.form.Editing() && m.overlay == nil || m.overlay == m.presets && m.presets.Filtering()
	if k.String() == "ctrl+c" || (!typing && key.Matches(k, m.KeyMap.Quit)) {
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
		if out := m.overlay.Key(k); out != nil {
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
	keys := m.KeyMap
	switch {
	case key.Matches(k, keys.Help):
		m.overlay = m.help
		m.head.FoldCaption() // the overlay gets the rows an unfolded caption took
		m.relayout()
	case key.Matches(k, keys.Presets):
		m.overlay = m.presets
		m.head.FoldCaption()
		m.relayout()
	case key.Matches(k, keys.Run):
		return m.start(m.jobOf(m.active), false)
	case key.Matches(k, keys.Compare):
		return tea.Batch(m.navigate(0), m.start(screens.CompareJob, false))
	case key.Matches(k, keys.Pause):
		ev, cmd := m.runs.TogglePause()
		return tea.Batch(m.broadcast(ev), cmd)
	case key.Matches(k, keys.Export):
		return m.export()
	case key.Matches(k, keys.State):
		return m.showState()
	case key.Matches(k, keys.Live):
		m.live.On = !m.live.On
		return m.broadcast(common.LiveStateMsg{On: m.live.On, Max: m.live.Max})
	case key.Matches(k, keys.Theme):
		return m.nextTheme()
	case key.Matches(k, keys.Caption):
		m.head.ToggleCaption(m.height)
		m.relayout()
	case key.Matches(k, keys.Panel):
		return m.nextFocus()
	case key.Matches(k, keys.PageUp, keys.PageDown, keys.LineUp, keys.LineDown):
		_, c := m.panel().Update(k)
		return c
	case key.Matches(k, keys.Back):
		return m.goBack()
	case key.Matches(k, m.screens[m.active].def.Keys...):
		// The shown screen's own keys (the audit's negative control).
		_, c := m.screens[m.active].screen.Update(k)
		return c
	}
	for i, e := range m.screens {
		if key.Matches(k, e.def.Key) {
			if m.active == i {
				return m.goBack()
			}
			return m.navigate(i)
		}
	}
	_, cmd := m.form.Update(k)
	return cmd
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
func (m *Model) show(i int) tea.Cmd { return m.display(i, true) }

// display shows screen i, as show does; with activate false the screen
// is not asked for its run (a sweep's, a search's), which then waits for r.
func (m *Model) display(i int, activate bool) tea.Cmd {
	if i == m.active {
		return nil
	}
	var cmds []tea.Cmd
	if m.wait != nil && i != m.wait.at {
		cmds = append(cmds, m.dropWait()) // the user went elsewhere first
	}
	if r := m.runs.Current(); r != nil && r.Active() && r.LeaveCancels && r.Family == m.family() {
		cmds = append(cmds, m.broadcast(m.runs.Cancel()))
	}
	m.active = i
	if m.focusOn == stopScreen {
		m.focusOn = stopPanel // a screen's own lines have the keys only while it is shown
	}
	e := m.screens[i]
	m.side.SetFirst(e.screen.Panel())
	m.relayout()
	cmds = append(cmds, m.broadcast(m.screenMsg()))
	if a, ok := e.screen.(common.Activator); ok && activate {
		cmds = append(cmds, a.Activate())
	}
	return tea.Batch(cmds...)
}

// common.ScreenMsg tells the components which screen is shown.
func (m *Model) screenMsg() common.ScreenMsg {
	e := m.screens[m.active]
	return common.ScreenMsg{Draws: e.def.Family(), Reproduce: e.screen.Reproduce}
}

// screenIndex is the index of the screen of kind (the chart's, 0, for a
// kind not in the registry).
func (m *Model) screenIndex(kind runs.ScreenKind) int {
	for i, e := range m.screens {
		if e.def.Kind == kind {
			return i
		}
	}
	return 0
}

// family is the kind of the runs the shown screen draws.
func (m *Model) family() runs.ScreenKind { return m.screens[m.active].def.Family() }

// start starts the run mk makes on the form's Spec (or shows why there is
// none).
func (m *Model) start(mk runs.JobMaker, live bool) tea.Cmd {
	drop := m.dropWait()
	ev, cmd := m.runs.Start(mk, m.form.Resolved(), live)
	return tea.Batch(drop, m.broadcast(ev), cmd)
}

// onSpec takes the form's new Spec (dropping one delivered after a newer
// one): every component gets it, the prescription is requested, and live
// mode schedules a re-run of an edit.
func (m *Model) onSpec(msg common.SpecMsg) tea.Cmd {
	if msg.Rev < m.specRev {
		return nil
	}
	m.specRev = msg.Rev
	if u := msg.Spec.UserRows(); u != m.userRows {
		m.userRows = u
		m.relayout() // the privacy panel's room for the user data's facts
	}
	var drop tea.Cmd
	if !msg.Load {
		drop = m.dropWait() // an edit goes before a preset's action
	}
	ev, compute := m.presc.Request(msg.Spec)
	cmds := []tea.Cmd{drop, m.broadcast(msg), m.broadcast(ev), compute, m.constantsCame(ev)}
	if !msg.Load {
		cmds = append(cmds, m.scheduleLive())
	}
	return tea.Batch(cmds...)
}

// scheduleLive starts live mode's debounce timer for an edit. On the
// user's rows it starts none: each run on them is a new release of the
// rows, which composes with every earlier one, so only r starts it (the
// status bar says so where the run shown is stale).
func (m *Model) scheduleLive() tea.Cmd {
	if m.userRows {
		return nil
	}
	return m.live.Schedule(m.runs, m.family())
}

// onLiveTick re-runs when the timer is the latest one's and the form
// does not read the user's rows (a timer set before they were loaded).
func (m *Model) onLiveTick(msg runs.LiveTickMsg) tea.Cmd {
	if r := m.live.Fire(msg, m.runs, m.family()); r != nil && !m.form.Resolved().UserRows() {
		return m.start(r.Maker, true)
	}
	return nil
}

// setPreset records preset i (−1: none) as the loaded one (the header's
// label and caption), laying out again when the caption's rows change.
func (m *Model) setPreset(i int) {
	rows := m.head.Rows(m.width, m.height)
	m.head.SetPreset(i)
	if m.head.Rows(m.width, m.height) != rows {
		m.relayout() // the caption takes the body's rows
	}
}

// loadPreset puts preset i in the form and, when start is set, starts its
// action: the run r starts on its screen (the comparison, for a preset
// that compares), shown.
func (m *Model) loadPreset(i int, start bool) tea.Cmd {
	p := presets.All[i]
	specCmd, err := m.form.SetSpec(p.Spec)
	if err != nil {
		return m.broadcast(common.StatusMsg{Text: "preset " + p.Title + ": " + backend.SpecMessage(err), Err: true})
	}
	m.form.FocusOn(p.Focus)
	m.setPreset(i)
	m.overlay = nil
	m.back = nil
	// The runs of the configuration before are forgotten: no screen draws
	// them against the preset's.
	cmds := []tea.Cmd{specCmd, m.broadcast(m.runs.Reset())}
	if start && p.Starts() {
		cmds = append(cmds, m.presetAction(i)) // once the constants of its Spec have come
	} else {
		cmds = append(cmds, m.dropWait(), m.show(0))
	}
	return tea.Batch(cmds...)
}

// jobOf is what r runs on screen i: the screen's job, or on the chart
// while a preset with versus solvers is loaded, the form's solver beside
// them (versusJob).
func (m *Model) jobOf(i int) runs.JobMaker {
	if at := m.head.Preset(); i == 0 && at >= 0 && len(presets.All[at].Versus) > 0 {
		return screens.VersusJob(presets.All[at].Versus)
	}
	return m.screens[i].screen.Job
}

// export writes what the screen shows (the screen's common.Exporter), off the UI
// loop.
func (m *Model) export() tea.Cmd {
	if m.opts.NoExport != "" {
		return m.broadcast(common.StatusMsg{Text: m.opts.NoExport, Err: true})
	}
	ex, ok := m.screens[m.active].screen.(common.Exporter)
	if !ok {
		return m.broadcast(common.StatusMsg{Text: "nothing to export on this screen: esc returns to the chart, e exports its run", Err: true})
	}
	x, why := ex.Export()
	if x == nil {
		return m.broadcast(common.StatusMsg{Text: why, Err: true})
	}
	return tea.Batch(m.broadcast(common.StatusMsg{Text: "exporting…"}), common.RunExport(x, m.opts.ExportDir, m.now()))
}

// relayout gives every component its size for the terminal and the
// screen shown (frame.layout).
func (m *Model) relayout() {
	if !m.tooSmall() { // (none yet while New builds the components)
		m.layout(m.screens[m.active].screen)
	}
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

// render is the screen's text (none once the user quits).
func (m *Model) render() string {
	if m.quitting {
		return ""
	}
	return m.frame.render(m.screens[m.active].screen, m.overlay)
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
	m.form.StyleInput()
	// Every component redraws as for a new background.
	bg := color.Color(color.Black)
	if !m.styles.Dark {
		bg = color.White
	}
	return tea.Batch(m.broadcast(tea.BackgroundColorMsg{Color: bg}), m.broadcast(common.StatusMsg{Text: "theme: " + m.styles.Theme.String() + " (--theme " + m.styles.Theme.String() + ")"}))
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
				m.help.Key(k)
			}
			continue
		}
		_, c := m.panel().Update(k)
		cmds = append(cmds, c)
	}
	return tea.Batch(cmds...)
}

// Typing reports whether the explorer takes every key as text (a value
// being typed in the form, the presets list's filter).
func (m *Model) Typing() bool {
	return m.form.Editing() && m.overlay == nil || m.overlay == m.presets && m.presets.Filtering()
}

// screenName names screen kind k with the key that shows it: "the chart
// (esc)", "s's screen (sweep n (log-log))".
func screenName(k runs.ScreenKind) string {
	if k == screens.ChartKind {
		return "the chart (esc)"
	}
	for _, d := range screens.Registry {
		if d.Kind == k {
			h := d.Key.Help()
			return h.Key + "'s screen (" + h.Desc + ")"
		}
	}
	return string(k)
}
