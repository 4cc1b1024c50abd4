package header

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// Model is the top of the screen: the title line (dpso, the problem or
// the loaded preset with what the user changed since, the keys that open
// the presets and the help) and, while a preset is loaded, its caption
// under it: its story on screen, its next step first (Preset.Caption),
// its numbers said to be the preset's run's at seed 0; one line, two from
// 30 rows, and never cut: what does not fit ends in a marker, and w
// unfolds it (a third of the screen, paged) and folds it again. It reads
// the form's Spec as the form holds it (form).
type Model struct {
	common.Common
	form interface{ Resolved() spec.Resolved }
	// at is the loaded preset's index in presets.All (−1: none), title its
	// title ("": none named) and spec its Spec resolved as loaded (under
	// the session's limit), from which the label names what the user
	// changed since.
	at    int
	title string
	spec  spec.Spec
	// presc is the latest prescription (user data's rows and columns).
	presc runs.PrescriptionMsg
	w, h  int
	// page is the caption's page while unfolded (w), −1 folded.
	page int
	// drawn is what the chart draws (SetDrawn): the caption names only
	// that (Preset.CaptionOn).
	drawn presets.Drawn
	// shown is the screen shown (common.ScreenMsg): another sweep than
	// the preset's has its own caption (Preset.SweepCaption).
	shown runs.ScreenKind
	// step is the preset's Spec after its next step, resolved as spec is
	// (hasStep: it has one with a caption of its own, Preset.Step).
	step    spec.Spec
	hasStep bool
	// runs is the run on the screen shown, whose own numbers the caption
	// quotes where the form's Spec is not the preset's (runQuote).
	runs common.OnScreen
	// ScreenName names a screen kind with the key that shows it ("the n
	// sweep (s)"), for a caption shown over another screen than the one
	// it describes (nil: the kind's own word).
	ScreenName func(runs.ScreenKind) string
}

// New returns the header over the form's Spec, without a preset.
func New(c common.Common, form interface{ Resolved() spec.Resolved }) *Model {
	return &Model{Common: c, form: form, at: -1, page: -1}
}

// SetPreset records preset i (−1: none) as the loaded one: its title, and
// its Spec resolved (under the session's limit), from which the label
// names what the user changes. Its caption's rows change with it (Rows).
func (h *Model) SetPreset(i int) {
	h.at, h.title, h.spec, h.page, h.drawn = i, "", spec.Spec{}, -1, presets.DrawnNone
	h.step, h.hasStep = spec.Spec{}, false
	if i < 0 {
		return
	}
	h.title = presets.All[i].Title
	h.spec, _ = h.asRun(presets.All[i].Spec)
	if s, ok := presets.All[i].Step(); ok {
		h.step, h.hasStep = h.asRun(s)
	}
}

// asRun is Spec s as this session runs it, resolved: what a server forces
// on every Spec (Options.Limit: secure randomness) is not the user's
// change. ok is false where it does not resolve.
func (h *Model) asRun(s spec.Spec) (spec.Spec, bool) {
	if h.Limit != nil {
		if ls, err := h.Limit(s); err == nil {
			s = ls
		}
	}
	rs, err := backend.Resolve(s)
	if err != nil {
		return spec.Spec{}, false
	}
	return rs.Spec, true
}

// Preset is the loaded preset's index in presets.All (−1: none).
func (h *Model) Preset() int { return h.at }

// Title is the loaded preset's title ("": none).
func (h *Model) Title() string { return h.title }

// Rows is the caption's height at a terminal of termW × termH: none
// without a preset; folded one line, two from 30 rows on; unfolded (w)
// all its lines and the fold marker (on a row of its own where the last
// line has no room for it), at most a third of the rows (and never fewer
// than folded).
func (h *Model) Rows(termW, termH int) int {
	folded := 1
	switch {
	case h.at < 0:
		return 0
	case termH >= 30:
		folded = 2
	}
	if h.page < 0 {
		return folded
	}
	lines := h.captionLines(termW)
	n := len(lines)
	if lipgloss.Width(lines[n-1])+lipgloss.Width(foldHint) > termW {
		n++ // the fold marker's own row
	}
	return max(folded, min(n, termH/3))
}

// captionText is the caption as one text: the next step, then where its
// numbers come from and the caption itself.
func (h *Model) captionText() (lead, text string) {
	next, label, caption := h.captionParts()
	lead = "▸ "
	if next != "" {
		lead += "next: " + next + " · "
	}
	return lead, lead + label + " " + caption
}

// CaptionText is the caption as shown, whole and unwrapped: the next
// step, the label of its numbers and the caption ("": no preset).
func (h *Model) CaptionText() string {
	if h.at < 0 {
		return ""
	}
	_, text := h.captionText()
	return text
}

