package tui

import (
	tea "charm.land/bubbletea/v2"

	"dpso/internal/statestring"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/components/form"
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// The explorer's state string: what it holds of the shown screen
// (State), how the explorer opens one (openState) and shows its own
// (showState).

// State is what a state string of the explorer holds: the form's Spec as
// set and the screen of the right-hand column (its kind is the state
// string's screen name).
func (m *Model) State() statestring.State {
	st := statestring.State{Spec: m.form.Spec(), Screen: string(m.screens[m.active].def.Kind)}
	if i := m.head.Preset(); i >= 0 {
		st.Preset = presets.All[i].Title
	}
	st.Run = m.shownRun()
	return st
}

// shownRun is the run the chart draws, by the key that starts it
// (statestring.RunKey or CompareKey), so that the explorer opening the
// state draws the same comparison; "" on another screen (a sweep, the
// clipping view, a search and an audit start their own when shown) and
// where the chart draws none, or one cancelled or failed.
func (m *Model) shownRun() string {
	if m.active != 0 {
		return ""
	}
	r := m.runs.Last(m.family())
	if r == nil || r.Phase == runs.Cancelled || r.Phase == runs.Failed || r.Phase == runs.Stopped {
		return ""
	}
	if r.What == screens.CompareWhat {
		return statestring.CompareKey
	}
	return statestring.RunKey
}

// openState puts st's Spec in the form, loads its preset (its caption
// and its comparison, the header naming what the form changed since; none
// when it names none) and shows its screen: what the sender showed.
func (m *Model) openState(st statestring.State) tea.Cmd {
	at := -1
	if st.Preset != "" {
		if at = presets.IndexOfTitle(st.Preset); at < 0 {
			return m.broadcast(common.StatusMsg{Text: "state string: its preset " + theory.Quote(st.Preset) + " is not one of this dpso's presets", Err: true})
		}
	}
	specCmd, err := m.form.SetSpec(st.Spec)
	if err != nil {
		return m.broadcast(common.StatusMsg{Text: "state string: " + backend.SpecMessage(err), Err: true})
	}
	m.form.SetFocus(form.Scenario)
	if at >= 0 {
		m.form.FocusOn(presets.All[at].Focus)
	}
	m.setPreset(at)
	m.overlay = nil
	m.back = nil
	// The runs of the configuration before are forgotten; the state's
	// run starts on its Spec, then its screen is shown. The components
	// take the Spec first: the screen shown decides on it whether it
	// asks for its run (a sweep, a search), and on no Spec before it.
	i := m.screenIndex(runs.ScreenKind(st.Screen))
	reset := m.broadcast(m.runs.Reset())
	drop := m.dropWait() // before the Spec: its constants are the state's
	return tea.Batch(drop, m.specNow(specCmd), reset, m.openOn(st.Run, i))
}

// specNow applies the form's Spec that cmd (form.SetSpec's) reports to
// every component at once, rather than when the command's message comes
// back through the event loop; it returns what that asks for (the
// prescription).
func (m *Model) specNow(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if sm, ok := msg.(common.SpecMsg); ok {
		return m.onSpec(sm)
	}
	return func() tea.Msg { return msg } // its message, not the command run twice
}

// reopen shows screen i as display does and, where it is the screen
// already shown, shows it again: the runs it drew were forgotten with
// the configuration (runs.Lifecycle.Reset), so it is asked for its run
// on the form's Spec as a screen being shown is (activate: unless it
// waits for r).
func (m *Model) reopen(i int, activate bool) tea.Cmd {
	if i != m.active {
		return m.display(i, activate)
	}
	cmds := []tea.Cmd{m.broadcast(m.screenMsg())}
	if a, ok := m.screens[i].screen.(common.Activator); ok && activate {
		cmds = append(cmds, a.Activate())
	}
	return tea.Batch(cmds...)
}

// rowsWaitNote is the status the explorer opens with on a state string
// or a screen of the user's rows (openOn): nothing ran, and r's run is a
// new release of the rows, composing with every earlier one — those of
// the session the state string came from too, which this one cannot see.
const rowsWaitNote = "opened on your rows, nothing ran: r runs it — a new release of the rows, which composes with every earlier release of them (the explorer a state string came from, dpso run), and this explorer counts only its own"

// openOn shows screen i as the explorer opens on it (a state string's, or
// --screen's) and starts the run the state names (run), or the screen's
// own, once the constants of its Spec have come (stateAction). On the user's
// rows it starts nothing — neither that run nor the sweep or search the
// screen asks for when shown: a state string must spend no budget of the
// rows unasked; it waits for r, as dpso explore --data does, and says so.
func (m *Model) openOn(run string, i int) tea.Cmd {
	if m.form.Resolved().UserRows() {
		return tea.Batch(m.reopen(i, false), m.broadcast(common.StatusMsg{Text: rowsWaitNote}))
	}
	return m.stateAction(run, i)
}

// Reopen is what opens the screen shown in a new session: the link to
// it where the session has one (a browser tab of dpso serve), otherwise
// its state string (for --state).
func (m *Model) Reopen() (what string, link bool) {
	tok := m.State().String()
	if m.opts.Link != "" {
		return stateLink(m.opts.Link, tok), true
	}
	return tok, false
}

// showState shows the state string of what is shown in place of the
// reproduce line (until the next key) and in the help, and copies it to
// the clipboard with OSC 52 where the terminal allows.
//
// Served to browsers (Options.Link), y shows and copies the link that
// opens what is shown in a browser tab instead, the state string in it —
// also in an SSH session of a server that serves browsers beside it,
// whose copy is the terminal's to allow, not a browser's.
func (m *Model) showState() tea.Cmd {
	tok := m.State().String()
	if m.opts.Link != "" {
		link := stateLink(m.opts.Link, tok)
		return tea.Batch(tea.SetClipboard(link), m.broadcast(common.StatusMsg{
			Text:  "link to this screen (copied where your terminal or browser allows; opens it in a browser tab of this server; its state= is the state string dpso explore --state opens): " + link,
			Repro: link, Label: "link: ",
		}))
	}
	return tea.Batch(tea.SetClipboard(tok), m.broadcast(common.StatusMsg{
		Text:  "state string (copied where the terminal allows; dpso explore --state opens it): " + tok,
		Repro: tok,
	}))
}
