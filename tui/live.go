package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// liveDelay is live mode's debounce: a change re-runs once no other change
// came for this long.
const liveDelay = 250 * time.Millisecond

// liveTickMsg is live mode's debounce timer; gen is the change it was set
// for (a later change supersedes it).
type liveTickMsg struct{ gen int }

// liveMode re-runs the last run after an edit of the form when that run
// took under the longest run (max) (TensorFlow Playground's behaviour): each edit sets a
// tea.Tick timer tagged with a new generation; only the latest timer's
// tick starts the run, so a burst of edits runs once. Runs of the longest run (max) or
// more stay manual (r), and so does everything while a manual run is
// going.
type liveMode struct {
	on    bool
	max   time.Duration // the longest run it repeats (Options.LiveMax)
	now   func() time.Time
	gen   int // timers set
	ticks int // timers fired (tests wait on it)
}

// candidate is the run live mode would repeat (nil: none): the latest run
// of the screen's family (job.family) if it ended within the longest run (max) or is
// itself a live run in flight, and no manual run is going.
func (l *liveMode) candidate(runs *lifecycle, family screenKind) *run {
	if !l.on {
		return nil
	}
	if cur := runs.Current(); cur != nil && cur.active() && !cur.live {
		return nil
	}
	last := runs.Last(family)
	switch {
	case last == nil:
		return nil
	case last.active():
		if !last.live {
			return nil
		}
	case last.phase == phaseCancelled || last.elapsed(l.now()) >= l.max:
		return nil
	}
	return last
}

// schedule sets the debounce timer for an edit, if there is a run to
// repeat.
func (l *liveMode) schedule(runs *lifecycle, family screenKind) tea.Cmd {
	if l.candidate(runs, family) == nil {
		return nil
	}
	l.gen++
	gen := l.gen
	return tea.Tick(liveDelay, func(time.Time) tea.Msg { return liveTickMsg{gen: gen} })
}

// fire is the run to repeat when the timer msg is the latest one (nil
// otherwise, or when there is none to repeat).
func (l *liveMode) fire(msg liveTickMsg, runs *lifecycle, family screenKind) *run {
	l.ticks++
	if msg.gen != l.gen {
		return nil
	}
	return l.candidate(runs, family)
}
