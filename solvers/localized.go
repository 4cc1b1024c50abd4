package solvers

import (
	"context"
	"fmt"
	"math"
	"sync"

	"dpso/solvers/oracle"
	"dpso/theory"
)

// Localized is "localized": the Localized Noisy Clipped Subgradient Method
// for non-smooth convex losses, Algorithm "localization" (alg: localization)
// running Algorithm "clipped GD" (alg: clipped GD) in each phase, with the
// parameters of the precise statement of Theorem "localization convex"
// (app: localization):
//
//	phases i = 1..l, l = ⌊log₂ n⌋, on disjoint batches of n_i = ⌊n/2^i⌋ samples,
//	p = 1 + 1/k,  η_i = η/4^i,  λ_i = 1/(η_i n_i^p),
//	T_i = min{(1/(λ_iη_i)) ln(D²λ_i/(dσ_i²η_i)), ⌈n_i^p ln n⌉}  (the proof's choice, a fixed
//	      point since σ_i depends on T_i, capped by the bound the proof states; see locItersProof),
//	D_i = 4 r̃_k (2^i √n)^{1/k}/λ_i,
//	C_i = r̃_2k (εn_i/√(d ln n))^{1/k} (i < l),  C_l = r̃_2k (ε/√d)^{1/k},
//	σ_i² = 4C_i²T_i/(n_i²ε²)  (each of the T_i full-batch calls is ρ/T_i-zCDP),
//	η = min(η_A, (D/n^{p/2}) min{1/(r n^{(p−1)/2}), 1/(r̃_k n^{1/(2k)}), (εn/√(d ln n))^{(k−1)/k}/(R̃ n^{p/2})}),
//	η_A = (R̃ D n²/L) min{1/(r̃_k n^{3/(2k)}), (ε/√d)^{(k−1)/k}/r̃_2k} (1/√n + (√(d ln n)/(εn))^{(k−1)/k}).
//
// The proof's constants are replaced by the declared bounds they are
// bounded by: R̃_{2k,n} ≤ r̃_2k (Lemma "empirical moments"), L ≤ r̃_k
// (Jensen), r = r_2 ≤ r̃_2. Phase i starts at w_{i−1} and iterates
// w_{t+1} = Π_{W_i}[w_t − η_i(g̃_t + λ_i(w_t − w_{i−1}))] over
// W_i = W ∩ B(w_{i−1}, D_i) (ProjectTwoBalls): only the loss part is
// clipped, never the regulariser. The remainder samples n − Σ n_i (≥ 1)
// are not read (the paper assumes n = 2^l).
//
// The proof's T_i is typically 2–3 times below the cap in the first
// phases, which carry most of the work, and far below it in the stages of
// localized-sc (their D is small). With the cap T_i = ⌈n_i^p ln n⌉
// throughout (dpso before), the noise σ_i ∝ √T_i was correspondingly
// larger and the work about doubled: on hinge-t (d = 10, ν = 10, ε = 1,
// k = 4, 8 trials) localized at n = 1024 ended at excess 0.200 ± 0.020
// (now 0.180 ± 0.010) in 1.1·10⁷ evaluations (now 5.7·10⁶), and
// localized-sc at n = 2048 at 0.250 ± 0.033 (now 0.115 ± 0.013), from
// 0.80 and 0.60 at w = 0. σ_i is MeanOracle1's; with the coordinate oracle
// the same T_i are used.
//
// Total work Σ n_i T_i = Õ(n^{2+1/k}) is capped by Config.WorkBudget
// (default DefaultWorkBudget): when it binds every T_i is scaled by the
// same factor (at least 1 step), Result.BudgetBound is set and a note says
// that the theorem's guarantee assumes the full T_i. Fewer steps mean less
// noise per step (ρ/T_i each), so privacy is unchanged.
//
// ε = ∞: C_i = ∞, no noise, and the ε-terms of η vanish; k = ∞: p = 1,
// r̃_k = r̃_2k = L_f. Iters sets every T_i, Clip every C_i, Step the base η.
// When Clip and Step are both overridden and r̃_k is not available, D_i = ∞
// (only W constrains the iterates), with a note. Shuffle oracles are
// refused (see Run).
type Localized struct{}

// Name implements Solver.
func (Localized) Name() string { return "localized" }

