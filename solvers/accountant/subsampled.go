package accountant

import (
	"fmt"
	"math"
)

// adjacency is the pair of distributions whose privacy loss is taken: one
// direction of the add/remove relation, or the replace-one pair
// (dp_accounting's AdjacencyType REMOVE, ADD, REPLACE).
type adjacency int

const (
	// remove: μ_upper = (1−q)N(0, σ²) + qN(−1, σ²), μ_lower = N(0, σ²).
	remove adjacency = iota
	// add: μ_upper = N(0, σ²), μ_lower = (1−q)N(0, σ²) + qN(1, σ²).
	add
	// replace: μ_upper = (1−q)N(0, σ²) + qN(−1, σ²),
	// μ_lower = (1−q)N(0, σ²) + qN(1, σ²). One record g is replaced by g'
	// with ‖g‖, ‖g'‖ ≤ 1 (the clip threshold, in units of which σ is the
	// noise multiplier): the step's sum differs by g − g' when the record's
	// slot is sampled (probability q) and not at all otherwise, so the
	// sampled components sit at g and g', at most 2 apart, each 1 from the
	// unsampled one. The antipodal pair g = −g' (one dimension, the two
	// farthest apart) is the pair dp_accounting (AdjacencyType.REPLACE)
	// and Koskela, Jälkö & Honkela (2020, Section 5.2) account for the
	// substitution relation; this package takes it from them and does not
	// itself prove that no other pair in the ball is worse. It is
	// symmetric (x ↦ −x swaps the two), so one direction is the whole
	// relation.
	replace
)

// sgLoss is the privacy loss of one step of the Poisson-subsampled Gaussian
// mechanism with noise multiplier σ (sensitivity 1) and sampling rate q, in
// one adjacency direction or for replace-one (dp_accounting's
// GaussianPrivacyLoss with sampling_prob q): ℓ(x) = ln(μ_upper(x)/μ_lower(x)),
// decreasing in x, and the privacy loss distribution is the law of ℓ(x) for
// x ∼ μ_upper.
type sgLoss struct {
	sigma, q float64
	adj      adjacency
	// lnq, ln1q, ln2q are ln q, ln(1 − q) (−Inf when q = 1) and ln 2q.
	lnq, ln1q, ln2q float64
}

func newSGLoss(sigma, q float64, adj adjacency) sgLoss {
	return sgLoss{sigma: sigma, q: q, adj: adj, lnq: math.Log(q), ln1q: math.Log1p(-q), ln2q: math.Log(2 * q)}
}

// loss is ℓ(x). Remove: ln(1 − q + q e^{L(x)}) with L(x) = (−½ − x)/σ², the
// Gaussian mechanism's loss; add: −ln(1 − q + q e^{L(−x)}); replace: their
// sum (μ_upper/μ_lower = (μ_upper/N(0, σ²))·(N(0, σ²)/μ_lower)).
func (g sgLoss) loss(x float64) float64 {
	s2 := g.sigma * g.sigma
	switch g.adj {
	case remove:
		return logAdd(g.ln1q, g.lnq+(-0.5-x)/s2)
	case add:
		return -logAdd(g.ln1q, g.lnq+(-0.5+x)/s2)
	}
	return logAdd(g.ln1q, g.lnq+(-0.5-x)/s2) - logAdd(g.ln1q, g.lnq+(-0.5+x)/s2)
}

// inverse is the largest x with ℓ(x) ≥ ε (±Inf outside ℓ's range
// (ln(1−q), ∞) for remove, (−∞, −ln(1−q)) for add; replace's range is R).
func (g sgLoss) inverse(eps float64) float64 {
	s2 := g.sigma * g.sigma
	if g.adj == replace {
		return g.inverseReplace(eps)
	}
	if g.adj == remove {
		if eps <= g.ln1q {
			return math.Inf(1)
		}
		// L = ln(1 + (e^ε − 1)/q), x = −½ − Lσ²; for ε > 0 as
		// ε + ln(1 − (1 − q)e^{−ε}) − ln q, since e^ε overflows past 709
		// (a σ far below 1: dpso privacy --noise-multiplier 0.002).
		var L float64
		if eps > 0 {
			L = eps + math.Log1p(-(1-g.q)*math.Exp(-eps)) - g.lnq
		} else {
			L = math.Log(math.Expm1(eps)+g.q) - g.lnq
		}
		return -0.5 - L*s2
	}
	if eps >= -g.ln1q {
		return math.Inf(-1)
	}
	// L = −ln(1 + (e^{−ε} − 1)/q), x = ½ − Lσ²; for ε < 0 as
	// −(−ε + ln(1 − (1 − q)e^{ε}) − ln q).
	var L float64
	if eps < 0 {
		L = -(-eps + math.Log1p(-(1-g.q)*math.Exp(eps)) - g.lnq)
	} else {
		L = -(math.Log(math.Expm1(-eps)+g.q) - g.lnq)
	}
	return 0.5 - L*s2
}

