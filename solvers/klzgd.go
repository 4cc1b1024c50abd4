package solvers

import (
	"context"
	"fmt"
	"math"
	"sync"

	"dpso/solvers/oracle"
	"dpso/solvers/vec"
)

// KLZGD is "klz-gd", the noisy gradient descent of Kamath, Liu & Zhang
// (2022, "Improved rates for differentially private stochastic convex
// optimization with heavy-tailed data", ICML; cited by the paper as klz21)
// with the coordinate-wise mean estimator of Kamath, Singhal & Ullman 2020
// (their Theorem 5.2's algorithm; their Theorem 5.4 uses Holland's
// estimator instead): full-batch projected gradient descent on a β-smooth
// loss whose gradient at every step is MeanOracle2 ("coordinate"; the
// paper's Algorithm "alg: KLZ MeanOracle") over all n samples, composed in
// zCDP over the T steps (each step ρ/T-zCDP, Lemma "composition"):
//
//	w_{t+1} = Π_W(w_t − η g̃_t),  η = 1/β,  output w̄ = (1/T) Σ_{t=1..T} w_t.
//
// What the paper's restatements of KLZ fix, and what is chosen here. The
// algorithm and its analysis are the ones the paper restates: the oracle
// (alg: KLZ MeanOracle, σ² = 4τ²m²d/(s²ε²) per call at ρ = ε²/2, a
// quarter of it for even m, whose median moves by half a group's change:
// oracle.Coordinate), its guarantee (Lemma "lem: priv bias var klz" and
// its refinement "lem:4.1" of KLZ's Theorem 4.1: for τ ≥ 2L and m groups the
// pre-noise error is Õ(√d(γ_k^{1/k}√(m/s) + γ_k(2/τ)^{k−1})) with probability
// 1 − ζ, m = Õ(log(d/ζ))), KLZ's assumption (ass:coordinatewise:
// coordinate-wise central moments γ_k, L = sup_W ‖∇F‖ ≤ √d γ_k^{1/k}, and
// ∇F(w*) = 0 so L ≤ βD), and GD's guarantee βD²/T + D·G for gradient
// errors at most G (the framework of app: wrong proofs). The theorem's
// explicit settings of T, τ and m are not in those restatements, so they
// are chosen here to minimise that error expression with its hidden
// constants set to 1 (dpso's convention for every Õ bound):
//
//	E(T, m, τ) = βD²/T + D·[√d(γ^{1/k}√(m/n) + γ τ^{1−k}) + ζ_m·τ√d + τ m d √T/(nε)],
//
// where ζ_m = min{1, d e^{−m}} is the probability that the median trick
// fails at m = ln(d/ζ) (constant 1 in place of the 20 of lem:4.1), τ√d
// bounds the error when it does (every group mean lies in [−τ, τ]^d and
// |∇_j F| ≤ τ/2), and τ m d √T/(nε) is the noise norm √d σ at ρ/T per step.
// For each m the optimal τ is closed form, τ = ((k−1)√d γ/(ζ_m√d + m d√T/(nε)))^{1/k},
// raised to 2L (L = min{√d γ^{1/k}, βD}, the lemma's condition); T and m
// are searched (T up to the work budget's ⌊W/n⌋, m up to min{n, 2000}).
// γ^{1/k} is the problem's declared coordinate moment (Constants.Coord),
// or 2r̃_k when it declares none (Minkowski; loose by up to √d, which the
// notes say). The union bound over a net of W that KLZ's uniform-convergence
// argument needs (it adds ≈ d ln(D/ξ) to ln(1/ζ)) is left out, which only
// favours klz-gd.
//
// The clip parameter is reported, like every solver's, as the ℓ2 threshold
// C = τ√d (the coordinate oracle maps C back to τ = C/√d). ε = ∞: no noise
// and no clipping, T the budget's ⌊W/n⌋ and m from ζ = 1/n. k = ∞: τ = 2L
// floored at γ_∞ (no clipping bias). Overrides: Iters (T), Clip (C = τ√d) or
// Tau (τ), Groups (m), Step (η). Only the coordinate oracle is accepted.
//
// Its fields are its settings (klzSettings names them), overrides of its
// prescription; the zero value is the prescription.
type KLZGD struct {
	// Groups is m, the number of groups of the coordinate-wise median of
	// means.
	Groups int
	// Tau is τ, the coordinate clip threshold (Config.Clip, the ℓ2
	// threshold C = τ√d, is the other way to give it; not both).
	Tau float64
}

