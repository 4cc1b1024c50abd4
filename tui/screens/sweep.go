package screens

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/solvers/ledger"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/chart"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// sweepAxis is what a sweep of the excess risk over one of the run's
// parameters (n, ε) says of that parameter: its screen, the grid r
// sweeps, how its values are written, and the words the screen and its
// panel use. Each such sweep is one screen (sweepn.go, sweepeps.go).
type sweepAxis struct {
	kind runs.ScreenKind
	// param is the engine's name of the parameter, --vary's value
	// (spec.SweepN, spec.SweepEps); symbol is how the screen writes it.
	param, symbol string
	// what names the run on the status bar and in its messages ("sweep",
	// "ε sweep"); base is the exported files' base name.
	what, base string
	// grid is the sweep r runs on the form's Spec (Param, From, To,
	// Points), or why there is none.
	grid func(res spec.Resolved) (engine.SweepSpec, string)
	// stop is where the grid stops short of the largest end the axis
	// offers, and why ("" where it reaches it; nil: the grid has no such
	// end); the panel says it beside the intro and under the points.
	stop func(res spec.Resolved) string
	// reach: grid and stop answer from what the screen computed off the
	// event loop (the k sweep's reach: knownReachK), and the screen asks
	// for it where it is not known (askReach).
	reach bool
	// clear clears the swept field of the form's Spec for the command
	// line (--vary sets it at every point).
	clear func(*spec.Spec)
	// arg writes a grid end as the command line's flag value; tick as a
	// person reads it (the titles, the messages; the chart's axis writes
	// its ticks with tickLabels).
	arg, tick func(float64) string
	// hint is the chart's line before a sweep; intro the slope panel's.
	hint, intro string
	// budget: the parameter is the privacy budget, so each point has its
	// own (the privacy panel holds a point's ledger to that point's).
	budget bool
	// tradeOff: the parameter trades one term against another (k: the
	// clipping bias against the noise), so the sweep has no power law to
	// fit: the screen shows the shapes and the lowest point, no slopes.
	tradeOff bool
}

// job is the sweep r runs: the form's solver over the axis's grid.
func (a *sweepAxis) job(res spec.Resolved) (runs.Job, string) {
	sw, why := a.grid(res)
	if why != "" {
		return runs.Job{}, why
	}
	j := runs.Job{Call: backend.Call{Kind: backend.Sweep, Spec: res, Names: []string{res.Solver.Name()}, SweepSpec: sw}, Family: a.kind, What: a.what, Over: a.symbol}
	if a.budget {
		j.Budgets = pointBudgets(res, sw)
	}
	return j, ""
}

// pointBudgets is the privacy budget of res's solver at each point of sw,
// as the engine resolves the point (spec.Resolved.At); nil when a point
// does not resolve (the sweep then fails with the point's error).
func pointBudgets(res spec.Resolved, sw engine.SweepSpec) []ledger.Cost {
	var out []ledger.Cost
	for _, v := range sw.Grid() {
		at, err := res.At(sw.Param, v)
		if err != nil {
			return nil
		}
		out = append(out, at.Privacy.Cost())
	}
	return out
}

// RateSweepScreen is a sweep over one parameter (its sweepAxis): log-log
// excess risk against the parameter with each bound's curve; its
// companion panel is the slope table (the fitted slopes next to the
// bounds' slopes). Shown without a sweep of the current Spec, it asks for
// one; e exports the sweep it shows.
type RateSweepScreen struct {
	sweepBase
	axis  *sweepAxis
	Table *slopesPanel
	prev  common.Previous // the sweep before a change of parameters, drawn faint
	reach reachState      // the k axis's reach being computed (sweepkreach.go)
}

// newRateSweepScreen returns an empty sweep screen over axis.
func newRateSweepScreen(c common.Common, axis *sweepAxis) *RateSweepScreen {
	s := &RateSweepScreen{sweepBase: newSweepBase(c, axis.kind, axis.job, axis.what, axis.base,
		chart.Axes{YLabel: "excess risk (log)", XLabel: axis.symbol + " (log)", LogX: true, Labels: common.TickLabels}),
		axis: axis, Table: &slopesPanel{sweepPanel: newSweepPanel(c), axis: axis}}
	s.Chart.SetScatter(true)
	s.rebuild()
	return s
}

