package longrun

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dpso/internal/engine"
	"dpso/theory"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// Choice is what the user chose in the note.
type Choice int

const (
	// Anyway runs the held run as it is.
	Anyway Choice = iota
	// Smaller runs the comparison again at ChoiceMsg.N, the n that fits.
	Smaller
	// Cancel cancels the held run.
	Cancel
)

// ChoiceMsg is the note's outcome: the choice about run ID (N: the
// smaller n, for Smaller).
type ChoiceMsg struct {
	ID     int
	Choice Choice
	N      int
}

// Model is the note over the body while a run is held at its long plan.
type Model struct {
	common.Common
	w, h int

	id     int
	what   string
	spec   string // "n = …, d = …, 8 trials"
	n      int
	plan   engine.Plan
	fit    *runs.FitMsg // nil while it is computed
	asking bool         // a smaller n is being computed (a Fitter runner)

	keys struct{ anyway, smaller, cancel key.Binding }
}

// New builds the note.
func New(c common.Common) *Model {
	m := &Model{Common: c}
	m.keys.anyway = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run anyway"))
	m.keys.smaller = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "run at the smaller n"))
	m.keys.cancel = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
	return m
}

// Show sets the note for run r, held at its long plan; asking says
// whether a smaller n is being computed (a FitMsg will come).
func (m *Model) Show(r *runs.Run, asking bool) {
	m.id, m.what, m.plan, m.fit, m.asking = r.ID, r.What, *r.Held, nil, asking
	s := r.Spec.Spec
	m.n = s.N
	m.spec = fmt.Sprintf("n = %s, d = %s, %s", theory.FormatCount(s.N), theory.FormatCount(s.D), common.TrialCount(s.Trials))
}

// ID is the run the note is about.
func (m *Model) ID() int { return m.id }

// SetFit records the smaller n computed for the note's run.
func (m *Model) SetFit(f runs.FitMsg) {
	if f.ID == m.id {
		m.fit, m.asking = &f, false
	}
}

// Fit is the smaller n computed for the note's run (nil while it is
// computed, or when the runner cannot say).
func (m *Model) Fit() *runs.FitMsg { return m.fit }

// SetSize sets the note's size (the body's).
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// ShortHelp is the note's keys.
func (m *Model) ShortHelp() []key.Binding {
	return []key.Binding{m.keys.smaller, m.keys.anyway, m.keys.cancel}
}

// Update emits the outcome of a key (the root, which owns the note as
// an overlay, takes it from Key instead).
func (m *Model) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return m, common.EmitIf(m.Key(k))
	}
	return m, nil
}

// Key handles a key: enter runs anyway, s runs at the smaller n once it
// is known, esc cancels; any other key waits.
func (m *Model) Key(k tea.KeyPressMsg) tea.Msg {
	switch {
	case key.Matches(k, m.keys.anyway):
		return ChoiceMsg{ID: m.id, Choice: Anyway}
	case key.Matches(k, m.keys.smaller) && m.fit != nil && m.fit.N > 0:
		return ChoiceMsg{ID: m.id, Choice: Smaller, N: m.fit.N}
	case key.Matches(k, m.keys.cancel):
		return ChoiceMsg{ID: m.id, Choice: Cancel}
	}
	return nil
}

// span writes an estimate's range: "6 min 03 s to 10 min 44 s".
func span(lo, hi time.Duration) string {
	return common.FmtDur(lo) + " to " + common.FmtDur(hi)
}

// View renders the note.
func (m *Model) View() string {
	st := m.Styles
	w := m.w
	lo, hi, cores := runs.Estimate(m.plan)
	coreWord := "cores"
	if cores == 1 {
		coreWord = "core"
	}
	lines := []string{style.Rule(*st, "Long run", "s smaller n · enter anyway · esc cancel", w, true), ""}
	add := func(text string) { lines = append(lines, style.Wrap(text, w)...) }
	add(fmt.Sprintf("%s (%s): %s floats to draw and process, as the engine plans it. Estimated %s on %d %s.",
		m.what, m.spec, theory.Sig4.Format(m.plan.Work), span(lo, hi), cores, coreWord))
	lines = append(lines, style.WrapLines(st.Muted, fmt.Sprintf("An estimate, not a measurement: %s to %s ns of CPU per float, this build's pace measured on the presets' runs (docs/performance.md). Nothing of this run has started.",
		theory.Sig4.Format(runs.PaceLow*1e9), theory.Sig4.Format(runs.PaceHigh*1e9)), w)...)
	lines = append(lines, "")
	opt := func(k, text string) {
		pad := 7
		for i, l := range style.Wrap(text, max(w-pad, 10)) {
			lead := strings.Repeat(" ", pad)
			if i == 0 {
				lead = style.Pad(" "+st.Key.Render(k), pad)
			}
			lines = append(lines, lead+l)
		}
	}
	fits := common.FmtDur(runs.LongRun)
	switch {
	case m.fit != nil && m.fit.N > 0:
		flo, fhi, _ := runs.Estimate(m.fit.Plan)
		opt("s", fmt.Sprintf("run at n = %s instead: estimated %s (the largest n, two digits, whose plan fits %s at the slower pace; computed)", theory.FormatCount(m.fit.N), span(flo, fhi), fits))
	case m.fit != nil && m.fit.Err != nil:
		opt("s", "no smaller n: "+m.fit.Err.Error())
	case m.fit != nil:
		opt("s", fmt.Sprintf("no smaller n fits %s: the draws of d and the trials alone, or a work budget that binds at every n, pass it; lower d or the trials", fits))
	case m.asking:
		opt("s", fmt.Sprintf("a smaller n that fits %s: computing…", fits))
	}
	opt("enter", fmt.Sprintf("run at n = %s anyway", theory.FormatCount(m.n)))
	opt("esc", "cancel: run nothing")
	return style.Block(strings.Join(lines, "\n"), w, m.h)
}