// Describe implements Solver.
func (Localized) Describe() string {
	return "localized noisy clipped subgradient method, non-smooth convex: Algorithm [alg: localization] with Algorithm [alg: clipped GD], Theorem [thm: localization convex]"
}

// locPhase is one phase of Algorithm "localization".
type locPhase struct {
	lo, hi int     // the batch: rows [lo, hi)
	T      int     // T_i
	eta    float64 // η_i
	lambda float64 // λ_i
	radius float64 // D_i
	clip   float64 // ℓ2 C_i
	stage  int     // localized-sc's stage j (1-based), 0 for localized
}

type locPlan struct {
	oracle string
	phases []locPhase
	work   int64
	bound  bool // the work budget binds
}

// prepMulti validates what the multi-pass solvers need.
func prepMulti(solver string, p Problem, n, minN int, cfg Config, defOracle string) (consts, string, error) {
	if err := validateConfig(cfg); err != nil {
		return consts{}, "", err
	}
	if p == nil || p.Dim() < 1 {
		return consts{}, "", &ConfigError{"problem", "the problem must have dimension d ≥ 1"}
	}
	if n < minN {
		return consts{}, "", &ConfigError{"n", fmt.Sprintf("n = %d samples; %s needs n ≥ %d", n, solver, minN)}
	}
	name := oracleName(cfg, defOracle)
	o, err := newOracle(name, cfg)
	if err != nil {
		return consts{}, "", err
	}
	if o.Kind() == oracle.Shuffle {
		return consts{}, "", refuseShuffle(solver, name)
	}
	if a := cfg.Assumption; a != "" && a != AssumeTilde {
		return consts{}, "", &ConfigError{"assumption", fmt.Sprintf("%s's theorem grants ass:tilde only (its localization radii bound the empirical loss's Lipschitz constant over all of W, a sup inside the expectation); the assumption %s does not give its constants", solver, a)}
	}
	c := consts{c: p.Constants(), k: cfg.K, a: AssumeTilde, d: float64(p.Dim()), eps: cfg.Eps}
	if _, err := c.D(); err != nil {
		return consts{}, "", err
	}
	return c, name, nil
}

// locEta is the base step size η of the proof of Theorem "localization
// convex" for n samples and "diameter" D (see Localized).
func locEta(n, d, D, eps, k, rk, r2k, r2 float64) float64 {
	ik := invK(k)
	p := 1 + ik
	e := 1 - ik // (k−1)/k
	ln := math.Log(n)
	bracket := 1 / math.Sqrt(n)
	A2, B3 := inf, inf
	if !math.IsInf(eps, 1) {
		bracket += math.Pow(math.Sqrt(d*ln)/(eps*n), e)
		A2 = math.Pow(eps/math.Sqrt(d), e) / r2k
		B3 = math.Pow(eps*n/math.Sqrt(d*ln), e) / (r2k * math.Pow(n, p/2))
	}
	A1 := 1 / (rk * math.Pow(n, 1.5*ik))
	etaA := r2k * D * n * n / rk * math.Min(A1, A2) * bracket
	B1 := 1 / (r2 * math.Pow(n, (p-1)/2))
	B2 := 1 / (rk * math.Pow(n, 0.5*ik))
	return math.Min(etaA, D/math.Pow(n, p/2)*math.Min(B1, math.Min(B2, B3)))
}

