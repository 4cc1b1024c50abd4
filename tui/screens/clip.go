package screens

import (
	"fmt"
	"math"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/tui/backend"
	"dpso/tui/chart"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// ClipKind is the clipping trade-off (x): the excess risk over the clip
// threshold C.
const ClipKind runs.ScreenKind = "clip"

var clipScreenDef = common.ScreenDef{
	Kind:  ClipKind,
	Key:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "clipping trade-off: sweep C")),
	Short: "clip", Place: common.HelpBesideRun,
	Build: func(c common.Common, _ common.Component) common.Screen { return newClipScreen(c) },
}

// clipJob is the clipping sweep x runs: the engine's default grid,
// engine.DefaultClipPoints values of C from 10⁻⁴ to 1 times the
// prescribed C, with the step (and T) held at the prescription's — what
// `dpso sweep --vary clip` runs.
func clipJob(res spec.Resolved) (runs.Job, string) {
	return runs.Job{Call: backend.Call{Kind: backend.Sweep, Spec: res, Names: []string{res.Solver.Name()}, SweepSpec: engine.SweepSpec{Param: spec.SweepClip}}, Family: ClipKind, What: "clipping sweep", Over: "C"}, ""
}

// ClipScreen is the clipping trade-off, the paper's central idea made
// visible: the excess risk against the clip threshold C (log-log) of the
// form's solver, from 10⁻⁴ to 1 times the prescribed C with the step and
// T held at the prescription's (engine.Sweep with spec.SweepClip, what
// `dpso sweep --vary clip` runs); beside it the same runs with the noise
// switched off (clipping, sampling and optimization error; the clipping
// bias itself, F(w_C) − F*, is in the table) and the start line F(w₀) − F*.
// A small C clips most gradients (bias), a large one clips none but needs
// noise ∝ C: the curve is a U. Its companion panel is the table of each
// C's clipped fraction, with the prescribed and the empirical best C
// marked. Shown without a clipping sweep of the current Spec, it asks for
// one; e exports it.
type ClipScreen struct {
	sweepBase
	Table *clipTable
	prev  common.Previous // the clipping sweep before a change of parameters, drawn faint
	// The prescribed C of the latest prescription (by runs.PrescKey) and
	// the grid of the sweep shown, built from the prescription of its
	// Spec: a running or stopped sweep's points before its report
	// (runGrid).
	presKey  string
	presC    float64
	gridKey  string
	gridVals []float64
}

// newClipScreen returns an empty clipping screen.
func newClipScreen(c common.Common) *ClipScreen {
	s := &ClipScreen{sweepBase: newSweepBase(c, ClipKind, clipJob, "clipping sweep", "clip",
		chart.Axes{YLabel: "excess risk (log)", XLabel: "clip threshold C (log)", LogX: true, Labels: common.TickLabels}),
		Table: &clipTable{newSweepPanel(c)}}
	s.Chart.SetScatter(true)
	s.rebuild()
	return s
}

// Panel is the sweep's table (each C: the fraction clipped, the excess
// risk, the noise-off run), its side tab named for the sweep it tabulates
// ("C sweep"), not a word a letter from the batch histogram's tab
// ("Clipping").
func (s *ClipScreen) Panel() (string, common.Component) { return "C sweep", s.Table }

// Reproduce is the dpso sweep --vary clip command (the form's C left to
// --vary).
func (s *ClipScreen) Reproduce(user spec.Spec, _ spec.Resolved, _ *runs.Run) string {
	return sweepCommand(user, func(s *spec.Spec) { s.Clip = 0 }, "--vary", "clip")
}

// Update takes the form's Spec, its prescription and the clipping
// sweeps.
func (s *ClipScreen) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	if pm, ok := msg.(runs.PrescriptionMsg); ok && pm.Prescription != nil && !pm.Pending {
		s.presKey, s.presC = pm.Key, pm.Prescription.Params.Clip
		if s.followGrid() {
			s.rebuild()
		}
		return s, nil
	}
	if s.take(msg) {
		s.followGrid()
		s.rebuild()
	}
	return s, nil
}

