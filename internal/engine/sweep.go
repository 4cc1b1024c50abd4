package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// SweepSpec describes a sweep of one parameter over a log grid.
type SweepSpec struct {
	// Param is "n", "eps", "d", "clip" or "k" (spec.SweepN …).
	Param string `json:"sweep"`
	// From and To are the grid's ends (From < To), inside the parameter's
	// allowed range. For clip both may be 0: the grid then runs from
	// 10⁻⁴ to 1 times the prescribed C (DefaultClipDecades).
	From float64 `json:"from"`
	To   float64 `json:"to"`
	// Points is the number of grid points, [2, 50]; default 6. Integer
	// parameters (n, d) are rounded and duplicates dropped.
	Points int `json:"points,omitempty"`
	// Solvers to run at every point on the same draws; default the Spec's
	// solver.
	Solvers []string `json:"solvers,omitempty"`
}

// DefaultSweepPoints is the default number of grid points, MaxSweepPoints
// the most. A clip sweep over its default range has DefaultClipPoints
// points (two per decade) over DefaultClipDecades decades below the
// prescribed C.
const (
	DefaultSweepPoints = 6
	MaxSweepPoints     = 50
	DefaultClipPoints  = 9
	DefaultClipDecades = 4
)

// SweepPoint is one grid point.
type SweepPoint struct {
	Value float64
	// Reports has one report per solver, in SweepReport.Solvers order.
	Reports []*Report
}

// Slope is the empirical log-log slope of the mean excess risk against the
// swept parameter.
//
// Method: ordinary least squares of ln(mean excess risk) on ln(value) over
// the grid points with a positive, finite mean (gonum stat.LinearRegression);
// standard error of the slope √(Σresidual²/(m−2) / Σ(x − x̄)²); 95%
// confidence interval slope ± t_{0.975, m−2}·se with the Student-t quantile
// from gonum distuv.StudentsT. The interval treats the points' scatter
// around the line as the noise (it does not weight by the per-point
// standard errors), so it is an interval for the slope of this grid's
// means. It needs m ≥ 3 points (NaN bounds otherwise).
type Slope struct {
	Solver    string
	Slope     float64
	Intercept float64 // ln-scale intercept
	Lo, Hi    float64 // 95% confidence interval
	Points    int     // points used
	Note      string
}

// BoundSlope is a theory bound's own log-log slope over the sweep's grid,
// to set beside the measured slopes.
type BoundSlope struct {
	// RateNote says why RateN is withheld (nil) in an n sweep: the
	// scenario's constants that the bound reads change with n (the hard
	// instances' law depends on n), so the analytic rate at fixed
	// constants is not the slope along the sweep; or that the bound
	// changes regime across the grid, so the fitted slope averages the
	// local rates.
	RateNote string
	ID       string
	Kind     theory.Kind
	Title    string
	// Slope is the OLS slope of ln(bound value) on ln(value) over the grid
	// (exact for a single power law); NaN when the bound is infinite or
	// missing at some point.
	Slope float64
	// RateN is the theory's analytic local exponent d ln(bound)/d ln n at
	// each grid point (n sweeps only; nil otherwise).
	RateN []float64
}

// SweepReport is the result of a sweep.
type SweepReport struct {
	Sweep   SweepSpec
	Solvers []string
	Points  []SweepPoint
	// Slopes are the measured log-log slopes (n, eps and d sweeps; a clip
	// or k sweep traces a trade-off, not a power law, and has none).
	Slopes []Slope
	// PrescribedClip is the C the prescription of the base run uses (the
	// first phase's for the localized methods); NaN when it does not
	// exist (a refusal, ε = ∞).
	PrescribedClip float64
	// Best is the grid point with the smallest mean excess risk, per
	// solver (clip and k sweeps; nil otherwise): the empirical best.
	Best []BestPoint
	// NoiseOff: every point ran each trial a second time with the noise
	// switched off, and computed its clipping bias (clip and k sweeps;
	// Report.NoiseOff, Report.ClipBias).
	NoiseOff bool
	// Bounds are the class's theory bounds' slopes over the same grid.
	Bounds []BoundSlope
	// Total is what the sweep's outputs cost together (every point's
	// reports carry the same).
	Total   PrivacyTotal
	Notes   []string
	Elapsed time.Duration
}

