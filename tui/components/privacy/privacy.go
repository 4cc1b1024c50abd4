package privacy

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/solvers/ledger"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// Model shows ρ, the (ε', δ)-DP guarantee two ways (Bun–Steinke
// and exact for a Gaussian mechanism; also Canonne–Kamath–Steinke), and
// the ledger's spent budget filling up during a run. After a comparison
// it lists each solver's (ε', δ) (report.EpsDelta, the CLI's ε' column),
// so that the comparison is visibly on equal privacy where the chart is
// too narrow for the legend's tags, solvers with the same guarantee
// named together. Its lines are wrapped, never cut; what does not fit
// scrolls (common.ScrollPanel: the small terminal's tab, or on a wide
// terminal once t has given it the scroll keys) and the last line says
// how much is below and which keys reach it.
type Model struct {
	common.ScrollPanel
	spec spec.Resolved   // the form's
	Runs common.OnScreen // the run on screen (nil: none)
	// session composes every finished run's releases of the user's rows.
	session SessionLedger
	// presc is the form's latest prescription: whether the run it
	// prescribes is private (report.PrescriptionNotPrivate).
	presc runs.PrescriptionMsg
}

// New returns the panel.
func New(c common.Common) *Model { return &Model{ScrollPanel: common.NewScrollPanel(c)} }

// privacyDelta is the δ of the displayed (ε', δ) conversions for the
// zCDP oracles (the CLI's default; the shuffle oracles use the Spec's δ).
const privacyDelta = 1e-5

// Update takes the form's Spec, the latest run and the scroll keys.
func (p *Model) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case common.SpecMsg:
		p.spec = msg.Spec
	case runs.PrescriptionMsg:
		p.presc = msg
	case runs.Event, common.ScreenMsg:
		p.Runs.Take(msg)
		if ev, ok := msg.(runs.Event); ok {
			p.session.Add(ev.Run)
		}
		p.Viewport.SetYOffset(0)
	case tea.KeyPressMsg:
		p.ScrollKeys(msg, func() { p.content() })
		return p, nil
	case tea.BackgroundColorMsg:
	default:
		return p, nil
	}
	p.Cache.Invalidate()
	return p, nil
}

// View renders the panel: its title, then its lines in the viewport, and
// under a viewport that does not show them all, where it is and which
// keys scroll it.
func (p *Model) View() string { return p.Cache.View(p.render) }

func (p *Model) render() string { return p.Framed(p.content()) }

// content puts the panel's lines after its title in the viewport (the
// last line kept for the scroll hint when they do not fit) and returns
// the title's.
func (p *Model) content() string {
	lines := p.lines()
	p.Fill(lines[1:])
	return lines[0]
}

// Spent is the ledger's maximum per-sample cost of the run so far, its
// budget, whose it is, at which sweep point when the budget is the
// point's own ("ε = 10"; "" otherwise), and whether it is the finished
// run's (checked).
func (p *Model) Spent() (spent, budget ledger.Cost, who, point string, final, ok bool) {
	r := p.Runs.Shown()
	if r == nil {
		return
	}
	if r.Phase == runs.Done && r.Comparison != nil && len(r.Comparison.Reports) > 0 {
		if main := r.Comparison.Reports[0]; main.Refused == "" && len(main.Trials) > 0 {
			t0 := main.Trials[0]
			return t0.Spent, t0.Budget, main.Solver + " trial 0", "", true, true
		}
	}
	l, ok := ledgerProgress(r)
	if !ok {
		return
	}
	of := r.Spec.Privacy.Cost()
	if r.Budgets != nil {
		// A sweep of the budget itself: the point's own.
		if l.Point >= len(r.Budgets) {
			return spent, budget, who, point, false, false
		}
		of, point = r.Budgets[l.Point], r.Over+" = "+common.FmtNum(r.SweepSpec.Grid()[l.Point])
	}
	who = fmt.Sprintf("%s trial %d", l.Solver, l.Trial)
	switch {
	case r.Phase == runs.Stopped:
		who += " (finished before the stop; the trials it cut are not drawn)"
	case r.Phase == runs.Cancelled && l.Done:
		who += " (finished before the cancel)"
	case r.Phase == runs.Cancelled:
		who += " (so far: the cancel cut it)"
	}
	return l.Spent, of, who, point, false, true
}