// Panel is the slope table: "Slopes" on an axis with a power law to fit,
// "Over k" (its name, "k" for the k sweep) on a trade-off axis, which fits
// no slope.
func (s *RateSweepScreen) Panel() (string, common.Component) {
	if s.axis.tradeOff {
		return "Over " + s.axis.symbol, s.Table
	}
	return "Slopes", s.Table
}

// Reproduce is the dpso sweep command of the sweep r runs (the swept
// field left to --vary); the dpso run command of the form when it has
// none.
func (s *RateSweepScreen) Reproduce(user spec.Spec, res spec.Resolved, _ *runs.Run) string {
	a := s.axis
	sw, why := a.grid(res)
	if why != "" {
		return user.Command()
	}
	return sweepCommand(user, a.clear, "--vary", sw.Param, "--from", a.arg(sw.From), "--to", a.arg(sw.To), "--points", strconv.Itoa(sw.Points))
}

// Update takes the form's Spec and the sweeps, and on the k axis the
// grid's reach computed off the event loop (updateReach).
func (s *RateSweepScreen) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	if s.axis.reach {
		return s, s.updateReach(msg)
	}
	if s.take(msg) {
		s.rebuild()
	}
	return s, nil
}

// state is the sweep's state line when it has no report to show.
func (s *RateSweepScreen) state() string {
	r, a := s.Run, s.axis
	if r == nil {
		return ""
	}
	span := fmt.Sprintf("%s … %s", a.tick(r.SweepSpec.From), a.tick(r.SweepSpec.To))
	switch r.Phase {
	case runs.Running, runs.Paused:
		if r.Total > 0 {
			return r.WhileWaiting(fmt.Sprintf("sweeping %s over %s: %d of %d (point, trial) runs done", a.symbol, span, r.TrialsDone, r.Total))
		}
		return r.WhileWaiting(fmt.Sprintf("sweeping %s over %s (%d points, %s each)…", a.symbol, span, r.SweepSpec.Points, common.TrialCount(r.Spec.Spec.Trials)))
	case runs.Refused:
		return "✗ refused: " + r.Refusal
	case runs.Stopped:
		return "■ the " + a.what + " was " + r.StopText() + ": " + r.Err.Error()
	case runs.Cancelled:
		return "the " + a.what + " was cancelled: r sweeps again"
	case runs.Failed:
		return a.what + " failed: " + common.FailureText(r)
	}
	return ""
}

