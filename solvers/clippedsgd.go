package solvers

import (
	"context"
	"fmt"
	"math"

	"dpso/solvers/vec"
)

// ClippedSGD is "clipped-sgd": Noisy Clipped SGD for smooth strongly convex
// losses, Algorithm "vanilla SGD" (alg: vanilla SGD; generic version
// alg: generalized vanilla SGD), with the parameters of the precise
// statement of Theorem "strongly convex smooth upper bound" (app: strongly
// convex):
//
//	T = ⌈4κ ln((μβD²/r̃_k²)(n + (ε²n²/d)^{(k−1)/k}))⌉ ∈ [1, n−1],  κ = β/μ,
//	C = r̃_k (ε²n²/(dT))^{1/(2k)},
//
// and the step sizes and averaging weights of Lemma "stich stepsize"
// (Stich 2019, Lemma 3) with g = β and a = μ/2, as the proof of
// Proposition "strongly convex biased sgd" applies it:
//
//	if T ≤ 2κ:  η_t = 1/β,  ζ_t = (1 − μ/(2β))^{−(t+1)};
//	else, t₀ = ⌈T/2⌉:  η_t = 1/β, ζ_t = 0 for t < t₀;
//	                   η_t = 4/(μ(4κ + t − t₀)), ζ_t = (4κ + t − t₀)² for t ≥ t₀.
//
// The loop runs t = 0, …, T (T + 1 oracle calls, as in the algorithm) on
// disjoint batches of ⌊n/(T+1)⌋ samples, each call spending the whole
// per-sample budget; w_{t+1} = Π_W(w_t − η_t g̃_t) and the output is
// ŵ_T = Σ ζ_t w_{t+1} / Σ ζ_t.
//
// ε = ∞: the logarithm's argument is infinite, so T takes its limit, the
// clamp n − 1 (non-private SGD with batches of one sample), and C = ∞;
// k = ∞: exponents 1 and 0, C = L_f. Step overrides the base step 1/β (the
// schedule then uses g = 1/step in place of β, which needs step < 2/μ).
type ClippedSGD struct{}

// Name implements Solver.
func (ClippedSGD) Name() string { return "clipped-sgd" }

// Describe implements Solver.
func (ClippedSGD) Describe() string {
	return "noisy clipped SGD with Stich's steps and weights, smooth strongly convex: Algorithm [alg: vanilla SGD], Theorem [thm: strongly convex smooth upper bound]"
}

type sgdPlan struct {
	op  onePass
	T   int
	g   float64 // 1/(base step)
	mu  float64
	big bool // T > 2κ: the two-stage schedule
}

// stich returns η_t and ζ_t of Lemma "stich stepsize" for t = 0..T.
func (pl sgdPlan) stich(t int) (eta, zeta float64) {
	kap := pl.g / pl.mu
	if !pl.big {
		return 1 / pl.g, math.Pow(1-pl.mu/(2*pl.g), -float64(t+1))
	}
	t0 := (pl.T + 1) / 2 // ⌈T/2⌉
	if t < t0 {
		return 1 / pl.g, 0
	}
	x := 4*kap + float64(t-t0)
	return 4 / (pl.mu * x), x * x
}

