package tui

import (
	"strings"
	"testing"

	"dpso/tui/backend"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// TestStoppedSweepDrawsItsFinishedPoints: a sweep a server stops part
// way (backend.StoppedError, dpso serve --max-run-time) keeps what it
// finished, as a stopped comparison does: the points whose runs ended
// before the stop are drawn, the legend says they are what finished
// before the stop and how many of the runs asked for, and the chart's
// note says it was stopped — never a chart with no point —, and the
// privacy panel holds the ledger of a run finished before the stop (what
// was released: the points drawn). The fake stops
// after the second of its points.
func TestStoppedSweepDrawsItsFinishedPoints(t *testing.T) {
	const short = "stopped after 30 s on its CPU slots"
	m := newTestModel(t, &fakeRunner{points: 3, stop: &backend.StoppedError{Short: short, Reason: "stopped"}, stopAfter: 2}, &example1, 120, 32)
	keyUntil(t, m, "s", func() bool {
		r := m.runs.Last(screens.SweepNKind)
		return r != nil && !r.Active() && r.Drained
	})
	r := m.runs.Last(screens.SweepNKind)
	if r.Phase != runs.Stopped {
		t.Fatalf("the sweep ended in phase %d", r.Phase)
	}
	var drawn int
	for _, s := range m.sweepScreen().Chart.Series() {
		if s.Label == r.Names[0] {
			drawn = len(s.Points)
			if !strings.Contains(s.Note, "finished before the stop: "+r.DoneCount()) {
				t.Errorf("the stopped sweep's points are labelled %q", s.Note)
			}
		}
	}
	if drawn != 2 {
		t.Errorf("the stopped sweep draws %d points, want the 2 it finished", drawn)
	}
	// The privacy panel's ledger is that of a run finished before the
	// stop, as for a stopped comparison: the points drawn are what it
	// released.
	if _, _, who, _, _, ok := m.privacy.Spent(); !ok || !strings.Contains(who, "finished before the stop") {
		t.Errorf("the privacy panel's ledger is %q (ok %v), want a run finished before the stop", who, ok)
	}
	v := strings.Join(strings.Fields(screenText(m)), " ")
	if !strings.Contains(v, "■ "+r.StopText()) {
		t.Errorf("the chart does not say the sweep was %s:\n%s", r.StopText(), screenText(m))
	}
}

// TestStoppedSearchSaysWhyNoBar: a tuning search a server stops draws no
// bar (its three runs are drawn side by side as means over every trial,
// and the stop cut at least one), and the screen says so in one whole
// line with the trials done — never only the search's intro under a
// stop that does not say what became of the finished trials.
func TestStoppedSearchSaysWhyNoBar(t *testing.T) {
	const short = "stopped after 30 s on its CPU slots"
	sp := example1
	sp.Trials = 1
	m := newTestModel(t, &fakeRunner{points: 3, stop: &backend.StoppedError{Short: short, Reason: "stopped"}}, &sp, 120, 32)
	keyUntil(t, m, "g", func() bool {
		r := m.runs.Last(screens.TuneKind)
		return r != nil && !r.Active() && r.Drained
	})
	r := m.runs.Last(screens.TuneKind)
	if r.Phase != runs.Stopped {
		t.Fatalf("the search ended in phase %d", r.Phase)
	}
	v := strings.Join(strings.Fields(stripANSI(m.screens[m.active].screen.View())), " ")
	if !strings.Contains(v, "■ the search was "+r.StopText()+": no bar is drawn — this screen draws the means over every trial") {
		t.Errorf("the tuning screen does not say why the stopped search draws no bar:\n%s", screenText(m))
	}
}
