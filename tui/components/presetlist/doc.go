// Package presetlist is the presets overlay (p): the list of
// presets.All with the selected preset's text and parameters; its
// outcomes are common.PresetMsg (load and start a preset) and
// common.CloseMsg.
package presetlist
