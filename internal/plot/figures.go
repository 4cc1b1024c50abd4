package plot

import (
	"fmt"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"dpso/internal/engine"
	"dpso/theory"
)

// Run is the figure of one run: the excess risk F(w) − F* (log scale)
// against the number of per-sample gradient evaluations + 1 (log scale;
// the +1 puts the start w₀, at 0 evaluations, at 1), the mean over trials
// bold with markers (every checkpoint of a short trace, so that a
// two-point trace shows), each trial's trace faint, and the reference
// lines: F(w₀) − F* (black dots: doing nothing), the certificate at the
// run's parameters (the solver's colour darkened: the curve must stay
// under it) and the class's theory bounds (rates, constants set to 1:
// compare slopes, not levels). Every series has a colour and a dash
// pattern of its own and a human name in the legend, which is drawn below
// the axes; nothing is written over the data.
func Run(r *engine.Report) (*Figure, error) {
	if r == nil {
		return nil, fmt.Errorf("no report to draw")
	}
	return Comparison(&engine.Comparison{Reports: []*engine.Report{r}})
}

// Comparison is [Run]'s figure for several solvers run on the same draws:
// each solver's traces in its own colour, dash pattern and marker on the
// same axes, each solver's certificate, and the bounds and the start line
// (which do not depend on the solver) once.
func Comparison(c *engine.Comparison) (*Figure, error) {
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
	f := newFigure(ptitle+runTitle(ref, c.Reports),
		"per-sample gradient evaluations + 1 (count, log scale; the start, at 0 evaluations, is at 1)",
		yLabel(c.Reports, "excess risk F(w) − F* (loss units, log scale)"))
	dropped, drawn, trials := 0, 0, 0
	for si, r := range c.Reports {
		if r == nil {
			continue
		}
		if r.Refused != "" {
			notes = append(notes, fmt.Sprintf("%s: refused (%s)", SolverLabel(r.Solver), short(r.Refused)))
			continue
		}
		col := solverColor(si)
		for _, t := range r.Trials {
			xys, d := tracePoints(t.Trace)
			dropped += d
			if len(xys) < 2 {
				continue
			}
			l, err := plotter.NewLine(xys)
			if err != nil {
				return nil, err
			}
			l.LineStyle = draw.LineStyle{Color: faded(col), Width: vg.Points(0.8)}
			f.Plot.Add(l)
			for _, p := range xys {
				f.see(p.Y)
				f.seeX(p.X)
			}
			trials++
		}
		xys, d := tracePoints(r.Trace)
		dropped += d
		if len(xys) == 0 {
			notes = append(notes, SolverLabel(r.Solver)+": no checkpoint can be drawn on log axes")
			continue
		}
		se := ""
		if !math.IsNaN(r.Excess.SE) {
			se = " ± " + num(r.Excess.SE)
		}
		name := fmt.Sprintf("%s: measured, mean of %s = %s%s", SolverLabel(r.Solver), plural(r.Excess.N, "trial"), num(r.Excess.Mean), se)
		if len(xys) <= 3 {
			name += fmt.Sprintf(" (%d checkpoints)", len(xys))
		}
		if err := f.addSeries(name, RoleSolver, r.Solver, xys, col, nil, vg.Points(2), si); err != nil {
			return nil, err
		}
		drawn += len(xys)
	}
	if trials > 0 {
		notes = append(notes, "faint lines: each trial's trace, in its solver's colour")
	}
	x0, x1 := f.xlo, f.xhi
	if drawn == 0 {
		// No trace point: span the lines over the planned work.
		x0, x1 = 1, math.Max(2, float64(ref.Params.GradEvals)+1)
	}
	if x0 == x1 {
		x0, x1 = x0/2, x1*2
	}
	nl := 0
	ok, err := f.addStartLine(ref.W0, x0, x1)
	if err != nil {
		return nil, err
	}
	if ok {
		nl++
	}
	for si, r := range c.Reports {
		if r == nil || r.Refused != "" {
			continue
		}
		ok, err := f.addCertLine(r, si, x0, x1)
		if err != nil {
			return nil, err
		}
		if ok {
			nl++
		}
	}
	nb, err := f.addBoundLines(ref.Bounds, x0, x1)
	if err != nil {
		return nil, err
	}
	if drawn == 0 && nb+nl == 0 {
		return nil, errNothing
	}
	if len(ref.Bounds) > 0 {
		notes = append(notes, rateNote)
	}
	for _, r := range c.Reports {
		if r != nil && r.BudgetCapped {
			notes = append(notes, r.Solver+" is budget-capped: the work budget cut its prescribed schedule; the rates assume the full schedule (its certificate is at the steps run)")
		}
	}
	f.placeLineLabels()
	if dropped > 0 {
		notes = append(notes, fmt.Sprintf("%s ≤ 0 not shown (log axes)", plural(dropped, "checkpoint value")))
	}
	for _, n := range notes {
		f.legendNote(n)
	}
	f.fixRange()
	return f, nil
}

