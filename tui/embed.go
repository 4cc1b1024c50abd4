package tui

import (
	tea "charm.land/bubbletea/v2"

	"dpso/internal/statestring"
	"dpso/tui/common"
	"dpso/tui/screens"
)

// This file is what an embedding program (dpso serve: one explorer per
// SSH session) needs beyond New and Options: messages that open a preset
// or a state string in a running explorer, the state string of what is
// shown, and whether a value is being typed.

// OpenPreset is the message that loads preset i (an index in presets.All) and
// starts its action, as picking it from the presets list does.
func OpenPreset(i int) tea.Msg { return common.PresetMsg{Index: i} }

// OpenState is the message that opens st: its Spec in the form (through
// Options.Limit, as every Spec the form takes) and its screen shown, as
// `dpso explore --state` opens it.
func OpenState(st statestring.State) tea.Msg { return openStateMsg{st: st} }

// ScreenNames are the names of the explorer's screens, as a state string
// gives them (statestring.Parse reads a token's screen among them): the
// registry's kinds, in its order, the home screen first.
func ScreenNames() []string {
	names := make([]string, len(screens.Registry))
	for i, d := range screens.Registry {
		names[i] = string(d.Kind)
	}
	return names
}