// Fixed says in words which parameters the sweep held fixed — n, d and k
// where they are not swept, the privacy parameter (zCDP ε, or the shuffle
// oracles' (ε, δ)), and a moment assumption other than the default —
// with each value written by num: what `dpso sweep`'s table and its
// figure state alike. Nil for a sweep without points.
func (r *SweepReport) Fixed(num func(float64) string) []string {
	if len(r.Points) == 0 || len(r.Points[0].Reports) == 0 {
		return nil
	}
	r0 := r.Points[0].Reports[0]
	s, param := r0.Spec, r.Sweep.Param
	var fixed []string
	if param != "n" {
		fixed = append(fixed, fmt.Sprintf("n = %d", r0.Theory.N))
	}
	if param != "d" {
		fixed = append(fixed, fmt.Sprintf("d = %d", r0.Theory.D))
	}
	if param != "k" {
		fixed = append(fixed, "k = "+num(s.K))
	}
	switch shuffle := r0.Theory.Shuffle; {
	case shuffle && param == "eps":
		fixed = append(fixed, "(ε, δ)-shuffle with δ = "+num(s.Delta))
	case shuffle:
		fixed = append(fixed, fmt.Sprintf("(ε, δ) = (%s, %s)-shuffle", num(s.Eps), num(s.Delta)))
	case param != "eps":
		fixed = append(fixed, "zCDP ε = "+num(s.Eps))
	}
	if a := r0.Theory.Assumption; a != "" && a != theory.Tilde {
		fixed = append(fixed, "prescribed with "+a.Symbol()+" ("+a.Label()+")")
	}
	return fixed
}

// Grid returns the log grid of a sweep: From·(To/From)^{i/(m−1)}, rounded
// for integer parameters with duplicates dropped.
func (sw SweepSpec) Grid() []float64 {
	m := sw.Points
	if m == 0 {
		m = DefaultSweepPoints
	}
	var out []float64
	for i := range m {
		v := sw.From * math.Pow(sw.To/sw.From, float64(i)/float64(m-1))
		if math.IsInf(sw.To/sw.From, 1) {
			// The ratio overflows (from = 1e-300, to = 1e300): step in logs.
			v = math.Exp(math.Log(sw.From) + float64(i)/float64(m-1)*(math.Log(sw.To)-math.Log(sw.From)))
		}
		if i == 0 {
			v = sw.From
		}
		if i == m-1 {
			v = sw.To
		}
		if sw.integer() {
			v = math.Round(v)
		}
		if len(out) > 0 && out[len(out)-1] == v {
			continue
		}
		out = append(out, v)
	}
	return out
}

func (sw SweepSpec) validate() error {
	switch sw.Param {
	case spec.SweepN, spec.SweepEps, spec.SweepD, spec.SweepClip, spec.SweepK:
	default:
		return sweepErr("sweep", "cannot sweep %s (want n, eps, d, clip or k)", theory.Quote(sw.Param))
	}
	if sw.Points != 0 && (sw.Points < 2 || sw.Points > MaxSweepPoints) {
		return sweepErr("points", "points = %s is outside [2, %s]", theory.FormatCount(sw.Points), theory.FormatCount(MaxSweepPoints))
	}
	if !(sw.From > 0) || math.IsInf(sw.From, 0) {
		return sweepErr("from", "from = %s is not a positive finite number", theory.FormatNumber(sw.From))
	}
	if !(sw.To > sw.From) || math.IsInf(sw.To, 0) {
		return sweepErr("to", "to = %s must be finite and greater than from = %s", theory.FormatNumber(sw.To), theory.FormatNumber(sw.From))
	}
	// The grid's ends must lie in the swept field's own range (checked
	// before an integer conversion could wrap: --to 1e308 once gave
	// n = −9223372036854775808).
	if sw.Param == spec.SweepN || sw.Param == spec.SweepD || sw.Param == spec.SweepEps {
		f, _ := spec.FieldByName(sw.Param)
		if sw.Param == spec.SweepEps {
			f.Range = &theory.Interval{Lo: spec.MinEps, Hi: spec.MaxEps}
		}
		for _, end := range []struct {
			name string
			v    float64
		}{{"from", sw.From}, {"to", sw.To}} {
			if f.Range != nil && !f.Range.Contains(end.v) {
				return sweepErr(end.name, "%s = %s is outside %s, the range of --%s", end.name, theory.FormatNumber(end.v), rangeText(f), sw.Param)
			}
		}
	}
	if sw.Param == spec.SweepK && !(sw.From >= 2) {
		return sweepErr("from", "k starts at 2 (Assumption 1: k ≥ 2); from = %s", theory.FormatNumber(sw.From))
	}
	if sw.integer() && (sw.From != math.Trunc(sw.From) || sw.To != math.Trunc(sw.To)) {
		return sweepErr("from", "%s takes integer values (from = %s, to = %s)", sw.Param, theory.FormatNumber(sw.From), theory.FormatNumber(sw.To))
	}
	return nil
}

