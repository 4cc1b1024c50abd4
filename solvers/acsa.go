package solvers

import (
	"context"
	"fmt"
	"math"

	"dpso/solvers/vec"
)

// ACSA is "acsa": Noisy Clipped Accelerated SGD (AC-SA) for smooth convex
// losses, Algorithm "ACSA" (alg: ACSA; generic version alg: generic ACSA)
// of Lowy & Razaviyayn, with the parameters of the complete version of
// Theorem "convex ACSA one pass" (thm: convex ACSA one pass, proof in
// app: convex accel):
//
//	T = ⌈min{(βD/r̃_k)^{2k/(5k−1)} (εn/√d)^{(2k−2)/(5k−1)}, √(βD/r̃_k)·n^{1/4}}⌉ ∈ [1, n],
//	C = r̃_k (εn/√(dT))^{1/k},
//	α_t = 2/(t+1),  η_t = 4η/(t(t+1)),
//	η = max{2β, T^{3/2} √(Σ² + B²)/D}  (Proposition "ACSA generic"),
//	B = r̃_k^k/((k−1)C^{k−1}),  Σ² = dσ² + r̃_2²/s  (Lemma "bias and variance of bd14"),
//
// with s = ⌊n/T⌋ samples per disjoint batch and σ the oracle's noise. Each
// iteration draws a fresh batch, so each oracle call spends the whole
// per-sample budget ρ = ε²/2 (parallel composition). The prox step
// argmin_{w∈W} {α_t⟨g̃, w⟩ + (η_t/2)‖w_{t−1} − w‖²} is the projection
// w_t = Π_W(w_{t−1} − (α_t/η_t) g̃) with α_t/η_t = t/(2η). Output: w_T^{ag}.
//
// ε = ∞ takes the limits T = ⌈√(βD/r̃_k) n^{1/4}⌉, C = ∞, σ = 0; k = ∞
// uses r̃_∞ = L_f and the limiting exponents (2/5, 2/5, C = L_f, B = 0).
// An affine loss (β = 0 declared, Constants.Affine) gets T = 1, the
// theorem's value there (Remark "rem: affine optimal"). The shuffle oracles
// give the paper's SDP variant: the same formulas at ε̃ = ε/ln(d/δ)
// (shuffleEps). Config.Assumption may replace r̃_k and r̃_2 by r_k and r_2
// (consts.supMoment). Step overrides η.
type ACSA struct{}

// Name implements Solver.
func (ACSA) Name() string { return "acsa" }

// Describe implements Solver.
func (ACSA) Describe() string {
	return "noisy clipped accelerated SGD (AC-SA), smooth convex: Algorithm [alg: ACSA], Theorem [thm: convex ACSA one pass]"
}

type acsaPlan struct {
	op  onePass
	eta float64
}

