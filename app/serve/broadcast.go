package serve

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/ssh"
	"github.com/charmbracelet/x/ansi"

	"dpso/internal/statestring"
	"dpso/theory"
	"dpso/tui"
	"dpso/tui/presets"
)

// offer is the instructor's broadcast as a session holds it: the
// banner's words and the message that opens it in the explorer.
type offer struct {
	what string // "preset 4 "Heavy tails: …"", "the sweep screen of --scenario …"
	// title is the preset's title that what quotes ("": none), keep the
	// length of what's words a banner shows whole: the preset and the
	// screen that b opens (bannerText).
	title string
	keep  int
	open  any // tui.OpenPreset or tui.OpenState
}

// bannerLead starts the banner of an offer; bannerShortLead where the
// preset and its screen do not fit after it.
const (
	bannerLead      = " ▶ b opens, B dismisses: the instructor sends "
	bannerShortLead = " ▶ b opens, B dismisses: "
)

// bannerText is the banner of offer o on a terminal width cells wide:
// whole where it fits; else its preset and the screen it opens
// (what[:keep]) stay whole — after the short lead where the long one
// leaves no room, the preset's title shortened at a word (or left out) —
// and the fields after them are cut at a word, ending in "…".
func bannerText(o offer, width int) string {
	text := bannerLead + o.what
	if ansi.StringWidth(text) <= width {
		return text
	}
	lead := bannerLead
	if ansi.StringWidth(lead+o.what[:o.keep]) > width {
		lead = bannerShortLead
	}
	if over := ansi.StringWidth(lead+o.what[:o.keep]) - width; over > 0 && o.title != "" {
		q := theory.Quote(o.title)
		short := ""
		if room := ansi.StringWidth(o.title) - over; room >= 6 {
			short = " " + theory.Quote(shortenWords(o.title, room))
		}
		if i := strings.Index(o.what, " "+q); i >= 0 {
			o.what = o.what[:i] + short + o.what[i+1+len(q):]
			o.keep += len(short) - 1 - len(q)
		}
	}
	head, rest := lead+o.what[:o.keep], strings.TrimSpace(o.what[o.keep:])
	room := width - ansi.StringWidth(head) - 1
	if room < 2 || rest == "" {
		return ansi.Truncate(head, width, "…")
	}
	// The fields after the screen, cut at a word: the words kept are
	// whole, one "…" says that more follow.
	if ansi.StringWidth(rest) > room {
		rest = fieldsUpTo(rest, room)
	}
	return head + " " + rest
}

// fieldsUpTo is s's words that fit in width cells, then "…" (only "…"
// where the first word does not fit).
func fieldsUpTo(s string, width int) string {
	out := wordsWithin(s, width-2)
	if out == "" {
		return "…"
	}
	return out + " …"
}

// wordsWithin is s's first words, joined by single spaces, as many as
// fit in width cells ("" where the first does not).
func wordsWithin(s string, width int) string {
	out := ""
	for _, w := range strings.Fields(s) {
		next := w
		if out != "" {
			next = out + " " + w
		}
		if ansi.StringWidth(next) > width {
			break
		}
		out = next
	}
	return out
}

// broadcastCmd is `ssh host -- broadcast --preset P` (with --screen S),
// `-- broadcast STATE` (or --state STATE), or `-- broadcast --help`: the
// instructor's key sends it to every explorer session; anyone else is
// refused.
func (s *Server) broadcastCmd(sess ssh.Session, args []string) {
	if !hasKey(s.instructor, sess.PublicKey()) {
		say(sess.Stderr(), "dpso serve: broadcast: only the instructor's key (dpso serve --instructor-key) sends to the class")
		s.logf("broadcast refused to %s", who(sess))
		sess.Exit(2)
		return
	}
	o, err := s.parseOffer(args)
	if errors.Is(err, errOfferHelp) {
		say(sess, "dpso serve: broadcast: "+offerUsage)
		sess.Exit(0)
		return
	}
	if err != nil {
		say(sess.Stderr(), "dpso serve: broadcast: "+err.Error())
		sess.Exit(2)
		return
	}
	n := s.broadcast(o)
	fmt.Fprintf(sess, "sent %s to %s\r\n", o.what, sessions(n, ""))
	s.logf("broadcast by %s to %s", who(sess), sessions(n, ""))
	sess.Exit(0)
}

// offerUsage is what a broadcast takes, as a refused one and --help say,
// the screens S may be named (the explorer's, as a state string names
// them) among it.
var offerUsage = "give --preset P (a number or a part of a title; with --screen S, on screen S as the state string y shows there opens it; S is one of " +
	strings.Join(tui.ScreenNames(), ", ") + ") or a state string (the explorer's y shows it)"