// locPhases prescribes the phases of one run of Algorithm "localization" on
// the n samples starting at row offset, with D the bound on ‖w_0 − w*‖ used
// in η.
func locPhases(c consts, d, n, offset int, D float64, cfg Config, notes *[]string) ([]locPhase, error) {
	k, eps := cfg.K, cfg.Eps
	ik := invK(k)
	p := 1 + ik
	nf, df := float64(n), float64(d)
	ln := math.Log(nf)
	sizes := locPhaseSizes(n)
	l := len(sizes)
	eta := cfg.Step
	if eta == 0 {
		rk, err := c.rk()
		if err != nil {
			return nil, err
		}
		r2k, err := c.r2k()
		if err != nil {
			return nil, err
		}
		r2, err := c.r2()
		if err != nil {
			return nil, err
		}
		eta = locEta(nf, df, D, eps, k, rk, r2k, r2)
	}
	rk, rkErr := c.rk()
	if rkErr != nil {
		if cfg.Clip > 0 && cfg.Step > 0 {
			rk = inf
			addNote(notes, "r̃_k is not available, so the localization radii D_i are ∞: only W constrains the iterates")
		} else {
			return nil, rkErr
		}
	}
	var r2k float64
	if cfg.Clip == 0 && !math.IsInf(eps, 1) {
		var err error
		if r2k, err = c.r2k(); err != nil {
			return nil, err
		}
	}
	phases := make([]locPhase, l)
	lo := offset
	for i := 1; i <= l; i++ {
		ni := sizes[i-1]
		nip := math.Pow(float64(ni), p)
		ph := locPhase{lo: lo, hi: lo + ni}
		lo += ni
		ph.eta = eta / math.Pow(4, float64(i))
		ph.lambda = 1 / (ph.eta * nip)
		ph.radius = 4 * rk * math.Pow(math.Exp2(float64(i))*math.Sqrt(nf), ik) / ph.lambda
		switch {
		case cfg.Clip > 0:
			ph.clip = cfg.Clip
		case math.IsInf(eps, 1):
			ph.clip = inf
		case i < l:
			ph.clip = r2k * math.Pow(eps*float64(ni)/math.Sqrt(df*ln), ik)
		default:
			ph.clip = r2k * math.Pow(eps/math.Sqrt(df), ik)
		}
		if ph.T = cfg.Iters; ph.T == 0 {
			// The proof's T_i (σ_i depends on T_i), at most ⌈n_i^p ln n⌉.
			b := D * D * ph.lambda * float64(ni) * float64(ni) * eps * eps / (4 * df * ph.clip * ph.clip * ph.eta)
			ph.T = locItersProof(nip, b, locIters(ni, p, ln))
		}
		phases[i-1] = ph
	}
	return phases, nil
}

// locIters is the cap ⌈n_i^p ln n⌉ of the steps T_i of a phase on n_i
// samples (the bound the proof states for its T_i; the prescription at
// ε = ∞), with n the samples of the run of Algorithm "localization" (see
// Localized), clamped to [1, MaxInt32].
func locIters(ni int, p, ln float64) int {
	t, _ := ceilClamp(math.Pow(float64(ni), p)*ln, 1, math.MaxInt32)
	return t
}

// locItersProof is the number of steps the proof of Theorem "localization
// convex" chooses for a phase (app: localization, "Choosing T_i = …"),
//
//	T_i = (1/(λ_iη_i)) ln(D²λ_i/(dσ_i²η_i)),  σ_i² = 4C_i²T_i/(n_i²ε²),
//
// i.e. the root of T = a·ln(b/T) with a = 1/(λ_iη_i) = n_i^p and
// b = D²λ_i n_i²ε²/(4dC_i²η_i) (T − a ln(b/T) increases in T, so the root
// is unique), rounded up and kept in [1, cap] with cap = ⌈n_i^p ln n⌉, the
// bound the proof states for it (T_i ≲ n_i^p ln n) and the value where
// the root does not exist (ε = ∞ or C_i = ∞: no noise, b = ∞). Fewer
// steps than the cap mean less noise per step (σ_i ∝ √T_i) at the same
// privacy: the proof stops contracting towards the phase's minimizer once
// exp(−λ_iη_iT_i/2)D² has reached the noise floor (η_i/λ_i)dσ_i².
func locItersProof(a, b float64, cap int) int {
	g := func(t float64) float64 { return t - a*math.Log(b/t) }
	hi := float64(cap)
	if !(g(hi) > 0) { // root ≥ cap, or b = ∞ / NaN
		return cap
	}
	if g(1) >= 0 {
		return 1
	}
	lo := 1.0
	for range 200 { // bisection in log scale: [1, cap] to the last bit
		m := math.Sqrt(lo * hi)
		if m <= lo || m >= hi {
			break
		}
		if g(m) > 0 {
			hi = m
		} else {
			lo = m
		}
	}
	t, _ := ceilClamp(hi, 1, cap)
	return t
}

// locPhaseSizes are the batch sizes n_i = ⌊n/2^i⌋, i = 1..⌊log₂ n⌋, of
// Algorithm "localization" on n samples.
func locPhaseSizes(n int) []int {
	var ns []int
	for i := 1; 1<<i <= n; i++ {
		ns = append(ns, n>>i)
	}
	return ns
}

