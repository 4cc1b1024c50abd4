package scenarios

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/integrate/quad"

	"dpso/scenarios/dist"
)

// The scenarios' r_k and γ_k (see supmoment.go). Each builder derives
// where the sup over W is and how the expectation is computed.

// supTol is the relative tolerance of the certified arc searches on the
// moment E v^k (so 10⁻⁴/k on its k-th root), supMaxEvals their budget.
const (
	supTol      = 1e-4
	supMaxEvals = 160
)

// closedFormAtTwo: the builders use their closed forms at k = 2 (every
// affine scenario has one there). TestSupMonteCarloMatchesExact turns it
// off on an instance it builds for the purpose, to hold the Monte Carlo
// paths at k = 2 to those closed forms; nothing else changes it.
var closedFormAtTwo = true

// closedForm reports whether a builder computes its moment at k by its
// closed form for k = 2.
func closedForm(k float64) bool { return k == 2 && closedFormAtTwo }

func supNaN(method string) supVal {
	return supVal{v: math.NaN(), se: math.NaN(), lo: math.NaN(), method: method}
}

// sampleOrNaN returns the column sample, or reports the failure as the
// value's method (a cancelled or failed draw is not cached).
func sampleOrNaN(ctx context.Context, key string, ncol int, draw func(r *dist.Rand, row []float64)) (*colSample, *supVal) {
	s, err := newColSample(ctx, key, ncol, draw)
	if err != nil {
		v := supNaN("Monte Carlo failed: " + err.Error())
		return nil, &v
	}
	return s, nil
}

// arcSup maximises the moment over the arc of radius R, angles [a0, a1],
// of the 2-d parametrization (a, b) of a scenario's reduced problem, where
// m(a, b) is an estimate of E v^k convex in (a, b) (for Monte Carlo, the
// sample mean of |affine in (a, b)|^k, itself convex). It returns the
// moment at the best point (with its error) and the certified log upper
// bound. The best point's moment is the one the search computed there (m
// is the same bits at the same point: a fixed sample).
func arcSup(R, a0, a1 float64, m func(a, b float64) mom) (best mom, hiLog float64, at [2]float64) {
	seen := map[[2]float64]mom{}
	res := arcMax(func(a, b float64) float64 {
		v := m(a, b)
		seen[[2]float64{a, b}] = v
		return v.log
	}, R, a0, a1, math.Log1p(supTol), supMaxEvals)
	best, ok := seen[res.at]
	if !ok {
		best = m(res.at[0], res.at[1])
	}
	return best, res.hi, res.at
}

// rootVal turns a searched moment into a supVal: V the certified bound's
// root, Lo the best point's, SE the best point's delta-method error
// (scaled by c, the exact factor of the moment).
func rootVal(k, c float64, best mom, hiLog float64, method string) supVal {
	lo, se := best.root(k, c)
	v := math.Exp((math.Log(c) + math.Max(hiLog, best.log)) / k)
	return supVal{v: v, se: se, lo: lo, method: method}
}

// normals3 is a sample of three independent N(0, 1) columns.
func normals3(ctx context.Context) (*colSample, *supVal) {
	return sampleOrNaN(ctx, "normals3", 3, func(r *dist.Rand, row []float64) {
		row[0], row[1], row[2] = r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
	})
}

func mcMethod(what string) string {
	return fmt.Sprintf("Monte Carlo (%d draws)%s", MCDraws, what)
}

// ---- example1 ----

