package plot

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"dpso/internal/engine"
	"dpso/internal/report"
)

// The tuning figure's three procedures, in the order their bars stand,
// each in a colour of the solvers' palette (they are measured).
var tuneKinds = []struct {
	name, short string
	col         color.Color
}{
	{"prescribed: the theorem's constants", "prescribed", MeasuredColors[1]},
	{"tuned: the private search, its whole cost inside the budget", "tuned (private)", MeasuredColors[0]},
	{"oracle-tuned: the grid's best by the true excess risk — not private, not attainable", "oracle (not private)", MeasuredColors[2]},
}

// Tune is the figure of a private tuning call (engine.Tune, what the
// explorer's tuning screen and `dpso tune` run): for each solver, three
// bars on a log axis — the prescribed run (the theorem's constants), the
// private search's release, the oracle-tuned reference (not private) —
// each its mean excess risk over the trials with ±1 standard error, its
// value written above it; and the start line F(w₀) − F* (doing nothing)
// across them, so that a bar above it did worse than doing nothing. A bar
// rises from the axis's lower end: its top is the value, its length says
// nothing. Under the title stand the screen's verdicts (tuneVerdicts).
// The notes give the search's privacy (its ε' with the tuning's
// overhead), what is not private, the trials and, on the user's rows
// without references, why the tuned bar stands alone.
func Tune(t *engine.TuneReport, o Options) (*Figure, error) {
	if t == nil || len(t.Solvers) == 0 {
		return nil, fmt.Errorf("no tuning to draw")
	}
	s := t.Spec
	name := s.Scenario
	if s.Data != "" {
		name = userText(s.Data)
	}
	var solverNames []string
	for _, ts := range t.Solvers {
		solverNames = append(solverNames, ts.Solver)
	}
	title := fmt.Sprintf("%s · %s · tuning %s\nn = %d, d = %d, k = %s, zCDP ε = %s, %s, %s",
		name, s.Class, strings.Join(solverNames, ", "), t.N, s.D, num(s.K), num(s.Eps), plural(s.Trials, "trial"), s.SeedText())
	ylabel := "mean excess risk F(w) − F*"
	if t.UserRows {
		ylabel = "mean excess risk on the rows — non-private diagnostic"
	}
	xlabel := "procedure (each bar: the mean over trials, ±1 standard error)"
	if s.Trials < 2 {
		xlabel = "procedure (each bar: one trial, no standard error)"
	}
	f := newFigure(title, xlabel, ylabel, o)
	f.linearX = true
	f.procedures = strings.Join(solverNames, ", ")
	var ticks []gplot.Tick
	bars := make([]plotter.XYs, len(tuneKinds))
	var vals, ses [][]float64
	for range tuneKinds {
		vals, ses = append(vals, nil), append(ses, nil)
	}
	for si, ts := range t.Solvers {
		if ts.Refused != "" {
			f.legendNote(fmt.Sprintf("%s: refused (%s)", ts.Solver, short(ts.Refused)))
			continue
		}
		ests := []engine.Estimate{{Mean: math.NaN()}, ts.Tuned.Excess, {Mean: math.NaN()}}
		if ts.Prescribed != nil {
			ests[0] = ts.Prescribed.Excess
		}
		if ts.Oracle != nil {
			ests[2] = ts.Oracle.Excess
		}
		for k, e := range ests {
			x := float64(si*(len(tuneKinds)+1) + k + 1)
			label := tuneKinds[k].short
			if len(t.Solvers) > 1 {
				label = ts.Solver + ": " + label
			}
			if k == 1 || (k == 0 && ts.Prescribed != nil) || (k == 2 && ts.Oracle != nil) {
				// A slot names only a run that happened.
				ticks = append(ticks, gplot.Tick{Value: x, Label: label})
			}
			if !drawable(e.Mean) {
				if ts.Prescribed != nil || k == 1 {
					f.legendNote(fmt.Sprintf("%s, %s: no positive finite mean to draw (log axis)", ts.Solver, tuneKinds[k].short))
				}
				continue
			}
			bars[k] = append(bars[k], plotter.XY{X: x, Y: e.Mean})
			vals[k], ses[k] = append(vals[k], e.Mean), append(ses[k], e.SE)
			f.see(e.Mean)
			if e.SE > 0 && e.Mean-e.SE > 0 {
				f.see(e.Mean - e.SE)
				f.see(e.Mean + e.SE)
			}
			f.seeX(x)
		}
	}
	if f.ylo > f.yhi {
		return nil, errNothing
	}
	w0 := t.W0.Mean
	if drawable(w0) {
		f.see(w0)
	}
	lo, hi := f.ylo, f.yhi
	if hi/lo < 1.5 {
		lo, hi = lo/1.2, hi*1.2
	}
	m := math.Pow(hi/lo, 0.08)
	f.yr = [2]float64{lo / m, hi * m * m}
	f.xr = [2]float64{0.3, float64(len(t.Solvers)*(len(tuneKinds)+1)) - 0.3}
	f.Plot.X.Scale = gplot.LinearScale{}
	f.Plot.X.Tick.Marker = gplot.ConstantTicks(ticks)
	for k, xys := range bars {
		if len(xys) == 0 {
			continue
		}
		b := &tuneBars{at: xys, se: ses[k], col: tuneKinds[k].col}
		f.Plot.Add(b)
		text := tuneKinds[k].name
		shortText := tuneKinds[k].short
		if len(xys) == 1 {
			val := num(vals[k][0])
			if se := ses[k][0]; se > 0 {
				val += " ± " + seText(se)
			}
			text += ": " + val
			shortText += ": " + val
		}
		f.series = append(f.series, Series{Name: text, Role: RoleSolver, Solver: tuneKinds[k].short, Color: tuneKinds[k].col, Glyph: "bar: " + tuneKinds[k].short, Points: xys})
		f.legendAddShort(text, shortText, b)
	}
	if drawable(w0) {
		x0, x1 := f.xr[0], f.xr[1]
		name := fmt.Sprintf(startText, num(w0))
		if err := f.addSeries(name, RoleStart, "", plotter.XYs{{X: x0, Y: w0}, {X: x1, Y: w0}}, startColor, startDashes, vg.Points(1.8), glyphStart, "w₀: "+num(w0)+", doing nothing"); err != nil {
			return nil, err
		}
	}
	f.tuneVerdicts(t)
	p := t.Privacy
	f.legendNote(fmt.Sprintf("the search is (ε', δ) = (%s, %s)-DP as a whole (Papernot & Steinke's repeat-and-select in Rényi DP): one candidate alone is ε' = %s, the whole search's ε' %s above it; K random candidates, mean %s",
		num(p.Eps), num(p.Target.Delta), num(p.CandidateEps), num(p.Overhead), num(p.Repetitions.Mean)))
	if t.Total.Searches > 1 {
		f.legendNote(fmt.Sprintf("the %d searches on the same data together: ε' = %s at δ = %s", t.Total.Searches, num(t.Total.Eps), num(t.Total.Delta)))
	}
	for _, w := range t.NotPrivate {
		f.legendNote("not private: " + w)
	}
	// The references' sentence says which of them is private (each
	// prescribed run, at its own ρ outside the search's ε) and which is
	// not (the oracle-tuned one): as it stands, not filed whole under
	// "not private".
	for _, w := range t.Total.NotPrivate {
		f.legendNote(w)
	}
	if t.UserRows && !t.Tune.References {
		// Why the tuned bar stands alone, as the screen says.
		f.legendNote("no prescribed or oracle-tuned bar: " + report.NoReferencesOnRows)
	}
	f.legendNote("bars rise from the axis's lower end (log axis): a bar's top is its value, its length says nothing")
	f.setRanges()
	return f, nil
}

