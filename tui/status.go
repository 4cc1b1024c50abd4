package tui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/style"
)

// defaultLiveMax is the longest run that live mode re-runs by itself
// unless Options.LiveMax says otherwise: a change re-runs a run that took
// less; a longer one stays manual (r), and the status bar says why.
const defaultLiveMax = 2 * time.Second

// statusBar is the three lines under the panels: the run's state (with a
// refusal as the outcome it is) and live mode; the reproduce line (the dpso
// command of what is shown); the one-line key help.
type statusBar struct {
	common
	now   func() time.Time
	runs  onScreen // the run on screen, and the latest
	presc prescriptionMsg
	user  spec.Spec     // the form's Spec as set
	spec  spec.Resolved // the form's
	// screen is the reproduce line of the screen shown (screenMsg; nil:
	// the chart's, before the first).
	screen  func(user spec.Spec, res spec.Resolved, shown *run) string
	live    bool
	liveMax time.Duration // live mode's longest run
	text    string        // a transient status line
	err     bool
	line    string // shown in place of the reproduce line until a key
	label   string // line's label
	w       int
	// repro is the reproduce line's command, made when the Spec, the
	// screen or the run shown changes (Spec.Command resolves the Spec
	// several times: not a per-frame job); reproOK says it is current
	// and reproRun is the run it was made for.
	repro    string
	reproOK  bool
	reproRun *run
}

// SetSize sets the width (the bar is 3 lines).
func (b *statusBar) SetSize(w, _ int) { b.w = w }

// Update takes the runs, the Spec, the screen, live mode and the
// transient lines; a key press clears the transient line.
func (b *statusBar) Update(msg tea.Msg) (component, tea.Cmd) {
	if b.runs.take(msg) {
		if sm, ok := msg.(screenMsg); ok {
			b.screen = sm.reproduce
			b.reproOK = false
		}
		if b.runs.shown() != b.reproRun {
			b.reproOK = false
		}
		return b, nil
	}
	switch msg := msg.(type) {
	case prescriptionMsg:
		b.presc = msg
	case specMsg:
		b.user, b.spec = msg.user, msg.spec
		b.reproOK = false
	case liveStateMsg:
		b.live, b.liveMax = msg.on, msg.max
	case statusMsg:
		b.text, b.err, b.line, b.label = msg.text, msg.err, msg.repro, msg.label
	case tea.KeyPressMsg:
		b.text, b.err, b.line = "", false, ""
	}
	return b, nil
}

// View renders the three lines.
func (b *statusBar) View() string {
	return strings.Join([]string{b.stateLine(), b.reproLine(), b.keyLine()}, "\n")
}