// example1Sup: ∇f = x⁽¹⁾(w x⁽¹⁾ − x⁽²⁾) and its centred version
// w((x⁽¹⁾)² − s²) − x⁽¹⁾x⁽²⁾ are affine in w, so E|·|^k is convex in w, and
// even (x⁽²⁾ → −x⁽²⁾): the sup over [−R, R] is at w = ±R. In polar
// coordinates (x⁽¹⁾, x⁽²⁾) = sρ(cos θ, sin θ), ρ²/2 ~ Exp(1),
//
//	r_k^k = s^{2k}·2^k Γ(k+1)·(1/π)∫_0^π |cos θ|^k |R cos θ − sin θ|^k dθ,
//
// by Gauss–Legendre quadrature on the pieces between the kinks θ = atan R,
// π/2 (exact to rounding; r_2 = s²√(3R² + 1)); γ_k^k = s^{2k} E|R(Z₁² − 1) −
// Z₁Z₂|^k (Z iid N(0, 1)): exact at k = 2 (s²√(2R² + 1)), Monte Carlo
// otherwise. The truncation at 10¹⁰ is ignored as for r̃_k. At k = ∞ the
// essential sups on the truncated support: r_∞ = L_f = T(RT + T) and
// γ_∞ = (R + 1)T² − Rs² (x = (T, −T)); L = sup|F'| = s²R.
func example1Sup(s, R, T float64) *supProfile {
	sp := &supProfile{l: s * s * R, lExact: true, lMethod: "F'(w) = s²w"}
	th0 := math.Atan(R)
	sp.r = &supSide{inf: T * (R*T + T), kmax: math.Inf(1), infMethod: "L_f (worst case, on the truncated support)",
		eval: func(ctx context.Context, k float64) supVal {
			f := func(t float64) float64 {
				return math.Pow(math.Abs(math.Cos(t)), k) * math.Pow(math.Abs(R*math.Cos(t)-math.Sin(t)), k)
			}
			in := quad.Fixed(f, 0, th0, 128, quad.Legendre{}, 0) + quad.Fixed(f, th0, math.Pi/2, 128, quad.Legendre{}, 0) +
				quad.Fixed(f, math.Pi/2, math.Pi, 128, quad.Legendre{}, 0)
			lg, _ := math.Lgamma(k + 1)
			v := math.Exp((2*k*math.Log(s) + k*math.Ln2 + lg + math.Log(in/math.Pi)) / k)
			return supVal{v: v, lo: v, method: "exact: at w = ±R (convex and even in w), polar coordinates, 3×128-node Gauss–Legendre"}
		}}
	sp.g = &supSide{inf: (R+1)*T*T - R*s*s, kmax: math.Inf(1), infMethod: "essential sup on the truncated support, at w = R",
		eval: func(ctx context.Context, k float64) supVal {
			if closedForm(k) {
				v := s * s * math.Sqrt(2*R*R+1)
				return supVal{v: v, lo: v, method: "exact (k = 2): s²√(2R² + 1) at w = ±R"}
			}
			smp, bad := normals3(ctx)
			if bad != nil {
				return *bad
			}
			z1, z2 := smp.cols[0], smp.cols[1]
			m := smp.moment(ctx, k, func(dst []float64, lo int) {
				z1, z2 := z1[lo:lo+len(dst)], z2[lo:lo+len(dst)]
				for i := range dst {
					dst[i] = math.Abs(R*(z1[i]*z1[i]-1) - z1[i]*z2[i])
				}
			})
			r, se := m.root(k, 1)
			r, se = r*s*s, se*s*s
			return supVal{v: r, se: se, lo: r, method: mcMethod(" at w = ±R (convex and even in w)")}
		}}
	return sp
}

// ---- linear regression ----

// linRegSupIn are buildLinReg's quantities the sup moments need.
type linRegSupIn struct {
	d             int
	R, sigma, ct  float64
	tail          float64
	pareto        bool
	blocks        []block // the non-empty blocks
	wstar         []float64
	mix           func(k float64) float64 // E m^{2k} (E P^{2k})
	xm            float64
	cond, omegaSq float64
}

