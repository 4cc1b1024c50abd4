package report

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/stat"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/theory"
)

// A sweep's verdict says where the theory is in force over the grid, in
// the words the explorer's slope table and the slide figure both print
// (one source: the figure carries what the screen says).

// PointVerdict is why the theory is not yet in force at one sweep point
// ("" when it is): the paper's solver's certificate — its explicit
// constants at the point's own parameters — at or above F(w₀) − F*
// (vacuous: doing nothing does as well as it promises), missing, or
// computed from flagged private estimates of the constants, or the run
// budget-capped (CappedNotCovered: the certificate is the uncapped
// schedule's, whatever its value), or localized-sc's stages all at radius D (its localization has not
// started). The rates, whose constants are set to 1, are never compared
// with w₀: a level they do not have cannot decide it.
func PointVerdict(p engine.SweepPoint) string {
	if len(p.Reports) == 0 {
		return ""
	}
	r := p.Reports[0]
	if r.Refused != "" {
		return "refused"
	}
	w0 := r.W0.Mean
	var why []string
	switch c := r.Certified; {
	case c.Cert == nil:
		why = append(why, "no certificate")
	case r.BudgetCapped:
		why = append(why, CappedNotCovered)
	case math.IsNaN(c.Value()) || c.Vacuous(w0):
		why = append(why, "certificate ≥ w₀")
	case EstimatesFlagged(r):
		why = append(why, "certificate on flagged private estimates")
	}
	if stagesAtD(r) {
		why = append(why, "every stage at radius D")
	}
	return strings.Join(why, ", ")
}

// stagesAtD reports whether r is localized-sc's strongly convex reduction
// (phases with a stage) whose every phase's localization radius is at
// least the domain's diameter D: no phase localizes yet.
func stagesAtD(r *engine.Report) bool {
	ph := r.Params.Phases
	if len(ph) == 0 || ph[0].Stage == 0 || !(r.Theory.Diam > 0) {
		return false
	}
	for _, p := range ph {
		if p.Radius < r.Theory.Diam {
			return false
		}
	}
	return true
}

// InForce is the indices of the points where the theory is in force
// (PointVerdict empty) and, for the others, the reasons.
func InForce(rep *engine.SweepReport) (in []int, out map[int]string) {
	out = map[int]string{}
	for i, p := range rep.Points {
		if why := PointVerdict(p); why != "" {
			out[i] = why
		} else {
			in = append(in, i)
		}
	}
	return in, out
}

// SlopeOver is the least-squares slope of ln(mean excess risk) on
// ln(value) of solver si over the points idx (NaN with fewer than 2
// usable points), with the number of points used.
func SlopeOver(rep *engine.SweepReport, si int, idx []int) (float64, int) {
	var xs, ys []float64
	for _, i := range idx {
		p := rep.Points[i]
		if si >= len(p.Reports) {
			continue
		}
		if m := p.Reports[si].Excess.Mean; m > 0 && !math.IsInf(m, 0) && p.Reports[si].Refused == "" {
			xs, ys = append(xs, math.Log(p.Value)), append(ys, math.Log(m))
		}
	}
	if len(xs) < 2 {
		return math.NaN(), len(xs)
	}
	_, beta := stat.LinearRegression(xs, ys, nil, false)
	return beta, len(xs)
}

// SweepVerdict is the sentence that says where the theory is in force
// over the sweep (InForce) — at every point, at none (the slope, or a
// trade-off's shape, is pre-asymptotic), or at some (with the measured
// slope over those points alone, said to have no interval) — and whether it is the good news (in
// force at every point). symbol names the swept parameter ("n", "ε"),
// tick writes a grid value, slope a slope; tradeOff: the parameter has
// no power law (k, C), so no slope is given.
func SweepVerdict(rep *engine.SweepReport, symbol string, tick, slope func(float64) string, tradeOff bool) (text string, good bool) {
	if len(rep.Points) == 0 || len(rep.Solvers) == 0 {
		return "", false
	}
	in, out := InForce(rep)
	if len(out) == 0 {
		return "✓ in force at every point: each point's certificate (explicit constants) is below w₀", true
	}
	var at, order []string
	reasons := map[string]bool{}
	for i := range rep.Points {
		if why, ok := out[i]; ok {
			at = append(at, tick(rep.Points[i].Value))
			for _, r := range strings.Split(why, ", ") {
				if !reasons[r] {
					reasons[r] = true
					order = append(order, r)
				}
			}
		}
	}
	if len(in) == 0 {
		what := "the slope is pre-asymptotic, not the theorem's rate"
		if tradeOff {
			what = "the shape is pre-asymptotic, not the theorem's"
		}
		return "⚠ not yet in force at any point (" + strings.Join(order, "; ") + "): " + what, false
	}
	msg := "⚠ not yet in force at " + symbol + " = " + strings.Join(at, ", ") + " (" + strings.Join(order, "; ") + ")"
	if !tradeOff {
		if sl, m := SlopeOver(rep, 0, in); !math.IsNaN(sl) {
			msg += fmt.Sprintf("; over the %d other points %s's slope is %s", m, rep.Solvers[0], slope(sl))
			if m == 2 {
				msg += " (a line through 2 points: no interval)"
			} else {
				msg += " (no interval computed)"
			}
		} else {
			msg += "; too few other points for a slope"
		}
	}
	return msg, false
}

