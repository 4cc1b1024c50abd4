package screens

import (
	"fmt"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/guptarohit/asciigraph"

	"dpso/internal/audit"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/chart"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// AuditKind is the privacy audit of the form's oracle (u).
const AuditKind runs.ScreenKind = "audit"

// auditControlKey runs the audit's negative control (on the audit screen).
var auditControlKey = key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "audit: negative control (noise ÷ 1.5)"))

// auditControlHelp is auditControlKey as the help's key list names it,
// among keys that work on every screen: it says where n works.
var auditControlHelp = key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "on the audit screen (u) only: negative control (noise ÷ 1.5)"))

var auditScreenDef = common.ScreenDef{
	Kind:  AuditKind,
	Key:   key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "audit the oracle's privacy claim")),
	Keys:  []key.Binding{auditControlHelp},
	Short: "audit", Place: common.HelpAfterForm,
	Build: func(c common.Common, _ common.Component) common.Screen { return newAuditScreen(c) },
}

// AuditControl is the negative control's factor F: the oracle runs at
// budget F·ε (its Gaussian noise ÷ F) while the claim stays ε, and the
// audit must then report a violation.
const AuditControl = 1.5

// AuditConfig is the oracle audit of the form's oracle at its ε (and δ,
// for the shuffle oracles), with the form's seed and randomness and the
// audit's defaults otherwise (d = 1: an oracle audit's μ does not depend
// on d, its cost does), so that `dpso audit` with the same flags prints
// the same numbers; control is the negative control.
func AuditConfig(r spec.Resolved, control bool) audit.Config {
	c := audit.Config{Oracle: r.Oracle, Eps: r.Privacy.Eps, Seed: r.Spec.Seed, Rand: r.Rand}
	if r.Privacy.Model == spec.Shuffle { // a zCDP claim has no δ (its Delta is a conversion's)
		c.Delta = r.Privacy.Delta
	}
	if control {
		c.NegativeControl = AuditControl
	}
	return c
}

// auditJob is the audit of the form's oracle at its ε (auditConfig), or
// with control its negative control (the oracle at budget auditControl·ε,
// the claim still ε); at ε = ∞ there is no claim to audit.
func auditJob(control bool) runs.JobMaker {
	return func(res spec.Resolved) (runs.Job, string) {
		if !res.Privacy.Private() {
			return runs.Job{}, "ε = ∞: there is no privacy claim to audit (set a finite ε)"
		}
		what := "audit"
		if control {
			what = "audit (negative control)"
		}
		return runs.Job{Call: backend.Call{Kind: backend.Audit, Spec: res, Names: []string{res.Solver.Name()}, AuditConfig: AuditConfig(res, control)}, Family: AuditKind, What: what, Control: control}, ""
	}
}

// AuditScreen is the privacy audit of the form's oracle at its ε (package
// internal/audit, `dpso audit`'s oracle audit with the form's seed): the
// histograms of the oracle's projected outputs on the two neighbouring
// batches, the threshold tests' error rates (FPR, FNR) against the
// Gaussian trade-off curve G_ε of the claim (no test of a mechanism that
// keeps the claim lies below it), μ̂ with its 95% bounds and the verdict.
// n runs the negative control (the oracle at budget 1.5·ε, the claim still
// ε: the audit must then report a violation) and toggles between the two.
// Shown without an audit of the current oracle and ε, it asks for one.
// Its companion panel is the thresholds table and what an audit proves.
type AuditScreen struct {
	common.Common
	panel *auditPanel
	spec  spec.Resolved // the form's
	plain *runs.Run     // the latest audit (nil: none)
	ctl   *runs.Run     // the latest negative control (nil: none)
	// showCtl: the plots show the negative control.
	showCtl bool
	w, h    int
	cache   common.ViewCache
}

// newAuditScreen returns an empty audit screen.
func newAuditScreen(c common.Common) *AuditScreen {
	return &AuditScreen{Common: c, panel: &auditPanel{ScrollPanel: common.NewScrollPanel(c)}}
}

