package tui

import (
	"fmt"
	"math"
	"strings"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/engine"
	"dpso/tui/chart"
	"dpso/tui/style"
)

// SweepScreen is the sweep over n: log-log excess risk against n with
// each bound's curve; its companion panel is the slope table (the fitted
// slopes next to the bounds' slopes). Shown without a sweep of the current
// Spec, it asks for one; e exports the sweep it shows.
type SweepScreen struct {
	sweepScreen
	table *SlopesPanel
}

// NewSweepScreen returns an empty sweep screen.
func NewSweepScreen(c common) *SweepScreen {
	s := &SweepScreen{sweepScreen: newSweepScreen(c, runSweep, "sweep", "sweep",
		chart.Axes{YLabel: "log10 excess risk", XLabel: "n (log)", LogX: true, XFormat: func(x float64) string { return fmtNum(math.Round(x)) }}),
		table: &SlopesPanel{sweepPanel{common: c}}}
	s.rebuild()
	return s
}

// Panel is the slope table.
func (s *SweepScreen) Panel() (string, Component) { return "Slopes", s.table }

// Update takes the form's Spec and the sweeps.
func (s *SweepScreen) Update(msg tea.Msg) (Component, tea.Cmd) {
	if s.take(msg) {
		s.rebuild()
	}
	return s, nil
}

// state is the sweep's state line when it has no report to show.
func (s *SweepScreen) state() string {
	r := s.run
	if r == nil {
		return ""
	}
	span := fmt.Sprintf("%s … %s", fmtN(int(r.sweep.From)), fmtN(int(r.sweep.To)))
	switch r.phase {
	case phaseRunning, phasePaused:
		if r.total > 0 {
			return fmt.Sprintf("sweeping n over %s: %d of %d (point, trial) runs done", span, r.trialsDone, r.total)
		}
		return fmt.Sprintf("sweeping n over %s (5 points, %s each)…", span, trialCount(r.spec.Spec.Trials))
	case phaseRefused:
		return "✗ refused: " + r.refusal
	case phaseCancelled:
		return "the sweep was cancelled: r sweeps again"
	case phaseFailed:
		return "sweep failed: " + specMessage(r.err)
	}
	return ""
}

// rebuild recomputes the chart and the table from the sweep.
func (s *SweepScreen) rebuild() {
	st := s.st
	rep := s.report()
	state := s.state()
	s.table.set(rep, state)
	if rep == nil || len(rep.Points) == 0 {
		s.chart.SetTitle("Sweep: excess risk vs n (log-log)", "")
		msg := state
		if msg == "" {
			msg = "press r to sweep n on a log grid (5 points from n/16 to the current n)"
		}
		s.chart.SetData(nil, 1, 10, msg)
		return
	}
	var series []chart.Series
	x0, x1 := rep.Points[0].Value, rep.Points[len(rep.Points)-1].Value
	// Bounds: each one's curve over the grid.
	count := map[chart.Kind]int{}
	for _, bs := range rep.Bounds {
		k := kindOf(bs.Kind)
		ser := chart.Series{Label: boundShort(bs.ID, bs.Kind), Kind: k, Color: boundColor(s.common, bs.Kind, count[k])}
		count[k]++
		for _, p := range rep.Points {
			for _, b := range p.Reports[0].Bounds {
				if b.ID == bs.ID {
					ser.Points = append(ser.Points, chart.Point{X: p.Value, Y: b.Value})
				}
			}
		}
		ser.Note = "slope " + fmtSlope(bs.Slope)
		series = append(series, ser)
	}
	// The start line F(w₀) − F* and the first solver's certificate at each
	// point's parameters: from which n on the theorem promises something.
	start := chart.Series{Label: "w₀", Kind: chart.Start, Color: st.Start}
	cert := chart.Series{Label: rep.Solvers[0] + " certified", Kind: chart.Cert, Color: st.Cert}
	for _, p := range rep.Points {
		start.Points = append(start.Points, chart.Point{X: p.Value, Y: p.Reports[0].W0.Mean})
		if v := p.Reports[0].Certified.Value(); !math.IsNaN(v) {
			cert.Points = append(cert.Points, chart.Point{X: p.Value, Y: v})
		}
	}
	start.Note = fmtNum(start.Points[len(start.Points)-1].Y) + " at the last n"
	series = append(series, start)
	if len(cert.Points) > 0 {
		cert.Note = certFrom(rep)
		series = append(series, cert)
	}
	for si, name := range rep.Solvers {
		ser := chart.Series{Label: name, Kind: chart.Run, Color: st.RunColor(si)}
		for _, p := range rep.Points {
			if r := p.Reports[si]; r.Refused == "" {
				ser.Points = append(ser.Points, chart.Point{X: p.Value, Y: r.Excess.Mean})
			} else if ser.Refused == "" {
				ser.Refused = r.Refused
			}
		}
		if si < len(rep.Slopes) {
			ser.Note = "slope " + fmtSlope(rep.Slopes[si].Slope)
		}
		series = append(series, ser)
	}
	right := fmt.Sprintf("%d points, %s … %s", len(rep.Points), fmtN(int(x0)), fmtN(int(x1)))
	if runKey(s.run.spec) != runKey(s.spec) {
		right += " · parameters changed since: press r"
	}
	s.chart.SetTitle("Sweep: excess risk vs n (log-log)", right)
	s.chart.SetNote(rateNote)
	s.chart.SetData(series, x0, x1, "no finite positive value to draw")
}