// tracePoints keeps the checkpoints that can be drawn on log axes, at
// x = gradient evaluations + 1, and counts the others.
func tracePoints(tr []engine.TracePoint) (plotter.XYs, int) {
	xys := make(plotter.XYs, 0, len(tr))
	dropped := 0
	for _, p := range tr {
		x := float64(p.GradEvals) + 1
		if drawable(x) && drawable(p.Excess) {
			xys = append(xys, plotter.XY{X: x, Y: p.Excess})
		} else {
			dropped++
		}
	}
	return xys, dropped
}

// rateNote is what a "rate ·" entry is.
const rateNote = "Each \"rate ·\" line is a theorem's bound with every constant set to 1 (" + theory.RateMeaning + "); it is not a certificate."

// startText names the start line.
const startText = "w₀ (start): F(w₀) − F* = %s, the excess risk of doing nothing (a curve above it did worse)"

// addStartLine draws F(w₀) − F* as a black dotted line over [x0, x1]; a
// value that a log axis cannot show is explained in the legend instead.
func (f *Figure) addStartLine(w0 engine.Estimate, x0, x1 float64) (bool, error) {
	v := w0.Mean
	switch {
	case math.IsNaN(v):
		return false, nil
	case v <= 0:
		f.legendNote(fmt.Sprintf("w₀ (start): F(w₀) − F* = %s: the start is already optimal (w₀ = w*), so every curve can only rise; not drawn (log axis)", num(v)))
		return false, nil
	case !f.window(v):
		f.legendNote(fmt.Sprintf(startText+" (off the chart, more than %s× beyond the curves)", num(v), offChartText))
		return false, nil
	}
	name := fmt.Sprintf(startText, num(v))
	f.lineLabel("w₀ "+num(v), x1, v, startColor)
	if w0.SE > 0 {
		name += fmt.Sprintf(" (± %s, evaluation sample)", num(w0.SE))
	}
	return true, f.addSeries(name, RoleStart, "", plotter.XYs{{X: x0, Y: v}, {X: x1, Y: v}}, startColor, startDashes, vg.Points(1.6), -1)
}

// addCertLine draws solver si's certificate as a horizontal line in its
// colour darkened, or says in the legend why it is not drawn.
func (f *Figure) addCertLine(r *engine.Report, si int, x0, x1 float64) (bool, error) {
	c := r.Certified
	who := SolverLabel(r.Solver)
	if c.Cert == nil {
		if c.Why != "" {
			f.legendNote(who + ": no certificate (" + short(c.Why) + ")")
		}
		return false, nil
	}
	v := c.Cert.Value
	vac := ""
	if c.Vacuous(r.W0.Mean) {
		vac = "; vacuous: above w₀"
	}
	switch {
	case !c.Cert.Holds():
		f.legendNote(fmt.Sprintf("%s: certificate %s not in force (%s fails)", who, c.Cert.ID, condHead(c.Cert.Failed()[0])))
		return false, nil
	case !drawable(v):
		f.legendNote(fmt.Sprintf("%s: certificate %s = %s (vacuous)", who, c.Cert.ID, num(v)))
		return false, nil
	case !f.window(v):
		f.legendNote(fmt.Sprintf("%s: certified ≤ %s at these parameters (%s%s), off the chart: more than %s× above the curves", r.Solver, num(v), c.Cert.ID, vac, offChartText))
		return false, nil
	}
	name := fmt.Sprintf("%s: certified ≤ %s at these parameters (%s, the paper's explicit constants%s)", r.Solver, num(v), c.Cert.ID, vac)
	f.lineLabel(r.Solver+" certified ≤ "+num(v), x1, v, shade(solverColor(si), -0.45))
	return true, f.addSeries(name, RoleCertificate, r.Solver, plotter.XYs{{X: x0, Y: v}, {X: x1, Y: v}}, shade(solverColor(si), -0.45), nil, vg.Points(1.4), -1)
}

