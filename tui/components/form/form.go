package form

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// Model is the controls panel: it edits a spec.Spec. ← → step the
// focused field through its grid or list; on a numeric field a digit
// starts typing a value in place (a bubbles textinput; enter sets it, esc
// cancels). Every candidate is resolved as the CLI's flags are (resolve);
// a value that does not resolve is refused and the error's message is
// shown on the field it names, so the form's Spec is always valid. Its
// outcomes are a common.SpecMsg for every change and a common.StatusMsg for every
// refusal.
type Model struct {
	common.Common

	user     spec.Spec     // what the user chose (zero fields: defaults)
	resolved spec.Resolved // user, resolved (once: what the engine is given)
	res      spec.Spec     // resolved.Spec: every default explicit
	rev      int           // counts the changes (common.SpecMsg.Rev)

	focus Field
	// cursor is the index (in the focused field's options) of the last
	// refused candidate, so that the next step moves past it; -1 if none.
	cursor       int
	refused      string // the refusal message, shown under the fields
	refusedField Field  // where the ✗ goes: the field the message is about
	// refusedValue is the value a step on the refused field tried, shown
	// beside its ✗ ("": a typed value, or a refusal about another field).
	refusedValue string
	note         string // a neutral note (end of a grid)
	// paged is the message under the form that f paged, pageTop the
	// first of its lines shown (messageArea).
	paged   string
	pageTop int
	// open is whether f opened the focused field's explanation: it then
	// takes the rows it needs under the fields, for every field focused,
	// until f folds it.
	open bool

	lastRun int // the latest run seen (runs.Event)
	// presc is the latest prescription: user data's rows and columns
	// (dataDims) are known once it has read the file.
	presc runs.PrescriptionMsg

	editing bool // a value is being typed into input
	input   textinput.Model

	w, h int
}

// New returns a form editing s, which must resolve.
func New(c common.Common, s spec.Spec) (*Model, error) {
	f := &Model{Common: c, cursor: -1}
	f.input = textinput.New()
	f.input.Prompt = ""
	f.input.CharLimit = 32
	f.StyleInput()
	if _, err := f.SetSpec(s); err != nil {
		return nil, err
	}
	return f, nil
}

// StyleInput gives the text input the explorer's styles (no blinking: a
// blinking cursor would redraw the screen twice a second for nothing).
func (f *Model) StyleInput() {
	s := textinput.Styles{}
	s.Focused.Text = f.Styles.FocusValue
	s.Blurred.Text = f.Styles.Value
	s.Cursor = textinput.CursorStyle{Shape: tea.CursorBlock, Blink: false}
	if !f.Styles.Plain {
		s.Cursor.Color = f.Styles.FocusLabel.GetForeground()
	}
	f.input.SetStyles(s)
}

// SetSpec replaces the edited Spec (a preset); it must resolve. Its
// command reports the change.
func (f *Model) SetSpec(s spec.Spec) (tea.Cmd, error) {
	s, err := f.LimitSpec(s)
	if err != nil {
		return nil, err
	}
	rs, err := backend.Resolve(s)
	if err != nil {
		return nil, err
	}
	f.user, f.resolved, f.res = s, rs, rs.Spec
	f.cursor, f.refused, f.note = -1, "", ""
	f.stopEditing()
	f.keepFocusVisible()
	return f.changed(true), nil
}

// changed reports the Spec's change (a common.SpecMsg).
func (f *Model) changed(load bool) tea.Cmd {
	f.rev++
	return common.Emit(common.SpecMsg{Rev: f.rev, User: f.user, Spec: f.resolved, Load: load})
}

// Rev counts the changes of the Spec (SpecMsg.Rev of the latest).
func (f *Model) Rev() int { return f.rev }

// Spec is the Spec as the user set it (defaults left zero).
func (f *Model) Spec() spec.Spec { return f.user }

