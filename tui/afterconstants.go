package tui

import (
	tea "charm.land/bubbletea/v2"

	"dpso/internal/statestring"
	"dpso/tui/common"
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// presetWait is a loaded preset's action waiting for the constants of
// its Spec: the run r would start on the preset's screen is started once
// the prescription of that Spec (the estimated constants, the theorem
// panel's) has come, so that a run never holds a CPU slot ahead of its
// own prerequisites — over dpso serve the constants are queued, then
// computed, then the run is queued or runs, in that order and in the
// screen's words at every instant.
//
// A state string opened (dpso explore --state, a broadcast accepted, a
// browser link) waits the same way for the run it starts: one rule for
// every way a screen is opened.
type presetWait struct {
	mk  runs.JobMaker // the run that waits: the preset's action, or the state's (nil: the screen's own, asked for when it is shown)
	at  int           // the screen its run is shown on (shown meanwhile)
	key string        // runs.PrescKey of the Spec: the prescription it waits for
}

// presetJob is what preset i's action runs: the job of its screen (the
// comparison, for a preset that compares).
func (m *Model) presetJob(i int) (runs.JobMaker, int) {
	p := presets.All[i]
	at := m.screenIndex(p.Screen)
	if p.Compare {
		return screens.CompareJob, at
	}
	return m.jobOf(at), at
}

// presetAction shows preset i's screen and starts its action on the
// form's Spec once that Spec's constants have come (constantsCame): the
// status bar says meanwhile what waits for what; the screen is shown
// without asking for its own run, which would not wait.
func (m *Model) presetAction(i int) tea.Cmd {
	if !presets.All[i].Starts() {
		return tea.Batch(m.dropWait(), m.show(0))
	}
	mk, at := m.presetJob(i)
	what := "its run"
	if j, _ := mk(m.form.Resolved()); j.What != "" {
		what = j.What
	}
	m.wait = &presetWait{mk: mk, at: at, key: runs.PrescKey(m.form.Resolved())}
	return tea.Batch(m.display(at, false), m.broadcast(common.WaitingRunMsg{What: what}))
}

// stateAction shows screen i of a state string opened and starts the run
// it names (run: State.Run's r or c), or else asks the screen for the run
// it starts when shown (a sweep's, a search's: its Activate), once the
// constants of the form's Spec have come, as a preset's action waits; a
// screen that starts nothing (or none here) is shown at once.
func (m *Model) stateAction(run string, i int) tea.Cmd {
	res := m.form.Resolved()
	var mk runs.JobMaker
	what := ""
	switch run {
	case statestring.RunKey:
		mk = m.jobOf(i)
	case statestring.CompareKey:
		mk = screens.CompareJob
	default:
		if _, ok := m.screens[i].screen.(common.Activator); !ok {
			return m.reopen(i, true)
		}
		j, why := m.jobOf(i)(res)
		if why != "" {
			return m.reopen(i, true) // the screen says why, or waits for what it needs first
		}
		what = j.What
	}
	if mk != nil {
		what = "its run"
		if j, _ := mk(res); j.What != "" {
			what = j.What
		}
	}
	show := m.reopen(i, false)
	m.wait = &presetWait{mk: mk, at: i, key: runs.PrescKey(res)}
	ev, compute := m.presc.Request(res) // the pending one, or the constants already come
	return tea.Batch(show, m.broadcast(common.WaitingRunMsg{What: what}), compute, m.constantsCame(ev))
}

// constantsCame starts the waiting preset action when msg is its Spec's
// prescription, computed or refused (a refused one: the run says why it
// cannot run, as r would).
func (m *Model) constantsCame(msg tea.Msg) tea.Cmd {
	pm, ok := msg.(runs.PrescriptionMsg)
	if !ok || m.wait == nil || pm.Pending || pm.Key != m.wait.key {
		return nil
	}
	w := m.wait
	m.wait = nil
	if w.mk == nil { // the screen's own run: asked for as the screen is shown
		return tea.Batch(m.broadcast(common.WaitingRunMsg{}), m.reopen(w.at, true))
	}
	return tea.Batch(m.broadcast(common.WaitingRunMsg{}), m.start(w.mk, false), m.show(w.at))
}

// dropWait forgets the waiting preset action (an edit, another run, a
// screen or a preset the user asked for in the meantime goes first).
func (m *Model) dropWait() tea.Cmd {
	if m.wait == nil {
		return nil
	}
	m.wait = nil
	return m.broadcast(common.WaitingRunMsg{})
}
