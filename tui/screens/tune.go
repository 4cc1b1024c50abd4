package screens

import (
	"fmt"
	"io"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/engine"
	"dpso/internal/plot"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// TuneKind is what the constants cost (g): the form's configuration run
// at the theorem's prescribed constants, tuned by a private search, and
// tuned by an oracle, side by side (engine.Tune, `dpso tune`).
const TuneKind runs.ScreenKind = "tune"

var tuneScreenDef = common.ScreenDef{
	Kind:  TuneKind,
	Key:   key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "what the constants cost: tune privately")),
	Short: "tune", Place: common.HelpAfterForm,
	Help: "g shows what the constants cost (what dpso tune prints for the form): the run at the theorem's prescribed constants, " +
		"a private random search over a grid of C, the step and T whose whole cost — tuning included — is inside the form's ε (Papernot & Steinke's accounting), " +
		"and the oracle-tuned reference, the grid's best point by the true excess risk, which is NOT private and not attainable; " +
		"its panel lists the search's candidates and their private scores, non-private diagnostics. " +
		"Where the screen's lines do not all fit, t brings the scroll keys (j, k, pgup, pgdn) to them as to a panel — its last line says how many are below and how many presses of t reach them —, then on to the privacy panel and back to the search's. " +
		"Leaving the screen cancels a search; e exports the document dpso tune --json prints.",
	Build: func(c common.Common, _ common.Component) common.Screen { return newTuneScreen(c) },
}

// tuneSpecOf is the search `dpso tune` runs on the form's flags: every
// default of engine.TuneSpec (the default grid, K geometric with mean 10,
// a tenth of the rows for validation, the 0.9-quantile score clip), with
// the references (the prescribed and the oracle-tuned runs) on a scenario
// and off on the user's rows, as the command's --references defaults.
func tuneSpecOf(res spec.Resolved) engine.TuneSpec {
	return engine.TuneSpec{References: !res.UserRows()}
}

// tuneJob is the search of the form's solver (tuneSpecOf), or why there is
// none (backend.Call.Check: ε = ∞, a shuffle oracle, a fixed C, step or
// T, --split-budget). Leaving the screen cancels it.
func tuneJob(res spec.Resolved) (runs.Job, string) {
	c := backend.Call{Kind: backend.Tune, Spec: res, Names: []string{res.Solver.Name()}, TuneSpec: tuneSpecOf(res)}
	if err := c.Check(); err != nil {
		return runs.Job{}, "no private search here: " + backend.SpecMessage(err)
	}
	return runs.Job{Call: c, Family: TuneKind, What: "tuning", LeaveCancels: true}, ""
}

// tuneCommand is the `dpso tune` command of the form's Spec as set: it
// prints the numbers the screen shows.
func tuneCommand(user spec.Spec) string {
	words := []string{"dpso", "tune"}
	for _, a := range user.Args() {
		words = append(words, spec.ShellQuote(a))
	}
	return strings.Join(words, " ")
}

// TuneScreen shows, for the form's configuration, the three runs of
// `dpso tune` as bars of their excess risk on one log axis beside the
// start line w₀, and what each is: prescribed (the theorem's constants,
// at ρ = ε²/2 on all rows), tuned (private: the whole search's (ε', δ),
// with how far the whole search's ε' is above one candidate's on its own line) and oracle-tuned (not private,
// an unattainable reference). Its companion panel (tunePanel) lists the
// search's candidates and scores. Shown without a search of the form's
// Spec, it asks for one.
//
// Its own lines scroll as a side panel's do (common.ScrollScreen): the
// most important sections first (the bars, the verdict, the tuned run's
// privacy), the others below, and t brings the scroll keys to them.
type TuneScreen struct {
	common.LaidOutPanel
	common.Shown
	panel *TunePanel
	// shows is the report the lines are of (a new one scrolls to the top).
	shows *engine.TuneReport
	// tight: the lines laid out fill every row under the title before
	// the ones below (wholeFirst).
	tight bool
}

