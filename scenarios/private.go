package scenarios

import (
	"context"
	"errors"
	"fmt"
	"math"

	"dpso/solvers"
	"dpso/solvers/estimate"
	"dpso/solvers/noise"
	"dpso/theory"
)

// MaxEstimateRows caps the rows a private estimate reads (the first ones
// of the trial's dataset, which is in random order): 2·10⁶ rows give the
// moments to far better than their noise, and cap the estimate's memory at
// 16 MB per statistic.
const MaxEstimateRows = 2_000_000

// maxMatrixWork caps rows × d² of the private second-moment matrix (β, μ).
const maxMatrixWork = 2e9

// estimateFail is the probability with which the private quantile may
// pass the first grid point at or above the largest value
// (estimate.TopRank).
const estimateFail = 1e-3

// minEstimateQuantile is the least quantile the clips ask for: below
// n = 10m (m = estimate.TopRank) they ask the 0.9-quantile, where the
// data-free bound holds (P(c > 10·x₍ᵣ₎) < 0.0066, estimate.HighFail) and
// the scan's early stops, which grow as the rank asked falls, stay rare.
const minEstimateQuantile = 0.9

// betaSlack is how far above its moment bound (BetaBound) a private β may
// lie before it is taken for a failed release: the bound reads r̃₂'s
// estimate, itself biased down by its clip.
const betaSlack = 4

// PrivateNeeds says which constants a private estimate reads: r̃₂ always,
// r̃_k (k ≠ 2), r̃_2k, β and μ as the run's class and solvers need and no
// flag gives.
type PrivateNeeds struct {
	K        float64
	Rk, R2k  bool
	Beta, Mu bool
}

// PrivateNeeds are the constants EstimatePrivately must estimate for a run
// of the instance's class at its k: r̃_2, r̃_k unless k = 2, r̃_2k when r2k
// (the localized methods read it), β for a smooth class of the squared or
// logistic loss, μ for a strongly convex or proximal-PL class of the
// squared loss — each unless a flag gave it.
func (in *Instance) PrivateNeeds(r2k bool) PrivateNeeds {
	s := &in.def
	nd := PrivateNeeds{K: s.K, Rk: s.K != 2 && s.Rk == 0, R2k: r2k && s.R2k == 0}
	o, linear := in.m.obj.(*glm)
	switch s.Class {
	case theory.SmoothConvex, theory.SmoothSC, theory.PPL:
		nd.Beta = linear && !math.IsInf(o.loss.curvature(), 1) && s.Beta == 0
	}
	if s.Class.StronglyConvex() || s.Class == theory.PPL {
		nd.Mu = linear && o.loss.minCurvature() > 0 && s.Mu == 0
	}
	return nd
}