// Resolved is the Spec resolved: every default explicit, every value
// typed.
func (f *Model) Resolved() spec.Resolved { return f.resolved }

// Focus is the focused field.
func (f *Model) Focus() Field { return f.focus }

// Editing reports whether a value is being typed (every key then goes to
// the form).
func (f *Model) Editing() bool { return f.editing }

// visible reports whether field id is shown: dp-sgd's adaptive clipping
// only while the solver is dp-sgd, every other field always.
func (f *Model) visible(id Field) bool {
	return id != Adaptive || runs.Adapts(f.res.Solver)
}

// keepFocusVisible moves the focus off a field the new Spec hides (to the
// solver, which shows it).
func (f *Model) keepFocusVisible() {
	if !f.visible(f.focus) {
		f.focus = Solver
	}
}

// nextVisible is the shown field dir (±1) steps from the focus, cycling.
func (f *Model) nextVisible(dir int) Field {
	id := f.focus
	for range NumFields {
		id = (id + Field(dir) + NumFields) % NumFields
		if f.visible(id) {
			break
		}
	}
	return id
}

// SetFocus moves the focus to id (a hidden field is not focused).
func (f *Model) SetFocus(id Field) {
	if id >= 0 && id < NumFields && id != f.focus && f.visible(id) {
		f.stopEditing()
		f.focus = id
		f.cursor, f.refused, f.note = -1, "", ""
	}
}

// FocusOn moves the focus to the field of the flag named flag ("n",
// "eps"; a preset's focus), if the form shows one.
func (f *Model) FocusOn(flag string) {
	if id, ok := FieldOf(flag); ok {
		f.SetFocus(id)
	}
}

// Refusal is the current refusal message ("" if none) and the field it is
// about.
func (f *Model) Refusal() (Field, string) { return f.refusedField, f.refused }

// SetSize sets the panel's size.
func (f *Model) SetSize(w, h int) {
	f.w, f.h = w, h
	f.input.SetWidth(max(w-formLabelW-8, 4)) // "▸ ", the label, "‹ ", " ›", the cursor

}

// ShortHelp is the form's keys.
func (f *Model) ShortHelp() []key.Binding {
	if f.editing {
		return []key.Binding{f.KeyMap.Set, f.KeyMap.Cancel}
	}
	return []key.Binding{f.KeyMap.Focus, f.KeyMap.Change, f.KeyMap.Type}
}

// FullHelp is the form's keys.
func (f *Model) FullHelp() [][]key.Binding {
	return [][]key.Binding{{f.KeyMap.Next, f.KeyMap.Prev, f.KeyMap.Left, f.KeyMap.Right, f.KeyMap.Type, f.KeyMap.Set, f.KeyMap.Cancel, f.KeyMap.Message}}
}

// Update handles focus moves, value steps and typing; a run that starts
// clears a refusal shown (it is about a key typed before, not the run).
func (f *Model) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case runs.PrescriptionMsg:
		f.presc = msg
		return f, nil
	case runs.Event:
		if msg.Run != nil && msg.Run.ID > f.lastRun {
			f.lastRun = msg.Run.ID
			f.refused, f.note = "", ""
		}
		return f, nil
	case tea.KeyPressMsg:
		return f, f.key(msg)
	}
	if f.editing { // cursor messages
		var cmd tea.Cmd
		f.input, cmd = f.input.Update(msg)
		return f, cmd
	}
	return f, nil
}

// startsTyping reports whether k starts typing a number: a digit, a
// decimal point, or i / ∞ for infinity.
func startsTyping(k tea.KeyPressMsg) bool {
	t := k.Text
	return len([]rune(t)) == 1 && (t[0] >= '0' && t[0] <= '9' || t == "." || t == "i" || t == "∞")
}

