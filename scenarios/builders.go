package scenarios

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/integrate/quad"

	"dpso/scenarios/dist"
	"dpso/solvers"
	"dpso/solvers/vec"
	"dpso/theory"
)

// model is a built problem: the per-sample loss, the domain, the declared
// constants, the data law and the risk.
type model struct {
	obj    objective
	reg    solvers.Regularizer // f¹ (class ppl only)
	d      int
	sdim   int
	radius float64
	beta   float64 // declared β (0: none, except for the linear loss)
	mu     float64 // declared μ (0: none)
	// betaF is the worst-case smoothness β_f = sup_x of the per-sample
	// loss's smoothness (+Inf when f(·, x) is not uniformly smooth, NaN
	// when unknown); κ_f = β_f/μ is a prior bound's input.
	betaF float64
	prof  *profile
	// sup holds r_k and γ_k (Assumptions "ass:boundednoncentral" and
	// "ass:coordinatewise"); nil for user data.
	sup *supProfile
	// draw writes len(xs)/sdim samples into the consecutive rows of xs
	// (len(xs) a multiple of sdim), row after row from r, without
	// allocating; nil for user data. A scenario that draws one row at a time
	// is wrapped by eachRow; the hot ones loop over the rows themselves, so
	// that a block costs one call.
	draw func(r *dist.Rand, xs []float64)
	data *solvers.Matrix // user data (nil for scenarios): the rows a run reads
	// holdout are user data's held-out rows (ProblemDef.Holdout; nil when
	// none).
	holdout *solvers.Matrix
	risk    riskModel
	// geometry is where the empirical minimizer of user data lies
	// relative to W (nil for a scenario).
	geometry *Geometry
	notes    []string
	// symAt is a point at which the law of ∇f(w, x) is symmetric about 0
	// (the true parameter of a regression with symmetric noise), nil when
	// none is known; twoPoint is the law of x of the hard instances (nil
	// otherwise). ClipBias reads both.
	symAt    []float64
	twoPoint *twoPointLaw
}

// hardP is the lower-bound proofs' p = min(1, √d/(n√ρ)) with ρ = ε²/2.
func hardP(d, n int, eps float64) float64 {
	rho := theory.Rho(eps)
	return math.Min(1, math.Sqrt(float64(d))/(float64(n)*math.Sqrt(rho)))
}

// hardSign is the sign vector ν ∈ {±1}^d of the hard instances: the proofs
// pick ν from a Gilbert–Varshamov packing and the lower bound holds for
// some ν; dpso fixes ν_j = +1 for even j and −1 for odd j (public, so no
// algorithm can exploit it beyond what the proof allows).
func hardSign(j int) float64 {
	if j%2 == 0 {
		return 1
	}
	return -1
}

// powInvK is p^{−1/k}, 1 for k = ∞.
func powInvK(p, k float64) float64 {
	if math.IsInf(k, 1) {
		return 1
	}
	return math.Pow(p, -1/k)
}

// inSC: the class is strongly convex, so the in-loss ℓ2 weight applies;
// for class ppl the ℓ2 weight goes into the regularizer f¹ instead.
func l2Weights(s *ProblemDef) (inLoss float64, reg solvers.Regularizer) {
	var l1, l2 float64
	if s.Lambda1 != nil {
		l1 = *s.Lambda1
	}
	if s.Lambda2 != nil {
		l2 = *s.Lambda2
	}
	if s.Class == theory.PPL {
		return 0, solvers.Regularizer{L1: l1, L2: l2}
	}
	return l2, solvers.Regularizer{}
}

// ---- example1 ----

// example1Truncation is the support bound of Example 1's truncated normals.
const example1Truncation = 1e10