// ledgerProgress is the progress whose ledger the panel shows: the
// latest of a run under way or done; of a stopped run the last
// checkpoint of its latest finished trial (those trials are drawn; a
// stopped run without one released nothing); of a cancelled run, whose
// curves so far are drawn, that checkpoint or, before any trial
// finished, the latest.
func ledgerProgress(r *runs.Run) (engine.Progress, bool) {
	switch {
	case r.Phase == runs.Stopped || r.Phase == runs.Cancelled && r.HaveFinal:
		return r.Final, r.HaveFinal
	case r.HaveLatest && (r.Active() || r.Phase == runs.Done || r.Phase == runs.Cancelled):
		return r.Latest, true
	}
	return engine.Progress{}, false
}

// pointPrivacy is the privacy budget of the sweep point the ledger line
// shows (Spent's point, "ε = 10"), where the shown run sweeps the budget
// itself: each point's ρ and (ε', δ) are its own, not the form's.
func (p *Model) pointPrivacy() (spec.Privacy, string, bool) {
	_, _, _, point, _, ok := p.Spent()
	r := p.Runs.Shown()
	if !ok || point == "" || r == nil || r.Budgets == nil {
		return spec.Privacy{}, "", false
	}
	l, _ := ledgerProgress(r)
	at, err := r.Spec.At(r.SweepSpec.Param, r.SweepSpec.Grid()[l.Point])
	if err != nil {
		return spec.Privacy{}, "", false
	}
	return at.Privacy, point, true
}

// shuffle reports whether the budget of sp is the shuffle model's (ε, δ).
func shuffle(sp spec.Resolved) bool { return sp.Privacy.Model == spec.Shuffle }