// Panel is the thresholds and the explanation.
func (s *AuditScreen) Panel() (string, common.Component) { return "Audit", s.panel }

// Job is the audit of the form's oracle at its ε.
func (s *AuditScreen) Job(res spec.Resolved) (runs.Job, string) { return auditJob(false)(res) }

// Reproduce is the dpso audit command of the form's oracle at its ε, or
// of the negative control when the screen shows the control of that
// oracle and ε (the same command with --negative-control).
func (s *AuditScreen) Reproduce(_ spec.Spec, res spec.Resolved, shown *runs.Run) string {
	if shown != nil && shown.Kind == backend.Audit && shown.Control && shown.AuditConfig == AuditConfig(res, true) {
		return auditCommand(shown.AuditConfig)
	}
	return auditCommand(AuditConfig(res, false))
}

// SetSize sets the screen's size.
func (s *AuditScreen) SetSize(w, h int) { s.w, s.h = w, h; s.cache.Invalidate() }

// ShortHelp is the keys that act on this screen.
func (s *AuditScreen) ShortHelp() []key.Binding {
	return []key.Binding{s.KeyMap.Run, auditControlKey, s.KeyMap.Export, s.KeyMap.Back}
}

// Export is the audit shown (or its negative control), if it finished: as
// JSON the document `dpso audit --json` prints for the same flags
// (report.Audit; the reproduce line is that command). An audit has no
// figure in the CLI, so neither here.
func (s *AuditScreen) Export() (*common.ExportJob, string) {
	r := s.current()
	switch {
	case r == nil:
		return nil, "nothing to export yet: r audits the form's oracle"
	case r.Active():
		return nil, "the audit is still going: export it when it is done"
	case r.Phase != runs.Done || r.Audit == nil:
		return nil, "nothing to export: the audit shown did not finish"
	}
	base := "audit-" + r.AuditConfig.Oracle
	if r.Control {
		base += "-control"
	}
	return &common.ExportJob{Base: base, Data: report.Audit(r.Audit)}, ""
}

// auditKey identifies what an audit of r audits (its audit.Config).
func auditKey(r spec.Resolved) string { return fmt.Sprintf("%+v", AuditConfig(r, false)) }

// current is the audit the plots show (nil: none).
func (s *AuditScreen) current() *runs.Run {
	if s.showCtl && s.ctl != nil {
		return s.ctl
	}
	return s.plain
}

// fresh reports whether r is an audit of the form's current oracle and ε.
func (s *AuditScreen) fresh(r *runs.Run) bool {
	return r != nil && auditKey(r.Spec) == auditKey(s.spec)
}

// Activate asks for an audit when there is none of the form's oracle and
// ε and none running (and the form has a claim to audit: ε < ∞).
func (s *AuditScreen) Activate() tea.Cmd {
	if !s.spec.Privacy.Private() || (s.plain != nil && (s.plain.Active() || s.fresh(s.plain))) {
		return nil
	}
	return common.Emit(common.RunRequestMsg{Make: auditJob(false)})
}

// Update takes the form's Spec, the audits and the negative control's
// key: n runs the control when there is none of the current oracle and ε,
// and otherwise toggles the plots between the audit and its control.
func (s *AuditScreen) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case common.SpecMsg:
		s.spec = msg.Spec
	case runs.Event:
		switch r := msg.Run; {
		case r == nil:
			s.plain, s.ctl, s.showCtl = nil, nil, false
		case r.Family != AuditKind:
			return s, nil
		case r.Control:
			s.ctl, s.showCtl = r, true
		default:
			s.plain, s.showCtl = r, false
		}
	case tea.KeyPressMsg:
		if !key.Matches(msg, auditControlKey) {
			return s, nil
		}
		switch {
		case !s.spec.Privacy.Private():
			cmd = common.Emit(common.StatusMsg{Text: "ε = ∞: there is no privacy claim to audit", Err: true})
		case s.ctl != nil && (s.ctl.Active() || s.fresh(s.ctl)):
			s.showCtl = !s.showCtl
		default:
			cmd = common.Emit(common.RunRequestMsg{Make: auditJob(true)})
		}
	case tea.BackgroundColorMsg:
	default:
		return s, nil
	}
	s.panel.set(s.current())
	s.cache.Invalidate()
	return s, cmd
}