// scChunks are the chunk sizes N_j = ⌊2^{j−2} n/log₂ n⌋, j = 1..M,
// M = ⌈log₂ log₂ n⌉, of the stages of "localized-sc" (see LocalizedSC).
func scChunks(n int) []int {
	log2n := math.Log2(float64(n))
	M := int(math.Ceil(math.Log2(log2n)))
	out := make([]int, 0, max(M, 0))
	for j := 1; j <= M; j++ {
		out = append(out, int(math.Exp2(float64(j-2))*float64(n)/log2n))
	}
	return out
}

// WorkBounded is a solver whose full prescribed schedule makes more than
// linear work in n (the localized methods: Õ(n^{2+1/k}) gradient
// evaluations, Theorem "localization convex"). ScheduleWork bounds that
// work at n samples and moment order k before Config.WorkBudget cuts it;
// it depends on n and k only (not on the problem's constants), so that a
// caller can choose an n whose full schedule is sure to fit a budget
// without building the problem. ok is false for an n the solver refuses.
type WorkBounded interface {
	ScheduleWork(n int, k float64) (work float64, ok bool)
}

// localizationWork is Σ_i n_i T̄_i over the phases of one run of Algorithm
// "localization" on m samples, n_i = ⌊m/2^i⌋ and T̄_i = ⌈n_i^p ln m⌉,
// p = 1 + 1/k, the cap of the prescribed T_i. It is the prescribed work
// exactly when ε = ∞ and an upper bound otherwise. Its answers are kept
// (locWorkMemo): resolving a non-smooth class searches its default n with
// it, and every command resolves.
func localizationWork(m int, k float64) float64 {
	key := locWorkKey{m, k}
	locWorkMemo.Lock()
	w, hit := locWorkMemo.m[key]
	locWorkMemo.Unlock()
	if hit {
		return w
	}
	w = phaseWork(m, k)
	locWorkMemo.Lock()
	if locWorkMemo.m == nil || len(locWorkMemo.m) >= 256 {
		locWorkMemo.m = map[locWorkKey]float64{}
	}
	locWorkMemo.m[key] = w
	locWorkMemo.Unlock()
	return w
}

type locWorkKey struct {
	m int
	k float64
}

// locWorkMemo holds localizationWork's answers (a NaN k never matches and
// is recomputed).
var locWorkMemo struct {
	sync.Mutex
	m map[locWorkKey]float64
}

// phaseWork is localizationWork computed.
func phaseWork(m int, k float64) float64 {
	p := 1 + invK(k)
	ln := math.Log(float64(m))
	var w float64
	for _, ni := range locPhaseSizes(m) {
		w += float64(ni) * float64(locIters(ni, p, ln))
	}
	return w
}

// ScheduleWork implements WorkBounded: localizationWork(n, k); n ≥ 2.
func (Localized) ScheduleWork(n int, k float64) (work float64, ok bool) {
	if n < 2 {
		return 0, false
	}
	return localizationWork(n, k), true
}

// ScheduleWork implements WorkBounded: localizationWork summed over the
// stages (each a run of Algorithm "localization" on its chunk N_j, with
// ln N_j); n ≥ 16 and no empty stage.
func (LocalizedSC) ScheduleWork(n int, k float64) (work float64, ok bool) {
	if n < 16 {
		return 0, false
	}
	for _, m := range scChunks(n) {
		if m < 2 {
			return 0, false
		}
		work += localizationWork(m, k)
	}
	return work, true
}

// applyBudget scales the T_i of all phases so that Σ n_i T_i ≤ budget.
func applyBudget(pl *locPlan, cfg Config, notes *[]string) {
	budget := cfg.WorkBudget
	if budget == 0 {
		budget = DefaultWorkBudget
	}
	var work float64
	for _, ph := range pl.phases {
		work += float64(ph.hi-ph.lo) * float64(ph.T)
	}
	if work > float64(budget) {
		f := float64(budget) / work
		full := make([]float64, len(pl.phases))
		for i := range pl.phases {
			full[i] = float64(pl.phases[i].T)
			pl.phases[i].T = max(1, int(float64(pl.phases[i].T)*f))
		}
		pl.bound = true
		*notes = append(*notes, fmt.Sprintf("the work budget of %s gradient evaluations binds: every T_i is scaled by %s; "+
			"the theorem's guarantee assumes the full T_i = %s, %s evaluations in all", num4(float64(budget)), num4(f), theory.Sig4.List(full, 4), num4(work)))
	}
	pl.work = 0
	for _, ph := range pl.phases {
		pl.work += int64(ph.hi-ph.lo) * int64(ph.T)
	}
}