// specLines are the panel's lines stating s, its title first.
func (p *Model) specLines(s subject) []string {
	st := p.Styles
	w := p.W
	pv := s.spec.Privacy
	var lines []string
	lines = append(lines, style.Rule(*st, title(s.spec), "", w, false))
	// A comparison or sweep that has not finished says first what it is
	// releasing on one draw (the budget below is one release's, not all).
	lines = append(lines, p.unfinishedCompareLines(s, w)...)
	lines = append(lines, p.unfinishedSweepLines(s, w)...)
	// A finished sweep says first what all its releases of one draw spent
	// together, then one release's budget.
	all := p.sweepDrawLines(w)
	lines = append(lines, all...)
	// A sweep of the budget shows its point's budget, the one its ledger
	// line is held to, not the form's.
	if at, point, ok := p.pointPrivacy(); ok {
		pv = at
		lines = append(lines, p.wrapIndented(st.Muted, "", "at "+point+" (the sweep point shown):", w)...)
	} else if len(all) > 0 {
		lines = append(lines, p.wrapIndented(st.Muted, "", "each release (one solver at one sweep point):", w)...)
	}
	eps := pv.Eps
	// Why the outputs are not covered, first, so that it is never cut
	// off (seeded noise or estimated constants on the user's rows; ε = ∞
	// says so below), in its short form: the sentence before its colon
	// (the CLI and the JSON give the rest).
	if !math.IsInf(eps, 1) {
		for _, why := range s.spec.NotPrivate() {
			why, _, _ = strings.Cut(why, ": ")
			lines = append(lines, style.WrapLines(st.Error, "NOT PRIVATE: "+why, w)...)
		}
	}
	// The baseline nonprivate-schedule at a finite ε: no guarantee, and
	// none of the budget's lines (its ledger budget is ∞).
	baseline := s.baseline
	if baseline != "" {
		lines = append(lines, style.WrapLines(st.Error, "NOT PRIVATE: "+baseline, w)...)
	}
	head := len(lines)
	// On the user's rows, what `dpso run --data` states besides the
	// budget: how the noise is keyed, that the releases compose, which
	// numbers are non-private diagnostics (after the budget's first line).
	var facts []string
	for _, f := range common.UserDataPrivacy(s.spec) {
		fs := st.Muted
		if f == common.DiagnosticsNote {
			fs = st.Warn
		}
		facts = append(facts, style.WrapLines(fs, f, w)...)
	}
	// A search is accounted as a whole (its lines before the other
	// conversions), not by a ledger's sum.
	var searchLines []string
	// The other conversions of ρ to (ε', δ) come last, after the ledger.
	var other []string
	r := p.Runs.Shown()
	search := r != nil && r.Kind == backend.Tune && !math.IsInf(eps, 1) && !shuffle(s.spec)
	if search {
		searchLines = p.tuneLines(r, w)
	}
	switch {
	case math.IsInf(eps, 1):
		lines = append(lines, style.WrapLines(st.Warn, "ε = ∞: no privacy — no noise, and no clipping unless C is set.", w)...)
	case baseline != "":
		lines = append(lines, style.WrapLines(st.Warn, "ε = "+common.FmtNum(eps)+" sets its schedule only: the run adds no noise and clips nothing, so no ρ or (ε', δ) holds", w)...)
		lines = append(append(lines, facts...), p.totalLines(w)...)
		search = false
	case shuffle(s.spec):
		lines = append(lines, p.wrapStyled(fmt.Sprintf("(ε, δ) = (%s, %s), shuffle model (%s)", common.FmtNum(eps), common.FmtNum(pv.Delta), s.spec.Oracle), w)...)
		lines = append(lines, facts...)
		lines = append(lines, p.totalLines(w)...)
		lines = append(lines, p.wrapIndented(st.Muted, "", "charged in (ε, δ) by basic composition", w)...)
	default:
		rho := pv.Rho
		lines = append(lines, p.wrapStyled(fmt.Sprintf("ρ = ε²/2 = %s zCDP · μ = ε = %s GDP", st.Emph.Render(common.FmtNum(rho)), common.FmtNum(theory.GDPMu(eps))), w)...)
		delta := privacyDelta
		if pv.Delta > 0 {
			delta = pv.Delta // the run's δ
		}
		if pv.Model == spec.Accountant {
			lines = append(lines, p.wrapStyled(fmt.Sprintf("(ε', δ=%s)-DP: ε' ≤ %s (%s accountant)", common.FmtNum(delta), st.Emph.Render(common.FmtNum(pv.EpsDelta)), pv.AccountantName), w)...)
		} else if cv, err := theory.Convert(eps, delta); err == nil {
			lines = append(lines, p.wrapStyled(fmt.Sprintf("(ε', δ=%s)-DP: ε' = %s exact", common.FmtNum(delta), st.Emph.Render(common.FmtNum(cv.EpsExact))), w)...)
			other = append(other, p.wrapIndented(st.Muted, "  ", fmt.Sprintf("ε' by looser conversions of ρ: %s Bun–Steinke · %s Canonne–Kamath–Steinke", common.FmtNum(cv.EpsBunSteinke), common.FmtNum(cv.EpsCKS)), w)...)
		}
		lines = append(append(append(lines, facts...), p.totalLines(w)...), searchLines...)
	}
	if items := p.compared(s.spec); len(items) > 0 {
		// The common budget's lines give way to each solver's statement
		// (NOT PRIVATE and, on the user's rows, the total stay).
		lines = lines[:head]
		lines = append(lines, p.drawLines(items[0].delta, w)...)
		lines = append(lines, p.wrapStyled(fmt.Sprintf("(ε', δ=%s)-DP of each solver:", common.FmtNum(items[0].delta)), w)...)
		var parts []string
		for _, it := range items {
			parts = append(parts, it.text)
		}
		lines = append(lines, pack(parts, " · ", "  ", w)...)
		lines = append(lines, p.totalLines(w)...)
		lines = append(lines, facts...)
		lines = append(lines, p.wrapIndented(st.Muted, "  ", "ledger checks passed: spent ≤ budget", w)...)
		return lines
	}
	if search {
		return append(lines, other...)
	}
	// The ledger.
	spent, budget, who, point, final, ok := p.Spent()
	switch {
	case baseline != "":
	case ok && !math.IsInf(eps, 1):
		used, of, sym := spent.Rho, budget.Rho, "ρ"
		switch {
		case shuffle(s.spec):
			used, of, sym = spent.Eps, budget.Eps, "ε"
		case pv.Model == spec.Accountant:
			used, of, sym = spent.Eps, budget.Eps, "ε'"
		}
		frac := 0.0
		if of > 0 {
			frac = used / of
		}
		barW := max(min(w-30, 24), 6)
		label := fmt.Sprintf(" %s %s of %s", sym, common.FmtNum(used), common.FmtNum(of))
		if point != "" {
			label += " at " + point
		}
		lines = append(lines, style.WrapStyled("spent "+bar(st, frac, barW)+label, w)...)
		note := "max per sample (ledger), " + who
		if final {
			note = "ledger check passed: spent ≤ budget, " + who
		}
		lines = append(lines, p.wrapIndented(st.Muted, "  ", note, w)...)
	case !math.IsInf(eps, 1):
		lines = append(lines, p.wrapIndented(st.Muted, "", "spent: the ledger fills up during a run", w)...)
	}
	return append(lines, other...)
}

