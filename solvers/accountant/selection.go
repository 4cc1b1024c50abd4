package accountant

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// Profile is an upper bound on a mechanism's privacy profile
// δ(ε) = sup over neighbouring X, Y of H_{e^ε}(M(X) ‖ M(Y)), the
// hockey-stick divergence ∫ (dP − e^ε dP')₊, in both directions (X, Y in
// either order), tabulated at ε_k = Lo + k·Step: Delta[k] ≥ δ(ε_k). Since
// a true profile does not increase in ε, [Profile.At] reads the grid point
// at or below ε: an upper bound at every ε.
type Profile struct {
	Lo, Step float64
	Delta    []float64
}

// Profile grid: ε from profileLo to profileLo + (profileN − 1)·profileStep,
// a power of two apart (the grid points are exact in binary).
const (
	profileLo   = -4.0
	profileStep = 1.0 / 1024
	profileN    = 72 * 1024
)

// At is the bound at ε: the tabulated value at the grid point at or below
// ε, 1 below the grid (a hockey-stick divergence is at most 1), the last
// value above it.
func (p Profile) At(eps float64) float64 {
	if !(eps >= p.Lo) || len(p.Delta) == 0 {
		return 1
	}
	k := int(math.Floor((eps - p.Lo) / p.Step))
	if k >= len(p.Delta) {
		k = len(p.Delta) - 1
	}
	return p.Delta[k]
}

func newProfile() Profile {
	return Profile{Lo: profileLo, Step: profileStep, Delta: make([]float64, profileN)}
}

func (p Profile) eps(k int) float64 { return p.Lo + float64(k)*p.Step }

// GaussianProfile is the exact profile of the Gaussian mechanism whose
// noise is z times its ℓ2 sensitivity (Balle & Wang 2018, Theorem 8), at
// every real ε, with μ = 1/z:
//
//	δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2).
func GaussianProfile(z float64) Profile {
	p := newProfile()
	mu := 1 / z
	for k := range p.Delta {
		e := p.eps(k)
		p.Delta[k] = math.Max(0, normCDF(-e/mu+mu/2)-math.Exp(e)*normCDF(-e/mu-mu/2))
	}
	return p
}

// SubsampledGaussianProfile is the profile of m (T Poisson-subsampled
// Gaussian steps) read off its composed pessimistic privacy loss
// distribution ([PLDEpsilon]'s): δ(ε) = m_∞ + Σ_{ℓ > ε} p_ℓ (1 − e^{ε−ℓ}),
// under add/remove the larger of its two directions. Connect-the-dots
// discretisation gives a dominating pair, so every value is an upper bound.
func SubsampledGaussianProfile(m Mechanism, o PLDOptions) (Profile, error) {
	if err := m.check(); err != nil {
		return Profile{}, err
	}
	p := newProfile()
	if e, ok := m.trivial(); ok {
		for k := range p.Delta {
			if !(p.eps(k) >= e) {
				// e = 0 (q = 0 or σ = ∞): the two outputs are the same
				// law, δ(ε) = (1 − e^ε)₊; e = ∞ (σ = 0): no privacy, 1.
				p.Delta[k] = 1 - math.Exp(math.Min(0, p.eps(k)))
				if math.IsInf(e, 1) {
					p.Delta[k] = 1
				}
			}
		}
		return p, nil
	}
	ps, _, err := composedPLD(m, o)
	if err != nil {
		return Profile{}, err
	}
	for _, d := range ps {
		tabulate(d, p)
	}
	return p, nil
}

// tabulate raises p.Delta[k] to d's δ(ε_k), scanning the losses from the
// top: with i the lowest index whose loss ℓ_i exceeds ε, U = m_∞ + Σ_{j≥i}
// p_j and B = Σ_{j≥i} p_j e^{−(ℓ_j−ℓ_i)} (≤ U, so no underflow),
// δ(ε) = U − e^{ε−ℓ_i}·B.
func tabulate(d *pmf, p Profile) {
	n := len(d.probs)
	eh := math.Exp(-d.h)
	i := n // nothing above yet
	U, B := d.inf, 0.0
	for k := len(p.Delta) - 1; k >= 0; k-- {
		e := p.eps(k)
		for i > 0 && float64(d.lower+i-1)*d.h > e {
			i--
			U += d.probs[i]
			B = d.probs[i] + eh*B
		}
		v := U
		if i < n {
			v = U - math.Exp(e-float64(d.lower+i)*d.h)*B
		}
		p.Delta[k] = math.Max(p.Delta[k], math.Max(0, math.Min(1, v)))
	}
}