// followGrid keeps the grid of the sweep shown: the engine's default
// grid (engine.DefaultClipPoints values of C from 10^−DefaultClipDecades
// to 1 times the prescribed C, as engine.Sweep builds it for a clip sweep
// without from and to) at the prescribed C of the sweep's own Spec; it
// reports whether the grid changed.
func (s *ClipScreen) followGrid() bool {
	r := s.Run
	if r == nil || s.presKey == "" || runs.PrescKey(r.Spec) != s.presKey || s.gridKey == s.presKey {
		return false
	}
	s.gridKey, s.gridVals = s.presKey, nil
	if C := s.presC; C > 0 && !math.IsInf(C, 1) && r.SweepSpec.From == 0 && r.SweepSpec.To == 0 {
		sw := engine.SweepSpec{Param: spec.SweepClip, From: C * math.Pow(10, -engine.DefaultClipDecades), To: C, Points: engine.DefaultClipPoints}
		s.gridVals = sw.Grid()
	}
	return true
}

// runGrid is the grid of the sweep shown (nil: its prescription is not
// known here).
func (s *ClipScreen) runGrid() []float64 {
	if s.Run == nil || s.gridKey != runs.PrescKey(s.Run.Spec) {
		return nil
	}
	return s.gridVals
}

// state is the clipping sweep's state line when it has no report to show.
func (s *ClipScreen) state() string {
	r := s.Run
	if r == nil {
		return ""
	}
	switch r.Phase {
	case runs.Running, runs.Paused:
		if r.Total > 0 {
			return r.WhileWaiting(fmt.Sprintf("sweeping C: %d of %d (point, trial) runs done, each twice (with and without noise)", r.TrialsDone, r.Total))
		}
		return r.WhileWaiting(fmt.Sprintf("sweeping C over %d points from 10⁻⁴ to 1 times the prescribed C (%s each)…", engine.DefaultClipPoints, common.TrialCount(r.Spec.Spec.Trials)))
	case runs.Refused:
		return "✗ refused: " + r.Refusal
	case runs.Stopped:
		return "■ the clipping sweep was " + r.StopText() + ": " + r.Err.Error()
	case runs.Cancelled:
		return "the clipping sweep was cancelled: r sweeps again"
	case runs.Failed:
		return "clipping sweep failed: " + common.FailureText(r)
	}
	return ""
}

// rebuild recomputes the chart and the table from the clipping sweep.
func (s *ClipScreen) rebuild() {
	st := s.Styles
	rep := s.Report()
	state := s.state()
	s.prev.Follow(s.Run)
	s.Table.set(rep, state)
	const title = "Clipping: excess vs C"
	s.Chart.SetWarn(common.Stale(s.Run, s.Spec))
	if rep == nil || len(rep.Points) == 0 {
		s.Chart.SetTitle(title, "")
		if ser, x0, x1, ok := partialSeriesOn(s.Common, s.Run, s.runGrid()); ok {
			// The points so far, as their trials finish (or before the stop).
			s.Chart.SetTitle(title, "prescribed "+common.FmtNum(x1))
			s.Chart.SetNote(partialNote(s.Run, "the noise-off runs and the table come with the sweep"))
			s.Chart.SetData([]chart.Series{ser}, x0, x1, state)
			return
		}
		msg := state
		if msg == "" {
			msg = "press r to sweep the clip threshold C from 10⁻⁴ to 1 times the prescribed C: a small C clips (bias), a large one needs noise"
		}
		s.Chart.SetData(nil, 1, 10, msg)
		return
	}
	solver := rep.Solvers[0]
	measured := chart.Series{Label: solver, Kind: chart.Run, Color: st.RunColor(0)}
	bias := chart.Series{Label: "noise off: clipping + sampling + optimization", Kind: chart.Run, Color: st.RunColor(1)}
	start := chart.Series{Label: "w₀", Kind: chart.Start, Color: st.Start}
	for _, p := range rep.Points {
		r := p.Reports[0]
		start.Points = append(start.Points, chart.Point{X: p.Value, Y: r.W0.Mean})
		if r.Refused != "" {
			measured.Refused = r.Refused
			continue
		}
		measured.Points = append(measured.Points, chart.Point{X: p.Value, Y: r.Excess.Mean})
		measured.SE = append(measured.SE, r.Excess.SE)
		bias.Points = append(bias.Points, chart.Point{X: p.Value, Y: r.NoiseOff.Mean})
		bias.SE = append(bias.SE, r.NoiseOff.SE)
	}
	if len(start.Points) > 0 {
		start.Note = common.FmtNum(start.Points[0].Y)
	}
	series := []chart.Series{start, measured}
	if measured.Refused == "" {
		series = append(series, bias)
	}
	if tr, ok := s.prev.Series(s.Common, rep.Sweep.Param); ok {
		series = append(series, tr)
	}
	x0, x1 := rep.Points[0].Value, rep.Points[len(rep.Points)-1].Value
	right := "prescribed " + common.FmtNum(rep.PrescribedClip)
	if len(rep.Best) > 0 && !math.IsNaN(rep.Best[0].Value) {
		right += " · best " + common.FmtNum(rep.Best[0].Value)
	}
	note := "right end = the prescribed C (◀ in the table; ★ there: the best); bars ± s.e."
	if runs.RunKey(s.Run.Spec) != runs.RunKey(s.Spec) {
		right += " · parameters changed: press r"
	}
	s.Chart.SetTitle(title, right)
	s.Chart.SetNote(note)
	s.Chart.SetData(series, x0, x1, "no finite positive value to draw")
}

