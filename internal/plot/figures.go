package plot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/theory"
)

// Run is the figure of one run: the excess risk F(w) − F* (log scale)
// against the number of per-sample gradient evaluations (log scale), the
// mean over trials bold with markers, each trial's trace faint, and the
// levels that are claims at these parameters: F(w₀) − F* (black dots and
// asterisks: doing nothing; every curve starts there, at 0 evaluations,
// which a log axis cannot show) and the certificate at the run's
// parameters (a hue of its own, no solver's: the curve must stay under
// it). The theory's rates, whose constants are set to 1, are not levels
// and are not drawn (a sweep draws them as slope guides). The legend is in
// a column on the right, the notes under it or across the bottom; nothing
// is written over the data.
func Run(r *engine.Report, o Options) (*Figure, error) {
	if r == nil {
		return nil, fmt.Errorf("no report to draw")
	}
	return Comparison(&engine.Comparison{Reports: []*engine.Report{r}}, o)
}

// Comparison is [Run]'s figure for several solvers run on the same draws:
// each solver's traces in its own colour, dash pattern and marker on the
// same axes, each solver's certificate, and the start line once; each
// solver's legend entry gives its privacy as the explorer's legend does
// (report.PrivacyTags: "ε' 4.38", "ε' 4.36 pld", "not private").
func Comparison(c *engine.Comparison, o Options) (*Figure, error) {
	if c == nil || len(c.Reports) == 0 {
		return nil, fmt.Errorf("no report to draw")
	}
	var first *engine.Report
	for _, r := range c.Reports {
		if r != nil && r.Refused == "" {
			first = r
			break
		}
	}
	ref := c.Reports[0]
	if first != nil {
		ref = first
	}
	ptitle, notes := privacyLabels(c.Reports)
	// Each solver's privacy beside its result, in the explorer legend's
	// words (report.PrivacyTags: "ε' 4.38", "ε' 4.36 pld", "not
	// private"), and the note that says at which δ.
	tags, tagNote := report.PrivacyTags(c.Reports, theory.Human.Format)
	f := newFigure(ptitle+runTitle(ref, c.Reports),
		"per-sample gradient evaluations (every curve starts at w₀, at 0 evaluations)",
		yLabel(c.Reports, "excess risk F(w) − F*"), o)
	dropped, drawn, trials := 0, 0, 0
	tlo, thi := math.Inf(1), math.Inf(-1) // the single trials' range
	for si, r := range c.Reports {
		if r == nil {
			continue
		}
		if r.Refused != "" {
			notes = append(notes, fmt.Sprintf("%s: refused (%s)", SolverLabel(r.Solver), short(r.Refused)))
			continue
		}
		col := solverColor(si)
		xys, d := tracePoints(r.Trace)
		dropped += d
		if len(xys) == 0 {
			notes = append(notes, SolverLabel(r.Solver)+": no checkpoint after the start can be drawn on log axes")
			continue
		}
		se := ""
		if !math.IsNaN(r.Excess.SE) {
			se = " ± " + seText(r.Excess.SE)
		}
		name := fmt.Sprintf("%s: %s%s", SolverLabel(r.Solver), num(r.Excess.Mean), se)
		short := fmt.Sprintf("%s: %s%s", r.Solver, num(r.Excess.Mean), se)
		if tags[si] != "" {
			name += ", " + tags[si]
			short += ", " + tags[si]
		}
		step := len(xys) == 1 && drawable(r.W0.Mean) && r.W0.Mean != xys[0].Y
		switch {
		case step:
			// One step (T = 1): its iterate is w₀ until the step's
			// evaluations are done, then its one checkpoint — drawn as
			// that drop, labelled beside its point.
			name += " (one step: from w₀ to its one checkpoint)"
			short += " (one step)"
		case len(xys) <= 3:
			name += " (" + plural(len(xys), "checkpoint") + " after the start)"
			short += " (" + plural(len(xys), "checkpoint") + ")"
		}
		if err := f.addSeries(name, RoleSolver, r.Solver, xys, col, nil, vg.Points(2.2), f.nextGlyph(), short); err != nil {
			return nil, err
		}
		if step {
			if err := f.addStep(r, xys[0], col); err != nil {
				return nil, err
			}
		}
		drawn += len(xys)
		if f.opts.Hide&HideTrials != 0 || len(r.Trials) < 2 {
			continue
		}
		for _, t := range r.Trials {
			txys, _ := tracePoints(t.Trace)
			if len(txys) < 2 {
				continue
			}
			l, err := plotter.NewLine(txys)
			if err != nil {
				return nil, err
			}
			l.LineStyle = draw.LineStyle{Color: faded(col), Width: vg.Points(0.8)}
			f.Plot.Add(l)
			for _, p := range txys {
				tlo, thi = math.Min(tlo, p.Y), math.Max(thi, p.Y)
			}
			trials++
		}
	}
	x0, x1 := f.xlo, f.xhi
	if drawn == 0 {
		// No trace point: span the lines over the planned work.
		x0, x1 = 1, math.Max(2, float64(ref.Params.GradEvals))
	}
	if x0 == x1 {
		x0, x1 = x0/2, x1*2
	}
	if first != nil {
		m := "measured: the mean over " + plural(first.Excess.N, "trial") + ", its final value ± one standard error"
		if trials > 0 {
			m += "; faint: each trial"
		}
		f.legendNote(m)
	}
	f.addStartLine(ref.W0, x0, x1)
	none := map[string][]string{} // why → the solvers without a certificate
	var whys []string
	for si, r := range c.Reports {
		if r == nil || r.Refused != "" {
			continue
		}
		if why := f.addCertLine(r, si, x0, x1); why != "" {
			if none[why] == nil {
				whys = append(whys, why)
			}
			none[why] = append(none[why], r.Solver)
		}
	}
	for _, why := range whys {
		f.legendNote("no certificate for " + strings.Join(none[why], ", ") + ": " + why)
	}
	if drawn == 0 && len(f.refs) == 0 {
		return nil, errNothing
	}
	for _, r := range c.Reports {
		if r != nil && r.BudgetCapped {
			notes = append(notes, r.Solver+" is budget-capped: the work budget cut its prescribed schedule (the theorem's guarantee assumes the full one)")
		}
	}
	if dropped > 0 {
		notes = append(notes, fmt.Sprintf("%s ≤ 0 not shown (log axes)", plural(dropped, "checkpoint value")))
	}
	if tagNote != "" {
		notes = append([]string{tagNote}, notes...)
	}
	for _, n := range notes {
		f.legendNote(n)
	}
	if err := f.finish(); err != nil {
		return nil, err
	}
	if tlo < f.yr[0] || thi > f.yr[1] {
		f.legendNote("some single trials leave the axes, whose range is the means'")
	}
	f.placeLineLabels()
	f.setRanges()
	return f, nil
}

