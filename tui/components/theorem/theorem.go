package theorem

import (
	"fmt"
	"math"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/solvers"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// Model shows the theorem behind the current class: its formula,
// each term's value and the dominant one, its conditions (holds/fails),
// the lower bound and prior work at the same parameters, the solver's
// parameters (T, batch, C, σ, step) marked prescribed or overridden, and
// the notes `dpso run` prints: the finished run's (report.Notes: defaults
// that moved, a vacuous certificate, a budget cap, a mean above the start
// line), or before a run the prescription's, as `dpso run --dry-run`
// prints them. What does not fit scrolls (a bubbles viewport, pgup/pgdn):
// the most important lines come first, the notes last.
type Model struct {
	common.LaidOutPanel
	presc runs.PrescriptionMsg
	// shown is the finished run whose parameters and notes the panel
	// shows (runID 0: none, the prescription's); done is the last
	// finished run under its prescription's key, kept for a prescription
	// that arrives after the run ended (shown once the keys match, in
	// either order).
	shown, done finished
}

// finished is a finished run's parameters (nil where its form's solver
// refused), notes and id, under its prescription's key.
type finished struct {
	key    string
	params *solvers.Params
	notes  []string
	runID  int
	// rep is the form's solver's report (nil where it refused): on
	// private constants what the run estimated, prescribed and certified.
	rep *engine.Report
}

// New returns the panel, computing.
func New(c common.Common) *Model {
	return &Model{LaidOutPanel: common.NewLaidOutPanel(c), presc: runs.PrescriptionMsg{Pending: true}}
}

// Update takes the prescription, the parameters of a finished run on the
// same prescription, and the scroll keys.
func (p *Model) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	p.UpdateLaidOut(msg, p.content)
	switch msg.(type) {
	case runs.PrescriptionMsg, runs.Event:
		p.Invalidate()
	}
	switch msg := msg.(type) {
	case runs.PrescriptionMsg:
		if msg.Key != p.presc.Key {
			p.Viewport.SetYOffset(0)
			p.shown = finished{}
			if p.done.runID != 0 && p.done.key == msg.Key {
				p.shown = p.done
			}
		}
		p.presc = msg
	case runs.Event:
		r := msg.Run
		switch {
		case r == nil || r.Kind != backend.Compare:
		case r.Phase == runs.Done && r.Comparison != nil && len(r.Comparison.Reports) > 0:
			// The parameters of the form's solver, the one the panel
			// describes (in a comparison the paper's solver comes first).
			f := finished{key: runs.PrescKey(r.Spec), notes: report.Notes(r.Comparison), runID: r.ID}
			for _, rep := range r.Comparison.Reports {
				if rep.Solver == r.Spec.Solver.Name() && rep.Refused == "" {
					f.params, f.rep = &rep.Params, rep
				}
			}
			p.done = f
			if f.key == p.presc.Key {
				p.shown = f
			}
		case r.Active():
			p.shown, p.done = finished{}, finished{}
		}
	}
	return p, nil
}

// content is the panel's title and lines (after its title): the
// sections that fit the panel first, by priority, then the others.
func (p *Model) content() common.Layout {
	st := p.Styles
	w := p.W
	title := "Theorem"
	var secs []common.Section
	right := ""
	switch {
	case p.presc.Err != "" && p.estimated() != nil:
		secs = p.estimatedSections(p.estimated())
	case p.presc.Err != "":
		secs = append(secs, common.Section{Prio: 0, Lines: style.WrapLines(st.Error, "✗ "+p.presc.Err, w)})
	case p.presc.Prescription == nil:
		msg := "computing the constants (Monte Carlo moments or F* for this distribution, once)…"
		ms := st.Muted
		if q := common.PrescQueued(p.presc, "the constants (Monte Carlo moments or F* for this distribution) are computed once one frees ("+common.QueueCount+")"); q != "" {
			msg, ms = q, st.StatePause
		}
		if !p.presc.Pending {
			msg = "no prescription"
		}
		secs = append(secs, common.Section{Prio: 0, Lines: style.WrapLines(ms, msg, w)})
	default:
		title, right, secs = p.sections(p.presc.Prescription)
	}
	return common.Layout{Title: title, Right: right, Lines: common.OrderSections(secs, p.H-1)}
}

// View renders the panel (cached until what it shows changes).
func (p *Model) View() string { return p.Cache.View(p.render) }

func (p *Model) render() string { return p.RenderLaidOut(p.content) }

