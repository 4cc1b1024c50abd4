package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/components/longrun"
)

// holding reports whether the current run waits, before its first
// trial, for the user's word on its long plan (runs.HeldMsg).
func (m *Model) holding() bool {
	r := m.runs.Current()
	return r != nil && r.Active() && r.Held != nil && r.ID == m.long.ID()
}

// showLong opens the note on the current run's long plan, and asks for
// the smaller n that fits (runs.Lifecycle.Fit).
func (m *Model) showLong() tea.Cmd {
	r := m.runs.Current()
	if r == nil || r.Held == nil || !r.Active() {
		return nil
	}
	fit := m.runs.Fit()
	m.long.Show(r, fit != nil)
	m.overlay = m.long
	m.head.FoldCaption()
	m.relayout()
	return fit
}

// onLongChoice applies the note's outcome: the held run goes on, is
// cancelled, or the form takes the smaller n and its run starts again.
func (m *Model) onLongChoice(c longrun.ChoiceMsg) tea.Cmd {
	m.overlay = nil
	r := m.runs.Current()
	if r == nil || r.ID != c.ID || !r.Active() {
		return nil
	}
	switch c.Choice {
	case longrun.Anyway:
		return m.broadcast(m.runs.Proceed())
	case longrun.Cancel:
		return m.broadcast(m.runs.Cancel())
	}
	s := m.form.Spec()
	s.N = c.N
	specCmd, err := m.form.SetSpec(s)
	if err != nil {
		return tea.Batch(m.broadcast(m.runs.Cancel()), m.broadcast(common.StatusMsg{Text: "n = " + fmt.Sprint(c.N) + ": " + backend.SpecMessage(err), Err: true}))
	}
	return tea.Batch(specCmd, m.start(r.Maker, false))
}
