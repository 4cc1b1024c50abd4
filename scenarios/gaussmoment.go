package scenarios

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/integrate/quad"
)

// gaussSup is the law of the Gaussian factor of the linear regressions'
// sup-gradient (one block of features, κ_Σ = 1):
//
//	H = ‖z‖·(R‖z‖ + |ω⟨ŵ, z⟩ + σζ|),   (z, ζ) ~ N(0, I_{d+1}), ‖ŵ‖ = 1,
//
// whose moments E H^k it computes by quadrature, exact to rounding (the
// tests hold it to 10⁻¹⁰ relative against a finer rule, against closed
// forms where they exist, and against a Monte Carlo sample).
//
// H is homogeneous of degree 2 in g = (z, ζ), and g = ‖g‖·θ with
// ‖g‖² ~ χ²_{d+1} independent of θ uniform on the sphere S^d, so
//
//	E H^k = E(χ²_{d+1})^k · E H(θ)^k,   E(χ²_m)^k = 2^k Γ(m/2 + k)/Γ(m/2),
//
// and E H(θ)^k is an integral over two coordinates of θ only: with
// c = (ωŵ, σ), s = ‖c‖, X = ⟨c/s, θ⟩ and Y the coordinate along the
// unit vector (σŵ, −ω)/s orthogonal to it in the same plane, the last
// coordinate of θ is ζ = (σX − ωY)/s, ‖z‖ = √(1 − ζ²) and
// |ω⟨ŵ, z⟩ + σζ| = s|X|. (X, Y) has the density ∝ (1 − X² − Y²)^{(d−3)/2} on
// the unit disk (d ≥ 2); in X = sin γ, Y = cos γ·sin β it is
// ∝ cos^{d−1}γ·cos^{d−2}β on [−π/2, π/2]², and H(θ) is invariant under
// (X, Y) → (−X, −Y), so γ ∈ [0, π/2]. On that square H is analytic but
// at the point ζ = ±1 (γ₀ = arcsin(σ/s), β = −π/2, where ‖z‖ = 0), a
// breakpoint of the γ panels. For d = 1, Y = ±cos γ (β = ±π/2, each with
// probability ½) and γ is uniform.
//
// The rule is composite Gauss–Legendre on both angles, on panels no wider
// than the scale of the weight (1/√(d − 1), resp. 1/√(d − 2)) and of H^k
// (1/√k), truncated where cos^{d−1}γ ≤ e^{−(d−1)γ²/2} makes the rest of
// the integral smaller than e^{−45} of it even if H there were its
// largest value R + s against R at the centre.
//
// linreg-pareto's H/‖g‖² is H(θ) itself: its moments are E H(θ)^k.
type gaussSup struct {
	d               int
	r, omega, sigma float64
}

func newGaussSup(d int, r, omega, sigma float64) *gaussSup {
	return &gaussSup{d: d, r: r, omega: omega, sigma: sigma}
}

// sphereRule is a quadrature rule for E_θ over θ uniform on S^d: weights
// summing to 1 at nodes θ_i, with ln H(θ_i).
type sphereRule struct {
	w    []float64
	logh []float64

	sums memo[float64] // logMoment by k, for a shared rule
}

// sphereRules holds the rules logSphereMoment builds, keyed by every
// number a rule depends on (d, R, ω, σ and the largest order it serves,
// their bits): a rule and its sums are functions of these alone, so every
// Instance of the same law (each explorer session, each Build of a preset)
// reads the same bits as if it had built its own. A rule is some 3·10⁴
// nodes of 16 bytes for k ≤ 16, at most about 2.7·10⁵ (4.3 MB) for the
// largest orders.
var sphereRules = lazyCache[*sphereRule]{max: 16, what: "the quadrature rule of the Gaussian moments"}