// inverseReplace is the x with ℓ(x) = ε for the replace pair. With
// a = e^{(−½ − x)/σ²} the loss is ln(1 − q + qa) − ln(1 − q + qc/a),
// c = e^{−1/σ²}, so ℓ = ε is the quadratic q a² + (1 − q)(1 − e^ε) a −
// q c e^ε = 0, whose positive root is a = (A + √(A² + B²))/(2q) with
// A = (1 − q)(e^ε − 1) and B = 2q√(c e^ε), and x = −½ − σ² ln a. For ε ≥ 0
// (A ≥ 0, no cancellation) ln(A + √(A² + B²)) is taken in logarithms, so
// that neither e^ε (ε > 709) nor c (σ < 0.037) leaves float64's range; for
// ε < 0, ℓ(−x) = −ℓ(x) gives x(ε) = −x(−ε).
func (g sgLoss) inverseReplace(eps float64) float64 {
	if eps < 0 {
		return -g.inverseReplace(-eps)
	}
	s2 := g.sigma * g.sigma
	lnB := g.ln2q + 0.5*(eps-1/s2)
	lnA := math.Inf(-1) // q = 1 or ε = 0: A = 0
	if g.q < 1 && eps > 0 {
		lnA = g.ln1q + eps + math.Log(-math.Expm1(-eps))
	}
	var lnSum float64 // ln(A + √(A² + B²))
	if lnA >= lnB {
		r := math.Exp(lnB - lnA)
		lnSum = lnA + math.Log(1+math.Sqrt(1+r*r))
	} else {
		r := math.Exp(lnA - lnB)
		lnSum = lnB + math.Log(r+math.Sqrt(1+r*r))
	}
	return -0.5 - s2*(lnSum-g.lnq-math.Ln2)
}

// upperCDF is the CDF of μ_upper.
func (g sgLoss) upperCDF(x float64) float64 {
	if g.adj == add {
		return normCDF(x / g.sigma)
	}
	if g.q == 1 {
		return normCDF((x + 1) / g.sigma)
	}
	return (1-g.q)*normCDF(x/g.sigma) + g.q*normCDF((x+1)/g.sigma)
}

// lowerLogCDF is ln of the CDF of μ_lower.
func (g sgLoss) lowerLogCDF(x float64) float64 {
	if g.adj == remove {
		return logNormCDF(x / g.sigma)
	}
	if g.q == 1 {
		return logNormCDF((x - 1) / g.sigma)
	}
	return logAdd(g.ln1q+logNormCDF(x/g.sigma), g.lnq+logNormCDF((x-1)/g.sigma))
}

// delta is the exact ε-hockey-stick divergence of the step,
// δ(ε) = μ_upper(ℓ ≥ ε) − e^ε μ_lower(ℓ ≥ ε) = F_upper(x) − e^ε F_lower(x)
// at x = inverse(ε) (ℓ is decreasing); 1 − e^ε below ℓ's range (remove) and
// 0 above it (add).
func (g sgLoss) delta(eps float64) float64 {
	if g.q < 1 && g.adj != replace {
		if g.adj == remove && eps <= g.ln1q {
			return -math.Expm1(eps)
		}
		if g.adj == add && eps >= -g.ln1q {
			return 0
		}
	}
	x := g.inverse(eps)
	if d, ok := g.deltaLinear(eps, x); ok {
		return d
	}
	d := g.upperCDF(x) - math.Exp(eps+g.lowerLogCDF(x))
	return clamp01(d)
}

