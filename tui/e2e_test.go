package tui

import (
	"bytes"
	"context"
	"dpso/tui/runs"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// startProgram runs the explorer in a teatest program on a fake runner.
func startProgram(t *testing.T, fr *fakeRunner, w, h int) (*teatest.TestModel, *Model) {
	t.Helper()
	m, err := New(context.Background(), testOpts(t, fr, 10*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := m.form.SetSpec(example1)
	if err != nil {
		t.Fatal(err)
	}
	m.initCmd = tea.Batch(m.initCmd, cmd)
	m.setPreset(-1)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	return tm, m
}

// termScreen drives a teatest program and reads its screen. Bubble Tea's
// renderer writes only the cells that change, so a string on the screen
// is not necessarily contiguous in the output; a resize repaints the
// whole screen, so look alternates the width by one column before
// waiting, and every line can then be found whole.
type termScreen struct {
	tm   *teatest.TestModel
	w, h int
	odd  bool
}

// look repaints and waits until the screen contains every string.
func (s *termScreen) look(t *testing.T, want ...string) {
	t.Helper()
	s.odd = !s.odd
	w := s.w
	if s.odd {
		w--
	}
	s.tm.Send(tea.WindowSizeMsg{Width: w, Height: s.h})
	teatest.WaitFor(t, s.tm.Output(), func(b []byte) bool {
		got := stripANSI(string(b))
		for _, x := range want {
			if !strings.Contains(got, x) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(hangGuard(t)), teatest.WithCheckInterval(20*time.Millisecond))
}

// TestE2ERunAndQuit: the first screen shows the parameters and the upper
// and lower bounds' rates (the theorem panel); r draws the run; q quits
// cleanly.
func TestE2ERunAndQuit(t *testing.T) {
	tm, _ := startProgram(t, &fakeRunner{points: 6}, 132, 42)
	sc := &termScreen{tm: tm, w: 132, h: 42}
	sc.look(t, "Parameters", "scenario", "example1", "upper rate", "lower rate", "noisy clipped AC-SA")
	tm.Send(press("r"))
	sc.look(t, "── acsa", "✓ done acsa")
	tm.Send(press("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	if !fm.quitting || fm.run().Phase != runs.Done {
		t.Errorf("final model: quitting %v, run phase %d", fm.quitting, fm.run().Phase)
	}
}

// TestE2ECompareResizeAndKeysDuringRun: keys work while a run is held in
// flight; a shrink below the minimum shows the notice and a grow brings
// the layout back; the comparison shows the baseline's refusal.
func TestE2ECompareResizeAndKeysDuringRun(t *testing.T) {
	fr := &fakeRunner{points: 6, hold: make(chan struct{}), holdAt: 2}
	tm, _ := startProgram(t, fr, 132, 42)
	sc := &termScreen{tm: tm, w: 132, h: 42}
	sc.look(t, "upper rate")
	tm.Send(press("c"))
	sc.look(t, "● running comparison")
	tm.Send(press("?"))
	sc.look(t, "pause / resume", "? or esc closes")
	tm.Send(press("esc"))
	small := &termScreen{tm: tm, w: 41, h: 12}
	small.look(t, "enlarge the terminal", "need ≥ 80×24")
	sc.look(t, "Parameters", "● running comparison")
	close(fr.hold)
	sc.look(t, "✓ done comparison", "✗ lipschitz-dpsgd refused: "+fakeRefusal)
	tm.Send(press("ctrl+c"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestE2EOutputHasNoColourUnderAscii: with the Ascii profile (what
// NO_COLOR selects) the program writes no colour codes.
func TestE2EOutputHasNoColourUnderAscii(t *testing.T) {
	tm, _ := startProgram(t, &fakeRunner{points: 4}, 100, 30)
	sc := &termScreen{tm: tm, w: 100, h: 30}
	sc.look(t, "certified ≤")
	tm.Send(press("r"))
	sc.look(t, "✓ done acsa")
	tm.Send(press("q"))
	var b bytes.Buffer
	_, _ = b.ReadFrom(tm.FinalOutput(t, teatest.WithFinalTimeout(5*time.Second)))
	if c := colourCode(b.String()); c != "" {
		t.Errorf("colour code %q under the Ascii profile", c)
	}
}