// linRegSup: with u = w − w*, g = (z, ζ) Gaussian (Student-t; for the
// Pareto family v = g/‖g‖ on the sphere and m = P):
//
//	∇f⁰ = m²·S z·(⟨S u, z⟩ − σζ),   ∂_j f⁰ − ∂_j F = m² s_j z_j(⟨S u, z⟩ − σζ) − ct s_j² u_j,
//
// affine in w. E‖∇f‖^k = E m^{2k} · Φ(u), Φ(u) = E[‖Sz‖^k|⟨Su, z⟩ − σζ|^k]
// (divided by ‖g‖^{2k} for Pareto: the radius is independent of the
// direction), is convex in u and invariant under rotations of u within a
// block of equal scale, hence non-decreasing in each block's ‖u_b‖: the
// sup over W is at w_b = −t_b·w*_b/‖w*_b‖ with t₁² + t₂² = R². One block
// (κ_Σ = 1): t = R, the point of W farthest from w*. Two blocks: the
// quarter arc of (t₁, t₂), certified by arcMax. The Gaussian factor is exact
// at k = 2, Φ = c₄·[Σ_b s_b²(tr S² + 2s_b²)(t_b + ‖w*_b‖)² + σ² tr S²]
// (c₄ = 1 for t, 1/(D(D+2)) for Pareto, D = d + 1, the sphere's fourth
// moments), and Monte Carlo otherwise (finite variance: Gaussian).
//
// γ_k (κ_Σ = 1): by the same invariance, E|∂_j f − ∂_j F|^k depends on
// (w_j, ρ = ‖w_{−j} − w*_{−j}‖), is convex in w and non-decreasing in ρ, so
// the sup is on the half circle w = w_j e_j − t·w*_{−j}/‖w*_{−j}‖,
// (w_j, t) = R(cos α, sin α), α ∈ [0, π] (d = 1: w = ±R); per distinct
// value of w*_j (lasso-t: on and off the support). With Y, ζ, Z_j iid
// N(0, 1) and M2 = m² (Pareto: P²/‖g‖²), the coordinate is
// M2·Z_j(u_j Z_j − (t + ‖w*_{−j}‖)Y − σζ) − ct·u_j: exact at k = 2,
// c₄'(3u_j² + ρ² + σ²) − ct²u_j² with c₄' = E m⁴ (E P⁴/(D(D+2))), Monte Carlo
// otherwise (its variance is finite only for 2k < the tail's limit).
// κ_Σ ≠ 1 breaks the symmetry in w_{−j}: there γ_k is only bounded above
// (Cauchy–Schwarz, see the code).
//
// L = sup_W ‖Σ(w − w*)‖ = ct·(R + ‖w*‖) for κ_Σ = 1, the same arc's
// maximum of (Σ_b (ct s_b²)²(t_b + ‖w*_b‖)²)^{1/2} otherwise.
func linRegSup(in linRegSupIn) *supProfile {
	family := "t"
	if in.pareto {
		family = "pareto"
	}
	D := float64(in.d + 1)
	c4 := in.mix(2)
	if in.pareto {
		c4 /= D * (D + 2)
	}
	bl := in.blocks
	trS2 := 0.0
	for _, b := range bl {
		trS2 += float64(b.size) * b.scale * b.scale
	}
	two := len(bl) == 2
	// pointAt is the (t₁, t₂) of the one-block case: (R, 0).
	sp := &supProfile{}
	// L.
	if !two {
		sp.l, sp.lExact, sp.lMethod = in.ct*(in.R+math.Sqrt(in.omegaSq)), true, "ct·(R + ‖w*‖) at w = −R·w*/‖w*‖"
	} else {
		h1, h2 := in.ct*bl[0].scale*bl[0].scale, in.ct*bl[1].scale*bl[1].scale
		lf := func(a, b float64) float64 {
			x, y := h1*(a+bl[0].omega), h2*(b+bl[1].omega)
			return 0.5 * math.Log(x*x+y*y)
		}
		res := arcMax(lf, in.R, 0, math.Pi/2, 1e-12, 4000)
		sp.l, sp.lExact, sp.lMethod = math.Exp(res.hi), true, "certified maximum of ‖Σ(w − w*)‖ over the quarter arc of W (to 10⁻¹²)"
	}

	// r_k.
	rExact := func(a, b float64) mom {
		q := bl[0].scale * bl[0].scale * (trS2 + 2*bl[0].scale*bl[0].scale) * sq(a+bl[0].omega)
		if two {
			q += bl[1].scale * bl[1].scale * (trS2 + 2*bl[1].scale*bl[1].scale) * sq(b+bl[1].omega)
		}
		return exactMom(c4 * (q + in.sigma*in.sigma*trS2))
	}
	rSample := func(ctx context.Context) (*colSample, *supVal) { return linRegRSample(ctx, in.d, in.pareto, bl) }
	point := "at w = −R·w*/‖w*‖ (the farthest point of W from w*: Φ is convex and rotation-invariant about w*)"
	if two {
		point = "maximised over w_b = −t_b·w*_b/‖w*_b‖, t₁² + t₂² = R² (certified by convexity to 0.01%)"
	}
	sp.r = &supSide{inf: math.Inf(1), kmax: in.tail / 2, infMethod: "unbounded features",
		eval: func(ctx context.Context, k float64) supVal {
			mk := in.mix(k)
			if closedForm(k) {
				best, hi, _ := arcSupOrPoint(two, in.R, rExact)
				v := rootVal(2, 1, best, hi, "exact (k = 2, closed form) "+point)
				return v
			}
			smp, bad := rSample(ctx)
			if bad != nil {
				return *bad
			}
			N, A1, A2, Z := smp.cols[0], smp.cols[1], smp.cols[2], smp.cols[3]
			m := func(a, b float64) mom {
				x1, x2 := a+bl[0].omega, 0.0
				if two {
					x2 = b + bl[1].omega
				}
				return smp.moment(ctx, k, func(dst []float64, lo int) {
					hi := lo + len(dst)
					N, A1, A2, Z := N[lo:hi], A1[lo:hi], A2[lo:hi], Z[lo:hi]
					for i := range dst {
						dst[i] = N[i] * math.Abs(x1*A1[i]+x2*A2[i]+in.sigma*Z[i])
					}
				})
			}
			best, hi, _ := arcSupOrPoint(two, in.R, m)
			return rootVal(k, mk, best, hi, "exact tail factor × "+mcMethod(" of the Gaussian part, ")+point)
		}}

	// γ_k.
	if in.cond != 1 {
		// κ_Σ ≠ 1: an upper bound only. ∂_j f⁰ = M²·s_j·x_j·⟨θ, x⟩ with x the
		// Gaussian (unit-sphere) part and θ = (S(w − w*), −σ), so by
		// Cauchy–Schwarz (E|∂_j f⁰|^k)^{1/k} ≤ (E M^{2k})^{1/k}·c_k·‖θ‖ with
		// c_k = (E|x₁|^{2k})^{1/k} (2^kΓ(k + ½)/√π for a normal,
		// Γ(k + ½)Γ(D/2)/(√πΓ(D/2 + k)) on the sphere of R^D) and
		// ‖θ‖ ≤ √(ρ̄² + σ²), ρ̄ = R + ‖w*‖; centring adds |∂_j F| ≤ ct·ρ̄
		// (Minkowski).
		rbar := in.R + math.Sqrt(in.omegaSq)
		lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
		sp.g = &supSide{inf: math.Inf(1), kmax: in.tail / 2, infMethod: "unbounded features",
			eval: func(ctx context.Context, k float64) supVal {
				lc := k*math.Ln2 + lg(k+0.5) - 0.5*math.Log(math.Pi)
				if in.pareto {
					lc = lg(k+0.5) + lg(D/2) - 0.5*math.Log(math.Pi) - lg(D/2+k)
				}
				v := math.Pow(in.mix(k), 1/k)*math.Exp(lc/k)*math.Sqrt(rbar*rbar+in.sigma*in.sigma) + in.ct*rbar
				return supVal{v: v, lo: math.NaN(), method: "upper bound (Cauchy–Schwarz and Minkowski; κ_Σ ≠ 1 breaks the symmetry the exact sup uses), not the sup"}
			}}
		return sp
	}
	var wjs []float64
	for _, v := range in.wstar {
		if !slices.Contains(wjs, v) {
			wjs = append(wjs, v)
		}
	}
	omega := math.Sqrt(in.omegaSq)
	rest := func(wj float64) float64 { return math.Sqrt(math.Max(0, in.omegaSq-wj*wj)) }
	gKey := fmt.Sprintf("linreg-g/%s/d=%d/tail=%g", family, in.d, in.tail)
	gSample := func(ctx context.Context) (*colSample, *supVal) {
		chiT := dist.NewGamma(in.tail / 2)
		chiRest := dist.NewGamma(float64(in.d-2) / 2)
		return sampleOrNaN(ctx, gKey, 4, func(r *dist.Rand, row []float64) {
			zj, y, zeta := r.NormFloat64(), 0.0, r.NormFloat64()
			if in.d > 1 {
				y = r.NormFloat64()
			}
			row[1], row[2], row[3] = zj, y, zeta
			if !in.pareto {
				row[0] = in.tail / (2 * chiT.Draw(r))
				return
			}
			g2 := zj*zj + y*y + zeta*zeta
			if in.d > 2 {
				g2 += 2 * chiRest.Draw(r)
			}
			p := dist.Pareto(r, in.tail, in.xm)
			row[0] = p * p / g2
		})
	}
	c4g := in.mix(2)
	if in.pareto {
		c4g /= D * (D + 2)
	}
	where := "on the half circle w = w_j·e_j − t·w*_{−j}/‖w*_{−j}‖, (w_j, t) = R(cos α, sin α) (certified by convexity to 0.01%)"
	if in.d == 1 {
		where = "at w = ±R"
	}
	_ = omega
	sp.g = &supSide{inf: math.Inf(1), kmax: in.tail / 2, infMethod: "unbounded features",
		eval: func(ctx context.Context, k float64) supVal {
			var smp *colSample
			if !closedForm(k) {
				var bad *supVal
				if smp, bad = gSample(ctx); bad != nil {
					return *bad
				}
			}
			var out supVal
			for _, wj := range wjs {
				om := rest(wj)
				var m func(a, b float64) mom
				if closedForm(k) {
					m = func(a, b float64) mom {
						u, rho := a-wj, b+om
						return exactMom(c4g*(3*u*u+rho*rho+in.sigma*in.sigma) - in.ct*in.ct*u*u)
					}
				} else {
					M2, Zj, Y, Ze := smp.cols[0], smp.cols[1], smp.cols[2], smp.cols[3]
					m = func(a, b float64) mom {
						u, rho := a-wj, b+om
						return smp.moment(ctx, k, func(dst []float64, lo int) {
							hi := lo + len(dst)
							M2, Zj, Y, Ze := M2[lo:hi], Zj[lo:hi], Y[lo:hi], Ze[lo:hi]
							for i := range dst {
								dst[i] = math.Abs(M2[i]*Zj[i]*(u*Zj[i]-rho*Y[i]-in.sigma*Ze[i]) - in.ct*u)
							}
						})
					}
				}
				best, hi := halfCircleSup(in.d, in.R, m)
				var v supVal
				if closedForm(k) {
					v = rootVal(2, 1, best, hi, "exact (k = 2, closed form) "+where)
				} else {
					v = rootVal(k, 1, best, hi, mcMethod(" of the coordinate's law, ")+where)
					if 2*k >= in.tail/2 {
						v.se = math.Inf(1) // E M2^{2k} = ∞: the estimator's variance is infinite
					}
				}
				if len(wjs) > 1 {
					v.method += fmt.Sprintf("; max over the %d kinds of coordinate (w*_j = 0 or not)", len(wjs))
				}
				if out.method == "" || v.v > out.v {
					out = v
				}
			}
			return out
		}}
	return sp
}