// View renders the screen (cached until what it shows changes).
func (s *AuditScreen) View() string { return s.cache.View(s.render) }

func (s *AuditScreen) render() string {
	st := s.Styles
	w, h := s.w, s.h
	r := s.current()
	cfg := AuditConfig(s.spec, s.showCtl)
	title := "Privacy audit: " + cfg.Oracle + " at ε = " + common.FmtNum(cfg.Eps)
	right := ""
	if r != nil {
		if s.showCtl {
			right = fmt.Sprintf("negative control: budget ×%s", common.FmtNum(AuditControl))
		}
		if !s.fresh(r) {
			right = strings.TrimPrefix(right+" · form changed: r re-audits", " · ")
		}
	}
	lines := []string{style.Rule(*st, title, right, w, false)}
	msg := s.state(r)
	if msg != "" || r == nil || r.Audit == nil {
		if msg == "" {
			msg = "r audits the oracle of the form at its ε"
		}
		lines = append(lines, "")
		lines = append(lines, style.WrapLines(st.Muted, msg, w)...)
		lines = append(lines, "")
		lines = append(lines, style.WrapLines(st.Muted, "The audit runs the oracle many times on two neighbouring batches (one row moved as far as the clipping allows), projects the outputs on the direction of the change, and bounds from the threshold tests' error rates, with 95% confidence, how well anyone can tell the batches apart: a lower bound on the privacy loss. n runs the negative control (the noise ÷ 1.5): the audit must then fail.", w)...)
		return style.Block(strings.Join(lines, "\n"), w, h)
	}
	res := r.Audit
	text := s.summary(res, w)
	plotH := h - len(lines) - len(text)
	if plotH >= 6 {
		if w >= 80 {
			lw := (w - 2) / 2
			lines = append(lines, strings.Split(style.Cols(histBlock(st, res, lw, plotH), "  ", tradeBlock(st, res, w-2-lw, plotH)), "\n")...)
		} else {
			hh := plotH / 2
			lines = append(lines, strings.Split(histBlock(st, res, w, hh), "\n")...)
			lines = append(lines, strings.Split(tradeBlock(st, res, w, plotH-hh), "\n")...)
		}
	}
	lines = append(lines, text...)
	return style.Block(strings.Join(lines, "\n"), w, h)
}

// state is the audit's state when it has no result to show ("" when it
// has one, or none was asked for).
func (s *AuditScreen) state(r *runs.Run) string {
	if !s.spec.Privacy.Private() {
		return "ε = ∞: the form's run adds no noise, so there is no privacy claim to audit. Set a finite ε."
	}
	if r == nil {
		return ""
	}
	switch r.Phase {
	case runs.Running, runs.Paused:
		randomness := fmt.Sprintf("seed %d", r.AuditConfig.Seed)
		if r.AuditConfig.Rand == solvers.Secure {
			randomness = "secure randomness"
		}
		return r.WhileWaiting(fmt.Sprintf("auditing %s at ε = %s: %s runs per input on each of two neighbouring batches (%s)…", r.AuditConfig.Oracle, common.FmtNum(r.AuditConfig.Eps), common.FmtInt(audit.DefaultTrials), randomness))
	case runs.Stopped:
		return "■ the audit was " + r.StopText() + ": " + r.Err.Error()
	case runs.Cancelled:
		return "the audit was cancelled: r audits again"
	case runs.Failed, runs.Refused:
		return "✗ the audit failed: " + backend.SpecMessage(r.Err)
	}
	return ""
}