// integer reports whether the swept parameter takes integer values.
func (sw SweepSpec) integer() bool { return sw.Param == spec.SweepN || sw.Param == spec.SweepD }

// tradeOff reports whether the sweep traces a trade-off (clip, k) rather
// than a rate (n, eps, d).
func (sw SweepSpec) tradeOff() bool { return sw.Param == spec.SweepClip || sw.Param == spec.SweepK }

// BestPoint is a solver's grid point with the smallest mean excess risk.
type BestPoint struct {
	Solver string
	Value  float64
	Excess Estimate
}

func sweepErr(field, format string, a ...any) error {
	return &spec.SpecError{Field: field, Msg: fmt.Sprintf(format, a...)}
}

// Sweep runs r at every point of the sweep's log grid, every solver on the
// same draws at each point, all (point, trial) jobs in parallel on
// r.Spec.Workers goroutines, and fits the log-log slope of each solver's
// mean excess risk (see Slope). Each point is derived from r
// (spec.Resolved.At); an invalid point is reported on the field "to" with
// the point's value, and any other *SpecError of a point (an unknown
// solver of the list, say) with the point's value in its message. It is
// PrepareSweep, then Run of every unit, then Report.
func Sweep(ctx context.Context, r spec.Resolved, sw SweepSpec, set *Settings) (*SweepReport, error) {
	p, err := PrepareSweep(ctx, r, sw)
	if err != nil {
		return nil, err
	}
	if err := p.Run(ctx, p.Units(), set); err != nil {
		return nil, err
	}
	if testAfterTrials != nil {
		testAfterTrials()
	}
	return p.Report(ctx)
}

// PrepareSweep does all of a sweep but its trials: it resolves every grid
// point, builds its problem and prescribes every solver there, and
// reports what Sweep would refuse (with the same errors). The trials are
// then run by Run (all of them, or a shard's units), or taken from shards
// run elsewhere by Merge.
func PrepareSweep(ctx context.Context, r spec.Resolved, sw SweepSpec) (*PreparedSweep, error) {
	return prepareSweep(ctx, r, sw, 1)
}