func (f *Model) key(k tea.KeyPressMsg) tea.Cmd {
	if f.editing {
		switch {
		case key.Matches(k, f.KeyMap.Set):
			return f.commit()
		case key.Matches(k, f.KeyMap.Cancel):
			f.stopEditing()
			return nil
		}
		var cmd tea.Cmd
		f.input, cmd = f.input.Update(k)
		return cmd
	}
	switch {
	case key.Matches(k, f.KeyMap.Message) && f.nextMessagePage():
	case key.Matches(k, f.KeyMap.Next, f.KeyMap.Down):
		f.SetFocus(f.nextVisible(+1))
	case key.Matches(k, f.KeyMap.Prev, f.KeyMap.Up):
		f.SetFocus(f.nextVisible(-1))
	case f.FixedByServer(f.focus) && (key.Matches(k, f.KeyMap.Left, f.KeyMap.Right) || startsTyping(k)):
		return f.refuse(f.focus, f.fixedWhy(f.focus))
	case key.Matches(k, f.KeyMap.Left):
		return f.Step(-1)
	case key.Matches(k, f.KeyMap.Right):
		return f.Step(+1)
	case startsTyping(k) && f.typable(f.focus):
		f.refused, f.note = "", ""
		f.editing = true
		f.input.SetValue(k.Text)
		f.input.CursorEnd()
		return f.input.Focus()
	}
	return nil
}

func (f *Model) stopEditing() {
	f.editing = false
	f.input.Blur()
	f.input.SetValue("")
}

// commit sets the typed value: parsed and range-checked as the flag's, then
// resolved with the rest of the Spec.
func (f *Model) commit() tea.Cmd {
	text := f.input.Value()
	f.stopEditing()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	c, why := f.typedSpec(f.focus, text)
	if why != "" {
		return f.refuse(f.focus, why)
	}
	return f.try(f.focus, c, -1, text)
}

// Step moves the focused field one value in direction dir (±1).
func (f *Model) Step(dir int) tea.Cmd {
	id := f.focus
	f.note = ""
	switch id {
	case Seed:
		if dir < 0 && f.res.Seed == 0 {
			return f.refuse(id, "seed: seed = −1 is outside [0, 2⁶⁴−1]")
		}
		c := f.user
		c.Seed = f.res.Seed + uint64(dir)
		return f.try(id, c, -1, "")
	case Trials:
		v := f.res.Trials + dir
		if v < 1 {
			return f.refuse(id, fmt.Sprintf("trials: trials = %d is outside [1, %d]", v, spec.MaxTrials))
		}
		c := f.user
		c.Trials = v
		return f.try(id, c, -1, "")
	}
	opts := f.options(id)
	if len(opts) == 0 {
		return nil
	}
	var next int
	if f.cursor >= 0 {
		next = f.cursor + dir
	} else {
		pos := f.position(id, opts)
		if pos == math.Trunc(pos) {
			next = int(pos) + dir
		} else if dir > 0 {
			next = int(math.Ceil(pos))
		} else {
			next = int(math.Floor(pos))
		}
	}
	if fields[id].numeric {
		if next < 0 || next >= len(opts) {
			f.cursor, f.refused = -1, ""
			f.note = fmt.Sprintf("%s: end of the grid (%s … %s)", id.Label(), opts[0].label, opts[len(opts)-1].label)
			return nil
		}
	} else {
		next = (next%len(opts) + len(opts)) % len(opts)
	}
	if fields[id].numeric {
		c := f.user
		opts[next].set(&c)
		normalize(&c, id)
		return f.try(id, c, next, opts[next].label)
	}
	if id != Solver {
		c := f.user
		opts[next].set(&c)
		normalize(&c, id)
		return f.try(id, c, next, opts[next].label)
	}
	// The solver steps past the solvers the Spec refuses (the paper's
	// solvers of the other classes) to the next one that resolves, and
	// says which it skipped; when none does, the first candidate's
	// refusal is shown. The other lists show their refusals (why an
	// assumption or an oracle does not apply is the lesson).
	var skipped []string
	first := next
	for range len(opts) {
		c := f.user
		opts[next].set(&c)
		normalize(&c, id)
		if _, err := backend.Resolve(c); err == nil {
			cmd := f.try(id, c, next, opts[next].label)
			if len(skipped) > 0 {
				names := skipped
				if len(names) > 3 {
					names = append(names[:3:3], "…")
				}
				f.note = fmt.Sprintf("%s: skipped %s (refused here)", id.Label(), strings.Join(names, ", "))
			}
			return cmd
		}
		skipped = append(skipped, opts[next].label)
		next = ((next+dir)%len(opts) + len(opts)) % len(opts)
		if next == first {
			break
		}
	}
	c := f.user
	opts[first].set(&c)
	normalize(&c, id)
	return f.try(id, c, first, opts[first].label)
}

