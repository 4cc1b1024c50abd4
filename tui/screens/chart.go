package screens

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/internal/engine"
	"dpso/internal/plot"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/chart"
	"dpso/tui/common"
	"dpso/tui/runs"
)

// ChartKind is the chart, the home screen: r runs the form's solver, c
// the comparison with the baselines.
const ChartKind runs.ScreenKind = "chart"

var chartScreenDef = common.ScreenDef{Kind: ChartKind, Build: func(c common.Common, formula common.Component) common.Screen { return newChartScreen(c, formula) }}

// ChartScreen is the live convergence chart: log10 of the excess risk
// against gradient evaluations of the latest run or comparison (the mean
// over the trials, live), with the bounds of the form's Spec drawn as
// horizontal lines. Its companion panel is the theorem. e exports the run
// it shows.
type ChartScreen struct {
	common.Common
	Chart   *chart.Chart
	formula common.Component
	Presc   runs.PrescriptionMsg
	// runPresc is the prescription of the run shown (its Spec's), whose
	// reference lines the chart draws with it: never another
	// configuration's.
	runPresc     runs.PrescriptionMsg
	common.Shown                 // the form's Spec, the latest single run or comparison
	prev         common.Previous // the run before a change of parameters, drawn faint
	narrow       bool            // too narrow for the legend's privacy tags
	w            int
}

// singleJob is the run of the form's solver alone (r on the chart).
func singleJob(res spec.Resolved) (runs.Job, string) {
	name := res.Solver.Name()
	return runs.Job{Call: backend.Call{Kind: backend.Compare, Spec: res, Names: []string{name}}, Family: ChartKind, What: name}, ""
}

// CompareWhat names c's comparison (CompareJob) on the status bar.
const CompareWhat = "comparison"

// CompareJob is the comparison (c) of compareNames on the same draws.
func CompareJob(res spec.Resolved) (runs.Job, string) {
	return runs.Job{Call: backend.Call{Kind: backend.Compare, Spec: res, Names: compareNames(res)}, Family: ChartKind, What: CompareWhat, Compare: true}, ""
}

// compareNames is the paper's solver for the class, then every baseline
// of the solvers' registry (solvers.Baselines).
func compareNames(rs spec.Resolved) []string {
	names := []string{rs.Schedule}
	for _, b := range solvers.Baselines() {
		if !slices.Contains(names, b.Name()) {
			names = append(names, b.Name())
		}
	}
	return names
}

// Job is the run of the form's solver.
func (s *ChartScreen) Job(res spec.Resolved) (runs.Job, string) { return singleJob(res) }

// Reproduce is the dpso run command of the form's Spec (spec.Spec.Command,
// the CLI's own rendering).
func (s *ChartScreen) Reproduce(user spec.Spec, res spec.Resolved, shown *runs.Run) string {
	return chartCommand(user, res, shown)
}

// chartCommand is the command of the chart's run: dpso run with the
// form's Spec (before any run: the run r starts); once the chart draws a
// run, that run's — its own Spec where the form changed since (the chart
// then draws it as the run before) —, and for a comparison the one
// command that runs it, dpso run --solvers (the same draws, each solver's
// numbers those --solver alone gives).
func chartCommand(user spec.Spec, res spec.Resolved, shown *runs.Run) string {
	if shown == nil {
		return user.Command()
	}
	if runs.RunKey(shown.Spec) != runs.RunKey(res) {
		user = shown.Spec.Spec
	}
	if shown.Compare {
		s := user.Clone()
		s.Solver = ""
		words := []string{"dpso", "run"}
		for _, a := range s.Args() {
			words = append(words, spec.ShellQuote(a))
		}
		return strings.Join(append(words, "--solvers", strings.Join(shown.Names, ",")), " ")
	}
	return user.Command()
}

// tagWidth is the narrowest chart whose legend tags each solver of a
// comparison with its (ε', δ): below it (80×24's chart) the tags would
// cost the plot rows, and the privacy tab lists them instead.
const tagWidth = 60

// newChartScreen returns the chart screen; formula is its panel.
func newChartScreen(c common.Common, formula common.Component) *ChartScreen {
	s := &ChartScreen{Common: c, Chart: chart.New(c.Styles, common.FmtNum), formula: formula, Presc: runs.PrescriptionMsg{Pending: true}}
	s.Chart.SetAxes(chart.Axes{YLabel: "excess risk (log)", XLabel: "gradient evaluations (log)", LogX: true, ZeroStart: true,
		Labels: common.TickLabels})
	s.rebuild()
	return s
}

