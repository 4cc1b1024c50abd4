package dist

import (
	"math"
)

// GammaSampler draws from the Gamma distribution with shape a > 0 and
// rate 1 (density x^{a−1}e^{−x}/Γ(a)), by Marsaglia & Tsang (2000), "A
// simple method for generating gamma variables", with the boost
// Gamma(a) = Gamma(a+1)·U^{1/a} for a < 1, the method's constants
// computed once. It allocates nothing; an invalid shape (a ≤ 0, NaN, +Inf)
// draws NaN.
type GammaSampler struct {
	a    float64 // the shape (NaN when invalid)
	d, c float64 // d = a' − 1/3, c = 1/√(9d), a' = a or a + 1
	inv  float64 // 1/a for the boost (a < 1), 0 otherwise
}

// NewGamma prepares the sampler of Gamma(a), rate 1.
func NewGamma(a float64) GammaSampler {
	if !(a > 0) || math.IsInf(a, 1) {
		return GammaSampler{a: math.NaN()}
	}
	g := GammaSampler{a: a}
	ap := a
	if a < 1 {
		g.inv = 1 / a
		ap++
	}
	g.d = ap - 1.0/3
	g.c = 1 / math.Sqrt(9*g.d)
	return g
}

// Draw returns one Gamma(a) draw: a normal x and a uniform u per attempt,
// accepted when v = (1 + cx)³ > 0 and u < 1 − 0.0331x⁴ (the squeeze, ≈ 98%
// of attempts for a ≥ 1) or ln u < x²/2 + d(1 − v + ln v); the result is
// d·v, times U^{1/a} for a < 1.
func (g GammaSampler) Draw(r *Rand) float64 {
	if math.IsNaN(g.a) {
		return math.NaN()
	}
	boost := 1.0
	if g.inv != 0 {
		// U^{1/a} with U in (0, 1]: 1 − Float64() never returns 0.
		boost = math.Pow(1-r.Float64(), g.inv)
	}
	// x = r.NormFloat64() and u = 1 − r.Float64() (in (0, 1]), with the
	// generator's state in registers across the loop (this is a per-sample
	// draw of the heavy-tailed scenarios).
	s0, s1, s2, s3 := r.s0, r.s1, r.s2, r.s3
	for {
		var b uint64
		b, s0, s1, s2, s3 = next(s0, s1, s2, s3)
		var x float64
		if j, sl := b>>11, b&0x1ff; j < zigKS[sl] {
			x = float64(int64(j)) * zigWS[sl]
		} else {
			r.s0, r.s1, r.s2, r.s3 = s0, s1, s2, s3
			x = r.normSlow(b)
			s0, s1, s2, s3 = r.s0, r.s1, r.s2, r.s3
		}
		v := 1 + g.c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		b, s0, s1, s2, s3 = next(s0, s1, s2, s3)
		u := 1 - float64(b>>11)*0x1p-53
		x2 := x * x
		if u < 1-0.0331*x2*x2 || math.Log(u) < 0.5*x2+g.d*(1-v+math.Log(v)) {
			r.s0, r.s1, r.s2, r.s3 = s0, s1, s2, s3
			return boost * g.d * v
		}
	}
}

// Pareto draws from the Pareto distribution with scale xm > 0 and tail
// index α > 0 (P(X > x) = (xm/x)^α for x ≥ xm): xm·exp(E/α) with E
// standard exponential.
func Pareto(r *Rand, alpha, xm float64) float64 {
	return xm * math.Exp(r.ExpFloat64()/alpha)
}

// TruncNormal draws from N(0, σ²) conditioned on |X| ≤ lim, by rejection
// (efficient whenever lim is not far below σ; it needs lim > 0).
func TruncNormal(r *Rand, sigma, lim float64) float64 {
	for {
		x := sigma * r.NormFloat64()
		if math.Abs(x) <= lim {
			return x
		}
	}
}

// UnitSphere writes a point drawn uniformly from the unit sphere of
// R^len(v) into v (normalized standard normal vector).
func UnitSphere(r *Rand, v []float64) {
	for {
		var ss float64
		for i := range v {
			x := r.NormFloat64()
			v[i] = x
			ss += x * x
		}
		if ss > 0 {
			s := 1 / math.Sqrt(ss)
			for i := range v {
				v[i] *= s
			}
			return
		}
	}
}