// EstimatePrivately estimates, from the first min(n, MaxEstimateRows)
// samples of data, the constants nd lists, ρ-zCDP in all under replace-one
// adjacency (the releases' ρ's add: Bun & Steinke 2016, Lemma 2.3). With
// G_i = sup_{w∈W}‖∇f(w, x_i)‖ in closed form (the (a, y) losses: squared
// ‖a‖(R‖a‖ + |y|), logistic ‖a‖σ(R‖a‖), hinge and absolute ‖a‖, plus λ₂R):
//
//  1. c = the private q-quantile of the G_i (estimate.Quantile), q =
//     max(0.9, 1 − m/n) with m = estimate.TopRank(ρ_each, 10⁻³);
//  2. for each order j of r̃_2, r̃_k, r̃_2k needed, the Gaussian mean M_j of
//     (min(G_i, c)/c)^j ∈ [0, 1] (estimate.ClippedMean, sensitivity 1/n),
//     r̃_j = c·max(M_j, σ_j)^{1/j}, then r̃_2 ≤ r̃_k ≤ r̃_2k enforced by
//     running maxima (post-processing);
//  3. for β and μ (squared and logistic losses): c_a = the private
//     q-quantile of ‖a_i‖², the noisy second moment S of the features
//     scaled to ‖ā‖² ≤ c_a (estimate.SecondMoment), β = λ_max(S) + λ₂ for
//     the squared loss (λ_max(S)/4 + λ₂ for the logistic loss, minus λ₂ for
//     class ppl), μ = max(λ_min(S), 0) + λ₂ (squared loss).
//
// A release that would make the prescription impossible is replaced, by
// post-processing, with a stated fallback listed in Estimates.Flags
// (the search and the run go on; the outputs flag it):
//
//   - λ_max(S) ≤ 0 or above betaSlack times its moment bound (BetaBound,
//     from r̃₂: the noise swamps the matrix, or c_a failed high): λ_max is
//     the bound;
//   - μ ≤ 0 (the noise swamps λ_min, or the design is singular): μ =
//     β/n, so that κ = n and the strongly convex schedules run their
//     smooth phase (clipped-sgd: constant steps 1/β, T clamped to n − 1);
//   - μ > β: μ = β;
//   - and, without a fallback, when n and ρ are too small for the clip's
//     scan to find the data's scale at all (estimate.LowFail(ρ_each, r,
//     100) > ½: it stops on a stretch of 100 empty grid points below the
//     data with probability above ½), a flag saying so.
//
// Each release gets ρ/(number of releases). rng is the trial's noise stream
// for this purpose (its Gaussian noise exact on a lattice in secure mode).
func (in *Instance) EstimatePrivately(ctx context.Context, data solvers.Samples, nd PrivateNeeds, rho float64, rng *noise.Stream) (estimate.Estimates, error) {
	e := estimate.Estimates{Rho: rho, K: nd.K, R2: math.NaN(), Rk: math.NaN(), R2k: math.NaN(), Beta: math.NaN(), Mu: math.NaN()}
	if !(rho > 0) || math.IsInf(rho, 1) {
		return e, fmt.Errorf("scenarios: a private estimate needs a finite ρ₀ > 0, not %g", rho)
	}
	if math.IsInf(nd.K, 1) {
		return e, fieldErr("constants", "k = ∞ reads L_f = max_x sup_w ‖∇f(w, x)‖, which no private estimate bounds (a maximum has unbounded sensitivity); declare L_f, or use a finite k")
	}
	o, linear := in.m.obj.(*glm)
	matrix := nd.Beta || nd.Mu
	if matrix && !linear {
		return e, errors.New("scenarios: β and μ of this loss are not estimated (they are the loss's own)")
	}
	n := min(data.Len(), MaxEstimateRows)
	if n < 2 {
		return e, fieldErr("n", "a private estimate needs at least 2 rows, not %d", n)
	}
	e.Rows = n
	d, sd := in.m.d, in.m.sdim
	R := in.m.radius
	g := make([]float64, n)
	var a2 []float64
	if matrix {
		a2 = make([]float64, n)
	}
	x := make([]float64, sd)
	rd := data.Open()
	for i := range n {
		if i%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return e, err
			}
		}
		if !rd.Next(x) {
			return e, errors.New("scenarios: the dataset ended early (a bug)")
		}
		g[i] = in.m.obj.supGrad(x, R)
		if matrix {
			a2[i] = sqnorm(x[:d])
		}
	}
	orders := []float64{2}
	if nd.Rk {
		orders = append(orders, nd.K)
	}
	if nd.R2k {
		orders = append(orders, 2*nd.K)
	}
	releases := 1 + len(orders)
	if matrix {
		releases += 2
	}
	each := rho / float64(releases)
	if each < estimate.MinRho {
		return e, fieldErr("constants", "the private estimates' ρ₀ = %s is %s per release (%d releases), below the private quantile's least ρ, %s (its noise's scale would pass 2·10⁵ rows): give the estimates a larger share (private:0.2, say), or declare the constants",
			theory.Sig4.Format(rho), theory.Sig4.Format(each), releases, theory.Sig4.Format(estimate.MinRho))
	}
	grid := estimate.DefaultGrid
	m := estimate.TopRank(each, estimateFail)
	e.Q = math.Max(minEstimateQuantile, 1-float64(m)/float64(n))
	nz := estimate.NoiseFor(each)
	emNote := fmt.Sprintf("AboveThreshold up a geometric grid (2⁻⁴⁰ … 2⁶⁰, 8 points per doubling; Durfee 2023) with one-sided geometric noise of rates ε₁ = %s (threshold) and ε₂ = %s (each point), %s-bounded range hence ρ-zCDP (Cesar & Rogers 2021, Lemma 3.2); q = max(0.9, 1 − m/n) with m = %d, so that it passes the largest value by more than a grid step with probability ≤ 10⁻³ when 1 − m/n ≥ 0.9, and by more than a factor 10 with probability < 0.0066 on any data",
		theory.Sig4.Format(nz.Eps1), theory.Sig4.Format(nz.Eps2), theory.Sig4.Format(nz.Beta), m)
	c, err := estimate.Quantile(g, e.Q, grid, each, rng.Rand)
	if err != nil {
		return e, err
	}
	e.Clip = c
	if lf := estimate.LowFail(each, estimate.Rank(e.Q, n), estimate.EmptyStretch); lf > 0.5 {
		e.Flags = append(e.Flags, fmt.Sprintf("c: at n = %d rows and ρ = %s per release the quantile scan stops within %d grid points that hold no value (%s octaves, a stretch below the data) with probability %s: c = %s, and every estimate scaled by it, likely lies far below the data — nothing read from these releases can stand in; declare the constants, or give more rows",
			n, theory.Sig4.Format(each), estimate.EmptyStretch, theory.FormatNumber(float64(estimate.EmptyStretch)/float64(grid.PerOctave)), theory.Sig4.Format(lf), theory.Sig4.Format(c)))
	}
	e.Releases = append(e.Releases, estimate.Release{What: "c", Rho: each, Value: c, Sigma: math.NaN(),
		Method: fmt.Sprintf("the %s-quantile of G_i = sup_w ‖∇f(w, x_i)‖ over %d rows: %s", theory.Sig4.Format(e.Q), n, emNote)})
	pow := make([]float64, n)
	run := 0.0
	for _, j := range orders {
		for i, v := range g {
			pow[i] = math.Pow(math.Min(v, c)/c, j) // in [0, 1]: c^j would leave float64's range at large j
		}
		mj, sig, err := estimate.ClippedMean(pow, 1, each, rng)
		if err != nil {
			return e, err
		}
		r := c * math.Pow(math.Max(mj, sig), 1/j)
		run = math.Max(run, r) // r̃_j is non-decreasing in j (Lyapunov)
		sym := momentSym(j, nd.K)
		e.Releases = append(e.Releases, estimate.Release{What: sym, Rho: each, Value: mj, Sigma: sig,
			Method: fmt.Sprintf("%s = c·max(M, σ)^(1/%s) with M the Gaussian mechanism's mean of (min(G_i, c)/c)^%s ∈ [0, 1] (sensitivity 1/n, σ = 1/(n√(2ρ)); Bun & Steinke 2016, Prop. 1.6)",
				sym, theory.FormatNumber(j), theory.FormatNumber(j))})
		switch j {
		case 2:
			e.R2 = run
		case nd.K:
			e.Rk = run
		default:
			e.R2k = run
		}
	}
	if matrix {
		ca, err := estimate.Quantile(a2, e.Q, grid, each, rng.Rand)
		if err != nil {
			return e, err
		}
		e.Releases = append(e.Releases, estimate.Release{What: "c_a", Rho: each, Value: ca, Sigma: math.NaN(),
			Method: fmt.Sprintf("the %s-quantile of ‖a_i‖²: %s", theory.Sig4.Format(e.Q), emNote)})
		rows := n
		if w := maxMatrixWork / float64(d*d); float64(rows) > w {
			rows = max(2, int(w))
		}
		rd := data.Open()
		buf := make([]float64, rows*d)
		for i := range rows {
			if !rd.Next(x) {
				return e, errors.New("scenarios: the dataset ended early (a bug)")
			}
			copy(buf[i*d:(i+1)*d], x[:d])
		}
		if err := ctx.Err(); err != nil {
			return e, err
		}
		S, sig, err := estimate.SecondMoment(func(i int) []float64 { return buf[i*d : (i+1)*d] }, rows, d, ca, each, rng)
		if err != nil {
			return e, err
		}
		lo, hi, err := estimate.Extremes(S)
		if err != nil {
			lo, hi = math.NaN(), math.NaN() // the fallbacks below take over
		}
		l2 := 0.0
		if in.def.Lambda2 != nil {
			l2 = *in.def.Lambda2
		}
		top := hi
		if bound := in.BetaBound(e.R2); !(hi > 0) || hi > betaSlack*bound {
			top = bound
			e.Flags = append(e.Flags, fmt.Sprintf("λ_max(S) = %s is %s; β reads the moment bound %s instead",
				theory.Sig4.Format(hi), outside(hi, bound), in.betaBoundText(bound)))
		}
		beta := top*o.loss.curvature() + l2
		if in.def.Class == theory.PPL {
			beta -= l2 // F⁰ excludes f¹'s ℓ2 term
		}
		if nd.Beta {
			if !(beta > 0) {
				return e, fieldErr("constants", "the private estimate of β, from λ_max of the noisy second moment of the features, is %s ≤ 0 (the noise, σ = %s per entry at ρ = %s, swamps it): give the estimates a larger share (private:0.2, say), or declare β",
					theory.Sig4.Format(beta), theory.Sig4.Format(sig), theory.Sig4.Format(each))
			}
			e.Beta = beta
		}
		if nd.Mu {
			b := in.beta
			if nd.Beta {
				b = e.Beta
			}
			e.Mu = math.Max(lo*o.loss.minCurvature(), 0) + l2
			switch {
			case !(e.Mu > 0):
				e.Mu = b / float64(n)
				e.Flags = append(e.Flags, fmt.Sprintf("μ = max(λ_min(S), 0) + λ₂ = %s ≤ 0 (λ_min(S) = %s; the noise, σ = %s per entry, swamps it, or the design is singular); μ = β/n = %s instead: κ = n, so the strongly convex schedules run their smooth phase",
					theory.Sig4.Format(math.Max(lo*o.loss.minCurvature(), 0)+l2), theory.Sig4.Format(lo), theory.Sig4.Format(sig), theory.Sig4.Format(e.Mu)))
			case b > 0 && e.Mu > b:
				e.Flags = append(e.Flags, fmt.Sprintf("μ = %s exceeds β = %s (a β-smooth μ-strongly convex F has μ ≤ β); μ = β instead",
					theory.Sig4.Format(e.Mu), theory.Sig4.Format(b)))
				e.Mu = b
			}
		}
		what := "β"
		switch {
		case nd.Beta && nd.Mu:
			what = "β, μ"
		case nd.Mu:
			what = "μ"
		}
		e.Releases = append(e.Releases, estimate.Release{What: what, Rho: each, Value: hi, Sigma: sig,
			Method: fmt.Sprintf("extreme eigenvalues of S = (1/n)Σ āāᵀ + Z over %d rows, ‖ā‖² ≤ c_a, Z symmetric Gaussian with σ = c_a/(n√ρ) per entry on and above the diagonal (sensitivity √2·c_a/n; Dwork, Talwar, Thakurta & Zhang 2014): λ_max(S) = %s, λ_min(S) = %s",
				rows, theory.Sig4.Format(hi), theory.Sig4.Format(lo))})
	}
	return e, nil
}