// baseline is why the form's run is not private when its solver is the
// non-private baseline at a finite ε (report.PrescriptionNotPrivate, the
// words `dpso run` prints), "" otherwise or before its prescription.
func (p *Model) baseline() string {
	pr := p.presc.Prescription
	if pr == nil || p.presc.Key != runs.PrescKey(p.spec) {
		return ""
	}
	if why := report.PrescriptionNotPrivate(pr); len(why) > len(pr.NotPrivate) {
		return why[len(pr.NotPrivate)]
	}
	return ""
}

// title is the panel's title with the neighbouring relation every
// statement of the panel about sp is about (replace-one, the paper's:
// datasets differing in one record; a comparison has one), where there
// is one.
func title(sp spec.Resolved) string {
	if a := sp.Privacy.Adjacency; a != "" && sp.Privacy.Private() {
		return "Privacy · " + a
	}
	return "Privacy"
}

// wrapIndented is text after indent, rendered in s, word-wrapped in
// lines of w cells, every line indented: nothing is cut (the panel
// scrolls).
func (p *Model) wrapIndented(s lipgloss.Style, indent, text string, w int) []string {
	var out []string
	for _, l := range style.Wrap(text, max(w-lipgloss.Width(indent), 1)) {
		out = append(out, s.Render(indent+l))
	}
	return out
}

// wrapStyled is a line that may carry styles, wrapped in lines of w
// cells; a plain one at spaces only, so that a name with a hyphen
// (shuffle-clip, lipschitz-dpsgd) is never split.
func (p *Model) wrapStyled(line string, w int) []string {
	if line == style.StripANSI(line) {
		return style.Wrap(line, w)
	}
	return style.WrapStyled(line, w)
}

// totalLines say, on the user's rows, what every release of the latest
// finished call spent together: they all read the same rows and compose
// (above the ledger's per-release line, which a short panel cuts first).
func (p *Model) totalLines(w int) []string {
	t, ok := p.total()
	if !ok || !t.UserRows {
		return nil
	}
	txt := fmt.Sprintf("total: %d release%s of your rows: %s", t.Composition.Releases, common.Plural(t.Composition.Releases), costShort(t, epsName(epsKinds(p.Runs.Shown()))))
	if t.Composition.Split {
		txt += " (--split-budget: 1/" + strconv.Itoa(t.Composition.Releases) + " each)"
	}
	if t.NoiseOff > 0 {
		txt += fmt.Sprintf("; besides, %d noise-off run%s read them without noise: non-private diagnostics, not releases", t.NoiseOff, common.Plural(t.NoiseOff))
	}
	out := style.WrapLines(p.Styles.Emph, txt, w)
	if s := p.session.Line(p.Runs.Shown().Spec.Spec.Data); s != "" {
		out = append(out, style.WrapLines(p.Styles.Emph, s, w)...)
	}
	return out
}

// total is what the latest finished run, comparison or sweep released,
// composed (engine.PrivacyTotal).
func (p *Model) total() (engine.PrivacyTotal, bool) {
	r := p.Runs.Shown()
	if r == nil || r.Phase != runs.Done {
		return engine.PrivacyTotal{}, false
	}
	switch {
	case r.Comparison != nil && len(r.Comparison.Reports) > 0:
		return r.Comparison.Reports[0].Total, true
	case r.Sweep != nil:
		return r.Sweep.Total, true
	case r.Tune != nil:
		return tunePrivacyTotal(r.Tune), true
	}
	return engine.PrivacyTotal{}, false
}

