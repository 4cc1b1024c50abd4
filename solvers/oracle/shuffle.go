package oracle

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"dpso/solvers/ledger"
	"dpso/theory"
)

func init() {
	register("shuffle-clip",
		"ShuffleMeanOracle1: clip each vector to ℓ2 norm C, sum with Cheu et al.'s P_vec (random rounding + binomial bits, shuffled); (ε, δ)-shuffle DP",
		func() Oracle { return &ShuffleClip{} })
	register("shuffle-coordinate",
		"ShuffleMeanOracle2: clip each coordinate to [−τ, τ], P_1D sum per group and coordinate, median of m group means; (ε, δ)-shuffle DP",
		func() Oracle { return &ShuffleCoordinate{} })
}

// P1DParams describe one design of the scalar protocol P_1D (see the
// paper's Algorithm "alg: P1D"), for display.
type P1DParams struct {
	Users      int     // n, the users of one run
	Range      float64 // τ: inputs lie in [0, τ]
	G          float64 // rounding levels g
	B          float64 // noise bits per user b
	P          float64 // probability p of a noise bit
	Eps, Delta float64 // the (ε, δ) of Lemma "lem:P1D" the design is made for
}

func (q *p1d) params(eps, delta float64) P1DParams {
	return P1DParams{Users: q.n, Range: q.tau, G: q.g, B: q.b, P: q.p, Eps: eps, Delta: delta}
}

// ShuffleClipEpsMax is the largest ε shuffle-clip's protocol is proven
// for: P_vec (Cheu et al. 2021, Theorem 3.2) holds for 0 < ε ≤ 15.
const ShuffleClipEpsMax = 15.0

// ShuffleEpsMax is the largest ε the shuffle oracle name is proven for
// (+Inf when its design states no bound, or for another oracle).
func ShuffleEpsMax(name string) float64 {
	if name == (&ShuffleClip{}).Name() {
		return ShuffleClipEpsMax
	}
	return math.Inf(1)
}

// shuffleBudget validates a shuffle oracle's (ε, δ): private is false for
// ε = +Inf (the protocol without randomization or noise).
func shuffleBudget(name string, b ledger.Cost, epsMax float64) (private bool, err error) {
	if math.IsInf(b.Eps, 1) {
		return false, nil
	}
	switch {
	case !(b.Eps > 0) && math.IsInf(epsMax, 1):
		return false, fmt.Errorf("%s: ε = %s, want ε > 0 (∞ for no privacy)", name, exact(b.Eps))
	case !(b.Eps > 0 && b.Eps <= epsMax):
		return false, fmt.Errorf("%s: ε = %s, want 0 < ε ≤ %s (or ∞ for no privacy)", name, exact(b.Eps), exact(epsMax))
	case !(b.Delta > 0 && b.Delta < 0.5):
		return false, fmt.Errorf("%s: δ = %s, want 0 < δ < 1/2", name, exact(b.Delta))
	}
	return true, nil
}

var errNoRand = errors.New("no random stream for the local randomizers; call oracle.SetRand before Begin")

