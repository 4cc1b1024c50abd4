package form

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"dpso/theory"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// messageArea is the message under the fields in avail rows: whole where
// it fits; otherwise a page of its lines and a last row that says how
// many are below and that f shows them ("▾ f: 3 more lines"), or, on the
// last page, that f goes back to its start ("▴ f: from its start") or,
// for the focused field's explanation, folds it ("▴ f: fold it"). The
// focused field's explanation, folded, shows the rows the layout gives
// it and says that f opens it whole ("▾ f: whole"): opened, it takes the
// rows it needs as a refusal does (MessageRows). A refusal on a single
// row is cut at its last row and says so: the help (?) gives it whole.
func (f *Model) messageArea(avail int) []string {
	text, ms := f.message()
	lines := style.Wrap(text, f.w)
	var out []string
	k := f.KeyMap.Message.Help().Key
	switch {
	case len(lines) <= avail:
		out = lines
		if f.open && f.reason() && len(lines) < avail {
			out = append(out, f.Styles.Key.Render("▴ "+k+": fold it"))
		}
	case f.reason() && !f.open:
		mark := "  ▾ " + k + ": whole"
		out = lines[:avail]
		out[avail-1] = style.Shorten(out[avail-1], f.w-lipgloss.Width(mark)) + f.Styles.Key.Render(mark)
	case avail < 2 || !f.pages():
		out = lines[:avail]
		out[avail-1] = style.Shorten(out[avail-1], f.w-lipgloss.Width(fullHint)) + fullHint
	default:
		page := avail - 1
		top := f.messageTop(text, len(lines), page)
		end := min(top+page, len(lines))
		out = append(out, lines[top:end]...)
		mark := "▴ " + k + ": from its start"
		if f.reason() {
			mark = "▴ " + k + ": fold it"
		}
		if below := len(lines) - end; below > 0 {
			mark = fmt.Sprintf("▾ %s: %d more line%s", k, below, map[bool]string{true: "s"}[below > 1])
		}
		for i := range out {
			out[i] = ms.Render(out[i])
		}
		return append(out, f.Styles.Key.Render(mark))
	}
	for i := range out {
		out[i] = ms.Render(out[i])
	}
	return out
}

// messageTop is the first line shown of text, n lines long, in pages of
// page lines: where f left it, while the message is the one f paged.
func (f *Model) messageTop(text string, n, page int) int {
	if text != f.paged || f.pageTop >= n {
		return 0
	}
	return f.pageTop
}

// nextMessagePage is f on the message under the form: it opens the
// focused field's explanation where it is cut (it then takes the rows it
// needs, MessageRows), shows the next page of a message cut still (its
// start again after its last, or the explanation folded), and folds an
// open explanation shown whole. It reports whether f had something to do.
func (f *Model) nextMessagePage() bool {
	avail := f.h - 1 - f.FieldRows()
	text, _ := f.message()
	n := len(style.Wrap(text, f.w))
	reason := f.reason()
	switch {
	case reason && !f.open:
		if n <= avail {
			return false
		}
		f.open, f.paged, f.pageTop = true, "", 0
		return true
	case reason && (avail < 2 || n <= avail):
		f.open = false
		return true
	case avail < 2 || n <= avail || !f.pages():
		return false
	}
	page := avail - 1
	top := f.messageTop(text, n, page) + page
	if top >= n {
		top = 0
		if reason {
			f.open = false
		}
	}
	f.paged, f.pageTop = text, top
	return true
}

// MessageCut reports whether the message under the form is shown a page
// at a time (its last row says f shows the rest).
func (f *Model) MessageCut() bool {
	avail := f.h - 1 - f.FieldRows()
	text, _ := f.message()
	return avail >= 2 && f.pages() && len(style.Wrap(text, f.w)) > avail
}

// pages reports whether the message is one f pages: a refusal or a note,
// about the key just pressed, or the focused field's explanation that f
// opened; a refusal on one row is cut with "(? full)" (the help gives it).
func (f *Model) pages() bool {
	return !f.editing && (f.refused != "" || f.note != "" || f.open)
}

// reason reports whether the message under the form is the focused
// field's explanation (nothing typed, refused or noted).
func (f *Model) reason() bool { return !f.editing && f.refused == "" && f.note == "" }

// privacyTerm is the privacy term of the upper bound the theorem panel
// shows for the form's Spec (the prescription's first bound, its term
// named "(privacy)", as theory evaluates it), without its role; "" until
// the current Spec's prescription has come, or where the bound has none.
func (f *Model) privacyTerm() string { return f.boundTerm(" (privacy)") }

// boundTerm is the term of the upper bound the theorem panel shows for
// the form's Spec whose name ends in role (" (privacy)", " (statistical)"),
// without it; "" until the current Spec's prescription has come, or where
// the bound has none.
func (f *Model) boundTerm(role string) string {
	name, _, ok := f.upperTerm(role)
	if !ok {
		return ""
	}
	return name
}

// upperTerm is the term of the upper bound the theorem panel shows for
// the form's Spec whose name ends in role, its name without the role
// (with theory's a = √d/(εn) spelled out where it writes a), and whether
// there is one: none until the current Spec's prescription has come, or
// where the bound has none.
func (f *Model) upperTerm(role string) (string, theory.Term, bool) {
	p := f.presc.Prescription
	if p == nil || f.presc.Key != runs.PrescKey(f.resolved) {
		return "", theory.Term{}, false
	}
	for _, b := range p.Bounds {
		if b.Kind != theory.Upper {
			continue
		}
		for _, t := range b.Terms {
			if name, ok := strings.CutSuffix(t.Name, role); ok {
				if strings.Contains(name, "a^") {
					name += ", a = √d/(εn)" // theory's a (its bound ids' doc)
				}
				return name, t, true
			}
		}
		return "", theory.Term{}, false
	}
	return "", theory.Term{}, false
}