// MaxProfile is the pointwise maximum of profiles on the same grid: the
// profile of a mechanism that runs one of several mechanisms, chosen
// independently of the data, and releases which it ran (joint convexity of
// the hockey-stick divergence), or of mechanisms that read disjoint rows
// (parallel composition under replace-one).
func MaxProfile(ps ...Profile) Profile {
	out := newProfile()
	for _, p := range ps {
		for k := range out.Delta {
			out.Delta[k] = math.Max(out.Delta[k], p.At(out.eps(k)))
		}
	}
	return out
}

// SelectionShift is the ε₂ of [SelectionEpsilon]'s theorem for K ~ r and
// a base mechanism with profile q: the smallest, over ε₃ ≥ 0 on q's grid,
// of an upper bound on ln sup_y φ'(F(y))/φ'(F'(y)), where φ is K's
// probability generating function and F, F' the base mechanism's
// distribution functions (in the selection's order) on two neighbouring
// datasets. With G = 1 − F, G' = 1 − F' the probabilities of beating y,
// the base mechanism's (ε₃, δ₃)-DP on the sets {beats y} in both
// directions gives G' ≤ u(G) = min(1, e^{ε₃}G + δ₃, 1 − e^{−ε₃}(1 − G − δ₃)),
// and
//
//   - truncated negative binomial D_{η,γ} (η ≥ 0):
//     φ'(F) ∝ (γ + (1 − γ)G)^{−(η+1)}, so the ratio is at most
//     ((γ + (1 − γ)u(G))/(γ + (1 − γ)G))^{η+1};
//   - Poisson(μ): φ'(F) = μe^{−μG}, so the ratio is at most e^{μ(u(G) − G)}.
//
// u is the minimum of three lines, so on each piece between its
// breakpoints (0, 1, (1 − δ₃)e^{−ε₃}, 1 − δ₃, (1 − δ₃)/(e^{ε₃} + 1)) either
// bound is monotone in G (a ratio of affine functions, or affine): the
// supremum over G ∈ [0, 1] is the largest value at those points. It
// returns ε₂ and the ε₃ attaining it.
func SelectionShift(r Repetitions, q Profile) (eps2, eps3 float64, err error) {
	if err := r.Check(); err != nil {
		return math.NaN(), math.NaN(), err
	}
	gamma := r.Gamma()
	bound := func(e3, d3 float64) float64 {
		d3 = math.Min(1, d3)
		ee := math.Exp(e3)
		u := func(g float64) float64 {
			return math.Min(1, math.Min(ee*g+d3, 1-(1-g-d3)/ee))
		}
		best := 0.0
		for _, g := range []float64{0, 1, (1 - d3) / ee, 1 - d3, (1 - d3) / (ee + 1)} {
			if !(g >= 0 && g <= 1) {
				continue
			}
			var v float64
			if r.Poisson() {
				v = r.Mean * (u(g) - g)
			} else {
				v = (1 + r.Shape) * math.Log((gamma+(1-gamma)*u(g))/(gamma+(1-gamma)*g))
			}
			best = math.Max(best, v)
		}
		return best
	}
	eps2, eps3 = math.Inf(1), math.NaN()
	for k := range q.Delta {
		e := q.eps(k)
		if e < 0 {
			continue
		}
		if v := bound(e, q.Delta[k]); v < eps2 {
			eps2, eps3 = v, e
		}
	}
	if math.IsInf(eps2, 1) {
		return math.NaN(), math.NaN(), errors.New("accountant: the profile has no ε ≥ 0")
	}
	return eps2, eps3, nil
}

