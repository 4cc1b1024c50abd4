package tui

import (
	"net/url"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/internal/state"
	"dpso/tui/backend"
)

// This file is what an embedding program (dpso serve: one explorer per
// SSH session) needs beyond New and Options: messages that open a preset
// or a state string in a running explorer, the state string of what is
// shown, and whether a value is being typed.

// OpenPreset is the message that loads preset i (an index in Presets) and
// starts its action, as picking it from the presets list does.
func OpenPreset(i int) tea.Msg { return presetMsg{index: i} }

// OpenState is the message that opens st: its Spec in the form (through
// Options.Limit, as every Spec the form takes) and its screen shown, as
// `dpso explore --state` opens it.
func OpenState(st state.State) tea.Msg { return openStateMsg{st: st} }

type openStateMsg struct{ st state.State }

// State is what a state string of the explorer holds: the form's Spec as
// set and the screen of the right-hand column (its kind is the state
// string's screen name).
func (m *Model) State() state.State {
	return state.State{Spec: m.form.Spec(), Screen: state.Screen(m.screens[m.active].def.kind)}
}

// Typing reports whether the explorer takes every key as text (a value
// being typed in the form, the presets list's filter).
func (m *Model) Typing() bool {
	return m.form.Editing() && m.overlay == nil || m.overlay == m.presets && m.presets.Filtering()
}

// LightFromColorFGBG reads the COLORFGBG variable some terminals set
// ("fg;bg" or "fg;default;bg"): a background colour 7 or 9–15 is light.
func LightFromColorFGBG(v string) bool { return lightFromColorFGBG(v) }

// openState puts st's Spec in the form and shows its screen.
func (m *Model) openState(st state.State) tea.Cmd {
	specCmd, err := m.form.SetSpec(st.Spec)
	if err != nil {
		return m.broadcast(statusMsg{text: "state string: " + backend.SpecMessage(err), err: true})
	}
	m.form.SetFocus(fScenario)
	m.preset = ""
	m.overlay = nil
	return tea.Batch(specCmd, m.show(m.screenIndex(screenKind(st.Screen))), m.broadcast(m.runs.Reset()))
}

// showState shows the state string of what is shown in place of the
// reproduce line (until the next key) and in the help, and copies it to
// the clipboard with OSC 52 where the terminal allows.
//
// Served to browsers (Options.Link), y shows and copies the link that
// opens what is shown in a browser tab instead, the state string in it.
func (m *Model) showState() tea.Cmd {
	tok := m.State().String()
	if m.opts.Link != "" {
		link := stateLink(m.opts.Link, tok)
		return tea.Batch(tea.SetClipboard(link), m.broadcast(statusMsg{
			text:  "link to this screen (copied where the browser allows; opens it in a browser tab of this server; its state= is the state string dpso explore --state opens): " + link,
			repro: link, label: "link: ",
		}))
	}
	return tea.Batch(tea.SetClipboard(tok), m.broadcast(statusMsg{
		text:  "state string (copied where the terminal allows; dpso explore --state opens it): " + tok,
		repro: tok,
	}))
}

// stateLink is the page address base with state=tok added to its query.
func stateLink(base, tok string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	q := u.Query()
	q.Set("state", tok)
	u.RawQuery = q.Encode()
	return u.String()
}

// limitSpec applies Options.Limit (none: s as it is).
func (c common) limitSpec(s spec.Spec) (spec.Spec, error) {
	if c.limit == nil {
		return s, nil
	}
	return c.limit(s)
}