// klzSettings are klz-gd's settings, by the names its ConfigErrors give
// them.
var klzSettings = Settings{Names: []string{"klz-groups", "klz-tau"}}

// WithSettings implements Configurable.
func (KLZGD) WithSettings(v SettingValues) Solver {
	return KLZGD{Groups: v.Int("klz-groups"), Tau: v.Float("klz-tau")}
}

// Name implements Solver.
func (KLZGD) Name() string { return "klz-gd" }

// Describe implements Solver.
func (KLZGD) Describe() string {
	return "full-batch noisy projected GD with the coordinate-wise median-of-means oracle, zCDP over T steps (Kamath, Liu & Zhang 2022, Thm 5.2's algorithm)"
}

type klzPlan struct {
	T     int
	m     int
	eta   float64
	tau   float64
	bound bool
}

// klzMaxGroups caps the search over m.
const klzMaxGroups = 2000

// klzParams is what the error expression E depends on.
type klzParams struct {
	beta, D, d, n, eps, k float64
	g                     float64 // γ^{1/k}
	L                     float64 // τ ≥ 2L
}

// zeta is ζ_m = min{1, d e^{−m}}.
func (c klzParams) zeta(m float64) float64 { return math.Min(1, c.d*math.Exp(-m)) }

// err is E(T, m, τ).
func (c klzParams) err(T, m, tau float64) float64 {
	sd := math.Sqrt(c.d)
	bias := 0.0
	if !math.IsInf(c.k, 1) {
		bias = sd * math.Pow(c.g, c.k) * math.Pow(tau, 1-c.k)
	}
	G := sd*c.g*math.Sqrt(m/c.n) + bias + c.zeta(m)*tau*sd + tau*m*c.d*math.Sqrt(T)/(c.n*c.eps)
	return c.beta*c.D*c.D/T + c.D*G
}

// best minimises E over T ∈ [1, tmax] (or T fixed when tFix > 0) and
// m ∈ [1, mmax] (or m fixed when mFix > 0), with τ fixed when tauFix > 0.
// E and τ are err's and tau's, their terms that do not depend on T
// computed once per m (the same bits).
func (c klzParams) best(tmax, tFix, mmax, mFix int, tauFix float64) (T, m int, tau float64) {
	bestE := math.Inf(1)
	ms := []int{mFix}
	if mFix == 0 {
		ms = ms[:0]
		for mm := 1; mm <= mmax; mm++ {
			ms = append(ms, mm)
		}
	}
	sd := math.Sqrt(c.d)
	gk := math.Pow(c.g, c.k) // γ
	for _, mm := range ms {
		fm := float64(mm)
		zm := c.zeta(fm)
		sampling := sd * c.g * math.Sqrt(fm/c.n)
		tauAt := func(sqT float64) float64 {
			switch {
			case tauFix > 0:
				return tauFix
			case math.IsInf(c.k, 1):
				return math.Max(2*c.L, c.g)
			}
			coef := zm*sd + fm*c.d*sqT/(c.n*c.eps)
			return math.Max(2*c.L, math.Pow((c.k-1)*sd*gk/coef, 1/c.k))
		}
		// errAt is c.err(T, fm, tauAt(T)).
		errAt := func(T float64) float64 {
			sqT := math.Sqrt(T)
			tau := tauAt(sqT)
			bias := 0.0
			if !math.IsInf(c.k, 1) {
				bias = sd * gk * math.Pow(tau, 1-c.k)
			}
			G := sampling + bias + zm*tau*sd + tau*fm*c.d*sqT/(c.n*c.eps)
			return c.beta*c.D*c.D/T + c.D*G
		}
		eval := func(t int) float64 { return errAt(float64(t)) }
		var t0 int
		if tFix > 0 {
			t0 = tFix
		} else {
			// E is unimodal in T (a decreasing 1/T plus an increasing
			// √T-like term): golden-section on ln T, then the integers near.
			lo, hi := 0.0, math.Log(float64(tmax))
			f := func(x float64) float64 { return errAt(math.Exp(x)) }
			const gr = 0.6180339887498949
			a, b := hi-gr*(hi-lo), lo+gr*(hi-lo)
			fa, fb := f(a), f(b)
			for hi-lo > 1e-3 {
				if fa < fb {
					hi, b, fb = b, a, fa
					a = hi - gr*(hi-lo)
					fa = f(a)
				} else {
					lo, a, fa = a, b, fb
					b = lo + gr*(hi-lo)
					fb = f(b)
				}
			}
			x := math.Exp((lo + hi) / 2)
			t0 = max(1, min(tmax, int(math.Floor(x))))
			if t1 := min(tmax, t0+1); eval(t1) < eval(t0) {
				t0 = t1
			}
		}
		if e := eval(t0); e < bestE {
			bestE, T, m, tau = e, t0, mm, tauAt(math.Sqrt(float64(t0)))
		}
	}
	return T, m, tau
}

