package plot

import (
	"fmt"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// MomentProfile is what the moment profile's figure draws: a scenario's
// (or, with Spec.Data, the user's rows') r̃_k at finite orders (Assumption
// ass:tilde), L_f = r̃_∞, r_k at the same orders (Assumption
// ass:boundednoncentral; then ∞), the run's k, and the given constants
// the scenario contradicts — the fields of report.Moments, which `dpso
// moments` prints. D is the instance's dimension (on user data, its
// feature columns).
type MomentProfile struct {
	Spec           spec.Spec
	D              int
	Finite         []scenarios.MomentEntry
	Lf             scenarios.MomentEntry
	Noncentral     []scenarios.SupEntry
	Contradictions []scenarios.Contradiction
}

// Moments is the figure of a moment profile: r̃_k against k (log-log)
// with its Monte Carlo standard errors, r_k = sup_w (E‖∇f‖^k)^{1/k} ≤ r̃_k
// beside it (its certified upper end where only bracketed), an arrow at
// the top edge for each order whose moment does not exist (r̃_k = ∞; in
// r̃_k's colour darkened, as a reference is), L_f
// = r̃_∞ as a level (or an arrow above the axes, with its value), and the
// run's k marked. A given constant that the scenario contradicts is said
// in the title's second line and in the notes. The y range is the finite
// moments'.
func Moments(m MomentProfile, o Options) (*Figure, error) {
	if len(m.Finite) == 0 {
		return nil, fmt.Errorf("no moment profile to draw")
	}
	s := m.Spec
	name := s.Scenario
	if s.Data != "" {
		name = userText(theory.Name(s.Data)) + " (user data, " + s.Loss + " loss)"
	}
	title := fmt.Sprintf("%s · moment profile r̃_k = (E sup_w ‖∇f(w, x)‖^k)^{1/k} (%s)\nd = %d, D = %s", name, theory.Cite("ass:tilde"), m.D, num(s.Diam))
	if s.Data != "" {
		title = "NOT PRIVATE: computed on your rows (a non-private diagnostic)\n" + title
	}
	if info, ok := scenarios.Lookup(s.Scenario); ok && info.Tail != nil && s.Tail != 0 {
		title += ", " + info.Tail.Symbol + " = " + num(s.Tail)
	}
	if len(m.Contradictions) > 0 {
		title = "GIVEN CONSTANT CONTRADICTS THE SCENARIO: " + m.Contradictions[0].Symbol + " = " + num(m.Contradictions[0].Given) + "\n" + title
	}
	f := newFigure(title, "moment order k", "moment (gradient-norm units)", o)
	var tilde, nonc plotter.XYs
	var bars errPoints
	var inf []float64
	for i, e := range m.Finite {
		switch {
		case math.IsInf(e.R, 1):
			inf = append(inf, e.K)
		case drawable(e.R):
			tilde = append(tilde, plotter.XY{X: e.K, Y: e.R})
			f.see(e.R)
			if e.SE > 0 && !math.IsInf(e.SE, 0) && e.R-e.SE > 0 {
				bars.XYs = append(bars.XYs, plotter.XY{X: e.K, Y: e.R})
				bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{e.SE, e.SE})
				f.see(e.R - e.SE)
				f.see(e.R + e.SE)
			}
		}
		if i < len(m.Noncentral) && drawable(m.Noncentral[i].V) {
			nonc = append(nonc, plotter.XY{X: e.K, Y: m.Noncentral[i].V})
		}
	}
	if len(tilde) == 0 && len(nonc) == 0 {
		return nil, fmt.Errorf("no finite moment to draw: every r̃_k of the profile is ∞")
	}
	if len(tilde) > 0 {
		if err := f.addSeries("r̃_k = (E sup_w ‖∇f‖^k)^{1/k}: what the paper's rates read", RoleMoment, "", tilde, solverColor(0), nil, vg.Points(2.2), 0); err != nil {
			return nil, err
		}
		if len(bars.XYs) > 0 {
			eb, err := plotter.NewYErrorBars(bars)
			if err != nil {
				return nil, err
			}
			eb.LineStyle.Color = solverColor(0)
			eb.LineStyle.Width = vg.Points(1.2)
			f.Plot.Add(eb)
		}
	}
	if len(nonc) > 0 {
		for _, p := range nonc {
			f.see(p.Y)
		}
		if err := f.addSeries("r_k = sup_w (E‖∇f‖^k)^{1/k} ≤ r̃_k ("+theory.Cite("ass:boundednoncentral")+"; its certified upper end where bracketed)", RoleMoment, "", nonc, solverColor(1), nil, vg.Points(1.8), 1); err != nil {
			return nil, err
		}
	}
	for _, p := range append(append(plotter.XYs{}, tilde...), nonc...) {
		f.seeX(p.X)
	}
	for _, k := range inf {
		f.seeX(k)
	}
	f.seeX(s.K)
	// Room on the right for k = ∞ (L_f), beyond the largest order.
	f.seeX(f.xhi * 1.6)
	lf := m.Lf.R
	given := strings.HasPrefix(m.Lf.Method, "user-given")
	lfName := "L_f = r̃_∞ = sup ‖∇f‖ (the worst case) = " + num(lf) + ", at k = ∞ (the right edge)"
	switch {
	case s.Data != "" && !given:
		lfName = "L_f = r̃_∞ = max over your rows of sup_w ‖∇f‖ = " + num(lf) + " (estimated, not private), at k = ∞ (the right edge)"
	case given:
		lfName = "L_f = " + num(lf) + ", given (--lf), not the scenario's; at k = ∞ (the right edge)"
	}
	switch {
	case math.IsInf(lf, 1):
		f.legendNote("L_f = r̃_∞ = ∞: the gradients are unbounded (Lipschitz DP-SGD has no finite calibration)")
	case drawable(lf):
		f.addRef(reference{name: lfName, label: "L_f = r̃_∞ = " + num(lf), role: RoleLevel, col: startColor, dashes: startDashes, width: vg.Points(1.8), glyph: -1,
			pts: plotter.XYs{{X: f.xlo, Y: lf}, {X: f.xhi, Y: lf}}, atX: f.xhi})
	}
	for _, c := range m.Contradictions {
		f.legendNote("⚠ " + c.Text)
	}
	if len(bars.XYs) > 0 {
		f.legendNote("error bars: ±1 Monte Carlo standard error (2²⁰ draws)")
	}
	f.legendNote("r̃_k < ∞ for the orders the data's tails allow; the paper's rates read r̃_k (and r̃_2k for non-smooth losses) instead of L_f = r̃_∞: that gap is what clipping buys")
	f.arrowsAbove = len(inf) > 0
	if err := f.finish(); err != nil {
		return nil, err
	}
	for i, k := range inf {
		f.addArrowAt(reference{name: fmt.Sprintf("r̃_k = ∞ for k ≥ %s: the moment does not exist (an arrow at each such k)", num(inf[0])),
			label: "r̃_" + num(k) + " = ∞", role: RoleMoment, col: shade(solverColor(0), -0.45)}, k, true, i == 0)
	}
	if drawable(s.K) {
		if err := f.vline(s.K, "k = "+num(s.K)+": the run's moment order", markerColor, f.nextDashes()); err != nil {
			return nil, err
		}
	}
	f.placeLineLabels()
	f.setRanges()
	return f, nil
}

// WriteMoments draws m's figure ([Moments]) at the default size to w in
// format.
func WriteMoments(w io.Writer, format Format, m MomentProfile) error {
	f, err := Moments(m, Options{})
	if err != nil {
		return err
	}
	return f.Write(w, format)
}
