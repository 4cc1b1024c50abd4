package engine

import (
	"fmt"
	"math"

	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/solvers/ledger"
	"dpso/theory"
)

// PrivacyTotal is what everything one call (a run, a comparison, a sweep)
// released from the same data costs together, composed from the trials'
// ledgers.
//
// On user rows every trial, every solver and every sweep point read the
// same rows: Spent is the sum over all releases of each release's ledger
// maximum (ρ's add under zCDP composition, Bun & Steinke 2016 Lemma 2.3;
// ε's and δ's add by basic composition, Dwork & Roth 2014 Theorem 3.16) —
// an upper bound on the total of any one row, exact when every release
// reads every row. On a scenario each trial draws fresh data from a public
// distribution, so trials do not compose: Spent is the largest over trials
// of the sum over that trial's solvers and points, which share its draw.
type PrivacyTotal struct {
	// UserRows: the data are the user's rows (see spec.Resolved.UserRows).
	UserRows bool
	// Composition is the call's: m releases, split or not, the budget as
	// given.
	Composition spec.Composition
	// Spent is the composed cost (see the type's doc); a component is
	// +Inf when some release was not private (the baseline nonprivate-schedule, ε = ∞).
	Spent ledger.Cost
	// Planned: Spent is the budget times the releases a run would make
	// (a prescription), not read from ledgers.
	Planned bool
	// ConvDelta is the δ at which the zCDP part is stated as (ε', δ): the
	// run's conversion δ (spec.Privacy.Delta), or for a shuffle run
	// spec.DefaultConversionDelta.
	ConvDelta float64
	// Shares is the number of releases the budget was planned for (with
	// --split-budget each got 1/Shares of it); Composition.Releases is
	// the number that ran (a refusal releases nothing).
	Shares int
	// NotPrivate says why the releases are not covered although their
	// ledgers are finite (spec.Resolved.NotPrivate: seeded noise or
	// estimated constants on user data): the total is then no guarantee
	// either (Covered).
	NotPrivate []string
	// NoiseOff is the number of noise-off runs (a clip or k sweep's
	// second run of each trial, solvers.Config.NoNoise) among what the
	// call computed: per draw on a scenario, over all trials on the
	// user's rows. They read the data without noise: on a scenario the
	// draw's (totalOf adds the reason to NotPrivate, as the comparison
	// says of its noise-free baseline), on the user's rows non-private
	// diagnostics like every number measured on the rows.
	NoiseOff int
}

// Covered reports whether the total is a privacy guarantee: every release
// was private (Private) and nothing else voids it (NotPrivate).
func (t PrivacyTotal) Covered() bool { return t.Private() && len(t.NotPrivate) == 0 }

// convDelta is the δ of r's (ε', δ) statements.
func convDelta(r spec.Resolved) float64 {
	if r.Privacy.Model != spec.Shuffle && r.Privacy.Delta > 0 {
		return r.Privacy.Delta
	}
	return spec.DefaultConversionDelta
}

// Private reports whether every release was private (no component of
// Spent is infinite).
func (t PrivacyTotal) Private() bool {
	return !math.IsInf(t.Spent.Rho, 1) && !math.IsInf(t.Spent.Eps, 1) && !math.IsInf(t.Spent.Delta, 1)
}

// Mixed reports whether the total composes zCDP releases with (ε, δ)
// ones (a shuffle oracle's, an accountant's): their sum is then stated as
// (ε', δ) by basic composition of the zCDP part's conversion and the (ε,
// δ) part, a conservative bound.
func (t PrivacyTotal) Mixed() bool { return t.Spent.Rho > 0 && t.Spent.Eps > 0 }

// totalOf composes the ledgers of every (unit, solver, trial) that ran.
// A solver that refused released nothing and is not counted among the
// releases (the split, when asked, was planned with it: each release's
// share stays what it was given).
func totalOf(r spec.Resolved, units []*unit) PrivacyTotal {
	t := PrivacyTotal{UserRows: r.UserRows(), Composition: r.Composition, ConvDelta: convDelta(r), NotPrivate: r.NotPrivate()}
	if len(units) > 0 {
		t.Composition = units[0].run.Composition
	}
	trials := r.Spec.Trials
	perTrial := make([]ledger.Cost, trials)
	released, noiseOff := 0, 0
	for _, u := range units {
		for si := range u.solvers {
			if u.refused[si] != "" {
				continue
			}
			released++
			if u.noiseOff {
				noiseOff++
			}
			for tr, res := range u.results[si] {
				perTrial[tr] = perTrial[tr].Add(res.Spent)
			}
		}
	}
	if t.UserRows {
		released, noiseOff = released*trials, noiseOff*trials
	}
	t.NoiseOff = noiseOff
	if noiseOff > 0 && !t.UserRows {
		t.NotPrivate = append(t.NotPrivate, NoiseOffNotPrivate(noiseOff))
	}
	t.Shares = t.Composition.Releases
	if len(units) > 0 {
		t.Composition.Releases = released
	}
	for _, c := range perTrial {
		if t.UserRows {
			t.Spent = t.Spent.Add(c)
		} else {
			t.Spent = ledger.Cost{Rho: math.Max(t.Spent.Rho, c.Rho), Eps: math.Max(t.Spent.Eps, c.Eps), Delta: math.Max(t.Spent.Delta, c.Delta)}
		}
	}
	return t
}