// prepareSweep is PrepareSweep for one of `outer` sweeps that release from
// the same data together (the rows of a two-parameter grid: SweepGrid),
// so that the releases composed and any split of the budget count them all.
func prepareSweep(ctx context.Context, r spec.Resolved, sw SweepSpec, outer int) (*PreparedSweep, error) {
	start := time.Now()
	names := sw.Solvers
	if len(names) == 0 {
		names = []string{r.Solver.Name()}
	}
	names, notes := spec.CanonicalNames(names)
	if len(sw.Solvers) > 0 {
		sw.Solvers = names
	}
	prescribedClip := math.NaN()
	var holds map[string]heldSchedule
	if sw.tradeOff() {
		var err error
		var held []string
		if r, prescribedClip, held, holds, err = tradeOffBase(ctx, r, &sw, names); err != nil {
			return nil, err
		}
		notes = append(notes, held...)
	}
	if err := sw.validate(); err != nil {
		return nil, err
	}
	if sw.Param == spec.SweepD {
		if r.Spec.Data != "" {
			return nil, sweepErr("sweep", "the dimension of user data is fixed by its columns; sweep n or eps")
		}
		if info, ok := scenarios.Lookup(r.Spec.Scenario); ok && info.FixedD {
			return nil, sweepErr("sweep", "%s has a fixed dimension d = %d; sweep n or eps", r.Spec.Scenario, info.D)
		}
	}
	if err := splitAllowed(r, names); err != nil {
		return nil, err
	}
	if sw.Param == spec.SweepEps && r.Spec.SplitBudget {
		return nil, sweepErr("split-budget", "a sweep of eps varies the budget itself, so there is no one total to split; sweep n, or leave --split-budget out (the output states the total)")
	}
	grid := sw.Grid()
	releases := r.Releases(len(names), len(grid)*max(outer, 1))
	rep := &SweepReport{Sweep: sw, Solvers: names, PrescribedClip: prescribedClip, NoiseOff: sw.tradeOff(), Notes: notes}
	var units []*unit
	for i, v := range grid {
		at := fmt.Sprintf("at %s = %s: ", sw.Param, theory.FormatNumber(v))
		pr, err := r.At(sw.Param, v)
		if err != nil {
			var se *spec.SpecError
			if errors.As(err, &se) {
				return nil, sweepErr("to", "%s%s", at, se.Error())
			}
			return nil, err
		}
		if pr, err = pr.ForReleases(releases); err != nil {
			var se *spec.SpecError
			if errors.As(err, &se) {
				return nil, &spec.SpecError{Field: se.Field, Msg: at + se.Msg}
			}
			return nil, err
		}
		var hs []heldSchedule
		if holds != nil {
			hs = make([]heldSchedule, len(names))
			for si, name := range names {
				hs[si] = holds[name]
			}
		}
		u, err := newUnit(ctx, pr, names, i, hs)
		if err != nil {
			var se *spec.SpecError
			if errors.As(err, &se) {
				return nil, &spec.SpecError{Field: se.Field, Msg: at + se.Msg}
			}
			return nil, fmt.Errorf("%s%w", at, err)
		}
		u.noiseOff = rep.NoiseOff
		units = append(units, u)
	}
	if err := checkResults(r, units); err != nil {
		return nil, err
	}
	p := &PreparedSweep{r: r, header: rep, grid: grid, units: units, start: start, have: make([][]bool, len(units))}
	for i := range p.have {
		p.have[i] = make([]bool, r.Spec.Trials)
	}
	return p, nil
}

// Report assembles the sweep's report from its units' results — the
// slopes, the best points, the privacy total and every other summary are
// computed here, from all the units, so that a sweep run in shards and
// merged reports exactly what one run reports. It refuses while a unit
// has no results, and returns ctx's error if it is cancelled while it
// computes the points' moment profiles.
func (p *PreparedSweep) Report(ctx context.Context) (*SweepReport, error) {
	if missing := p.missing(); len(missing) > 0 {
		return nil, fmt.Errorf("the sweep's results are incomplete: %d of %d units have none (first: %s)", len(missing), len(p.Units()), p.unitText(missing[0]))
	}
	for _, u := range p.units {
		if err := u.finish(ctx); err != nil {
			return nil, err
		}
	}
	h := *p.header
	rep := &h
	sw, names, grid := rep.Sweep, rep.Solvers, p.grid
	elapsed := time.Since(p.start)
	rep.Total = totalOf(p.r, p.units)
	for i, u := range p.units {
		pt := SweepPoint{Value: grid[i]}
		for si := range u.solvers {
			rr := u.report(si, elapsed)
			rr.Total = rep.Total
			pt.Reports = append(pt.Reports, rr)
		}
		rep.Points = append(rep.Points, pt)
	}
	if sw.tradeOff() {
		rep.Best = bestPoints(rep)
		rep.Elapsed = time.Since(p.start)
		if sw.Param == spec.SweepK {
			rep.Bounds = boundSlopes(rep, false)
			for i := range rep.Bounds {
				rep.Bounds[i].Slope = math.NaN()
			}
		}
		return rep, nil
	}
	for si, name := range names {
		xs, ys := make([]float64, 0, len(grid)), make([]float64, 0, len(grid))
		dropped := 0
		for _, pt := range rep.Points {
			m := pt.Reports[si].Excess.Mean
			if m > 0 && !math.IsInf(m, 1) {
				xs = append(xs, math.Log(pt.Value))
				ys = append(ys, math.Log(m))
			} else {
				dropped++
			}
		}
		sl := fitSlope(xs, ys)
		sl.Solver = name
		if dropped > 0 {
			what := "points"
			if dropped == 1 {
				what = "point"
			}
			sl.Note = fmt.Sprintf("%d %s without a positive finite mean excess risk left out of the fit", dropped, what)
		}
		rep.Slopes = append(rep.Slopes, sl)
	}
	rep.Bounds = boundSlopes(rep, sw.Param == spec.SweepN)
	rep.Elapsed = time.Since(p.start)
	return rep, nil
}

