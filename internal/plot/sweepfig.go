package plot

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/theory"
)

// errPoints are (x, y) points with asymmetric error bars.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// Sweep is the figure of a sweep: each solver's mean excess risk (log
// scale) against the swept parameter (log scale) with ±1 standard error
// bars, in its own colour, dash pattern and marker; F(w₀) − F* at every
// point (black dots: doing nothing); each solver's certificate at every
// point's own parameters (its colour darkened), so that an n sweep shows
// from which n on the theorem promises something; and, for n, ε and d,
// each theory bound's value as a curve (rates, constants set to 1) with
// the fitted slopes in the legend. A clip or k sweep (the clipping
// trade-off) draws each solver's bias-only curve (noise off; its colour
// lightened), writes the clipped fraction beside the first solver's
// points, marks the prescribed C and the empirical best point with
// vertical lines, and fits no slope.
func Sweep(s *engine.SweepReport) (*Figure, error) {
	if s == nil || len(s.Points) == 0 {
		return nil, fmt.Errorf("no sweep to draw")
	}
	var s0 spec.Spec
	for _, r := range s.Points[0].Reports {
		s0 = r.Spec
		s0.N, s0.D = r.Theory.N, r.Theory.D // on user data, the file's (the Spec's d is 0)
		break
	}
	name := s0.Scenario
	if s0.Data != "" {
		name = theory.Name(s0.Data)
	}
	param := s.Sweep.Param
	trade := param == spec.SweepClip || param == spec.SweepK
	xl := map[string]string{
		"n":    "n (samples, log scale)",
		"eps":  "zCDP ε (ρ = ε²/2, log scale)",
		"d":    "d (dimension, log scale)",
		"clip": "clip threshold C (log scale)",
		"k":    "moment order k (log scale)",
	}[param]
	if xl == "" {
		xl = param + " (log scale)"
	}
	ptitle, notes := privacyLabels(sweepReports(s))
	f := newFigure(ptitle+fmt.Sprintf("%s · %s · sweep of %s\n%s", name, s0.Class, param, strings.Join(append(s.Fixed(num), fmt.Sprintf("%s per point, %s", plural(s0.Trials, "trial"), s0.SeedText())), ", ")),
		xl, yLabel(sweepReports(s), "mean excess risk F(w) − F* (loss units, log scale)"))
	drawn, dropped, noBars := 0, 0, 0
	for si, solver := range s.Solvers {
		var xys plotter.XYs
		var bars errPoints
		for _, p := range s.Points {
			if si >= len(p.Reports) || p.Reports[si] == nil {
				continue
			}
			r := p.Reports[si]
			if r.Refused != "" {
				notes = append(notes, fmt.Sprintf("%s at %s = %s: refused (%s)", solver, param, num(p.Value), short(r.Refused)))
				continue
			}
			m, se := r.Excess.Mean, r.Excess.SE
			if !drawable(p.Value) || !drawable(m) {
				dropped++
				continue
			}
			xys = append(xys, plotter.XY{X: p.Value, Y: m})
			if se >= 0 && !math.IsInf(se, 0) && m-se > 0 {
				f.see(m - se)
				f.see(m + se)
				bars.XYs = append(bars.XYs, plotter.XY{X: p.Value, Y: m})
				bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{se, se})
			} else if se > 0 {
				noBars++
			}
		}
		if len(xys) == 0 {
			continue
		}
		col := solverColor(si)
		label := SolverLabel(solver) + ": measured mean"
		if !trade {
			label = solverSlopeText(solver, s.Slopes)
		}
		if err := f.addSeries(label, RoleSolver, solver, xys, col, nil, vg.Points(2), si); err != nil {
			return nil, err
		}
		if len(bars.XYs) > 0 {
			eb, err := plotter.NewYErrorBars(bars)
			if err != nil {
				return nil, err
			}
			eb.LineStyle.Color = col
			f.Plot.Add(eb)
		}
		drawn += len(xys)
		if trade {
			if err := f.addBiasOnly(s, si, solver); err != nil {
				return nil, err
			}
			if si == 0 {
				if err := f.addClippedLabels(s, si); err != nil {
					return nil, err
				}
			}
		}
	}
	nl, err := f.addStartCurve(s)
	if err != nil {
		return nil, err
	}
	for si, solver := range s.Solvers {
		ok, err := f.addCertCurve(s, si, solver)
		if err != nil {
			return nil, err
		}
		if ok {
			nl++
		}
	}
	nb := 0
	if param != spec.SweepClip {
		if nb, err = f.addBoundCurves(s); err != nil {
			return nil, err
		}
	}
	if drawn == 0 && nb+nl == 0 {
		return nil, errNothing
	}
	if dropped > 0 {
		notes = append(notes, plural(dropped, "point")+" without a positive finite mean excess risk not shown (log axes)")
	}
	if noBars > 0 {
		notes = append(notes, fmt.Sprintf("%s reaching ≤ 0 not drawn (log axes)", plural(noBars, "error bar")))
	}
	if nb > 0 {
		f.legendNote(rateNote)
	}
	if trade {
		f.legendNote(fmt.Sprintf("the percentages beside %s's points (where there is room): the fraction of per-sample gradients clipped", s.Solvers[0]))
		f.legendNote("error bars: ±1 standard error over trials; no slope is fitted: a trade-off is not a power law")
	} else {
		f.legendNote("error bars: ±1 standard error over trials; slopes: OLS of ln(mean) on ln(x) with 95% t-interval")
	}
	for _, n := range notes {
		f.legendNote(n)
	}
	f.fixRange()
	if trade {
		if err := f.addTradeOffMarkers(s); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// addBiasOnly draws solver si's bias-only curve (clip and k sweeps).
func (f *Figure) addBiasOnly(s *engine.SweepReport, si int, solver string) error {
	var xys plotter.XYs
	for _, p := range s.Points {
		r := p.Reports[si]
		if r.Refused == "" && drawable(r.BiasOnly.Mean) && drawable(p.Value) {
			xys = append(xys, plotter.XY{X: p.Value, Y: r.BiasOnly.Mean})
		}
	}
	if len(xys) == 0 {
		return nil
	}
	name := SolverLabel(solver) + ": bias only (the same T, C, steps and draws, noise switched off)"
	return f.addSeries(name, RoleBiasOnly, solver, xys, shade(solverColor(si), 0.45), nil, vg.Points(1.4), len(glyphs)-1-si)
}

// addClippedLabels writes the clipped fraction beside each of solver si's
// points.
func (f *Figure) addClippedLabels(s *engine.SweepReport, si int) error {
	var xys plotter.XYs
	var labels []string
	for _, p := range s.Points {
		r := p.Reports[si]
		if r.Refused != "" || math.IsNaN(r.Clipped) || !drawable(r.Excess.Mean) || !drawable(p.Value) {
			continue
		}
		xys = append(xys, plotter.XY{X: p.Value, Y: r.Excess.Mean})
		labels = append(labels, percentText(r.Clipped))
	}
	if len(xys) == 0 {
		return nil
	}
	lab, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
	if err != nil {
		return err
	}
	sty := lab.TextStyle[0] // gonum's default label font, at 8 pt
	sty.Color = solverColor(si)
	sty.Font.Size = vg.Points(8)
	// Placed when drawn, clear of every line and of each other
	// (pointLabels): an offset fixed in advance overprinted the w₀ line.
	f.Plot.Add(&pointLabels{f: f, at: xys, texts: labels, style: sty})
	return nil
}

// percentText writes a fraction as a percentage, 3 significant digits.
func percentText(x float64) string {
	if x == 0 {
		return "0%"
	}
	return theory.NumberFormat{Digits: 2}.Format(100*x) + "%"
}

// addStartCurve draws F(w₀) − F* over the grid.
func (f *Figure) addStartCurve(s *engine.SweepReport) (int, error) {
	var xys plotter.XYs
	zero := false
	for _, p := range s.Points {
		if len(p.Reports) == 0 {
			continue
		}
		v := p.Reports[0].W0.Mean
		switch {
		case v <= 0:
			zero = true
		case drawable(v) && drawable(p.Value) && f.window(v):
			xys = append(xys, plotter.XY{X: p.Value, Y: v})
		}
	}
	if zero {
		f.legendNote("w₀ (start): F(w₀) − F* = 0 at some points (w₀ = w*): not drawn there (log axis)")
	}
	if len(xys) == 0 {
		return 0, nil
	}
	name := "w₀ (start): F(w₀) − F*, the excess risk of doing nothing (a curve above it did worse)"
	if len(xys) == 1 || xys[0].Y == xys[len(xys)-1].Y {
		name = fmt.Sprintf(startText, num(xys[0].Y))
	}
	return 1, f.addSeries(name, RoleStart, "", xys, startColor, startDashes, vg.Points(1.6), -1)
}

// addCertCurve draws solver si's certificate over the grid.
func (f *Figure) addCertCurve(s *engine.SweepReport, si int, solver string) (bool, error) {
	var xys plotter.XYs
	id := ""
	off, missing := 0, 0
	for _, p := range s.Points {
		r := p.Reports[si]
		v := r.Certified.Value()
		if r.Certified.Cert != nil {
			id = r.Certified.Cert.ID
		}
		switch {
		case r.Refused != "" || !drawable(v) || !drawable(p.Value):
			missing++
		case !f.window(v):
			off++
		default:
			xys = append(xys, plotter.XY{X: p.Value, Y: v})
		}
	}
	if id == "" {
		return false, nil
	}
	if len(xys) == 0 {
		f.legendNote(fmt.Sprintf("%s: certificate %s not drawn (missing, failing a condition or more than %s× above the curves at every point)", solver, id, offChartText))
		return false, nil
	}
	name := fmt.Sprintf("%s: certified at each point's parameters (%s, the paper's explicit constants; vacuous where above w₀)", solver, id)
	if off > 0 {
		name += fmt.Sprintf("; %s more than %s× above the curves not drawn", plural(off, "point"), offChartText)
	}
	if missing > 0 {
		name += "; " + plural(missing, "point") + " without one"
	}
	return true, f.addSeries(name, RoleCertificate, solver, xys, shade(solverColor(si), -0.45), nil, vg.Points(1.4), -1)
}

// addTradeOffMarkers draws vertical lines at the prescribed C (clip
// sweeps) and at the first solver's empirical best point, over the fixed
// y range.
func (f *Figure) addTradeOffMarkers(s *engine.SweepReport) error {
	y0, y1 := f.Plot.Y.Min, f.Plot.Y.Max
	vline := func(x float64, name string, col color.Color, dashes []vg.Length) error {
		if !drawable(x) {
			return nil
		}
		s := Series{Name: name, Role: RoleMarker, Color: col, Dashes: dashes, Points: plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}}}
		l, err := plotter.NewLine(s.Points)
		if err != nil {
			return err
		}
		l.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.2), Dashes: dashes}
		f.Plot.Add(l)
		f.series = append(f.series, s)
		f.legendAdd(name, l)
		return nil
	}
	if s.Sweep.Param == spec.SweepClip && drawable(s.PrescribedClip) {
		if err := vline(s.PrescribedClip, fmt.Sprintf("prescribed C = %s (the theorem's choice)", num(s.PrescribedClip)), markerColor, f.nextDashes()); err != nil {
			return err
		}
	}
	if len(s.Best) > 0 && drawable(s.Best[0].Value) {
		b := s.Best[0]
		return vline(b.Value, fmt.Sprintf("empirical best %s for %s: %s = %s (mean %s)", s.Sweep.Param, b.Solver, s.Sweep.Param, num(b.Value), num(b.Excess.Mean)), bestColor, f.nextDashes())
	}
	return nil
}