// klzBestKey is best's arguments, the key of klzBestCache.
type klzBestKey struct {
	c                      klzParams
	tmax, tFix, mmax, mFix int
	tauFix                 float64
}

// klzBestCache maps best's arguments to its answer: every trial of a run
// (and its prescription) plans the same search over m ≤ 2000. It holds at
// most klzBestCacheCap answers (then starts again, empty).
var klzBestCache struct {
	sync.Mutex
	m map[klzBestKey]klzBest
}

const klzBestCacheCap = 1024

type klzBest struct {
	T, m int
	tau  float64
}

// bestCached is best, answered from klzBestCache when the same search was
// made before (a pure function of its arguments: the same answer).
func (c klzParams) bestCached(tmax, tFix, mmax, mFix int, tauFix float64) (T, m int, tau float64) {
	key := klzBestKey{c, tmax, tFix, mmax, mFix, tauFix}
	klzBestCache.Lock()
	b, ok := klzBestCache.m[key]
	klzBestCache.Unlock()
	if ok {
		return b.T, b.m, b.tau
	}
	T, m, tau = c.best(tmax, tFix, mmax, mFix, tauFix)
	klzBestCache.Lock()
	if klzBestCache.m == nil || len(klzBestCache.m) >= klzBestCacheCap {
		klzBestCache.m = make(map[klzBestKey]klzBest)
	}
	klzBestCache.m[key] = klzBest{T, m, tau}
	klzBestCache.Unlock()
	return T, m, tau
}