// captionParts are the caption's next step, the label that says whose its
// numbers are, and the caption, for the run on screen: while the form
// holds the preset's Spec after its next step, that step's caption (its
// run's numbers); else the caption for what the chart draws, or for the
// sweep shown where the preset has one for it, its numbers the preset's
// run's — labelled with the preset's values of the fields changed since
// ("at the preset's n = 10⁴, seed 0"), so that a caption is never read as
// the numbers of a run it does not describe.
func (h *Model) captionParts() (next, label, caption string) {
	p := presets.All[h.at]
	form := h.form.Resolved().Spec
	describes := p.Screen
	if c, ok := p.SweepCaption(h.shown); ok {
		caption, describes = c, h.shown
	}
	secure := h.form.Resolved().Rand == solvers.Secure
	if h.hasStep && len(common.Changes(h.step, form)) == 0 {
		label = withPlace(seedLabel, h.offScreen(p.Screen))
		if q := h.runQuote(); secure && q != "" {
			label = q + " " + label
		}
		return p.StepNext(), label, p.StepCaption()
	}
	next = p.NextOn(h.drawn)
	if caption == "" {
		caption = p.CaptionOn(h.drawn)
	}
	ch := common.Changes(h.spec, form)
	label = withPlace(changedLabel(ch), h.offScreen(describes))
	// The run on screen is not the pinned one where a field changed, or
	// where its noise is secure (dpso serve): its own numbers come first.
	if q := h.runQuote(); (len(ch) > 0 || secure) && q != "" {
		label = q + " " + label
	}
	return next, label, caption
}

// withPlace is the seed label with the words that say which screen the
// caption describes where it is not the one shown ("at seed 0, on s's
// screen (sweep n (log-log)), not this one:").
func withPlace(label, place string) string {
	if place == "" {
		return label
	}
	return strings.TrimSuffix(label, ":") + ", " + place[:len(place)-1] + ":"
}

// Caption is the loaded preset's caption as shown now (for what the chart
// draws), without its next step and seed label ("": no preset).
func (h *Model) Caption() string {
	if h.at < 0 {
		return ""
	}
	_, _, c := h.captionParts()
	return c
}

// seedLabel says whose the caption's numbers are (captionText): the
// preset's run, the one on screen while nothing is changed.
const seedLabel = "at seed 0:"

// changedLabel is the seed label where the fields ch were changed since
// the preset was loaded (their values the preset's): "at the preset's
// n = 10⁴, seed 0 (not the run on screen):"; seedLabel without changes.
func changedLabel(ch []common.Change) string {
	if len(ch) == 0 {
		return seedLabel
	}
	var parts []string
	for _, c := range ch {
		switch {
		case c.Name == "seed":
		case c.Value == "":
			parts = append(parts, "own "+c.Name)
		default:
			parts = append(parts, c.Name+" = "+c.Value)
		}
	}
	return "at the preset's " + strings.Join(append(parts, "seed 0"), ", ") + " (not the run on screen):"
}

// captionLines is the caption wrapped to w cells.
func (h *Model) captionLines(w int) []string {
	if h.at < 0 {
		return nil
	}
	_, text := h.captionText()
	return style.Wrap(text, w)
}

// ToggleCaption unfolds the caption (w): its next page, or folded again
// after its last one (or when it fits folded). The root lays out again:
// the caption's rows change.
func (h *Model) ToggleCaption(termH int) {
	if h.at < 0 {
		return
	}
	if h.page < 0 {
		if len(h.captionLines(h.w)) > h.foldedRows(termH) {
			h.page = 0
		}
		return
	}
	if h.page+1 < len(h.pageStarts(h.Rows(h.w, termH))) {
		h.page++
		return
	}
	h.page = -1
}

// FoldCaption folds an unfolded caption (an overlay opens: it gets the
// rows). The root lays out again.
func (h *Model) FoldCaption() { h.page = -1 }

// Unfolded reports whether w has unfolded the caption (a page of it is
// shown).
func (h *Model) Unfolded() bool { return h.at >= 0 && h.page >= 0 }

// foldedRows is the caption's folded height (Rows without w).
func (h *Model) foldedRows(termH int) int {
	if termH >= 30 {
		return 2
	}
	return 1
}

// The markers that end a caption's last row: more to read (w), or the
// end of an unfolded caption (w folds it).
const (
	moreHint = "  ▾ w: more"
	foldHint = "  ▴ w: fold"
)

