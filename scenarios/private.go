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

// estimateFail is the probability with which the private quantile is
// allowed to land above the largest value (estimate.TopRank).
const estimateFail = 1e-3

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
//  1. c = the private q-quantile of the G_i (estimate.Quantile), q = 1 − m/n
//     with m = estimate.TopRank (at least ½);
//  2. for each order j of r̃_2, r̃_k, r̃_2k needed, the Gaussian mean M_j of
//     min(G_i, c)^j (estimate.ClippedMean), r̃_j = max(M_j, σ_j)^{1/j}, then
//     r̃_2 ≤ r̃_k ≤ r̃_2k enforced by running maxima (post-processing);
//  3. for β and μ (squared and logistic losses): c_a = the private
//     q-quantile of ‖a_i‖², the noisy second moment S of the features
//     scaled to ‖ā‖² ≤ c_a (estimate.SecondMoment), β = λ_max(S) + λ₂ for
//     the squared loss (λ_max(S)/4 + λ₂ for the logistic loss, minus λ₂ for
//     class ppl), μ = max(λ_min(S), 0) + λ₂ (squared loss).
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
	grid := estimate.DefaultGrid
	m := estimate.TopRank(each, len(grid.Values()), estimateFail)
	e.Q = math.Max(0.5, 1-float64(m)/float64(n))
	emNote := fmt.Sprintf("exponential mechanism on a geometric grid (2⁻⁴⁰ … 2⁶⁰, 4 points per doubling) at ε = √(8ρ) = %s, ε-bounded range hence ρ-zCDP (McSherry & Talwar 2007; Cesar & Rogers 2021, Lemma 3.2); q = 1 − m/n with m = %d, the mechanism's rank accuracy with probability 1 − 10⁻³",
		theory.Sig4.Format(estimate.EMEps(each)), m)
	c, err := estimate.Quantile(g, e.Q, grid, each, rng.Rand)
	if err != nil {
		return e, err
	}
	e.Clip = c
	e.Releases = append(e.Releases, estimate.Release{What: "c", Rho: each, Value: c, Sigma: math.NaN(),
		Method: fmt.Sprintf("the %s-quantile of G_i = sup_w ‖∇f(w, x_i)‖ over %d rows: %s", theory.Sig4.Format(e.Q), n, emNote)})
	pow := make([]float64, n)
	run := 0.0
	for _, j := range orders {
		cj := math.Pow(c, j)
		if math.IsInf(cj, 1) || cj == 0 {
			return e, fieldErr("constants", "the private clip c = %s raised to the order %s leaves float64's range; rescale the data", theory.Sig4.Format(c), theory.FormatNumber(j))
		}
		for i, v := range g {
			pow[i] = math.Pow(math.Min(v, c), j)
		}
		mj, sig, err := estimate.ClippedMean(pow, cj, each, rng)
		if err != nil {
			return e, err
		}
		r := math.Pow(math.Max(mj, sig), 1/j)
		run = math.Max(run, r) // r̃_j is non-decreasing in j (Lyapunov)
		sym := momentSym(j, nd.K)
		e.Releases = append(e.Releases, estimate.Release{What: sym, Rho: each, Value: mj, Sigma: sig,
			Method: fmt.Sprintf("%s = max(M, σ)^(1/%s) with M the Gaussian mechanism's mean of min(G_i, c)^%s (sensitivity c^%s/n, σ = c^%s/(n√(2ρ)); Bun & Steinke 2016, Prop. 1.6)",
				sym, theory.FormatNumber(j), theory.FormatNumber(j), theory.FormatNumber(j), theory.FormatNumber(j))})
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
			return e, err
		}
		l2 := 0.0
		if in.def.Lambda2 != nil {
			l2 = *in.def.Lambda2
		}
		beta := hi*o.loss.curvature() + l2
		if in.def.Class == theory.PPL {
			beta -= l2 // F⁰ excludes f¹'s ℓ2 term
		}
		if nd.Beta {
			e.Beta = math.Max(beta, 0)
		}
		if nd.Mu {
			e.Mu = math.Max(lo*o.loss.minCurvature(), 0) + l2
			if e.Mu <= 0 {
				return e, fieldErr("mu", "the private estimate of μ, λ_min of the noisy second moment of the features, is %s ≤ 0 (the noise, σ = %s per entry, swamps it, or the design is singular); declare μ, or an ℓ2 weight λ₂ > 0",
					theory.Sig4.Format(lo), theory.Sig4.Format(sig))
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
