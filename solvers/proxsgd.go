package solvers

import (
	"context"
	"fmt"
	"math"
)

// ProxSGD is "prox-sgd": Noisy Clipped Proximal SGD for proximal-PL losses
// F = F⁰ + f¹, Algorithm "zCSDP SGD" (alg: zCSDP SGD; generic version
// alg: generic prox SGD), with the parameters of the precise statement of
// Theorem "PL upper bound" (app: PL) and Proposition "extendsAS21Thm6":
//
//	η = 1/(2β),
//	T = 2⌈κ ln(Δμ/(B² + Σ²))⌉,  κ = β/μ,
//	C = r̃_k (ε²n²/(dT²))^{1/(2k)},
//	B = r̃_k^k/((k−1)C^{k−1}),  Σ² = dσ² + r̃_2²/s,
//	w_{t+1} = prox_{ηf¹}(w_t − η g̃⁰_t),  output w_T,
//
// on T disjoint batches of s = ⌊n/T⌋ samples, each oracle call spending the
// whole per-sample budget. f¹ is the problem's Regularizer plus the
// indicator of W, whose prox is Regularizer.Prox.
//
// T appears on both sides (C, σ and Σ depend on T), so T is the smallest
// integer in [1, n] with T ≥ 2⌈κ ln(Δμ/(B(T)² + Σ(T)²))⌉; the right side
// does not increase with T, so this is well defined and found by bisection.
// Δ ≥ F(w₀) − F* is not a declared constant; with w₀ = 0 ∈ W and f¹ ≥ 0 =
// f¹(0), F(0) − F* ≤ F⁰(0) − F⁰(w*) ≤ sup_W‖∇F⁰‖·‖w*‖ ≤ r̃_2·D/2 (Jensen:
// ‖∇F⁰(w)‖ ≤ E‖∇f⁰(w, x)‖ ≤ r̃_2), so Δ = r̃_2 D/2.
//
// ε = ∞: C = ∞, σ = 0, B = 0 (T from Σ² = r̃_2²/s alone); k = ∞: C = L_f,
// B = 0. Step overrides η.
type ProxSGD struct{}

// Name implements Solver.
func (ProxSGD) Name() string { return "prox-sgd" }

// Describe implements Solver.
func (ProxSGD) Describe() string {
	return "noisy clipped proximal SGD, proximal-PL (non-convex): Algorithm [alg: zCSDP SGD], Theorem [thm: PL upper bound]"
}

type proxPlan struct {
	op  onePass
	eta float64
}