// tuneBars are bars from the axes' lower end to each point, with ±1
// standard error bars, in one colour, each value written above its bar.
type tuneBars struct {
	at  plotter.XYs
	se  []float64
	col color.Color
}

// barHalf is half a bar's width, in x units (bars stand one unit apart).
const barHalf = 0.36

// Plot draws the bars (gonum/plot's Plotter).
func (b *tuneBars) Plot(c draw.Canvas, plt *gplot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, p := range b.at {
		x0, x1 := trX(p.X-barHalf), trX(p.X+barHalf)
		y0, y1 := c.Min.Y, trY(p.Y)
		var r vg.Path
		r.Move(vg.Point{X: x0, Y: y0})
		r.Line(vg.Point{X: x1, Y: y0})
		r.Line(vg.Point{X: x1, Y: y1})
		r.Line(vg.Point{X: x0, Y: y1})
		r.Close()
		c.SetColor(b.col)
		c.Fill(r)
		top := y1
		if se := b.se[i]; se > 0 && p.Y-se > 0 {
			c.SetLineStyle(draw.LineStyle{Color: color.Black, Width: vg.Points(1.4)})
			xm := trX(p.X)
			lo, hi := trY(p.Y-se), trY(p.Y+se)
			var e vg.Path
			e.Move(vg.Point{X: xm, Y: lo})
			e.Line(vg.Point{X: xm, Y: hi})
			e.Move(vg.Point{X: xm - 5, Y: lo})
			e.Line(vg.Point{X: xm + 5, Y: lo})
			e.Move(vg.Point{X: xm - 5, Y: hi})
			e.Line(vg.Point{X: xm + 5, Y: hi})
			c.Stroke(e)
			top = max(top, hi)
		}
		sty := textStyle(labelSize)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
		c.FillText(sty, vg.Point{X: trX(p.X), Y: top + 3}, num(p.Y))
	}
}