// sharedLogMoment is logMoment(k), computed once per rule and order (a
// profile asks a handful of orders; at most 4096 are kept).
func (r *sphereRule) sharedLogMoment(k float64) float64 {
	if v, ok := r.sums.get(k); ok {
		return v
	}
	v := r.logMoment(k)
	r.sums.put(k, v, 4096)
	return v
}

// logMoment is ln Σ w_i H(θ_i)^k, summed relative to the largest term so
// that large k neither overflows nor underflows.
func (r *sphereRule) logMoment(k float64) float64 {
	m := math.Inf(-1)
	for _, l := range r.logh {
		m = math.Max(m, k*l)
	}
	if math.IsInf(m, -1) {
		return m
	}
	var s float64
	for i, l := range r.logh {
		s += r.w[i] * math.Exp(k*l-m)
	}
	return m + math.Log(s)
}

// logMoment returns ln E H^k for the Gaussian (z, ζ), k > 0.
func (g *gaussSup) logMoment(k float64) float64 {
	m := float64(g.d + 1)
	lg1, _ := math.Lgamma(m/2 + k)
	lg0, _ := math.Lgamma(m / 2)
	return k*math.Ln2 + lg1 - lg0 + g.logSphereMoment(k)
}

// logSphereMoment returns ln E H(θ)^k for θ uniform on S^d, k > 0.
func (g *gaussSup) logSphereMoment(k float64) float64 {
	s := math.Hypot(g.omega, g.sigma)
	if s == 0 {
		// H(θ) = R(1 − ζ²) with ζ² ~ Beta(1/2, d/2): E(1 − ζ²)^k =
		// B(d/2 + k, 1/2)/B(d/2, 1/2).
		d := float64(g.d)
		a, _ := math.Lgamma(d/2 + k)
		b, _ := math.Lgamma(d/2 + k + 0.5)
		c, _ := math.Lgamma(d / 2)
		e, _ := math.Lgamma(d/2 + 0.5)
		return k*math.Log(g.r) + a - b - c + e
	}
	kcap := 16.0
	for kcap < k {
		kcap *= 2
	}
	key := fmt.Sprintf("%d %x %x %x %x", g.d, math.Float64bits(g.r), math.Float64bits(g.omega), math.Float64bits(g.sigma), math.Float64bits(kcap))
	r, _ := sphereRules.get(context.Background(), key, func(context.Context) (*sphereRule, error) {
		return g.rule(kcap, 1), nil
	})
	return r.sharedLogMoment(k)
}

// gaussMaxK is the largest order the quadrature is built for: its panels
// narrow as 1/√k, so its cost grows as k. Only contaminated's moments
// exist beyond it.
const gaussMaxK = 1024

// gaussPanelNodes is the number of Gauss–Legendre nodes per panel, and
// gaussGradedNodes per panel of a geometric grading towards a point where
// H is not analytic.
const (
	gaussPanelNodes  = 16
	gaussGradedNodes = 10
)