// tracePoints keeps the checkpoints after the start (x = gradient
// evaluations > 0) whose excess risk a log axis can show, and counts the
// others after the start.
func tracePoints(tr []engine.TracePoint) (plotter.XYs, int) {
	xys := make(plotter.XYs, 0, len(tr))
	dropped := 0
	for _, p := range tr {
		if p.GradEvals <= 0 {
			continue
		}
		x := float64(p.GradEvals)
		if drawable(x) && drawable(p.Excess) {
			xys = append(xys, plotter.XY{X: x, Y: p.Excess})
		} else {
			dropped++
		}
	}
	return xys, dropped
}

// startText names the start line.
const startText = "w₀ (start): F(w₀) − F* = %s, doing nothing"

// addStartLine queues F(w₀) − F* as a black dotted line over [x0, x1]; a
// value that a log axis cannot show is explained in the notes instead.
func (f *Figure) addStartLine(w0 engine.Estimate, x0, x1 float64) {
	v := w0.Mean
	switch {
	case math.IsNaN(v):
		return
	case v <= 0:
		f.legendNote(fmt.Sprintf("w₀ (start): F(w₀) − F* = %s: the start is already optimal (w₀ = w*), so every curve can only rise; not drawn (log axis)", num(v)))
		return
	}
	name := fmt.Sprintf(startText, num(v))
	if w0.SE > 0 {
		name += fmt.Sprintf(" (± %s, evaluation sample)", seText(w0.SE))
	}
	f.addRef(reference{name: name, short: "w₀: " + num(v) + ", doing nothing", label: "w₀ " + num(v), role: RoleStart, col: startColor, dashes: startDashes, width: vg.Points(1.8), glyph: glyphStart,
		pts: plotter.XYs{{X: x0, Y: v}, {X: x1, Y: v}}})
}

// addCertLine queues solver si's certificate as a horizontal line in a hue
// of its own (certColor), or says in the notes why it is not drawn; it
// returns why the solver has none ("" when it has one), for the caller to
// say once for all the solvers it applies to.
func (f *Figure) addCertLine(r *engine.Report, si int, x0, x1 float64) (none string) {
	c := r.Certified
	if c.Cert == nil {
		// "klz-gd is not one of …" → "not one of …"
		return strings.TrimPrefix(short(c.Why), r.Solver+" is ")
	}
	if f.opts.Hide&HideCertificates != 0 {
		return ""
	}
	v := c.Cert.Value
	src := certSource(c.Cert)
	switch {
	case !c.Cert.Holds():
		f.legendNote(fmt.Sprintf("%s: certificate (%s) not in force: %s fails", r.Solver, src, condHead(c.Cert.Failed()[0])))
		return ""
	case !drawable(v):
		f.legendNote(fmt.Sprintf("%s: certificate (%s) = %s, vacuous", r.Solver, src, num(v)))
		return ""
	case r.BudgetCapped:
		f.legendNote(fmt.Sprintf("%s: certificate (%s) ≤ %s for the uncapped schedule: %s (not drawn)", r.Solver, src, num(v), report.CappedNotCovered))
		return ""
	}
	vac := ""
	if c.Vacuous(r.W0.Mean) {
		vac = "; " + report.VacuousTag
	}
	f.addRef(reference{name: fmt.Sprintf("%s certified ≤ %s (%s at these parameters%s)", r.Solver, num(v), src, vac),
		short: r.Solver + " certified ≤ " + num(v) + strings.ReplaceAll(vac, "; "+report.VacuousTag, " (vacuous)"),
		label: r.Solver + " certified ≤ " + num(v), role: RoleCertificate, solver: r.Solver,
		col: certColor(f.certs), width: vg.Points(1.5), glyph: f.nextGlyph(), pts: plotter.XYs{{X: x0, Y: v}, {X: x1, Y: v}}})
	f.certs++
	return ""
}