// BetaBound is the bound on λ_max(E aaᵀ) that r̃₂ implies, where a private
// β falls back to it: the loss's eigenBound (eigenBounder). NaN for a loss
// without one (its β is not estimated).
func (in *Instance) BetaBound(r2 float64) float64 {
	if b, ok := in.eigenBounder(); ok {
		return b.eigenBound(r2, in.m.radius)
	}
	return math.NaN()
}

// betaBoundText is BetaBound's value with its formula.
func (in *Instance) betaBoundText(b float64) string {
	f := "r̃₂/R"
	if eb, ok := in.eigenBounder(); ok {
		f = eb.eigenBoundFormula()
	}
	return "λ_max ≤ " + f + " = " + theory.Sig4.Format(b)
}

// eigenBounder is the instance's loss as an eigenBounder, if it is one.
func (in *Instance) eigenBounder() (eigenBounder, bool) {
	o, ok := in.m.obj.(*glm)
	if !ok {
		return nil, false
	}
	b, ok := o.loss.(eigenBounder)
	return b, ok
}

// outside says why a released λ_max is not used.
func outside(hi, bound float64) string {
	switch {
	case math.IsNaN(hi):
		return "not a number (the eigen-decomposition failed)"
	case hi <= 0:
		return "≤ 0 (the noise swamps the matrix)"
	}
	return fmt.Sprintf("above %s times its moment bound %s (the noise swamps the matrix, or the clip c_a failed high)", theory.FormatNumber(betaSlack), theory.Sig4.Format(bound))
}