// rebuild recomputes the chart and the table from the sweep: each
// solver's measured points (markers, ± their standard error) joined by
// straight segments with its fitted line, each bound's shape through the
// measured points (guideSeries: rates are slopes, not levels), the start
// line and the certificate at every point, and the previous sweep's
// points, faint, after a change of parameters.
func (s *RateSweepScreen) rebuild() {
	st, a := s.Styles, s.axis
	rep := s.Report()
	state := s.state()
	s.prev.Follow(s.Run)
	s.Table.stop = ""
	if a.stop != nil {
		res := s.Spec
		if rep != nil {
			res = s.Run.Spec // the grid the report ran
		}
		s.Table.stop = a.stop(res)
	}
	s.Table.set(rep, state)
	title := "Sweep: excess risk vs " + a.symbol + " (log-log)"
	s.Chart.SetWarn(common.Stale(s.Run, s.Spec))
	if rep == nil || len(rep.Points) == 0 {
		s.Chart.SetTitle(title, "")
		msg := state
		if msg == "" {
			msg = a.hint
			if _, why := a.grid(s.Spec); why != "" {
				msg = why
			}
		}
		if ser, x0, x1, ok := partialSeries(s.Common, s.Run); ok {
			// The points so far, as their trials finish (or before the stop).
			s.Chart.SetNote(partialNote(s.Run, "the bounds come with the sweep"))
			s.Chart.SetData([]chart.Series{ser}, x0, x1, msg)
			return
		}
		s.Chart.SetData(nil, 1, 10, msg)
		return
	}
	x0, x1 := rep.Points[0].Value, rep.Points[len(rep.Points)-1].Value
	series := guideSeries(s.Common, rep, a.tradeOff)
	// The start line F(w₀) − F* and the first solver's certificate at each
	// point's parameters: from which point on the theorem promises
	// something.
	start := chart.Series{Label: "w₀", Kind: chart.Start, Color: st.Start}
	for _, p := range rep.Points {
		start.Points = append(start.Points, chart.Point{X: p.Value, Y: p.Reports[0].W0.Mean})
	}
	start.Note = startNote(start.Points, a.symbol)
	series = append(series, start)
	if cert, ok := sweepCertSeries(rep, a, st.Cert); ok {
		series = append(series, cert)
	}
	for si, name := range rep.Solvers {
		ser := chart.Series{Label: name, Kind: chart.Run, Color: st.RunColor(si)}
		for _, p := range rep.Points {
			if r := p.Reports[si]; r.Refused == "" {
				ser.Points = append(ser.Points, chart.Point{X: p.Value, Y: r.Excess.Mean})
				ser.SE = append(ser.SE, r.Excess.SE)
			} else if ser.Refused == "" {
				ser.Refused = r.Refused
			}
		}
		switch {
		case si < len(rep.Slopes):
			ser.Note = "slope " + fmtSlope(rep.Slopes[si].Slope) + " (bars ± s.e.)"
		case a.tradeOff && si < len(rep.Best) && !math.IsNaN(rep.Best[si].Value):
			ser.Note = "lowest at " + a.symbol + " = " + a.tick(rep.Best[si].Value) + " (bars ± s.e.)"
		}
		series = append(series, ser)
		if fit, ok := fitSeries(s.Common, rep, si); ok {
			series = append(series, fit)
		}
	}
	if rep.NoiseOff && len(rep.Solvers) > 0 {
		// The same runs without noise: clipping, sampling and optimization.
		bias := chart.Series{Label: "noise off: clipping + sampling + optimization", Kind: chart.Run, Color: st.RunColor(len(rep.Solvers))}
		for _, p := range rep.Points {
			if r := p.Reports[0]; r.Refused == "" && !math.IsNaN(r.NoiseOff.Mean) {
				bias.Points = append(bias.Points, chart.Point{X: p.Value, Y: r.NoiseOff.Mean})
				bias.SE = append(bias.SE, r.NoiseOff.SE)
			}
		}
		if len(bias.Points) > 0 {
			series = append(series, bias)
		}
	}
	if tr, ok := s.prev.Series(s.Common, rep.Sweep.Param); ok {
		series = append(series, tr)
	}
	right := fmt.Sprintf("%d points, %s … %s", len(rep.Points), a.tick(x0), a.tick(x1))
	note := guideNote
	if runs.RunKey(s.Run.Spec) != runs.RunKey(s.Spec) {
		right += " · parameters changed since: press r"
		if _, ok := knownReachK(s.Spec); a.reach && !ok {
			note = "computing how far k can go at the new parameters\n" + note
		}
	}
	s.Chart.SetTitle(title, right)
	s.Chart.SetNote(note)
	s.Chart.SetData(series, x0, x1, "no finite positive value to draw")
}

// guideNote is a sweep chart's legend note: what the bounds' curves are.
const guideNote = "╌┄ the bounds' shapes (rates, constants = 1) through one point: slope only, their height is not a claim"

func fmtSlope(s float64) string {
	if math.IsNaN(s) {
		return "—"
	}
	return strings.Replace(fmt.Sprintf("%+.2f", s), "-", "−", 1)
}

// slopesPanel is a sweep's slope table: each solver's fitted log-log
// slope with its 95% interval, each bound's slope over the same grid.
type slopesPanel struct {
	sweepPanel
	axis *sweepAxis
	stop string // where the grid stops short, and why (sweepAxis.stop)
}

// title is the table's title.
func (p *slopesPanel) title() string {
	if p.axis.tradeOff {
		return "Over " + p.axis.symbol + ": excess risk and the bounds' shapes"
	}
	return "Slopes: d log(excess risk) / d log " + p.axis.symbol
}

// Update scrolls the table on the scroll keys; the sweep screen sets
// what it shows.
func (p *slopesPanel) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	p.ScrollKeys(msg, nil) // the lines its last View framed
	return p, nil
}

// View renders the table (cached until what it shows changes).
func (p *slopesPanel) View() string { return p.Cache.View(p.Render) }