// SelectionMean is φ'(1) = E[K] of the law the search samples: the
// truncated negative binomial at γ = r.Gamma() (TNBMean, at least r.Mean),
// the Poisson mean.
func SelectionMean(r Repetitions) float64 {
	if r.Poisson() {
		return r.Mean
	}
	return TNBMean(r.Gamma(), r.Shape)
}

// SelectionEpsilon is ε' at δ of a private selection — K ~ r independent
// runs of a base mechanism Q whose privacy profile is at most q, the run
// with the best score released (ties broken at random; nothing when
// K = 0) — composed after a ρ_f-zCDP release (ρ_f ≥ 0) that the runs may
// depend on. It follows the privacy-profile approach of Koskela, Redberg
// & Wang ("Privacy Profiles for Private Selection", ICML 2024): the
// selection's profile from the base mechanism's. The statement and proof
// below are this package's own (only the paper's abstract could be
// consulted when it was written); scripts/privacy/selection_golden.py
// computes the same bound by another route.
//
// Theorem. Let φ(z) = E[z^K] with E[K] < ∞ and ε₂ the shift of
// [SelectionShift]. For every real ε₁ the selection A satisfies, for
// neighbouring X, Y in either order,
//
//	H_{e^{ε₁+ε₂}}(A(X) ‖ A(Y)) ≤ E[K]·δ_Q(ε₁) + (1 − e^{ε₁+ε₂})₊·P[K = 0].
//
// Proof. Break ties by an independent uniform label (a data-independent
// addition to the output, which only raises divergences), so that the
// order has no atoms. The best of k independent runs lands in a set S with
// probability k∫_S F^{k−1} dP, so off the event K = 0 the output of A(X)
// has density φ'(F) with respect to P = Q(X); the event K = 0 has the
// same probability on both datasets and adds (1 − e^ε)₊·P[K = 0].
// Pointwise, with p, p' the densities of P, P' = Q(Y) and a = φ'(F),
// b = φ'(F'),
//
//	a p − e^{ε₁+ε₂} b p' = a(p − e^{ε₁}p') + e^{ε₁}p'(a − e^{ε₂}b)
//	                     ≤ a(p − e^{ε₁}p')₊ + e^{ε₁}p'(a − e^{ε₂}b)₊.
//
// The second term is 0 since a ≤ e^{ε₂}b everywhere (SelectionShift), and
// a ≤ φ'(1) = E[K] (φ' does not decrease), so the positive part integrates
// to at most E[K]·H_{e^{ε₁}}(P ‖ P') ≤ E[K]·δ_Q(ε₁). ∎
//
// With pure ε-DP Q (δ_Q = 0 from ε on) it gives ε' ≤ (2 + η)ε for the
// truncated negative binomial (ε₃ = ε: the ratio is largest at
// G = 1/(e^ε + 1), below e^ε), Papernot & Steinke's pure-DP bound.
//
// So the selection's profile is at most h(ε) = min(1, E[K]·q(ε − ε₂)
// + (1 − e^ε)₊·P[K = 0]). The ρ_f-zCDP release R comes first: conditioning
// on its output o, with privacy loss ℓ(o), the pair's divergence is
// E_{o∼R(X)}[H_{e^{ε−ℓ(o)}}(A_o(X) ‖ A_o(Y))] ≤ E[g(ℓ)] with
// g(t) = h(ε − t), non-decreasing in t with values in [0, 1], and ρ_f-zCDP
// bounds the tail P[ℓ > t] ≤ e^{−(t−ρ_f)²/(4ρ_f)} for t ≥ ρ_f (Chernoff
// at the order (t + ρ_f)/(2ρ_f)). On a grid t₀ = ρ_f < t₁ < … < t_N
// (step min(2⁻⁹, ρ_f/64), up to a tail of e^{−800}), summation by parts gives
//
//	E[g(ℓ)] ≤ g(t₀) + Σ_i (g(t_{i+1}) − g(t_i))·P[ℓ > t_i] + (1 − g(t_N))·P[ℓ > t_N].
//
// ε' is the smallest ε on a 2⁻²⁰ grid whose bound is at most δ (+Inf past
// 1024).
func SelectionEpsilon(q Profile, r Repetitions, fixedRho, delta float64) (float64, error) {
	if err := checkDelta(delta); err != nil {
		return math.NaN(), err
	}
	if !(fixedRho >= 0) || math.IsInf(fixedRho, 1) {
		return math.NaN(), fmt.Errorf("accountant: the fixed release's ρ = %g is not a finite ρ ≥ 0", fixedRho)
	}
	eps2, _, err := SelectionShift(r, q)
	if err != nil {
		return math.NaN(), err
	}
	mean := SelectionMean(r)
	atom := 0.0
	if r.Poisson() {
		atom = math.Exp(-r.Mean)
	}
	h := func(e float64) float64 {
		v := math.Min(1, mean*q.At(e-eps2))
		if e < 0 {
			v = math.Min(1, v+(1-math.Exp(e))*atom)
		}
		return v
	}
	return smallestEpsilon(afterZCDP(h, fixedRho), delta), nil
}