// deltaLinear is delta's F_upper(x) − e^ε F_lower(x) with F_lower in
// linear scale, sharing Φ(x/σ) between the two CDFs, where that is
// accurate: e^ε finite (ε < 700) and every Φ argument above −30, so that
// no CDF is near float64's underflow (Φ(−30) ≈ 5·10⁻¹⁹⁸). There each
// factor carries a rounding or two (math.Erfc is accurate to a few ulps
// relative in both tails), where exp(ε + ln F_lower) carries the rounding
// of the sum's logarithms times |ε + ln F_lower|; ok = false elsewhere (the
// logarithmic form then). Two or three erfc and one exp per grid point
// instead of about a dozen transcendental functions.
func (g sgLoss) deltaLinear(eps, x float64) (d float64, ok bool) {
	if !(eps < 700) || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, false
	}
	s := g.sigma
	u := x / s
	if g.adj != add && (x+1)/s < -30 || g.adj != remove && (x-1)/s < -30 || u < -30 {
		return 0, false
	}
	p0 := normCDF(u)
	var up, lo float64
	if g.adj == add {
		up = p0
	} else if g.q == 1 {
		up = normCDF((x + 1) / s)
	} else {
		up = (1-g.q)*p0 + g.q*normCDF((x+1)/s)
	}
	switch {
	case g.adj == remove:
		lo = p0
	case g.q == 1:
		lo = normCDF((x - 1) / s)
	default:
		lo = (1-g.q)*p0 + g.q*normCDF((x-1)/s)
	}
	return clamp01(up - math.Exp(eps)*lo), true
}

// clamp01 is math.Min(1, math.Max(0, d)) (−0 to +0, NaN kept) by
// comparisons: math.Min and math.Max are calls on amd64, two a grid point.
func clamp01(d float64) float64 {
	if d <= 0 {
		return 0
	}
	if d > 1 {
		return 1
	}
	return d
}

// deltas sets ds[i] = δ((iLo + i)·h), the exact hockey-stick divergence
// at the grid's points. For the replace pair, which is symmetric (x ↦ −x
// swaps its two distributions), the divergence at a negative ε comes from
// the one at −ε: for any pair H_{e^{−ε}}(Q‖P) = 1 − e^{−ε} + e^{−ε}H_{e^ε}(P‖Q)
// (integrate (γq − p)₊ = γq − p + (p − γq)₊), so for a symmetric one
// δ(−ε) = −expm1(−ε) + e^{−ε}δ(ε), which halves the evaluations of δ on a
// grid centred near 0. (Both forms carry an absolute rounding of about
// 10⁻¹⁶ on a δ(−ε) ≥ 1 − e^{−ε}.)
// It returns s's context's error, checked every 4096 points.
func (g sgLoss) deltas(ds []float64, iLo int, h float64, s *pldScratch) error {
	if g.adj != replace || iLo >= 0 {
		for i := range ds {
			if i%4096 == 0 {
				if err := s.err(); err != nil {
					return err
				}
			}
			ds[i] = g.delta(float64(iLo+i) * h)
		}
		return nil
	}
	iHi := iLo + len(ds) - 1
	for j := max(0, iLo); j <= iHi; j++ {
		if j%4096 == 0 {
			if err := s.err(); err != nil {
				return err
			}
		}
		ds[j-iLo] = g.delta(float64(j) * h)
	}
	for j := iLo; j < 0; j++ {
		if -j > iHi {
			ds[j-iLo] = g.delta(float64(j) * h)
			continue
		}
		eps := float64(-j) * h
		if d := -math.Expm1(-eps) + math.Exp(-eps)*ds[-j-iLo]; d > 1 {
			ds[j-iLo] = 1
		} else {
			ds[j-iLo] = d // math.Min(1, d), NaN included, without its call
		}
	}
	return nil
}

// truncation is dp_accounting's privacy_loss_tail: the x range outside which
// μ_upper has mass at most e^{logMass} (the Gaussian's tail Φ⁻¹(e^{logMass}/2)
// on each side, shifted by the sensitivity on the side of the shifted
// component).
func (g sgLoss) truncation(logMass float64) (lowerX, upperX float64) {
	lowerX = g.sigma * normQuantile(0.5*math.Exp(logMass))
	upperX = -lowerX
	if g.adj == add {
		upperX++
	} else {
		lowerX--
	}
	return lowerX, upperX
}

