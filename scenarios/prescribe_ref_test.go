package scenarios

import (
	"math"
	"testing"

	"dpso/theory"
)

// The prescriptions of the precise theorems of the one-pass algorithms, as
// pure functions written from the theorems apart from the solvers' own
// code: the reference TestPrescriptionsMatchTheory holds the solvers' T
// and C to. For an (ε, δ)-shuffle run pass eps = theory.ShuffleEps(ε, d,
// δ) (Lemma "lem: pvec": the shuffle oracle's noise is the Gaussian's at
// ε/ln(d/δ), up to the lemma's constant); for a zCDP run the zCDP ε. rk is
// the moment constant the prescription may use (theory.PrescriptionAllows:
// r̃_k, or r_k for these smooth classes). eps = +Inf means no privacy. They return T, and whether
// the clamp to the algorithm's range changed it; 0 for inputs out of range
// (n < 1, d < 1, eps ≤ 0, k < 2, D ≤ 0, beta < 0, mu ≤ 0, rk ≤ 0).

// ceilClamp is ⌈x⌉ clamped to [lo, hi] (NaN goes to lo), with whether the
// clamp applied.
func ceilClamp(x float64, lo, hi int) (int, bool) {
	c := math.Ceil(x)
	switch {
	case math.IsNaN(c) || c < float64(lo):
		return lo, true
	case c > float64(hi):
		return hi, true
	}
	return int(c), false
}

// acsaIters is T of the complete version of Theorem "thm: convex ACSA one
// pass" (app: convex accel):
//
//	T = ⌈min{(βD/r_k)^(2k/(5k−1))·(εn/√d)^((2k−2)/(5k−1)), √(βD/r_k)·n^(1/4)}⌉ ∈ [1, n],
//
// (ε = ∞: the second branch; k = ∞: exponents 2/5, 2/5). β = 0 (affine)
// gives ⌈0⌉, clamped to 1 — the paper's T = 1.
func acsaIters(n int, d, eps, k, D, beta, rk float64) (T int, clamped bool) {
	if n < 1 || !(d >= 1) || !(eps > 0) || !(k >= 2) || !(D > 0) || !(beta >= 0) || !(rk > 0) {
		return 0, false
	}
	u := 1 / k
	x := beta * D / rk
	t := math.Sqrt(x) * math.Pow(float64(n), 0.25)
	if !math.IsInf(eps, 1) {
		t = math.Min(t, math.Pow(x, 2/(5-u))*math.Pow(eps*float64(n)/math.Sqrt(d), 2*(1-u)/(5-u)))
	}
	return ceilClamp(t, 1, n)
}

// acsaClip is C = r_k·(εn/√(dT))^(1/k) of the same theorem's proof (+Inf
// at ε = ∞; r_k at k = ∞). NaN for inputs out of range.
func acsaClip(n int, d, eps, k, rk float64, T int) float64 {
	if n < 1 || T < 1 || !(d >= 1) || !(eps > 0) || !(k >= 2) || !(rk > 0) {
		return math.NaN()
	}
	if math.IsInf(eps, 1) {
		return math.Inf(1)
	}
	return rk * math.Pow(eps*float64(n)/math.Sqrt(d*float64(T)), 1/k)
}

// scsgdIters is T of the precise statement of Theorem "thm: strongly
// convex smooth upper bound" (app: strongly convex):
//
//	T = ⌈4κ·ln((μβD²/r_k²)·(n + (ε²n²/d)^((k−1)/k)))⌉ ∈ [1, n−1],  κ = β/μ
//
// (ε = ∞: the logarithm is infinite and T is n − 1). n ≥ 2.
func scsgdIters(n int, d, eps, k, D, beta, mu, rk float64) (T int, clamped bool) {
	if n < 2 || !(d >= 1) || !(eps > 0) || !(k >= 2) || !(D > 0) || !(beta > 0) || !(mu > 0) || !(rk > 0) {
		return 0, false
	}
	nf := float64(n)
	arg := mu * beta * D * D / (rk * rk) * (nf + math.Pow(eps*eps*nf*nf/d, 1-1/k))
	return ceilClamp(4*beta/mu*math.Log(arg), 1, n-1)
}

