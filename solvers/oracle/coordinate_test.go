package oracle

import (
	"fmt"
	"math"
	"testing"
)

func TestDefaultGroups(t *testing.T) {
	// m = ⌈20 ln(4d/0.1)⌉: 20 ln 4000 = 165.88, 20 ln 400 = 119.83,
	// 20 ln 40 = 73.78; capped at s.
	tests := []struct{ d, s, want int }{
		{100, 1_000_000, 166},
		{10, 1_000_000, 120},
		{1, 1_000_000, 74},
		{100, 50, 50},
		{100, 1, 1},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("d=%d s=%d", tc.d, tc.s), func(t *testing.T) {
			if got := DefaultGroups(tc.d, tc.s); got != tc.want {
				t.Errorf("DefaultGroups(%d, %d) = %d, want %d", tc.d, tc.s, got, tc.want)
			}
		})
	}
}

func TestGroupLayout(t *testing.T) {
	var l groupLayout
	l.begin(10, 3) // q = 3, r = 1: sizes 4, 3, 3
	var count [3]int
	for i := range 10 {
		g := l.take()
		if g != i%3 {
			t.Fatalf("vector %d in group %d, want %d", i, g, i%3)
		}
		count[g]++
	}
	for g, n := range count {
		if l.size(g) != n {
			t.Errorf("size(%d) = %d, but %d vectors went there", g, l.size(g), n)
		}
	}
	if l.q != 3 || l.r != 1 {
		t.Errorf("q, r = %d, %d, want 3, 1", l.q, l.r)
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		x    []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{-1, 5, 5, 5, -7}, 5},
		{[]float64{0, 0, 0, 0}, 0},
		{[]float64{math.MaxFloat64, math.MaxFloat64}, math.MaxFloat64},
		{[]float64{-math.MaxFloat64, math.MaxFloat64}, 0},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.x), func(t *testing.T) {
			x := append([]float64(nil), tc.x...)
			if got := median(x); got != tc.want {
				t.Errorf("median(%v) = %g, want %g", tc.x, got, tc.want)
			}
		})
	}
}

// TestCoordinateHandMade: medians of group means computed by hand.
func TestCoordinateHandMade(t *testing.T) {
	batch := [][]float64{
		{0.5, 2},        // clipped to (0.5, 1)
		{-3, 0},         // clipped to (−1, 0)
		{0.2, -0.4},     //
		{0.1, 0},        //
		{1, 1},          // on the boundary: not clipped
		{math.NaN(), 0}, // zeroed
	}
	tests := []struct {
		m    int
		want []float64
		q    int
	}{
		// Groups {0,3}, {1,4}, {2,5}: means (0.3, 0.5), (0, 0.5), (0.1, −0.2).
		{3, []float64{0.1, 0.5}, 2},
		// Groups {0,2,4}, {1,3,5}: means (1.7/3, 1.6/3), (−0.3, 0); medians
		// of two are their averages.
		{2, []float64{(1.7/3 - 0.3) / 2, 1.6 / 3 / 2}, 3},
		// Groups {0,4}, {1,5}, {2}, {3}: means (0.75, 1), (−0.5, 0),
		// (0.2, −0.4), (0.1, 0).
		{4, []float64{0.15, 0}, 1},
		// One group: the clipped mean.
		{1, []float64{(0.5 - 1 + 0.2 + 0.1 + 1) / 6, (1 + 0 - 0.4 + 0 + 1) / 6}, 6},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("m=%d", tc.m), func(t *testing.T) {
			for _, name := range []string{"coordinate", "shuffle-coordinate"} {
				t.Run(name, func(t *testing.T) {
					o := newOracle(t, name, 1)
					switch c := o.(type) {
					case *Coordinate:
						c.M = tc.m
					case *ShuffleCoordinate:
						c.M = tc.m
					}
					got, call := run(t, o, batch, 1, noPrivacy(o), newRand(1))
					for j := range got {
						if math.Abs(got[j]-tc.want[j]) > 1e-15 {
							t.Errorf("%s M=%d: %v, want %v", name, tc.m, got, tc.want)
							break
						}
					}
					// Δ = 2τ√d/q, halved for the Gaussian oracle at even m (its
					// median moves by half a group's change); the shuffle oracle's
					// noise is per group, so its Δ stays 2τ√d/q.
					want := 2 * math.Sqrt2 / float64(tc.q)
					if name == "coordinate" && tc.m%2 == 0 {
						want /= 2
					}
					if math.Abs(call.Sensitivity-want) > 1e-15 {
						t.Errorf("%s M=%d: Sensitivity = %g, want %g", name, tc.m, call.Sensitivity, want)
					}
					if call.Stats.Clipped != 2 || call.Stats.NonFinite != 1 || call.Stats.Size != 6 {
						t.Errorf("%s M=%d: stats %+v", name, tc.m, call.Stats)
					}
				})
			}
		})
	}
}

