package screens

import (
	"math"

	"dpso/internal/engine"
	"dpso/internal/plot"
	"dpso/theory"
	"dpso/tui/chart"
	"dpso/tui/common"
)

// A bound with its constants set to 1 is a rate: its level says nothing,
// its shape over a sweep does. A sweep draws each bound's values over the
// grid as a slope guide — the same curve shifted to pass through one
// measured point, the same for every guide — so that the eye compares the shapes and the table the
// slopes, and never a measured value with a constant-1 level.

// Means is the mean excess risk of solver si at every point (NaN where
// it refused).
func Means(rep *engine.SweepReport, si int) []float64 {
	out := make([]float64, len(rep.Points))
	for i, p := range rep.Points {
		out[i] = math.NaN()
		if si < len(p.Reports) && p.Reports[si].Refused == "" {
			out[i] = p.Reports[si].Excess.Mean
		}
	}
	return out
}

// boundValues is the value of the bound id at every point (NaN where it
// is missing).
func boundValues(rep *engine.SweepReport, id string) []float64 {
	out := make([]float64, len(rep.Points))
	for i, p := range rep.Points {
		out[i] = math.NaN()
		for _, b := range p.Reports[0].Bounds {
			if b.ID == id {
				out[i] = b.Value
			}
		}
	}
	return out
}

// guideSeries are the sweep's slope guides: the paper's upper and lower
// bounds' curves over the grid, all through the first solver's measured
// mean at one point (plot.GuideAnchor), labelled as shapes with their slopes over the grid
// (none on a trade-off sweep, whose parameter is no power law's: k).
// Prior work's bounds are in the slope table, not on the chart: four
// guides through the same points would hide one another.
func guideSeries(c common.Common, rep *engine.SweepReport, tradeOff bool) []chart.Series {
	measured := Means(rep, 0)
	// Every guide through the one point the figure's pass through
	// (plot.GuideAnchor: where no lower bound's shape rises above an
	// upper one's), so that they differ only in slope.
	at := plot.GuideAnchor(rep)
	var out []chart.Series
	count := map[chart.Kind]int{}
	for _, bs := range rep.Bounds {
		if bs.Kind == theory.Prior {
			continue
		}
		k := kindOf(bs.Kind)
		ser := chart.Series{Label: boundShort(bs.ID, bs.Kind) + "'s shape", Kind: k, Color: boundColor(c, bs.Kind, count[k])}
		count[k]++
		vals := boundValues(rep, bs.ID)
		a := math.NaN()
		if at >= 0 && vals[at] > 0 && !math.IsInf(vals[at], 0) {
			a = measured[at] / vals[at]
		}
		switch {
		case math.IsNaN(a):
			ser.Note = "(no measured point to anchor it)"
		case tradeOff:
			ser.Note = "over " + rep.Sweep.Param
		default:
			ser.Note = "slope " + fmtSlope(bs.Slope)
		}
		for i, p := range rep.Points {
			if !math.IsNaN(a) {
				ser.Points = append(ser.Points, chart.Point{X: p.Value, Y: a * vals[i]})
			}
		}
		out = append(out, ser)
	}
	return out
}

// fitSeries is the fitted log-log line of solver si (its Slope: ln y =
// Intercept + Slope·ln x) over the grid's ends; false when there is none.
func fitSeries(c common.Common, rep *engine.SweepReport, si int) (chart.Series, bool) {
	if si >= len(rep.Slopes) || len(rep.Points) < 2 {
		return chart.Series{}, false
	}
	sl := rep.Slopes[si]
	if math.IsNaN(sl.Slope) || math.IsNaN(sl.Intercept) {
		return chart.Series{}, false
	}
	ser := chart.Series{Label: "fitted line", Kind: chart.Fit, Color: c.Styles.RunColor(si), Note: "(least squares in log-log)"}
	if len(rep.Solvers) > 1 {
		ser.Label = rep.Solvers[si] + "'s fitted line"
	}
	for _, p := range []engine.SweepPoint{rep.Points[0], rep.Points[len(rep.Points)-1]} {
		ser.Points = append(ser.Points, chart.Point{X: p.Value, Y: math.Exp(sl.Intercept + sl.Slope*math.Log(p.Value))})
	}
	return ser, true
}
