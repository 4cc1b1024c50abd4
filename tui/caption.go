package tui

import (
	"slices"
	"strconv"
	"strings"

	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/style"
)

// setPreset records preset i (−1: none) as the loaded one: its title, and
// its Spec resolved (under the session's limit), from which the caption
// names what the user changes.
func (m *Model) setPreset(i int) {
	rows := m.captionRows(m.height)
	m.presetAt, m.preset, m.presetSpec = i, "", spec.Spec{}
	if m.captionRows(m.height) != rows {
		m.layout() // the caption takes the body's rows
	}
	if i < 0 {
		return
	}
	m.preset = Presets[i].Title
	// The preset as this session runs it: what a server forces on every
	// Spec (Options.Limit: secure randomness) is not the user's change.
	s := Presets[i].Spec
	if m.limit != nil {
		if ls, err := m.limit(s); err == nil {
			s = ls
		}
	}
	if rs, err := backend.Resolve(s); err == nil {
		m.presetSpec = rs.Spec
	}
}

// presetLabel is the loaded preset's number and what the user changed
// since loading it: "preset 4", "preset 4 · k changed", "preset 1 · n, ε
// changed" ("" without a preset).
func (m *Model) presetLabel() string {
	if m.presetAt < 0 {
		return ""
	}
	l := "preset " + strconv.Itoa(m.presetAt+1)
	if names := changedNames(m.presetSpec, m.form.Resolved().Spec); len(names) > 0 {
		l += " · " + strings.Join(names, ", ") + " changed"
	}
	return l
}

// changedNames are the form's labels of the fields of the resolved Spec
// a that differ in b ("other settings" for a difference the form does not
// show).
func changedNames(a, b spec.Spec) []string {
	var out []string
	for _, c := range changes(a, b) {
		out = append(out, c.name)
	}
	return out
}

// captionRows is the caption's height at a terminal of h rows: none
// without a preset, one line, two from 30 rows on.
func (m *Model) captionRows(h int) int {
	switch {
	case m.presetAt < 0:
		return 0
	case h >= 30:
		return 2
	}
	return 1
}

// caption is the loaded preset's story on screen, under the header: its
// next step first ("next: press → on k three times, then r"), then what it
// shows and what it does not (Preset.caption), wrapped to n lines of w
// cells, the last cut at a word; the full text is in the presets list (p)
// and the help (?).
func (m *Model) caption(w, n int) []string {
	if n == 0 || m.presetAt < 0 {
		return nil
	}
	st := m.st
	p := Presets[m.presetAt]
	lead := "▸ "
	if p.next != "" {
		lead += "next: " + p.next + " · "
	}
	words := style.Wrap(lead+p.caption, w)
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

// versusJob is r on the chart while a preset with versus solvers is
// loaded: the form's solver and those, on the same draws (a comparison,
// what `dpso run --solvers` runs).
func versusJob(versus []string) jobMaker {
	return func(res spec.Resolved) (job, string) {
		names := []string{res.Solver.Name()}
		for _, v := range versus {
			if !slices.Contains(names, v) {
				names = append(names, v)
			}
		}
		return job{Call: backend.Call{Kind: backend.Compare, Spec: res, Names: names}, family: chartKind, what: strings.Join(names, " vs "), compare: true}, ""
	}
}