// pageStarts are the first lines of the caption's pages on n rows: a page
// shows n lines; when more follow, its last line gives way to the more
// marker and starts the next page again, whole (one row: the next line).
// The last page needs room for the fold marker (a free row, or room on
// its last line), else its last line starts one more page.
func (h *Model) pageStarts(n int) []int {
	lines := h.captionLines(h.w)
	starts := []int{0}
	for start := 0; ; {
		end := start + n
		switch {
		case end < len(lines):
			start = end - 1
			if n == 1 {
				start = end
			}
		case end > len(lines) || lipgloss.Width(lines[len(lines)-1])+lipgloss.Width(foldHint) <= h.w:
			return starts
		default:
			start = end - 1
		}
		if start <= starts[len(starts)-1] {
			return starts
		}
		starts = append(starts, start)
	}
}

// SetSize sets the header's width and height (the title line and the
// caption's rows).
func (h *Model) SetSize(w, ht int) { h.w, h.h = w, ht }

// SetDrawn records what the chart draws, which picks the caption
// (Preset.CaptionOn); a caption that changes folds (the root lays out
// again when the rows change).
func (h *Model) SetDrawn(d presets.Drawn) {
	if d != h.drawn {
		h.drawn, h.page = d, -1
	}
}

// Update takes the prescription.
func (h *Model) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case runs.PrescriptionMsg:
		h.presc = msg
	case runs.Event:
		h.runs.Take(msg)
	case common.ScreenMsg:
		h.runs.Take(msg)
		if msg.Draws != h.shown {
			h.shown, h.page = msg.Draws, -1
		}
	}
	return h, nil
}

// View renders the title line and the caption.
func (h *Model) View() string {
	return strings.Join(append([]string{h.line()}, h.caption(h.w, h.h-1)...), "\n")
}

// line is the title line: dpso and its subtitle on the left; on the
// right what the form holds (the loaded preset's label and title, the
// user data's name) and the keys to the presets and the help. Where the
// width is short, the subtitle gives way first, then "? help" (the key
// line under the screen has "? all keys"), then the name dpso, then the
// names of the fields changed since the preset was loaded ("preset 1 ·
// changed": the help names them, Changed), then "· p presets" (the help
// lists p), so that a preset's title is shown whole — at 80 columns every
// preset's is; a title longer still is cut at a word, the presets list
// (p) giving it whole.
func (h *Model) line() string {
	l, _ := h.titleLine()
	return l
}

// titleLine is line, and whether it names the changed fields by their
// count ("changed") for room.
func (h *Model) titleLine() (string, bool) {
	st := h.Styles
	w := h.w
	name := st.Header.Render("dpso")
	left := name + st.HeaderDim.Render(" · private optimization with heavy-tailed gradients (Lowy & Razaviyayn)")
	right, short := "custom parameters", ""
	title := ""
	switch {
	case h.at >= 0:
		right, title = h.Label(), h.title
		short = h.label(false)
	case h.form.Resolved().UserRows():
		right = common.DataName(h.form.Resolved().Spec, h.presc)
	}
	if title != "" {
		right += ": " + title
		short += ": " + title
	}
	const keys, presetsKey = "  ·  p presets  ? help", "  ·  p presets"
	type form struct{ left, right, keys string }
	forms := []form{{left, right, keys}, {name, right, keys}, {name, right, presetsKey}, {"", right, presetsKey}}
	if title != "" && short != right {
		forms = append(forms, form{"", short, presetsKey}, form{"", short, ""})
	}
	for _, c := range forms {
		if lipgloss.Width(c.left)+2+lipgloss.Width(c.right+c.keys) <= w {
			r := st.Muted.Render(c.right + c.keys)
			return style.Pad(c.left, w-lipgloss.Width(r)) + r, c.right != right
		}
	}
	if title != "" {
		// The preset's title is cut at a word, in all the room there is.
		right = h.label(false)
		room := w - 2 - lipgloss.Width(right+": "+presetsKey)
		if t := style.Shorten(title, room); room >= 8 {
			right += ": " + t
		}
	}
	r := st.Muted.Render(right + presetsKey)
	return style.Pad("", w-lipgloss.Width(r)) + style.Fit(r, w), true
}

// Changed is the loaded preset's label naming every field changed since
// it was loaded, where the title line has room only for "changed" ("":
// it names them, or none changed): the help gives it.
func (h *Model) Changed() string {
	if _, short := h.titleLine(); short && h.at >= 0 {
		return h.Label()
	}
	return ""
}

// Label is the loaded preset's number and what the user changed since
// loading it: "preset 4", "preset 4 · k changed", "preset 1 · n, ε
// changed" ("" without a preset).
func (h *Model) Label() string { return h.label(true) }

// label is Label; without names, "preset 4 · changed" for any change.
func (h *Model) label(names bool) string {
	if h.at < 0 {
		return ""
	}
	l := "preset " + strconv.Itoa(h.at+1)
	if ch := changedNames(h.spec, h.form.Resolved().Spec); len(ch) > 0 && names {
		l += " · " + strings.Join(ch, ", ") + " changed"
	} else if len(ch) > 0 {
		l += " · changed"
	}
	return l
}