// condHead is a condition's text without its numbers.
func condHead(t string) string {
	if i := strings.Index(t, " ("); i > 0 {
		return t[:i]
	}
	return t
}

// addBoundLines draws each finite bound as a horizontal line over
// [x0, x1] and lists the others in the legend; it returns how many it
// drew.
func (f *Figure) addBoundLines(bounds []theory.Bound, x0, x1 float64) (int, error) {
	perKind := map[theory.Kind]int{}
	drawn := 0
	for _, b := range bounds {
		i := perKind[b.Kind]
		perKind[b.Kind]++
		label := BoundLabel(b.Kind, b.Title)
		if label == "" || b.Title == "" {
			label = string(b.Kind) + " bound " + b.ID
		}
		switch {
		case !drawable(b.Value):
			f.legendNote(fmt.Sprintf("rate · %s = %s: not drawn (%s)", label, num(b.Value), whyNot(b.Value)))
			continue
		case !f.window(b.Value):
			f.legendNote(fmt.Sprintf("rate · %s = %s (%s): off the chart, more than %s× beyond the curves", label, num(b.Value), condText(b), offChartText))
			continue
		}
		name := fmt.Sprintf("rate · %s = %s (%s)", label, num(b.Value), condText(b))
		f.lineLabel("rate · "+shortBound(b)+" "+num(b.Value), x1, b.Value, kindColor(b.Kind, i))
		if err := f.addSeries(name, RoleRate, "", plotter.XYs{{X: x0, Y: b.Value}, {X: x1, Y: b.Value}}, kindColor(b.Kind, i), nil, vg.Points(1.4), -1); err != nil {
			return drawn, err
		}
		drawn++
	}
	return drawn, nil
}

// shortBound is a bound's name on its line: its kind, or for prior work
// the title's head ("Kamath–Liu–Zhang").
func shortBound(b theory.Bound) string {
	switch b.Kind {
	case theory.Upper:
		return "upper bound"
	case theory.Lower:
		return "lower bound"
	}
	t := b.Title
	if i := strings.IndexAny(t, "(:,"); i > 0 {
		t = strings.TrimSpace(t[:i])
	}
	if t == "" {
		return "prior bound"
	}
	return "prior: " + t
}

func whyNot(v float64) string {
	if math.IsInf(v, 1) {
		return "a moment it needs does not exist"
	}
	return "not positive, the axis is logarithmic"
}

// runTitle names the problem and the parameters.
func runTitle(r *engine.Report, all []*engine.Report) string {
	s := r.Spec
	name := s.Scenario
	if s.Data != "" {
		name = theory.Name(s.Data) + " (" + s.Loss + " loss)"
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

// short keeps the first sentence of a long reason.
func short(s string) string {
	if i := strings.Index(s, "; "); i > 0 {
		return s[:i]
	}
	if i := strings.Index(s, ": "); i > 0 && len(s) > 90 {
		return s[:i]
	}
	return s
}

// WriteRun draws r's figure ([Run]) to w in format.
func WriteRun(w io.Writer, format Format, r *engine.Report) error {
	f, err := Run(r)
	if err != nil {
		return err
	}
	return f.Write(w, format)
}

// SaveRun draws r's figure ([Run]) to path, PNG or SVG by its extension.
func SaveRun(path string, r *engine.Report) error {
	if _, err := FormatOf(path); err != nil {
		return err
	}
	f, err := Run(r)
	if err != nil {
		return err
	}
	return f.Save(path)
}

// WriteComparison draws c's figure ([Comparison]) to w in format.
func WriteComparison(w io.Writer, format Format, c *engine.Comparison) error {
	f, err := Comparison(c)
	if err != nil {
		return err
	}
	return f.Write(w, format)
}

// SaveComparison draws c's figure ([Comparison]) to path.
func SaveComparison(path string, c *engine.Comparison) error {
	if _, err := FormatOf(path); err != nil {
		return err
	}
	f, err := Comparison(c)
	if err != nil {
		return err
	}
	return f.Save(path)
}

// WriteSweep draws s's figure ([Sweep]) to w in format.
func WriteSweep(w io.Writer, format Format, s *engine.SweepReport) error {
	f, err := Sweep(s)
	if err != nil {
		return err
	}
	return f.Write(w, format)
}

// SaveSweep draws s's figure ([Sweep]) to path.
func SaveSweep(path string, s *engine.SweepReport) error {
	if _, err := FormatOf(path); err != nil {
		return err
	}
	f, err := Sweep(s)
	if err != nil {
		return err
	}
	return f.Save(path)
}