// Panel is the theorem.
func (s *ChartScreen) Panel() (string, common.Component) { return "Theorem", s.formula }

// SetSize sets the chart's size.
func (s *ChartScreen) SetSize(w, h int) {
	s.Chart.SetSize(w, h)
	if narrow := w < tagWidth; narrow != s.narrow || w != s.w {
		s.narrow, s.w = narrow, w
		s.rebuild()
	}
}

// View renders the chart.
func (s *ChartScreen) View() string { return s.Chart.View() }

// ShortHelp is the keys that act on this screen.
func (s *ChartScreen) ShortHelp() []key.Binding {
	return []key.Binding{s.KeyMap.Run, s.KeyMap.Compare, s.KeyMap.Pause, s.KeyMap.Export}
}

// Update takes the form's Spec, the prescription and the runs.
func (s *ChartScreen) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	if p, ok := msg.(runs.PrescriptionMsg); ok {
		s.Presc = p
		s.matchPresc()
		s.rebuild()
	} else if s.Take(msg, ChartKind) {
		s.matchPresc()
		s.rebuild()
	}
	return s, nil
}

// matchPresc keeps the prescription of the run shown: the form's latest
// when it is that run's Spec's.
func (s *ChartScreen) matchPresc() {
	if r := s.Run; r != nil && s.Presc.Prescription != nil && s.Presc.Key == runs.PrescKey(r.Spec) {
		s.runPresc = s.Presc
	}
}

// refPresc is the prescription whose reference lines and schedule the
// chart draws: the run's own while a run is shown (empty until it is
// known), else the form's.
func (s *ChartScreen) refPresc() runs.PrescriptionMsg {
	r := s.Run
	if r == nil {
		return s.Presc
	}
	if s.runPresc.Prescription != nil && s.runPresc.Key == runs.PrescKey(r.Spec) {
		return s.runPresc
	}
	if s.Presc.Pending && s.Presc.Key == runs.PrescKey(r.Spec) {
		return s.Presc // the run's, still computed or queued for a slot
	}
	return runs.PrescriptionMsg{Pending: true}
}

// Export is the run on the chart, if it finished: its figures, and as JSON
// the document `dpso run --json` prints for it (report.Run), or for a
// comparison the list of each solver's.
func (s *ChartScreen) Export() (*common.ExportJob, string) {
	r := s.Run
	switch {
	case r == nil:
		return nil, "nothing to export yet: run (r) or compare (c) first"
	case r.Active():
		return nil, "the run is still going: export it when it is done"
	case r.Phase == runs.Refused:
		return nil, "nothing to export: " + r.Refusal
	case r.Phase != runs.Done || r.Comparison == nil:
		return nil, "nothing to export: the run on the chart did not finish"
	}
	cmp := r.Comparison
	if len(cmp.Reports) == 1 {
		rep := cmp.Reports[0]
		return &common.ExportJob{Base: "run-" + rep.Solver, Data: report.Run(rep, report.Options{}), Draw: func(w io.Writer, f plot.Format) error { return plot.WriteRun(w, f, rep) }}, ""
	}
	return &common.ExportJob{Base: "compare", Data: report.Comparison(cmp, report.Options{}), Draw: func(w io.Writer, f plot.Format) error { return plot.WriteComparison(w, f, cmp) }}, ""
}

