package scenarios

import (
	"context"
	"fmt"
	"math"
	"sort"

	"dpso/scenarios/dist"
	"dpso/solvers"
	"dpso/solvers/vec"
	"dpso/theory"

	"gonum.org/v1/gonum/floats"
)

// The scenarios with Student-t features (logreg-t, hinge-t, absreg-t) and
// contaminated: their builders, for the catalogue (catalogue.go); the model
// type and the shared helpers are in builders.go.

// ---- classification ----

// buildClassifier builds logreg-t and hinge-t: a = m z, z ~ N(0, I_d),
// m = √(ν/χ²_ν) (multivariate t(ν), Cov a = ν/(ν−2)·I), w* = ‖w*‖(1, …, 1)/√d;
// logreg-t labels are +1 with probability σ(⟨w*, a⟩), hinge-t labels are
// sign(⟨w*, a⟩ + σ m ζ). The loss is ℓ(w, x) + (λ₂/2)‖w‖².
//
// Constants: logistic β = ¼·ν/(ν−2) + λ₂ (the Hessian E σ'(·) a aᵀ + λ₂I ⪯
// ¼ Cov a + λ₂I); μ = λ₂. sup_{‖w‖≤R}‖∇f‖ = ‖a‖σ(R‖a‖) + λ₂R (logistic) or
// ‖a‖ + λ₂R (hinge), with ‖a‖ = m‖z‖: for the hinge with λ₂ = 0,
// r̃_k = (E‖a‖^k)^{1/k} exactly (dist.MVTNormMoment), otherwise by Monte
// Carlo on MCDraws draws of (‖z‖, m) (its standard error is finite only
// for 2k < ν). r̃_k < ∞ iff k < ν.
//
// F has no closed form: it is estimated on the fixed evaluation sample of
// EvalSizeFor(d+1) draws and F* certified as in newSampleRisk.
func buildClassifier(ctx context.Context, s *ProblemDef) (*model, error) {
	d, R, nu := s.D, s.Diam/2, s.Tail
	wn := s.Params["wstar"]
	logistic := s.Scenario == LogRegT
	sigma := 0.0
	if !logistic {
		sigma = s.Params["noise"]
	}
	l2, _ := l2Weights(s)
	wstar := make([]float64, d)
	for j := range wstar {
		wstar[j] = wn / math.Sqrt(float64(d))
	}
	m := &model{d: d, sdim: d + 1, radius: R, mu: l2, betaF: math.Inf(1)} // unbounded features; the hinge is not smooth
	chi := dist.NewGamma(nu / 2)
	if logistic {
		m.obj = &glm{loss: logisticLoss{}, d: d, l2: l2}
		m.beta = nu/(nu-2)/4 + l2
		m.draw = eachRow(m.sdim, func(r *dist.Rand, x []float64) {
			_, sc := drawT(r, x[:d], wstar, chi, nu)
			if r.Float64() < sigmoid(sc) {
				x[d] = 1
			} else {
				x[d] = -1
			}
		})
	} else {
		m.obj = &glm{loss: hingeLoss{}, d: d, l2: l2}
		m.draw = eachRow(m.sdim, func(r *dist.Rand, x []float64) {
			mix, sc := drawT(r, x[:d], wstar, chi, nu)
			if sc+sigma*mix*r.NormFloat64() >= 0 {
				x[d] = 1
			} else {
				x[d] = -1
			}
		})
	}
	if err := normProfile(ctx, m, d, nu, R, l2, logistic); err != nil {
		return nil, err
	}
	m.sup = glmSup(d, nu, R, l2, wn, m.obj.(*glm).loss, m.prof)
	risk, err := evalRisk(ctx, s, m)
	if err != nil {
		return nil, err
	}
	m.risk = risk
	return m, nil
}

