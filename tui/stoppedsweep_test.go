package tui

import (
	"math"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
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
	m, r := stoppedBy(t, 2, &example1, "s", screens.SweepNKind)
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
	sp := example1
	sp.Trials = 1
	m, r := stoppedBy(t, 0, &sp, "g", screens.TuneKind)
	v := strings.Join(strings.Fields(stripANSI(m.screens[m.active].screen.View())), " ")
	if !strings.Contains(v, "■ the search was "+r.StopText()+": no bar is drawn — this screen draws the means over every trial") {
		t.Errorf("the tuning screen does not say why the stopped search draws no bar:\n%s", screenText(m))
	}
}

// TestStoppedClipSweepDrawsItsFinishedPoints: a clipping sweep a server
// stops part way draws the values of C it finished — at the engine's
// default grid built from the prescribed C of its Spec, the grid the
// finished sweep draws —, labelled as finished before the stop, with the
// note that it was stopped: never a chart that is only the stop's text.
func TestStoppedClipSweepDrawsItsFinishedPoints(t *testing.T) {
	m, r := stoppedBy(t, 3, &example1, "x", screens.ClipKind)
	// The grid the whole sweep draws: the fake's finished report.
	whole := newTestModel(t, &fakeRunner{points: 3}, &example1, 120, 32)
	keyUntil(t, whole, "x", func() bool {
		r := whole.runs.Last(screens.ClipKind)
		return r != nil && !r.Active() && r.Drained
	})
	want := whole.runs.Last(screens.ClipKind).Sweep.Points[:3]
	var drawn []float64
	for _, s := range m.clipScreen().Chart.Series() {
		if s.Label == r.Names[0] {
			for _, p := range s.Points {
				drawn = append(drawn, p.X)
			}
			if !strings.Contains(s.Note, "finished before the stop: "+r.DoneCount()) {
				t.Errorf("the stopped clipping sweep's points are labelled %q", s.Note)
			}
		}
	}
	if len(drawn) != len(want) {
		t.Fatalf("the stopped clipping sweep draws %d points (%v), want the %d it finished", len(drawn), drawn, len(want))
	}
	for i, p := range want {
		if math.Abs(drawn[i]-p.Value) > 1e-12*p.Value {
			t.Errorf("point %d drawn at C = %v, the sweep ran it at C = %v", i, drawn[i], p.Value)
		}
	}
	v := strings.Join(strings.Fields(stripANSI(m.clipScreen().View())), " ")
	if !strings.Contains(v, "■ "+r.StopText()) {
		t.Errorf("the clipping chart does not say the sweep was %s:\n%s", r.StopText(), stripANSI(m.clipScreen().View()))
	}
}

// TestStoppedSearchDrawsItsFinishedTrials: a tuning search a server
// stops during its private searches, after 1 of its 2 trials searched,
// draws the tuned bar of the trial that finished — the measured excess
// risk of the point its search released —, labelled "1 of 2 trials:
// stopped", says that the prescribed runs and the oracle-tuned reference
// had not run, and the privacy panel says what the finished trials
// released and that the stop does not wait for a total "when it ends".
func TestStoppedSearchDrawsItsFinishedTrials(t *testing.T) {
	sp := example1
	sp.Trials = 2
	m, r := stoppedBy(t, 1, &sp, "g", screens.TuneKind)
	xs := r.SearchedTrials(0)
	if len(xs) != 1 || !(xs[0] > 0) {
		t.Fatalf("the stopped search's finished trials are %v, want the 1 that searched", xs)
	}
	v := strings.Join(strings.Fields(stripANSI(m.screens[m.active].screen.View())), " ")
	for _, want := range []string{
		"■ the search was " + r.StopText() + ": 1 of 2 trials finished their private search before the stop",
		"mean ± s.e. over 1 of 2 trials: stopped",
		"tuned █",
		screens.EstText(engine.EstimateOf(xs)),
		"The prescribed runs and the oracle-tuned reference had not run",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the stopped search's screen lacks %q:\n%s", want, v)
		}
	}
	pv := strings.Join(strings.Fields(stripANSI(m.privacy.View())), " ")
	if strings.Contains(pv, "stated when it ends") || !strings.Contains(pv, "search stopped:") {
		t.Errorf("the privacy panel of the stopped search says:\n%s", pv)
	}
}

// stoppedBy is the explorer at 120×32 on sp after key started a run of
// kind that a server stopped (backend.StoppedError, dpso serve's
// --max-run-time) after the fake's stopAfter-th point or trial (0: at
// once), and that run, once drained; it fails the test unless the run
// ended stopped.
func stoppedBy(t *testing.T, stopAfter int, sp *spec.Spec, key string, kind runs.ScreenKind) (*Model, *runs.Run) {
	t.Helper()
	stop := &backend.StoppedError{Short: "stopped after 30 s on its CPU slots", Reason: "stopped"}
	m := newTestModel(t, &fakeRunner{points: 3, stop: stop, stopAfter: stopAfter}, sp, 120, 32)
	keyUntil(t, m, key, func() bool {
		r := m.runs.Last(kind)
		return r != nil && !r.Active() && r.Drained
	})
	r := m.runs.Last(kind)
	if r.Phase != runs.Stopped {
		t.Fatalf("the run ended in phase %d, not stopped", r.Phase)
	}
	return m, r
}