// meanTrace averages a solver's live traces over the trials that reached
// each checkpoint.
func meanTrace(byTrial map[int]map[int64]float64) []chart.Point {
	sum := map[int64]float64{}
	cnt := map[int64]int{}
	for _, tr := range byTrial {
		for g, e := range tr {
			sum[g] += e
			cnt[g]++
		}
	}
	xs := make([]int64, 0, len(sum))
	for g := range sum {
		xs = append(xs, g)
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	out := make([]chart.Point, len(xs))
	for i, g := range xs {
		out[i] = chart.Point{X: float64(g), Y: sum[g] / float64(cnt[g])}
	}
	return out
}

// stoppedSeries makes ser a stopped run's curve of one solver: the mean
// of its finished trials (fin) alone, so that every checkpoint averages
// the same trials, labelled with how many of the trials asked for they
// are; with none finished it draws nothing and its legend shows no
// number, only that no trial finished.
func stoppedSeries(ser *chart.Series, fin map[int]map[int64]float64, trials int) {
	ser.Points = meanTrace(fin)
	switch len(fin) {
	case 0:
		ser.Note = "no trial finished before the stop"
	case 1:
		ser.Tag = fmt.Sprintf("1 finished trial of %d (stopped)", trials)
	default:
		ser.Tag = fmt.Sprintf("mean of %d finished trials of %d (stopped)", len(fin), trials)
	}
}

// rebuild recomputes the chart's series from the prescription (the
// bounds) and the run, and its title.
func (s *ChartScreen) rebuild() {
	var series []chart.Series
	// The log x axis runs from the first checkpoint after the start (one
	// batch) to the planned evaluations, widened by the data.
	xmin, xmax := math.Inf(1), 0.0
	r := s.Run
	s.prev.Follow(r)
	ref := s.refPresc()
	if p := ref.Prescription; p != nil {
		// The levels drawn are what holds at these parameters: F(w₀) −
		// F*, the scenario's whatever the solver (a refused prescription
		// still draws it, and has no certificate: Certified is empty),
		// and the certificate. The bounds are rates (constants set to 1):
		// the theorem panel gives their values, the sweeps their slopes.
		w0, cert := p.W0, p.Certified
		drawn := 1
		if r != nil {
			drawn = len(r.Names)
		}
		basis := runCertBasis(nil, p, drawn)
		if r != nil && r.Comparison != nil && len(r.Comparison.Reports) > 0 && r.Comparison.Reports[0].Refused == "" {
			// The run's own: measured with it.
			rep := r.Comparison.Reports[0]
			w0, cert = rep.W0, rep.Certified
			basis = runCertBasis(rep, nil, len(r.Names))
		}
		series = RefSeries(s.Common, w0, cert)
		basis.label(series)
		xmax = float64(p.Params.GradEvals)
		if b := float64(p.Params.Batch); b > 0 {
			xmin = b
		}
	} else if r != nil && r.Comparison != nil && len(r.Comparison.Reports) > 0 && r.Comparison.Reports[0].Refused == "" {
		// No prescription before a run (--constants private: the run
		// estimates the constants): the run's own w₀ and certificate, at
		// the parameters it prescribed from its estimates.
		// Its certificate holds only if each true constant is at most its
		// private estimate: the legend says what the level rests on.
		rep := r.Comparison.Reports[0]
		series = RefSeries(s.Common, rep.W0, rep.Certified)
		runCertBasis(rep, nil, len(r.Names)).label(series)
	}
	title, right := "Excess risk", ""
	empty := "computing the prescription…"
	if q := common.PrescQueued(ref, "the prescription is computed once one frees"); q != "" {
		empty = q
	}
	if ref.Err != "" {
		empty = ref.Err
	}
	note, warn := runNote, ""
	if tr, ok := s.prev.RunSeries(s.Common); ok {
		series = append(series, tr)
		for _, p := range tr.Points {
			xmax = math.Max(xmax, p.X)
			if p.X > 0 {
				xmin = math.Min(xmin, p.X)
			}
		}
	}
	if r != nil {
		tags, privNote := privacyTags(r)
		switch {
		case s.narrow:
			// One line: the ε' dropped from the entries and where the
			// rates are (a tab at this width) — or, where an entry keeps
			// its "not private" (a longer entry, a legend line more), no
			// note: the tab bar beside the chart names both tabs.
			var dropped, kept bool
			tags, dropped, kept = narrowPrivacyTags(tags)
			switch {
			case kept:
				note = ""
			case dropped:
				note = narrowRunNote
			}
		case privNote != "":
			note = privNote + "\n" + runNote
		}
		// A refusal of the call as a whole by whoever runs it (dpso serve's
		// caps or its bound on a run's planned time), not by one of its
		// solvers: the legend names who refused, and no solver's entry
		// carries it.
		whole := r.Phase == runs.Refused && r.Comparison == nil && r.RefusedBy != "" && !slices.Contains(r.Names, r.RefusedBy)
		if whole {
			series = append(series, chart.Series{Label: r.RefusedBy, Kind: chart.Run, Color: s.Styles.RunColor(0), Refused: r.RefusedWhy})
		}
		for i, name := range r.Names {
			ser := chart.Series{Label: name, Kind: chart.Run, Color: s.Styles.RunColor(i)}
			if r.Comparison != nil && i < len(r.Comparison.Reports) {
				rep := r.Comparison.Reports[i]
				ser.Refused = rep.Refused
				ser.Tag = tags[i]
				if ser.Tag == "" && rep.Spec.EstimateConstants && rep.UserRows {
					ser.Tag = estimatedTag
				}
				for _, p := range rep.Trace {
					ser.Points = append(ser.Points, chart.Point{X: float64(p.GradEvals), Y: p.Excess})
				}
			} else {
				ser.Points = meanTrace(r.Traces[name])
				if whole && len(ser.Points) == 0 {
					continue
				}
				if r.Phase == runs.Refused && i == 0 && !whole {
					ser.Refused = r.Refusal
				}
				switch {
				case r.Phase == runs.Stopped:
					stoppedSeries(&ser, r.FinishedTraces(name), r.Spec.Spec.Trials)
				case r.Active() && ser.Refused == "":
					runningSeries(&ser, r.FinishedTraces(name), r.Spec.Spec.Trials)
				}
			}
			for _, p := range ser.Points {
				xmax = math.Max(xmax, p.X)
				if p.X > 0 {
					xmin = math.Min(xmin, p.X)
				}
			}
			series = append(series, ser)
		}
		if r.Active() && !hasPoints(series) {
			// The first seconds of a large run: each trial draws its data
			// before its first checkpoint.
			first := "running: each trial draws its " + common.FmtN(r.Spec.Spec.N) + " samples first"
			if r.Queue != nil {
				first = "waiting for a CPU slot; then each trial draws its " + common.FmtN(r.Spec.Spec.N) + " samples"
			}
			note = first + "; the curves appear at the solvers' checkpoints\n" + note
		}
		if rn := readsNote(r.Plan); rn != "" && r.Active() {
			note = rn + "\n" + note
		}
		trials := common.TrialCount(r.Spec.Spec.Trials)
		if r.Phase == runs.Stopped {
			// Not every trial asked for is in the curves: the legend
			// says how many are in each.
			trials = fmt.Sprintf("stopped, %d/%d trials done", r.TrialsDone, r.Total)
		}
		right = fmt.Sprintf("run #%d · %s", r.ID, trials)
		if r.Compare {
			right = fmt.Sprintf("comparison #%d · %s, same draws", r.ID, trials)
		}
		switch r.Phase {
		case runs.Refused:
			right += " · refused"
		case runs.Stopped:
			note = "■ " + r.StopText() + ": each curve is the mean of its solver's finished trials (the legend says how many); a trial the stop cut is not drawn\n" + note
		case runs.Cancelled:
			right += " · cancelled"
		case runs.Failed:
			right += " · failed"
		}
		if runs.RunKey(r.Spec) != runs.RunKey(s.Spec) {
			right += " · parameters changed since: press r"
			warn = common.StaleNote(r.ID)
		}
	}
	if s.Spec.UserRows() || r != nil && r.Spec.UserRows() {
		diagnosticTags(series)
		note = diagnosticNote + "\n" + note
	}
	if xmax <= 0 {
		xmax = 1
	}
	if math.IsInf(xmin, 1) || xmin >= xmax {
		xmin = math.Max(xmax/1000, math.Min(1, xmax/10))
	}
	s.Chart.SetTitle(s.dataTitle(title, right), right)
	s.Chart.SetNote(note)
	s.Chart.SetWarn(warn)
	s.Chart.SetData(series, xmin, xmax, empty)
}

// dataTitle is the chart's title on user data: the excess risk on the
// file, with its n and d (dataName) where the title line has room beside
// right (the run's remark, which is never dropped for it), else the file's
// name alone; title itself on a scenario.
func (s *ChartScreen) dataTitle(title, right string) string {
	name := common.DataName(s.Spec.Spec, s.Presc)
	if name == "" {
		return title
	}
	room := s.w - lipgloss.Width(right) - 12 // the rule's dashes and spaces
	for _, t := range []string{title + " on " + name, title + " on " + theory.Name(filepath.Base(s.Spec.Spec.Data))} {
		if lipgloss.Width(t) <= room {
			return t
		}
	}
	return title
}

// diagnosticTag follows, in the legend, each level measured on the
// user's rows — a run's excess risk and w₀ = F(w₀) − F*, both computed
// on the rows apart from the released output (common.DiagnosticsNote) —
// and diagnosticNote, the legend's note, says where: the chart alone (a
// screenshot) says what the panels say.
const (
	diagnosticTag  = "non-private diagnostic"
	diagnosticNote = "non-private diagnostic: measured on your rows"
)

// diagnosticTags adds diagnosticTag to the runs' and the start line's
// legend entries (after a comparison's privacy tag).
func diagnosticTags(series []chart.Series) {
	for i := range series {
		if k := series[i].Kind; k != chart.Run && k != chart.Start {
			continue
		}
		if series[i].Tag == "" {
			series[i].Tag = diagnosticTag
		} else {
			series[i].Tag += " · " + diagnosticTag
		}
	}
}

// privacyTags are the legend tags of a finished comparison
// (report.PrivacyTags: each solver's (ε', δ)-DP statement, "not private"
// for a release without a guarantee) and the legend's note that says at
// which δ. A single run has none: the privacy panel states its budget.
func privacyTags(r *runs.Run) (tags []string, note string) {
	if !r.Compare || r.Comparison == nil {
		return make([]string, len(r.Names)), ""
	}
	tags, note = report.PrivacyTags(r.Comparison.Reports, common.FmtNum)
	for len(tags) < len(r.Names) {
		tags = append(tags, "")
	}
	return tags, note
}

// narrowPrivacyTags are a narrow chart's privacy tags: "not private"
// stays on its solver's entry (the one caveat a reader of the chart must
// not miss: that curve is a floor without a guarantee), and each solver's
// ε' goes to the privacy panel; dropped says whether one went
// (narrowRunNote then says where), kept whether a "not private" stayed.
func narrowPrivacyTags(tags []string) (out []string, dropped, kept bool) {
	out = make([]string, len(tags))
	for i, t := range tags {
		switch {
		case t == report.NotPrivateTag:
			out[i], kept = t, true
		case t != "":
			dropped = true
		}
	}
	return out, dropped, kept
}

// narrowRunNote is a narrow run chart's legend note where the solvers'
// ε' are not on their entries: where they are, and where the rates are
// (the theorem panel is a tab at that width).
const narrowRunNote = "ε': Privacy tab · rates: Theorem tab"

// boundShort is a bound's short legend label.
func boundShort(id string, kind theory.Kind) string {
	switch {
	case kind == theory.Upper:
		return "upper bound"
	case kind == theory.Lower:
		return "lower bound"
	case strings.Contains(id, "klz21"):
		return "KLZ21 (prior)"
	case strings.Contains(id, "lipschitz"):
		// The value is prior work's bound in L_f, not L_f itself.
		return "Lipschitz (prior)"
	}
	return id
}

// runNote is the run chart's legend note: where the bounds are, which it
// does not draw (rates with constants set to 1 are not levels).
const runNote = "rates: theorem panel · their slopes: sweeps"

// RefSeries are the reference lines of the form's parameters: the start
// line F(w₀) − F* (doing nothing) and the certificate of the form's
// solver at its parameters (the curve must stay under it; a failed
// condition or none is said in the legend).
func RefSeries(c common.Common, w0 engine.Estimate, cert engine.Certified) []chart.Series {
	out := []chart.Series{{Label: "w₀", Kind: chart.Start, Color: c.Styles.Start, Value: w0.Mean}}
	switch x := cert.Cert; {
	case x == nil:
	case !x.Holds():
		out = append(out, chart.Series{Label: "certificate", Kind: chart.Cert, Color: c.Styles.Cert,
			Err: x.ID + " not in force: " + strings.Join(x.Failed(), "; ")})
	default:
		out = append(out, chart.Series{Label: "certified ≤", Kind: chart.Cert, Color: c.Styles.Cert, Value: x.Value})
	}
	return out
}

func kindOf(k theory.Kind) chart.Kind {
	switch k {
	case theory.Upper:
		return chart.Upper
	case theory.Lower:
		return chart.Lower
	}
	return chart.Prior
}

// boundColor is the palette colour of the i-th bound of kind k.
func boundColor(c common.Common, k theory.Kind, i int) int {
	switch k {
	case theory.Upper:
		return c.Styles.Upper
	case theory.Lower:
		return c.Styles.Lower
	}
	if i%2 == 1 {
		return c.Styles.PriorAlt
	}
	return c.Styles.Prior
}

// hasPoints reports whether a run series has a point to draw.
func hasPoints(series []chart.Series) bool {
	for _, s := range series {
		if s.Kind == chart.Run && len(s.Points) > 0 {
			return true
		}
	}
	return false
}

// VersusJob is r on the chart while a preset with versus solvers is
// loaded: the form's solver and those, on the same draws (a comparison,
// what `dpso run --solvers` runs).
func VersusJob(versus []string) runs.JobMaker {
	return func(res spec.Resolved) (runs.Job, string) {
		names := []string{res.Solver.Name()}
		for _, v := range versus {
			if !slices.Contains(names, v) {
				names = append(names, v)
			}
		}
		return runs.Job{Call: backend.Call{Kind: backend.Compare, Spec: res, Names: names}, Family: ChartKind, What: strings.Join(names, " vs "), Compare: true}, ""
	}
}
