package serve

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"dpso/internal/spec"
	"dpso/theory"
	"dpso/tui"
	"dpso/tui/input"
	"dpso/tui/presets"
)

// endReason is how a session ended.
type endReason int

const (
	endQuit     endReason = iota // the student quit (q) or closed the connection
	endIdle                      // no key for Config.Idle
	endShutdown                  // the server is stopping
)

// session is one explorer session.
type session struct {
	id     string // its terminal's ID, counted by Config.MaxPerKey
	hangup func()
	mu     sync.Mutex
	prog   *tea.Program // nil until the program is made
	reason endReason
	why    string // the sentence the student is told
	ended  bool
}

// end ends the session's explorer from outside, with the sentence the
// student is told after it; the first reason given stays. It never
// blocks: the program may be stuck writing to a client that reads nothing
// (its write deadline then hangs the client up).
func (ss *session) end(r endReason, why string) {
	ss.mu.Lock()
	if ss.ended {
		ss.mu.Unlock()
		return
	}
	ss.ended, ss.reason, ss.why = true, r, why
	p := ss.prog
	ss.mu.Unlock()
	if p != nil {
		go p.Send(endMsg{}) // returns once the program reads it or has ended
	}
}

// send delivers msg to the session's explorer, if it runs.
func (ss *session) send(msg tea.Msg) bool {
	ss.mu.Lock()
	p, ended := ss.prog, ss.ended
	ss.mu.Unlock()
	if p == nil || ended {
		return false
	}
	go p.Send(msg) // Send waits for the program's loop: never in the caller's
	return true
}

// endMsg ends the explorer's program (its runs end with the session's
// context, cancelled when the program returns).
type endMsg struct{}

// session runs an explorer on t with args (dpso explore's flags), logs how
// it ended, and returns the exit status. Both transports' sessions go
// through it, and so through its recover: a panic in a session (a bug) is
// logged with its stack, its student is told, and it ends with status 1;
// the other sessions and the server go on.
func (s *Server) session(t terminal, args []string) (code int) {
	start := s.cfg.Now()
	how := "internal error (panic)"
	defer func() {
		if p := recover(); p != nil {
			s.logf("panic: %v\n%s", p, debug.Stack())
			t.Say("dpso serve: this session hit an internal error (a bug, logged on the server); the server goes on: connect again")
			code = 1
		}
		s.logf("session of %s, started %s, %s, ended: %s", t.Who(), start.UTC().Format(time.RFC3339), s.cfg.Now().Sub(start).Round(time.Second), how)
	}()
	code, how = s.explore(t, args)
	return code
}