// ShuffleClip is ShuffleMeanOracle1 (the paper's Algorithm "alg: sdp clip
// MeanOracle"): clip every vector to the ℓ2 ball of radius C and sum the
// clipped vectors with Cheu et al.'s vector protocol P_vec (Algorithm "alg:
// Pvec", Lemma "lem: pvec" = Cheu et al. 2021, Theorem 3.2), which runs
// P_1D (see p1d) on every coordinate shifted into [0, 2C]:
//
//	ν̃_j = (1/s)[ P_1D({x_ij + C}_i) − sC ],  x_i = Π_C(z_i).
//
// (The paper's analyzer writes "o_j ← z_j − L"; removing the shift of all
// s users is − sC. The algorithm outputs the sum; this oracle returns the
// mean, as Lemma "lem: bias and variance of sdp bd14" treats it.)
//
// Privacy: (ε, δ)-shuffle DP for 0 < ε ≤ 15, 0 < δ < 1/2, with every
// coordinate's P_1D designed for (ε_1, δ_1), δ_1 = δ/(2d), and ε_1 the
// largest value with
//
//	e^{ε_1(1+2/g)} (ε_1 K)² + ε_1 K √(2 ln(2/δ)) ≤ ε,  K = 1 + 2√d/g.
//
// Derivation (Cheu et al.'s own per-coordinate split could not be
// consulted; this one is derived here from Lemma "lem:P1D"). Let the
// neighbouring batches differ in user u, with clipped vectors x_u, x'_u.
// The shifted inputs differ by Δ_j = |x_uj − x'_uj|, and ‖Δ‖₂ ≤ 2C. By
// Lemma "lem:P1D"(a) with input range 2C, coordinate j's shuffled view is
// (ε_j, δ_1)-indistinguishable with ε_j = ε_1(2/g + Δ_j/(2C)). The d
// coordinates use independent randomness and the shuffled labelled
// messages are equivalent to the d shuffled per-coordinate views, so the
// advanced composition theorem for heterogeneous ε_j (Dwork, Rothblum &
// Vadhan 2010; Dwork & Roth 2014 Thm 3.20, whose proof bounds each
// privacy loss by ε_j with mean ≤ ε_j(e^{ε_j} − 1) and applies Azuma with
// ranges ε_j) gives, for this pair and any δ̃ > 0,
//
//	ε' = Σ_j ε_j(e^{ε_j} − 1) + √(2 ln(1/δ̃) Σ_j ε_j²),   δ' = dδ_1 + δ̃.
//
// By Minkowski, √(Σ_j ε_j²) ≤ ε_1(2√d/g + ‖Δ‖₂/(2C)) ≤ ε_1K, and
// x(e^x − 1) ≤ x²e^x with ε_j ≤ ε_1(1 + 2/g), so ε' is at most the left
// side above; δ̃ = δ/2 gives δ' = δ. The rounding resolution is
// g = max{2, ⌈√s⌉, ⌈2√d⌉} (pvecG): the smallest that meets Lemma
// "lem:P1D" and keeps K ≤ 2 (with g = ⌈√s⌉ alone, d ≫ s would cost a
// factor d/s). The per-coordinate budget is then ε_1 ≈ ε/(K√(2 ln(2/δ))),
// independent of d, so the variance is O(dC² ln(d/δ) ln(1/δ)/ε²), the
// order of Lemma "lem: pvec" (plain advanced composition over d
// coordinates, ignoring the ℓ2 bound, would give ε_1 ∝ ε/√d and a
// variance d times larger).
//
// Utility: unbiased for the clipped mean (1/s)Σ Π_C(z_i), so the bias is
// MeanOracle1's, ≤ r^{(k)}/((k−1)C^{k−1}); the protocol's noise has
// variance per coordinate exactly (2C/(gs))²[Σ_i frac_i(1 − frac_i) +
// sbp(1 − p)].
//
// Randomness: the rounding in Add draws from the stream set by SetRand
// (required); Finish draws d binomials from its argument.
type ShuffleClip struct {
	d, s          int
	c, eps, delta float64
	private       bool
	eps1, delta1  float64 // per-coordinate P_1D design
	proto         p1d
	acc           []float64 // private: Σ_i rounded shifted values; else running clipped mean
	rng           *rand.Rand
	stats         statsRecorder
}

// Name implements Oracle.
func (*ShuffleClip) Name() string { return "shuffle-clip" }

// Kind implements Oracle.
func (*ShuffleClip) Kind() Kind { return Shuffle }

// Threshold implements Oracle: the ℓ2 threshold is used as is.
func (*ShuffleClip) Threshold(c float64, _ int) float64 { return c }

// SetRand implements LocalRandomizer.
func (o *ShuffleClip) SetRand(r *rand.Rand) { o.rng = r }

