package screens

import (
	"math"

	"dpso/internal/engine"
	"dpso/theory"
	"dpso/tui/chart"
	"dpso/tui/common"
)

// A bound with its constants set to 1 is a rate: its level says nothing,
// its shape over a sweep does. A sweep draws each bound's values over the
// grid as a slope guide — the same curve shifted to pass through the
// measured points — so that the eye compares the shapes and the table the
// slopes, and never a measured value with a constant-1 level.

// anchor is the factor that puts a bound's curve through the measured
// points: exp of the mean of ln(measured/bound) over the points where
// both are positive and finite (the least-squares vertical shift in
// log-log); NaN when no point has both.
func anchor(measured, bound []float64) float64 {
	sum, n := 0.0, 0
	for i := range min(len(measured), len(bound)) {
		m, b := measured[i], bound[i]
		if m > 0 && b > 0 && !math.IsInf(m, 0) && !math.IsInf(b, 0) {
			sum += math.Log(m / b)
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return math.Exp(sum / float64(n))
}

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
// bounds' curves over the grid anchored to the first solver's measured
// points (anchor), labelled as shapes with their slopes over the grid
// (none on a trade-off sweep, whose parameter is no power law's: k).
// Prior work's bounds are in the slope table, not on the chart: four
// guides through the same points would hide one another.
func guideSeries(c common.Common, rep *engine.SweepReport, tradeOff bool) []chart.Series {
	measured := Means(rep, 0)
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
		a := anchor(measured, vals)
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