// explore runs the explorer on t with args and returns the exit status
// and how it ended, for the log: its arguments parsed and capped, the
// session admitted (Config.MaxSessions, Config.MaxPerKey), the explorer
// drawn at t's size held to what a screen shows (clampSize), what t types
// through the terminal guard (tui/input: over-long sequences and pastes)
// at a bounded rate (typedRate) and within an event budget (eventBudget),
// its writes under Config.WriteTimeout, its idle timer, the instructor's
// offers and the server's shutdown.
func (s *Server) explore(t terminal, args []string) (int, string) {
	opts, err := s.cfg.Parse(args)
	if err != nil {
		t.Say(err.Error())
		return 2, "bad arguments (status 2)"
	}
	limit := s.cfg.Caps.Limit
	if opts.Start != nil {
		st, err := limit(*opts.Start)
		if err != nil {
			t.Say("dpso: " + flagMessage(err))
			return 2, "arguments above the caps (status 2)"
		}
		opts.Start = &st
	} else if _, err := limit(presets.All[opts.Preset].Spec); err != nil {
		t.Say("dpso: --preset: " + flagMessage(err))
		return 2, "a preset above the caps (status 2)"
	}
	if !t.Interactive() {
		t.Say("dpso: the explorer needs an interactive terminal: connect with ssh -t (arguments after --)")
		return 2, "no terminal (status 2)"
	}
	ss, why := s.admit(t)
	if ss == nil {
		t.Say(why)
		return 1, "refused: " + why
	}
	defer s.leave(ss)

	env := sessionEnv(t.Environ())
	opts.Runner = s.pool.Seat()
	opts.Limit = limit
	opts.Link = t.Link()
	opts.NoExport = noExportNote(t.Where(), opts.Link != "")
	opts.ExportDir = ""
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, "NO_COLOR="):
			opts.Plain = true
		case strings.HasPrefix(kv, "COLORFGBG="):
			opts.Light = tui.LightFromColorFGBG(strings.TrimPrefix(kv, "COLORFGBG="))
		}
	}
	// The explorer's runs and prescriptions end with ctx: when the
	// program returns, whatever ended it.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	m, err := tui.New(ctx, opts)
	if err != nil {
		t.Say("dpso: " + err.Error())
		return 1, "failed to start"
	}
	sm := &sessionModel{inner: m, plain: opts.Plain, status: t.Status}
	idle := newIdleTimer(s.cfg.Idle, func() {
		ss.end(endIdle, fmt.Sprintf("dpso serve: no key for %s, so this session ended; connect again to go on", s.cfg.Idle))
	})
	defer idle.stop()
	out := newDeadlineWriter(t.Output(), s.cfg.WriteTimeout, t.Hangup)
	keys := input.NewReader(t.Input(), nil)
	keys.Limit(typedRate, typedBurst)
	w, h := clampSize(t.Size())
	s.sized(w, h)
	var budget eventBudget
	prog := tea.NewProgram(sm,
		tea.WithInput(keys),
		tea.WithOutput(out),
		tea.WithEnvironment(env),
		tea.WithColorProfile(t.Profile()),
		tea.WithWindowSize(w, h),
		tea.WithContext(ctx),
		tea.WithoutSignalHandler(),
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			switch msg.(type) {
			case tea.SuspendMsg: // no job control over a remote terminal
				return tea.ResumeMsg{}
			case tea.KeyPressMsg, tea.PasteMsg, tea.MouseClickMsg:
				if !budget.allow(time.Now()) {
					s.dropped()
					return nil
				}
				idle.reset()
			case tea.KeyReleaseMsg, tea.MouseReleaseMsg, tea.MouseMotionMsg, tea.MouseWheelMsg:
				if !budget.allow(time.Now()) {
					s.dropped()
					return nil
				}
			}
			return msg
		}))
	ss.mu.Lock()
	ss.prog = prog
	ended := ss.ended
	ss.mu.Unlock()
	if ended { // the server began stopping meanwhile
		t.Say(ss.why)
		return 0, "server shutdown"
	}
	sizes := newSizeBox(w, h)
	go t.Watch(ctx, sizes.Set)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-sizes.Changed():
				w, h := clampSize(sizes.Get())
				s.sized(w, h)
				prog.Send(tea.WindowSizeMsg{Width: w, Height: h})
			}
		}
	}()
	_, runErr := prog.Run()
	cancel()
	ss.mu.Lock()
	ss.ended = true
	reason, why := ss.reason, ss.why
	ss.mu.Unlock()
	flood := ""
	if budget.dropped > 0 {
		flood = fmt.Sprintf(" (%s input events past %d a second dropped)", theory.FormatCount(budget.dropped), inputRate)
	}
	if out.timedOut() {
		return 0, "dropped: the client read nothing for " + durText(s.cfg.WriteTimeout) + flood
	}
	if reason == endIdle && sm.reopen != "" {
		// What the session showed, read when it ended (no key can ask
		// for it then): connecting with it opens that screen again.
		_, tab := t.(*webTerminal)
		switch {
		case sm.reopenLink && tab:
			why += "; " + sm.reopen + " opens the screen it showed"
		case sm.reopenLink:
			// An SSH client of a server that serves browsers too: ssh's
			// way back first, the page's beside it.
			why += "; with -t -- --state " + sm.state + " it opens on the screen it showed (dpso explore --state opens it on your own machine; " + sm.reopen + " in a browser)"
		default:
			why += "; with -t -- --state " + sm.reopen + " it opens on the screen it showed (dpso explore --state opens it on your own machine)"
		}
	}
	if why != "" {
		t.Say(why)
	}
	switch {
	case reason == endIdle:
		return 0, "idle" + flood
	case reason == endShutdown:
		return 0, "server shutdown" + flood
	case runErr != nil && ctx.Err() != nil:
		return 0, "connection closed" + flood
	case runErr != nil:
		return 1, "error" + flood
	}
	return 0, "quit" + flood
}

// sized records the size an explorer is drawn at (s.onSize: tests).
func (s *Server) sized(w, h int) {
	if s.onSize != nil {
		s.onSize(w, h)
	}
}

// dropped notes an input event dropped past a session's budget
// (s.onDrop: tests).
func (s *Server) dropped() {
	if s.onDrop != nil {
		s.onDrop()
	}
}

// flagMessage is a refusal of Limit as the CLI writes a flag's: "--n: …".
func flagMessage(err error) string {
	var se *spec.SpecError
	if errors.As(err, &se) {
		return "--" + spec.FlagName(se.Field) + ": " + se.Msg
	}
	return err.Error()
}