// paramsOf fills the Params of a multi-phase plan.
func paramsOf(pl locPlan, d int, cfg Config, notes []string) Params {
	pr := Params{Notes: notes, GradEvals: pl.work, BudgetBound: pl.bound}
	probe := newSigmaProbe(pl.oracle)
	kind := kindOf(pl.oracle)
	for _, ph := range pl.phases {
		ni := ph.hi - ph.lo
		sig := probe.sigmaL2(d, ni, ph.clip, callCost(kind, cfg, float64(ph.T)))
		pr.Phases = append(pr.Phases, Phase{N: ni, Iters: ph.T, Clip: ph.clip, Sigma: sig, Step: ph.eta, Lambda: ph.lambda, Radius: ph.radius, Stage: ph.stage})
		pr.Iters += ph.T
	}
	if len(pr.Phases) > 0 {
		f := pr.Phases[0]
		pr.Batch, pr.Clip, pr.Sigma, pr.Step = f.N, f.Clip, f.Sigma, f.Step
	}
	markOverrides(&pr, cfg)
	return pr
}

func (s Localized) plan(p Problem, n int, cfg Config) (locPlan, Params, error) {
	c, name, err := prepMulti(s.Name(), p, n, 2, cfg, "clip-gaussian")
	if err != nil {
		return locPlan{}, Params{}, err
	}
	D, _ := c.D()
	var notes []string
	phases, err := locPhases(c, p.Dim(), n, 0, D, cfg, &notes)
	if err != nil {
		return locPlan{}, Params{}, err
	}
	used := phases[len(phases)-1].hi
	if used < n {
		notes = append(notes, fmt.Sprintf("phases use %d of the n = %d samples; the remaining %d are not read (the paper assumes n = 2^l)", used, n, n-used))
	}
	pl := locPlan{oracle: name, phases: phases}
	applyBudget(&pl, cfg, &notes)
	return pl, paramsOf(pl, p.Dim(), cfg, notes), nil
}

// Prescribe implements Solver.
func (s Localized) Prescribe(p Problem, n int, cfg Config) (Params, error) {
	_, pr, err := s.plan(p, n, cfg)
	return pr, err
}

// Run implements Solver. It materializes the dataset (multi-pass).
func (s Localized) Run(ctx context.Context, p Problem, data Samples, cfg Config) (Result, error) {
	pl, pr, err := s.plan(p, data.Len(), cfg)
	if err != nil {
		return Result{Solver: s.Name()}, err
	}
	return locExec(ctx, p, data, cfg, pl, pr, true, s.Name())
}

// locExec runs the phases of a localization plan on the materialized data.
func locExec(ctx context.Context, p Problem, data Samples, cfg Config, pl locPlan, pr Params, private bool, solver string) (Result, error) {
	res := Result{Solver: solver, Params: pr, Notes: pr.Notes, BudgetBound: pl.bound}
	m, release, err := loadDataset(ctx, solver, data, cfg.Workers)
	if err != nil {
		return res, err
	}
	defer release()
	n := m.Len()
	d := p.Dim()
	R := p.Constants().Radius()
	r, err := newRunner(ctx, p, cfg, pl.oracle, private, n, m.Dim, pl.work, pr.Iters)
	if err != nil {
		return res, err
	}
	res.Oracle = r.o.Name()
	if !private {
		res.Oracle = "none (non-private mean: no clipping, no noise)"
	}
	w := make([]float64, d)
	center := make([]float64, d)
	if err := r.start(w); err != nil {
		r.abort(w, &res)
		return res, err
	}
	for i, ph := range pl.phases {
		r.phase = i + 1
		copy(center, w)
		c := r.threshold(ph.clip)
		cost := r.cost(float64(ph.T))
		for t := 0; t < ph.T; t++ {
			if err := r.matrixCall(m, ph.lo, ph.hi, w, c, cost); err != nil {
				r.abort(w, &res)
				return res, err
			}
			for j := range w {
				w[j] -= ph.eta * (r.est[j] + ph.lambda*(w[j]-center[j]))
			}
			ProjectTwoBalls(w, R, center, ph.radius)
			if err := r.step(w); err != nil {
				r.abort(w, &res)
				return res, err
			}
		}
	}
	err = r.end(w, &res)
	return res, err
}