// buildExample1 builds the paper's Example 1 (example: gauss lin reg):
// f(w, x) = ½(w x⁽¹⁾ − x⁽²⁾)² on W = [−1, 1], x⁽¹⁾, x⁽²⁾ i.i.d. N(0, s²)
// truncated to [−10¹⁰, 10¹⁰].
//
// F(w) = ½s²w² + ½s² (x⁽¹⁾, x⁽²⁾ independent, mean 0, variance s²; the
// truncation at ≥ 10¹⁰ standard deviations changes the variance by a factor
// 1 − O(10¹⁰e^{−5·10¹⁹}), which rounds to 1), so β = μ = s², F* = ½s² at 0.
//
// sup_{|w|≤1}|∇f| = |x⁽¹⁾|(|x⁽¹⁾| + |x⁽²⁾|), so L_f = 10¹⁰(10¹⁰ + 10¹⁰) =
// 2·10²⁰ and, in polar coordinates (x⁽¹⁾, x⁽²⁾) = s·ρ(cos θ, sin θ),
//
//	r̃_k^k = s^{2k} (2/π) 2^k Γ(k+1) ∫_0^{π/2} cos^kθ (cos θ + sin θ)^k dθ,
//
// whose smooth 1-d integral is computed by 128-node Gauss–Legendre
// quadrature (exact to rounding). E.g. r̃_2 = √(4 + 8/π)·s² ≈ 2.559 s².
func buildExample1(_ context.Context, s *ProblemDef) (*model, error) {
	sd := s.Params["sigma"]
	const R = 1.0
	m := &model{
		obj: &glm{loss: squaredLoss{}, d: 1}, d: 1, sdim: 2, radius: R,
		beta: sd * sd, mu: sd * sd,
		// f'' = (x⁽¹⁾)² ≤ 10²⁰ on the support.
		betaF: example1Truncation * example1Truncation,
	}
	m.draw = eachRow(m.sdim, func(r *dist.Rand, x []float64) {
		x[0] = dist.TruncNormal(r, sd, example1Truncation)
		x[1] = dist.TruncNormal(r, sd, example1Truncation)
	})
	m.risk = newQuadRisk([]float64{sd * sd}, []float64{0}, sd*sd/2, 0, 0, R)
	// ∇f(0, x) = −x⁽¹⁾x⁽²⁾ with x⁽²⁾ symmetric and independent of x⁽¹⁾.
	m.symAt = []float64{0}
	m.prof = &profile{
		lf:     example1Truncation * (R*example1Truncation + example1Truncation),
		kmax:   math.Inf(1),
		method: "exact (polar coordinates, 128-node Gauss–Legendre quadrature)",
		eval: func(k float64) (float64, float64) {
			integrand := func(t float64) float64 {
				c, sn := math.Cos(t), math.Sin(t)
				return math.Pow(c, k) * math.Pow(R*c+sn, k)
			}
			in := quad.Fixed(integrand, 0, math.Pi/2, 128, quad.Legendre{}, 0)
			lg, _ := math.Lgamma(k + 1)
			logm := 2*k*math.Log(sd) + math.Log(2/math.Pi) + k*math.Ln2 + lg + math.Log(in)
			return math.Exp(logm / k), 0
		},
	}
	m.sup = example1Sup(sd, R, example1Truncation)
	m.notes = []string{
		"x⁽¹⁾ and x⁽²⁾ are independent N(0, s²) truncated to [−10¹⁰, 10¹⁰]; the truncation changes no moment at double precision, and L_f = 2·10²⁰ comes from the support's edge",
	}
	return m, nil
}

// ---- linear regression with heavy tails ----

// block is a group of coordinates with a common feature scale: the
// covariance of a is c_t·diag(scale_j²).
type block struct {
	size  int
	scale float64
	omega float64 // ‖w* restricted to the block‖
}