// summary is the text under the plots: μ̂ and its bounds, the verdict,
// and the negative control's outcome or how to run it.
func (s *AuditScreen) summary(res *audit.Result, w int) []string {
	st := s.Styles
	var out []string
	short := w < 60 // the compact layout's column: keep the plots' rows
	if d := s.spec.Solver; d.Accounted {
		if short {
			out = append(out, style.WrapLines(st.Warn, fmt.Sprintf("%s: the oracle at ε, not its accountant's (ε', δ)", d.Name()), w)...)
		} else {
			out = append(out, style.WrapLines(st.Warn, fmt.Sprintf("%s calibrates this oracle's noise with a privacy accountant: this audits the %s oracle at ε, not %s's (ε', δ)", d.Name(), res.Oracle, d.Name()), w)...)
		}
	}
	switch {
	case short && res.Kind == oracle.Shuffle:
		out = append(out, style.WrapStyled(fmt.Sprintf("95%%: ε ≥ %s (claimed %s) · μ̂ = %s ± %s (claim allows %s)",
			st.Emph.Render(common.FmtNum(res.EpsLower)), common.FmtNum(res.Eps), st.Emph.Render(common.FmtNum(res.MuHat)), common.FmtNum(res.MuSE), common.FmtNum(res.MuClaim)), w)...)
		if res.MuHat > 2*res.MuSE || math.IsNaN(res.MuUpper) {
			out = append(out, style.WrapLines(st.Warn, fmt.Sprintf("noise wasted %s×: its ε is %s", common.FmtNum(res.NoiseWaste), common.FmtNum(res.EpsGauss)), w)...)
		} else {
			out = append(out, style.WrapLines(st.Warn, fmt.Sprintf("noise wasted ≥ %s×: its ε is ≤ %s", common.FmtNum(res.MuClaim/res.MuUpper), common.FmtNum(theory.EpsExact(res.MuUpper, res.Delta))), w)...)
		}
	case short:
		out = append(out, style.WrapStyled(fmt.Sprintf("μ̂ = %s ± %s · 95%%: μ ≥ %s, μ ≤ %s (Gaussian)",
			st.Emph.Render(common.FmtNum(res.MuHat)), common.FmtNum(res.MuSE), st.Emph.Render(common.FmtNum(res.MuLower)), common.FmtNum(res.MuUpper)), w)...)
	case res.Kind == oracle.Shuffle:
		out = append(out, style.WrapStyled(fmt.Sprintf("95%%: ε ≥ %s at δ = %s (claimed %s) · Gaussian-equivalent μ̂ = %s ± %s (the claim allows μ = %s)",
			st.Emph.Render(common.FmtNum(res.EpsLower)), common.FmtNum(res.Delta), common.FmtNum(res.Eps), st.Emph.Render(common.FmtNum(res.MuHat)), common.FmtNum(res.MuSE), common.FmtNum(res.MuClaim)), w)...)
		if res.MuHat > 2*res.MuSE || math.IsNaN(res.MuUpper) {
			out = append(out, style.WrapLines(st.Warn, fmt.Sprintf("noise wasted: its ε at δ is %s, not %s (Gaussian noise %s× smaller would keep the claim)", common.FmtNum(res.EpsGauss), common.FmtNum(res.Eps), common.FmtNum(res.NoiseWaste)), w)...)
		} else {
			out = append(out, style.WrapLines(st.Warn, fmt.Sprintf("noise wasted: μ ≤ %s (95%%, Gaussian outputs), so its ε at δ is ≤ %s, not %s (≥ %s× more noise than the claim needs)", common.FmtNum(res.MuUpper), common.FmtNum(theory.EpsExact(res.MuUpper, res.Delta)), common.FmtNum(res.Eps), common.FmtNum(res.MuClaim/res.MuUpper)), w)...)
		}
	default:
		out = append(out, style.WrapStyled(fmt.Sprintf("μ̂ = %s ± %s (estimate ± s.e.) · 95%%: μ ≥ %s (any output law), μ ≤ %s (Gaussian outputs) · claim μ = ε = %s",
			st.Emph.Render(common.FmtNum(res.MuHat)), common.FmtNum(res.MuSE), st.Emph.Render(common.FmtNum(res.MuLower)), common.FmtNum(res.MuUpper), common.FmtNum(res.Eps)), w)...)
	}
	out = append(out, verdictLines(st, res, w, short)...)
	switch c := s.ctl; {
	case short && s.showCtl:
		out = append(out, style.WrapLines(st.Muted, "n: back to the audit", w)...)
	case short && c != nil && c.Phase == runs.Done && c.Audit != nil && s.fresh(c) && c.Audit.Violation:
		out = append(out, style.WrapLines(st.Good, "negative control ÷ "+common.FmtNum(AuditControl)+": caught (n)", w)...)
	case short && c != nil && c.Phase == runs.Done && c.Audit != nil && s.fresh(c):
		out = append(out, style.WrapLines(st.Error, "negative control ÷ "+common.FmtNum(AuditControl)+": NOT caught (n)", w)...)
	case short && !(c != nil && c.Active()):
		out = append(out, style.WrapLines(st.Muted, "n: negative control (noise ÷ "+common.FmtNum(AuditControl)+")", w)...)
	case s.showCtl:
		out = append(out, style.WrapLines(st.Muted, "n shows the audit itself again", w)...)
	case c != nil && c.Phase == runs.Done && c.Audit != nil && s.fresh(c):
		if c.Audit.Violation {
			out = append(out, style.WrapLines(st.Good, fmt.Sprintf("negative control (noise ÷ %s): caught, μ ≥ %s > %s — the audit can fail (n shows it)", common.FmtNum(AuditControl), common.FmtNum(c.Audit.MuLower), common.FmtNum(c.Audit.Eps)), w)...)
		} else {
			out = append(out, style.WrapLines(st.Error, fmt.Sprintf("negative control (noise ÷ %s): NOT caught — at these settings the audit lacks power (n shows it)", common.FmtNum(AuditControl)), w)...)
		}
	case c != nil && c.Active():
		out = append(out, style.WrapLines(st.Muted, "negative control running…", w)...)
	default:
		out = append(out, style.WrapLines(st.Muted, fmt.Sprintf("n: negative control (noise ÷ %s): the audit must then find a violation", common.FmtNum(AuditControl)), w)...)
	}
	return out
}