func (p *Model) sections(pr *engine.Prescription) (string, string, []common.Section) {
	st := p.Styles
	w := p.W
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
	var secs []common.Section
	valStyle := func(color int, v float64) string { return st.FG(color, st.Emph.Render(common.FmtNum(v))) }
	// What holds at these parameters first: the solver's parameters, what
	// they are certified to achieve and the start line (levels).
	secs = append(secs, common.Section{Prio: 0, Lines: p.solverLines(pr)})
	baseline := baselineWhy(pr)
	if baseline != "" && pr.Refused == "" {
		// What `dpso run` says of the baseline: not private; the theorems
		// below are the private method's whose schedule it runs.
		txt := "NOT PRIVATE: " + baseline + "; the rates below are the private method's whose schedule it runs"
		if upper != nil {
			txt += " (" + upper.Title + ")"
		}
		secs = append(secs, common.Section{Prio: 0, Lines: style.WrapLines(st.Error, txt, w)})
	}
	if pr.Refused == "" {
		secs = append(secs, common.Section{Prio: 0, Lines: refLines(st, pr, w, p.shown.rep)})
	}
	// Then the rates, apart and said to be rates: a value with every
	// constant set to 1 is compared by its slope, never with w₀ or a run.
	if upper != nil || lower != nil || len(prior) > 0 {
		secs = append(secs, common.Section{Prio: 0, Lines: style.WrapLines(st.Muted, rateHead, w)})
	}
	if upper != nil {
		// The theorem as the paper's PDF numbers it ("Theorem 9").
		title = "Theorem [" + upper.Label + "]"
		if ref, ok := theory.Paper(upper.Label); ok {
			title = ref.String()
		}
		head := st.FG(st.Upper, "upper rate ") + valStyle(st.Upper, upper.Value) + "  " + st.Emph.Render(upper.Title)
		lines := style.WrapStyled(head, w)
		lines = append(lines, style.WrapLines(st.Muted, "  "+upper.Formula, w)...)
		secs = append(secs, common.Section{Prio: 0, Lines: lines})
		var terms []string
		nameW := 0
		for _, t := range upper.Terms {
			nameW = max(nameW, lipgloss.Width(t.Name))
		}
		nameW = min(nameW, max(w-16, 8))
		for _, t := range upper.Terms {
			val := common.FmtNum(t.Value)
			if t.Name == upper.Dominant && len(upper.Terms) > 1 {
				val = st.Emph.Render(val) + st.Warn.Render(" ◀ dominant")
			}
			if l := "  · " + style.Pad(t.Name, nameW) + " " + val; lipgloss.Width(t.Name) <= nameW && lipgloss.Width(l) <= w {
				terms = append(terms, l)
				continue
			}
			// Too narrow for the term and its value on a line: the
			// name wrapped, its value under it.
			terms = append(terms, style.WrapLines(lipgloss.NewStyle(), "  · "+t.Name, w)...)
			terms = append(terms, style.WrapStyled("      "+val, w)...)
		}
		secs = append(secs, common.Section{Prio: 2, Lines: terms})
		if c := condLines(st, upper.Conditions, w); len(c) > 0 {
			secs = append(secs, common.Section{Prio: 3, Lines: c})
		}
	} else {
		secs = append(secs, common.Section{Prio: 0, Lines: style.WrapLines(st.Muted, "no upper bound of the paper at these parameters ("+theory.NoBoundWhy(pr.Spec.Eps)+")", w)})
	}
	if lower != nil {
		l := st.FG(st.Lower, "lower rate ") + valStyle(st.Lower, lower.Value) + "  " + st.Emph.Render(lower.Title)
		ls := style.WrapStyled(l, w)
		ls = append(ls, condLines(st, lower.Conditions, w)...)
		secs = append(secs, common.Section{Prio: 1, Lines: ls})
	}
	var pl []string
	for i, b := range prior {
		col := st.Prior
		if i%2 == 1 {
			col = st.PriorAlt
		}
		l := st.FG(col, "prior rate ") + valStyle(col, b.Value) + "  " + b.Title
		pl = append(pl, style.WrapStyled(l, w)...)
		if !b.ConditionsHold() {
			for _, c := range b.Conditions {
				if !c.Holds {
					pl = append(pl, style.WrapLines(st.Muted, "  "+theory.Cite(report.FailedCondition(c)), w)...)
				}
			}
		}
	}
	if len(pl) > 0 {
		secs = append(secs, common.Section{Prio: 2, Lines: pl})
	}
	if nl := p.noteLines(pr); len(nl) > 0 {
		secs = append(secs, common.Section{Prio: 5, Lines: nl})
	}
	return title, right, secs
}

// noteLines is the notes area: the finished run's notes, or the
// prescription's (its notes and its reference lines', de-duplicated, as
// `dpso run --dry-run` prints them), under a line that says whose.
func (p *Model) noteLines(pr *engine.Prescription) []string {
	st := p.Styles
	notes, head := p.shown.notes, fmt.Sprintf("Notes of run #%d, as dpso run prints them", p.shown.runID)
	if p.shown.runID == 0 {
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
		if p.shown.runID == 0 {
			return nil
		}
		notes = []string{"none"}
	}
	out := style.WrapLines(st.Emph, head, p.W)
	for _, n := range notes {
		out = append(out, style.WrapLines(st.Muted, "· "+theory.Cite(n), p.W)...)
	}
	return out
}