// momentSym is r̃_j's symbol for a run at order k.
func momentSym(j, k float64) string {
	switch j {
	case 2:
		return "r̃_2"
	case k:
		return "r̃_k"
	}
	return "r̃_2k"
}

// WithEstimates is the instance with the private estimates e in place of
// the constants they estimate: the moment profile reads r̃_2, r̃_k, r̃_2k
// from e where estimated (the flags' values where given; any other order
// the smallest bound of higher order, Lyapunov's inequality), and β, μ
// from e where estimated. The problem, its data and its risk are the same.
func (in *Instance) WithEstimates(e estimate.Estimates) *Instance {
	cp := *in
	m := *in.m
	cp.m = &m
	s := &cp.def
	type given struct{ k, r float64 }
	var gs []given
	add := func(k, r float64) {
		if r > 0 && !math.IsNaN(r) && !math.IsInf(k, 1) {
			gs = append(gs, given{k, r})
		}
	}
	add(2, firstPos(s.R2, e.R2))
	add(s.K, firstPos(s.Rk, e.Rk, e.R2*boolF(s.K == 2)))
	add(2*s.K, firstPos(s.R2k, e.R2k))
	lf := in.lf
	m.prof = &profile{lf: lf, kmax: math.Inf(1),
		method: fmt.Sprintf("private estimate (ρ₀ = %s of the budget)", theory.Sig4.Format(e.Rho)),
		eval: func(k float64) (float64, float64) {
			best := lf
			for _, g := range gs {
				if g.k >= k && g.r < best {
					best = g.r
				}
			}
			return best, 0
		}}
	if !math.IsNaN(e.Beta) {
		cp.beta = e.Beta
	}
	if !math.IsNaN(e.Mu) {
		cp.mu = e.Mu
	}
	cp.notes = append(append([]string(nil), in.notes...), fmt.Sprintf(
		"the prescription reads private estimates (ρ₀ = %s, from %d rows): %s; they are estimates, not bounds — a heavy tail admits no finite-sample upper confidence bound on a moment, so the theorem's guarantee holds only if each true constant is at most its estimate",
		theory.Sig4.Format(e.Rho), e.Rows, e.Summary(theory.Sig4.Format)))
	return &cp
}