// verdictLines is the verdict in one sentence (short: in fewer words).
func verdictLines(st *style.Styles, res *audit.Result, w int, short bool) []string {
	lower, what := res.MuLower, "μ"
	if res.Kind == oracle.Shuffle {
		lower, what = res.EpsLower, "ε"
	}
	switch {
	case short && res.Violation && res.NegativeControl != 1:
		return style.WrapLines(st.Good, fmt.Sprintf("✓ VIOLATION found, as a control must: %s ≥ %s, beyond ε = %s", what, common.FmtNum(lower), common.FmtNum(res.Eps)), w)
	case short && res.Violation:
		return style.WrapLines(st.Error, fmt.Sprintf("✗ VIOLATION (95%%): %s ≥ %s, beyond ε = %s", what, common.FmtNum(lower), common.FmtNum(res.Eps)), w)
	case short && res.NegativeControl != 1:
		return style.WrapLines(st.Error, fmt.Sprintf("✗ control NOT caught: %s ≥ %s, within ε = %s", what, common.FmtNum(lower), common.FmtNum(res.Eps)), w)
	case short:
		return style.WrapLines(st.Good, fmt.Sprintf("✓ no violation (95%%): %s ≥ %s, within ε = %s; this cannot prove the claim", what, common.FmtNum(lower), common.FmtNum(res.Eps)), w)
	case res.Violation && res.NegativeControl != 1:
		return style.WrapLines(st.Good, fmt.Sprintf("✓ VIOLATION found, as the control must: with 95%% confidence %s ≥ %s, beyond the claimed ε = %s (the noise was ÷ %s)", what, common.FmtNum(lower), common.FmtNum(res.Eps), common.FmtNum(res.NegativeControl)), w)
	case res.Violation:
		return style.WrapLines(st.Error, fmt.Sprintf("✗ VIOLATION: with 95%% confidence %s ≥ %s, beyond the claimed ε = %s", what, common.FmtNum(lower), common.FmtNum(res.Eps)), w)
	case res.NegativeControl != 1:
		return style.WrapLines(st.Error, fmt.Sprintf("✗ the weakened oracle was NOT caught (%s ≥ %s, within ε = %s): too little power here", what, common.FmtNum(lower), common.FmtNum(res.Eps)), w)
	}
	return style.WrapLines(st.Good, fmt.Sprintf("✓ no violation: with 95%% confidence %s ≥ %s, within the claimed ε = %s — an audit cannot prove the claim, only fail to refute it", what, common.FmtNum(lower), common.FmtNum(res.Eps)), w)
}