// changedNames are the form's labels of the fields of the resolved Spec
// a that differ in b ("other settings" for a difference the form does not
// show).
func changedNames(a, b spec.Spec) []string {
	var out []string
	for _, c := range common.Changes(a, b) {
		out = append(out, c.Name)
	}
	return out
}

// caption is the loaded preset's story on screen, under the title line:
// its next step first ("next: press → on k three times, then r"), then
// what it shows and what it does not (Preset.Caption), its numbers said
// to be the preset's run's at seed 0, wrapped to n lines of w cells. What
// does not fit is never cut away: the last line gives way to a marker
// that says w shows the rest (a page at a time when unfolded, each
// starting with the line the marker took), and the full text is also in
// the presets list (p).
func (h *Model) caption(w, n int) []string {
	if n <= 0 || h.at < 0 {
		return nil
	}
	st := h.Styles
	lead, _ := h.captionText()
	_, label, _ := h.captionParts()
	lines := h.captionLines(w)
	starts := h.pageStarts(n)
	page := max(h.page, 0)
	if page >= len(starts) {
		page = len(starts) - 1
	}
	start := starts[page]
	more := page+1 < len(starts)
	if h.page < 0 && len(lines) <= n {
		// Folded, the whole caption fits: no marker (the fold marker's
		// room is needed only unfolded).
		start, more = 0, false
	}
	var shown []string
	for i := start; i < len(lines) && len(shown) < n; i++ {
		shown = append(shown, lines[i])
	}
	last := len(shown) - 1
	switch {
	case more:
		shown[last] = markerLine(shown[last], w-lipgloss.Width(moreHint), label) + st.Emph.Render(moreHint)
	case h.page < 0:
	case len(shown) < n:
		shown = append(shown, style.Pad("", w-lipgloss.Width(foldHint))+st.Emph.Render(foldHint))
	default:
		shown[last] += st.Emph.Render(foldHint)
	}
	out := make([]string, n)
	for i := range out {
		if i < len(shown) {
			l := shown[i]
			if i == 0 && start == 0 && strings.HasPrefix(l, lead) {
				l = st.Emph.Render(lead) + st.Muted.Render(strings.TrimPrefix(l, lead))
			} else {
				l = st.Muted.Render(l)
			}
			out[i] = style.Pad(l, w)
		} else {
			out[i] = strings.Repeat(" ", w)
		}
	}
	return out
}

// clauseEnds are where a caption's clause ends, for markerLine.
var clauseEnds = []string{" · ", ". ", "; ", ", ", ": ", " ("}

// markerLine is caption line l in room cells, before the more marker: l
// when it fits; else its words that fit, cut where they say something —
// never ending in a clause's first word or two ("· at…", "r: AC-SA…",
// "(n =…") nor in the seed label without what it labels ("· at seed 0:
// A…"), but at the clause's start: at the next step's end (whole, no
// "…") or a sentence's end as they are, elsewhere with "…".
func markerLine(l string, room int, seedLabel string) string {
	s := style.Shorten(l, room)
	if s == l || !strings.HasSuffix(s, "…") {
		return s
	}
	kept := strings.TrimRight(strings.TrimSuffix(s, "…"), " ")
	if strings.HasPrefix(l, kept) && strings.HasPrefix(l[len(kept):], " · ") {
		return kept // cut at the next step's end: it is whole
	}
	// The next step ends at the seed label: a label cut, or followed by
	// a word or two, ends the line at the next step, whole.
	if i := strings.LastIndex(kept, " · "); i > 0 {
		tail := strings.TrimRight(kept[i+len(" · "):], " ")
		rest, label := strings.CutPrefix(tail, seedLabel)
		if strings.HasPrefix(seedLabel, tail) || label && len(strings.Fields(rest)) <= 2 {
			return kept[:i]
		}
	}
	// The earliest clause end after which only a word or two follow.
	at := -1
	for _, sep := range clauseEnds {
		for i := strings.Index(kept, sep); i > 0; {
			if len(strings.Fields(kept[i+len(sep):])) <= 2 && (at < 0 || i < at) {
				at = i
			}
			j := strings.Index(kept[i+1:], sep)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	if at <= 0 {
		return s
	}
	if strings.HasPrefix(kept[at:], ". ") {
		return kept[:at+1] // a sentence's end
	}
	// A clause that would keep only a word or two of its sentence ("∞).
	// r…") ends the line at the sentence's end instead.
	if j := strings.LastIndex(kept[:at], ". "); j > 0 && len(strings.Fields(kept[j+2:at])) <= 2 {
		return kept[:j+1]
	}
	kept = strings.TrimRight(kept[:at], " ,;:—–-·")
	return kept + style.CutMark(kept)
}
