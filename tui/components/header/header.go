package header

import (
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// Model is the top of the screen: the title line (dpso, the problem or
// the loaded preset with what the user changed since, the keys that open
// the presets and the help) and, while a preset is loaded, its caption
// under it: its story on screen, its next step first (Preset.caption),
// one line, two from 30 rows. It reads the form's Spec as the form holds
// it (form).
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
}

// New returns the header over the form's Spec, without a preset.
func New(c common.Common, form interface{ Resolved() spec.Resolved }) *Model {
	return &Model{Common: c, form: form, at: -1}
}

// SetPreset records preset i (−1: none) as the loaded one: its title, and
// its Spec resolved (under the session's limit), from which the label
// names what the user changes. Its caption's rows change with it (Rows).
func (h *Model) SetPreset(i int) {
	h.at, h.title, h.spec = i, "", spec.Spec{}
	if i < 0 {
		return
	}
	h.title = presets.All[i].Title
	// The preset as this session runs it: what a server forces on every
	// Spec (Options.Limit: secure randomness) is not the user's change.
	s := presets.All[i].Spec
	if h.Limit != nil {
		if ls, err := h.Limit(s); err == nil {
			s = ls
		}
	}
	if rs, err := backend.Resolve(s); err == nil {
		h.spec = rs.Spec
	}
}

// Untitle stops naming the loaded preset's title (a state string opened:
// the label and the caption stay).
func (h *Model) Untitle() { h.title = "" }

// Preset is the loaded preset's index in presets.All (−1: none).
func (h *Model) Preset() int { return h.at }

// Title is the loaded preset's title ("": none).
func (h *Model) Title() string { return h.title }

// Rows is the caption's height at a terminal of termH rows: none without
// a preset, one line, two from 30 rows on.
func (h *Model) Rows(termH int) int {
	switch {
	case h.at < 0:
		return 0
	case termH >= 30:
		return 2
	}
	return 1
}

// SetSize sets the header's width and height (the title line and the
// caption's rows).
func (h *Model) SetSize(w, ht int) { h.w, h.h = w, ht }

// Update takes the prescription.
func (h *Model) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	if p, ok := msg.(runs.PrescriptionMsg); ok {
		h.presc = p
	}
	return h, nil
}

// View renders the title line and the caption.
func (h *Model) View() string {
	return strings.Join(append([]string{h.line()}, h.caption(h.w, h.h-1)...), "\n")
}

// line is the title line.
func (h *Model) line() string {
	st := h.Styles
	w := h.w
	left := st.Header.Render("dpso") + st.HeaderDim.Render(" · private optimization with heavy-tailed gradients (Lowy & Razaviyayn)")
	right := "custom parameters"
	title := ""
	switch {
	case h.at >= 0:
		right, title = h.Label(), h.title
	case h.form.Resolved().UserRows():
		right = common.DataName(h.form.Resolved().Spec, h.presc)
	}
	const keys = "  ·  p presets  ? help"
	if lipgloss.Width(left)+lipgloss.Width(right+": "+title+keys)+2 > w {
		left = st.Header.Render("dpso")
	}
	if title != "" {
		// The preset's title gives way first, cut at a word.
		room := w - lipgloss.Width(left) - 2 - lipgloss.Width(right+": "+keys)
		if t := style.Shorten(title, room); room >= 8 {
			right += ": " + t
		}
	}
	right = st.Muted.Render(right + keys)
	return style.Pad(left, w-lipgloss.Width(right)) + style.Fit(right, w-lipgloss.Width(left))
}

// Label is the loaded preset's number and what the user changed since
// loading it: "preset 4", "preset 4 · k changed", "preset 1 · n, ε
// changed" ("" without a preset).
func (h *Model) Label() string {
	if h.at < 0 {
		return ""
	}
	l := "preset " + strconv.Itoa(h.at+1)
	if names := changedNames(h.spec, h.form.Resolved().Spec); len(names) > 0 {
		l += " · " + strings.Join(names, ", ") + " changed"
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
// what it shows and what it does not (Preset.caption), wrapped to n lines
// of w cells, the last cut at a word; the full text is in the presets
// list (p) and the help (?).
func (h *Model) caption(w, n int) []string {
	if n <= 0 || h.at < 0 {
		return nil
	}
	st := h.Styles
	p := presets.All[h.at]
	lead := "▸ "
	if p.Next != "" {
		lead += "next: " + p.Next + " · "
	}
	words := style.Wrap(lead+p.Caption, w)
	if len(words) > n {
		words = slices.Clone(words[:n])
		words[n-1] = style.Shorten(words[n-1]+" …", w)
	}
	out := make([]string, n)
	for i := range out {
		if i < len(words) {
			l := words[i]
			if i == 0 && strings.HasPrefix(l, lead) {
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