// Thumbnail draws a bar in the legend.
func (b *tuneBars) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	w := r.Max.X - r.Min.X
	var p vg.Path
	p.Move(vg.Point{X: r.Min.X + w*0.25, Y: r.Min.Y})
	p.Line(vg.Point{X: r.Max.X - w*0.25, Y: r.Min.Y})
	p.Line(vg.Point{X: r.Max.X - w*0.25, Y: r.Max.Y})
	p.Line(vg.Point{X: r.Min.X + w*0.25, Y: r.Max.Y})
	p.Close()
	c.SetColor(b.col)
	c.Fill(p)
}

// tuneVerdicts adds the tuning screen's verdicts, from its functions:
// each solver's ratios of the tuned release's mean to the prescribed and
// the oracle-tuned ones, judged by the paired difference over the same
// draws at 2 s.e. (report.TuneSolverVerdict, the test dpso tune names),
// and for each run whose mean is above F(w₀) − F*, or below it by less
// than 2 s.e., that it did no better than doing nothing
// (report.W0TuneVerdict), named as the screen names the runs.
func (f *Figure) tuneVerdicts(t *engine.TuneReport) {
	none := engine.Estimate{Mean: math.NaN()}
	w0 := t.W0.Mean
	for _, ts := range t.Solvers {
		if ts.Refused != "" {
			continue
		}
		pres, orc, orcName := none, none, "oracle-tuned"
		if ts.Prescribed != nil && ts.Prescribed.Refused == "" {
			pres = ts.Prescribed.Excess
		}
		if ts.Oracle != nil {
			orc = ts.Oracle.Excess
			if ts.Oracle.Coarse {
				orcName = "coarse oracle"
			}
		}
		who := ""
		if len(t.Solvers) > 1 {
			who = ts.Solver + ", "
		}
		if v := report.TuneSolverVerdict(ts, orcName); v != "" {
			f.addVerdictKind(who+v, verdictPlain)
		}
		for _, r := range []struct {
			name string
			est  engine.Estimate
		}{{"prescribed", pres}, {"tuned", ts.Tuned.Excess}, {orcName, orc}} {
			if math.IsNaN(r.est.Mean) {
				continue
			}
			if v := report.W0TuneVerdict(r.est.Mean, r.est.SE, w0); v != "" {
				f.addVerdictKind(who+r.name+": "+v, verdictWarn)
			}
		}
	}
}
