package runs

import (
	tea "charm.land/bubbletea/v2"

	"dpso/internal/engine"
)

// SearchedMsg is a search's report before its end (engine.Settings.Searched,
// then engine.Settings.Coarse), of run id.
type SearchedMsg struct {
	ID     int
	Report *engine.TuneReport
}

// OracleRuns is how many of the oracle's grid-point runs are done, over
// every (solver, trial).
func (r *Run) OracleRuns() int {
	n := 0
	for _, k := range r.oracleRuns {
		n += k
	}
	return n
}

// handSearched hands a search's report to the screen (waitSearched): the
// latest report replaces one not yet taken, so that the search never
// blocks on the screen. Only the search's goroutine calls it.
func (r *Run) handSearched(rep *engine.TuneReport) {
	for {
		select {
		case r.searched <- rep:
			return
		default:
		}
		select {
		case <-r.searched:
		default:
		}
	}
}

// waitSearched is the command that waits for a search's next report
// before its end (a SearchedMsg), or for the run's end (nothing: the
// result says it all).
func waitSearched(r *Run) tea.Cmd {
	return func() tea.Msg {
		select {
		case rep := <-r.searched:
			return SearchedMsg{ID: r.ID, Report: rep}
		case <-r.done:
			return nil
		}
	}
}