// SelectionNoise is [CalibrateSelection]'s answer.
type SelectionNoise struct {
	// Factor is f: every noise multiplier of the search times f.
	Factor float64
	// Eps is the search's ε' at δ by [SelectionEpsilon] at Factor; Shift
	// its ε₂ ([SelectionShift]).
	Eps, Shift float64
}

// CalibrateSelection is the smallest common factor f ∈ [10⁻⁶, 1] (to
// relative [CalibrateTol]) by which a search's noise multipliers can be
// multiplied with the search still meeting (ε', δ) by [SelectionEpsilon]:
// a candidate runs one of the mechanisms ms (each at its reference σ,
// times f; its profile read off its PLD, [SubsampledGaussianProfile] with
// options o) — which one is chosen independently of the data and
// released — beside its score, a Gaussian mechanism at noise multiplier
// f·scoreZ on other rows; the candidate's profile is their pointwise
// maximum ([MaxProfile]). ok is false when f = 1 misses the target (the
// reference σ are not enough for this accountant). ctx cancels between
// evaluations.
func CalibrateSelection(ctx context.Context, ms []Mechanism, scoreZ float64, r Repetitions, fixedRho, epsTarget, delta float64, o PLDOptions) (n SelectionNoise, ok bool, err error) {
	if len(ms) == 0 || !(scoreZ > 0) || !(epsTarget > 0) {
		return n, false, fmt.Errorf("accountant: a selection of %d mechanisms with score noise %g and target ε' = %g", len(ms), scoreZ, epsTarget)
	}
	profile := func(f float64) (Profile, error) {
		ps := make([]Profile, len(ms)+1)
		errs := make([]error, len(ms))
		var g errgroup.Group
		g.SetLimit(runtime.GOMAXPROCS(0))
		for i, m := range ms {
			g.Go(func() error {
				m.Sigma *= f
				ps[i], errs[i] = SubsampledGaussianProfile(m, o)
				return nil
			})
		}
		g.Wait()
		if err := errors.Join(errs...); err != nil {
			return Profile{}, err
		}
		ps[len(ms)] = GaussianProfile(f * scoreZ)
		return MaxProfile(ps...), nil
	}
	eps := func(f float64) (float64, error) {
		if err := ctx.Err(); err != nil {
			return math.NaN(), err
		}
		p, err := profile(f)
		if err != nil {
			return math.NaN(), err
		}
		return SelectionEpsilon(p, r, fixedRho, delta)
	}
	e1, err := eps(1)
	if err != nil || !(e1 <= epsTarget) {
		return n, false, err
	}
	f, err := smallestMeeting(eps, epsTarget, 1, 1.05, 1)
	if err != nil {
		return n, false, err
	}
	p, err := profile(f)
	if err != nil {
		return n, false, err
	}
	n.Factor = f
	if n.Shift, _, err = SelectionShift(r, p); err != nil {
		return n, false, err
	}
	if n.Eps, err = SelectionEpsilon(p, r, fixedRho, delta); err != nil {
		return n, false, err
	}
	if !(n.Eps <= epsTarget) {
		return n, false, fmt.Errorf("accountant: the selection's ε' = %g is above the target %g (a bug)", n.Eps, epsTarget)
	}
	return n, true, nil
}
