package tui

import (
	"dpso/internal/report"
	"dpso/tui/common"
	"dpso/tui/runs"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestLongTextScrolls: at 80×24 the help's last
// paragraph and the theorem's notes are reached by scrolling.
func TestLongTextScrolls(t *testing.T) {
	m := goldenModel(t, 80, 24)
	last := "Privacy is ρ-zCDP"
	keyUntil(t, m, "?", func() bool { return m.overlay == m.help })
	if v := screenText(m); strings.Contains(v, last) || !strings.Contains(v, "more lines: j, pgdn") {
		t.Fatalf("the help fits 80×24 or does not say it scrolls:\n%s", v)
	}
	for i := 0; i < 10 && !strings.Contains(screenText(m), last); i++ {
		m.Update(press("pgdown"))
	}
	if !strings.Contains(screenText(m), last) {
		t.Errorf("pgdn does not reach the help's last paragraph:\n%s", screenText(m))
	}
	keyUntil(t, m, "esc", func() bool { return m.overlay == nil })
	// The notes of the comparison just run (the notes the CLI prints are
	// reachable in the explorer).
	notes := "Notes of run #1"
	if strings.Contains(screenText(m), notes) {
		t.Fatal("the theorem's notes fit 80×24: nothing to scroll")
	}
	for i := 0; i < 60 && !strings.Contains(screenText(m), notes); i++ {
		m.Update(press("pgdown"))
	}
	if !strings.Contains(screenText(m), notes) {
		t.Errorf("pgdn does not reach the theorem's notes:\n%s", screenText(m))
	}
}

// TestRunNotesAndStartLine: a run's notes — the list `dpso run`
// prints (report.Notes) — are reached by scrolling the theorem panel, and
// a run that ends above the start line F(w₀) − F* says so on the status
// bar in words. On the first preset (linreg-t, F(w₀) − F* ≈ 0.156) the
// fake's acsa ends at 0.0721, under it; in the comparison klz-gd (0.18)
// and dp-sgd (0.216) end above it, acsa and sgd (0.108) do not.
func TestRunNotesAndStartLine(t *testing.T) {
	first := linregT
	m := newTestModel(t, &fakeRunner{points: 6}, &first, 132, 42)
	w0 := m.chartScreen().Presc.Prescription.W0.Mean
	if !(w0 > fakeMean(1, first.Trials, 6) && w0 < fakeMean(3, first.Trials, 6)) {
		t.Fatalf("F(w₀) − F* = %g does not separate the fake's solvers", w0)
	}
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
	if line := strings.Split(screenText(m), "\n")[m.stateRow()]; strings.Contains(line, "worse than") || strings.Contains(line, "above w₀") || common.OutcomeOf(m.run()).Text != "" {
		t.Errorf("a run under the start line is said to be worse than doing nothing: %q", line)
	}
	notes := report.Notes(m.run().Comparison)
	if len(notes) == 0 {
		t.Fatal("the run has no notes to show")
	}
	head := "Notes of run #1, as dpso run prints them"
	for i := 0; i < 20 && !strings.Contains(stripANSI(m.formula.View()), head); i++ {
		m.Update(press("pgdown"))
	}
	v := strings.Join(strings.Fields(stripANSI(m.formula.View())), " ")
	if !strings.Contains(v, head) {
		t.Fatalf("pgdn does not reach the run's notes:\n%s", stripANSI(m.formula.View()))
	}
	firstWords := strings.Join(strings.Fields(notes[0])[:4], " ")
	if !strings.Contains(v, firstWords) {
		t.Errorf("the theorem's notes lack the run's first note %q:\n%s", notes[0], stripANSI(m.formula.View()))
	}

	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Phase == runs.Done && m.run().Compare })
	want := "klz-gd, dp-sgd above w₀ (the start line, " + common.FmtNum(w0) + "): worse than doing nothing"
	if got := common.OutcomeOf(m.run()).Text; got != want {
		t.Errorf("outcome %q, want %q", got, want)
	}
	if line := strings.Split(screenText(m), "\n")[m.stateRow()]; !strings.Contains(line, "klz-gd, dp-sgd above w₀") {
		t.Errorf("the status bar does not say the comparison ended above the start line: %q", line)
	}
	keyUntil(t, m, "?", func() bool { return m.overlay == m.help })
	if v := strings.Join(strings.Fields(screenText(m)), " "); !strings.Contains(v, "run #2: "+want) {
		t.Errorf("the help does not give the outcome in full:\n%s", screenText(m))
	}

	// Example 1 starts at its optimum (F(w₀) − F* = 0): a single run ends
	// above it, and the state names the solver; the chart draws no start
	// line at 0 (log scale), so the sentence names none (under the state,
	// whole, where it does not fit beside it).
	e1 := newTestModel(t, &fakeRunner{points: 6}, &example1, 132, 42)
	keyUntil(t, e1, "r", func() bool { return settled(e1) && e1.run().Phase == runs.Done })
	want = "above w₀'s excess risk 0 (the start is the optimum) at " + common.FmtNum(fakeMean(0, example1.Trials, 6)) + ": worse than doing nothing"
	if line := strings.Join(strings.Split(screenText(e1), "\n")[e1.stateRow():e1.stateRow()+2], " "); !strings.HasPrefix(line, "✓ done acsa") || !strings.Contains(line, want) {
		t.Errorf("status %q, want ✓ done acsa and %q", line, want)
	}
}

// fakeMean is the fake's mean excess risk of solver si over trials at
// checkpoint j.
func fakeMean(si, trials, j int) float64 {
	var s float64
	for trial := range trials {
		s += fakeExcess(si, trial, j)
	}
	return s / float64(trials)
}

// TestLineScrollAndWheel: j and k scroll the theorem panel by a line, the
// mouse wheel by three, pgdn by a page; the help scrolls the same way.
func TestLineScrollAndWheel(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	vp := &m.formula.Viewport
	keyUntil(t, m, "j", func() bool { return true })
	keyUntil(t, m, "j", func() bool { return true })
	if vp.YOffset() != 2 {
		t.Fatalf("j j: offset %d, want 2", vp.YOffset())
	}
	keyUntil(t, m, "k", func() bool { return true })
	if vp.YOffset() != 1 {
		t.Errorf("k: offset %d, want 1", vp.YOffset())
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if vp.YOffset() != 1+wheelLines {
		t.Errorf("the wheel down: offset %d, want %d", vp.YOffset(), 1+wheelLines)
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if vp.YOffset() != 1 {
		t.Errorf("the wheel up: offset %d, want 1", vp.YOffset())
	}
	keyUntil(t, m, "?", func() bool { return m.overlay == m.help })
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.help.Viewport.YOffset() != wheelLines {
		t.Errorf("the wheel in the help: offset %d, want %d", m.help.Viewport.YOffset(), wheelLines)
	}
	if v := m.View(); v.MouseMode != tea.MouseModeCellMotion {
		t.Error("the view does not ask for the mouse wheel")
	}
}