// LocalizedSC is "localized-sc": the strongly convex reduction of
// Section "localization strongly" (app: localization strongly, after
// Feldman, Koren & Talwar 2020): M = ⌈log₂ log₂ n⌉ stages j = 1..M on
// disjoint chunks of N_j = ⌊2^{j−2} n / log₂ n⌋ samples, stage j running
// Algorithm "localization" (see Localized) from the previous stage's output.
// The chunks use Σ N_j < n samples.
//
// The "diameter" D^{(j)} that stage j's step size η uses is the proof's
// recursion with its absolute constant a = 1: D^{(1)} = min(D, 2L/μ)
// (Δ₀ ≤ 2L²/μ), Δ_j = R̃ D^{(j)} (1/√N_j + (√(d ln N_j)/(εN_j))^{(k−1)/k}),
// D^{(j+1)} = min(D, √(2Δ_j/μ)) (strong convexity: ‖w − w*‖² ≤ 2Δ/μ), with
// L ≤ r̃_k and R̃ ≤ r̃_2k. The domain stays W; each stage's own localization
// balls apply. One work budget covers all stages.
type LocalizedSC struct{}

// Name implements Solver.
func (LocalizedSC) Name() string { return "localized-sc" }

// Describe implements Solver.
func (LocalizedSC) Describe() string {
	return "strongly convex reduction over the localized method, non-smooth strongly convex: Section [sec: localization strongly], Theorem [thm: localization strongly convex]"
}

func (s LocalizedSC) plan(p Problem, n int, cfg Config) (locPlan, Params, error) {
	c, name, err := prepMulti(s.Name(), p, n, 16, cfg, "clip-gaussian")
	if err != nil {
		return locPlan{}, Params{}, err
	}
	mu, err := c.mu()
	if err != nil {
		return locPlan{}, Params{}, err
	}
	D, _ := c.D()
	df := float64(p.Dim())
	chunks := scChunks(n)
	M := len(chunks)
	var notes []string
	// Radius recursion (only needed for the prescribed η).
	Dj := D
	var rate func(N float64) float64
	var rbar float64
	if cfg.Step == 0 {
		rk, err := c.rk()
		if err != nil {
			return locPlan{}, Params{}, err
		}
		if rbar, err = c.r2k(); err != nil {
			return locPlan{}, Params{}, err
		}
		Dj = math.Min(D, 2*rk/mu)
		e := 1 - invK(cfg.K)
		rate = func(N float64) float64 {
			v := 1 / math.Sqrt(N)
			if !math.IsInf(cfg.Eps, 1) {
				v += math.Pow(math.Sqrt(df*math.Log(N))/(cfg.Eps*N), e)
			}
			return v
		}
	}
	pl := locPlan{oracle: name}
	offset := 0
	for i, Nj := range chunks {
		j := i + 1
		if Nj < 2 {
			return locPlan{}, Params{}, &ConfigError{"n", fmt.Sprintf("n = %d gives stage %d only %d samples; localized-sc needs more samples", n, j, Nj)}
		}
		ph, err := locPhases(c, p.Dim(), Nj, offset, Dj, cfg, &notes)
		if err != nil {
			return locPlan{}, Params{}, err
		}
		for i := range ph {
			ph[i].stage = j
		}
		pl.phases = append(pl.phases, ph...)
		offset += Nj
		if rate != nil {
			delta := rbar * Dj * rate(float64(Nj))
			Dj = math.Min(D, math.Sqrt(2*delta/mu))
		}
	}
	notes = append(notes, fmt.Sprintf("%d stages of Algorithm \"localization\" use %d of the n = %d samples", M, offset, n))
	applyBudget(&pl, cfg, &notes)
	return pl, paramsOf(pl, p.Dim(), cfg, notes), nil
}

// Prescribe implements Solver.
func (s LocalizedSC) Prescribe(p Problem, n int, cfg Config) (Params, error) {
	_, pr, err := s.plan(p, n, cfg)
	return pr, err
}

// Run implements Solver. It materializes the dataset (multi-pass).
func (s LocalizedSC) Run(ctx context.Context, p Problem, data Samples, cfg Config) (Result, error) {
	pl, pr, err := s.plan(p, data.Len(), cfg)
	if err != nil {
		return Result{Solver: s.Name()}, err
	}
	return locExec(ctx, p, data, cfg, pl, pr, true, s.Name())
}
