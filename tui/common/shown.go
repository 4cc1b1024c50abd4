package common

import (
	"dpso/internal/spec"
	"dpso/tui/runs"

	tea "charm.land/bubbletea/v2"
)

// Shown is what a run screen follows: the form's Spec and the latest run
// of the kinds it draws (the chart screen: runs and comparisons; the sweep
// screens: their own sweep).
type Shown struct {
	Spec spec.Resolved // the form's
	Run  *runs.Run     // the latest run of the screen's kinds (nil: none)
}

// Take applies msg — the form's Spec, a run event, a background change —
// and reports whether the screen must be redrawn; family is the kind of
// the runs the screen draws.
func (s *Shown) Take(msg tea.Msg, family runs.ScreenKind) bool {
	switch msg := msg.(type) {
	case SpecMsg:
		s.Spec = msg.Spec
	case runs.Event:
		switch r := msg.Run; {
		case r == nil:
			s.Run = nil
		case r.Family != family:
			return false
		default:
			s.Run = r
		}
	case tea.BackgroundColorMsg:
	default:
		return false
	}
	return true
}

// Stale is StaleNote of r where the form's Spec (spec) differs from the
// one r ran ("" where they are the same, or where there is no run): what
// a screen drawing r warns of, and the help repeats whole.
func Stale(r *runs.Run, spec spec.Resolved) string {
	if r == nil || runs.RunKey(r.Spec) == runs.RunKey(spec) {
		return ""
	}
	return StaleNote(r.ID)
}