func newTuneScreen(c common.Common) *TuneScreen {
	return &TuneScreen{LaidOutPanel: common.NewLaidOutPanel(c), panel: &TunePanel{LaidOutPanel: common.NewLaidOutPanel(c)}}
}

// Title names the screen in the status line that says where the scroll
// keys are.
func (s *TuneScreen) Title() string { return "tuning" }

// Panel is the search's candidates.
func (s *TuneScreen) Panel() (string, common.Component) { return "Search", s.panel }

// Job is the form's search.
func (s *TuneScreen) Job(res spec.Resolved) (runs.Job, string) { return tuneJob(res) }

// Reproduce is the dpso tune command of the form.
func (s *TuneScreen) Reproduce(user spec.Spec, _ spec.Resolved, _ *runs.Run) string {
	return tuneCommand(user)
}

// ShortHelp is the keys that act on this screen.
func (s *TuneScreen) ShortHelp() []key.Binding {
	return []key.Binding{s.KeyMap.Run, s.KeyMap.Pause, s.KeyMap.Export, s.KeyMap.Back}
}

// report is the finished search shown (nil: none).
func (s *TuneScreen) report() *engine.TuneReport {
	if r := s.Run; r != nil && r.Phase == runs.Done {
		return r.Tune
	}
	return nil
}

// searched is the running search's report before its oracle-tuned
// reference (nil: none), and how far the reference is.
func (s *TuneScreen) searched() (*engine.TuneReport, *oracleWait) {
	r := s.Run
	if r == nil || !r.Active() || r.Searched == nil || len(r.Searched.Solvers) == 0 {
		return nil, nil
	}
	w := &oracleWait{done: r.OracleRuns(), trials: len(r.Searched.Solvers[0].Tuned.Trials)}
	for _, tr := range r.Searched.Solvers[0].Tuned.Trials {
		w.runs += len(tr.Grid)
	}
	return r.Searched, w
}

// oracleWait is how far an oracle-tuned reference is while it computes:
// done of its runs (every trial's grid points at the full budget).
type oracleWait struct{ done, runs, trials int }

// text says it in words (narrow: in fewer cells).
func (o *oracleWait) text(narrow bool) string {
	switch {
	case narrow:
		return fmt.Sprintf("computing… (%d of %d)", o.done, o.runs)
	case o.trials == 1:
		return fmt.Sprintf("computing… (%d of %d grid points)", o.done, o.runs)
	}
	return fmt.Sprintf("computing… (%d of %d grid-point runs, %s)", o.done, o.runs, common.TrialCount(o.trials))
}

// fresh reports whether the shown search is of the form's Spec.
func (s *TuneScreen) fresh() bool {
	return s.Run != nil && runs.RunKey(s.Run.Spec) == runs.RunKey(s.Spec)
}

// Activate asks for a search when there is none of the form's Spec and
// none running, and the form allows one; a search cancelled (by leaving
// the screen) is asked for again.
func (s *TuneScreen) Activate() tea.Cmd {
	if r := s.Run; r != nil && (r.Active() || s.fresh() && r.Phase != runs.Cancelled) {
		return nil
	}
	if _, why := tuneJob(s.Spec); why != "" {
		return nil
	}
	return common.Emit(common.RunRequestMsg{Make: tuneJob})
}

// Export is the finished search: the document `dpso tune --json` prints
// for the reproduce line (report.Tune) and its figure (plot.Tune: the
// prescribed, tuned and oracle-tuned bars beside w₀).
func (s *TuneScreen) Export() (*common.ExportJob, string) {
	rep := s.report()
	switch {
	case rep != nil:
		return &common.ExportJob{Base: "tune-" + rep.Solvers[0].Solver, Data: report.Tune(rep), Draw: func(w io.Writer, f plot.Format) error { return plot.WriteTune(w, f, rep) }}, ""
	case s.Run != nil && s.Run.Active():
		return nil, "the search is still going: export it when it is done"
	case s.Run != nil && s.Run.Phase == runs.Refused:
		return nil, "nothing to export: " + s.Run.Refusal
	}
	if _, why := tuneJob(s.Spec); why != "" {
		return nil, "nothing to export: " + why
	}
	return nil, "nothing to export yet: r runs the search"
}