// boundSlopes fits each theory bound's log-log slope over the grid, from
// the bounds evaluated at every point (those of the first solver's
// report: the bounds do not depend on the solver).
func boundSlopes(rep *SweepReport, byN bool) []BoundSlope {
	if len(rep.Points) == 0 || len(rep.Points[0].Reports) == 0 {
		return nil
	}
	var out []BoundSlope
	for _, b0 := range rep.Points[0].Reports[0].Bounds {
		bs := BoundSlope{ID: b0.ID, Kind: b0.Kind, Title: b0.Title, Slope: math.NaN()}
		var xs, ys []float64
		ok := true
		for _, p := range rep.Points {
			found := false
			for _, b := range p.Reports[0].Bounds {
				if b.ID != b0.ID {
					continue
				}
				found = true
				if !(b.Value > 0) || math.IsInf(b.Value, 1) {
					ok = false
				}
				xs = append(xs, math.Log(p.Value))
				ys = append(ys, math.Log(b.Value))
				if byN {
					bs.RateN = append(bs.RateN, b.RateN)
				}
			}
			ok = ok && found
		}
		if ok && len(xs) >= 2 {
			_, bs.Slope = stat.LinearRegression(xs, ys, nil, false)
		}
		switch {
		case byN && len(bs.RateN) > 0:
			withholdRate(&bs, rep)
		case rep.Sweep.Param == spec.SweepEps || rep.Sweep.Param == spec.SweepD:
			movedConstants(&bs, rep)
		}
		out = append(out, bs)
	}
	return out
}

// fitSlope is the OLS fit of y on x with its 95% t-interval (see Slope).
func fitSlope(xs, ys []float64) Slope {
	m := len(xs)
	sl := Slope{Slope: math.NaN(), Intercept: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Points: m}
	if m < 2 {
		sl.Note = "a slope needs at least 2 points"
		return sl
	}
	alpha, beta := stat.LinearRegression(xs, ys, nil, false)
	sl.Slope, sl.Intercept = beta, alpha
	if m < 3 {
		sl.Note = "a confidence interval needs at least 3 points"
		return sl
	}
	xbar := stat.Mean(xs, nil)
	var sxx, ssr float64
	for i, x := range xs {
		sxx += (x - xbar) * (x - xbar)
		r := ys[i] - alpha - beta*x
		ssr += r * r
	}
	se := math.Sqrt(ssr / float64(m-2) / sxx)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m - 2)}.Quantile(0.975)
	sl.Lo, sl.Hi = beta-t*se, beta+t*se
	return sl
}

// rangeText is f's range, integers written out in full.
func rangeText(f spec.Field) string {
	if f.Kind == spec.Int {
		return f.RangeText()
	}
	return f.Range.String()
}

// bestPoints finds each solver's grid point with the smallest mean excess
// risk.
func bestPoints(rep *SweepReport) []BestPoint {
	var out []BestPoint
	for si, name := range rep.Solvers {
		b := BestPoint{Solver: name, Value: math.NaN(), Excess: nanEstimate()}
		for _, p := range rep.Points {
			r := p.Reports[si]
			if r.Refused != "" || math.IsNaN(r.Excess.Mean) {
				continue
			}
			if math.IsNaN(b.Excess.Mean) || r.Excess.Mean < b.Excess.Mean {
				b.Value, b.Excess = p.Value, r.Excess
			}
		}
		out = append(out, b)
	}
	return out
}