// plotMany is asciigraph.PlotMany behind a recover (the inputs are
// guarded: finite values, explicit sizes, non-empty series).
func plotMany(data [][]float64, opts ...asciigraph.Option) (out []string) {
	defer func() {
		if recover() != nil {
			out = []string{"(plot failed)"}
		}
	}()
	return strings.Split(asciigraph.PlotMany(data, opts...), "\n")
}

// oneDecimal and twoDecimals label the plots' axes.
var (
	oneDecimal  = theory.NumberFormat{Digits: 1, Fixed: true}.Format
	twoDecimals = theory.NumberFormat{Digits: 2, Fixed: true}.Format
)

// histBlock draws the histograms of the projected outputs on D0 and D1
// (fractions of the runs per bin) in a w×h block: a legend line, the plot
// and its x axis.
func histBlock(st *style.Styles, res *audit.Result, w, h int) string {
	hg := res.Hist
	n := float64(max(res.Trials, 1))
	d0, d1 := make([]float64, hg.Bins), make([]float64, hg.Bins)
	top := 0.0
	for b := range hg.Bins {
		d0[b], d1[b] = float64(hg.Count0[b])/n, float64(hg.Count1[b])/n
		top = math.Max(top, math.Max(d0[b], d1[b]))
	}
	legend := st.FG(st.RunColor(0), chart.Mark(chart.Run, 0, st.Plain)) + " D0 (canary −) " +
		st.FG(st.RunColor(1), chart.Mark(chart.Run, 1, st.Plain)) + " D1 (canary +): outputs, % of runs per bin"
	lines := style.WrapStyled(legend, w) // whole: it says what the plot's heights are
	if top == 0 || hg.Bins == 0 {
		return style.Block(strings.Join(append(lines, st.Muted.Render("no outputs in range")), "\n"), w, h)
	}
	pct := func(v float64) string { return oneDecimal(100*v) + "%" }
	xw := max(len([]rune(common.FmtNum(hg.Lo))), len([]rune(common.FmtNum(hg.Hi))))
	pw := w - len([]rune(pct(top))) - 3 - (xw+1)/2 // room for half the last x label
	rows := h - 2 - len(lines)                     // legend, x axis and its labels
	if pw < 8 || rows < 2 {
		return style.Block(strings.Join(lines, "\n"), w, h)
	}
	opts := []asciigraph.Option{
		asciigraph.Width(pw), asciigraph.Height(rows - 1), asciigraph.LowerBound(0), asciigraph.UpperBound(top),
		asciigraph.Offset(2), asciigraph.YAxisValueFormatter(pct),
		asciigraph.XAxisRange(hg.Lo, hg.Hi), asciigraph.XAxisTickCount(2), asciigraph.XAxisValueFormatter(common.FmtNum),
		asciigraph.SeriesChars(chart.Glyphs(chart.Run, 0, st.Plain), chart.Glyphs(chart.Run, 1, st.Plain)),
	}
	if !st.Plain {
		opts = append(opts, asciigraph.SeriesColors(asciigraph.AnsiColor(st.RunColor(0)), asciigraph.AnsiColor(st.RunColor(1))))
	}
	for _, l := range plotMany([][]float64{d0, d1}, opts...) {
		lines = append(lines, style.FitWords(l, w))
	}
	return style.Block(strings.Join(lines, "\n"), w, h)
}