func solverSlopeText(solver string, slopes []engine.Slope) string {
	for _, sl := range slopes {
		if sl.Solver != solver {
			continue
		}
		txt := fmt.Sprintf("%s: measured mean, slope %s", SolverLabel(solver), slopeText(sl.Slope))
		if !math.IsNaN(sl.Lo) {
			txt += fmt.Sprintf(" (95%% CI %s to %s, %d points)", slopeText(sl.Lo), slopeText(sl.Hi), sl.Points)
		} else {
			txt += fmt.Sprintf(" (%d points, no interval)", sl.Points)
		}
		return txt
	}
	return SolverLabel(solver) + ": measured mean"
}

// addBoundCurves draws each bound's values over the grid: the slope over
// the grid in the legend for n, ε and d sweeps, with the local rate's
// caveat where it applies (engine.BoundSlope.RateNote).
func (f *Figure) addBoundCurves(s *engine.SweepReport) (int, error) {
	perKind := map[theory.Kind]int{}
	drawn := 0
	for _, bs := range s.Bounds {
		i := perKind[bs.Kind]
		perKind[bs.Kind]++
		label := BoundLabel(bs.Kind, bs.Title)
		if bs.Title == "" {
			label = string(bs.Kind) + " bound " + bs.ID
		}
		slope := ""
		if !math.IsNaN(bs.Slope) {
			slope = ", slope " + slopeText(bs.Slope) + " over the grid"
		}
		var xys plotter.XYs
		missing, off := 0, 0
		for _, p := range s.Points {
			v, ok := boundAt(p, bs.ID)
			switch {
			case !ok || !drawable(v) || !drawable(p.Value):
				missing++
			case !f.window(v):
				off++
			default:
				xys = append(xys, plotter.XY{X: p.Value, Y: v})
			}
		}
		if len(xys) == 0 {
			why := "infinite or missing at every point"
			if off > 0 {
				why = fmt.Sprintf("infinite, missing or more than %s× beyond the curves at every point", offChartText)
			}
			f.legendNote(fmt.Sprintf("rate · %s: not drawn (%s)%s", label, why, slope))
			continue
		}
		txt := fmt.Sprintf("rate · %s%s", label, slope)
		if bs.RateNote != "" {
			txt += "; " + bs.RateNote
		}
		if missing > 0 {
			txt += "; " + plural(missing, "point") + " infinite or missing"
		}
		if off > 0 {
			txt += fmt.Sprintf("; %s more than %s× beyond the curves, not drawn", plural(off, "point"), offChartText)
		}
		if err := f.addSeries(txt, RoleRate, "", xys, kindColor(bs.Kind, i), nil, vg.Points(1.4), -1); err != nil {
			return drawn, err
		}
		drawn++
	}
	return drawn, nil
}

// kindColor is the colour of the i-th bound of kind k.
func kindColor(k theory.Kind, i int) color.Color {
	switch k {
	case theory.Upper:
		if i > 0 {
			return shade(upperColor, 0.35)
		}
		return upperColor
	case theory.Lower:
		if i > 0 {
			return shade(lowerColor, 0.35)
		}
		return lowerColor
	}
	return priorColors[i%len(priorColors)]
}

// boundAt is the value of bound id at a sweep point (from its first
// report: the bounds do not depend on the solver).
func boundAt(p engine.SweepPoint, id string) (float64, bool) {
	for _, r := range p.Reports {
		if r == nil {
			continue
		}
		for _, b := range r.Bounds {
			if b.ID == id {
				return b.Value, true
			}
		}
		return 0, false
	}
	return 0, false
}