// FullHelp is none: the scroll keys are the panel key's (t) help.
func (s *TuneScreen) FullHelp() [][]key.Binding { return nil }

// Update takes the form's Spec and the searches, and scrolls on the
// scroll keys once t brought them here.
func (s *TuneScreen) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	s.UpdateLaidOut(msg, s.layout)
	if !s.Shown.Take(msg, TuneKind) {
		return s, nil
	}
	rep := s.report()
	if rep == nil {
		rep, _ = s.searched()
	}
	if rep != s.shows {
		s.Viewport.SetYOffset(0)
		s.shows = rep
	}
	s.panel.set(rep)
	s.Invalidate()
	return s, nil
}

// View renders the screen (cached until what it shows changes).
func (s *TuneScreen) View() string { return s.Cache.View(s.render) }

// narrow is the compact layout's column (80×24: 45 cells).
func (s *TuneScreen) narrow() bool { return s.W < 60 }

// layout is the screen's title and lines: before a search its state and
// what it runs; after, its sections, those that fit first (whole, the
// rows under them blank) and the others below them.
func (s *TuneScreen) layout() common.Layout {
	st := s.Styles
	w, h := s.W, s.H
	right := s.Spec.Solver.Name()
	if s.Run != nil && !s.fresh() {
		right = "form changed: r re-tunes"
	}
	rep, pending := s.report(), (*oracleWait)(nil)
	if rep == nil {
		rep, pending = s.searched()
	}
	s.tight = false
	refs := tuneSpecOf(s.Spec).References
	if rep != nil {
		refs = rep.Tune.References
	}
	title := tuneTitle(refs, s.narrow())
	if l, ok := s.stoppedLayout(title, right, w); ok && rep == nil {
		return l
	}
	if rep == nil {
		lines := []string{""}
		lines = append(lines, style.WrapLines(st.Warn, s.state(), w)...)
		lines = append(lines, "")
		lines = append(lines, style.WrapLines(st.Muted, tuneIntro(refs), w)...)
		return common.Layout{Title: title, Right: right, Lines: lines}
	}
	lines, tight := wholeFirst(tuneSections(st, rep, pending, w, s.narrow()), h)
	s.tight = tight
	return common.Layout{Title: title, Right: right, Lines: lines}
}

// render draws the screen: as a panel is drawn, or, where its kept
// sections fill every row (wholeFirst's tight), with the line that says
// how many lines are below in its title's rule, in the place of the
// solver's name.
func (s *TuneScreen) render() string {
	s.LayOut(s.layout)
	if s.tight {
		if v, ok := tightView(s.Styles, s.KeyMap, &s.Viewport, "What the constants cost", s.W, s.H, s.Presses()); ok {
			return v
		}
	}
	return s.RenderLaidOut(s.layout)
}

// tuneTitle is the screen's title: the bars it draws — the prescribed,
// tuned and oracle-tuned runs with references (refs), the tuned run alone
// without (on the user's rows); on a narrow screen the question alone.
func tuneTitle(refs, narrow bool) string {
	switch {
	case narrow:
		return "What the constants cost"
	case refs:
		return "What the constants cost: prescribed · tuned · oracle-tuned"
	}
	return "What the constants cost: the tuned run (no references on your rows)"
}

// tuneIntro says what the screen runs, before its first search: with
// references (refs) the prescribed run and the oracle-tuned reference
// beside the search; without (the user's rows), the search alone and why.
func tuneIntro(refs bool) string {
	const search = "The theorem prescribes C, the step and T from constants of the problem (r̃_k, β, μ) that guard the worst case. " +
		"This screen runs what dpso tune runs on the form: a private random search — K random candidates from a grid of C, step and T, each trained on 90% of the rows and scored privately on the rest, the best released — " +
		"whose whole cost, tuning included, is the form's ε"
	if refs {
		return search + "; beside it the prescribed run and the oracle-tuned reference (the grid's best point by the true excess risk: not private)."
	}
	return search + ". On your rows it draws the tuned run alone: the " + report.NoReferencesOnRows + "; r on the chart runs the prescribed one."
}