func (ProxSGD) plan(p Problem, n int, cfg Config) (proxPlan, Params, error) {
	c, name, err := prepOnePass(p, n, cfg)
	if err != nil {
		return proxPlan{}, Params{}, err
	}
	if err := checkOnePassIters(cfg, n, 0); err != nil {
		return proxPlan{}, Params{}, err
	}
	di := p.Dim()
	d := float64(di)
	D, _ := c.D()
	k, eps, nf := cfg.K, c.eps, float64(n)
	var pr Params
	if eps != cfg.Eps {
		pr.Notes = append(pr.Notes, shuffleNote(c, cfg))
	}
	eta := cfg.Step
	if eta == 0 {
		beta, err := c.beta()
		if err != nil {
			return proxPlan{}, Params{}, err
		}
		eta = 1 / (2 * beta)
	}
	clipFor := func(T int) (float64, error) {
		return onePassClip(c, cfg, eps*nf/(math.Sqrt(d)*float64(T)))
	}
	T := cfg.Iters
	if T == 0 {
		beta, err := c.beta()
		if err != nil {
			return proxPlan{}, Params{}, err
		}
		mu, err := c.mu()
		if err != nil {
			return proxPlan{}, Params{}, err
		}
		r2, err := c.r2()
		if err != nil {
			return proxPlan{}, Params{}, err
		}
		kappa := beta / mu
		delta := r2 * D / 2
		// B needs r̃_k whenever C is finite.
		var rk float64
		if finiteC := (cfg.Clip > 0 && !math.IsInf(cfg.Clip, 1)) || (cfg.Clip == 0 && !math.IsInf(eps, 1)); finiteC {
			if rk, err = c.rk(); err != nil {
				return proxPlan{}, Params{}, err
			}
		}
		// rhs(T) = 2⌈κ ln(Δμ/(B² + Σ²))⌉ at T.
		probe := newSigmaProbe(name)
		cost := callCost(kindOf(name), cfg, 1)
		rhs := func(T int) float64 {
			C, _ := clipFor(T)
			s := float64(n / T)
			var B, sig float64
			if !math.IsInf(C, 1) {
				B = clipBias(k, rk, C)
				sig = probe.sigmaL2(di, n/T, C, cost)
				if math.IsNaN(sig) {
					sig = 2 * C / (s * eps)
				}
			}
			S2 := d*sig*sig + r2*r2/s
			return 2 * math.Ceil(kappa*math.Log(delta*mu/(B*B+S2)))
		}
		lo, hi := 1, n
		if float64(hi) < rhs(hi) {
			T = n
			pr.Notes = append(pr.Notes, fmt.Sprintf("T = 2⌈κ ln(Δμ/(B²+Σ²))⌉ exceeds n at every T ≤ n; clamped to n = %d", n))
		} else {
			for lo < hi { // smallest T with T ≥ rhs(T)
				mid := lo + (hi-lo)/2
				if float64(mid) >= rhs(mid) {
					hi = mid
				} else {
					lo = mid + 1
				}
			}
			T = lo
		}
		pr.Notes = append(pr.Notes, fmt.Sprintf("Δ = r̃_2·D/2 = %s bounds F(w₀) − F* (w₀ = 0)", num4(delta)))
	}
	C, err := clipFor(T)
	if err != nil {
		return proxPlan{}, Params{}, err
	}
	op := onePass{oracle: name, calls: T, b: newBatches(n, T), clip: C}
	pr.Iters = T
	pr.Batch = op.b.base
	pr.Clip = C
	if pr.Sigma, err = onePassSigma(op, di, cfg); err != nil {
		return proxPlan{}, Params{}, err
	}
	pr.Step = eta
	pr.GradEvals = int64(n)
	if op.b.xtra > 0 {
		pr.Notes = append(pr.Notes, fmt.Sprintf("n mod T = %d batches get one extra sample, so all n samples are read once", op.b.xtra))
	}
	markOverrides(&pr, cfg)
	return proxPlan{op: op, eta: eta}, pr, nil
}

// Prescribe implements Solver.
func (s ProxSGD) Prescribe(p Problem, n int, cfg Config) (Params, error) {
	_, pr, err := s.plan(p, n, cfg)
	return pr, err
}

// Run implements Solver.
func (s ProxSGD) Run(ctx context.Context, p Problem, data Samples, cfg Config) (Result, error) {
	pl, pr, err := s.plan(p, data.Len(), cfg)
	if err != nil {
		return Result{Solver: s.Name()}, err
	}
	return s.exec(ctx, p, data, cfg, pl, pr, true, s.Name())
}

func (s ProxSGD) exec(ctx context.Context, p Problem, data Samples, cfg Config, pl proxPlan, pr Params, private bool, solver string) (Result, error) {
	return s.loop(ctx, p, data, cfg, pl, pr, private, solver).run()
}

func (ProxSGD) loop(ctx context.Context, p Problem, data Samples, cfg Config, pl proxPlan, pr Params, private bool, solver string) *onePassLoop {
	res := Result{Solver: solver, Params: pr, Notes: pr.Notes}
	d := p.Dim()
	R := p.Constants().Radius()
	reg := p.Regularizer()
	w := make([]float64, d)
	point := func(int) []float64 { return w }
	update := func(_ int, g []float64) []float64 {
		for j := range w {
			w[j] -= pl.eta * g[j]
		}
		reg.Prox(w, pl.eta, R)
		return w
	}
	return newOnePassLoop(ctx, p, data, cfg, pl.op, private, res, w, point, update)
}