func sq(x float64) float64 { return x * x }

func blockKey(bl []block) string {
	s := ""
	for _, b := range bl {
		s += fmt.Sprintf("%d×%g;", b.size, b.scale)
	}
	return s
}

// arcSupOrPoint is the quarter-arc search for two blocks, the point
// (R, 0) for one.
func arcSupOrPoint(two bool, R float64, m func(a, b float64) mom) (mom, float64, [2]float64) {
	if !two {
		b := m(R, 0)
		return b, b.log, [2]float64{R, 0}
	}
	return arcSup(R, 0, math.Pi/2, m)
}

// halfCircleSup is the sup over (w_j, t) = R(cos α, sin α), α ∈ [0, π],
// or over w_j = ±R when d = 1 (no other coordinate).
func halfCircleSup(d int, R float64, m func(a, b float64) mom) (mom, float64) {
	if d == 1 {
		p, q := m(R, 0), m(-R, 0)
		if q.log > p.log {
			p = q
		}
		return p, p.log
	}
	best, hi, _ := arcSup(R, 0, math.Pi, m)
	return best, hi
}

// ---- contaminated ----

// sphereMoment is E|R t − 1|^k for t = ⟨e, v⟩, v uniform on the unit
// sphere of R^d: ½(|R − 1|^k + (R + 1)^k) for d = 1; for d ≥ 2, t = cos φ
// with density ∝ sin^{d−2}φ on [0, π], by Gauss–Legendre quadrature split
// at the kink φ = acos(1/R) (R > 1), with enough nodes for the density's
// width 1/√d (the same nodes for the normalization, so their errors
// cancel to first order).
func sphereMoment(d int, R, k float64) float64 {
	if d == 1 {
		return (math.Pow(math.Abs(R-1), k) + math.Pow(R+1, k)) / 2
	}
	n := min(4096, 128+16*int(math.Ceil(math.Sqrt(float64(d)))))
	e := float64(d - 2)
	w := func(p float64) float64 {
		if e == 0 {
			return 1
		}
		return math.Exp(e * math.Log(math.Sin(p)))
	}
	num := func(p float64) float64 { return math.Pow(math.Abs(R*math.Cos(p)-1), k) * w(p) }
	cuts := []float64{0, math.Pi}
	if R > 1 {
		cuts = []float64{0, math.Acos(1 / R), math.Pi}
	}
	var a, b float64
	for i := 0; i+1 < len(cuts); i++ {
		a += quad.Fixed(num, cuts[i], cuts[i+1], n, quad.Legendre{}, 0)
		b += quad.Fixed(w, cuts[i], cuts[i+1], n, quad.Legendre{}, 0)
	}
	return a / b
}