// state is the search's state when there is no result to show.
func (s *TuneScreen) state() string {
	if _, why := tuneJob(s.Spec); why != "" {
		return why
	}
	r := s.Run
	if r == nil {
		return "r runs the private search on the form's configuration"
	}
	switch r.Phase {
	case runs.Running, runs.Paused:
		return r.WhileWaiting(tuneProgress(r))
	case runs.Stopped:
		return stoppedText(r, len(r.SearchedTrials(0)))
	case runs.Cancelled:
		return "the search was cancelled: r runs it again"
	case runs.Refused:
		return "✗ " + r.Refusal
	case runs.Failed:
		return "✗ the search failed: " + backend.SpecMessage(r.Err)
	}
	return ""
}

// tuneProgress says where a search is: each trial searches (K candidates),
// then runs the oracle's grid; the prescribed runs come last.
func tuneProgress(r *runs.Run) string {
	t := r.Spec.Spec.Trials
	switch {
	case !r.HaveLatest:
		return fmt.Sprintf("searching (%s, each K random candidates; then the prescribed run and the oracle's grid)…", common.TrialCount(t))
	case r.Latest.Oracle:
		return fmt.Sprintf("every trial's search and the prescribed run are done; the oracle's grid: trial %d, point %d of %d…", r.Latest.Trial, r.Latest.Iter, r.Latest.Iters)
	case r.Total > 0 && r.TrialsDone >= r.Total:
		return fmt.Sprintf("every trial's search is done; running the prescribed %s (the theorem's constants)…", common.TrialCount(t))
	}
	return fmt.Sprintf("%d of %s searched; trial %d: candidate %d of K = %d…", r.TrialsDone, common.TrialCount(t), r.Latest.Trial, r.Latest.Iter, r.Latest.Iters)
}

// tuneRow is one run of the three: its name, excess risk, parameters
// (short: in fewer cells, for the compact layout).
type tuneRow struct {
	name          string
	est           engine.Estimate
	params, short string
	// why replaces the bar when the run has no result (a refusal, a
	// reference still computing).
	why string
	// pending: the run is still computing (why says how far).
	pending bool
	// coarse: the oracle-tuned reference of its coarse grid alone
	// (engine.OracleTuned.Coarse), shown while the rest computes.
	coarse bool
}

// label is the row's name as the screen writes it.
func (r tuneRow) label() string {
	if r.coarse {
		return "coarse oracle"
	}
	return r.name
}

// tuneRows are the report's first solver's runs, prescribed first (absent
// without references), then tuned, then oracle-tuned (pending, when not
// "": how far it is while it computes).
func tuneRows(rep *engine.TuneReport, pending string) []tuneRow {
	ts := rep.Solvers[0]
	var out []tuneRow
	if ts.Prescribed == nil && rep.Tune.References && pending != "" {
		out = append(out, tuneRow{name: "prescribed", why: "computing…", pending: true, params: "the theorem's constants on all rows", short: "the theorem's constants"})
	}
	if p := ts.Prescribed; p != nil {
		row := tuneRow{name: "prescribed", est: p.Excess, params: paramsText(p.Params.Clip, p.Params.Step, p.Params.Iters), short: paramsShort(p.Params.Clip, p.Params.Step, p.Params.Iters)}
		if p.Refused != "" {
			row.why = "refused: " + p.Refused
		}
		out = append(out, row)
	}
	row := tuneRow{name: "tuned", est: ts.Tuned.Excess, params: "nothing released (K = 0): w₀", short: "K = 0: w₀"}
	if tr := ts.Tuned.Trials; len(tr) > 0 && tr[0].Chosen >= 0 {
		row.params = paramsText(tr[0].Params.Clip, tr[0].Params.Step, tr[0].Params.Iters)
		row.short = paramsShort(tr[0].Params.Clip, tr[0].Params.Step, tr[0].Params.Iters)
	}
	out = append(out, row)
	if o := ts.Oracle; o != nil && o.Best >= 0 {
		out = append(out, tuneRow{name: "oracle-tuned", est: o.Excess, params: o.Candidate.Text(common.FmtNum), short: o.Candidate.Text(common.FmtNum), coarse: o.Coarse})
		if c := o.Candidate; c.Iters > 0 && c.Epochs == 0 && c.Batch == 0 {
			out[len(out)-1].short = paramsShort(c.Clip, c.Step, c.Iters)
		}
	}
	if ts.Oracle == nil && pending != "" {
		what := "every grid point at the full budget on all rows"
		out = append(out, tuneRow{name: "oracle-tuned", why: pending, pending: true, params: what, short: "the grid at the full budget"})
	}
	return out
}

