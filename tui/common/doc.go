// Package common is what every part of the explorer shares (soft-serve's
// pkg/ui/common): the component contract (Component: Update, View,
// SetSize and a key map, help.KeyMap), the screen contract (Screen, its
// registry entry ScreenDef, Activator, Exporter, Overlay), Common (the
// one Styles and the one KeyMap every component embeds, and the
// session's Limit), the messages components exchange (SpecMsg,
// StatusMsg, ScreenMsg, PresetMsg, CloseMsg, RunRequestMsg,
// LiveStateMsg, ReproChangedMsg), and the helpers several of them use: number formats
// (FmtNum, FmtN, TickLabels), the scrolling side panel (ScrollPanel,
// ScrollBody, Focuser, OrderSections; LaidOutPanel, one whose lines are
// laid out once for what it shows), the rendered-block cache (ViewCache), the export of a
// screen (ExportJob, RunExport), the run a screen shows (Shown, OnScreen,
// Previous), a run's outcome sentence (OutcomeOf) and the user data's
// names and privacy facts.
//
// It imports the run records (tui/runs) and the styles, never a
// component, a screen or the root.
package common