// normProfile sets the moment profile of a loss whose sup-gradient is
// g(‖a‖) + λ₂R with a multivariate t(ν): exact when g is the identity and
// λ₂ = 0, Monte Carlo otherwise.
func normProfile(ctx context.Context, m *model, d int, nu, R, l2 float64, logistic bool) error {
	if !logistic && l2 == 0 {
		m.prof = &profile{lf: math.Inf(1), kmax: nu, method: "exact (E‖a‖^k of the multivariate t)",
			eval: func(k float64) (float64, float64) {
				return math.Pow(dist.MVTNormMoment(nu, d, k), 1/k), 0
			}}
		return nil
	}
	chiNu, chiD := dist.NewGamma(nu/2), dist.NewGamma(float64(d)/2)
	draw := func(r *dist.Rand) float64 {
		n := math.Sqrt(nu/(2*chiNu.Draw(r))) * math.Sqrt(2*chiD.Draw(r))
		if logistic {
			return n*sigmoid(R*n) + l2*R
		}
		return n + l2*R
	}
	key := fmt.Sprintf("norm/%t/d=%d/nu=%g/R=%g/l2=%g", logistic, d, nu, R, l2)
	sample, err := mcCache.get(ctx, key, func(ctx context.Context) (*mcSample, error) { return newMCSample(ctx, draw) })
	if err != nil {
		return err
	}
	m.prof = &profile{lf: math.Inf(1), kmax: nu, method: fmt.Sprintf("Monte Carlo (%d draws)", MCDraws),
		eval: func(k float64) (float64, float64) {
			mk, se := sample.moment(k)
			r, rse := rootFromMC(k, 1, mk, se, 0)
			if 2*k >= nu {
				rse = math.Inf(1) // E G^{2k} = ∞: the estimator's variance is infinite
			}
			return r, rse
		}}
	return nil
}

// evalCache holds the evaluation-sample risks (the sample and F*), keyed by
// every parameter of the distribution and the loss.
var evalCache = lazyCache[*sampleRisk]{max: 16, what: "the evaluation sample and its F*"}

// evalRisk draws the fixed evaluation sample of EvalSizeFor(d+1) draws, a
// chunked stream (streamSamples) with the key StreamKey(Seeded, 0, 0,
// "eval"), generated chunk by chunk on every core, and minimizes F̂ over W
// on it.
func evalRisk(ctx context.Context, s *ProblemDef, m *model) (*sampleRisk, error) {
	return evalCache.get(ctx, "eval/"+distKey(s, m), func(ctx context.Context) (*sampleRisk, error) {
		data, err := evalSample(ctx, m)
		if err != nil {
			return nil, err
		}
		return newSampleRisk(ctx, m.obj, m.reg, data, m.radius, Population,
			fmt.Sprintf("evaluation sample of %d draws (F* by L-BFGS over W, certified by its Frank–Wolfe gap)", data.Len()), knownMinimumOf(distKey(s, m), m.obj.dim()))
	})
}

// distKey names a scenario's distribution and loss: every parameter of
// both (the key of the caches of what is computed from its evaluation
// sample).
func distKey(s *ProblemDef, m *model) string {
	return fmt.Sprintf("%s/d=%d/R=%g/tail=%g/params=%v/obj=%s/reg=%+v", s.Scenario, s.D, m.radius, s.Tail, sortedParams(s.Params), m.obj.key(), m.reg)
}

// evalSample draws the fixed evaluation sample of EvalSizeFor(sdim) draws
// of the stream keyed StreamKey(Seeded, 0, 0, "eval"), chunk by chunk on
// every core.
func evalSample(ctx context.Context, m *model) (*solvers.Matrix, error) {
	src := &streamSamples{n: EvalSizeFor(m.sdim), sdim: m.sdim, key: solvers.StreamKey(solvers.Seeded, 0, 0, "eval"), draw: m.draw}
	return src.materialize(ctx, cores())
}

func sortedParams(p map[string]float64) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := ""
	for _, k := range keys {
		out += fmt.Sprintf("%s=%g;", k, p[k])
	}
	return out
}

