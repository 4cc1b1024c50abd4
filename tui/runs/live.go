package runs

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// liveDelay is live mode's debounce: a change re-runs once no other change
// came for this long.
const liveDelay = 250 * time.Millisecond

// LiveTickMsg is live mode's debounce timer; gen is the change it was set
// for (a later change supersedes it).
type LiveTickMsg struct{ gen int }

// Live re-runs the last run after an edit of the form when that run
// took under the longest run (max) (TensorFlow Playground's behaviour): each edit sets a
// tea.Tick timer tagged with a new generation; only the latest timer's
// tick starts the run, so a burst of edits runs once. Runs of the longest run (max) or
// more stay manual (r), and so does everything while a manual run is
// going.
type Live struct {
	On    bool
	Max   time.Duration // the longest run it repeats (Options.LiveMax)
	Now   func() time.Time
	Gen   int // timers set
	Ticks int // timers fired (tests wait on it)
}

// candidate is the run live mode would repeat (nil: none): the latest run
// of the screen's family (Job.Family) if it ended within the longest run (max) or is
// itself a live run in flight, and no manual run is going.
func (l *Live) candidate(runs *Lifecycle, family ScreenKind) *Run {
	if !l.On {
		return nil
	}
	if cur := runs.Current(); cur != nil && cur.Active() && !cur.Live {
		return nil
	}
	last := runs.Last(family)
	switch {
	case last == nil:
		return nil
	case last.Active():
		if !last.Live {
			return nil
		}
	case last.Phase == Cancelled || last.Elapsed(l.Now()) >= l.Max:
		return nil
	}
	return last
}

// Schedule sets the debounce timer for an edit, if there is a run to
// repeat.
func (l *Live) Schedule(runs *Lifecycle, family ScreenKind) tea.Cmd {
	if l.candidate(runs, family) == nil {
		return nil
	}
	l.Gen++
	gen := l.Gen
	return tea.Tick(liveDelay, func(time.Time) tea.Msg { return LiveTickMsg{gen: gen} })
}

// Fire is the run to repeat when the timer msg is the latest one (nil
// otherwise, or when there is none to repeat).
func (l *Live) Fire(msg LiveTickMsg, runs *Lifecycle, family ScreenKind) *Run {
	l.Ticks++
	if msg.gen != l.Gen {
		return nil
	}
	return l.candidate(runs, family)
}

// DefaultLiveMax is the longest run that live mode re-runs by itself
// unless Options.LiveMax says otherwise: a change re-runs a run that took
// less; a longer one stays manual (r), and the status bar says why.
const DefaultLiveMax = 2 * time.Second
