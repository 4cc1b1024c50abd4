package statusbar

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// Model is the lines under the panels (Rows): the run's state (with a
// refusal as the outcome it is) and live mode, a message's rows under it
// where it does not fit beside; the reproduce line (the dpso command of
// what is shown, on two rows where it wraps); the one-line key help.
type Model struct {
	common.Common
	now   func() time.Time
	runs  common.OnScreen // the run on screen, and the latest
	presc runs.PrescriptionMsg
	// waits is the run that starts once the Spec's constants have come
	// (common.WaitingRunMsg; "": none).
	waits string
	user  spec.Spec     // the form's Spec as set
	spec  spec.Resolved // the form's
	// screen is the reproduce line of the screen shown (common.ScreenMsg; nil:
	// the chart's, before the first).
	screen  func(user spec.Spec, res spec.Resolved, shown *runs.Run) string
	live    bool
	liveMax time.Duration // live mode's longest run
	Text    string        // a transient status line
	Err     bool
	short   string // Text's shorter form (common.StatusMsg.Short)
	fold    bool   // short is shown rather than rows for Text (StatusMsg.Fold)
	line    string // shown in place of the reproduce line until a key
	label   string // line's label
	w, h    int
	two     bool // the reproduce line takes two rows (Rows)
	// seen is the time the last render read: Rows lays out between
	// renders at it, not at the clock's.
	seen time.Time
	// repro is the reproduce line's command, made when the Spec, the
	// screen or the run shown changes (Spec.Command resolves the Spec
	// several times: not a per-frame job); reproOK says it is current
	// and reproRun is the run it was made for.
	repro    string
	reproOK  bool
	reproRun *runs.Run
	// facts is the state line's run facts in full where its last render
	// dropped some for room ("" where it showed them all): Facts.
	facts string
	// keys is the key line the last render drew and keysOf what it was
	// fitted to (keysOf): fitting renders the help once per key dropped,
	// not a per-frame job.
	keys, keysOf string
}

// New returns the status bar: now is the clock, live and liveMax
// live mode's state (LiveStateMsg changes them).
func New(c common.Common, now func() time.Time, live bool, liveMax time.Duration) *Model {
	return &Model{Common: c, now: now, live: live, liveMax: liveMax}
}

// SetSize sets the width and the rows (3, or 4 where the layout gives
// the reproduce line a second row: Rows).
func (b *Model) SetSize(w, h int) { b.w, b.h = w, h }

// Rows is the bar's rows at w cells: 3 (the state, the reproduce line,
// the keys), or 4 where two is true and the reproduce command does not
// fit one line — it then wraps after a flag's value, the first line
// ending in " \" so that both lines copied run as one command.
func (b *Model) Rows(w int, two bool) int {
	b.two = two && b.line == "" && lipgloss.Width("reproduce: "+b.command()) > w
	// Laying out reads the time the last render read. The rows the run's
	// outcome takes once the transient message goes (at the next key:
	// message{}) are kept meanwhile: the panels do not change size under
	// a key that scrolls them.
	state, facts := b.stateLines(w, true, b.message(), b.seen)
	n := 2 + len(state)
	if b.Text != "" {
		state, facts = b.stateLines(w, true, message{}, b.seen)
		n = max(n, 2+len(state))
	}
	b.facts = facts
	if b.two {
		n++
	}
	return n
}

