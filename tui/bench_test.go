package tui

import (
	"math"
	"testing"

	tea "charm.land/bubbletea/v2"

	"dpso/tui/chart"
	"dpso/tui/screens"
)

// benchModel is the explorer at 200×60 after a comparison, with a full
// chart: 4 solvers × 66 checkpoints log-spaced over 10⁶ evaluations (the
// solvers' default schedule), the start line and the certificate.
func benchModel(b *testing.B) *Model {
	m := goldenModel(b, 200, 60)
	cs := m.chartScreen()
	series := screens.RefSeries(m.Common, cs.Presc.Prescription.W0, cs.Presc.Prescription.Certified)
	for si, name := range []string{"nonprivate-schedule", "lipschitz-dpsgd", "klz-gd", "acsa"} {
		s := chart.Series{Label: name, Kind: chart.Run, Color: m.Styles.RunColor(si)}
		for j := 0; j <= 65; j++ {
			x := 0.0
			if j > 0 {
				x = math.Pow(1e6, float64(j)/65)
			}
			s.Points = append(s.Points, chart.Point{X: x, Y: (1 + float64(si)) * 0.5 / (1 + math.Sqrt(x)) * (1 + 0.3*math.Sin(float64(j)))})
		}
		series = append(series, s)
	}
	cs.Chart.SetData(series, 1, 1e6, "")
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	return m
}

// BenchmarkView is a frame at 200×60 with a full chart: the chart string
// is cached, so this is the cost of every frame between data changes.
func BenchmarkView(b *testing.B) {
	m := benchModel(b)
	m.View()
	b.ReportAllocs()
	for b.Loop() {
		m.View()
	}
}

// BenchmarkViewReplot is a frame whose chart data changed (a progress
// batch arrived): the plot is redrawn.
func BenchmarkViewReplot(b *testing.B) {
	m := benchModel(b)
	c := m.chartScreen().Chart
	series := c.Series()
	b.ReportAllocs()
	for b.Loop() {
		c.SetData(series, 1, 1e6, "")
		m.View()
	}
}

// BenchmarkFirstScreen is the explorer's first screen at 132×42 from
// nothing: the model built on the first preset, its prescription computed
// by the engine (engine.Prescribe: the problem built, its moment profile
// and bounds), and the frame drawn. A whole process adds its own start.
func BenchmarkFirstScreen(b *testing.B) {
	for b.Loop() {
		m := newTestModel(b, &fakeRunner{points: 6}, nil, 132, 42)
		m.render()
	}
}