// tradeBlock draws the threshold tests' (FPR, FNR) — joined, with the
// trivial tests (0, 1) and (1, 0) at the ends — against the claim's
// Gaussian trade-off curve G_μ (audit.Result.ClaimCurve), in a w×h block.
func tradeBlock(st *style.Styles, res *audit.Result, w, h int) string {
	legend := st.FG(st.Upper, chart.Mark(chart.Upper, 0, st.Plain)) + " claim G_" + common.FmtNum(res.MuClaim) + ": no test below " +
		st.FG(st.RunColor(0), "••") + " tests (FPR →, FNR ↑)"
	lines := style.WrapStyled(legend, w) // whole: it names the claim and the tests' axes
	rows := h - 2 - len(lines)
	yf := oneDecimal
	if rows > 11 { // tenths would repeat
		yf = twoDecimals
	}
	pw := w - len(yf(1)) - 3 - 2
	if pw < 8 || rows < 2 {
		return style.Block(strings.Join(lines, "\n"), w, h)
	}
	_, claim := res.ClaimCurve(pw)
	// The tests' points in increasing FPR (thresholds increase: FPR falls).
	xs, ys := []float64{0}, []float64{1}
	for i := len(res.Thresholds) - 1; i >= 0; i-- {
		t := res.Thresholds[i]
		xs, ys = append(xs, t.FPR), append(ys, t.FNR)
	}
	xs, ys = append(xs, 1), append(ys, 0)
	emp := make([]float64, pw)
	for j := range emp {
		a := float64(j) / float64(pw-1)
		emp[j] = interp(xs, ys, a)
	}
	opts := []asciigraph.Option{
		asciigraph.Width(pw), asciigraph.Height(rows - 1), asciigraph.LowerBound(0), asciigraph.UpperBound(1),
		asciigraph.Offset(2), asciigraph.YAxisValueFormatter(yf),
		asciigraph.XAxisRange(0, 1), asciigraph.XAxisTickCount(3), asciigraph.XAxisValueFormatter(oneDecimal),
		asciigraph.SeriesChars(chart.Glyphs(chart.Upper, 0, st.Plain), asciigraph.CreateCharSet("•")),
	}
	if !st.Plain {
		opts = append(opts, asciigraph.SeriesColors(asciigraph.AnsiColor(st.Upper), asciigraph.AnsiColor(st.RunColor(0))))
	}
	for _, l := range plotMany([][]float64{claim, emp}, opts...) {
		lines = append(lines, style.FitWords(l, w))
	}
	return style.Block(strings.Join(lines, "\n"), w, h)
}

// interp is the piecewise-linear interpolation of the points (xs, ys)
// (xs non-decreasing, from 0 to 1) at x.
func interp(xs, ys []float64, x float64) float64 {
	for i := 1; i < len(xs); i++ {
		if x <= xs[i] {
			if xs[i] == xs[i-1] {
				return ys[i]
			}
			f := (x - xs[i-1]) / (xs[i] - xs[i-1])
			return ys[i-1] + f*(ys[i]-ys[i-1])
		}
	}
	return ys[len(ys)-1]
}

// auditPanel is the audit screen's companion: the threshold tests (each
// with its counts and its μ lower bound), the audit's notes and what an
// audit proves (audit.Explanation); it scrolls (pgup/pgdn).
type auditPanel struct {
	common.ScrollPanel
	run *runs.Run
}

func (p *auditPanel) set(r *runs.Run) {
	if r != p.run {
		p.Viewport.SetYOffset(0)
	}
	p.run = r
	p.Cache.Invalidate()
}

// Update scrolls.
func (p *auditPanel) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	p.ScrollKeys(msg, p.content)
	return p, nil
}

