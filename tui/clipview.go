package tui

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
	"dpso/tui/style"
)

// clipKind is the clipping trade-off (x): the excess risk over the clip
// threshold C.
const clipKind screenKind = "clip"

var clipScreenDef = screenDef{
	kind:  clipKind,
	key:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "clipping trade-off: sweep C")),
	short: "clip", place: helpBesideRun,
	build: func(c common, _ *formulaPanel) screen { return newClipScreen(c) },
}

// clipJob is the clipping sweep x runs: the engine's default grid,
// engine.DefaultClipPoints values of C from 10⁻⁴ to 1 times the
// prescribed C, with the step (and T) held at the prescription's — what
// `dpso sweep --vary clip` runs.
func clipJob(res spec.Resolved) (job, string) {
	return job{Call: backend.Call{Kind: backend.Sweep, Spec: res, Names: []string{res.Solver.Name()}, SweepSpec: engine.SweepSpec{Param: spec.SweepClip}}, family: clipKind, what: "clipping sweep", over: "C"}, ""
}

// clipScreen is the clipping trade-off, the paper's central idea made
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
type clipScreen struct {
	sweepBase
	table *clipTable
	prev  previous // the clipping sweep before a change of parameters, drawn faint
}

// newClipScreen returns an empty clipping screen.
func newClipScreen(c common) *clipScreen {
	s := &clipScreen{sweepBase: newSweepBase(c, clipKind, clipJob, "clipping sweep", "clip",
		chart.Axes{YLabel: "excess risk (log)", XLabel: "clip threshold C (log)", LogX: true, Labels: tickLabels}),
		table: &clipTable{newSweepPanel(c)}}
	s.chart.SetScatter(true)
	s.rebuild()
	return s
}

// Panel is the clipped-fraction table.
func (s *clipScreen) Panel() (string, component) { return "Clipped", s.table }

// Reproduce is the dpso sweep --vary clip command (the form's C left to
// --vary).
func (s *clipScreen) Reproduce(user spec.Spec, _ spec.Resolved, _ *run) string {
	return sweepCommand(user, func(s *spec.Spec) { s.Clip = 0 }, "--vary", "clip")
}

// Update takes the form's Spec and the clipping sweeps.
func (s *clipScreen) Update(msg tea.Msg) (component, tea.Cmd) {
	if s.take(msg) {
		s.rebuild()
	}
	return s, nil
}

// state is the clipping sweep's state line when it has no report to show.
func (s *clipScreen) state() string {
	r := s.run
	if r == nil {
		return ""
	}
	switch r.phase {
	case phaseRunning, phasePaused:
		if r.total > 0 {
			return fmt.Sprintf("sweeping C: %d of %d (point, trial) runs done, each twice (with and without noise)", r.trialsDone, r.total)
		}
		return fmt.Sprintf("sweeping C over %d points from 10⁻⁴ to 1 times the prescribed C (%s each)…", engine.DefaultClipPoints, trialCount(r.Spec.Spec.Trials))
	case phaseRefused:
		return "✗ refused: " + r.refusal
	case phaseCancelled:
		return "the clipping sweep was cancelled: r sweeps again"
	case phaseFailed:
		return "clipping sweep failed: " + backend.SpecMessage(r.err)
	}
	return ""
}

// rebuild recomputes the chart and the table from the clipping sweep.
func (s *clipScreen) rebuild() {
	st := s.st
	rep := s.report()
	state := s.state()
	s.prev.follow(s.run)
	s.table.set(rep, state)
	const title = "Clipping: excess vs C"
	if rep == nil || len(rep.Points) == 0 {
		s.chart.SetTitle(title, "")
		msg := state
		if msg == "" {
			msg = "press r to sweep the clip threshold C from 10⁻⁴ to 1 times the prescribed C: a small C clips (bias), a large one needs noise"
		}
		s.chart.SetData(nil, 1, 10, msg)
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
		start.Note = fmtNum(start.Points[0].Y)
	}
	series := []chart.Series{start, measured}
	if measured.Refused == "" {
		series = append(series, bias)
	}
	if tr, ok := s.prev.series(s.common, rep.Sweep.Param); ok {
		series = append(series, tr)
	}
	x0, x1 := rep.Points[0].Value, rep.Points[len(rep.Points)-1].Value
	right := "prescribed " + fmtNum(rep.PrescribedClip)
	if len(rep.Best) > 0 && !math.IsNaN(rep.Best[0].Value) {
		right += " · best " + fmtNum(rep.Best[0].Value)
	}
	if runKey(s.run.Spec) != runKey(s.spec) {
		right += " · parameters changed: press r"
	}
	s.chart.SetTitle(title, right)
	s.chart.SetNote("right end = the prescribed C (◀ in the table; ★ there: the best); bars ± s.e.")
	s.chart.SetData(series, x0, x1, "no finite positive value to draw")
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
	return head + fmtNum(vals[0]) + " at C = " + fmtNum(xs[0]) + ", " + fmtNum(vals[n]) + " at C = " + fmtNum(xs[n]) + "."
}

// clipTable is the clipping screen's panel: for each C of the sweep the
// fraction of per-sample gradients clipped, the excess risk and the bias
// alone, the prescribed C marked ◀ and the empirical best ★.
type clipTable struct{ sweepPanel }

// Update scrolls the table on the scroll keys; the clipping screen sets
// what it shows.
func (p *clipTable) Update(msg tea.Msg) (component, tea.Cmd) {
	p.scroll(p.keys, msg, nil) // the lines its last View framed
	return p, nil
}

// View renders the table (cached until what it shows changes).
func (p *clipTable) View() string { return p.cache.view(p.render) }

func (p *clipTable) render() string {
	st := p.st
	w := p.w
	const title = "Clipping: bias against noise"
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
	lines = append(lines, st.Muted.Render(style.FitWords(fmt.Sprintf("  %-7s %-6s %-8s %s", "C", "clip", "excess", "noise off"), w)))
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
			lines = append(lines, style.FitWords(mark+fmt.Sprintf("%-9s refused", fmtNum(pt.Value)), w))
			continue
		}
		l := fmt.Sprintf("%-7s %-6s %-8s %s", fmtNum(pt.Value), report.Percent(r.Clipped), fmtNum(r.Excess.Mean), fmtNum(r.NoiseOff.Mean))
		lines = append(lines, style.FitWords(mark+l, w))
	}
	if b := clipBiasLine(rep); b != "" {
		lines = append(lines, style.WrapLines(st.Value, b, w)...)
	}
	lines = append(lines, style.WrapLines(st.Muted, "clip: gradients clipped. ◀ prescribed (the theorem's C) · ★ lowest mean. Noise off: the same T, C, steps and draws without noise — clipping, sampling and optimization error together, not the bias alone. "+
		"The step and T are held at the prescription's.", w)...)
	return p.frame(lines)
}