// certSource names a certificate's result as the paper numbers it
// ("Proposition 17"), or its id where its source cites none.
func certSource(c *theory.Certificate) string {
	if s := theory.CiteFirst(c.Source); s != "" {
		return s
	}
	return c.ID
}

// condHead is a condition's text without its numbers.
func condHead(t string) string {
	if i := strings.Index(t, " ("); i > 0 {
		return t[:i]
	}
	return t
}

// runTitle names the problem and the parameters.
func runTitle(r *engine.Report, all []*engine.Report) string {
	s := r.Spec
	name := s.Scenario
	if s.Data != "" {
		name = userText(theory.Name(s.Data)) + " (" + s.Loss + " loss)"
	}
	var solvers []string
	for _, x := range all {
		if x != nil {
			solvers = append(solvers, x.Solver)
		}
	}
	budget := "zCDP ε = " + num(s.Eps)
	if r.Theory.Shuffle {
		budget = fmt.Sprintf("(ε, δ) = (%s, %s)-shuffle", num(s.Eps), num(s.Delta))
	}
	// n and d are the problem's (on user data, the file's: the Spec's d
	// is 0 there).
	return fmt.Sprintf("%s · %s · %s\nn = %d, d = %d, k = %s, %s, %s, %s",
		name, s.Class, strings.Join(solvers, ", "), r.Theory.N, r.Theory.D, num(s.K), budget, plural(s.Trials, "trial"), s.SeedText())
}

// short is a reason as a note gives it: without a leading field name
// ("solver: …"), its first clause (up to "; "), at most 200 characters.
func short(s string) string {
	if head, rest, ok := strings.Cut(s, ": "); ok && !strings.ContainsAny(head, " ,(") {
		s = rest
	}
	if i := strings.Index(s, "; "); i > 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > 200 {
		s = string(r[:199]) + "…"
	}
	return s
}

// WriteRun draws r's figure ([Run]) at the default size to w in format.
func WriteRun(w io.Writer, format Format, r *engine.Report) error {
	f, err := Run(r, Options{})
	if err != nil {
		return err
	}
	return f.Write(w, format)
}

// WriteComparison draws c's figure ([Comparison]) at the default size to
// w in format.
func WriteComparison(w io.Writer, format Format, c *engine.Comparison) error {
	f, err := Comparison(c, Options{})
	if err != nil {
		return err
	}
	return f.Write(w, format)
}

// WriteTune draws t's figure ([Tune]) at the default size to w in
// format.
func WriteTune(w io.Writer, format Format, t *engine.TuneReport) error {
	f, err := Tune(t, Options{})
	if err != nil {
		return err
	}
	return f.Write(w, format)
}

// WriteSweep draws s's figure ([Sweep]) at the default size to w in
// format.
func WriteSweep(w io.Writer, format Format, s *engine.SweepReport) error {
	f, err := Sweep(s, Options{})
	if err != nil {
		return err
	}
	return f.Write(w, format)
}

// addStep draws a one-step solver's drop: a vertical line in its colour
// at its one checkpoint's evaluations, from F(w₀) − F* (its iterate until
// the step is done) to the checkpoint, and a label beside the point
// naming it ("lipschitz-dpsgd 0.0786, one step"), so that a run of a
// single point reads as what it is, not as a stray marker.
func (f *Figure) addStep(r *engine.Report, at plotter.XY, col color.Color) error {
	l, err := plotter.NewLine(plotter.XYs{{X: at.X, Y: r.W0.Mean}, at})
	if err != nil {
		return err
	}
	l.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(2.2), Dashes: []vg.Length{vg.Points(2), vg.Points(3)}}
	f.Plot.Add(l)
	// The label's colour is the solver's, darker: a text in a light hue
	// (the palette's orange) is hard to read on white.
	f.lineLabel(r.Solver+" "+num(r.Excess.Mean)+", one step", at.X, at.Y, shade(col, -0.35))
	return nil
}