// buildLinReg builds linreg-t, linreg-pareto and lasso-t: y = ⟨w*, a⟩ + ξ,
// f⁰(w, x) = ½(⟨w, a⟩ − y)², W = B(0, D/2).
//
// Features are a = S·z·m with S = diag(1 on the first ⌈d/2⌉ coordinates,
// 1/√κ_Σ on the rest) (κ_Σ = 1: S = I) and, jointly with the noise:
//
//   - Student-t: (z, ζ) ~ N(0, I_{d+1}), m = √(ν/χ²_ν), ξ = σ m ζ, so
//     (a, ξ) is multivariate t(ν); Cov a = ν/(ν−2)·S², E ξ² = σ²ν/(ν−2).
//   - Pareto: (z, ζ) uniform on the unit sphere of R^{d+1}, m = P ~
//     Pareto(x_m = √(d+1), α), ξ = σ P ζ: every coordinate is symmetric with
//     a Pareto(α) tail; Cov a = α/(α−2)·S², E ξ² = σ²α/(α−2).
//
// ξ is uncorrelated with a (by symmetry), so F(w) = ½(w − w*)ᵀΣ(w − w*) +
// ½E ξ² exactly: β = λ_max(Σ), μ = λ_min(Σ) (also the proximal-PL constant:
// F⁰ is μ-strongly convex). lasso-t adds f¹ = λ₁‖w‖₁ + (λ₂/2)‖w‖² and has
// a sparse w*; F* solves the KKT conditions exactly (newQuadRisk).
//
// Moments: sup_{‖w‖≤R}‖∇f⁰‖ = ‖a‖(R‖a‖ + |y|) = m²·H with
// H = ‖Sz‖(R‖Sz‖ + |⟨w*, Sz⟩ + σζ|) (divided by ‖(z, ζ)‖² in the Pareto case)
// independent of m, so r̃_k^k = E m^{2k} · E H^k with
//
//	E m^{2k} = ν^k E(χ²_ν)^{−k} = ν^k 2^{−k} Γ(ν/2 − k)/Γ(ν/2)   (k < ν/2, else ∞)
//	E m^{2k} = E P^{2k} = α x_m^{2k}/(α − 2k)                    (k < α/2, else ∞)
//
// exact, and E H^k (all moments finite) by quadrature with one block of
// features, by Monte Carlo with two (linRegProfile).
func buildLinReg(ctx context.Context, s *ProblemDef) (*model, error) {
	d, R := s.D, s.Diam/2
	sigma, wn, cond := s.Params["noise"], s.Params["wstar"], s.Params["cond"]
	pareto := s.Scenario == LinRegPareto
	tail := s.Tail

	d1 := d
	if cond != 1 {
		d1 = (d + 1) / 2
	}
	scales := make([]float64, d)
	for j := range scales {
		scales[j] = 1
		if j >= d1 {
			scales[j] = 1 / math.Sqrt(cond)
		}
	}
	wstar := make([]float64, d)
	if s.Scenario == LassoT {
		sup := int(math.Ceil(s.Params["support"] * float64(d)))
		sup = min(max(sup, 1), d)
		for j := range sup {
			wstar[j] = wn / math.Sqrt(float64(sup))
		}
	} else {
		for j := range wstar {
			wstar[j] = wn / math.Sqrt(float64(d))
		}
	}
	blocks := []block{{size: d1, scale: 1}, {size: d - d1, scale: 1 / math.Sqrt(cond)}}
	for j, v := range wstar {
		b := 0
		if j >= d1 {
			b = 1
		}
		blocks[b].omega += v * v
	}
	for i := range blocks {
		blocks[i].omega = math.Sqrt(blocks[i].omega)
	}

	ct := tail / (tail - 2) // ν/(ν−2) or α/(α−2)
	h := make([]float64, d)
	for j := range h {
		h[j] = ct * scales[j] * scales[j]
	}
	noiseVar := sigma * sigma * ct
	inLoss, reg := l2Weights(s)
	_ = inLoss // linear regression has no in-loss ℓ2 term
	m := &model{
		obj: &glm{loss: squaredLoss{}, d: d}, reg: reg, d: d, sdim: d + 1, radius: R,
		beta: ct, mu: ct / cond, betaF: math.Inf(1), // ‖a‖² is unbounded
	}
	m.risk = newQuadRisk(h, wstar, noiseVar/2, reg.L1, reg.L2, R)
	// ∇f⁰(w*, x) = −ξa, and (a, ξ) ↦ (a, −ξ) preserves the law (ζ ↦ −ζ).
	m.symAt = wstar

	xm := math.Sqrt(float64(d + 1))
	if pareto {
		m.draw = func(r *dist.Rand, xs []float64) {
			for ; len(xs) >= d+1; xs = xs[d+1:] {
				x := xs[: d+1 : d+1]
				dist.UnitSphere(r, x)
				p := dist.Pareto(r, tail, xm)
				var y float64
				for j := range d {
					a := p * scales[j] * x[j]
					x[j] = a
					y += wstar[j] * a
				}
				x[d] = y + sigma*p*x[d]
			}
		}
	} else {
		t := &tRows{d: d, tail: tail, sigma: sigma, chi: dist.NewGamma(tail / 2), wstar: wstar}
		if cond != 1 {
			t.scales = scales
		}
		m.draw = t.draw
	}

	mixMoment := func(k float64) float64 {
		if pareto {
			return dist.ParetoMoment(tail, xm, 2*k)
		}
		return math.Pow(tail, k) * dist.InvChiSquareMoment(tail, k)
	}
	prof, err := linRegProfile(ctx, d, R, tail, sigma, cond, pareto, blocks, mixMoment)
	if err != nil {
		return nil, err
	}
	m.prof = prof
	var nonEmpty []block
	for _, b := range blocks {
		if b.size > 0 {
			nonEmpty = append(nonEmpty, b)
		}
	}
	m.sup = linRegSup(linRegSupIn{d: d, R: R, sigma: sigma, ct: ct, tail: tail, pareto: pareto, blocks: nonEmpty,
		wstar: wstar, mix: mixMoment, xm: xm, cond: cond, omegaSq: floats.Dot(wstar, wstar)})
	if pareto {
		m.notes = append(m.notes, "(a, ξ) = P·(S v, σ v_{d+1}) with v uniform on the sphere of R^{d+1}: ξ is uncorrelated with a but shares its radius")
	} else {
		m.notes = append(m.notes, "(a, ξ) is multivariate t: ξ is uncorrelated with a but shares its mixing variable m = √(ν/χ²_ν)")
	}
	return m, nil
}