func (b *statusBar) stateLine() string {
	st := b.st
	w := b.w
	var parts []string
	r := b.runs.shown()
	state := st.StateIdle.Render("○ ready")
	if r != nil {
		el := r.elapsed(b.now())
		what := r.what()
		switch r.phase {
		case phaseRunning:
			state = st.StateRun.Render("● running " + what)
		case phasePaused:
			state = st.StatePause.Render("‖ paused " + what + " (space resumes)")
		case phaseDone:
			state = st.StateDone.Render("✓ done " + what)
		case phaseRefused:
			state = st.StateFail.Render("✗ refused " + what)
		case phaseCancelled:
			state = st.StateIdle.Render("○ cancelled " + what)
		case phaseFailed:
			state = st.StateFail.Render("✗ failed " + what)
		}
		// Run numbers count every run started, live re-runs and
		// cancelled runs included: a live re-run says it is one, so
		// that the numbers' jumps are explained where they are read.
		id := fmt.Sprintf("run #%d", r.id)
		if r.live {
			id += " (live re-run)"
		}
		parts = append(parts, id, runOrSeed(r.Spec))
		if r.total > 0 {
			parts = append(parts, fmt.Sprintf("%d/%s done", r.trialsDone, trialCount(r.total)))
		}
		if r.active() && !r.sweeps() && r.iter[1] > 0 {
			parts = append(parts, fmt.Sprintf("iter %d/%d", r.iter[0], r.iter[1]))
		}
		parts = append(parts, fmtDur(el))
		if ev := r.totalEvals(); ev > 0 && el > 0 && r.Kind != backend.Tune { // a search reports candidates, not evaluations
			parts = append(parts, fmtInt(int64(float64(ev)/el.Seconds()))+" evals/s")
		}
		if r.dropped > 0 {
			parts = append(parts, fmt.Sprintf("%d progress values dropped", r.dropped))
		}
	} else {
		if name := dataName(b.spec.Spec, b.presc); name != "" {
			parts = append(parts, name)
		}
		parts = append(parts, runOrSeed(b.spec), "r runs, c compares")
	}
	if o := b.runs.elsewhere(); o != nil {
		// Another screen's run is going on: say so, first, so that it is
		// never dropped for room.
		parts = append([]string{fmt.Sprintf("%s #%d running on its screen", o.what(), o.id)}, parts...)
	}
	live := b.liveLabel()
	if b.err && b.text != "" {
		return b.refusalLine(state, r, parts, live)
	}
	msg, msgStyle := b.text, st.Good
	var shorts []string
	if b.err {
		msgStyle = st.Error
	}
	if msg == "" {
		if o := outcomeOf(r); o.text != "" {
			// A refusal's solver is the state's: the bar gives the reason.
			msg, msgStyle = strings.TrimPrefix(o.text, r.what()+" refuses: "), st.Error
			shorts = o.shorts
			if o.warn {
				msgStyle = st.Warn
			}
		}
	}
	liveW := lipgloss.Width(live)
	right := live
	if msg != "" {
		// The message keeps at most three quarters of the line and never
		// the state's words; a longer one is cut at a word boundary, and
		// the help (?) shows it in full.
		// The run's number stays beside the state (a message never pushes
		// it out: the numbers are how one tells a re-run from the run
		// before).
		keep := lipgloss.Width(state) + 2
		if r != nil && len(parts) > 0 {
			keep += 2 + lipgloss.Width(parts[0])
		}
		room := min(w-w/4, w-keep) - liveW - 2
		msg, hint := fitOutcome(msg, shorts, room)
		right = msgStyle.Render(msg) + st.Muted.Render(hint) + "  " + live
	}
	rw := lipgloss.Width(right)
	// The run's facts, dropped whole from the last while they do not fit.
	line := state
	for _, p := range parts {
		next := line
		if next == state {
			next += "  " + st.Muted.Render(p)
		} else {
			next += st.Muted.Render(" · " + p)
		}
		if lipgloss.Width(next) > w-rw-2 {
			break
		}
		line = next
	}
	return style.Pad(line, w-rw-2) + "  " + right
}

// refusalLine is the state line while a transient error is shown (a
// typed value refused, nothing to export, …): it is about the key just
// pressed, not the run, so it comes first, marked ✗, and the run after
// it is labelled as the one before ("last run: ✓ done acsa · run #2"),
// never read as a run both done and refused. The message keeps at least
// half the line (a longer one is cut at a word, the help gives it in
// full); the run's label follows where it fits, its facts as far as they
// fit.
func (b *statusBar) refusalLine(state string, r *run, parts []string, live string) string {
	st := b.st
	w := b.w
	label := state
	if r != nil && !r.active() {
		label = st.Muted.Render("last run: ") + state
	}
	liveW := lipgloss.Width(live)
	avail := w - liveW - 2 // the cells left of live
	const sep = "   "
	room := max(avail-len(sep)-lipgloss.Width(label)-lipgloss.Width("✗ "), w/2)
	msg, hint := fitOutcome(b.text, nil, room)
	line := st.Error.Render("✗ "+msg) + st.Muted.Render(hint)
	if next := line + sep + label; lipgloss.Width(next) <= avail {
		line = next
		for _, p := range parts {
			next := line + st.Muted.Render(" · "+p)
			if lipgloss.Width(next) > avail {
				break
			}
			line = next
		}
	}
	return style.Pad(line, avail) + "  " + live
}

// fullHint follows a message the status bar shortened: the help (?)
// gives it in full.
const fullHint = " (? full)"

// fitOutcome is msg in room cells, and the hint to put after it ("" when
// msg is shown whole): msg when it fits; else the first of its short
// forms (longest first) that fits with the hint, else without it; else
// msg (or its last short form) cut at a word boundary before the hint —
// never a name cut inside it while a short form fits.
func fitOutcome(msg string, shorts []string, room int) (string, string) {
	if lipgloss.Width(msg) <= room {
		return msg, ""
	}
	for _, s := range shorts {
		if lipgloss.Width(s+fullHint) <= room {
			return s, fullHint
		}
		if lipgloss.Width(s) <= room {
			return s, ""
		}
	}
	if len(shorts) > 0 {
		msg = shorts[len(shorts)-1]
	}
	return style.Shorten(msg, room-lipgloss.Width(fullHint)), fullHint
}

// outcome is the sentence a run ended with beside its state: a refusal
// or a failure (errors), or that it ended above the start line F(w₀) − F*
// (a warning: it did worse than doing nothing). The status bar shows it
// shortened, the help in full.
type outcome struct {
	text string
	warn bool
	// shorts are shorter forms of text that keep its point when the
	// line is short, longest first ("lipschitz-dpsgd above w₀", then
	// "1 solver above w₀"), rather than a list of names cut before it
	// says what they did; nil: text cut at a word.
	shorts []string
}