// certFrom says from which n of the sweep on the first solver's
// certificate falls below F(w₀) − F* (promises something).
func certFrom(rep *engine.SweepReport) string {
	for _, p := range rep.Points {
		r := p.Reports[0]
		if c := r.Certified; c.Cert != nil && !math.IsNaN(c.Value()) && !c.Vacuous(r.W0.Mean) {
			return "below w₀ from n = " + fmtN(int(p.Value))
		}
	}
	return "vacuous (above w₀) at every n"
}

func fmtSlope(s float64) string {
	if math.IsNaN(s) {
		return "—"
	}
	return strings.Replace(fmt.Sprintf("%+.2f", s), "-", "−", 1)
}

const slopesTitle = "Slopes: d log(excess risk) / d log n"

// SlopesPanel is the sweep's slope table: each solver's fitted log-log
// slope with its 95% interval, each bound's slope over the same grid.
type SlopesPanel struct{ sweepPanel }

// Update does nothing: the sweep screen sets the table.
func (p *SlopesPanel) Update(tea.Msg) (Component, tea.Cmd) { return p, nil }

// View renders the table.
func (p *SlopesPanel) View() string {
	w := p.w
	if p.rep == nil {
		return p.waiting(slopesTitle, "The sweep runs the current parameters at 5 values of n on a log grid from n/16 to n (same seed) and fits a line to log(mean excess risk) against log n. Each bound's slope over the same grid is its rate in n.")
	}
	// Notes are wrapped in full when the panel has the rows for every
	// one of them, else cut to a line each (first pass: wrapped).
	for _, wrap := range []bool{true, false} {
		lines := p.slopeLines(w, wrap)
		if !wrap || len(lines) <= p.h {
			return style.Block(strings.Join(lines, "\n"), w, p.h)
		}
	}
	return ""
}

// slopeLines is the slope table, its notes wrapped (wrap) or cut to one
// line each.
func (p *SlopesPanel) slopeLines(w int, wrap bool) []string {
	st, rep := p.st, p.rep
	note := func(s string) []string {
		if !wrap {
			return []string{style.FitWords(st.Muted.Render(s), w)}
		}
		var out []string
		for i, l := range style.Wrap(s, w-3) {
			if i > 0 {
				l = "   " + l
			}
			out = append(out, st.Muted.Render(l))
		}
		return out
	}
	lines := []string{style.Rule(*st, slopesTitle, "", w, false)}
	for si, sl := range rep.Slopes {
		l := st.FG(st.RunColor(si), chart.Mark(chart.Run, si, st.Plain)+" ") + st.Emph.Render(sl.Solver) + " measured " + st.Emph.Render(fmtSlope(sl.Slope))
		if !math.IsNaN(sl.Lo) {
			l += fmt.Sprintf(" (95%% CI %s … %s)", fmtSlope(sl.Lo), fmtSlope(sl.Hi))
		}
		l += fmt.Sprintf(" over %d points", sl.Points)
		lines = append(lines, style.FitWords(l, w))
		if sl.Note != "" {
			lines = append(lines, note("   "+sl.Note)...)
		}
	}
	count := map[chart.Kind]int{}
	for _, bs := range rep.Bounds {
		k := kindOf(bs.Kind)
		mark := chart.Mark(k, count[k], st.Plain)
		col := boundColor(p.common, bs.Kind, count[k])
		count[k]++
		l := st.FG(col, mark+" ") + boundShort(bs.ID, bs.Kind) + " slope " + st.Emph.Render(fmtSlope(bs.Slope))
		if len(bs.RateN) > 0 && bs.RateNote == "" {
			l += fmt.Sprintf(" (local rate %s at n = %s)", fmtSlope(bs.RateN[len(bs.RateN)-1]), fmtN(int(rep.Points[len(rep.Points)-1].Value)))
		}
		lines = append(lines, style.FitWords(l, w))
		if bs.RateNote != "" {
			// The local rate contradicts the slope: say why instead.
			lines = append(lines, note("   "+bs.RateNote)...)
		}
	}
	for _, n := range rep.Notes {
		lines = append(lines, note("note: "+n)...)
	}
	return append(lines, style.WrapLines(st.Muted, "Bounds are rates with their unknown constants set to 1: compare slopes, not levels.", w)...)
}