// clipBiasLine says what the clipping bias itself is over the sweep, for
// its first solver: F(w_C) − F* at the clipped population fixed point
// (engine.Report.ClipBias), 0 at every C, or its values at the grid's ends;
// "" when it was not computed.
func clipBiasLine(rep *engine.SweepReport) string {
	var vals []float64
	var xs []float64
	for _, p := range rep.Points {
		if r := p.Reports[0]; r.Refused == "" && !math.IsNaN(r.ClipBias.Excess) {
			vals, xs = append(vals, r.ClipBias.Excess), append(xs, p.Value)
		}
	}
	if len(vals) == 0 {
		return ""
	}
	const head = "Clipping bias F(w_C) − F*, where steps along the clipped mean gradient stop: "
	zero := true
	for _, v := range vals {
		zero = zero && v == 0
	}
	if zero {
		return head + "0 at every C (" + rep.Points[0].Reports[0].ClipBias.Method + ")."
	}
	n := len(vals) - 1
	return head + common.FmtNum(vals[0]) + " at C = " + common.FmtNum(xs[0]) + ", " + common.FmtNum(vals[n]) + " at C = " + common.FmtNum(xs[n]) + "."
}

// clipTable is the clipping screen's panel: for each C of the sweep the
// fraction of per-sample gradients clipped, the excess risk and the
// noise-off run's (clipping, sampling and optimization error together),
// the prescribed C marked ◀ and the empirical best ★; under them the
// clipping bias itself (clipBiasLine).
type clipTable struct{ sweepPanel }

// Update scrolls the table on the scroll keys; the clipping screen sets
// what it shows.
func (p *clipTable) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	p.ScrollKeys(msg, nil) // the lines its last View framed
	return p, nil
}

// View renders the table (cached until what it shows changes).
func (p *clipTable) View() string { return p.Cache.View(p.Render) }

func (p *clipTable) Render() string {
	st := p.Styles
	w := p.W
	const title = "C sweep: bias against noise" // its side tab's name first (Panel)
	rep := p.rep
	if rep == nil {
		return p.waiting(title, "The clip threshold C trades bias for noise: clipping at a small C biases the gradient mean (by at most r̃_k^k/((k−1)C^(k−1))), a large C needs noise σ ∝ C. "+
			"The sweep runs the current parameters at 9 values of C from 10⁻⁴ to 1 times the prescribed C, each trial twice: as prescribed and with the noise off.")
	}
	lines := []string{style.Rule(*st, title, "", w, false)}
	best := math.NaN()
	if len(rep.Best) > 0 {
		best = rep.Best[0].Value
	}
	var rows [][]string
	for _, pt := range rep.Points {
		r := pt.Reports[0]
		mark := "  "
		switch {
		case pt.Value == best:
			mark = st.Good.Render("★ ")
		case pt.Value == rep.PrescribedClip:
			mark = st.Warn.Render("◀ ")
		}
		if r.Refused != "" {
			rows = append(rows, []string{mark, common.FmtNum(pt.Value), "refused"})
			continue
		}
		rows = append(rows, []string{mark, common.FmtNum(pt.Value), report.Percent(r.Clipped), common.FmtNum(r.Excess.Mean), common.FmtNum(r.NoiseOff.Mean)})
	}
	table := pointTable(st, []string{"C", "clip", "excess", "noise off"}, rows, []int{6, 6, 7}, w)
	head := 1 // the title held above the scrolled lines; a one-block table's header too
	if len(table) == len(rows)+1 {
		head = 2
	}
	lines = append(lines, table...)
	if b := clipBiasLine(rep); b != "" {
		lines = append(lines, style.WrapLines(st.Value, b, w)...)
	}
	lines = append(lines, style.WrapLines(st.Muted, "clip: gradients clipped. ◀ prescribed (the theorem's C) · ★ lowest mean. Noise off: the same T, C, steps and draws without noise — clipping, sampling and optimization error together, not the bias alone. "+
		"The step and T are held at the prescription's.", w)...)
	return p.frameHead(lines, head)
}