// try resolves a candidate Spec for field id (value: its new value as
// shown, for the refusal): accepted and reported, or refused with its
// error on the field the error names.
func (f *Model) try(id Field, c spec.Spec, idx int, value string) tea.Cmd {
	c, err := f.LimitSpec(c)
	var rs spec.Resolved
	if err == nil {
		rs, err = backend.Resolve(c)
	}
	if err != nil {
		f.cursor = idx
		at, msg := id, backend.SpecMessage(err)
		if field := specField(err); field != "" && field != id.Flag() {
			// About another field: the ✗ goes there if the form shows it,
			// and the message says which value was tried.
			if fid, ok := FieldOf(field); ok {
				at = fid
			}
			if value != "" {
				msg = id.Label() + " " + value + " → " + msg
			}
		} else if idx >= 0 && value != "" && fields[id].numeric {
			// A step of a number refused on its own field: the field
			// keeps its value, and the ✗ and the message say which value
			// was refused (the next step moves past it).
			msg = id.Label() + " " + value + " → " + msg
			cmd := f.refuse(at, msg)
			f.refusedValue = value
			return cmd
		}
		return f.refuse(at, msg)
	}
	f.user, f.resolved, f.res = c, rs, rs.Spec
	f.cursor, f.refused = -1, ""
	f.keepFocusVisible()
	return f.changed(false)
}

// refuse shows a refusal: the ✗ on field at (the one the message is
// about) and the message; the status bar repeats it.
func (f *Model) refuse(at Field, msg string) tea.Cmd {
	f.refusedField, f.refused, f.refusedValue = at, msg, ""
	return common.Emit(common.StatusMsg{Text: "refused " + msg, Err: true})
}

// specField is the flag a Spec error is about ("" if none): the error's
// field mapped by spec.FlagName.
func specField(err error) string {
	var se *spec.SpecError
	if errors.As(err, &se) {
		return spec.FlagName(se.Field)
	}
	return ""
}

// FieldOf is the form's field of a Spec field (a flag name).
func FieldOf(flag string) (Field, bool) {
	for id := Field(0); id < NumFields; id++ {
		if id.Flag() == flag {
			return id, true
		}
	}
	return 0, false
}

const formLabelW = 9