// solverLines is the solver's parameters; for a multi-phase solver the
// batch and C are the first phase's and say so.
func (p *Model) solverLines(pr *engine.Prescription) []string {
	st := p.Styles
	w := p.W
	head := st.Emph.Render("solver " + pr.Solver)
	if pr.Refused != "" {
		return style.WrapLines(st.Error, "solver "+pr.Solver+" refuses: "+pr.Refused, w)
	}
	par := pr.Params
	if p.shown.params != nil {
		par = *p.shown.params
	}
	clip := "C " + common.FmtNum(par.Clip)
	if math.IsInf(par.Clip, 1) {
		clip = "no clipping"
	}
	items := []string{"T " + common.FmtInt(int64(par.Iters)), "batch " + common.FmtInt(int64(par.Batch)), clip, "σ " + common.FmtNum(par.Sigma), "step " + common.FmtNum(par.Step), common.FmtInt(par.GradEvals) + " evals"}
	if len(par.Phases) > 1 {
		items[0] = "T " + common.FmtInt(int64(par.Iters)) + " (all phases)"
		items[1] = "phase 1: batch " + common.FmtInt(int64(par.Batch))
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
			out = append(out, style.WrapStyled("  "+state, w)...)
		}
	} else {
		// Narrow: the solver and its state, then the items packed on as
		// many lines as they need.
		out = append(out, style.WrapStyled(head+"  "+state, w)...)
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
		out = append(out, style.WrapStyled(st.Muted.Render(fmt.Sprintf("  %d phases; phase 1: n₁ = %d, T₁ = %d, C₁ = %s, λ₁ = %s; phase %d: n = %d, C = %s",
			n, par.Phases[0].N, par.Phases[0].Iters, common.FmtNum(par.Phases[0].Clip), common.FmtNum(par.Phases[0].Lambda), n, last.N, common.FmtNum(last.Clip))), w)...)
	}
	return out
}

// rateHead says what the rate lines under it are.
const rateHead = "Rates, every constant set to 1: compare their slopes (the sweeps), not their values — a rate is not a level, not comparable with w₀ or a run, and not a certificate"

// condLines are a theorem's hypotheses at these parameters: the met ones
// on one line, said to be met (not that the rate's value holds here: it
// is a rate), each one not met with why on its own.
func condLines(st *style.Styles, cs []theory.Condition, w int) []string {
	var met []string
	var out []string
	for _, c := range cs {
		if c.Holds {
			t := theory.Cite(c.Text)
			if i := strings.Index(t, " ("); i > 0 {
				t = t[:i]
			}
			met = append(met, t)
		} else {
			out = append(out, style.WrapLines(st.Muted, "  "+theory.Cite(report.FailedCondition(c)), w)...)
		}
	}
	if len(met) > 0 {
		out = append(style.WrapLines(st.Muted, "  hypotheses met: "+strings.Join(met, "; "), w), out...)
	}
	return out
}

// refLines are the certificate at the prescribed parameters (the paper's
// explicit-constant proposition: a number the measured mean must stay
// under, not a rate) and the start line F(w₀) − F* (doing nothing);
// run is the shown run (nil before one): its measured mean excess risk
// above the certificate, the panel says so in `dpso run`'s words
// (report.MeanAboveCert).
func refLines(st *style.Styles, pr *engine.Prescription, w int, run *engine.Report) []string {
	mean, se := math.NaN(), math.NaN()
	if run != nil {
		mean, se = run.Excess.Mean, run.Excess.SE
	}
	var out []string
	switch c := pr.Certified; {
	case c.Cert == nil:
		if c.Why != "" {
			out = append(out, style.WrapLines(st.Muted, "certificate: none — "+theory.Cite(c.Why), w)...)
		}
	case !c.Cert.Holds():
		out = append(out, style.WrapLines(st.Muted, "certificate "+certName(c.Cert)+": no value, its condition fails: "+theory.Cite(strings.Join(c.Cert.Failed(), "; ")), w)...)
	default:
		name := certName(c.Cert) + certWhere(pr)
		if baselineWhy(pr) != "" {
			// The proof's bound at the run's C = ∞ and σ = 0, by its id
			// as `dpso run` names it: not the private theorem's guarantee.
			name = c.Cert.ID + " at this run's C = ∞, σ = 0 (its proof's bound without noise)"
		}
		l := st.FG(st.Cert, "certified ") + st.FG(st.Cert, st.Emph.Render("≤ "+common.FmtNum(c.Value()))) + "  " + name
		if c.Vacuous(pr.W0.Mean) {
			l += st.Warn.Render("  vacuous at this n: above w₀")
		}
		if v := report.AboveCertNote(c, mean, se); v != "" {
			l += st.Warn.Render("  " + v)
		}
		out = append(out, style.WrapStyled(l, w)...)
	}
	l := st.FG(st.Start, "w₀ ") + st.Emph.Render(common.FmtNum(pr.W0.Mean)) + "  F(w₀) − F*, doing nothing"
	if pr.W0.Mean <= 0 {
		l += " (the start is optimal: curves can only rise)"
	}
	return append(out, style.WrapStyled(l, w)...)
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

// baselineWhy is why the run pr prescribes is not private when its solver
// is the non-private baseline at a finite ε (report.PrescriptionNotPrivate,
// the words `dpso run` prints), "" otherwise.
func baselineWhy(pr *engine.Prescription) string {
	if why := report.PrescriptionNotPrivate(pr); len(why) > len(pr.NotPrivate) {
		return why[len(pr.NotPrivate)]
	}
	return ""
}