// TestCoordinateUtility checks the non-private median of group means (the
// coordinate oracle before its noise, whose σ TestGaussianNoiseSigma
// checks) against Lemma "lem:4.1" with its stated constants, and against a
// sharper first-principles figure.
//
// Data: z = ν + t₅ noise, iid coordinates, ‖ν‖ = 0.5, d = 10, s = 1000,
// τ = 10 ≥ 2‖ν‖, the default m = 120 groups of 8 or 9 (ζ = 0.1). For t₅,
// E|z_j − ν_j|⁴ = 3·5²/((5−2)(5−4)) = 25 = γ₄ (k = 4).
//
//  1. Lemma 4.1: P(‖ν̂ − ν‖ > 10√d(√(m/s)γ₄^{1/4} + γ₄(2/τ)³)) ≤ ζ. The
//     failure count of N calls is at most Binomial(N, ζ); allowed: ζN +
//     4.5 binomial s.e.
//  2. The proof of Proposition "prop: sdp bias var" bounds
//     E‖ν̂ − ν‖² ≤ 200d(mγ₄^{1/2}/s + γ₄²(2/τ)⁶) + 4τ²dζ; the mean of N
//     squared errors must not exceed it by 4.5 s.e.
//  3. Sharper: each group mean is nearly normal with variance σ_c²/|G|
//     (σ_c² the clipped coordinate's variance, estimated from the data),
//     and the median of m iid normals has variance (π/2)·Var/m·(1 + O(1/m))
//     (asymptotic efficiency 2/π of the median), so the mean squared error
//     per coordinate is close to (π/2)σ_c²/s. The group means of t₅ have
//     excess kurtosis 6/|G| ≈ 0.7, which makes them more peaked than a
//     normal and the median somewhat more efficient, so the measured ratio
//     to σ_c²/s is required to lie in [1.2, 1.75] (π/2 = 1.571); with
//     N·d = 4000 squared errors its Monte Carlo s.e. is about 2.2%.
func TestCoordinateUtility(t *testing.T) {
	const (
		d    = 10
		s    = 1000
		N    = 400
		tau  = 10.0
		zeta = DefaultZeta
	)
	nu := make([]float64, d)
	for j := range nu {
		nu[j] = 0.5 / math.Sqrt(d)
	}
	gamma := 25.0
	r := newRand(31)
	o := newOracle(t, "coordinate", 1)
	m := DefaultGroups(d, s)
	bound41 := 10 * math.Sqrt(d) * (math.Sqrt(float64(m)/s)*math.Pow(gamma, 0.25) + gamma*math.Pow(2/tau, 3))
	boundMSE := 200*d*(float64(m)*math.Sqrt(gamma)/s+gamma*gamma*math.Pow(2/tau, 6)) + 4*tau*tau*d*zeta
	fails := 0
	sq := make([]float64, N)
	var perCoord, clipVar float64
	for n := range N {
		batch := studentBatch(r, s, nu, 5)
		out, _ := run(t, o, batch, tau, noPrivacy(o), r)
		e := diffNorm(out, nu)
		if e > bound41 {
			fails++
		}
		sq[n] = e * e
		perCoord += e * e / d
		// Variance of the clipped coordinates of this batch.
		for j := range d {
			var m1, m2 float64
			for _, z := range batch {
				v := math.Max(-tau, math.Min(tau, z[j]))
				m1 += v
				m2 += v * v
			}
			m1 /= s
			clipVar += (m2/s - m1*m1) * s / (s - 1)
		}
	}
	if o.(*Coordinate).Groups() != 120 {
		t.Fatalf("m = %d, want 120", o.(*Coordinate).Groups())
	}
	if allowed := zeta*N + 4.5*math.Sqrt(zeta*(1-zeta)*N); float64(fails) > allowed {
		t.Errorf("lem:4.1: %d of %d calls beyond %.3g, allowed %.1f", fails, N, bound41, allowed)
	}
	mse, varSq, _ := meanVar(sq)
	if mse > boundMSE+4.5*math.Sqrt(varSq/N) {
		t.Errorf("E‖ν̂ − ν‖² = %.4g exceeds the proof's bound %.4g", mse, boundMSE)
	}
	perCoord /= N
	clipVar /= N * d
	ratio := perCoord / (clipVar / s)
	if ratio < 1.2 || ratio > 1.75 {
		t.Errorf("mean squared error per coordinate = %.4g = %.3f·σ_c²/s, want a ratio in [1.2, 1.75] (π/2 for normal group means)", perCoord, ratio)
	}
	t.Logf("MSE per coordinate %.4g = %.3f σ_c²/s (σ_c² = %.4f); lem:4.1 bound %.3g, MSE bound %.3g", perCoord, ratio, clipVar, bound41, boundMSE)
}
