package serve

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/ssh"

	"dpso/internal/statestring"
	"dpso/theory"
	"dpso/tui"
	"dpso/tui/presets"
)

// offer is the instructor's broadcast as a session holds it: the
// banner's words and the message that opens it in the explorer.
type offer struct {
	what string // "preset 4 "Heavy tails: …"", "the sweep screen of --scenario …"
	open any    // tui.OpenPreset or tui.OpenState
}

// broadcastCmd is `ssh host -- broadcast --preset P` or `-- broadcast
// STATE` (or --state STATE): the instructor's key sends it to every
// explorer session; anyone else is refused.
func (s *Server) broadcastCmd(sess ssh.Session, args []string) {
	if !hasKey(s.instructor, sess.PublicKey()) {
		say(sess.Stderr(), "dpso serve: broadcast: only the instructor's key (dpso serve --instructor-key) sends to the class")
		s.logf("broadcast refused to %s", who(sess))
		sess.Exit(2)
		return
	}
	o, err := s.parseOffer(args)
	if err != nil {
		say(sess.Stderr(), "dpso serve: broadcast: "+err.Error())
		sess.Exit(2)
		return
	}
	n := s.broadcast(o)
	fmt.Fprintf(sess, "sent %s to %d sessions\r\n", o.what, n)
	s.logf("broadcast by %s to %d sessions", who(sess), n)
	sess.Exit(0)
}

// parseOffer reads a broadcast's arguments: --preset P, or a state
// string (alone or after --state). What it offers must pass the caps.
func (s *Server) parseOffer(args []string) (offer, error) {
	usage := "give --preset P (a number or a part of a title) or a state string (the explorer's y shows it)"
	if len(args) == 2 && (args[0] == "--preset" || args[0] == "--state") {
		args = []string{args[0] + "=" + args[1]}
	}
	if len(args) != 1 {
		return offer{}, fmt.Errorf("%s", usage)
	}
	a := args[0]
	if p, ok := strings.CutPrefix(a, "--preset="); ok {
		i, err := presets.Index(p)
		if err != nil {
			return offer{}, fmt.Errorf("--preset: %v", err)
		}
		if _, err := s.cfg.Caps.Limit(presets.All[i].Spec); err != nil {
			return offer{}, fmt.Errorf("--preset: %s", flagMessage(err))
		}
		return offer{what: "preset " + strconv.Itoa(i+1) + " " + theory.Quote(presets.All[i].Title), open: tui.OpenPreset(i)}, nil
	}
	a = strings.TrimPrefix(a, "--state=")
	st, err := statestring.Parse(a, tui.ScreenNames())
	if err != nil {
		return offer{}, fmt.Errorf("--state: %v", err)
	}
	lim, err := s.cfg.Caps.Limit(st.Spec)
	if err == nil {
		_, err = lim.Resolve()
	}
	if err != nil {
		return offer{}, fmt.Errorf("--state: %s", flagMessage(err))
	}
	st.Spec = lim
	return offer{what: stateWhat(st), open: tui.OpenState(st)}, nil
}

// stateWhat names a state as the banner offers it: its preset first (the
// words a student reads at 80 columns), its screen and the run it draws,
// then its fields.
func stateWhat(st statestring.State) string {
	what := ""
	if i := presets.IndexOfTitle(st.Preset); i >= 0 {
		what = "preset " + strconv.Itoa(i+1) + " " + theory.Quote(st.Preset) + ": "
	}
	what += "the " + st.Screen + " screen"
	switch st.Run {
	case statestring.CompareKey:
		what += " with c's comparison"
	case statestring.RunKey:
		what += " with r's run"
	}
	return what + " of " + strings.Join(st.Spec.Args(), " ")
}

// broadcast sends o to every explorer session and returns how many.
func (s *Server) broadcast(o offer) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for ss := range s.sessions {
		if ss.send(o) {
			n++
		}
	}
	return n
}