// content fills the viewport: the thresholds, the notes, the explanation.
func (p *auditPanel) content() {
	st := p.Styles
	w := p.W
	var lines []string
	if r := p.run; r != nil && r.Audit != nil {
		res := r.Audit
		lines = append(lines, style.WrapLines(st.Emph, fmt.Sprintf("%d threshold tests on %s runs per input (95%% bounds hold together):", len(res.Thresholds), common.FmtInt(int64(res.Trials))), w)...)
		header := []string{"threshold", "FPR", "FNR", "μ ≥"}
		if res.Kind == oracle.Shuffle {
			header = append(header, "ε ≥")
		}
		var rows [][]string
		for _, t := range res.Thresholds {
			row := []string{"  ", common.FmtNum(t.T), common.FmtNum(t.FPR), common.FmtNum(t.FNR), common.FmtNum(math.Max(t.MuLower, 0))}
			if res.Kind == oracle.Shuffle {
				row = append(row, common.FmtNum(t.EpsLower))
			}
			rows = append(rows, row)
		}
		lines = append(lines, pointTable(st, header, rows, []int{11, 9, 9, 9}, w)...)
		randomness := fmt.Sprintf("seed %d (%s)", res.Seed, res.Rand)
		if res.Rand == solvers.Secure {
			randomness = "secure randomness (not reproducible)"
		}
		lines = append(lines, style.WrapLines(st.Muted, fmt.Sprintf("d = %d, s = %d; noiseless outputs %s apart, noise calibrated to sensitivity %s; %s.", res.D, res.S, common.FmtNum(res.Shift), common.FmtNum(res.Sensitivity), randomness), w)...)
		for _, n := range res.Notes {
			lines = append(lines, style.WrapLines(st.Muted, "note: "+n, w)...)
		}
		lines = append(lines, "")
	}
	lines = append(lines, reflow(audit.Explanation, w)...)
	p.Fill(lines)
}

// reflow wraps text to w cells by its paragraphs — lines joined up to a
// blank line, a heading or a list item ("- " after spaces), each item
// under a hanging indent — where its own line breaks (set for an
// 80-column help) left a panel's lines ragged, a word or two alone.
func reflow(text string, w int) []string {
	var out, cur []string
	item := false
	flush := func() {
		if len(cur) == 0 {
			return
		}
		para := strings.Join(cur, " ")
		cur = nil
		if !item {
			out = append(out, style.Wrap(para, w)...)
			return
		}
		for i, l := range style.Wrap(para, max(w-4, 1)) {
			lead := "    "
			if i == 0 {
				lead = "  - "
			}
			out = append(out, lead+l)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			flush()
			item = false
			out = append(out, "")
		case strings.HasPrefix(t, "- "):
			flush()
			item = true
			cur = append(cur, strings.TrimPrefix(t, "- "))
		case item && !strings.HasPrefix(l, " "), strings.HasSuffix(t, ":") && !strings.HasPrefix(l, " "):
			flush()
			item = false
			cur = append(cur, t)
		default:
			cur = append(cur, t)
		}
	}
	flush()
	return out
}

// View renders the panel (cached until what it shows changes).
func (p *auditPanel) View() string { return p.Cache.View(p.render) }

func (p *auditPanel) render() string {
	p.content()
	return p.Framed(style.Rule(*p.Styles, "Audit: the tests and what they prove", "", p.W, false))
}

// auditCommand is the `dpso audit` command line of an oracle audit c (the
// defaults left out), which prints the numbers the screen shows.
func auditCommand(c audit.Config) string {
	words := []string{"dpso", "audit", "--oracle", c.Oracle, "--eps", spec.FormatArg(c.Eps)}
	if c.Delta != 0 {
		words = append(words, "--delta", spec.FormatArg(c.Delta))
	}
	if c.Seed != 0 {
		words = append(words, "--seed", fmt.Sprint(c.Seed))
	}
	if c.Rand != solvers.Seeded {
		words = append(words, "--rand", c.Rand.String())
	}
	if c.NegativeControl > 1 {
		words = append(words, "--negative-control", spec.FormatArg(c.NegativeControl))
	}
	return strings.Join(words, " ")
}