func (ClippedSGD) plan(p Problem, n int, cfg Config) (sgdPlan, Params, error) {
	c, name, err := prepOnePass(p, n, cfg)
	if err != nil {
		return sgdPlan{}, Params{}, err
	}
	if n < 2 {
		return sgdPlan{}, Params{}, &ConfigError{"n", fmt.Sprintf("n = %d; clipped-sgd makes T + 1 ≥ 2 oracle calls on disjoint batches, so it needs n ≥ 2", n)}
	}
	if err := checkOnePassIters(cfg, n, 1); err != nil {
		return sgdPlan{}, Params{}, err
	}
	mu, err := c.mu()
	if err != nil {
		return sgdPlan{}, Params{}, err
	}
	d := float64(p.Dim())
	D, _ := c.D()
	k, eps, nf := cfg.K, c.eps, float64(n)
	var pr Params
	if eps != cfg.Eps {
		pr.Notes = append(pr.Notes, shuffleNote(c, cfg))
	}
	g := 0.0
	if cfg.Step > 0 {
		if cfg.Step >= 2/mu {
			return sgdPlan{}, Params{}, &ConfigError{"step", fmt.Sprintf("step = %s; Stich's schedule needs a step in (0, 2/μ) = (0, %s)", exactNum(cfg.Step), num4(2/mu))}
		}
		g = 1 / cfg.Step
	} else {
		beta, err := c.beta()
		if err != nil {
			return sgdPlan{}, Params{}, err
		}
		if beta < mu {
			return sgdPlan{}, Params{}, &ConfigError{"beta", fmt.Sprintf("β = %s < μ = %s; a β-smooth μ-strongly convex F has β ≥ μ", exactNum(beta), exactNum(mu))}
		}
		g = beta
	}
	T := cfg.Iters
	if T == 0 {
		beta, err := c.beta()
		if err != nil {
			return sgdPlan{}, Params{}, err
		}
		rk, err := c.rk()
		if err != nil {
			return sgdPlan{}, Params{}, err
		}
		kappa := beta / mu
		arg := mu * beta * D * D / (rk * rk) * (nf + math.Pow(eps*eps*nf*nf/d, 1-invK(k)))
		t0 := 4 * kappa * math.Log(arg)
		var clamped bool
		T, clamped = ceilClamp(t0, 1, n-1)
		if clamped {
			pr.Notes = append(pr.Notes, fmt.Sprintf("T = ⌈%s⌉ clamped to [1, n−1] = [1, %d]", num4(t0), n-1))
		}
	}
	op := onePass{oracle: name, calls: T + 1, b: newBatches(n, T+1)}
	if op.clip, err = onePassClip(c, cfg, eps*nf/math.Sqrt(d*float64(T))); err != nil {
		return sgdPlan{}, Params{}, err
	}
	pl := sgdPlan{op: op, T: T, g: g, mu: mu, big: float64(T) > 2*g/mu}
	pr.Iters = T
	pr.Batch = op.b.base
	pr.Clip = op.clip
	if pr.Sigma, err = onePassSigma(op, p.Dim(), cfg); err != nil {
		return sgdPlan{}, Params{}, err
	}
	pr.Step = 1 / g
	pr.GradEvals = int64(n)
	pr.Notes = append(pr.Notes, fmt.Sprintf("the loop t = 0..T makes T + 1 = %d oracle calls on disjoint batches", T+1))
	if pl.big {
		pr.Notes = append(pr.Notes, fmt.Sprintf("T > 2κ: constant step 1/β for t < ⌈T/2⌉ = %d, then η_t = 4/(μ(4κ + t − t₀)) with weights (4κ + t − t₀)²", (T+1)/2))
	} else {
		pr.Notes = append(pr.Notes, "T ≤ 2κ: constant step 1/β with weights (1 − μ/(2β))^{−(t+1)}")
	}
	markOverrides(&pr, cfg)
	return pl, pr, nil
}

// Prescribe implements Solver.
func (s ClippedSGD) Prescribe(p Problem, n int, cfg Config) (Params, error) {
	_, pr, err := s.plan(p, n, cfg)
	return pr, err
}

// Run implements Solver.
func (s ClippedSGD) Run(ctx context.Context, p Problem, data Samples, cfg Config) (Result, error) {
	pl, pr, err := s.plan(p, data.Len(), cfg)
	if err != nil {
		return Result{Solver: s.Name()}, err
	}
	return s.exec(ctx, p, data, cfg, pl, pr, true, s.Name())
}

func (s ClippedSGD) exec(ctx context.Context, p Problem, data Samples, cfg Config, pl sgdPlan, pr Params, private bool, solver string) (Result, error) {
	return s.loop(ctx, p, data, cfg, pl, pr, private, solver).run()
}

func (ClippedSGD) loop(ctx context.Context, p Problem, data Samples, cfg Config, pl sgdPlan, pr Params, private bool, solver string) *onePassLoop {
	res := Result{Solver: solver, Params: pr, Notes: pr.Notes}
	d := p.Dim()
	R := p.Constants().Radius()
	w := make([]float64, d)
	avg := make([]float64, d)
	var Z float64
	point := func(int) []float64 { return w }
	update := func(t int, g []float64) []float64 {
		eta, zeta := pl.stich(t)
		for j := range w {
			w[j] -= eta * g[j]
		}
		vec.ProjectBall(w, R)
		if zeta > 0 {
			Z += zeta
			f := zeta / Z
			for j := range avg {
				avg[j] += f * (w[j] - avg[j])
			}
		}
		if Z == 0 {
			return w
		}
		return avg
	}
	return newOnePassLoop(ctx, p, data, cfg, pl.op, private, res, w, point, update)
}