// tRows is linreg-t's block sampler (see model.draw): each row is (z, ζ)
// standard normal, then χ²_ν = 2·Gamma(ν/2), and a = m·S·z,
// y = ⟨w*, a⟩ + σmζ with m = √(ν/χ²_ν). The loop reads its parameters
// through the one pointer, so that few values are live across its calls.
type tRows struct {
	d           int
	tail, sigma float64
	chi         dist.GammaSampler
	wstar       []float64
	scales      []float64 // S's diagonal; nil when S = I
}

func (t *tRows) draw(r *dist.Rand, xs []float64) {
	sd := t.d + 1
	for ; len(xs) >= sd; xs = xs[sd:] {
		x := xs[:sd:sd]
		r.Normals(x)
		mix := math.Sqrt(t.tail / (2 * t.chi.Draw(r)))
		a := x[:t.d]
		if t.scales != nil {
			floats.Mul(a, t.scales)
		}
		x[t.d] = vec.ScaleDot(mix, a, t.wstar) + t.sigma*mix*x[t.d]
	}
}

// linRegProfile is the moment profile r̃_k^k = E m^{2k}·E H^k of the linear
// regressions (see buildLinReg): with one block of features (κ_Σ = 1) E H^k
// by quadrature (gaussSup; linreg-pareto's H is gaussSup's H(θ) on the
// sphere), exact; with two, by Monte Carlo on MCDraws draws of H, each
// drawn in O(1) from the law of (‖z_b‖, ⟨ŵ*_b, z_b⟩) per block.
func linRegProfile(ctx context.Context, d int, R, tail, sigma, cond float64, pareto bool, blocks []block, mix func(k float64) float64) (*profile, error) {
	var nonEmpty []block
	for _, b := range blocks {
		if b.size > 0 {
			nonEmpty = append(nonEmpty, b)
		}
	}
	if len(nonEmpty) == 1 {
		g := newGaussSup(d, R, nonEmpty[0].omega, sigma)
		return &profile{
			lf: math.Inf(1), kmax: tail / 2,
			method: "exact (tail factor in closed form × its Gaussian part by quadrature)",
			eval: func(k float64) (float64, float64) {
				lh := g.logMoment
				if pareto {
					lh = g.logSphereMoment
				}
				return math.Exp((math.Log(mix(k)) + lh(k)) / k), 0
			},
		}, nil
	}
	// The non-empty blocks with their constants: χ²_{size−1} = 2·Gamma((size−1)/2),
	// scale² and scale·‖w*_b‖.
	type hBlock struct {
		chi    dist.GammaSampler
		many   bool // size > 1
		s2, so float64
	}
	var hb []hBlock
	for _, b := range nonEmpty {
		hb = append(hb, hBlock{chi: dist.NewGamma(float64(b.size-1) / 2), many: b.size > 1, s2: b.scale * b.scale, so: b.scale * b.omega})
	}
	drawH := func(r *dist.Rand) float64 {
		var n2, raw, lin float64
		for i := range hb {
			b := &hb[i]
			u := r.NormFloat64()
			c := u * u
			if b.many {
				c += 2 * b.chi.Draw(r)
			}
			raw += c
			n2 += b.s2 * c
			lin += b.so * u
		}
		zeta := r.NormFloat64()
		n := math.Sqrt(n2)
		hv := n * (R*n + math.Abs(lin+sigma*zeta))
		if pareto {
			hv /= raw + zeta*zeta
		}
		return hv
	}
	family := "t"
	if pareto {
		family = "pareto"
	}
	key := fmt.Sprintf("linreg/%s/d=%d/R=%g/tail=%g/noise=%g/omega=%g,%g/cond=%g", family, d, R, tail, sigma, blocks[0].omega, blocks[1].omega, cond)
	sample, err := mcCache.get(ctx, key, func(ctx context.Context) (*mcSample, error) { return newMCSample(ctx, drawH) })
	if err != nil {
		return nil, err
	}
	return &profile{
		lf: math.Inf(1), kmax: tail / 2,
		method: fmt.Sprintf("exact tail factor × Monte Carlo (%d draws) of its Gaussian part", MCDraws),
		eval: func(k float64) (float64, float64) {
			mh, seh := sample.moment(k)
			return rootFromMC(k, mix(k), mh, seh, 0)
		},
	}, nil
}
