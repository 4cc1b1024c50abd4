package plot

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"dpso/internal/engine"
	"dpso/internal/report"
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
// bars, in its own colour, dash pattern and marker — for n, ε and d its
// points with their least-squares line and its slope (what the
// explorer's sweep chart draws), for clip and k joined in grid order, as
// no line is fitted to a trade-off; F(w₀) − F* at every
// point (black dots: doing nothing); each solver's certificate at every
// point's own parameters (a hue of its own), so that an n sweep shows
// from which n on the theorem promises something; and, for n, ε and d,
// each theory bound's shape as a slope guide: the bound's values over the
// grid (a rate, constants set to 1) scaled to pass through the first
// solver's points, so that only its slope is compared, with the theory's
// slope beside the fitted one in the legend. A clip or k sweep (the
// clipping trade-off) draws each solver's noise-off curve (clipping,
// sampling and optimization error; its colour lightened) and its clipping
// bias F(w_C) − F* (a computed reference), writes the clipped fraction beside the first
// solver's points, marks the prescribed C and the empirical best point
// with vertical lines, and fits no slope.
func Sweep(s *engine.SweepReport, o Options) (*Figure, error) {
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
		name = userText(theory.Name(s0.Data))
	}
	param := s.Sweep.Param
	trade := param == spec.SweepClip || param == spec.SweepK
	xl := map[string]string{
		"n":    "n (samples)",
		"eps":  "zCDP ε (ρ = ε²/2)",
		"d":    "d (dimension)",
		"clip": "clip threshold C",
		"k":    "moment order k",
	}[param]
	if xl == "" {
		xl = param
	}
	ptitle, notes := privacyLabels(sweepReports(s))
	sym := sweepSymbol(param)
	title := ptitle + fmt.Sprintf("%s · %s · sweep of %s\n%s", name, s0.Class, sym, strings.Join(append(s.Fixed(num), fmt.Sprintf("%s per point, %s", plural(s0.Trials, "trial"), s0.SeedText())), ", "))
	f := newFigure(title,
		xl, yLabel(sweepReports(s), "mean excess risk F(w) − F*"), o)
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
		if trade {
			if err := f.addSeries(SolverLabel(solver)+": measured mean", RoleSolver, solver, xys, col, nil, vg.Points(2.2), f.nextGlyph(), solver+": measured mean"); err != nil {
				return nil, err
			}
		} else if err := f.addFitted(s, solver, xys, col); err != nil {
			return nil, err
		}
		if len(bars.XYs) > 0 {
			eb, err := plotter.NewYErrorBars(bars)
			if err != nil {
				return nil, err
			}
			eb.LineStyle.Color = col
			eb.LineStyle.Width = vg.Points(1.2)
			f.Plot.Add(eb)
		}
		drawn += len(xys)
		if trade {
			if err := f.addNoiseOff(s, si, solver); err != nil {
				return nil, err
			}
			f.addClipBias(s, si, solver)
			if si == 0 {
				f.addClippedLabels(s, si)
			}
		}
	}
	f.addStartCurve(s)
	if o.Hide&HideCertificates == 0 {
		for si, solver := range s.Solvers {
			f.addCertCurve(s, si, solver)
		}
	}
	if drawn == 0 && len(f.refs) == 0 {
		return nil, errNothing
	}
	if err := f.finish(); err != nil {
		return nil, err
	}
	guides := 0
	if o.Hide&HideBounds == 0 && drawn > 0 {
		var err error
		if guides, err = f.addSlopeGuides(s); err != nil {
			return nil, err
		}
	}
	if dropped > 0 {
		notes = append(notes, plural(dropped, "point")+" without a positive finite mean excess risk not shown (log axes)")
	}
	if noBars > 0 {
		notes = append(notes, fmt.Sprintf("%s reaching ≤ 0 not drawn (log axes)", plural(noBars, "error bar")))
	}
	// A k sweep says why it fits no slope beside its guides, where the
	// notes have room on that line; a clip sweep beside its error bars.
	why := report.NoSlopeWhy(param)
	if guides > 0 {
		n := guideNoteAt(s)
		if param == spec.SweepK {
			n += "; " + why
			why = ""
		}
		f.legendNote(n)
	}
	if why != "" {
		why = "; " + why
	}

	if o.Hide&HideBounds == 0 && !trade {
		if n := priorSlopesNote(s); n != "" {
			f.legendNote(n)
		}
	}
	if trade {
		f.legendNote(fmt.Sprintf("the percentages beside %s's points: the fraction of per-sample gradients clipped; error bars: ±1 standard error over trials%s", s.Solvers[0], why))
	} else {
		f.legendNote("error bars: ±1 standard error over trials; slopes: least squares of ln(mean) on ln(x), 95% t-interval")
	}
	for _, n := range notes {
		f.legendNote(n)
	}
	if trade {
		if err := f.addTradeOffMarkers(s); err != nil {
			return nil, err
		}
	}
	f.addSweepVerdict(s, guides)
	f.placeLineLabels()
	f.setRanges()
	return f, nil
}