// errOfferHelp is parseOffer's answer to --help or -h.
var errOfferHelp = errors.New("help")

// offerArgs are a broadcast's arguments read: --preset, --screen and
// --state (each --name V or --name=V) or one state string alone.
type offerArgs struct{ preset, screen, state string }

// readOfferArgs reads args, naming in its error the first argument a
// broadcast does not take.
func readOfferArgs(args []string) (offerArgs, error) {
	var a offerArgs
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--help" || arg == "-h" {
			return a, errOfferHelp
		}
		if !strings.HasPrefix(arg, "-") {
			if a.state != "" || a.preset != "" {
				return a, fmt.Errorf("%s: one preset or one state string at a time; %s", theory.Quote(arg), offerUsage)
			}
			a.state = arg
			continue
		}
		name, value, hasValue := strings.Cut(arg, "=")
		var to *string
		switch name {
		case "--preset":
			to = &a.preset
		case "--screen":
			to = &a.screen
		case "--state":
			to = &a.state
		default:
			return a, fmt.Errorf("%s is not a flag of broadcast: %s", name, offerUsage)
		}
		if !hasValue {
			if i+1 == len(args) {
				return a, fmt.Errorf("%s needs a value: %s", name, offerUsage)
			}
			i++
			value = args[i]
		}
		if *to != "" {
			return a, fmt.Errorf("%s is given twice: %s", name, offerUsage)
		}
		*to = value
	}
	switch {
	case a.screen != "" && a.preset == "":
		return a, errors.New("--screen goes with --preset P (a state string carries its own screen)")
	case a.preset == "" && a.state == "":
		return a, errors.New(offerUsage)
	case a.preset != "" && a.state != "":
		return a, fmt.Errorf("--preset and a state string: send one; %s", offerUsage)
	}
	return a, nil
}

// parseOffer reads a broadcast's arguments: --preset P (and --screen S:
// the preset's state on that screen, unless it is the preset's own, which
// loading the preset shows and runs), or a state string (alone or after
// --state). What it offers must pass the caps.
func (s *Server) parseOffer(args []string) (offer, error) {
	a, err := readOfferArgs(args)
	if err != nil {
		return offer{}, err
	}
	if a.preset != "" {
		i, err := presets.Index(a.preset)
		if err != nil {
			return offer{}, fmt.Errorf("--preset: %v", err)
		}
		lim, err := s.cfg.Caps.Limit(presets.All[i].Spec)
		if err != nil {
			return offer{}, fmt.Errorf("--preset: %s", flagMessage(err))
		}
		own := string(presets.All[i].Screen)
		if own == "" {
			own = tui.ScreenNames()[0]
		}
		if a.screen != "" && a.screen != own {
			if !slices.Contains(tui.ScreenNames(), a.screen) {
				return offer{}, fmt.Errorf("--screen: no screen %s (one of %s)", theory.Quote(a.screen), strings.Join(tui.ScreenNames(), ", "))
			}
			st := statestring.State{Spec: lim, Screen: a.screen, Preset: presets.All[i].Title}
			what, keep := stateWhat(st)
			return offer{what: what, title: st.Preset, keep: keep, open: tui.OpenState(st)}, nil
		}
		what := "preset " + strconv.Itoa(i+1) + " " + theory.Quote(presets.All[i].Title)
		return offer{what: what, title: presets.All[i].Title, keep: len(what), open: tui.OpenPreset(i)}, nil
	}
	st, err := statestring.Parse(a.state, tui.ScreenNames())
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
	what, keep := stateWhat(st)
	return offer{what: what, title: st.Preset, keep: keep, open: tui.OpenState(st)}, nil
}

// sessions is "1 session" or "n sessions", the kind (e.g. "browser")
// before the noun where it is not "".
func sessions(n int, kind string) string {
	noun := "sessions"
	if n == 1 {
		noun = "session"
	}
	if kind != "" {
		noun = kind + " " + noun
	}
	return strconv.Itoa(n) + " " + noun
}

// stateWhat names a state as the banner offers it: its preset first (the
// words a student reads at 80 columns), its screen and the run it draws,
// then its fields; keep is the length of the words before the fields.
func stateWhat(st statestring.State) (what string, keep int) {
	what = ""
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
	return what + " of " + strings.Join(st.Spec.Args(), " "), len(what)
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

// shortenWords cuts s to at most width cells at a word: the words that
// fit, then "…" (s itself where it fits).
func shortenWords(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	out := wordsWithin(s, width-1)
	if out == "" {
		return ansi.Truncate(s, width, "…")
	}
	return strings.TrimRight(out, " ,;:—–-·") + "…"
}