// outcomeOf is r's outcome sentence ("" when there is none to say).
func outcomeOf(r *run) outcome {
	switch {
	case r == nil:
		return outcome{}
	case r.phase == phaseRefused:
		return outcome{text: r.refusal}
	case r.phase == phaseFailed:
		return outcome{text: backend.SpecMessage(r.err)}
	case r.phase == phaseDone && r.Comparison != nil:
		if t, who, at := aboveStart(r.Comparison); t != "" {
			o := outcome{text: t, warn: true}
			switch {
			case len(r.Comparison.Reports) == 1:
				// The state names the solver.
				o.shorts = []string{"above w₀ at " + at, "above w₀"}
			case len(who) == 1:
				o.shorts = []string{who[0] + " above w₀", "1 solver above w₀"}
			default:
				o.shorts = []string{strings.Join(who, ", ") + " above w₀", fmt.Sprintf("%d solvers above w₀", len(who))}
			}
			return o
		}
	}
	return outcome{}
}

// aboveStart says which solvers' mean excess risk ended above the start
// line F(w₀) − F* (the chart's w₀ line) — worse than returning w₀ — in
// words, the solvers first ("" when none did), with the solvers and, for
// a single run, its mean as written. The run's notes say it with the
// standard error (engine's runNotes), the legend gives the values.
func aboveStart(c *engine.Comparison) (text string, who []string, at string) {
	w0, mean := math.NaN(), math.NaN()
	for _, rep := range c.Reports {
		if rep.Refused != "" || math.IsNaN(rep.W0.Mean) || !(rep.Excess.Mean > rep.W0.Mean) {
			continue
		}
		w0, mean = rep.W0.Mean, rep.Excess.Mean
		who = append(who, rep.Solver)
	}
	switch {
	case len(who) == 0:
		return "", nil, ""
	case len(c.Reports) == 1:
		return "above w₀ (the start line, " + fmtNum(w0) + ") at " + fmtNum(mean) + ": worse than doing nothing", who, fmtNum(mean)
	}
	return strings.Join(who, ", ") + " above w₀ (the start line, " + fmtNum(w0) + "): worse than doing nothing", who, ""
}

// liveLabel says whether live mode is on, and why it waits when the last
// run was too long for it.
func (b *statusBar) liveLabel() string {
	st := b.st
	if !b.live {
		return st.Muted.Render("live off (a)")
	}
	if r := b.runs.shown(); r != nil && !r.active() && r.elapsed(b.now()) >= b.liveMax {
		// Why live mode waits: the run took longer than it repeats.
		return st.Warn.Render("live: manual (run " + fmtDur(r.elapsed(b.now())) + " ≥ " + fmtDur(b.liveMax) + ")")
	}
	return st.Good.Render("live on (a)")
}

// reproLine is the `reproduce:` line: the command of what the screen
// shows, as the screen writes it (screen.Reproduce: the dpso run command
// of the form's Spec on the chart, dpso run --solvers after a comparison,
// a sweep's dpso sweep, the audit's dpso audit).
func (b *statusBar) reproLine() string {
	if b.line != "" {
		label := b.label
		if label == "" {
			label = "state: "
		}
		return style.Fit(b.st.Muted.Render(label)+b.line, b.w)
	}
	if !b.reproOK {
		b.repro, b.reproRun, b.reproOK = b.reproduce(), b.runs.shown(), true
	}
	return style.Fit(b.st.Muted.Render("reproduce: ")+b.repro, b.w)
}

func (b *statusBar) reproduce() string {
	if b.screen == nil {
		return chartCommand(b.user, b.spec, b.runs.shown())
	}
	return b.screen(b.user, b.spec, b.runs.shown())
}

// keyLine is the one-line key help: as many of the keys as fit the
// width, in their order, then "? all keys" and "q quit" (the help lists
// the rest), in the styles of the explorer's text (readable on a
// projector: style.Styles' contrast).
func (b *statusBar) keyLine() string {
	hm := help.New()
	st := b.st
	hm.Styles = help.Styles{ShortKey: st.Key, ShortDesc: st.KeyDesc, ShortSeparator: st.Muted, Ellipsis: st.Muted}
	keys, end := b.keys.ShortHelp(), b.keys.shortHelpEnd()
	n := len(keys)
	for n > 0 && lipgloss.Width(hm.ShortHelpView(append(keys[:n:n], end...))) > b.w {
		n--
	}
	return style.Fit(hm.ShortHelpView(append(keys[:n:n], end...)), b.w)
}