// priorSlopesNote gives prior work's bounds' slopes over the grid (the
// slope guides draw the paper's upper and lower bounds only, as the
// explorer does: more guides through the same points would hide one
// another), with the reason where their constants move along the grid;
// "" when there are none.
func priorSlopesNote(s *engine.SweepReport) string {
	var parts []string
	for _, bs := range s.Bounds {
		if bs.Kind != theory.Prior {
			continue
		}
		p := bs.Title + ": slope " + slopeText(bs.Slope)
		if bs.RateNote != "" {
			p += " (its constants move along the grid: not its rate at fixed constants)"
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return "prior work's bounds (rates, not drawn): " + strings.Join(parts, "; ")
}

// addNoiseOff draws solver si's noise-off curve (clip and k sweeps): the
// same T, C, steps and draws without noise, so clipping, sampling and
// optimization error together — at 0% clipped no bias at all.
func (f *Figure) addNoiseOff(s *engine.SweepReport, si int, solver string) error {
	var xys plotter.XYs
	for _, p := range s.Points {
		r := p.Reports[si]
		if r.Refused == "" && drawable(r.NoiseOff.Mean) && drawable(p.Value) {
			xys = append(xys, plotter.XY{X: p.Value, Y: r.NoiseOff.Mean})
		}
	}
	if len(xys) == 0 {
		return nil
	}
	name := SolverLabel(solver) + ": noise off (clipping + sampling + optimization: the same T, C, steps and draws without noise)"
	return f.addSeries(name, RoleNoiseOff, solver, xys, shade(solverColor(si), 0.45), nil, vg.Points(1.4), f.nextGlyph(), solver+": noise off (clipping + sampling + optimization)")
}

// addClipBias queues solver si's clipping bias over the grid (clip and k
// sweeps): F(w_C) − F* of the clipped population fixed point at each
// point's C, a computed value, drawn as a reference (where it is, or an
// arrow at the edge it lies beyond); the points where it is 0 or not
// computed are said in a note.
func (f *Figure) addClipBias(s *engine.SweepReport, si int, solver string) {
	var xys plotter.XYs
	var zero, none []string
	for _, p := range s.Points {
		r := p.Reports[si]
		if r.Refused != "" {
			continue
		}
		switch v := r.ClipBias.Excess; {
		case math.IsNaN(v):
			none = append(none, num(p.Value))
		case v <= 0:
			zero = append(zero, num(p.Value))
		case drawable(v) && drawable(p.Value):
			xys = append(xys, plotter.XY{X: p.Value, Y: v})
		}
	}
	sym := s.Sweep.Param
	if sym == spec.SweepClip {
		sym = "C"
	}
	all := len(xys) == 0 && len(none) == 0
	switch {
	case all && len(zero) > 0:
		f.legendNote(fmt.Sprintf("%s: clipping bias F(w_C) − F* = 0 at every %s (%s): the clipped fixed point is the optimum, so the noise-off curve is sampling error and the T steps' progress, which clipping slows", solver, sym, biasHow(s.Points[0].Reports[si].ClipBias.Method)))
	case len(zero) > 0:
		f.legendNote(fmt.Sprintf("%s: clipping bias F(w_C) − F* = 0 at %s = %s (not drawn: log axis)", solver, sym, strings.Join(zero, ", ")))
	}
	if len(none) > 0 {
		f.legendNote(fmt.Sprintf("%s: clipping bias not computed at %s = %s (see the report)", solver, sym, strings.Join(none, ", ")))
	}
	if len(xys) == 0 {
		return
	}
	lo, hi := span(xys)
	label := solver + " bias " + num(lo)
	if hi > lo {
		label += " to " + num(hi)
	}
	f.addRef(reference{name: solver + ": clipping bias F(w_C) − F*, the clipped population fixed point's excess risk (computed; no sampling, optimization or noise)",
		short: solver + ": clipping bias F(w_C) − F*", label: label, role: RoleClipBias, solver: solver, col: clipBiasColor(si), width: vg.Points(1.6), glyph: f.nextGlyph(), pts: xys})
}

// biasHow is a clipping bias's method in a few words: "exact" or
// "estimated on an evaluation sample" (the report has it in full).
func biasHow(method string) string {
	if strings.HasPrefix(method, "exact") || strings.HasPrefix(method, "0:") {
		return "exact"
	}
	return "estimated on a sample of the law"
}

// addClippedLabels writes the clipped fraction beside each of solver si's
// points, as the clip screen's table writes it (report.Percent).
func (f *Figure) addClippedLabels(s *engine.SweepReport, si int) {
	var xys plotter.XYs
	var labels []string
	for _, p := range s.Points {
		r := p.Reports[si]
		if r.Refused != "" || math.IsNaN(r.Clipped) || !drawable(r.Excess.Mean) || !drawable(p.Value) {
			continue
		}
		xys = append(xys, plotter.XY{X: p.Value, Y: r.Excess.Mean})
		labels = append(labels, report.Percent(r.Clipped))
	}
	if len(xys) == 0 {
		return
	}
	sty := textStyle(labelSize - 1)
	sty.Color = solverColor(si)
	// Placed when drawn, clear of every line and of each other
	// (pointLabels).
	f.Plot.Add(&pointLabels{f: f, at: xys, texts: labels, style: sty})
}

// heightNoClaim follows a bound's shape in a short legend entry: a rate
// with its constants set to 1 has no height to claim.
const heightNoClaim = "height not a claim"

// addStartCurve queues F(w₀) − F* over the grid.
func (f *Figure) addStartCurve(s *engine.SweepReport) {
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
		case drawable(v) && drawable(p.Value):
			xys = append(xys, plotter.XY{X: p.Value, Y: v})
		}
	}
	if zero {
		f.legendNote("w₀ (start): F(w₀) − F* = 0 at some points (w₀ = w*): not drawn there (log axis)")
	}
	if len(xys) == 0 {
		return
	}
	// The value, and where it is taken where it moves: the screen's
	// "w₀ 0.156 at the last k".
	last := xys[len(xys)-1].Y
	where := " at the last " + sweepSymbol(s.Sweep.Param)
	name := "w₀ (start): F(w₀) − F*, doing nothing (a curve above it did worse): " + num(last) + where
	label := ""
	short := "w₀ " + num(last) + where + ": doing nothing"
	if len(xys) == 1 || xys[0].Y == last {
		name = fmt.Sprintf(startText, num(xys[0].Y))
		label = "w₀ " + num(xys[0].Y)
		short = label + ": doing nothing"
	}
	f.addRef(reference{name: name, short: short, label: label, role: RoleStart, col: startColor, dashes: startDashes, width: vg.Points(1.8), glyph: glyphStart, pts: xys})
}

