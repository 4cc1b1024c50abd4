package screens

import (
	"sync"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/tui/common"
	"dpso/tui/runs"
)

// kReachPending is why the k sweep has no grid yet: its reach at the
// form's parameters is being computed off the event loop (reachKCmd).
const kReachPending = "computing how far k can go at these parameters (each k's problem is built with the declared constants); the k sweep waits for it"

// kReachMsg is computeReachK's answer for the Spec whose runs.RunKey is
// key, computed off the event loop (reachKCmd).
type kReachMsg struct {
	key string
	r   kReach
}

// reachKCmd computes how far a k sweep goes on res off the event loop:
// on logreg-t with a declared constant it builds a dozen problems, about
// a second of CPU that would freeze the explorer inside Update.
func reachKCmd(res spec.Resolved) tea.Cmd {
	key := runs.RunKey(res)
	return func() tea.Msg { return kReachMsg{key: key, r: computeReachK(res)} }
}

// kReachMemo keeps the answers the screen accepted (the form's Spec at
// the time, or its sweep's), the latest kReachKeep of them, so that
// going back to earlier parameters asks for nothing.
var kReachMemo struct {
	sync.Mutex
	r    map[string]kReach
	keys []string // oldest first
}

const kReachKeep = 16

// knownReachK is the k sweep's reach on res where it has been computed.
func knownReachK(res spec.Resolved) (kReach, bool) {
	key := runs.RunKey(res)
	kReachMemo.Lock()
	defer kReachMemo.Unlock()
	r, ok := kReachMemo.r[key]
	return r, ok
}

// storeReachK keeps r, the reach on the Spec whose RunKey is key.
func storeReachK(key string, r kReach) {
	kReachMemo.Lock()
	defer kReachMemo.Unlock()
	if kReachMemo.r == nil {
		kReachMemo.r = map[string]kReach{}
	}
	if _, ok := kReachMemo.r[key]; !ok {
		kReachMemo.keys = append(kReachMemo.keys, key)
	}
	kReachMemo.r[key] = r
	for len(kReachMemo.keys) > kReachKeep {
		delete(kReachMemo.r, kReachMemo.keys[0])
		kReachMemo.keys = kReachMemo.keys[1:]
	}
}

// reachState is what the k sweep's screen asked for and what waits for
// the answer.
type reachState struct {
	shown  bool            // the screen is the one shown (common.ScreenMsg)
	asking map[string]bool // the RunKeys whose reach is being computed
	// wantKey is the Spec whose answer a run waits for: the sweep r
	// asked for (run) or the one showing the screen asks for.
	wantKey string
	run     bool
}

// updateReach is Update on the k axis: the shared state as every sweep
// screen takes it, and the reach. The reach of the form's Spec is asked
// for while the screen is shown (reachKCmd: never computed inside
// Update); an answer for parameters changed since is dropped, as stale;
// the one for the form's Spec is kept, the screen rebuilt, the status
// bar's reproduce line made again (common.ReproChangedMsg), and the
// sweep that waited for it asked for.
func (s *RateSweepScreen) updateReach(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.ScreenMsg:
		s.reach.shown = msg.Draws == s.kind
		return s.askReach()
	case kReachMsg:
		delete(s.reach.asking, msg.key)
		if msg.key != runs.RunKey(s.Spec) {
			if s.reach.wantKey == msg.key {
				s.reach.wantKey = ""
			}
			return s.askReach() // stale: the parameters changed since
		}
		storeReachK(msg.key, msg.r)
		s.rebuild()
		cmds := []tea.Cmd{common.Emit(common.ReproChangedMsg{})}
		if s.reach.wantKey == msg.key {
			s.reach.wantKey = ""
			if s.reach.run {
				cmds = append(cmds, common.Emit(common.RunRequestMsg{Make: s.Job}))
			} else if s.reach.shown {
				cmds = append(cmds, s.sweepBase.Activate())
			}
		}
		return tea.Batch(cmds...)
	}
	if !s.take(msg) {
		return nil
	}
	s.rebuild()
	if _, ok := msg.(common.SpecMsg); ok {
		return s.askReach()
	}
	return nil
}

// askReach asks for the reach of the form's Spec where the screen is
// shown and it is neither known nor being computed.
func (s *RateSweepScreen) askReach() tea.Cmd {
	if !s.reach.shown {
		return nil
	}
	key := runs.RunKey(s.Spec)
	if _, ok := knownReachK(s.Spec); ok || s.reach.asking[key] {
		return nil
	}
	if s.reach.asking == nil {
		s.reach.asking = map[string]bool{}
	}
	s.reach.asking[key] = true
	return reachKCmd(s.Spec)
}

// Job is the sweep r runs. On the k axis before its reach at res is
// known, the sweep waits for it: it is asked for when the answer comes
// (updateReach), and the status bar says why nothing started yet.
func (s *RateSweepScreen) Job(res spec.Resolved) (runs.Job, string) {
	if s.axis.reach {
		if _, ok := knownReachK(res); !ok {
			s.reach.wantKey, s.reach.run = runs.RunKey(res), true
			return runs.Job{}, "computing how far k can go at these parameters: the k sweep starts once that is known"
		}
	}
	return s.sweepBase.Job(res)
}

// Activate asks for the sweep where the screen has none of the form's
// Spec; on the k axis before its reach is known, once it is.
func (s *RateSweepScreen) Activate() tea.Cmd {
	if s.axis.reach {
		if _, ok := knownReachK(s.Spec); !ok {
			if s.reach.wantKey != runs.RunKey(s.Spec) {
				s.reach.wantKey, s.reach.run = runs.RunKey(s.Spec), false
			}
			return s.askReach()
		}
	}
	return s.sweepBase.Activate()
}