// Protocol is the P_1D design every coordinate of the latest call used
// (zero when ε = +Inf).
func (o *ShuffleClip) Protocol() P1DParams {
	if !o.private {
		return P1DParams{}
	}
	return o.proto.params(o.eps1, o.delta1)
}

// pvecG is the rounding resolution of ShuffleClip's P_1D runs:
// g = max{2, ⌈√s⌉, ⌈2√d⌉}, the smallest g that meets Lemma "lem:P1D"
// (g ≥ √s, g ≥ 2) and keeps K = 1 + 2√d/g ≤ 2.
func pvecG(d, s int) float64 {
	return math.Max(math.Max(2, math.Ceil(math.Sqrt(float64(s)))), math.Ceil(2*math.Sqrt(float64(d))))
}

// pvecEps1 is the per-coordinate ε_1 of ShuffleClip: the largest x with
// e^{x(1+2/g)}(xK)² + xK√(2 ln(2/δ)) ≤ ε, found by bisection (the left
// side increases in x; the returned x satisfies the inequality).
func pvecEps1(eps, delta float64, d int, g float64) float64 {
	k := 1 + 2*math.Sqrt(float64(d))/g
	lin := k * math.Sqrt(2*math.Log(2/delta))
	f := func(x float64) float64 { return math.Exp(x*(1+2/g))*(x*k)*(x*k) + x*lin }
	lo, hi := 0.0, eps/lin // f(hi) ≥ eps
	for range 200 {
		mid := (lo + hi) / 2
		if f(mid) <= eps {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= 1e-15*hi {
			break
		}
	}
	return lo
}

// Begin implements Oracle.
func (o *ShuffleClip) Begin(d, s int, c float64, b ledger.Cost) error {
	o.stats.invalidate()
	if err := checkShape(o.Name(), d, s); err != nil {
		return err
	}
	if !(c > 0) {
		return fmt.Errorf("shuffle-clip: clip threshold C = %s, want C > 0", exact(c))
	}
	private, err := shuffleBudget(o.Name(), b, ShuffleClipEpsMax)
	if err != nil {
		return err
	}
	if private && math.IsInf(c, 1) {
		return fmt.Errorf("shuffle-clip: clip threshold C = +Inf has unbounded range; it needs ε = +Inf")
	}
	if private {
		if o.rng == nil {
			return fmt.Errorf("shuffle-clip: %w", errNoRand)
		}
		g := pvecG(d, s)
		o.eps1 = pvecEps1(b.Eps, b.Delta, d, g)
		o.delta1 = b.Delta / (2 * float64(d))
		o.proto, err = newP1D(s, 2*c, o.eps1, o.delta1, g)
		if err != nil {
			return fmt.Errorf("shuffle-clip: ε = %s, δ = %s, d = %d, s = %d: %w", exact(b.Eps), exact(b.Delta), d, s, err)
		}
	}
	o.d, o.s, o.c, o.eps, o.delta, o.private = d, s, c, b.Eps, b.Delta, private
	o.acc = resize(o.acc, d)
	o.stats.begin(s, c)
	return nil
}

// Add implements Oracle: the local randomizer R_vec of one user.
func (o *ShuffleClip) Add(z []float64) {
	o.stats.next(o.Name(), o.d, len(z))
	scale, norm, ok := clipScale(z, o.c)
	if !ok {
		o.stats.record(math.NaN(), false)
		if o.private {
			// The zero vector, shifted: every coordinate sends C.
			for j := range o.acc {
				o.acc[j] += o.proto.round(o.c, o.rng)
			}
		}
		return
	}
	o.stats.record(norm, norm > o.c)
	acc := o.acc[:len(z)]
	if !o.private {
		scale /= float64(o.s)
		for j, v := range z {
			acc[j] += scale * v
		}
		return
	}
	for j, v := range z {
		acc[j] += o.proto.round(scale*v+o.c, o.rng)
	}
}

// Finish implements Oracle: the analyzer A_vec.
func (o *ShuffleClip) Finish(out []float64, r *rand.Rand) Call {
	o.stats.done(o.Name())
	call := Call{Sensitivity: 2 * o.c / float64(o.s), Cost: ledger.Cost{Eps: math.Inf(1)}}
	if !o.private {
		copy(out[:o.d], o.acc)
		call.Stats = o.stats.finish()
		return call
	}
	s := float64(o.s)
	for j := range out[:o.d] {
		out[j] = o.proto.analyze(o.acc[j], r)/s - o.c
	}
	call.Sigma = o.Sigma()
	call.Cost = ledger.Cost{Eps: o.eps, Delta: o.delta}
	call.Stats = o.stats.finish()
	return call
}

// Sigma is an upper bound on the standard deviation per coordinate of the
// protocol's noise in the mean estimate of a call with the parameters of
// the latest Begin, from public quantities only:
// (1/s)√((2C/g)²(sbp(1 − p) + s/4)), the binomial part exactly and the
// rounding part at its maximum 1/4 per user (the exact rounding variance
// depends on the data). 0 when ε = +Inf.
func (o *ShuffleClip) Sigma() float64 {
	if !o.private {
		return 0
	}
	return math.Sqrt(o.proto.noiseVar()+o.proto.roundVarMax()) / float64(o.s)
}

// ShuffleCoordinate is ShuffleMeanOracle2 (the paper's Algorithm "alg: CSDP
// MeanOracle", Proposition "prop: sdp bias var"): the coordinate-wise
// oracle [Coordinate] with every group mean computed by P_1D instead of
// exactly and no Gaussian noise. For every coordinate j and group g,
//
//	ν̃_j^g = (1/|G_g|) P_1D({Π_{[−τ,τ]}(z_ij) + τ}_{i∈G_g}; 2τ; ε_j, δ_j) − τ,
//	ν̃_j = median_g ν̃_j^g,
//
// with the algorithm's ε_j = ε/(4√(2d ln(1/δ_j))) and δ_j = δ/(2d), each
// group size getting its own P_1D design (p1d, with n = |G_g|). Groups are
// as in [Coordinate] (vector i in group i mod m; m = [DefaultGroups] unless
// M is set).
//
// Privacy: the proposition's proof fixes the group of the changed user;
// for each of the d coordinates its P_1D run is (ε_j(2/g + 1), δ_j)-DP by
// Lemma "lem:P1D"(a) (inputs in a range of 2τ differ by at most 2τ), and
// advanced composition (Dwork & Roth Thm 3.20, slack δ_j) over the d
// coordinates gives (ε', (d+1)δ_j ≤ δ) with
//
//	ε' = ε_inv √(2d ln(1/δ_j)) + d ε_inv (e^{ε_inv} − 1),  ε_inv = ε_j(1 + 2/g),
//
// g that of the smallest group. Begin checks ε' ≤ ε and otherwise returns
// an error naming the largest admissible ε. (The proposition assumes
// ε ≤ 8 ln(2d/δ) for this step, but its own last inequality,
// ε²/(4 ln(1/δ_1)) + ε/2 ≤ ε, needs ε ≤ 2 ln(2d/δ); Begin checks ε' ≤ ε
// exactly instead. For example d = 1, δ = 1/4 with groups of at most 4
// (g = 2) admits ε ≤ 4.534.)
//
// Utility (Proposition "prop: sdp bias var"): the bias is that of the
// non-private median of group means (Lemma "lem:4.1"); the noise variance
// is Õ(τ²d ln²(d/δ)/(s²ε²)·m⁴) + the sampling terms.
//
// A vector with a non-finite entry contributes the zero vector (every
// coordinate sends τ after the shift). Randomness as for [ShuffleClip].
type ShuffleCoordinate struct {
	// M is the number of groups m; 0 means [DefaultGroups]. It is capped
	// at s.
	M int

	d, s            int
	tau, eps, delta float64
	epsJ, deltaJ    float64
	private         bool
	lay             groupLayout
	proto           [2]p1d    // [0]: groups of q+1 users, [1]: groups of q
	acc             []float64 // m×d group-major; private: Σ rounded shifted values; else running means
	scratch         []float64
	rng             *rand.Rand
	stats           statsRecorder
}

// Name implements Oracle.
func (*ShuffleCoordinate) Name() string { return "shuffle-coordinate" }

// Kind implements Oracle.
func (*ShuffleCoordinate) Kind() Kind { return Shuffle }

// Threshold implements Oracle: τ = C/√d, as for [Coordinate].
func (*ShuffleCoordinate) Threshold(c float64, d int) float64 { return c / math.Sqrt(float64(d)) }

// SetRand implements LocalRandomizer.
func (o *ShuffleCoordinate) SetRand(r *rand.Rand) { o.rng = r }

// Groups is the number of groups m of the latest call.
func (o *ShuffleCoordinate) Groups() int { return o.lay.m }

// Protocol is the P_1D design of the smallest groups of the latest call
// (zero when ε = +Inf).
func (o *ShuffleCoordinate) Protocol() P1DParams {
	if !o.private {
		return P1DParams{}
	}
	return o.proto[1].params(o.epsJ, o.deltaJ)
}

// csdpEps is the ε' of ShuffleCoordinate's composition at ε, for d
// coordinates, δ_j and the smallest group's g.
func csdpEps(eps float64, d int, deltaJ, g float64) float64 {
	l := math.Sqrt(2 * float64(d) * math.Log(1/deltaJ))
	epsInv := eps / (4 * l) * (1 + 2/g)
	return epsInv*l + float64(d)*epsInv*math.Expm1(epsInv)
}

// csdpEpsMax is the largest ε with csdpEps(ε) ≤ ε (csdpEps(ε)/ε increases
// in ε), by bisection.
func csdpEpsMax(d int, deltaJ, g float64) float64 {
	ok := func(e float64) bool { return csdpEps(e, d, deltaJ, g) <= e }
	lo, hi := 0.0, 1.0
	for ok(hi) && hi < 1e9 {
		lo, hi = hi, 2*hi
	}
	for range 100 {
		mid := (lo + hi) / 2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// Begin implements Oracle.
func (o *ShuffleCoordinate) Begin(d, s int, tau float64, b ledger.Cost) error {
	o.stats.invalidate()
	if err := checkShape(o.Name(), d, s); err != nil {
		return err
	}
	if !(tau > 0) {
		return fmt.Errorf("shuffle-coordinate: clip threshold τ = %s, want τ > 0", exact(tau))
	}
	private, err := shuffleBudget(o.Name(), b, math.Inf(1))
	if err != nil {
		return err
	}
	if private && math.IsInf(tau, 1) {
		return fmt.Errorf("shuffle-coordinate: clip threshold τ = +Inf has unbounded range; it needs ε = +Inf")
	}
	m, err := chooseGroups(o.Name(), o.M, d, s)
	if err != nil {
		return err
	}
	o.lay.begin(s, m)
	if private {
		if o.rng == nil {
			return fmt.Errorf("shuffle-coordinate: %w", errNoRand)
		}
		o.deltaJ = b.Delta / (2 * float64(d))
		o.epsJ = b.Eps / (4 * math.Sqrt(2*float64(d)*math.Log(1/o.deltaJ)))
		q := o.lay.q
		if o.proto[1], err = newP1D(q, 2*tau, o.epsJ, o.deltaJ, 2); err != nil {
			return fmt.Errorf("shuffle-coordinate: ε = %s, δ = %s, d = %d, groups of %d: %w", exact(b.Eps), exact(b.Delta), d, q, err)
		}
		o.proto[0] = o.proto[1]
		if o.lay.r > 0 {
			if o.proto[0], err = newP1D(q+1, 2*tau, o.epsJ, o.deltaJ, 2); err != nil {
				return fmt.Errorf("shuffle-coordinate: ε = %s, δ = %s, d = %d, groups of %d: %w", exact(b.Eps), exact(b.Delta), d, q+1, err)
			}
		}
		if e := csdpEps(b.Eps, d, o.deltaJ, o.proto[1].g); e > b.Eps {
			return fmt.Errorf("shuffle-coordinate: ε = %s, want ε ≤ %s at δ = %s, d = %d (beyond it the composition over d coordinates gives ε' = %s > ε)",
				exact(b.Eps), theory.Sig4.Format(csdpEpsMax(d, o.deltaJ, o.proto[1].g)), exact(b.Delta), d, theory.Sig4.Format(e))
		}
	}
	o.d, o.s, o.tau, o.eps, o.delta, o.private = d, s, tau, b.Eps, b.Delta, private
	o.acc = resize(o.acc, m*d)
	o.scratch = resize(o.scratch, m)
	o.stats.begin(s, tau)
	return nil
}

// Add implements Oracle: the local randomizers of one user, one per
// coordinate, in the user's group.
func (o *ShuffleCoordinate) Add(z []float64) {
	o.stats.next(o.Name(), o.d, len(z))
	g := o.lay.take()
	row := o.acc[g*o.d : (g+1)*o.d]
	proto := &o.proto[1]
	if g < o.lay.r {
		proto = &o.proto[0]
	}
	norm, ok := statNorm(z)
	if !ok {
		o.stats.record(norm, false)
		if o.private {
			for j := range row {
				row[j] += proto.round(o.tau, o.rng)
			}
		}
		return
	}
	if !o.private {
		o.stats.record(norm, clipCoordsAdd(row, z, o.tau, 1/float64(o.lay.size(g))))
		return
	}
	row = row[:len(z)]
	tau := o.tau
	clipped := false
	for j, v := range z {
		if v > tau {
			v, clipped = tau, true
		} else if v < -tau {
			v, clipped = -tau, true
		}
		row[j] += proto.round(v+tau, o.rng)
	}
	o.stats.record(norm, clipped)
}

// Finish implements Oracle: the analyzer, then the medians.
func (o *ShuffleCoordinate) Finish(out []float64, r *rand.Rand) Call {
	o.stats.done(o.Name())
	d, m := o.d, o.lay.m
	for j := range out[:d] {
		for g := range m {
			v := o.acc[g*d+j]
			if o.private {
				k := 1
				if g < o.lay.r {
					k = 0
				}
				v = o.proto[k].analyze(v, r)/float64(o.lay.size(g)) - o.tau
			}
			o.scratch[g] = v
		}
		out[j] = median(o.scratch)
	}
	call := Call{
		Sensitivity: 2 * o.tau * math.Sqrt(float64(d)) / float64(o.lay.q),
		Cost:        ledger.Cost{Eps: math.Inf(1)},
		Stats:       o.stats.finish(),
	}
	if o.private {
		call.Sigma = o.Sigma()
		call.Cost = ledger.Cost{Eps: o.eps, Delta: o.delta}
	}
	return call
}

// Sigma is an upper bound on the standard deviation of the protocol's
// noise in one group mean of the smallest groups (size q) of a call with
// the parameters of the latest Begin: (1/q)√((2τ/g)²(qbp(1 − p) + q/4)),
// the binomial part exact and the rounding part at its maximum. The
// estimate is the median of m such noisy means (the median's noise is of
// the same order, not equal). 0 when ε = +Inf.
func (o *ShuffleCoordinate) Sigma() float64 {
	if !o.private {
		return 0
	}
	p := &o.proto[1]
	return math.Sqrt(p.noiseVar()+p.roundVarMax()) / float64(o.lay.q)
}

// SetDetail implements DetailSetter.
func (o *ShuffleClip) SetDetail(on bool) { o.stats.noDetail = !on }

// SetDetail implements DetailSetter.
func (o *ShuffleCoordinate) SetDetail(on bool) { o.stats.noDetail = !on }