// addCertCurve queues solver si's certificate over the grid.
func (f *Figure) addCertCurve(s *engine.SweepReport, si int, solver string) {
	var xys plotter.XYs
	var cert *theory.Certificate
	missing, uncovered := 0, 0
	for _, p := range s.Points {
		r := p.Reports[si]
		v := r.Certified.Value()
		if r.Certified.Cert != nil && cert == nil {
			cert = r.Certified.Cert
		}
		if r.Refused != "" || !drawable(v) || !drawable(p.Value) {
			missing++
			continue
		}
		if !report.CertCovers(r) {
			// Budget-capped or on flagged estimates: no level for the run
			// (report.CertFrom names the capped points).
			uncovered++
			continue
		}
		xys = append(xys, plotter.XY{X: p.Value, Y: v})
	}
	if cert == nil {
		return
	}
	src := certSource(cert)
	if len(xys) == 0 {
		why := "missing, vacuous or failing a condition at every point"
		if uncovered > 0 {
			why = report.CertFrom(s, si, sweepSymbol(s.Sweep.Param), num)
		}
		f.legendNote(fmt.Sprintf("%s: certificate (%s) not drawn: %s", solver, src, why))
		return
	}
	// The screen's words on where it promises something (report.CertFrom:
	// "vacuous (above w₀) at every n", "below w₀ from n = 4000").
	from := report.CertFrom(s, si, sweepSymbol(s.Sweep.Param), num)
	name := fmt.Sprintf("%s certified at each point's parameters (%s): %s", solver, src, from)
	if missing > 0 {
		name += "; " + plural(missing, "point") + " without one"
	}
	// The label (beside its arrow when the curve is off the axes) gives
	// the certificates' range over the grid: each is an upper bound at
	// its own point.
	lo, hi := span(xys)
	label := solver + " certified ≤ " + num(lo)
	if hi > lo {
		label += " to " + num(hi)
	}
	// The short entry is the label's range with where it promises
	// something; the label beside its arrow says "(vacuous)" where it
	// promises nothing at any point, as the comparison's does.
	short := label + ": " + from
	if strings.HasPrefix(from, "vacuous") {
		label += " (vacuous)"
		short = label
	}
	f.addRef(reference{name: name, short: short, label: label, role: RoleCertificate, solver: solver,
		col: certColor(f.certs), width: vg.Points(1.5), glyph: f.nextGlyph(), pts: xys})
	f.certs++
}