func (p *slopesPanel) Render() string {
	w := p.W
	if p.rep == nil {
		intro := p.axis.intro
		if p.stop != "" {
			intro += " Here " + p.stop + "."
		}
		return p.waiting(p.title(), intro)
	}
	// Every note is wrapped whole; what does not fit scrolls, under the
	// title and, where a trade-off sweep's table of points comes first
	// in one block, its column header.
	head := 1
	if p.axis.tradeOff && len(p.tradeOffLines(w)) == len(p.rep.Points)+1 {
		head = 2
	}
	return p.frameHead(p.slopeLines(w), head)
}

// slopeLines is the slope table, its notes wrapped whole: each solver's
// measured slope with the bounds' slopes beside it, the verdict (where
// the theory is in force), the bounds' notes and the sweep's; a
// trade-off sweep (k) lists its points instead of slopes.
func (p *slopesPanel) slopeLines(w int) []string {
	st, rep, a := p.Styles, p.rep, p.axis
	note := func(s string) []string {
		var out []string
		for i, l := range style.Wrap(s, w-3) {
			if i > 0 {
				l = "   " + l
			}
			out = append(out, st.Muted.Render(l))
		}
		return out
	}
	lines := []string{style.Rule(*st, p.title(), "", w, false)}
	if a.tradeOff {
		lines = append(lines, p.tradeOffLines(w)...)
	}
	if p.stop != "" {
		lines = append(lines, note(p.stop)...)
	}
	for si, sl := range rep.Slopes {
		l := st.FG(st.RunColor(si), chart.Marker(chart.Run, si)+" ") + st.Emph.Render(sl.Solver) + " measured " + st.Emph.Render(fmtSlope(sl.Slope))
		if !math.IsNaN(sl.Lo) {
			l += fmt.Sprintf(" (95%% CI %s … %s)", fmtSlope(sl.Lo), fmtSlope(sl.Hi))
		}
		l += fmt.Sprintf(" over %d points", sl.Points)
		lines = append(lines, style.WrapStyled(l, w)...)
		if sl.Note != "" {
			lines = append(lines, note("   "+sl.Note)...)
		}
	}
	// The theory's slopes beside the measured ones: the paper's bounds
	// with the marks of their guides on the chart, prior work's (not
	// drawn) by name.
	var rates []string
	count := map[chart.Kind]int{}
	for _, bs := range rep.Bounds {
		if a.tradeOff && bs.Kind == theory.Prior {
			continue
		}
		t := boundShort(bs.ID, bs.Kind)
		if bs.Kind != theory.Prior {
			k := kindOf(bs.Kind)
			t = st.FG(boundColor(p.Common, bs.Kind, count[k]), chart.Mark(k, count[k], st.Plain)) + " " + t
			count[k]++
		}
		if !a.tradeOff {
			t += " " + st.Emph.Render(fmtSlope(bs.Slope))
		}
		rates = append(rates, t)
	}
	if len(rates) > 0 {
		what := "theory's slopes (rates): "
		if a.tradeOff {
			what = "theory's shapes (rates), drawn: "
		}
		lines = append(lines, style.WrapStyled("  "+what+strings.Join(rates, " · "), w)...)
	}
	lines = append(lines, p.verdictLines(w)...)
	for _, bs := range rep.Bounds {
		if len(bs.RateN) > 0 && bs.RateNote == "" && !math.IsNaN(bs.Slope) {
			continue
		}
		if bs.RateNote != "" {
			// The local rate contradicts the slope: say why instead.
			lines = append(lines, note("   "+boundShort(bs.ID, bs.Kind)+": "+bs.RateNote)...)
		} else if why := report.BoundNoSlopeWhy(rep, bs.ID); math.IsNaN(bs.Slope) && why != "" && !a.tradeOff {
			// Its "—" says why.
			lines = append(lines, note("   "+boundShort(bs.ID, bs.Kind)+" —: "+why)...)
		}
	}
	for _, n := range rep.Notes {
		lines = append(lines, note("note: "+n)...)
	}
	return append(lines, style.WrapLines(st.Muted, "Bounds are rates (constants set to 1): compare slopes, not levels.", w)...)
}

// verdictLines say where the theory is in force over the sweep
// (report.SweepVerdict): at every point, from some point on (and the measured slope
// over those points alone), or nowhere (the slope is pre-asymptotic,
// not the theorem's rate).
func (p *slopesPanel) verdictLines(w int) []string {
	msg, good := report.SweepVerdict(p.rep, p.axis.symbol, p.axis.tick, fmtSlope, p.axis.tradeOff)
	if good {
		return style.WrapLines(p.Styles.Good, msg, w)
	}
	return style.WrapLines(p.Styles.Warn, msg, w)
}