// View renders the form.
func (f *Model) View() string {
	st := f.Styles
	w := f.w
	var lines []string
	lines = append(lines, style.Rule(*st, "Parameters", "", w, false))
	for id := Field(0); id < NumFields; id++ {
		if !f.visible(id) {
			continue // its line goes to the message area
		}
		focused := id == f.focus
		lab := fmt.Sprintf("%-*s", formLabelW, id.Label())
		val := f.ValueLabel(id)
		note := f.ValueNote(id)
		var row string
		switch {
		case focused && f.editing:
			row = st.FocusLabel.Render("▸ "+lab) + st.FocusValue.Render("‹ ") + f.input.View() + st.FocusValue.Render(" ›")
			note = ""
		case focused && f.FixedByServer(id):
			row = st.FocusLabel.Render("▸ "+lab) + st.FocusValue.Render("  "+val) // no ‹ ›: it does not step
		case focused:
			row = st.FocusLabel.Render("▸ "+lab) + st.FocusValue.Render("‹ "+val+" ›")
		default:
			row = st.Label.Render("  "+lab) + st.Value.Render("  "+val)
		}
		// A note that does not fit whole is left out, not cut mid-word;
		// one with a parenthesis keeps what comes before it if that fits.
		if i := strings.Index(note, " ("); i > 0 && lipgloss.Width(row)+1+lipgloss.Width(note) > w {
			note = note[:i]
		}
		if note != "" && lipgloss.Width(row)+1+lipgloss.Width(note) <= w {
			row += " " + st.Muted.Render(note)
		}
		if f.refused != "" && id == f.refusedField {
			mark := "✗"
			if f.refusedValue != "" {
				mark += " " + f.refusedValue // the stepped value refused
			}
			row += " " + st.Error.Render(mark)
		}
		lines = append(lines, style.Fit(row, w))
	}
	// Message area: typing help, the refusal, a note, or why the focused
	// field matters.
	avail := f.h - len(lines)
	if avail > 0 {
		lines = append(lines, f.messageArea(avail)...)
	}
	return style.Block(strings.Join(lines, "\n"), w, f.h)
}

// fullHint ends the line under the form where its message is cut: the
// help (?) gives it whole (Message).
const fullHint = " (? full)"

// message is the line under the form and its style: the typing hint
// while a field is edited, a refusal, a note, or the focused field's
// reason.
func (f *Model) message() (string, lipgloss.Style) {
	st := f.Styles
	switch {
	case f.editing:
		return "type a value (" + f.typeHint(f.focus) + ") · enter sets it · esc cancels", st.Warn
	case f.refused != "":
		return "✗ refused — " + f.refused, st.Error
	case f.note != "":
		return f.note, st.Warn
	}
	return f.why(f.focus), st.Muted
}

// MessageRows is the number of lines the line under the form takes
// whole at w cells while it is about the key just pressed (the typing
// hint, a refusal, a note) or is the focused field's explanation that f
// opened (with its "▴ f: fold it" row): the layout gives it that room
// where it can. The explanation folded keeps the rows the layout gives
// it: 0.
func (f *Model) MessageRows(w int) int {
	if f.reason() && !f.open {
		return 0
	}
	text, _ := f.message()
	n := len(style.Wrap(text, w))
	if f.reason() {
		n++ // "▴ f: fold it"
	}
	return n
}

// MessageRoom is the rows under the fields the layout gives the line
// under the form.
func (f *Model) MessageRoom() int { return f.h - 1 - f.FieldRows() }

// FieldRows is the number of the fields' rows the form shows (dp-sgd's
// adaptive clipping shows only while the solver is dp-sgd).
func (f *Model) FieldRows() int {
	n := 0
	for id := Field(0); id < NumFields; id++ {
		if f.visible(id) {
			n++
		}
	}
	return n
}

// Message is the line under the form, whole (the form shows as much of
// it as fits; the help lists it).
func (f *Model) Message() string {
	text, _ := f.message()
	return text
}

// typeHint is what field id accepts when typed, e.g. "n in [2, 10⁸]".
func (f *Model) typeHint(id Field) string {
	if id == Seed {
		return "an integer in [0, 2⁶⁴−1]"
	}
	if id == Tail {
		if info, ok := scenarios.Lookup(f.res.Scenario); ok && info.Tail != nil {
			return info.Tail.Symbol + " in " + info.Tail.Range()
		}
	}
	tf := typedFields[id]
	if tf.integer {
		return "an integer in [" + common.FmtN(int(tf.iv.Lo)) + ", " + common.FmtN(int(tf.iv.Hi)) + "], e.g. 3e5 or 3·10⁵"
	}
	return "a number in " + tf.iv.String() + ", e.g. 0.5, 1e-3 or inf"
}