// addTradeOffMarkers draws vertical lines at the prescribed C (clip
// sweeps) and at the first solver's empirical best point, over the fixed
// y range.
func (f *Figure) addTradeOffMarkers(s *engine.SweepReport) error {
	if s.Sweep.Param == spec.SweepClip && drawable(s.PrescribedClip) {
		if err := f.vline(s.PrescribedClip, fmt.Sprintf("prescribed C = %s (the theorem's choice)", num(s.PrescribedClip)), markerColor, f.nextDashes()); err != nil {
			return err
		}
	}
	if len(s.Best) > 0 && drawable(s.Best[0].Value) {
		b := s.Best[0]
		sym := s.Sweep.Param
		if sym == spec.SweepClip {
			sym = "C"
		}
		return f.vline(b.Value, fmt.Sprintf("empirical best %s for %s: %s = %s (mean %s)", sym, b.Solver, sym, num(b.Value), num(b.Excess.Mean)), bestColor, f.nextDashes())
	}
	return nil
}

// addFitted draws a rate sweep's solver as the explorer's sweep chart
// does: its measured means xys as points (their error bars are the
// caller's), not joined, and its least-squares line of ln(mean excess
// risk) on ln(x) (engine.Slope: its intercept and slope) from the grid's
// first point to its last, in the solver's colour; one legend entry
// names both, with the slope and its interval. A solver without a fitted
// slope (fewer than two positive finite means) has its points alone.
func (f *Figure) addFitted(s *engine.SweepReport, solver string, xys plotter.XYs, col color.Color) error {
	label, short := SolverLabel(solver)+": measured means", solver+": measured means"
	var fit plotter.XYs
	for _, sl := range s.Slopes {
		if sl.Solver != solver || math.IsNaN(sl.Slope) || math.IsNaN(sl.Intercept) {
			continue
		}
		for _, p := range []engine.SweepPoint{s.Points[0], s.Points[len(s.Points)-1]} {
			if y := math.Exp(sl.Intercept + sl.Slope*math.Log(p.Value)); drawable(p.Value) && drawable(y) {
				fit = append(fit, plotter.XY{X: p.Value, Y: y})
			}
		}
	}
	var thumbs []gplot.Thumbnailer
	if len(fit) == 2 {
		// The short entry ("acsa: means, fitted slope −0.356 …") leaves
		// room in a full legend for the notes' verdict.
		label = solverSlopeText(solver, s.Slopes, SolverLabel(solver))
		short = strings.Replace(solverSlopeText(solver, s.Slopes, solver), ": measured means and their least-squares line, slope ", ": means, fitted slope ", 1)
		th, err := f.drawSeries(label, RoleFit, solver, fit, col, nil, vg.Points(2.2), -1)
		if err != nil {
			return err
		}
		thumbs = th
	}
	th, err := f.drawSeries(SolverLabel(solver)+": measured means", RoleSolver, solver, xys, col, nil, 0, f.nextGlyph())
	if err != nil {
		return err
	}
	f.legendAddShort(label, short, append(thumbs, th...)...)
	return nil
}

// solverSlopeText is the legend entry of solver's points and fitted
// line, named name: the line's slope and the slope's interval.
func solverSlopeText(solver string, slopes []engine.Slope, name string) string {
	for _, sl := range slopes {
		if sl.Solver != solver {
			continue
		}
		txt := fmt.Sprintf("%s: measured means and their least-squares line, slope %s", name, slopeText(sl.Slope))
		if !math.IsNaN(sl.Lo) {
			txt += fmt.Sprintf(" (95%% CI %s to %s, %d points)", slopeText(sl.Lo), slopeText(sl.Hi), sl.Points)
		} else {
			txt += fmt.Sprintf(" (%d points, no interval)", sl.Points)
		}
		return txt
	}
	return name + ": measured means"
}