// CertFrom says from which point of the sweep on solver si's certificate
// falls below F(w₀) − F* (promises something), or that it is vacuous at
// every point; a certificate on flagged private estimates promises
// nothing (EstimatesFlagged), nor does a budget-capped point's, which
// does not cover its run: those points are named (CappedNotCovered);
// symbol and tick as in SweepVerdict.
func CertFrom(rep *engine.SweepReport, si int, symbol string, tick func(float64) string) string {
	flags := 0
	var capped []string
	from := ""
	for _, p := range rep.Points {
		if si >= len(p.Reports) || p.Reports[si] == nil {
			continue
		}
		r := p.Reports[si]
		switch {
		case r.Refused != "":
		case r.BudgetCapped:
			capped = append(capped, tick(p.Value))
		case EstimatesFlagged(r):
			flags++
		case from == "" && CertCovers(r) && !r.Certified.Vacuous(r.W0.Mean):
			from = "below w₀ from " + symbol + " = " + tick(p.Value)
		}
	}
	every := "every " + symbol
	switch {
	case len(capped) == len(rep.Points):
		return CappedNotCovered + " at " + every
	case len(capped) > 0:
		every = "every other " + symbol
	}
	switch {
	case from != "":
	case flags > 0:
		from = "vacuous (above w₀) or on flagged private estimates at " + every
	default:
		from = "vacuous (above w₀) at " + every
	}
	if len(capped) == 0 {
		return from
	}
	return from + "; " + CappedNotCovered + " at " + symbol + " = " + strings.Join(capped, ", ")
}

// NoSlopeWhy says why a clip or k sweep fits no slope (param: the swept
// parameter): over C the clipping bias trades off against the noise, no
// power law; over k nothing trades off, but k enters the bounds through
// their exponents ((k−1)/k), not as a power of k, so no line in log k is
// a rate.
func NoSlopeWhy(param string) string {
	if param == spec.SweepK {
		return "no slope is fitted: k enters the bounds' exponents, not as a power of k"
	}
	return "no slope is fitted: a trade-off is not a power law"
}

// BoundNoSlopeWhy says why bound id has no slope over the sweep ("" where
// it has one): infinite at every point — with "L_f = ∞ here" where the
// scenario's L_f is infinite at every point, the constant a Lipschitz
// bound reads — infinite at some, or missing at some point.
func BoundNoSlopeWhy(rep *engine.SweepReport, id string) string {
	inf, missing, lfInf := 0, 0, 0
	for _, p := range rep.Points {
		var found *theory.Bound
		if len(p.Reports) > 0 && p.Reports[0] != nil {
			r := p.Reports[0]
			if math.IsInf(r.Theory.Lf, 1) {
				lfInf++
			}
			for i := range r.Bounds {
				if r.Bounds[i].ID == id {
					found = &r.Bounds[i]
				}
			}
		}
		switch {
		case found == nil || math.IsNaN(found.Value):
			missing++
		case math.IsInf(found.Value, 1):
			inf++
		}
	}
	n := len(rep.Points)
	switch {
	case inf == n && lfInf == n:
		return "no slope: ∞ at every point (L_f = ∞ here, the constant it reads)"
	case inf == n:
		return "no slope: ∞ at every point (a constant it reads is infinite here)"
	case inf > 0:
		return fmt.Sprintf("no slope: ∞ at %d of the %d points", inf, n)
	case missing > 0:
		return fmt.Sprintf("no slope: not defined at %d of the %d points", missing, n)
	}
	return ""
}