func (ACSA) plan(p Problem, n int, cfg Config) (acsaPlan, Params, error) {
	c, name, err := prepOnePass(p, n, cfg)
	if err != nil {
		return acsaPlan{}, Params{}, err
	}
	if err := checkOnePassIters(cfg, n, 0); err != nil {
		return acsaPlan{}, Params{}, err
	}
	d := float64(p.Dim())
	D, _ := c.D()
	k, eps, nf := cfg.K, c.eps, float64(n)
	var pr Params
	if eps != cfg.Eps {
		pr.Notes = append(pr.Notes, shuffleNote(c, cfg))
	}
	// T.
	T := cfg.Iters
	if T == 0 {
		beta, err := c.betaOrAffine()
		if err != nil {
			return acsaPlan{}, Params{}, err
		}
		if beta == 0 {
			// An affine loss: both branches of the min are 0, and the
			// complete version of the theorem takes T = 1 (Remark "rem:
			// affine optimal": one noisy clipped mean of all n samples).
			T = 1
			pr.Notes = append(pr.Notes, "β = 0 (affine loss): T = 1, one oracle call on all n samples (rem: affine optimal)")
		}
	}
	if T == 0 {
		beta, _ := c.betaOrAffine()
		rk, err := c.rk()
		if err != nil {
			return acsaPlan{}, Params{}, err
		}
		a := beta * D / rk
		t2 := math.Sqrt(a) * math.Pow(nf, 0.25)
		t0 := t2
		if !math.IsInf(eps, 1) {
			ik := invK(k)
			t1 := math.Pow(a, 2/(5-ik)) * math.Pow(eps*nf/math.Sqrt(d), (2-2*ik)/(5-ik))
			t0 = math.Min(t1, t2)
		}
		var clamped bool
		T, clamped = ceilClamp(t0, 1, n)
		if clamped {
			pr.Notes = append(pr.Notes, fmt.Sprintf("T = ⌈%s⌉ clamped to [1, n] = [1, %d]", num4(t0), n))
		}
	}
	op := onePass{oracle: name, calls: T, b: newBatches(n, T)}
	// C.
	if op.clip, err = onePassClip(c, cfg, eps*nf/math.Sqrt(d*float64(T))); err != nil {
		return acsaPlan{}, Params{}, err
	}
	sigma, err := onePassSigma(op, p.Dim(), cfg)
	if err != nil {
		return acsaPlan{}, Params{}, err
	}
	// η.
	eta := cfg.Step
	if eta == 0 {
		beta, err := c.betaOrAffine()
		if err != nil {
			return acsaPlan{}, Params{}, err
		}
		var B float64
		if !math.IsInf(op.clip, 1) {
			rk, err := c.rk()
			if err != nil {
				return acsaPlan{}, Params{}, err
			}
			B = clipBias(k, rk, op.clip)
		}
		r2, err := c.r2()
		if err != nil {
			return acsaPlan{}, Params{}, err
		}
		sig := sigma
		if math.IsNaN(sig) {
			// An oracle that does not report σ before a call: use the
			// MeanOracle1 calibration 2C/(s√(2ρ)) for the step size.
			sig = 2 * op.clip / (float64(op.b.base) * eps)
		}
		S2 := d*sig*sig + r2*r2/float64(op.b.base)
		eta = math.Max(2*beta, math.Pow(float64(T), 1.5)*math.Sqrt(S2+B*B)/D)
	}
	pr.Iters = T
	pr.Batch = op.b.base
	pr.Clip = op.clip
	pr.Sigma = sigma
	pr.Step = eta
	pr.GradEvals = int64(n)
	if op.b.xtra > 0 {
		pr.Notes = append(pr.Notes, fmt.Sprintf("n mod T = %d batches get one extra sample, so all n samples are read once", op.b.xtra))
	}
	markOverrides(&pr, cfg)
	return acsaPlan{op: op, eta: eta}, pr, nil
}

// Prescribe implements Solver.
func (s ACSA) Prescribe(p Problem, n int, cfg Config) (Params, error) {
	_, pr, err := s.plan(p, n, cfg)
	return pr, err
}

// Run implements Solver.
func (s ACSA) Run(ctx context.Context, p Problem, data Samples, cfg Config) (Result, error) {
	pl, pr, err := s.plan(p, data.Len(), cfg)
	if err != nil {
		return Result{Solver: s.Name()}, err
	}
	return s.exec(ctx, p, data, cfg, pl, pr, true, s.Name())
}

func (s ACSA) exec(ctx context.Context, p Problem, data Samples, cfg Config, pl acsaPlan, pr Params, private bool, solver string) (Result, error) {
	return s.loop(ctx, p, data, cfg, pl, pr, private, solver).run()
}

func (ACSA) loop(ctx context.Context, p Problem, data Samples, cfg Config, pl acsaPlan, pr Params, private bool, solver string) *onePassLoop {
	res := Result{Solver: solver, Params: pr, Notes: pr.Notes}
	d := p.Dim()
	R := p.Constants().Radius()
	w := make([]float64, d)   // w_{t−1}, then w_t
	wag := make([]float64, d) // w^{ag}
	wmd := make([]float64, d) // w^{md}
	point := func(t int) []float64 {
		a := 2 / float64(t+2) // α_t with t = index + 1
		for j := range wmd {
			wmd[j] = (1-a)*wag[j] + a*w[j]
		}
		return wmd
	}
	update := func(t int, g []float64) []float64 {
		tt := float64(t + 1)
		a := 2 / (tt + 1)
		step := tt / (2 * pl.eta) // α_t/η_t
		for j := range w {
			w[j] -= step * g[j]
		}
		vec.ProjectBall(w, R)
		for j := range wag {
			wag[j] = a*w[j] + (1-a)*wag[j]
		}
		return wag
	}
	return newOnePassLoop(ctx, p, data, cfg, pl.op, private, res, wag, point, update)
}
