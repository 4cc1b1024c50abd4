package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/solvers"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/style"
)

// formulaPanel shows the theorem behind the current class: its formula,
// each term's value and the dominant one, its conditions (holds/fails),
// the lower bound and prior work at the same parameters, the solver's
// parameters (T, batch, C, σ, step) marked prescribed or overridden, and
// the notes `dpso run` prints: the finished run's (report.Notes: defaults
// that moved, a vacuous certificate, a budget cap, a mean above the start
// line), or before a run the prescription's, as `dpso run --dry-run`
// prints them. What does not fit scrolls (a bubbles viewport, pgup/pgdn):
// the most important lines come first, the notes last.
type formulaPanel struct {
	common
	presc  prescriptionMsg
	params *solvers.Params // the parameters a finished run used
	notes  []string        // the finished run's notes
	runID  int             // whose notes (0: no finished run's, the prescription's)
	scrollBody
}

// newFormulaPanel returns the panel, computing.
func newFormulaPanel(c common) *formulaPanel {
	return &formulaPanel{common: c, presc: prescriptionMsg{pending: true}, scrollBody: newScrollBody()}
}

// ShortHelp is the panel's scroll keys.
func (p *formulaPanel) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.PageUp, p.keys.PageDown}
}

// Update takes the prescription, the parameters of a finished run on the
// same prescription, and the scroll keys.
func (p *formulaPanel) Update(msg tea.Msg) (component, tea.Cmd) {
	p.scroll(p.keys, msg, func() { p.content() })
	switch msg.(type) {
	case prescriptionMsg, runEvent:
		p.cache.invalidate()
	}
	switch msg := msg.(type) {
	case prescriptionMsg:
		if msg.key != p.presc.key {
			p.vp.SetYOffset(0)
			p.params, p.notes, p.runID = nil, nil, 0
		}
		p.presc = msg
	case runEvent:
		r := msg.run
		switch {
		case r == nil || r.Kind != backend.Compare:
		case r.phase == phaseDone && r.Comparison != nil && len(r.Comparison.Reports) > 0 && prescKeyOf(r.Spec) == p.presc.key:
			// The parameters of the form's solver, the one the panel
			// describes (in a comparison the paper's solver comes first).
			for _, rep := range r.Comparison.Reports {
				if rep.Solver == r.Spec.Solver.Name() && rep.Refused == "" {
					p.params = &rep.Params
				}
			}
			p.notes, p.runID = report.Notes(r.Comparison), r.id
		case r.active():
			p.params, p.notes, p.runID = nil, nil, 0
		}
	}
	return p, nil
}

type section struct {
	prio  int // 0 first kept … higher dropped first when space is short
	lines []string
}

// content lays out the panel's lines (after its title) in the viewport:
// the sections that fit the panel first, by priority, then the others.
func (p *formulaPanel) content() (title, right string) {
	st := p.st
	w := p.w
	title = "Theorem"
	var secs []section
	switch {
	case p.presc.err != "":
		secs = append(secs, section{0, style.WrapLines(st.Error, "✗ "+p.presc.err, w)})
	case p.presc.p == nil:
		msg := "computing the constants (Monte Carlo moments or F* for this distribution, once)…"
		if !p.presc.pending {
			msg = "no prescription"
		}
		secs = append(secs, section{0, style.WrapLines(st.Muted, msg, w)})
	default:
		title, right, secs = p.sections(p.presc.p)
	}
	fillScrolled(&p.vp, orderSections(secs, p.h-1), p.h)
	return title, right
}

// View renders the panel (cached until what it shows changes).
func (p *formulaPanel) View() string { return p.cache.view(p.render) }

func (p *formulaPanel) render() string {
	title, right := p.content()
	return scrolledPanel(p.st, p.keys, p.vp, style.Rule(*p.st, title, right, p.w, false), p.w, p.h)
}

// fillScrolled puts lines, a panel's body under its title, in vp for a
// panel h rows high: the rows under the title, less the last when they
// do not fit (it then says how to scroll).
func fillScrolled(vp *viewport.Model, lines []string, h int) {
	vp.SetHeight(max(h-1, 1))
	if len(lines) > h-1 {
		vp.SetHeight(max(h-2, 1))
	}
	vp.SetContentLines(lines)
}

