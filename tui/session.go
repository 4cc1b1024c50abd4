package tui

import (
	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/internal/state"
)

// This file is what an embedding program (dpso serve: one explorer per
// SSH session) needs beyond Options: messages that open a preset or a
// state string in a running explorer, the state string of what is shown,
// and Stop.

// OpenPreset is the message that loads preset i (an index in Presets) and
// starts its action, as picking it from the presets list does.
func OpenPreset(i int) tea.Msg { return presetMsg{index: i} }

// OpenState is the message that opens st: its Spec in the form (through
// Options.Limit, as every Spec the form takes) and its screen shown, as
// `dpso explore --state` opens it; nothing runs until asked.
func OpenState(st state.State) tea.Msg { return openStateMsg{st: st} }

type openStateMsg struct{ st state.State }

// State is what is shown as a state string's content: the form's Spec as
// set and the screen of the right-hand column.
func (m *Model) State() state.State {
	return state.State{Spec: m.form.Spec(), Screen: screenName(m.screens[m.active].screen)}
}

// Stop cancels the model's run and prescription, as quitting does; a
// program that ends the explorer from outside (a server shutting down)
// calls it after the program returns.
func (m *Model) Stop() {
	m.runs.Cancel()
	m.presc.Stop()
}

// screenName is the state string's name of a screen.
func screenName(s Screen) state.Screen {
	switch s.(type) {
	case *SweepScreen:
		return state.Sweep
	case *MomentsScreen:
		return state.Moments
	case *ClipScreen:
		return state.Clip
	case *AuditScreen:
		return state.Audit
	}
	return state.Chart
}

// screenIndex is the index in m.screens of the screen named st (the chart
// when none is).
func (m *Model) screenIndex(st state.Screen) int {
	for i, e := range m.screens {
		if screenName(e.screen) == st {
			return i
		}
	}
	return 0
}

// openState puts st's Spec in the form and shows its screen.
func (m *Model) openState(st state.State) tea.Cmd {
	specCmd, err := m.form.SetSpec(st.Spec)
	if err != nil {
		return m.broadcast(statusMsg{text: "state string: " + specMessage(err), err: true})
	}
	m.form.SetFocus(fScenario)
	m.preset = ""
	m.overlay = nil
	return tea.Batch(specCmd, m.show(m.screenIndex(st.Screen)), m.broadcast(m.runs.Reset()))
}

// showState shows the state string of what is shown in place of the
// reproduce line (until the next key) and in the help, and copies it to
// the clipboard with OSC 52 where the terminal allows.
func (m *Model) showState() tea.Cmd {
	tok := m.State().String()
	return tea.Batch(tea.SetClipboard(tok), m.broadcast(statusMsg{
		text:  "state string (copied where the terminal allows; dpso explore --state opens it): " + tok,
		repro: tok,
	}))
}

// limitSpec applies Options.Limit (none: s as it is).
func (c common) limitSpec(s spec.Spec) (spec.Spec, error) {
	if c.limit == nil {
		return s, nil
	}
	return c.limit(s)
}

// Typing reports whether the explorer takes every key as text (a value
// being typed in the form, the presets list's filter).
func (m *Model) Typing() bool {
	return m.form.Editing() && m.overlay == nil || m.overlay == m.presets && m.presets.Filtering()
}

// LightFromColorFGBG reads the COLORFGBG variable some terminals set
// ("fg;bg" or "fg;default;bg"): a background colour 7 or 9–15 is light.
func LightFromColorFGBG(v string) bool { return lightFromColorFGBG(v) }