// contaminatedSup: ∇f = a(⟨w, a⟩ − y) is affine in w. Clean samples give
// E‖∇f‖^k = Φ(‖w − w*‖) (Gaussian, rotation-invariant about w*),
// outliers M²·E|⟨w, v⟩ − s|^k, a function of ‖w‖ only; both are convex,
// hence non-decreasing in their radius, and both are largest at
// w = −R·w*/‖w*‖. So
//
//	r_k^k = (1 − η)·E[‖z‖^k|(R + ‖w*‖)z₁ + σζ|^k] + η·M^{2k}·E|R t − 1|^k
//
// (t a coordinate of the uniform unit vector, sphereMoment): exact at k = 2,
// (1 − η)((d + 2)(R + ‖w*‖)² + dσ²) + ηM⁴(R²/d + 1), otherwise Monte Carlo
// for the clean part. γ_k: with x = w_j − c_j (∇F = h(w − c)), the clean
// coordinate is Z_j(u_j Z_j − ρY − σζ) − hx (u = w − w*, ρ = ‖w_{−j} −
// w*_{−j}‖) and the outlier's M²V₁(w_j V₁ − tV₂ − s) − hx (t = ‖w_{−j}‖):
// both non-decreasing in their ρ and t, which w_{−j} = −t·w*_{−j}/‖w*_{−j}‖
// maximise together, so the sup is over the half circle (w_j, t) =
// R(cos α, sin α), certified by arcMax: exact at k = 2 (clean
// 3u_j² + ρ² + σ² − 2hx u_j + h²x², outlier M⁴((3w_j² + t²)/(d(d+2)) +
// 1/d) − 2hxM²w_j/d + h²x²), else Monte Carlo with the clean and outlier
// parts sampled separately (stratified). L = h(R + ‖c‖).
func contaminatedSup(d int, R, eta, M, sigma, wn, h float64) *supProfile {
	cn := (1 - eta) * wn / h // ‖c‖
	sp := &supProfile{l: h * (R + cn), lExact: true, lMethod: "h·(R + ‖c‖), c = (1 − η)w*/h"}
	df := float64(d)
	M2 := M * M
	sp.r = &supSide{inf: math.Inf(1), kmax: math.Inf(1), infMethod: "unbounded (Gaussian) features",
		eval: func(ctx context.Context, k float64) supVal {
			// Work with r_k/M² to keep M^{2k} finite.
			out := sphereMoment(d, R, k)
			where := "at w = −R·w*/‖w*‖ (both parts are largest there)"
			if closedForm(k) {
				v := math.Sqrt((1-eta)*((df+2)*sq(R+wn)+df*sigma*sigma) + eta*M2*M2*(R*R/df+1))
				return supVal{v: v, lo: v, method: "exact (k = 2, closed form) " + where}
			}
			smp, bad := linRegRSample(ctx, d, false, []block{{size: d, scale: 1}})
			if bad != nil {
				return *bad
			}
			N, A, Z := smp.cols[0], smp.cols[1], smp.cols[3]
			x := R + wn
			clean := smp.moment(ctx, k, func(dst []float64, lo int) {
				hi := lo + len(dst)
				N, A, Z := N[lo:hi], A[lo:hi], Z[lo:hi]
				for i := range dst {
					dst[i] = N[i] * math.Abs(x*A[i]+sigma*Z[i])
				}
			})
			m := mixMom((1-eta)*math.Exp(-2*k*math.Log(M)), clean, eta, exactMom(out))
			r, se := m.root(k, 1)
			return supVal{v: r * M2, se: se * M2, lo: r * M2, method: "Monte Carlo (" + fmt.Sprint(MCDraws) + " draws) of the clean part, quadrature of the outliers', " + where}
		}}
	wj := wn / math.Sqrt(df)
	om := math.Sqrt(math.Max(0, wn*wn-wj*wj))
	cj := (1 - eta) * wj / h
	where := "on the half circle w = w_j·e_j − t·w*_{−j}/‖w*_{−j}‖, (w_j, t) = R(cos α, sin α) (certified by convexity to 0.01%)"
	if d == 1 {
		where = "at w = ±R"
	}
	sp.g = &supSide{inf: math.Inf(1), kmax: math.Inf(1), infMethod: "unbounded (Gaussian) features",
		eval: func(ctx context.Context, k float64) supVal {
			if closedForm(k) {
				m := func(a, b float64) mom {
					u, rho, x := a-wj, b+om, a-cj
					clean := 3*u*u + rho*rho + sigma*sigma - 2*h*x*u + h*h*x*x
					outl := M2*M2*((3*a*a+b*b)/(df*(df+2))+1/df) - 2*h*x*M2*a/df + h*h*x*x
					return exactMom((1-eta)*clean + eta*outl)
				}
				best, hi := halfCircleSup(d, R, m)
				return rootVal(2, 1, best, hi, "exact (k = 2, closed form) "+where)
			}
			cs, bad := normals3(ctx)
			if bad != nil {
				return *bad
			}
			chi := dist.NewGamma(float64(d-2) / 2)
			os, bad := sampleOrNaN(ctx, fmt.Sprintf("sphere2/d=%d", d), 3, func(r *dist.Rand, row []float64) {
				g1, g2 := r.NormFloat64(), 0.0
				if d > 1 {
					g2 = r.NormFloat64()
				}
				n2 := g1*g1 + g2*g2
				if d > 2 {
					n2 += 2 * chi.Draw(r)
				}
				n := math.Sqrt(n2)
				row[0], row[1] = g1/n, g2/n
				row[2] = 1
				if r.Uint64()&1 == 0 {
					row[2] = -1
				}
			})
			if bad != nil {
				return *bad
			}
			Zj, Y, Ze := cs.cols[0], cs.cols[1], cs.cols[2]
			V1, V2, S := os.cols[0], os.cols[1], os.cols[2]
			m := func(a, b float64) mom {
				u, rho, x := a-wj, b+om, a-cj
				clean := cs.moment(ctx, k, func(dst []float64, lo int) {
					hi := lo + len(dst)
					Zj, Y, Ze := Zj[lo:hi], Y[lo:hi], Ze[lo:hi]
					for i := range dst {
						dst[i] = math.Abs(Zj[i]*(u*Zj[i]-rho*Y[i]-sigma*Ze[i]) - h*x)
					}
				})
				outl := os.moment(ctx, k, func(dst []float64, lo int) {
					hi := lo + len(dst)
					V1, V2, S := V1[lo:hi], V2[lo:hi], S[lo:hi]
					for i := range dst {
						dst[i] = math.Abs(M2*V1[i]*(a*V1[i]-b*V2[i]-S[i]) - h*x)
					}
				})
				return mixMom(1-eta, clean, eta, outl)
			}
			best, hi := halfCircleSup(d, R, m)
			return rootVal(k, 1, best, hi, "Monte Carlo ("+fmt.Sprint(MCDraws)+" draws each of the clean and the outlier part) "+where)
		}}
	return sp
}