// Update takes the runs, the Spec, the screen, live mode and the
// transient lines; a key press clears the transient line.
func (b *Model) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	if b.runs.Take(msg) {
		if sm, ok := msg.(common.ScreenMsg); ok {
			b.screen = sm.Reproduce
			b.reproOK = false
			b.dropLine()
		}
		if b.runs.Shown() != b.reproRun {
			b.reproOK = false
		}
		return b, nil
	}
	switch msg := msg.(type) {
	case runs.PrescriptionMsg:
		b.presc = msg
	case common.SpecMsg:
		b.user, b.spec = msg.User, msg.Spec
		b.reproOK = false
		if msg.Load {
			b.dropLine()
		}
	case common.LiveStateMsg:
		b.live, b.liveMax = msg.On, msg.Max
	case common.WaitingRunMsg:
		b.waits = msg.What
	case common.ReproChangedMsg:
		b.reproOK = false
	case common.StatusMsg:
		b.Text, b.Err, b.short, b.line, b.label, b.fold = msg.Text, msg.Err, msg.Short, msg.Repro, msg.Label, msg.Fold
	case tea.KeyPressMsg:
		b.Text, b.Err, b.short, b.line, b.fold = "", false, "", "", false
	}
	return b, nil
}

// dropLine drops the line shown in place of the reproduce line, with
// the message it came with (y's state string or link: the screen's or
// the configuration's, and another one is shown or loaded now).
func (b *Model) dropLine() {
	if b.line != "" {
		b.Text, b.Err, b.short, b.line, b.label, b.fold = "", false, "", "", "", false
	}
}

// View renders the state line (and the message's rows under it where
// it does not fit beside the state), the reproduce line (one row or two)
// and the keys.
func (b *Model) View() string {
	repro := []string{b.reproLine()}
	if b.two && b.line == "" {
		repro = b.reproLines()
	}
	b.seen = b.now()
	state, facts := b.stateLines(b.w, true, b.message(), b.seen)
	if len(state)+len(repro)+1 > b.h {
		// Laid out before the message came (the root lays out again
		// after the message that changed Rows): its one-line form.
		state, facts = b.stateLines(b.w, false, b.message(), b.seen)
	}
	b.facts = facts
	for len(state)+len(repro)+1 < b.h {
		state = append(state, "") // the rows the outcome takes after the message
	}
	return strings.Join(append(append(state, repro...), b.keyLine()), "\n")
}

// message is the transient message the state line shows (a
// common.StatusMsg's Text, Err, Short and Fold); a key press clears it,
// leaving message{}.
type message struct {
	text  string
	err   bool
	short string // text's shorter form
	fold  bool   // short is shown rather than rows for text
}

// message is the transient message shown now.
func (b *Model) message() message {
	return message{text: b.Text, err: b.Err, short: b.short, fold: b.fold}
}

// maxMsgRows is the most rows a message takes under the state line;
// one that needs more is shown in its one-line form, ending in
// "(? full)" (the help gives it whole).
const maxMsgRows = 4