func (s KLZGD) plan(p Problem, n int, cfg Config) (klzPlan, Params, error) {
	c, name, err := prepMulti(s.Name(), p, n, 1, cfg, "coordinate")
	if err != nil {
		return klzPlan{}, Params{}, err
	}
	if name != "coordinate" {
		return klzPlan{}, Params{}, &ConfigError{"oracle", fmt.Sprintf("klz-gd is defined with the coordinate oracle (MeanOracle2); %q is not it", name)}
	}
	o := s
	switch {
	case o.Groups < 0:
		return klzPlan{}, Params{}, &ConfigError{"klz-groups", fmt.Sprintf("m = %d; want m ≥ 1, or 0 for the prescribed value", o.Groups)}
	case o.Groups > n:
		return klzPlan{}, Params{}, &ConfigError{"klz-groups", fmt.Sprintf("m = %d groups of n = %d samples; want at most one group per sample, m ≤ n", o.Groups, n)}
	case math.IsNaN(o.Tau) || o.Tau < 0:
		return klzPlan{}, Params{}, &ConfigError{"klz-tau", fmt.Sprintf("τ = %s; want τ in (0, ∞], or 0 for the prescribed value", exactNum(o.Tau))}
	case o.Tau > 0 && cfg.Clip > 0:
		return klzPlan{}, Params{}, &ConfigError{"klz-tau", "give the clip threshold once: τ, or the ℓ2 C = τ√d, not both"}
	case math.IsInf(o.Tau, 1) && !math.IsInf(cfg.Eps, 1):
		return klzPlan{}, Params{}, &ConfigError{"klz-tau", "τ = ∞ (no clipping) has unbounded sensitivity; it needs ε = ∞"}
	}
	di := p.Dim()
	d, nf := float64(di), float64(n)
	D, _ := c.D()
	k, eps := cfg.K, cfg.Eps
	var notes []string
	budget := cfg.WorkBudget
	if budget == 0 {
		budget = DefaultWorkBudget
	}
	tmax := int(max(1, min(budget/int64(n), math.MaxInt32)))
	var bound bool
	if cfg.Iters > 0 && int64(cfg.Iters)*int64(n) > budget {
		bound = true
		notes = append(notes, fmt.Sprintf("the work budget of %s gradient evaluations binds: T = %d is cut to %d", num4(float64(budget)), cfg.Iters, tmax))
	}
	tFix := cfg.Iters
	if bound {
		tFix = tmax
	}
	tauFix := o.Tau
	if cfg.Clip > 0 {
		tauFix = cfg.Clip / math.Sqrt(d)
	}
	mmax := min(n, klzMaxGroups)

	eta := cfg.Step
	if eta == 0 {
		beta, err := klzBeta(c)
		if err != nil {
			return klzPlan{}, Params{}, err
		}
		eta = 1 / beta
	}
	pl := klzPlan{eta: eta, bound: bound}
	if math.IsInf(eps, 1) {
		pl.T, pl.tau = tmax, math.Inf(1)
		if tFix > 0 {
			pl.T = tFix
		} else {
			notes = append(notes, fmt.Sprintf("ε = ∞: the error does not grow with T, so T is the work budget's ⌊%d/n⌋ = %d", budget, tmax))
		}
		if tauFix > 0 {
			pl.tau = tauFix
		}
		pl.m = o.Groups
		if pl.m == 0 {
			pl.m = max(1, min(n, int(math.Ceil(math.Log(d*nf))))) // ζ = 1/n
		}
	} else {
		beta, err := klzBeta(c)
		if err != nil {
			return klzPlan{}, Params{}, err
		}
		g, gNote, err := coordMoment(c, k)
		if err != nil {
			return klzPlan{}, Params{}, err
		}
		if gNote != "" {
			notes = append(notes, gNote)
		}
		par := klzParams{beta: beta, D: D, d: d, n: nf, eps: eps, k: k, g: g,
			L: math.Min(math.Sqrt(d)*g, beta*D)}
		pl.T, pl.m, pl.tau = par.bestCached(tmax, tFix, mmax, o.Groups, tauFix)
		T0, _, _ := par.bestCached(math.MaxInt32, 0, mmax, o.Groups, tauFix)
		if tFix == 0 && T0 > tmax {
			pl.bound = true
			notes = append(notes, fmt.Sprintf("the work budget of %s gradient evaluations binds: the error bound's T = %d is cut to ⌊%s/n⌋ = %d", num4(float64(budget)), T0, num4(float64(budget)), tmax))
		}
		notes = append(notes, fmt.Sprintf("T = %d, m = %d, τ = %s minimise klz-gd's error expression E(T, m, τ) = βD²/T + D·[√d(γ^{1/k}√(m/n) + γ τ^{1−k}) + min{1, d e^{−m}}·τ√d + τ m d √T/(nε)] = %s "+
			"(from the paper's restatements of KLZ's lemmas, constants set to 1; not KLZ's Theorem 5.2, whose explicit statement the paper does not restate; γ^{1/k} = %s, τ ≥ 2L = %s)",
			pl.T, pl.m, num4(pl.tau), num4(par.err(float64(pl.T), float64(pl.m), pl.tau)), num4(g), num4(2*par.L)))
	}
	C := pl.tau * math.Sqrt(d)
	notes = append(notes, fmt.Sprintf("coordinate oracle: τ = %s (C = τ√d = %s), m = %d groups, each of the T = %d steps is ρ/T-zCDP on all n samples", num4(pl.tau), num4(C), pl.m, pl.T))
	probe := newSigmaProbe(name)
	if co, ok := probe.o.(*oracle.Coordinate); ok {
		co.M = pl.m
	}
	pr := Params{
		Iters:       pl.T,
		Batch:       n,
		Clip:        C,
		Sigma:       probe.sigma(di, n, pl.tau, callCost(oracle.ZCDP, cfg, float64(pl.T))),
		Step:        eta,
		GradEvals:   int64(pl.T) * int64(n),
		Notes:       notes,
		BudgetBound: pl.bound,
	}
	markOverrides(&pr, cfg)
	if o.Groups > 0 || o.Tau > 0 {
		var ov []string
		if o.Groups > 0 {
			ov = append(ov, "klz-groups")
		}
		if o.Tau > 0 {
			ov = append(ov, "klz-tau")
		}
		pr.Overridden = append(pr.Overridden, ov...)
		if pr.Prescribed {
			pr.Prescribed = false
			pr.Notes = append(pr.Notes, fmt.Sprintf("overridden: %v; the theorem's prescription is not in force", ov))
		}
	}
	return pl, pr, nil
}