// tradeOffLines list a trade-off sweep's points (k): each value with the
// first solver's mean excess risk ± s.e. and, where the sweep ran it, the
// same runs without noise (clipping, sampling and optimization); the
// lowest marked ★.
func (p *slopesPanel) tradeOffLines(w int) []string {
	st, rep, a := p.Styles, p.rep, p.axis
	best := math.NaN()
	if len(rep.Best) > 0 {
		best = rep.Best[0].Value
	}
	var rows [][]string
	for _, pt := range rep.Points {
		r := pt.Reports[0]
		mark := "  "
		if pt.Value == best {
			mark = st.Good.Render("★ ")
		}
		if r.Refused != "" {
			rows = append(rows, []string{mark, a.tick(pt.Value), "refused"})
			continue
		}
		off := "—"
		if rep.NoiseOff {
			off = common.FmtNum(r.NoiseOff.Mean)
		}
		rows = append(rows, []string{mark, a.tick(pt.Value), common.FmtNum(r.Excess.Mean) + " ± " + common.FmtNum(r.Excess.SE), off})
	}
	return pointTable(st, []string{a.symbol, "excess ± s.e.", "noise off"}, rows, []int{6, 18}, w)
}

// partialSeries is a running sweep's first solver's points so far
// (run.partialMeans) over the sweep's grid ends — or a stopped one's
// (dpso serve's bound), the points of the trials it finished before the
// stop; false when no trial has finished (or no sweep is running or
// stopped).
func partialSeries(c common.Common, r *runs.Run) (chart.Series, float64, float64, bool) {
	if r == nil {
		return chart.Series{}, 0, 0, false
	}
	return partialSeriesOn(c, r, r.SweepSpec.Grid())
}

// partialSeriesOn is partialSeries over grid (runs.Run.PartialMeansOn).
func partialSeriesOn(c common.Common, r *runs.Run, grid []float64) (chart.Series, float64, float64, bool) {
	if r == nil || !r.Active() && r.Phase != runs.Stopped || !r.Sweeps() || len(r.Names) == 0 {
		return chart.Series{}, 0, 0, false
	}
	xs, means, counts := r.PartialMeansOn(0, grid)
	ser := chart.Series{Label: r.Names[0], Kind: chart.Run, Color: c.Styles.RunColor(0)}
	done := 0
	for i, x := range xs {
		if counts[i] > 0 {
			ser.Points = append(ser.Points, chart.Point{X: x, Y: means[i]})
			done += counts[i]
		}
	}
	ser.Note = fmt.Sprintf("so far (%d runs finished)", done)
	if r.Phase == runs.Stopped {
		ser.Note = "finished before the stop: " + r.DoneCount()
	}
	if len(ser.Points) == 0 || len(xs) < 2 {
		return chart.Series{}, 0, 0, false
	}
	return ser, xs[0], xs[len(xs)-1], true
}

// partialNote is the chart's note over partialSeries's points: what each
// point is, and what the screen draws only once the sweep ends (later);
// for a stopped sweep, that it was stopped and that nothing more comes.
func partialNote(r *runs.Run, later string) string {
	if r.Phase == runs.Stopped {
		return "■ " + r.StopText() + ": each point is the mean of its trials finished before the stop (fewer than asked where a trial was cut); no bound or fit is drawn"
	}
	return "each point: the mean of its trials finished so far; " + later
}

// startNote is the sweep's start line's legend value: the last point's
// F(w₀) − F*, or, where the instance changes along the sweep (preset 8's
// hard instance is built from n: w₀ falls 16× over its n sweep), its first
// and last values, "A → B" (left to right on the axis), so that the polyline — often hidden
// under a run that ends just above it — is not read as one level.
func startNote(pts []chart.Point, symbol string) string {
	first, last := pts[0].Y, pts[len(pts)-1].Y
	lo, hi := first, first
	for _, p := range pts {
		lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
	}
	if hi <= lo*1.01 {
		return common.FmtNum(last) + " at the last " + symbol
	}
	return common.FmtNum(first) + " → " + common.FmtNum(last)
}