// paramsText is a run's C, step and T as the flags write them.
func paramsText(c, step float64, iters int) string {
	return fmt.Sprintf("C = %s, step = %s, T = %d", common.FmtNum(c), common.FmtNum(step), iters)
}

// paramsShort is paramsText in fewer cells ("C 788 · step 0.667 · T 20").
func paramsShort(c, step float64, iters int) string {
	return fmt.Sprintf("C %s · step %s · T %d", common.FmtNum(c), common.FmtNum(step), iters)
}

// EstText is a mean ± its standard error.
func EstText(e engine.Estimate) string {
	if math.IsNaN(e.SE) {
		return common.FmtNum(e.Mean)
	}
	return common.FmtNum(e.Mean) + " ± " + common.FmtNum(e.SE)
}

// tuneSections are the screen's lines under its title, by priority: the
// bars and the privacy of the tuned run first.
//
// pending, when not nil, is how far the oracle-tuned reference is while
// it computes (rep has none yet).
func tuneSections(st *style.Styles, rep *engine.TuneReport, pending *oracleWait, w int, narrow bool) []common.Section {
	ts := rep.Solvers[0]
	pv := rep.Privacy
	wait := ""
	if pending != nil {
		wait = pending.text(narrow)
	}
	rows := tuneRows(rep, wait)
	var secs []common.Section
	if len(rep.NotPrivate) > 0 {
		why, _, _ := strings.Cut(rep.NotPrivate[0], ": ")
		secs = append(secs, common.Section{Prio: 0, Lines: style.WrapLines(st.Error, "NOT PRIVATE: "+why, w)})
	}
	head := fmt.Sprintf("excess risk (log axis), mean ± s.e. over %s", common.TrialCount(rep.Spec.Trials))
	switch {
	case rep.UserRows && narrow:
		head = "excess risk on your rows: diagnostic"
	case rep.UserRows:
		head = "excess risk on your rows (log axis): a non-private diagnostic"
	case narrow:
		head = fmt.Sprintf("excess risk (log), mean ± s.e., %s", common.TrialCount(rep.Spec.Trials))
	}
	secs = append(secs, common.Section{Prio: 0, Lines: append([]string{style.FitWords(st.Muted.Render(head), w)}, tuneBars(st, rows, rep.W0.Mean, w, narrow)...)})
	if line := tuneVerdict(rep, rows); line != "" {
		secs = append(secs, common.Section{Prio: 0, Lines: style.WrapLines(st.Emph, line, w)})
	}
	if lines := tuneW0Lines(st, rows, rep.W0.Mean, w); len(lines) > 0 {
		secs = append(secs, common.Section{Prio: 1, Lines: lines})
	}
	indent := "   "
	if narrow {
		indent = "  "
	}
	item := func(s lipgloss.Style, text string) []string {
		var out []string
		for _, l := range style.Wrap(text, w-len(indent)) {
			out = append(out, indent+s.Render(l))
		}
		return out
	}
	for _, r := range rows {
		var lines []string
		name := st.FG(tuneColor(st, r.name), r.label())
		params := r.params
		if narrow {
			params = r.short
		}
		if r.name == "tuned" && rep.Spec.Trials > 1 {
			// Each trial's search chooses its own (the panel lists them).
			params += " (trial 0's)"
		}
		lines = append(lines, style.WrapStyled(name+"  "+params, w)...)
		switch r.name {
		case "prescribed":
			p := ts.Prescribed
			if p == nil { // still running
				what := fmt.Sprintf("ρ = ε²/2 = %s on all %s rows, the same draws: computing… (%s)", common.FmtNum(pv.Target.Rho), common.FmtN(rep.N), common.TrialCount(rep.Spec.Trials))
				if narrow {
					what = "theorem's constants: computing…"
				}
				lines = append(lines, item(st.Muted, what)...)
				secs = append(secs, common.Section{Prio: 1, Lines: lines})
				continue
			}
			constants := "the theorem's constants"
			if pv.ConstantsRho > 0 {
				constants = "the theorem's formulas at private estimates of the constants (ρ₀ inside ρ)"
			}
			what := fmt.Sprintf("%s, ρ = ε²/2 = %s on all %s rows: ε' = %s at δ = %s", constants, common.FmtNum(p.Privacy.Rho), common.FmtN(rep.N), common.FmtNum(p.Privacy.EpsDelta), common.FmtNum(pv.Target.Delta))
			switch {
			case r.why != "":
				what = r.why
			case p.Privacy.Model == spec.Accountant:
				e, _ := report.EpsDelta(p)
				what = fmt.Sprintf("the prescription's parameters on all %s rows: ε' = %s at δ = %s (%s accountant)", common.FmtN(rep.N), common.FmtNum(e), common.FmtNum(pv.Target.Delta), p.Privacy.AccountantName)
			}
			if narrow && r.why == "" {
				what = fmt.Sprintf("theorem's constants, ρ = %s: ε' = %s", common.FmtNum(p.Privacy.Rho), common.FmtNum(p.Privacy.EpsDelta))
				if pv.ConstantsRho > 0 {
					what = fmt.Sprintf("private constants, ρ = %s: ε' = %s", common.FmtNum(p.Privacy.Rho), common.FmtNum(p.Privacy.EpsDelta))
				}
			}
			lines = append(lines, item(st.Muted, what)...)
			secs = append(secs, common.Section{Prio: 1, Lines: lines})
		case "tuned":
			whole := fmt.Sprintf("private, tuning included: the whole search is (%s, %s)-DP (ρ = %s's ε')", common.FmtNum(pv.Eps), common.FmtNum(pv.Target.Delta), common.FmtNum(pv.Target.Rho))
			one := fmt.Sprintf("one candidate: ρ_Q = %s, ε' = %s alone (trains on %d rows, scored on %d)", common.FmtNum(pv.CandidateRho), common.FmtNum(pv.CandidateEps), rep.NTrain, rep.NValid)
			over := fmt.Sprintf("the whole search's ε' is %s above one candidate's (the choice among K; score clip ρ_s = %s%s)", common.FmtNum(pv.Overhead), common.FmtNum(pv.ScoreRho), constantsText(pv.ConstantsRho))
			if narrow {
				whole = fmt.Sprintf("private, tuning included: ε' = %s", common.FmtNum(pv.Eps))
				one = fmt.Sprintf("the whole search's ε' is %s above one candidate's %s", common.FmtNum(pv.Overhead), common.FmtNum(pv.CandidateEps))
				over = ""
			}
			if sd := ts.DPSGD; sd != nil {
				// dp-sgd's candidates are accounted by their own curves.
				whole = fmt.Sprintf("private, tuning included: the whole search is (%s, %s)-DP (at most ρ = %s's ε')", common.FmtNum(sd.Eps), common.FmtNum(pv.Target.Delta), common.FmtNum(pv.Target.Rho))
				one = fmt.Sprintf("each candidate by its own subsampled-Gaussian curve: noise multiplier %s at batch %d, T = %d, …; score ρ = %s", common.FmtNum(sd.Mechanisms[0].Z), sd.Mechanisms[0].Batch, sd.Mechanisms[0].Steps, common.FmtNum(sd.ScoreRho))
				over = ""
				if narrow {
					whole = fmt.Sprintf("private, tuning included: ε' = %s", common.FmtNum(sd.Eps))
				}
			}
			lines = append(lines, item(st.Good, whole)...)
			// How the whole splits (the privacy panel sums it too): the
			// first lines to give way on a short screen.
			detail := item(st.Muted, one)
			if over != "" {
				detail = append(detail, item(st.Muted, over)...)
			}
			if rep.UserRows {
				lines = append(lines, item(st.Emph, fmt.Sprintf("this search on your rows (%d search%s, one per trial): ε' = %s at δ = %s, all its trials; every call of this session on them: the privacy panel", rep.Total.Searches, esPlural(rep.Total.Searches), common.FmtNum(rep.Total.Eps), common.FmtNum(rep.Total.Delta)))...)
			}
			if h := ts.Tuned.Holdout; !math.IsNaN(h.Mean) {
				lines = append(lines, item(st.Warn, "held-out loss "+EstText(h)+" (rows no solver saw; a non-private diagnostic)")...)
			}
			secs = append(secs, common.Section{Prio: 0, Lines: lines}, common.Section{Prio: 1, Lines: detail})
		case "oracle-tuned":
			points := 0
			if ts.Oracle != nil {
				points = len(ts.Oracle.Points)
			} else if len(ts.Tuned.Trials) > 0 {
				points = len(ts.Tuned.Trials[0].Grid)
			}
			what := fmt.Sprintf("NOT private, not attainable: the best of %d grid points by their true excess risk", points)
			if narrow {
				what = "NOT private: unattainable reference"
			}
			if o := ts.Oracle; o != nil && o.Coarse {
				what = fmt.Sprintf("NOT private, not attainable: the best of the coarse grid's %d of %d points (each axis's ends and about half its values) by their true excess risk; the other %d, %s", len(o.Ran), points, points-len(o.Ran), wait)
				if narrow {
					what = fmt.Sprintf("NOT private: best of %d of %d points; the rest %s", len(o.Ran), points, wait)
				}
			}
			lines = append(lines, item(st.Warn, what)...)
			// Kept with the bars it labels: the reference is not private.
			secs = append(secs, common.Section{Prio: 0, Lines: lines})
		}
	}
	if !rep.Tune.References {
		secs = append(secs, common.Section{Prio: 2, Lines: style.WrapLines(st.Muted, report.NoReferencesOnRows+"; r on the chart runs the prescribed one", w)})
	}
	return secs
}