// coordMoment is γ_k^{1/k}: the declared Constants.Coord(k), or 2r̃_k (with
// a note saying it is a loose bound) when none is declared or it is not
// known (NaN).
func coordMoment(c consts, k float64) (float64, string, error) {
	g := math.NaN()
	if c.c.Coord != nil {
		g = c.c.Coord(k)
	}
	switch {
	case math.IsNaN(g):
		rk, err := c.rk()
		if err != nil {
			return 0, "", err
		}
		return 2 * rk, fmt.Sprintf("the problem declares no coordinate-wise moment γ_k; klz-gd uses the bound γ_k^{1/k} ≤ 2r̃_k = %s (loose by up to √d, which makes τ larger and the noise louder)", num4(2*rk)), nil
	case g <= 0:
		return 0, "", &ConfigError{"coord", fmt.Sprintf("the coordinate moment γ_k^{1/k} = %s at k = %s; a declared moment must be > 0", exactNum(g), formatOrder(k))}
	case math.IsInf(g, 1):
		return 0, "", &ConfigError{"k", fmt.Sprintf("the coordinate moment γ_k is infinite at k = %s; choose a smaller k", formatOrder(k))}
	}
	return g, "", nil
}

// klzBeta is the smoothness β that klz-gd's step 1/β and its analysis read.
// klz-gd is gradient descent on a β-smooth loss (Kamath, Liu & Zhang's
// setting), so a problem that declares no β and is not affine — a
// non-smooth loss, hinge or absolute deviation — is refused as such,
// naming the classes it runs on; an affine loss (β = 0) keeps the general
// message (give β, or the step and T).
func klzBeta(c consts) (float64, error) {
	beta, err := c.beta()
	if err != nil && !c.c.Affine {
		return 0, &ConfigError{"solver", "klz-gd is gradient descent on a β-smooth loss (Kamath, Liu & Zhang's setting: step 1/β), and this problem's loss is not smooth (it declares no β): klz-gd runs on the smooth classes smooth-convex, smooth-sc and ppl, not on nonsmooth-convex or nonsmooth-sc (a declared β would be one the loss does not have)"}
	}
	return beta, err
}

// Prescribe implements Solver.
func (s KLZGD) Prescribe(p Problem, n int, cfg Config) (Params, error) {
	_, pr, err := s.plan(p, n, cfg)
	return pr, err
}

// Run implements Solver. It materializes the dataset (multi-pass).
func (s KLZGD) Run(ctx context.Context, p Problem, data Samples, cfg Config) (Result, error) {
	pl, pr, err := s.plan(p, data.Len(), cfg)
	if err != nil {
		return Result{Solver: s.Name()}, err
	}
	res := Result{Solver: s.Name(), Params: pr, Notes: pr.Notes, BudgetBound: pl.bound}
	m, release, err := loadDataset(ctx, s.Name(), data, cfg.Workers)
	if err != nil {
		return res, err
	}
	defer release()
	n := m.Len()
	d := p.Dim()
	R := p.Constants().Radius()
	r, err := newRunner(ctx, p, cfg, "coordinate", true, n, m.Dim, pr.GradEvals, pl.T)
	if err != nil {
		return res, err
	}
	if co, ok := r.o.(*oracle.Coordinate); ok {
		co.M = pl.m
	}
	res.Oracle = r.o.Name()
	w := make([]float64, d)
	avg := make([]float64, d)
	if err := r.start(w); err != nil {
		r.abort(w, &res)
		return res, err
	}
	cost := r.cost(float64(pl.T))
	for t := 0; t < pl.T; t++ {
		// The full-batch gradient estimate: one oracle call over all n
		// rows (kept in one call so that a parallel gradient helper can
		// replace it).
		if err := r.matrixCall(m, 0, n, w, pl.tau, cost); err != nil {
			r.abort(avg, &res)
			return res, err
		}
		for j := range w {
			w[j] -= pl.eta * r.est[j]
		}
		vec.ProjectBall(w, R)
		f := 1 / float64(t+1)
		for j := range avg {
			avg[j] += f * (w[j] - avg[j])
		}
		if err := r.step(avg); err != nil {
			r.abort(avg, &res)
			return res, err
		}
	}
	err = r.end(avg, &res)
	return res, err
}