// drawT fills a with a multivariate Student-t(ν) vector a = m·z,
// m = √(ν/V), V ~ χ²_ν = 2·Gamma(ν/2) (chi is the sampler of Gamma(ν/2)),
// z ~ N(0, I) (drawn from r in that order), and returns m and ⟨w, a⟩: the
// features of logreg-t, hinge-t and absreg-t.
func drawT(r *dist.Rand, a, w []float64, chi dist.GammaSampler, nu float64) (m, wa float64) {
	m = math.Sqrt(nu / (2 * chi.Draw(r)))
	r.Normals(a)
	return m, vec.ScaleDot(m, a, w)
}

// ---- absolute-loss regression ----

// buildAbsReg builds absreg-t: (a, ξ) jointly multivariate t(ν) (a = m z,
// ξ = σ m ζ, m = √(ν/χ²_ν)), y = ⟨w*, a⟩ + ξ, f = |⟨w, a⟩ − y| + (λ₂/2)‖w‖².
//
// ⟨w, a⟩ − y = m·(⟨w − w*, z⟩ − σζ) with the bracket N(0, ‖w − w*‖² + σ²)
// independent of m, so
//
//	F(w) = c·√(‖w − w*‖² + σ²) + (λ₂/2)‖w‖²,  c = √(2/π)·E m,
//	E m = √ν · E(χ²_ν)^{−1/2} = √ν Γ((ν−1)/2)/(√2 Γ(ν/2)),
//
// closed form (finite for ν > 1); F* on the segment [0, w*] (newAbsRisk).
// μ = λ₂; sup‖∇f‖ = ‖a‖ + λ₂R (see normProfile).
func buildAbsReg(ctx context.Context, s *ProblemDef) (*model, error) {
	d, R, nu := s.D, s.Diam/2, s.Tail
	sigma, wn := s.Params["noise"], s.Params["wstar"]
	l2, _ := l2Weights(s)
	wstar := make([]float64, d)
	for j := range wstar {
		wstar[j] = wn / math.Sqrt(float64(d))
	}
	m := &model{obj: &glm{loss: absoluteLoss{}, d: d, l2: l2}, d: d, sdim: d + 1, radius: R, mu: l2, betaF: math.Inf(1)}
	chi := dist.NewGamma(nu / 2)
	m.draw = eachRow(m.sdim, func(r *dist.Rand, x []float64) {
		mix, y := drawT(r, x[:d], wstar, chi, nu)
		x[d] = y + sigma*mix*r.NormFloat64()
	})
	em := math.Sqrt(nu) * dist.InvChiSquareMoment(nu, 0.5)
	m.risk = newAbsRisk(math.Sqrt(2/math.Pi)*em, sigma, l2, R, wstar)
	// ∂f(w*, x) ∋ −sign(ξ)a, and (a, ξ) ↦ (a, −ξ) preserves the law.
	m.symAt = wstar
	if err := normProfile(ctx, m, d, nu, R, l2, false); err != nil {
		return nil, err
	}
	m.sup = glmSup(d, nu, R, l2, wn, absoluteLoss{}, m.prof)
	return m, nil
}

// ---- contaminated ----

