package screens

import (
	"strings"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/tui/chart"
)

// sweepCertSeries is the first solver's certificate over a sweep, drawn
// as a level (╍╍) only at the points whose runs it covers
// (report.CertCovers: not on flagged private estimates, not of a
// budget-capped run); its entry says from which point on it promises
// something and names the budget-capped points (report.CertFrom:
// "budget-capped: not covered at n = …"). Where it covers no point but
// some are capped it is listed at no height, saying so; ok is false
// where there is nothing to list.
func sweepCertSeries(rep *engine.SweepReport, a *sweepAxis, col int) (chart.Series, bool) {
	cert := chart.Series{Label: rep.Solvers[0] + " certified", Kind: chart.Cert, Color: col}
	for _, p := range rep.Points {
		if len(p.Reports) > 0 && report.CertCovers(p.Reports[0]) {
			cert.Points = append(cert.Points, chart.Point{X: p.Value, Y: p.Reports[0].Certified.Value()})
		}
	}
	from := report.CertFrom(rep, 0, a.symbol, a.tick)
	switch {
	case len(cert.Points) > 0:
		cert.Note = from
	case strings.HasPrefix(from, report.CappedNotCovered):
		cert.Note = from + " (not drawn)"
	default:
		return chart.Series{}, false
	}
	return cert, true
}