// linRegRSample is the sample of linRegSup's r_k: per draw ‖Sz‖ (divided
// by ‖g‖² for Pareto), s_b·u_b for each block (u_b the coordinate of z_b
// along w*_b; 0 for a missing second block) and ζ. Its law depends on d,
// the family and the blocks only (contaminated's clean part is the
// one-block t case).
func linRegRSample(ctx context.Context, d int, pareto bool, bl []block) (*colSample, *supVal) {
	family := "t"
	if pareto {
		family = "pareto"
	}
	chis := make([]dist.GammaSampler, len(bl))
	for i, b := range bl {
		chis[i] = dist.NewGamma(float64(b.size-1) / 2)
	}
	return sampleOrNaN(ctx, fmt.Sprintf("linreg-r/%s/d=%d/blocks=%s", family, d, blockKey(bl)), 4, func(r *dist.Rand, row []float64) {
		var n2, raw float64
		row[1], row[2] = 0, 0
		for i, b := range bl {
			u := r.NormFloat64()
			c := u * u
			if b.size > 1 {
				c += 2 * chis[i].Draw(r)
			}
			raw += c
			n2 += b.scale * b.scale * c
			row[1+i] = b.scale * u
		}
		z := r.NormFloat64()
		row[3] = z
		row[0] = math.Sqrt(n2)
		if pareto {
			row[0] /= raw + z*z
		}
	})
}