// admit counts a new explorer session of t's client in, unless the
// server is stopping, full, or the client has Config.MaxPerKey sessions
// already (nil and the sentence that says which).
func (s *Server) admit(t terminal) (*session, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := t.ID()
	switch {
	case s.closing:
		return nil, "dpso serve: the server is stopping; connect again once it is back"
	case len(s.sessions) >= s.cfg.MaxSessions:
		return nil, fmt.Sprintf("dpso serve: the server is full (%s, its --max-sessions); try again in a while", sessions(s.cfg.MaxSessions, ""))
	case id != "" && s.perKey[id] >= s.cfg.MaxPerKey:
		return nil, fmt.Sprintf("dpso serve: you have %s open here already, the most one client may have (its --max-per-key); end one (q) first", sessions(s.cfg.MaxPerKey, ""))
	}
	ss := &session{id: id, hangup: t.Hangup}
	s.sessions[ss] = struct{}{}
	if id != "" {
		s.perKey[id]++
	}
	return ss, ""
}

func (s *Server) leave(ss *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, ss)
	if ss.id != "" {
		if s.perKey[ss.id]--; s.perKey[ss.id] <= 0 {
			delete(s.perKey, ss.id)
		}
	}
}

// idleTimer calls fire once no reset came for d (d < 0: never).
type idleTimer struct {
	t *time.Timer
	d time.Duration
}

func newIdleTimer(d time.Duration, fire func()) *idleTimer {
	it := &idleTimer{d: d}
	if d >= 0 {
		it.t = time.AfterFunc(d, fire)
	}
	return it
}

func (it *idleTimer) reset() {
	if it.t != nil {
		it.t.Reset(it.d)
	}
}

func (it *idleTimer) stop() {
	if it.t != nil {
		it.t.Stop()
	}
}

// sessionModel is the explorer of a session with what the server adds:
// the instructor's offer, a banner on the last line that b opens and B
// dismisses (other keys go to the explorer: nothing changes unasked), and
// the end from outside.
type sessionModel struct {
	inner *tui.Model
	offer *offer
	plain bool
	width int
	// reopen is what opens the screen shown when the session ended (a
	// state string, or a link where reopenLink), read on its end; state
	// is that screen's state string.
	reopen     string
	reopenLink bool
	state      string
	// status is the terminal's Status: the offer's words where the client
	// has a status line beside the explorer (a browser page).
	status func(string)
}

// Init starts the explorer.
func (sm *sessionModel) Init() tea.Cmd { return sm.inner.Init() }

// Update routes the server's messages and the banner's keys; the rest is
// the explorer's.
func (sm *sessionModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case endMsg:
		sm.reopen, sm.reopenLink = sm.inner.Reopen()
		sm.state = sm.inner.State().String()
		return sm, tea.Quit // the session's context then ends the explorer's runs
	case offer:
		sm.offer = &msg
		return sm, sm.say("The instructor sends " + msg.what + ": b opens it, B dismisses it.")
	case tea.WindowSizeMsg:
		sm.width = msg.Width
	case tea.KeyPressMsg:
		if sm.offer != nil && !sm.inner.Typing() {
			switch msg.String() {
			case "b":
				o := sm.offer
				sm.offer = nil
				_, cmd := sm.inner.Update(o.open)
				return sm, tea.Batch(cmd, sm.say(""))
			case "B":
				sm.offer = nil
				return sm, sm.say("")
			}
		}
	}
	_, cmd := sm.inner.Update(msg)
	return sm, cmd
}

// say puts line in the client's status line (terminal.Status), off the
// program's loop: a write to a slow page waits its deadline.
func (sm *sessionModel) say(line string) tea.Cmd {
	if sm.status == nil {
		return nil
	}
	return func() tea.Msg {
		sm.status(line)
		return nil
	}
}

// View is the explorer's, its last line the banner while an offer waits.
func (sm *sessionModel) View() tea.View {
	v := sm.inner.View()
	if sm.offer == nil || sm.width == 0 {
		return v
	}
	lines := strings.Split(v.Content, "\n")
	line := bannerText(*sm.offer, sm.width)
	if pad := sm.width - ansi.StringWidth(line); pad > 0 {
		line += strings.Repeat(" ", pad)
	}
	if !sm.plain {
		line = lipgloss.NewStyle().Reverse(true).Bold(true).Render(line)
	}
	lines[len(lines)-1] = line
	v.Content = strings.Join(lines, "\n")
	return v
}

// noExportNote is what e answers in a session (where: "an SSH session",
// "a browser tab"): it exports nothing, and the way to the files is the
// state string that y gives — within the link to this screen where the
// server serves browsers (link), whose state= part it is.
func noExportNote(where string, link bool) string {
	y := "y gives the state string"
	if link {
		y = "y gives a link to this screen whose state= part is the state string"
	}
	return "e exports nothing in " + where + " (the files would land on the server); " + y + " to open this screen in dpso explore --state on your own machine, and e there exports it"
}
