package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/common"
)

// msgsOf runs cmd and the commands of every batch it returns, and gives
// the messages.
func msgsOf(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch m := cmd().(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range m {
			out = append(out, msgsOf(c)...)
		}
		return out
	case nil:
		return nil
	default:
		return []tea.Msg{m}
	}
}

// resetReachMemo forgets every computed reach.
func resetReachMemo() {
	kReachMemo.Lock()
	defer kReachMemo.Unlock()
	kReachMemo.r, kReachMemo.keys = nil, nil
}

// TestKSweepReachOffTheEventLoop: the k sweep's reach (how far k goes:
// with a declared constant a dozen problems are built, about a second on
// logreg-t) is never computed inside Update. A change of the form's Spec
// while the k sweep is shown returns a command that computes it; until
// its answer comes the screen says it is computing; an answer for
// parameters changed since is dropped; the current one is kept, shown
// (where k stops, and why), the reproduce line made again; the sweep
// that r or showing the screen asked for meanwhile is asked for then.
// Events only: the test delivers the commands' messages itself.
func TestKSweepReachOffTheEventLoop(t *testing.T) {
	declared := mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 20, K: 4, Lf: 1e4, N: 20000})
	tails := mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, Tail: 10, N: 20000})
	view := func(s *RateSweepScreen) string {
		return strings.Join(strings.Fields(stripANSI(s.View())), " ")
	}
	shown := func(t *testing.T) *RateSweepScreen {
		resetReachMemo()
		s := newRateSweepScreen(testCommon(), &sweepKAxis)
		s.SetSize(90, 20)
		s.Table.SetSize(90, 20)
		s.Update(common.ScreenMsg{Draws: SweepKKind})
		return s
	}
	t.Run("computing, then the answer", func(t *testing.T) {
		s := shown(t)
		_, cmd := s.Update(common.SpecMsg{Spec: declared})
		if _, ok := knownReachK(declared); ok {
			t.Fatal("the reach was computed inside Update")
		}
		if cmd == nil {
			t.Fatal("a change of the Spec asks for no reach")
		}
		if v := view(s); !strings.Contains(v, "computing how far k can go") {
			t.Errorf("while the reach is computed the screen does not say so:\n%s", v)
		}
		if _, why := s.Job(declared); !strings.Contains(why, "computing how far k can go") {
			t.Errorf("r before the reach is known: %q", why)
		}
		msgs := msgsOf(cmd)
		if len(msgs) != 1 {
			t.Fatalf("the command gave %v", msgs)
		}
		_, after := s.Update(msgs[0])
		v := view(s)
		if strings.Contains(v, "computing how far k can go") || !strings.Contains(v, "press r to sweep k") {
			t.Errorf("after the answer the screen still computes or asks for nothing:\n%s", v)
		}
		if !strings.Contains(s.Table.stop, "k stops at 4: at k = 6, L_f = 10000") {
			t.Errorf("the panel's stop sentence is %q", s.Table.stop)
		}
		var repro, run bool
		for _, m := range msgsOf(after) {
			switch m.(type) {
			case common.ReproChangedMsg:
				repro = true
			case common.RunRequestMsg:
				run = true
			}
		}
		if !repro || !run {
			t.Errorf("after the answer: reproduce line made again %v, the sweep r asked for requested %v", repro, run)
		}
		if sw, why := s.Job(declared); why != "" || sw.Call.SweepSpec.To != 4 {
			t.Errorf("r after the answer: %+v %q", sw.Call.SweepSpec, why)
		}
	})
	t.Run("stale answer dropped", func(t *testing.T) {
		s := shown(t)
		_, first := s.Update(common.SpecMsg{Spec: declared})
		_, second := s.Update(common.SpecMsg{Spec: tails})
		if first == nil || second == nil {
			t.Fatal("a change of the Spec asks for no reach")
		}
		s.Update(msgsOf(first)[0])
		if _, ok := knownReachK(declared); ok {
			t.Error("the answer for the parameters before the change was kept")
		}
		if v := view(s); !strings.Contains(v, "computing how far k can go") {
			t.Errorf("a stale answer ended the computing:\n%s", v)
		}
		s.Update(msgsOf(second)[0])
		if !strings.Contains(s.Table.stop, "r̃_k is infinite for linreg-t at ν = 10") {
			t.Errorf("the current answer's stop sentence is %q", s.Table.stop)
		}
	})
	t.Run("asked only while shown", func(t *testing.T) {
		resetReachMemo()
		s := newRateSweepScreen(testCommon(), &sweepKAxis)
		if _, cmd := s.Update(common.SpecMsg{Spec: declared}); cmd != nil {
			t.Error("a screen not shown asks for the reach")
		}
		_, cmd := s.Update(common.ScreenMsg{Draws: SweepKKind})
		if cmd == nil {
			t.Fatal("showing the screen asks for no reach")
		}
		if act := s.Activate(); act != nil {
			t.Errorf("activation asks a second time (%v)", msgsOf(act))
		}
		_, after := s.Update(msgsOf(cmd)[0])
		var asked bool
		for _, m := range msgsOf(after) {
			if r, ok := m.(common.RunRequestMsg); ok {
				j, why := r.Make(declared)
				asked = why == "" && j.Family == SweepKKind
			}
		}
		if !asked {
			t.Error("the sweep that showing the screen asked for is not requested once the reach is known")
		}
	})
}