// rule builds the rule for orders k ≤ kcap; fine > 1 divides every panel's
// width by it (the tests' finer rule).
//
// Two places need more than panels of the weight's scale. Where R ≪ s,
// (Rn + sX)^k is close to (sX)^k, not analytic at X = 0: the γ panels are
// graded geometrically (ratio 4) from γ = 0 down to R/(4s). Near the point
// where ‖z‖ = 0, H^k ≈ dist^k with a non-integer power for most k, damped
// only by cos^{d−2}β: for d ≤ 6 the panels are graded towards γ₀ on both
// sides and towards β = −π/2, 6 levels each.
func (g *gaussSup) rule(kcap, fine float64) *sphereRule {
	d := g.d
	s := math.Hypot(g.omega, g.sigma)
	// Truncation: beyond ±G the weight is below e^{−T} of its value at 0.
	T := 45 + math.Log(float64(d)+2) + kcap*math.Log1p(s/g.r)
	half := math.Pi / 2
	trunc := func(m int) float64 {
		if m < 1 {
			return half
		}
		return math.Min(half, math.Sqrt(2*T/float64(m)))
	}
	width := func(m int) float64 {
		w := math.Min(half/2, 4/math.Sqrt(kcap))
		if m >= 1 {
			w = math.Min(w, 3.5/math.Sqrt(float64(m)))
		}
		return w / fine
	}
	const levels = 6
	nearZero := d <= 6
	gEnd, gw := trunc(d-1), width(d-1)
	gr := rule1{lo: 0, hi: gEnd, w: gw}
	g0 := math.Asin(g.sigma / s)
	gr.at(g0, 0)
	if ratio := g.r / s; ratio < 1 {
		gr.at(0, int(math.Ceil(math.Log(4*gw/ratio)/math.Log(4))))
	}
	if nearZero {
		gr.at(g0, levels)
	}
	gx, gwt := gr.nodes()

	var bx, bwt []float64
	if d == 1 {
		bx, bwt = []float64{-half, half}, []float64{0.5, 0.5}
	} else {
		bEnd := trunc(d - 2)
		br := rule1{lo: -bEnd, hi: bEnd, w: width(d - 2)}
		if nearZero {
			br.at(-half, levels)
		}
		bx, bwt = br.nodes()
	}

	r := &sphereRule{w: make([]float64, 0, len(gx)*len(bx)), logh: make([]float64, 0, len(gx)*len(bx))}
	var total float64
	for i, gam := range gx {
		sg, cg := math.Sincos(gam)
		lwg := math.Log(gwt[i])
		if d > 1 {
			lwg += float64(d-1) * math.Log(cg)
		}
		for j, bet := range bx {
			lw := lwg + math.Log(bwt[j])
			if d > 2 {
				lw += float64(d-2) * math.Log(math.Cos(bet))
			}
			x, y := sg, cg*math.Sin(bet)
			zeta := (g.sigma*x - g.omega*y) / s
			n := math.Sqrt(math.Max(0, (1-zeta)*(1+zeta)))
			w := math.Exp(lw)
			total += w
			r.w = append(r.w, w)
			r.logh = append(r.logh, math.Log(n)+math.Log(g.r*n+s*x))
		}
	}
	for i := range r.w {
		r.w[i] /= total
	}
	return r
}

// rule1 is a one-dimensional composite Gauss–Legendre rule on [lo, hi]:
// the intervals between its breakpoints are cut into equal panels no wider
// than w, each with gaussPanelNodes nodes (gaussGradedNodes on a panel
// shorter than w/2).
type rule1 struct {
	lo, hi, w float64
	breaks    []float64
}

// at adds the breakpoint p and, for levels > 0, a geometric grading
// towards it from both sides: p ± w·4^{−j}, j = 0 … levels (those inside
// [lo, hi]).
func (r *rule1) at(p float64, levels int) {
	if p > r.lo && p < r.hi {
		r.breaks = append(r.breaks, p)
	}
	for j := 0; j <= levels && levels > 0; j++ {
		h := r.w * math.Pow(4, -float64(j))
		for _, x := range []float64{p - h, p + h} {
			if x > r.lo && x < r.hi {
				r.breaks = append(r.breaks, x)
			}
		}
	}
}

// nodes returns the rule's nodes and weights.
func (r *rule1) nodes() (x, w []float64) {
	b := append([]float64{r.lo, r.hi}, r.breaks...)
	slices.Sort(b)
	b = slices.Compact(b)
	for i := 1; i < len(b); i++ {
		lo, hi := b[i-1], b[i]
		m := max(1, int(math.Ceil((hi-lo)/r.w)))
		q := gaussPanelNodes
		if hi-lo < r.w/2 {
			q = gaussGradedNodes
		}
		h := (hi - lo) / float64(m)
		px := make([]float64, q)
		pw := make([]float64, q)
		for j := range m {
			quad.Legendre{}.FixedLocations(px, pw, lo+float64(j)*h, lo+float64(j+1)*h)
			x = append(x, px...)
			w = append(w, pw...)
		}
	}
	return x, w
}