// addSlopeGuides draws each bound's shape over the grid through the
// first solver's mean at one point, the same for every guide
// (GuideAnchor): the bound's values times the constant that puts its
// value there on the measured mean, so that no lower bound's shape is
// drawn above an upper one's. Its legend gives the bound's slope over
// the grid beside the solver's fitted one, with the local rate's caveat
// where it applies (engine.BoundSlope.RateNote). It returns how many it
// drew.
func (f *Figure) addSlopeGuides(s *engine.SweepReport) (int, error) {
	solver := s.Solvers[0]
	at := GuideAnchor(s)
	fitted := ""
	for _, sl := range s.Slopes {
		if sl.Solver == solver && !math.IsNaN(sl.Slope) {
			fitted = ", " + solver + " fitted " + slopeText(sl.Slope)
		}
	}
	perKind := map[theory.Kind]int{}
	drawn := 0
	trade := s.Sweep.Param == spec.SweepClip || s.Sweep.Param == spec.SweepK
	for _, bs := range s.Bounds {
		if bs.Kind == theory.Prior {
			continue
		}
		i := perKind[bs.Kind]
		perKind[bs.Kind]++
		label := BoundLabel(bs.Kind, bs.Title)
		if bs.Title == "" {
			label = string(bs.Kind) + " bound " + bs.ID
		}
		var xys plotter.XYs
		for _, p := range s.Points {
			v, ok := boundAt(p, bs.ID)
			if !ok || !drawable(v) || !drawable(p.Value) {
				continue
			}
			xys = append(xys, plotter.XY{X: p.Value, Y: v})
		}
		va := math.NaN()
		if at >= 0 {
			va, _ = boundAt(s.Points[at], bs.ID)
		}
		if len(xys) < 2 || !drawable(va) {
			f.legendNote(fmt.Sprintf("slope guide · %s: not drawn (infinite or missing at the measured points)", label))
			continue
		}
		c := s.Points[at].Reports[0].Excess.Mean / va
		for j := range xys {
			xys[j].Y *= c
		}
		txt := fmt.Sprintf("slope guide · %s: slope %s (rate, constants = 1; %s)%s", label, slopeText(bs.Slope), slopeOnly, fitted)
		// The short entries say the guide is the bound's shape, not its
		// height ("slope −0.953 only" read as "the slope is only
		// −0.953"), in the screen's words.
		short := fmt.Sprintf("%s bound's shape (slope %s), %s", bs.Kind, slopeText(bs.Slope), heightNoClaim)
		if trade {
			txt = fmt.Sprintf("shape guide · %s over %s (rate, constants = 1: its shape only, its height is not a claim)", label, s.Sweep.Param)
			short = fmt.Sprintf("%s bound's shape, %s", bs.Kind, heightNoClaim)
		}
		if bs.RateNote != "" {
			txt += "; " + bs.RateNote
			short += " (see the notes)"
			f.legendNote(fmt.Sprintf("%s bound's slope: its constants move along the grid, so it is not the rate at fixed constants (the report says which)", bs.Kind))
		}
		if err := f.addSeries(txt, RoleRate, "", xys, kindColor(bs.Kind, i), nil, vg.Points(1.6), -1, short); err != nil {
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

// addSweepVerdict adds the sweep's verdict in the explorer's words (one
// source): where the theory is in force over the grid (report.
// SweepVerdict, the slope table's line); for a trade-off drawn without
// shape guides (a clip sweep: the bounds do not vary with C), whose
// shape that sentence would name, what the explorer's legend says of
// the first solver's certificate (report.CertFrom: "vacuous (above w₀)
// at every C").
func (f *Figure) addSweepVerdict(s *engine.SweepReport, guides int) {
	param := s.Sweep.Param
	trade := param == spec.SweepClip || param == spec.SweepK
	if trade && guides == 0 && len(s.Solvers) > 0 && slices.ContainsFunc(s.Points, func(p engine.SweepPoint) bool {
		return len(p.Reports) > 0 && p.Reports[0] != nil && p.Reports[0].Certified.Cert != nil
	}) {
		from := report.CertFrom(s, 0, sweepSymbol(param), num)
		f.addVerdict(s.Solvers[0]+"'s certificate: "+from, strings.HasPrefix(from, "below"))
		return
	}
	f.addVerdict(report.SweepVerdict(s, sweepSymbol(param), num, slopeText, trade))
}