// scsgdClip is C = r_k·(ε²n²/(dT))^(1/(2k)) of the same proof.
func scsgdClip(n int, d, eps, k, rk float64, T int) float64 {
	if n < 1 || T < 1 || !(d >= 1) || !(eps > 0) || !(k >= 2) || !(rk > 0) {
		return math.NaN()
	}
	if math.IsInf(eps, 1) {
		return math.Inf(1)
	}
	nf := float64(n)
	return rk * math.Pow(eps*eps*nf*nf/(d*float64(T)), 1/(2*k))
}

// pplClip is C = r_k·(ε²n²/(dT²))^(1/(2k)) of the precise statement of
// Theorem "thm: PL upper bound" (its T = 2⌈κ ln(Δμ/(B² + Σ²))⌉ depends on C
// through B and Σ², a fixed point the solver finds).
func pplClip(n int, d, eps, k, rk float64, T int) float64 {
	if n < 1 || T < 1 || !(d >= 1) || !(eps > 0) || !(k >= 2) || !(rk > 0) {
		return math.NaN()
	}
	if math.IsInf(eps, 1) {
		return math.Inf(1)
	}
	nf, tf := float64(n), float64(T)
	return rk * math.Pow(eps*eps*nf*nf/(d*tf*tf), 1/(2*k))
}

// TestPrescriptionReference holds the reference formulas above to values
// computed by hand from the theorems.
func TestPrescriptionReference(t *testing.T) {
	rel := func(a, b float64) float64 { return math.Abs(a-b) / math.Abs(b) }
	// n = 10⁴, d = 100, ε = 1, k = 2, D = β = r̃ = 1: T = ⌈min{1000^(2/9), 10}⌉ = ⌈4.64⌉ = 5,
	// C = (10⁴/√500)^(1/2) = 21.147425268811283.
	if T, cl := acsaIters(10000, 100, 1, 2, 1, 1, 1); T != 5 || cl {
		t.Errorf("acsaIters = %d, %v", T, cl)
	}
	if c := acsaClip(10000, 100, 1, 2, 1, 5); rel(c, 21.147425268811283) > 1e-15 {
		t.Errorf("acsaClip = %.17g", c)
	}
	// β = 0 (affine): the paper's T = 1, reached by the clamp from ⌈0⌉.
	if T, cl := acsaIters(1000, 10, 1, 2, 1, 0, 1); T != 1 || !cl {
		t.Errorf("β = 0: %d %v", T, cl)
	}
	// ε = ∞: the n^(1/4) branch (5000^(1/4) = 8.41), C = ∞; clamp at n.
	if T, _ := acsaIters(5000, 100, math.Inf(1), 2, 1, 1, 1); T != 9 || !math.IsInf(acsaClip(5000, 100, math.Inf(1), 2, 1, 9), 1) {
		t.Errorf("ε = ∞: T = %d", T)
	}
	if T, cl := acsaIters(100, 1, 1, 2, 1, 1e12, 1e-6); T != 100 || !cl {
		t.Errorf("huge β: %d %v", T, cl)
	}
	// Strongly convex: κ = 2, arg = 0.5·(10⁴ + (10⁸/100)^(1/2)) = 5500: T = ⌈8 ln 5500⌉ = ⌈68.900⌉ = 69;
	// C = (10⁸/(100·69))^(1/4) = 10.972048718711068.
	if T, cl := scsgdIters(10000, 100, 1, 2, 1, 1, 0.5, 1); T != 69 || cl {
		t.Errorf("scsgdIters = %d %v", T, cl)
	}
	if c := scsgdClip(10000, 100, 1, 2, 1, 69); rel(c, 10.972048718711068) > 1e-15 {
		t.Errorf("scsgdClip = %.17g", c)
	}
	if T, cl := scsgdIters(10000, 100, math.Inf(1), 2, 1, 1, 0.5, 1); T != 9999 || !cl {
		t.Errorf("scsgdIters at ε = ∞: %d %v", T, cl)
	}
	// PPL: C = (10⁸/(100·100))^(1/4) = 10 at T = 10.
	if c := pplClip(10000, 100, 1, 2, 1, 10); rel(c, 10) > 1e-15 {
		t.Errorf("pplClip = %.17g", c)
	}
	// The shuffle run: the same formulas at ε̃ = ShuffleEps(ε, d, δ).
	et := theory.ShuffleEps(1, 100, 1e-6)
	if T, _ := acsaIters(10000, 100, et, 2, 1, 1, 1); T != 3 { // ⌈(10⁴·ε̃/10)^(2/9)⌉ = ⌈54.29^(2/9)⌉ = ⌈2.43⌉
		t.Errorf("shuffle T = %d", T)
	}
}