// costShort is a composed cost in a few words: ρ, (eps, δ), or both,
// where eps names the ε part (epsName): the shuffle oracles' ε, or ε' —
// dp-sgd's accounted and a search's (ε', δ), which dpso everywhere else
// calls ε', keeping ε for the zCDP parameter.
func costShort(t engine.PrivacyTotal, eps string) string {
	s := t.Spent
	switch {
	case !t.Private():
		return "not private (a release without noise)"
	case t.Mixed():
		return fmt.Sprintf("ρ = %s zCDP plus (%s, δ) = (%s, %s)", common.FmtNum(s.Rho), eps, common.FmtNum(s.Eps), common.FmtNum(s.Delta))
	case s.Eps > 0:
		return fmt.Sprintf("(%s, δ) = (%s, %s)", eps, common.FmtNum(s.Eps), common.FmtNum(s.Delta))
	}
	return fmt.Sprintf("ρ = %s zCDP", common.FmtNum(s.Rho))
}

// epsKinds says what the ε part of run r's composed cost is made of: a
// shuffle oracle's ε, an (ε', δ) (dp-sgd's accountant, a search), or both.
func epsKinds(r *runs.Run) (shuffle, accounted bool) {
	if r == nil {
		return false, false
	}
	shuffle = r.Spec.Privacy.Model == spec.Shuffle
	return shuffle, !shuffle || r.Tune != nil || r.Comparison != nil && slices.ContainsFunc(r.Comparison.Reports, func(rep *engine.Report) bool { return rep.Privacy.Model == spec.Accountant })
}

// epsName is the name of a composed ε part (epsKinds): the shuffle
// oracles' ε, an ε', or their sum by basic composition.
func epsName(shuffle, accounted bool) string {
	switch {
	case shuffle && accounted:
		return "ε + ε'"
	case shuffle:
		return "ε"
	}
	return "ε'"
}

// privItem is one solver's privacy statement in a comparison.
type privItem struct {
	text  string
	delta float64
}

// compared is each solver's (ε', δ) of the finished comparison of sp
// (nil: none, ε = ∞, or the comparison shown is of another Spec).
func (p *Model) compared(sp spec.Resolved) []privItem {
	r := p.Runs.Shown()
	if r == nil || !r.Compare || r.Phase != runs.Done || r.Comparison == nil || !r.Spec.Privacy.Private() || runs.RunKey(r.Spec) != runs.RunKey(sp) {
		return nil
	}
	// Solvers with the same statement are named together ("acsa, klz-gd
	// 4.38"), in the comparison's order: the list says at a glance that
	// the comparison is on equal privacy, and stays short.
	var out []privItem
	group := map[string]int{} // a statement → its item in out
	var names [][]string
	for _, rep := range r.Comparison.Reports {
		eps, delta := report.EpsDelta(rep)
		var t string
		switch {
		case rep.Refused != "" || math.IsNaN(eps):
			t = "refused"
		case math.IsInf(eps, 1):
			t = "∞ (not private)"
		case rep.Privacy.Model == spec.Accountant:
			t = common.FmtNum(eps) + " (" + rep.Privacy.AccountantName + " accountant)"
		default:
			t = common.FmtNum(eps)
		}
		k := t + "|" + common.FmtNum(delta)
		i, ok := group[k]
		if !ok {
			i = len(out)
			group[k] = i
			out = append(out, privItem{text: t, delta: delta})
			names = append(names, nil)
		}
		names[i] = append(names[i], rep.Solver)
	}
	for i := range out {
		out[i].text = strings.Join(names[i], ", ") + " " + out[i].text
	}
	return out
}