// scrolledPanel renders a panel w×h: head (its title's rule), vp's lines
// under it, and the line that says how to scroll them when they do not
// fit.
func scrolledPanel(st *style.Styles, keys *keyMap, vp viewport.Model, head string, w, h int) string {
	out := []string{head}
	if h > 1 {
		out = append(out, vp.View())
	}
	if vp.TotalLineCount() > vp.Height() && h > 2 {
		out = append(out, scrollHint(st, vp, keys, w))
	}
	return style.Block(strings.Join(out, "\n"), w, h)
}

// scrollPage scrolls vp up or down on the scroll keys of keys, a page
// (pgup, pgdn) or a line (k, j, the mouse wheel); it reports whether msg
// was one of them.
func scrollPage(vp *viewport.Model, keys *keyMap, msg tea.KeyPressMsg) bool {
	switch {
	case key.Matches(msg, keys.PageUp):
		vp.PageUp()
	case key.Matches(msg, keys.PageDown):
		vp.PageDown()
	case key.Matches(msg, keys.LineUp):
		vp.ScrollUp(1)
	case key.Matches(msg, keys.LineDown):
		vp.ScrollDown(1)
	default:
		return false
	}
	return true
}

// scrollHint is the line under a scrolled viewport: where it is and the
// keys that scroll it.
func scrollHint(st *style.Styles, vp viewport.Model, keys *keyMap, w int) string {
	below := vp.TotalLineCount() - vp.YOffset() - vp.Height()
	var parts []string
	if vp.YOffset() > 0 {
		parts = append(parts, "↑ "+keys.PageUp.Help().Key)
	}
	if below > 0 {
		parts = append(parts, fmt.Sprintf("↓ %d more line%s: j, %s", below, plural(below), keys.PageDown.Help().Key))
	}
	return style.FitWords(st.Muted.Render(strings.Join(parts, " · ")), w)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// orderSections puts first the sections that fit h lines — dropping the
// least important (highest prio, the last first) until the rest fits —
// and after them, in their order, the ones dropped; so the first screen
// of a short panel has the most important lines and scrolling shows the
// rest.
func orderSections(secs []section, h int) []string {
	count := func(ss []section) int {
		n := 0
		for _, s := range ss {
			n += len(s.lines)
		}
		return n
	}
	kept := make([]bool, len(secs))
	for i := range kept {
		kept[i] = true
	}
	keptLines := count(secs)
	for keptLines > h {
		worst := -1
		for i, s := range secs {
			if kept[i] && (worst < 0 || s.prio >= secs[worst].prio) {
				worst = i
			}
		}
		if worst < 0 || secs[worst].prio == 0 {
			break
		}
		kept[worst] = false
		keptLines -= len(secs[worst].lines)
	}
	var out, rest []string
	for i, s := range secs {
		if kept[i] {
			out = append(out, s.lines...)
		} else {
			rest = append(rest, s.lines...)
		}
	}
	return append(out, rest...)
}

func (p *formulaPanel) sections(pr *engine.Prescription) (string, string, []section) {
	st := p.st
	w := p.w
	var upper, lower *theory.Bound
	var prior []theory.Bound
	for i := range pr.Bounds {
		b := &pr.Bounds[i]
		switch b.Kind {
		case theory.Upper:
			upper = b
		case theory.Lower:
			lower = b
		default:
			prior = append(prior, *b)
		}
	}
	title := "Theorem"
	right := pr.Spec.Class.Title()
	var secs []section
	valStyle := func(color int, v float64) string { return st.FG(color, st.Emph.Render(fmtNum(v))) }
	if upper != nil {
		// The theorem as the paper's PDF numbers it ("Theorem 9").
		title = "Theorem [" + upper.Label + "]"
		if ref, ok := theory.Paper(upper.Label); ok {
			title = ref.String()
		}
		head := st.FG(st.Upper, "upper rate ") + valStyle(st.Upper, upper.Value) + st.Muted.Render(" (constants = 1)") + "  " + st.Emph.Render(upper.Title)
		secs = append(secs, section{0, []string{style.FitWords(head, w), style.Fit(st.Muted.Render("  "+upper.Formula), w)}})
		var terms []string
		nameW := 0
		for _, t := range upper.Terms {
			nameW = max(nameW, lipgloss.Width(t.Name))
		}
		nameW = min(nameW, max(w-16, 8))
		for _, t := range upper.Terms {
			l := "  · " + style.Pad(t.Name, nameW) + " " + fmtNum(t.Value)
			if t.Name == upper.Dominant && len(upper.Terms) > 1 {
				l = "  · " + style.Pad(t.Name, nameW) + " " + st.Emph.Render(fmtNum(t.Value)) + st.Warn.Render(" ◀ dominant")
			}
			terms = append(terms, style.FitWords(l, w))
		}
		secs = append(secs, section{2, terms})
		if c := condLines(st, upper.Conditions, w); len(c) > 0 {
			secs = append(secs, section{3, c})
		}
	} else {
		secs = append(secs, section{0, style.WrapLines(st.Muted, "no upper bound of the paper at these parameters (a constant it needs is not declared)", w)})
	}
	// The solver's parameters, then what they are certified to achieve
	// and the start line.
	secs = append(secs, section{0, p.solverLines(pr)})
	if pr.Refused == "" {
		secs = append(secs, section{1, refLines(st, pr, w)})
	}
	if lower != nil {
		l := st.FG(st.Lower, "lower rate ") + valStyle(st.Lower, lower.Value) + "  " + st.Emph.Render(lower.Title) + "  " + condMarks(st, lower.Conditions)
		ls := []string{style.FitWords(l, w)}
		for _, c := range lower.Conditions {
			if !c.Holds {
				ls = append(ls, style.WrapLines(st.Muted, "  "+theory.Cite(report.FailedCondition(c)), w)...)
			}
		}
		secs = append(secs, section{1, ls})
	}
	var pl []string
	for i, b := range prior {
		col := st.Prior
		if i%2 == 1 {
			col = st.PriorAlt
		}
		l := st.FG(col, "prior rate ") + valStyle(col, b.Value) + "  " + b.Title
		if !b.ConditionsHold() {
			l += "  " + condMarks(st, b.Conditions)
		}
		pl = append(pl, style.FitWords(l, w))
	}
	if len(pl) > 0 {
		secs = append(secs, section{2, pl})
	}
	if nl := p.noteLines(pr); len(nl) > 0 {
		secs = append(secs, section{5, nl})
	}
	return title, right, secs
}

// noteLines is the notes area: the finished run's notes, or the
// prescription's (its notes and its reference lines', de-duplicated, as
// `dpso run --dry-run` prints them), under a line that says whose.
func (p *formulaPanel) noteLines(pr *engine.Prescription) []string {
	st := p.st
	notes, head := p.notes, fmt.Sprintf("Notes of run #%d, as dpso run prints them", p.runID)
	if p.runID == 0 {
		head = "Notes, as dpso run --dry-run prints them"
		seen := map[string]bool{}
		for _, n := range append(slices.Clone(pr.Notes), pr.RefNotes...) {
			if !seen[n] {
				notes = append(notes, n)
				seen[n] = true
			}
		}
	}
	if len(notes) == 0 {
		if p.runID == 0 {
			return nil
		}
		notes = []string{"none"}
	}
	out := []string{style.FitWords(st.Emph.Render(head), p.w)}
	for _, n := range notes {
		out = append(out, style.WrapLines(st.Muted, "· "+theory.Cite(n), p.w)...)
	}
	return out
}

// solverLines is the solver's parameters; for a multi-phase solver the
// batch and C are the first phase's and say so.
func (p *formulaPanel) solverLines(pr *engine.Prescription) []string {
	st := p.st
	w := p.w
	head := st.Emph.Render("solver " + pr.Solver)
	if pr.Refused != "" {
		return style.WrapLines(st.Error, "solver "+pr.Solver+" refuses: "+pr.Refused, w)
	}
	par := pr.Params
	if p.params != nil {
		par = *p.params
	}
	clip := "C " + fmtNum(par.Clip)
	if math.IsInf(par.Clip, 1) {
		clip = "no clipping"
	}
	items := []string{"T " + fmtInt(int64(par.Iters)), "batch " + fmtInt(int64(par.Batch)), clip, "σ " + fmtNum(par.Sigma), "step " + fmtNum(par.Step), fmtInt(par.GradEvals) + " evals"}
	if len(par.Phases) > 1 {
		items[0] = "T " + fmtInt(int64(par.Iters)) + " (all phases)"
		items[1] = "phase 1: batch " + fmtInt(int64(par.Batch))
	}
	state := st.Good.Render("prescribed")
	switch {
	case par.BudgetBound:
		state = st.Warn.Render("budget-capped: the work budget cut every T_i — the theorem assumes the full schedule")
	case !par.Prescribed:
		state = st.Warn.Render("overridden: " + strings.Join(par.Overridden, ", ") + " — the theorem's prescription is not in force")
	}
	var out []string
	if line := head + "  " + strings.Join(items, " · "); lipgloss.Width(line) <= w {
		out = append(out, line)
		if lipgloss.Width(line)+2+lipgloss.Width(state) <= w {
			out[0] += "  " + state
		} else {
			out = append(out, style.FitWords("  "+state, w))
		}
	} else {
		// Narrow: the solver and its state, then the items packed on as
		// many lines as they need.
		out = append(out, style.FitWords(head+"  "+state, w))
		line := " "
		for _, it := range items {
			switch {
			case line == " ":
				line += " " + it
			case lipgloss.Width(line)+3+lipgloss.Width(it) <= w:
				line += " · " + it
			default:
				out = append(out, style.FitWords(line, w))
				line = "  " + it
			}
		}
		out = append(out, style.FitWords(line, w))
	}
	if n := len(par.Phases); n > 1 {
		last := par.Phases[n-1]
		out = append(out, style.FitWords(st.Muted.Render(fmt.Sprintf("  %d phases; phase 1: n₁ = %d, T₁ = %d, C₁ = %s, λ₁ = %s; phase %d: n = %d, C = %s",
			n, par.Phases[0].N, par.Phases[0].Iters, fmtNum(par.Phases[0].Clip), fmtNum(par.Phases[0].Lambda), n, last.N, fmtNum(last.Clip))), w))
	}
	return out
}

func condMarks(st *style.Styles, cs []theory.Condition) string {
	var parts []string
	for _, c := range cs {
		t := theory.Cite(c.Text)
		if i := strings.Index(t, " ("); i > 0 {
			t = t[:i]
		}
		if c.Holds {
			parts = append(parts, st.Good.Render("✓ "+t))
		} else {
			parts = append(parts, st.Error.Render("✗ "+t))
		}
	}
	return strings.Join(parts, "  ")
}

func condLines(st *style.Styles, cs []theory.Condition, w int) []string {
	var out []string
	for _, c := range cs {
		if c.Holds {
			out = append(out, style.Fit(st.Good.Render("  ✓ ")+st.Muted.Render(theory.Cite(c.Text)), w)) // a formula: cut where it must
		} else {
			out = append(out, style.WrapLines(st.Muted, "  "+theory.Cite(report.FailedCondition(c)), w)...)
		}
	}
	return out
}

// refLines are the certificate at the prescribed parameters (the paper's
// explicit-constant proposition: a number the measured mean must stay
// under, not a rate) and the start line F(w₀) − F* (doing nothing).
func refLines(st *style.Styles, pr *engine.Prescription, w int) []string {
	var out []string
	switch c := pr.Certified; {
	case c.Cert == nil:
		if c.Why != "" {
			out = append(out, style.WrapLines(st.Muted, "certificate: none — "+theory.Cite(c.Why), w)...)
		}
	case !c.Cert.Holds():
		out = append(out, style.WrapLines(st.Muted, "certificate "+certName(c.Cert)+": no value, its condition fails: "+theory.Cite(strings.Join(c.Cert.Failed(), "; ")), w)...)
	default:
		l := st.FG(st.Cert, "certified ") + st.FG(st.Cert, st.Emph.Render("≤ "+fmtNum(c.Value()))) + "  " + certName(c.Cert) + " at these parameters"
		if c.Vacuous(pr.W0.Mean) {
			l += st.Warn.Render("  vacuous at this n: above w₀")
		}
		out = append(out, style.FitWords(l, w))
	}
	l := st.FG(st.Start, "w₀ ") + st.Emph.Render(fmtNum(pr.W0.Mean)) + "  F(w₀) − F*, doing nothing"
	if pr.W0.Mean <= 0 {
		l += " (the start is optimal: curves can only rise)"
	}
	return append(out, style.FitWords(l, w))
}

// certName is the result a certificate applies, as the paper's PDF
// numbers it ("Proposition 30"; its id, acsa-generic-sum, is in the JSON),
// or its id where its source cites none.
func certName(c *theory.Certificate) string {
	if ref := theory.CiteFirst(c.Source); ref != "" {
		return ref
	}
	return c.ID
}

// trialCount is "1 trial" or "n trials".
func trialCount(n int) string { return fmt.Sprintf("%d trial%s", n, plural(n)) }