// maxGrid caps the discretisation grid of one step's privacy loss.
const maxGrid = MaxGridPoints

// connectDots is the pessimistic connect-the-dots discretisation
// (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022, Algorithm 1; as
// dp_accounting's create_pmf_pessimistic_connect_dots_fixed_gap) of the
// step's privacy loss on the grid ε_i = i·h, i = ⌊ℓ(x_hi)/h⌋ … ⌈ℓ(x_lo)/h⌉
// (x_lo, x_hi the truncation points): with δ_i the exact hockey-stick
// divergence at ε_i (non-increasing, made so against rounding),
//
//	p_first = 1 − δ₁ + (δ₂ − δ₁)/(e^h − 1),
//	p_i     = ((δ_{i+1} − δ_i) − e^h(δ_i − δ_{i−1}))/(e^h − 1),
//	p_last  = (δ_n − δ_{n−1})/(e^{−h} − 1),   mass at +∞ = δ_n,
//
// negative masses set to 0. It is the unique distribution on the grid (and
// +∞) whose hockey-stick curve equals the exact one at every grid point, and
// it dominates the exact curve in between, so every composition of it is
// pessimistic (Doroshenko et al. 2022, Theorem 3.4).
//
// Equivalently, it moves the mass at each exact loss ℓ in a cell [a, b] to
// the cell's ends, p_b = (e^{−a} − e^{−ℓ})/(e^{−a} − e^{−b}) to b and the
// rest to a, which keeps both the mass and the e^{−ℓ}-moment (δ at a and b is
// unchanged, as one checks on a single atom). So the discretised loss W of a
// step can be coupled with the exact loss X so that W − X ∈ [−h, h] with
// E[W − X | X] ∈ [0, m_h], m_h = r − 1 − ln r, r = h/(1 − e^{−h}) (≈ h²/8),
// except when X falls outside the truncated range, an event of μ_upper-mass
// at most e^{logMass}. [PLDBounds] turns this coupling into a lower bound.
func (g sgLoss) connectDots(h, logMass float64) (*pmf, error) {
	return g.connectDotsIn(h, logMass, nil)
}

// connectDotsIn is connectDots in the buffer of s (nil: its own); the
// returned distribution's masses are then s's, until its next use.
func (g sgLoss) connectDotsIn(h, logMass float64, s *pldScratch) (*pmf, error) {
	lx, ux := g.truncation(logMass)
	// The grid's ends in float64 first: at a tiny σ the loss range divided
	// by h leaves int's range (σ = 10⁻⁹, q = 1/2: ~10²² points), where a
	// conversion to int is meaningless.
	fLo, fHi := math.Floor(g.loss(ux)/h), math.Ceil(g.loss(lx)/h)
	if span := fHi - fLo + 1; !(span <= maxGrid) {
		return nil, fmt.Errorf("%w: the privacy loss of one step spans %.3g grid points of width %g (more than %d); use a coarser discretisation", ErrGridTooLarge, span, h, maxGrid)
	}
	iLo, iHi := int(fLo), int(fHi)
	n := iHi - iLo + 1
	ds := s.buffer(n)
	if err := g.deltas(ds, iLo, h, s); err != nil {
		return nil, err
	}
	for i := 1; i < n; i++ {
		if ds[i] > ds[i-1] {
			ds[i] = ds[i-1]
		}
	}
	if n == 1 {
		return &pmf{h: h, lower: iLo, probs: []float64{1 - ds[0]}, inf: ds[0]}, nil
	}
	// The masses overwrite the divergences in place: mass i reads δ at
	// i − 1 (kept in prev), i and i + 1.
	em1 := math.Expm1(h)
	eh := math.Exp(h)
	probs, inf := ds, ds[n-1]
	prev := ds[0]
	probs[0] = 1 - ds[0] + (ds[1]-ds[0])/em1
	for i := 1; i < n-1; i++ {
		cur := ds[i]
		probs[i] = ((ds[i+1] - cur) - eh*(cur-prev)) / em1
		prev = cur
	}
	probs[n-1] = (inf - prev) / math.Expm1(-h)
	for i, v := range probs {
		if !(v > 0) {
			probs[i] = 0
		}
	}
	return &pmf{h: h, lower: iLo, probs: probs, inf: inf}, nil
}