// buildContaminated builds contaminated: with probability 1 − η a clean
// sample a ~ N(0, I_d), y = ⟨w*, a⟩ + σζ; with probability η an outlier
// a = M·u (u uniform on the unit sphere), y = ±M (fair sign), f = ½(⟨w, a⟩ − y)².
//
// E aaᵀ = h·I with h = (1 − η) + ηM²/d, E a y = (1 − η)w*, E y² = (1 − η)(‖w*‖² + σ²) + ηM²,
// so F(w) = ½h‖w − c‖² + ½E y² − ½h‖c‖² with c = (1 − η)w*/h (the
// contaminated population's own optimum): β = μ = h.
//
// sup‖∇f‖ is M(RM + M) on an outlier and H = ‖a‖(R‖a‖ + |y|) on a clean
// sample, so r̃_k^k = (1 − η)E H^k + η(M²(R + 1))^k, the clean part by
// quadrature (gaussSup) for k ≤ gaussMaxK, by Monte Carlo (MCDraws draws,
// O(1) each) beyond. L_f = ∞ (Gaussian features).
func buildContaminated(ctx context.Context, s *ProblemDef) (*model, error) {
	d, R := s.D, s.Diam/2
	eta, M := s.Tail, s.Params["size"]
	sigma, wn := s.Params["noise"], s.Params["wstar"]
	wstar := make([]float64, d)
	for j := range wstar {
		wstar[j] = wn / math.Sqrt(float64(d))
	}
	hv := (1 - eta) + eta*M*M/float64(d)
	h := make([]float64, d)
	c := make([]float64, d)
	for j := range h {
		h[j] = hv
		c[j] = (1 - eta) * wstar[j] / hv
	}
	ey2 := (1-eta)*(wn*wn+sigma*sigma) + eta*M*M
	cst := ey2/2 - hv*sqnorm(c)/2
	inLoss, reg := l2Weights(s)
	_ = inLoss
	m := &model{obj: &glm{loss: squaredLoss{}, d: d}, reg: reg, d: d, sdim: d + 1, radius: R, beta: hv, mu: hv, betaF: math.Inf(1)}
	m.risk = newQuadRisk(h, c, cst, reg.L1, reg.L2, R)
	m.draw = eachRow(m.sdim, func(r *dist.Rand, x []float64) {
		if r.Float64() < eta {
			dist.UnitSphere(r, x[:d])
			for j := range d {
				x[j] *= M
			}
			if r.Uint64()&1 == 0 {
				x[d] = M
			} else {
				x[d] = -M
			}
			return
		}
		r.Normals(x[:d+1])
		x[d] = floats.Dot(wstar, x[:d]) + sigma*x[d]
	})
	chiRest := dist.NewGamma(float64(d-1) / 2) // χ²_{d−1}
	drawH := func(r *dist.Rand) float64 {
		u := r.NormFloat64()
		n2 := u * u
		if d > 1 {
			n2 += 2 * chiRest.Draw(r)
		}
		n := math.Sqrt(n2)
		return n * (R*n + math.Abs(wn*u+sigma*r.NormFloat64()))
	}
	key := fmt.Sprintf("gauss-linreg/d=%d/R=%g/noise=%g/w=%g", d, R, sigma, wn)
	gOut := M * (R*M + M)
	g := newGaussSup(d, R, wn, sigma)
	m.prof = &profile{lf: math.Inf(1), kmax: math.Inf(1),
		method: "exact (outlier part in closed form + the clean part by quadrature)",
		eval: func(k float64) (float64, float64) {
			if k > gaussMaxK {
				// Beyond the quadrature's orders: Monte Carlo, drawn when first asked.
				sample, err := mcCache.get(context.Background(), key, func(ctx context.Context) (*mcSample, error) { return newMCSample(ctx, drawH) })
				if err != nil {
					return math.NaN(), math.NaN()
				}
				mh, seh := sample.moment(k)
				return rootFromMC(k, 1-eta, mh, seh, eta*math.Pow(gOut, k))
			}
			mk := mixMom(1-eta, mom{log: g.logMoment(k)}, eta, mom{log: k * math.Log(gOut)})
			r, _ := mk.root(k, 1)
			return r, 0
		}}
	m.sup = contaminatedSup(d, R, eta, M, sigma, wn, hv)
	m.notes = append(m.notes, fmt.Sprintf("F and F* are those of the contaminated population: its optimum (1 − η)w*/h is shrunk towards 0 by the outliers (h = %s)", theory.Sig4.Format(hv)))
	return m, nil
}