func boolF(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// firstPos is the first of xs that is > 0 (NaN when none).
func firstPos(xs ...float64) float64 {
	for _, x := range xs {
		if x > 0 {
			return x
		}
	}
	return math.NaN()
}

// Loss is f(w, x), the per-sample loss with its ℓ2 term, plus for class
// ppl the regularizer f¹(w) (the whole objective a held-out row measures).
func (in *Instance) Loss(w, x []float64) float64 {
	return in.m.obj.value(w, x) + in.m.reg.Value(w)
}

// HoldoutRows is the number of user data's held-out rows (0 without
// ProblemDef.Holdout).
func (in *Instance) HoldoutRows() int {
	if in.m.holdout == nil {
		return 0
	}
	return in.m.holdout.Len()
}

// HoldoutLoss is the mean loss of w over the held-out rows, (1/h)Σ f(w, x),
// and its standard error sd/√h over the rows (NaN without held-out rows or
// for one). It reads the rows outside any mechanism: a non-private
// diagnostic.
func (in *Instance) HoldoutLoss(w []float64) (mean, se float64) {
	h := in.m.holdout
	if h == nil || len(w) != in.m.d {
		return math.NaN(), math.NaN()
	}
	n := h.Len()
	var s, ss float64
	for i := range n {
		v := in.Loss(w, h.Row(i))
		s += v
		ss += v * v
	}
	mean = s / float64(n)
	if n < 2 {
		return mean, math.NaN()
	}
	v := math.Max(ss/float64(n)-mean*mean, 0) * float64(n) / float64(n-1)
	return mean, math.Sqrt(v / float64(n))
}