// changedInputs lists the inputs of bound id (theory.Needs) other than
// the swept parameter that change along the sweep's grid, each with its
// range ("lf from 1 to 10"), those whose log range is at least minSlope
// times the grid's (0: any change).
func changedInputs(id string, rep *SweepReport, minSlope float64) []string {
	var changed []string
	grid := math.Log(rep.Points[len(rep.Points)-1].Value / rep.Points[0].Value)
	for _, name := range theory.Needs(id) {
		if name == rep.Sweep.Param {
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range rep.Points {
			v := theoryInput(p.Reports[0].Theory.Params(), name)
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		if hi > lo*(1+1e-9) && !math.IsInf(hi, 1) && math.Log(hi/lo) >= minSlope*grid {
			changed = append(changed, fmt.Sprintf("%s from %s to %s", name, theory.Sig4.Format(lo), theory.Sig4.Format(hi)))
		}
	}
	return changed
}

// movedConstants says, in an ε or d sweep, when the scenario's constants
// that a bound reads change along the grid enough to move its slope (a
// log range at least 0.05 of the grid's; the hard instances' law depends
// on ε through p = min(1, √d/(n√ρ)); the moments grow with d): the
// bound's slope over the grid is then not its rate in the swept parameter
// at fixed constants, and may even have the other sign (a bound that
// rises with ε) — as withholdRate says for an n sweep.
func movedConstants(bs *BoundSlope, rep *SweepReport) {
	changed := changedInputs(bs.ID, rep, 0.05)
	if len(changed) == 0 {
		return
	}
	sym := map[string]string{spec.SweepEps: "ε", spec.SweepD: "d"}[rep.Sweep.Param]
	rises := ""
	if bs.Slope > 0 && rep.Sweep.Param == spec.SweepEps {
		rises = "it rises with ε because "
	}
	bs.RateNote = rises + "the scenario's constants change with " + sym + " here (" + strings.Join(changed, ", ") +
		"), so this slope is that of the bound's values along this grid, not its rate in " + sym + " at fixed constants"
}

// withholdRate withholds a bound's analytic local rates in n (RateN) when
// they contradict its slope over the grid, and says why in RateNote. The
// rates are partial derivatives at fixed constants; when an input the
// bound reads other than n changes along the grid (the hard instances'
// law depends on n: affine-hard's and mean-hard's p = min(1, √d/(n√ρ))
// moves r̃_2k and L_f), the slope along the sweep is another number, the
// fitted Slope. So when the mean local rate and the fitted slope differ by
// more than 0.05 and such an input changed, RateN is withheld; when they
// differ and nothing changed, the bound changes regime across the grid (a
// min{·,·} changes branch) and the note says that the slope averages the
// local rates.
func withholdRate(bs *BoundSlope, rep *SweepReport) {
	var mean float64
	for _, r := range bs.RateN {
		mean += r
	}
	mean /= float64(len(bs.RateN))
	if math.IsNaN(bs.Slope) || math.IsNaN(mean) || math.Abs(bs.Slope-mean) <= 0.05 {
		return
	}
	if changed := changedInputs(bs.ID, rep, 0); len(changed) > 0 {
		bs.RateN = nil
		bs.RateNote = "local rate withheld: the scenario's constants change with n here (" + strings.Join(changed, ", ") +
			"), so the analytic rate at fixed constants is not the slope along this sweep; the fitted slope is that of the bound's values along this grid"
		return
	}
	bs.RateNote = fmt.Sprintf("the local rate moves from %s to %s across the grid (a regime change): the slope over the grid averages them",
		theory.Rate.Format(bs.RateN[0]), theory.Rate.Format(bs.RateN[len(bs.RateN)-1]))
}

// theoryInput is the input name (theory.Needs) of p.
func theoryInput(p theory.Params, name string) float64 {
	switch name {
	case "d":
		return p.Dim
	case "eps":
		return p.Eps
	case "k":
		return p.K
	case "diam":
		return p.Diam
	case "r2":
		return p.R2
	case "rk":
		return p.Rk
	case "r2k":
		return p.R2k
	case "beta":
		return p.Beta
	case "mu":
		return p.Mu
	case "lf":
		return p.Lf
	case "kappa-f":
		return p.KappaF
	}
	return math.NaN()
}