// NoiseOffNotPrivate is why a call that ran m noise-off runs on each
// scenario draw is not private per draw: they are releases of the draw
// without noise (the sweep's noise-off column).
func NoiseOffNotPrivate(m int) string {
	runs := "the noise-off run"
	if m > 1 {
		runs = fmt.Sprintf("the %d noise-off runs", m)
	}
	return runs + " of each trial read its draw without noise (the noise-off column is a release without noise), so what the sweep shows is not private on the draw"
}

// plannedTotal is the total a run of r would spend: its per-release
// budget times the releases (r.Composition).
func plannedTotal(r spec.Resolved) PrivacyTotal {
	m := float64(max(r.Composition.Releases, 1))
	if !r.UserRows() {
		m = 1 // one solver, one draw per trial
	}
	c := r.Privacy.Cost()
	if !r.Privacy.Private() {
		c = ledger.Cost{Rho: math.Inf(1)}
	}
	return PrivacyTotal{UserRows: r.UserRows(), Composition: r.Composition, Planned: true, ConvDelta: convDelta(r), NotPrivate: r.NotPrivate(),
		Spent: ledger.Cost{Rho: c.Rho * m, Eps: c.Eps * m, Delta: c.Delta * m}}
}

// checkParams refuses a prescription whose numbers are not finite: a
// noise σ of +Inf or NaN, a clip threshold C of NaN (or +Inf with noise),
// a step-size parameter that is not finite — what a clip threshold, a
// declared constant or an ε at the edge of float64 produces (σ ∝ C/(sε)).
// The error names the flag the user typed that caused it: --clip or
// --step when overridden, else the first declared constant given (--rk,
// --r2k, --r2, --lf, --beta, --mu), else --eps.
func checkParams(r spec.Resolved, solver string, par solvers.Params) error {
	type val struct {
		name string
		x    float64
	}
	phases := par.Phases
	if len(phases) == 0 {
		phases = []solvers.Phase{{Clip: par.Clip, Sigma: par.Sigma, Step: par.Step}}
	}
	var bad *val
	for _, ph := range phases {
		noClip := math.IsInf(ph.Clip, 1) && ph.Sigma == 0 // sgd, ε = ∞
		for _, v := range []val{{"σ", ph.Sigma}, {"C", ph.Clip}, {"step", ph.Step}} {
			ok := !math.IsNaN(v.x) && !math.IsInf(v.x, 0)
			if v.name == "C" && noClip {
				ok = true
			}
			if !ok && bad == nil {
				bad = &v
			}
		}
	}
	if bad == nil {
		return nil
	}
	// Blame the value the user typed that is farthest from 1 in orders of
	// magnitude (the parameters are products and ratios of them): a
	// --diam of 10⁻³²⁰ rather than the default ε. Untyped (0) values are
	// defaults, and ε is the last resort.
	s := r.Spec
	flag := "eps"
	far := math.Abs(math.Log10(r.Privacy.Eps))
	if math.IsNaN(far) || math.IsInf(far, 0) {
		far = 0
	}
	if s.Clip > 0 {
		flag, far = "clip", math.Inf(1)
	} else if s.Step > 0 && bad.name == "step" {
		flag, far = "step", math.Inf(1)
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"diam", s.Diam}, {"rk", s.Rk}, {"r2k", s.R2k}, {"r2", s.R2}, {"lf", s.Lf}, {"beta", s.Beta}, {"mu", s.Mu}} {
		if x := math.Abs(math.Log10(c.v)); c.v > 0 && x > far {
			flag, far = c.name, x
		}
	}
	num := func(x float64) string {
		if math.IsNaN(x) {
			return "undefined"
		}
		return theory.Sig6.Format(x)
	}
	head := bad.name + " = " + num(bad.x)
	if math.IsNaN(bad.x) {
		head = bad.name + " is undefined (0/0 or ∞/∞ in float64)"
	}
	return &spec.SpecError{Field: flag, Msg: fmt.Sprintf(
		"%s's parameters leave float64's range: %s (C = %s, σ = %s, step = %s at ε = %s), so no noise level or step can be computed; use a less extreme --%s",
		solver, head, num(par.Clip), num(par.Sigma), num(par.Step), theory.Sig6.Format(r.Privacy.Eps), flag)}
}

// splitAllowed refuses --split-budget for a call with a solver accounted
// as a whole (dp-sgd): its (ε', δ) composes with the other releases only
// by basic composition, so no share of the zCDP ε keeps the total at the
// ε given. Without --split-budget such a call runs and its total is
// stated conservatively (PrivacyTotal.Mixed).
func splitAllowed(r spec.Resolved, names []string) error {
	if !r.Spec.SplitBudget {
		return nil
	}
	for _, n := range names {
		if d, ok := solvers.DescriptorOf(n); ok && d.Accounted {
			return &spec.SpecError{Field: "split-budget", Msg: fmt.Sprintf(
				"%s is accounted as a whole ((ε', δ)-DP by its accountant); its releases compose with the others only by basic composition, so no share of ε keeps the total at --eps; leave --split-budget out (the output states the conservative total)", n)}
		}
	}
	return nil
}