// stateLines is the state line: the run's state and facts, the message
// (a transient one, or the run's outcome) and live mode's label on one
// row where the message fits there whole; else, with wrap, the state,
// facts and live mode on the first row and the message whole under it,
// wrapped at words, where it takes at most maxMsgRows rows; else the
// one row with the message in its short form or cut with "(? full)".
// m is the transient message and at the time the run's clock reads: the
// lines are a function of them and the bar's state, so that Rows lays
// out the lines a render draws. facts is the run's facts in full where
// the lines drop some for room, else "" (Facts).
func (b *Model) stateLines(w int, wrap bool, m message, at time.Time) (lines []string, facts string) {
	st := b.Styles
	var parts []string
	shorter := map[string]string{} // a fact's short form, where the whole one does not fit
	r := b.runs.Shown()
	state := st.StateIdle.Render("○ ready")
	if r != nil {
		el := r.Elapsed(at)
		what := r.What
		switch r.Phase {
		case runs.Running:
			state = st.StateRun.Render("● running " + what)
			switch q := r.Queue; {
			case r.Held != nil:
				state = st.StatePause.Render("◌ held before its first trial: " + what)
			case q == nil:
			case q.Position > 0:
				state = st.StatePause.Render(fmt.Sprintf("◌ queued (position %d) %s", q.Position, what))
				wait := "waiting " + common.FmtDur(q.Waited)
				parts = append(parts, wait+" for a CPU slot")
				shorter[wait+" for a CPU slot"] = wait
			default:
				state = st.StatePause.Render("◌ asking for a CPU slot for " + what)
			}
		case runs.Paused:
			state = st.StatePause.Render("‖ paused " + what + " (space resumes)")
		case runs.Done:
			state = st.StateDone.Render("✓ done " + what)
		case runs.Refused:
			state = st.StateFail.Render("✗ refused " + what)
		case runs.Stopped:
			state = st.StateFail.Render("■ stopped " + what)
		case runs.Cancelled:
			state = st.StateIdle.Render("○ cancelled " + what)
		case runs.Failed:
			state = st.StateFail.Render("✗ failed " + what)
		}
		// Run numbers count every run started, live re-runs and
		// cancelled runs included: a live re-run says it is one, so
		// that the numbers' jumps are explained where they are read.
		id := fmt.Sprintf("run #%d", r.ID)
		if r.Live {
			id += " (live re-run)"
		}
		parts = append(parts, id, common.RunOrSeed(r.Spec))
		if r.Total > 0 {
			done := r.DoneCount() + " done"
			parts = append(parts, done)
			shorter[done] = fmt.Sprintf("%d/%d runs done", r.TrialsDone, r.Total)
			if r.Total == r.Spec.Spec.Trials {
				shorter[done] = done
			}
		}
		if r.Active() && !r.Sweeps() && r.Iter[1] > 0 {
			parts = append(parts, fmt.Sprintf("iter %d/%d", r.Iter[0], r.Iter[1]))
		}
		if r.Held == nil || !r.Active() {
			// A held run has run nothing: its state says so, and a
			// clock beside it would read as the run's time.
			parts = append(parts, common.FmtDur(el))
		}
		// The rate is over the time the run held its slots: its waits
		// for them are not its pace.
		if ev, held := r.TotalEvals(), el-r.Queued; ev > 0 && held > 0 && r.Kind != backend.Tune { // a search reports candidates, not evaluations
			parts = append(parts, common.FmtInt(int64(float64(ev)/held.Seconds()))+" evals/s")
		}
		if r.Dropped > 0 {
			parts = append(parts, fmt.Sprintf("%d progress values dropped", r.Dropped))
		}
	} else {
		if name := common.DataName(b.spec.Spec, b.presc); name != "" {
			parts = append(parts, name)
		}
		if b.waits != "" {
			state = b.waitState(&parts, shorter)
			parts = append(parts, common.RunOrSeed(b.spec))
		} else {
			parts = append(parts, common.RunOrSeed(b.spec), "r runs, c compares")
		}
	}
	if o := b.runs.Elsewhere(); o != nil {
		// Another screen's run is going on: say so, first, so that it is
		// never dropped for room.
		doing := "running"
		if o.Waiting() {
			doing = "waiting for a CPU slot"
		}
		parts = append([]string{fmt.Sprintf("%s #%d %s on its screen", o.What, o.ID, doing)}, parts...)
	}
	live := b.liveLabel(at)
	if m.err && m.text != "" {
		return b.refusalLines(w, wrap, m.text, state, r, parts, live), ""
	}
	msg, msgStyle := m.text, st.Good
	var shorts []string
	if m.short != "" {
		shorts = []string{m.short}
	}
	if m.err {
		msgStyle = st.Error
	}
	if msg == "" && b.live && r != nil && !r.Active() && b.spec.UserRows() && runs.RunKey(r.Spec) != runs.RunKey(b.spec) {
		// Live mode starts no run on the user's rows: the run shown is
		// stale, and only r makes the new release.
		msg, msgStyle = RowsReleaseNote, st.Warn
	}
	if msg == "" {
		if o := common.OutcomeOf(r); o.Text != "" {
			// A refusal's solver is the state's: the bar gives the reason.
			msg, msgStyle = strings.TrimPrefix(o.Text, r.What+" refuses: "), st.Error
			shorts = o.Shorts
			if o.Warn {
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
		short := b.liveShort(at)
		if rows := style.Wrap(msg, w); wrap && lipgloss.Width(msg) > room && len(rows) <= maxMsgRows && !(m.text != "" && m.fold) &&
			(m.text == "" || lipgloss.Width(msg) > room+liveW-lipgloss.Width(short)) {
			// The message whole, under the state: never cut over its
			// reason.
			line, facts := b.factsLine(state, parts, shorter, w-liveW-2)
			out := []string{line + "  " + live}
			for _, l := range rows {
				out = append(out, msgStyle.Render(l))
			}
			return out, facts
		}
		fit, hint := fitOutcome(msg, shorts, room)
		// Whether the message is shown whole, or short with its hint.
		marked := func(f, h string) bool { return f == msg || h != "" && !strings.HasSuffix(f, "…") }
		if m.text != "" && short != live && !marked(fit, hint) {
			// Live mode's reason gives way to a transient message it
			// would cut (it is back at the next key, with the message
			// gone).
			room += liveW - lipgloss.Width(short)
			if f, h := fitOutcome(msg, shorts, room); marked(f, h) {
				fit, hint, live = f, h, short
			}
		}
		right = msgStyle.Render(fit) + st.Muted.Render(hint) + "  " + live
	}
	line, facts := b.factsLine(state, parts, shorter, w-lipgloss.Width(right)-2)
	return []string{line + "  " + right}, facts
}

// factsLine is the state and the run's facts in room cells, padded: the
// facts dropped whole from the last while they do not fit; a line that
// drops some ends in "· … (? full)", or "· …" where that would cost a
// fact the line holds, and the help (?) gives them all (facts: "" where
// the line holds them all).
func (b *Model) factsLine(state string, parts []string, shorter map[string]string, room int) (line, facts string) {
	st := b.Styles
	line, kept, all := b.fitFacts(state, parts, shorter, room)
	if !all {
		facts = strings.Join(append([]string{ansi.Strip(state)}, parts...), " · ")
		for _, mark := range []string{" · …" + fullHint, " · …"} {
			mark = st.Muted.Render(mark)
			if l, k, _ := b.fitFacts(state, parts, shorter, room-lipgloss.Width(mark)); k == kept && lipgloss.Width(l+mark) <= room {
				line = l + mark
				break
			}
		}
	}
	return style.Pad(line, room), facts
}

// fitFacts is the state followed by as many of the run's facts, in order,
// as fit in room columns (each in its shorter form where the whole one
// does not fit), how many that is, and whether they all did.
func (b *Model) fitFacts(state string, parts []string, shorter map[string]string, room int) (string, int, bool) {
	st := b.Styles
	line := state
	for i, p := range parts {
		with := func(p string) string {
			if line == state {
				return line + "  " + st.Muted.Render(p)
			}
			return line + st.Muted.Render(" · "+p)
		}
		next := with(p)
		if s, ok := shorter[p]; ok && lipgloss.Width(next) > room {
			next = with(s)
		}
		if lipgloss.Width(next) > room {
			return line, i, false
		}
		line = next
	}
	return line, len(parts), true
}

// Facts is the run's state and facts in full ("✓ done acsa · run #1 ·
// seed 0 · …") where the state line's last render dropped some for room,
// and "" where it showed them all: the help (?) lists it.
func (b *Model) Facts() string { return b.facts }

// refusalLines is the state line while a transient error is shown (a
// typed value refused, nothing to export, …): it is about the key just
// pressed, not the run, so it comes first, marked ✗, and the run after
// it is labelled as the one before ("last run: ✓ done acsa · run #2"),
// never read as a run both done and refused. The message is shown whole
// where the line holds it, the run's label after it where that fits too;
// a message longer than the line keeps at least half of it, cut at a
// word (the help gives it in full), the run's label after it. The run's
// facts follow the label as far as they fit. text is the message.
func (b *Model) refusalLines(w int, wrap bool, text, state string, r *runs.Run, parts []string, live string) []string {
	st := b.Styles
	label := state
	if r != nil && !r.Active() {
		label = st.Muted.Render("last run: ") + state
	}
	liveW := lipgloss.Width(live)
	avail := w - liveW - 2 // the cells left of live
	if rows := style.Wrap("✗ "+text, w); wrap && lipgloss.Width("✗ "+text) > avail && len(rows) <= maxMsgRows {
		// The message whole, wrapped at words, over the run's label.
		var out []string
		for _, l := range rows {
			out = append(out, st.Error.Render(l))
		}
		line := label
		for _, p := range parts {
			next := line + st.Muted.Render(" · "+p)
			if lipgloss.Width(next) > avail {
				break
			}
			line = next
		}
		return append(out, style.Pad(line, avail)+"  "+live)
	}
	const sep = "   "
	room := max(avail-len(sep)-lipgloss.Width(label)-lipgloss.Width("✗ "), w/2)
	if lipgloss.Width("✗ "+text) <= avail {
		room = max(room, avail-lipgloss.Width("✗ "))
	}
	msg, hint := fitOutcome(text, nil, room)
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
	return []string{style.Pad(line, avail) + "  " + live}
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

// RowsReleaseNote is the state line's message where live mode is on, the
// form reads the user's rows and its parameters changed since the run
// shown: live mode starts no run on them, since each run is a new release
// of the rows that composes with every earlier one.
const RowsReleaseNote = "each run on your rows is a new release of them: r runs it"

// liveLabel says whether live mode is on, and why it waits when the last
// run was too long for it (its time read at at).
func (b *Model) liveLabel(at time.Time) string {
	st := b.Styles
	if !b.live {
		return st.Muted.Render("live off (a)")
	}
	if b.spec.UserRows() {
		// Why live mode waits: each run on the user's rows is a release.
		return st.Warn.Render("live: manual (your rows)")
	}
	if r := b.runs.Shown(); r != nil && !r.Active() && r.Elapsed(at) >= b.liveMax {
		// Why live mode waits: the run took longer than it repeats.
		return st.Warn.Render("live: manual (run " + common.FmtDur(r.Elapsed(at)) + " ≥ " + common.FmtDur(b.liveMax) + ")")
	}
	return st.Good.Render("live on (a)")
}

// liveShort is liveLabel without the reason live mode waits ("live:
// manual"), for a line whose message it would cut.
func (b *Model) liveShort(at time.Time) string {
	if l := b.liveLabel(at); !strings.HasPrefix(ansi.Strip(l), "live: manual") {
		return l
	}
	return b.Styles.Warn.Render("live: manual")
}

// reproLine is the `reproduce:` line: the command of what the screen
// shows, as the screen writes it (screen.Reproduce: the dpso run command
// of the form's Spec on the chart, dpso run --solvers after a comparison,
// a sweep's dpso sweep, the audit's dpso audit), or the state string
// (y) in its place. One too long for the width is never cut silently:
// it ends after a flag's value in "… (? full)" (cutCommand), and the
// help (?) gives it whole.
func (b *Model) reproLine() string {
	label, line := "reproduce: ", b.line
	if b.line != "" {
		label = b.label
		if label == "" {
			label = "state: "
		}
	} else {
		line = b.command()
	}
	if lipgloss.Width(label+line) <= b.w {
		return b.Styles.Muted.Render(label) + line
	}
	cut := cutCommand(line, b.w-lipgloss.Width(label)-lipgloss.Width(fullHint))
	return b.Styles.Muted.Render(label) + cut + b.Styles.Emph.Render(fullHint)
}

// command is the reproduce line's command (made when what it depends
// on changed).
func (b *Model) command() string {
	if !b.reproOK {
		b.repro, b.reproRun, b.reproOK = b.Reproduce(), b.runs.Shown(), true
	}
	return b.repro
}

// reproLines is the reproduce line on two rows: the command up to the
// last flag whose value fits, then " \" (a shell's line continuation:
// the two lines copied are one command), and the rest under it, indented
// under the command; a rest wider than its row is cut before a flag with
// "(? full)", as reproLine cuts.
func (b *Model) reproLines() []string {
	const label = "reproduce: "
	line := b.command()
	lw := lipgloss.Width(label)
	if lipgloss.Width(label+line) <= b.w {
		return []string{b.Styles.Muted.Render(label) + line, ""}
	}
	words := strings.Split(line, " ")
	first, rest := "", ""
	kept := ""
	for i, wd := range words {
		if i > 0 && strings.HasPrefix(wd, "--") && lw+lipgloss.Width(kept+" \\") <= b.w {
			first, rest = kept, strings.Join(words[i:], " ")
		}
		if kept == "" {
			kept = wd
		} else {
			kept += " " + wd
		}
	}
	if first == "" {
		return []string{b.reproLine(), ""}
	}
	pad := strings.Repeat(" ", lw)
	second := pad + rest
	if lipgloss.Width(second) > b.w {
		second = pad + cutCommand(rest, b.w-lw-lipgloss.Width(fullHint)) + b.Styles.Emph.Render(fullHint)
	}
	return []string{b.Styles.Muted.Render(label) + first + " \\", second}
}

// cutCommand is command line cmd in room cells, ending in "…": its
// arguments up to the last flag that fits with its value ("… --tail 20
// …", never "--tail 20 --…" nor a flag without its value), or cut at a
// word (style.Shorten) where no flag ends in the room.
func cutCommand(cmd string, room int) string {
	words := strings.Split(cmd, " ")
	kept, end := "", ""
	for i, wd := range words {
		if i > 0 && strings.HasPrefix(wd, "--") && lipgloss.Width(kept+" …") <= room {
			end = kept // the arguments before this flag, whole
		}
		if kept == "" {
			kept = wd
		} else {
			kept += " " + wd
		}
	}
	if end == "" {
		return style.Shorten(cmd, room)
	}
	return end + " …"
}

func (b *Model) Reproduce() string {
	if b.screen == nil {
		return "" // before the root says which screen is shown
	}
	return b.screen(b.user, b.spec, b.runs.Shown())
}

// keyLine is the one-line key help: as many of the keys as fit the
// width, in their order, then "? all keys" and "q quit" (the help lists
// the rest), in the styles of the explorer's text (readable on a
// projector: style.Styles' contrast). It is fitted again only where
// what it is fitted to (keysOf) changed since the last one.
func (b *Model) keyLine() string {
	keys, end := b.KeyMap.ShortHelp(), b.KeyMap.ShortHelpEnd()
	st := b.Styles
	of := keysOf(b.w, st, keys, end)
	if of == b.keysOf {
		return b.keys
	}
	hm := help.New()
	hm.Styles = help.Styles{ShortKey: st.Key, ShortDesc: st.KeyDesc, ShortSeparator: st.Muted, Ellipsis: st.Muted}
	n := len(keys)
	for n > 0 && lipgloss.Width(hm.ShortHelpView(append(keys[:n:n], end...))) > b.w {
		n--
	}
	b.keys, b.keysOf = style.Fit(hm.ShortHelpView(append(keys[:n:n], end...)), b.w), of
	return b.keys
}

// keysOf is what the key line at w cells is a function of: the width,
// the keys' and the end's help and whether each is on, and the styles
// it is drawn in (a sample of each: the theme changes them in place).
func keysOf(w int, st *style.Styles, keys, end []key.Binding) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d\x00%s\x00%s\x00%s", w, st.Key.Render("k"), st.KeyDesc.Render("d"), st.Muted.Render("m"))
	for _, k := range append(keys[:len(keys):len(keys)], end...) {
		h := k.Help()
		fmt.Fprintf(&sb, "\x00%t\x00%s\x00%s", k.Enabled(), h.Key, h.Desc)
	}
	return sb.String()
}