// constantsText is the private constants' share in the tuning line.
func constantsText(rho0 float64) string {
	if rho0 == 0 {
		return ""
	}
	return fmt.Sprintf("; private constants ρ₀ = %s", common.FmtNum(rho0))
}

// tuneColor is the colour of a run's name and bar.
func tuneColor(st *style.Styles, name string) int {
	switch name {
	case "prescribed":
		return st.RunColor(1)
	case "oracle-tuned":
		return st.Prior
	}
	return st.RunColor(0)
}

// tuneVerdict compares the tuned run with the prescribed one and the
// oracle's (report.TuneSolverVerdict: the ratio of the means and the
// paired difference over the same draws at 2 s.e., dpso tune's test),
// leaving out a run the rows show refused or still computing.
func tuneVerdict(rep *engine.TuneReport, rows []tuneRow) string {
	ts := rep.Solvers[0]
	orcName := "oracle-tuned"
	pres, orc := false, false
	for _, r := range rows {
		if r.why != "" || r.pending {
			continue
		}
		switch r.name {
		case "prescribed":
			pres = true
		case "oracle-tuned":
			orc, orcName = true, r.label()
		}
	}
	if !pres {
		ts.Prescribed = nil
	}
	if !orc {
		ts.Oracle = nil
	}
	return report.TuneSolverVerdict(ts, orcName)
}