// pack joins items with sep into lines of at most w cells, an item never
// split across lines unless it is wider than a line by itself (then it is
// wrapped at word boundaries, nothing cut); every line starts with indent.
func pack(items []string, sep, indent string, w int) []string {
	var out []string
	line := ""
	iw := lipgloss.Width(indent)
	for _, it := range items {
		switch {
		case iw+lipgloss.Width(it) > w:
			if line != "" {
				out = append(out, style.FitWords(line, w))
				line = ""
			}
			for _, l := range style.Wrap(it, max(w-iw, 1)) {
				out = append(out, style.FitWords(indent+l, w))
			}
		case line == "":
			line = indent + it
		case lipgloss.Width(line)+lipgloss.Width(sep)+lipgloss.Width(it) <= w:
			line += sep + it
		default:
			out = append(out, style.FitWords(line, w))
			line = indent + it
		}
	}
	if line != "" {
		out = append(out, style.FitWords(line, w))
	}
	return out
}

// bar is a progress bar of fraction f in w cells.
func bar(st *style.Styles, f float64, w int) string {
	if math.IsNaN(f) || f < 0 {
		f = 0
	}
	over := f > 1+1e-9
	f = math.Min(f, 1)
	full := int(math.Round(f * float64(w)))
	if st.Plain {
		return "[" + strings.Repeat("#", full) + strings.Repeat(".", w-full) + "]"
	}
	col := st.Good
	if over {
		col = st.Error
	}
	return col.Render(strings.Repeat("█", full)) + st.Muted.Render(strings.Repeat("░", w-full))
}

// tunePrivacyTotal is a search's composed release as the privacy panel and
// the session's ledger compose releases: the searches' (ε', δ) (their
// Rényi curves added, then converted), plus the prescribed references' ρ
// on the same data; the oracle-tuned reference is not private (an
// infinite ε).
func tunePrivacyTotal(rep *engine.TuneReport) engine.PrivacyTotal {
	t := rep.Total
	pt := engine.PrivacyTotal{UserRows: rep.UserRows, Composition: spec.Composition{Releases: t.Searches},
		Spent: ledger.Cost{Rho: t.PrescribedRho, Eps: t.Eps, Delta: t.Delta}, ConvDelta: t.Delta, NotPrivate: rep.NotPrivate}
	if len(t.NotPrivate) > 0 {
		pt.Spent.Eps = math.Inf(1)
	}
	return pt
}

// stoppedSearchPrivacy is the privacy panel's line for a search stopped
// part way: the calibration is fixed before the first candidate, so the
// trials that finished released their tuned points within what the whole
// search would have spent; a trial the stop cut released nothing, and no
// search total is computed (it comes with the finished report).
const stoppedSearchPrivacy = "search stopped: each candidate's ρ_Q was calibrated, before the first, so that the whole search, tuning included, meets the budget's ε'; the trials that finished released their tuned points within it, a trial the stop cut released nothing"

// tuneLines are the privacy panel's lines for a search: accounted as a
// whole (Papernot & Steinke), its (ε', δ) against the budget's, the
// tuning's share on its own line.
func (p *Model) tuneLines(r *runs.Run, w int) []string {
	st := p.Styles
	if r.Phase == runs.Stopped {
		return p.wrapIndented(st.Muted, "", stoppedSearchPrivacy, w)
	}
	if r.Phase != runs.Done || r.Tune == nil {
		return p.wrapIndented(st.Muted, "", "search: each candidate's ρ_Q is calibrated so that the whole search, tuning included, meets the budget's ε' (stated when it ends)", w)
	}
	pv := r.Tune.Privacy
	frac := pv.Eps / pv.Target.EpsDelta
	barW := max(min(w-30, 24), 6)
	lines := style.WrapStyled("search "+bar(st, frac, barW)+fmt.Sprintf(" ε' %s of %s", common.FmtNum(pv.Eps), common.FmtNum(pv.Target.EpsDelta)), w)
	lines = append(lines, p.wrapIndented(st.Muted, "  ", fmt.Sprintf("search ε' %s above one candidate's %s", common.FmtNum(pv.Overhead), common.FmtNum(pv.CandidateEps)), w)...)
	if r.Tune.Tune.References {
		lines = append(lines, p.wrapIndented(st.Warn, "  ", "references: prescribed ρ = "+common.FmtNum(pv.Target.Rho)+" on the same data; oracle-tuned NOT private", w)...)
	}
	return lines
}
