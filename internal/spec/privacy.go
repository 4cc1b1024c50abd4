package spec

import (
	"errors"
	"fmt"
	"math"

	"dpso/solvers"
	"dpso/theory"
)

// checkEps refuses a finite ε above MaxEps (the field's range refuses
// those below MinEps): there ρ = ε²/2 overflows to +Inf (ε ≳ 1.3e154),
// which would silently make the run non-private, or the noise σ ∝ 1/ε
// underflows to nothing. Below MinEps ρ underflows to 0 (ε ≲ 1e-162) or
// σ overflows.
func checkEps(eps float64) error {
	if math.IsInf(eps, 1) || eps <= MaxEps {
		return nil
	}
	return specErr("eps", "ε = %s is too large for a private run: finite values are at most %s (ρ = ε²/2 = %s would add no noise at all); give inf for no privacy",
		theory.FormatNumber(eps), theory.FormatNumber(MaxEps), theory.FormatNumber(theory.Rho(eps)))
}

// Composition is how a call's budget relates to everything it releases
// from the same data. On user data (the rows are the private data) every
// trial, every solver of a comparison and every point of a sweep reads the
// same rows, so their outputs compose: the total is m releases' costs
// (ρ's add under zCDP composition; (ε, δ)'s add by basic composition). On
// a scenario each trial draws fresh data from a public distribution, so
// trials do not compose; the solvers and sweep points of one trial share
// its draw, and compose on it.
type Composition struct {
	// Releases is m, the number of outputs computed from the same data:
	// trials × solvers × sweep points on user rows, solvers × sweep points
	// per trial on a scenario.
	Releases int
	// Split: the budget given (Requested) is the total, and each release
	// gets its m-th part (Spec.SplitBudget).
	Split bool
	// Requested is the budget as given by the Spec (ε, and δ for the
	// shuffle oracles): each release's when not Split, the total when
	// Split.
	Requested Privacy
}

// Share is p's m-th part: ρ/m under zCDP (ε/√m), (ε/m, δ/m) for the
// shuffle model, so that m releases compose back to p (zCDP composition;
// basic composition). ok is false for a model without a share rule (a new
// PrivacyModel must add its own here before --split-budget can serve it).
func (p Privacy) Share(m int) (share Privacy, ok bool) {
	if m <= 1 || !p.Private() {
		return p, true
	}
	switch p.Model {
	case ZCDP:
		// δ stays the conversion's δ; ε' is re-stated at it.
		eps := p.Eps / math.Sqrt(float64(m))
		return Privacy{Model: ZCDP, Eps: eps, Rho: theory.Rho(eps), Delta: p.Delta, EpsDelta: theory.EpsExact(eps, p.Delta)}, true
	case Shuffle:
		eps := p.Eps / float64(m)
		return Privacy{Model: Shuffle, Eps: eps, Delta: p.Delta / float64(m), EpsDelta: eps}, true
	}
	// An accountant's (ε', δ) composes with the others only by basic
	// composition, and no share of the zCDP ε keeps that at the total.
	return p, false
}

// Releases is the number of outputs a call that runs `solvers` solvers at
// `points` sweep points releases from the same data: × the trials on user
// rows (every trial reads them again), per trial on a scenario.
func (r Resolved) Releases(solvers, points int) int {
	m := max(solvers, 1) * max(points, 1)
	if r.UserRows() {
		m *= r.Spec.Trials
	}
	return m
}

// ForReleases is r for a call that releases m outputs from the same data
// (see Releases): with Spec.SplitBudget each gets the m-th part of the
// budget (Privacy.Share), which the problem (its theory bounds, a hard
// instance's law) and the solvers then use; without it each gets the full
// budget. The Spec keeps the ε the user gave. A share whose ε leaves
// [MinEps, MaxEps] is refused on "eps".
func (r Resolved) ForReleases(m int) (Resolved, error) {
	m = max(m, 1)
	out := r
	out.Composition = Composition{Releases: m, Requested: r.Composition.Requested}
	if !r.Spec.SplitBudget || m == 1 {
		out.Composition.Split = r.Spec.SplitBudget
		return out, nil
	}
	share, ok := r.Composition.Requested.Share(m)
	if !ok {
		return Resolved{}, specErr("split-budget", "this privacy model has no rule for sharing its budget among %d releases yet; leave --split-budget out (the output states the total)", m)
	}
	s := r.Spec.Clone()
	s.Eps = share.Eps
	if share.Model == Shuffle {
		s.Delta = share.Delta
	}
	rr, err := s.Resolve()
	if err != nil {
		var se *SpecError
		if errors.As(err, &se) && se.Field == "eps" {
			return Resolved{}, specErr("eps", "--split-budget gives each of the %d releases ε = %s: %s", m, theory.FormatNumber(share.Eps), se.Msg)
		}
		return Resolved{}, err
	}
	rr.Spec.Eps, rr.Spec.Delta = r.Spec.Eps, r.Spec.Delta
	rr.Privacy = share
	rr.Composition = Composition{Releases: m, Split: true, Requested: r.Composition.Requested}
	return rr, nil
}

// NotPrivate lists why the outputs of r are not covered by a privacy
// guarantee, in words (empty when they are, as far as the Spec decides: a
// non-private baseline solver says so in its own report): ε = ∞; on user
// data, seeded noise (anyone who knows the seed removes it) or constants
// estimated from the rows.
func (r Resolved) NotPrivate() []string {
	var why []string
	if !r.Privacy.Private() {
		why = append(why, "ε = ∞: no noise is added")
	}
	if r.UserRows() && r.Rand == solvers.Seeded {
		why = append(why, fmt.Sprintf("seeded noise on user data (--rand seeded, seed %d): anyone who knows the seed can remove the noise — reproducible, for debugging only", r.Spec.Seed))
	}
	if r.UserRows() && r.Spec.EstimateConstants {
		why = append(why, "constants estimated from the data (--estimate-constants): the prescription itself reads the rows")
	}
	return why
}
