package oracle

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"dpso/solvers/ledger"
)

func TestP1DDesign(t *testing.T) {
	tests := []struct {
		n          int
		eps, delta float64
		g, b, p    float64
	}{
		// g = max(2, ⌈√100⌉) = 10; B = 180·100·ln(2e5)/(1·100) = 2197.093…;
		// b = 2198; p = B/(2b).
		{100, 1, 1e-5, 10, 2198, 0.49979369340205443},
		// A group of 7 in shuffle-coordinate at ε = 2, δ = 1e−6, d = 10:
		// δ_j = 5e−8, ε_j = 2/(4√(20 ln(2e7))) = 0.027268…; g = 3;
		// B = 5448209.06…
		{7, 0.027268113674306153, 5e-8, 3, 5448210, 0.4999999137847922},
		// One user: g = 2.
		{1, 1, 0.25, 2, 1498, 0.49973227970943984},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("n=%d eps=%g delta=%g", tc.n, tc.eps, tc.delta), func(t *testing.T) {
			q, err := newP1D(tc.n, 1, tc.eps, tc.delta, 2)
			if err != nil {
				t.Fatal(err)
			}
			if q.g != tc.g || q.b != tc.b || math.Abs(q.p-tc.p) > 1e-15 {
				t.Errorf("newP1D(%d, ε=%g, δ=%g): g, b, p = %g, %g, %.17g, want %g, %g, %.17g", tc.n, tc.eps, tc.delta, q.g, q.b, q.p, tc.g, tc.b, tc.p)
			}
			// b is the smallest integer above B = 180g² ln(2/δ)/(ε²n) and
			// p = 90g² ln(2/δ)/(bε²n) < 1/2.
			big := 180 * q.g * q.g * math.Log(2/tc.delta) / (tc.eps * tc.eps * float64(tc.n))
			if !(q.b > big && q.b-1 <= big && q.p < 0.5) {
				t.Errorf("b = %g, B = %g, p = %g", q.b, big, q.p)
			}
		})
	}
	if _, err := newP1D(1000, 1, 1e-6, 1e-9, 2); err == nil || !strings.Contains(err.Error(), "noise bits") {
		t.Errorf("a design beyond 2^44 noise bits: err = %v", err)
	}
}

// p1dMoments are the exact mean, variance and fourth cumulant of the
// simulated P_1D output on inputs w: the output is (τ/g)(Σ_i ŵ_i + Y −
// pbn) with ŵ_i = ⌊x_i⌋ + Bernoulli(f_i), x_i = w_i g/τ, f_i = frac(x_i),
// Y ~ Binomial(nb, p), all independent. Cumulants add; a Bernoulli(f) has
// κ₂ = f(1−f), κ₄ = f(1−f)(1−6f(1−f)), a Binomial(N, p) N times those.
func p1dMoments(q *p1d, w []float64) (mean, variance, k4 float64) {
	h := 1 / q.scale
	var k2 float64
	for _, wi := range w {
		x := math.Min(math.Max(wi*q.scale, 0), q.g)
		f := x - math.Floor(x)
		mean += x * h
		k2 += f * (1 - f)
		k4 += f * (1 - f) * (1 - 6*f*(1-f))
	}
	pq := q.p * (1 - q.p)
	k2 += q.bits * pq
	k4 += q.bits * pq * (1 - 6*pq)
	return mean, k2 * h * h, k4 * h * h * h * h
}

// checkMoments compares N outputs with their exact mean and variance:
// the sample mean's s.e. is √(V/N); the sample variance's is
// √(κ₄/N + 2V²/(N−1)) (exact for iid draws). Both statistics are close to
// normal at N ≥ 4000, so 4.5 s.e. leave a tail below 1e−5.
func checkMoments(t *testing.T, what string, x []float64, mean, variance, k4 float64) {
	t.Helper()
	n := float64(len(x))
	m, v, _ := meanVar(x)
	if se := math.Sqrt(variance / n); math.Abs(m-mean) > 4.5*se {
		t.Errorf("%s: mean %.8g, exact %.8g (s.e. %.3g)", what, m, mean, se)
	}
	if se := math.Sqrt(k4/n + 2*variance*variance/(n-1)); math.Abs(v-variance) > 4.5*se {
		t.Errorf("%s: variance %.6g, exact %.6g (s.e. %.3g)", what, v, variance, se)
	}
}

// TestP1DExact: the simulation is unbiased for Σ w_i (Lemma "lem:P1D"(b))
// and its variance is exactly that of the rounding plus the binomial,
// both on a design where the rounding dominates and on a design of the
// lemma (where the binomial does).
func TestP1DExact(t *testing.T) {
	const N = 20000
	w := make([]float64, 50)
	for i := range w {
		w[i] = 2 * math.Pow(float64(i)/49, 1.3) // spread over [0, τ = 2]
	}
	lemma, err := newP1D(len(w), 2, 1, 1e-3, 2)
	if err != nil {
		t.Fatal(err)
	}
	designs := []struct {
		name string
		q    p1d
	}{
		// g = 4 levels, 200 noise bits with p = 0.05: binomial variance 9.5
		// against a rounding variance of up to 12.5 (in units of τ/g).
		{"rounding-dominated", p1d{n: 50, tau: 2, g: 4, b: 4, p: 0.05, scale: 2, bits: 200}},
		{"lemma design", lemma},
	}
	for i, tc := range designs {
		t.Run(tc.name, func(t *testing.T) {
			r := newRand(uint64(40 + i))
			x := make([]float64, N)
			for k := range x {
				var sum float64
				for _, wi := range w {
					sum += tc.q.round(wi, r)
				}
				x[k] = tc.q.analyze(sum, r)
			}
			var sumW float64
			for _, wi := range w {
				sumW += wi
			}
			mean, variance, k4 := p1dMoments(&tc.q, w)
			if math.Abs(mean-sumW) > 1e-12*sumW {
				t.Fatalf("exact mean %g ≠ Σw = %g", mean, sumW)
			}
			checkMoments(t, tc.name, x, mean, variance, k4)
			if bound := tc.q.noiseVar() + tc.q.roundVarMax(); variance > bound*(1+1e-12) {
				t.Errorf("%s: variance %g above noiseVar + roundVarMax = %g", tc.name, variance, bound)
			}
		})
	}
}

// TestBinomialChunks: a binomial with more trials than one exact gonum
// draw handles is the sum of chunks; its mean np, variance np(1−p) and
// fourth cumulant np(1−p)(1−6p(1−p)) set the tolerances (checkMoments).
func TestBinomialChunks(t *testing.T) {
	const N = 20000
	for _, tc := range []struct{ n, p float64 }{
		{2*binomialChunk + 12345, 0.3},
		{1e6, 0.5},
		{30, 0.2},
	} {
		t.Run(fmt.Sprintf("n=%g p=%g", tc.n, tc.p), func(t *testing.T) {
			r := newRand(55)
			x := make([]float64, N)
			for k := range x {
				x[k] = binomial(tc.n, tc.p, r)
				if x[k] != math.Floor(x[k]) || x[k] < 0 || x[k] > tc.n {
					t.Fatalf("Binomial(%g, %g) drew %g", tc.n, tc.p, x[k])
				}
			}
			pq := tc.p * (1 - tc.p)
			checkMoments(t, "binomial", x, tc.n*tc.p, tc.n*pq, tc.n*pq*(1-6*pq))
		})
	}
}

// TestPvecEps1: the per-coordinate ε_1 of shuffle-clip satisfies its
// defining inequality and is the largest such value; for small ε it is
// close to its first-order value ε/(K√(2 ln(2/δ))).
func TestPvecEps1(t *testing.T) {
	for _, tc := range []struct {
		eps, delta float64
		d          int
		g          float64
	}{
		{1, 1e-5, 100, 32}, {0.1, 1e-6, 10, 2}, {15, 0.4, 1, 2}, {5, 1e-8, 10000, 100},
	} {
		t.Run(fmt.Sprintf("eps=%g delta=%g d=%d", tc.eps, tc.delta, tc.d), func(t *testing.T) {
			x := pvecEps1(tc.eps, tc.delta, tc.d, tc.g)
			k := 1 + 2*math.Sqrt(float64(tc.d))/tc.g
			f := func(x float64) float64 {
				return math.Exp(x*(1+2/tc.g))*(x*k)*(x*k) + x*k*math.Sqrt(2*math.Log(2/tc.delta))
			}
			if f(x) > tc.eps || f(x*(1+1e-9)) <= tc.eps {
				t.Errorf("ε_1(%+v) = %g: f = %g, f(x(1+1e−9)) = %g, ε = %g", tc, x, f(x), f(x*(1+1e-9)), tc.eps)
			}
			first := tc.eps / (k * math.Sqrt(2*math.Log(2/tc.delta)))
			if tc.eps <= 1 && (x > first || x < 0.8*first) {
				t.Errorf("ε_1(%+v) = %g, first-order value %g", tc, x, first)
			}
		})
	}
}

func TestCSDPComposition(t *testing.T) {
	// d = 1, δ_j = 1/8, g = 2: l = √(2 ln 8), ε_inv = 2ε/(4l),
	// ε' = ε/2 + ε_inv(e^{ε_inv} − 1); at ε = 3 that is 2.29923.
	if got := csdpEps(3, 1, 0.125, 2); math.Abs(got-2.299228924680036) > 1e-12 {
		t.Errorf("csdpEps(3, 1, 1/8, 2) = %.15g, want 2.299228924680036", got)
	}
	emax := csdpEpsMax(1, 0.125, 2)
	if math.Abs(emax-4.534003950408932) > 1e-9 {
		t.Errorf("csdpEpsMax = %.15g, want 4.534003950408932", emax)
	}
	// shuffle-coordinate at d = 1, δ = 1/4 with groups of 4 (g = 2).
	o := &ShuffleCoordinate{M: 3}
	o.SetRand(newRand(1))
	if err := o.Begin(1, 12, 1, ledger.Cost{Eps: 4.5, Delta: 0.25}); err != nil {
		t.Errorf("ε = 4.5 ≤ 4.534: %v", err)
	}
	err := o.Begin(1, 12, 1, ledger.Cost{Eps: 4.6, Delta: 0.25})
	if err == nil || !strings.Contains(err.Error(), "ε ≤ 4.534") {
		t.Errorf("ε = 4.6 > 4.534: err = %v", err)
	}
	// The paper's range ε ≤ 8 ln(2d/δ) admits ε = 16 at d = 1, δ = 1/4,
	// where the composition fails.
	if err := o.Begin(1, 12, 1, ledger.Cost{Eps: 16, Delta: 0.25}); err == nil {
		t.Error("ε = 16 accepted")
	}
}

// shuffleMoments returns, for each coordinate, the exact mean, variance and
// fourth cumulant of a shuffle oracle's output when that coordinate is
// (1/n)·P_1D(w) − shift on the inputs w.
func shuffleMoments(q *p1d, w []float64, n, shift float64) (mean, variance, k4 float64) {
	m, v, c4 := p1dMoments(q, w)
	return m/n - shift, v / (n * n), c4 / (n * n * n * n)
}

// TestShuffleClipExact: every coordinate of shuffle-clip's output has
// exactly the mean and variance of the simulated protocol (checkMoments),
// the mean is the clipped mean up to the rounding clamp, and Sigma bounds
// the per-coordinate standard deviation.
func TestShuffleClipExact(t *testing.T) {
	const s, d, N, C = 64, 6, 4000, 1.0
	batch := studentBatch(newRand(61), s, []float64{0.3, -0.3, 0, 1, -1, 0.1}, 3)
	o := newOracle(t, "shuffle-clip", 62).(*ShuffleClip)
	b := ledger.Cost{Eps: 2, Delta: 1e-5}
	r := newRand(63)
	outs := make([][]float64, N)
	var sigma float64
	for n := range outs {
		var call Call
		outs[n], call = run(t, o, batch, C, b, r)
		sigma = call.Sigma
		if call.Cost != b {
			t.Fatalf("Cost = %+v, want %+v", call.Cost, b)
		}
	}
	clipped, _ := run(t, newOracle(t, "clip-gaussian", 1), batch, C, noPrivacy(&ClipGaussian{}), r)
	for j := range d {
		w := make([]float64, s)
		for i, z := range batch {
			scale, _, _ := clipScale(z, C)
			w[i] = scale*z[j] + C
		}
		mean, variance, k4 := shuffleMoments(&o.proto, w, s, C)
		if math.Abs(mean-clipped[j]) > 1e-12 {
			t.Errorf("coordinate %d: exact mean %g ≠ clipped mean %g", j, mean, clipped[j])
		}
		x := make([]float64, N)
		for n := range x {
			x[n] = outs[n][j]
		}
		checkMoments(t, "shuffle-clip coordinate", x, mean, variance, k4)
		if math.Sqrt(variance) > sigma {
			t.Errorf("coordinate %d: sd %g above Sigma %g", j, math.Sqrt(variance), sigma)
		}
	}
	p := o.Protocol()
	if p.Users != s || p.Range != 2*C || p.G != 8 || math.Abs(p.Delta-1e-5/12) > 1e-20 || !(p.P < 0.5) {
		t.Errorf("Protocol() = %+v", p)
	}
}

// TestShuffleClipOrder: the protocol's total variance for the sum,
// d·s²·Sigma² (exact from the design up to the rounding bound), is
// O(dC² ln²(d/δ)/ε²) as Lemma "lem: pvec" states: the constant
// c = s²Sigma²ε²/(C² ln²(2d/δ)) stays bounded, here below 2000 for
// ε ≤ 2, as d grows 10⁴-fold past s (with a per-coordinate split ε/√d it
// would grow like d; without g ≥ 2√d, like d/s). At large ε the quadratic
// term of the composition raises the constant (about 2900 at ε = 15).
func TestShuffleClipOrder(t *testing.T) {
	const s, C = 1000, 1.0
	for _, eps := range []float64{0.1, 0.5, 2} {
		t.Run(fmt.Sprintf("eps=%g", eps), func(t *testing.T) {
			lo, hi := math.Inf(1), 0.0
			for _, d := range []int{1, 10, 100, 1000, 10000} {
				o := &ShuffleClip{}
				o.SetRand(newRand(1))
				b := ledger.Cost{Eps: eps, Delta: 1e-6}
				if err := o.Begin(d, s, C, b); err != nil {
					t.Fatal(err)
				}
				sig := o.Sigma()
				c := s * s * sig * sig * eps * eps / (C * C * math.Pow(math.Log(2*float64(d)/b.Delta), 2))
				lo, hi = math.Min(lo, c), math.Max(hi, c)
			}
			t.Logf("ε = %g: variance constant in [%.0f, %.0f] for d = 1..10⁴", eps, lo, hi)
			if hi > 2000 || hi/lo > 3 {
				t.Errorf("ε = %g: variance constant ranges over [%.0f, %.0f], want ≤ 2000 and a spread ≤ 3", eps, lo, hi)
			}
		})
	}
}

// TestShuffleCoordinateOneGroup: with one group the shuffle-coordinate
// estimate is (1/s)P_1D(clipped + τ) − τ per coordinate, with the exact
// moments of the simulation.
func TestShuffleCoordinateOneGroup(t *testing.T) {
	const s, d, N, tau = 50, 4, 4000, 0.5
	batch := studentBatch(newRand(71), s, []float64{0.2, -0.2, 0, 0.4}, 3)
	o := &ShuffleCoordinate{M: 1}
	o.SetRand(newRand(72))
	b := ledger.Cost{Eps: 2, Delta: 1e-5}
	r := newRand(73)
	outs := make([][]float64, N)
	for n := range outs {
		outs[n], _ = run(t, o, batch, tau, b, r)
	}
	for j := range d {
		w := make([]float64, s)
		for i, z := range batch {
			w[i] = math.Max(-tau, math.Min(tau, z[j])) + tau
		}
		mean, variance, k4 := shuffleMoments(&o.proto[1], w, s, tau)
		x := make([]float64, N)
		for n := range x {
			x[n] = outs[n][j]
		}
		checkMoments(t, "shuffle-coordinate M=1", x, mean, variance, k4)
	}
	p := o.Protocol()
	if wantEps := 2 / (4 * math.Sqrt(2*d*math.Log(2*d/1e-5))); p.Users != s || p.Range != 2*tau || math.Abs(p.Eps-wantEps) > 1e-15 {
		t.Errorf("Protocol() = %+v", p)
	}
}

// TestShuffleCoordinateMedianNoise: with the default m groups, the error
// of the estimate against the non-private median of group means (the
// protocol's noise after the median) obeys the proof of Proposition "prop:
// sdp bias var", E|ν̂_j − ν̃_j|² ≤ m Σ_g Var(noise of group g's mean)
// (its Cauchy–Schwarz step), and is close to the asymptotic variance of a
// median: here each group mean's protocol noise (sd ≈ 10³τ) dwarfs the
// spread of the data (≤ 2τ), so ν̃_j is nearly the median of m
// independent, nearly normal noises with sds σ_g, whose variance is about
// 1/(4m f̄(0)²) with f̄(0) = (1/m)Σ_g 1/(σ_g√(2π)) (the median's asymptotic
// variance, 1/(4nf(med)²), for the mixture density f̄). The ratio of the
// measured mean square to that figure must lie in [0.85, 1.2]: 5 s.e. of
// the N·d = 2000 squared errors (√(2/2000) ≈ 3.2% each) plus O(1/m).
func TestShuffleCoordinateMedianNoise(t *testing.T) {
	const s, d, N, tau = 400, 4, 500, 1.0
	batch := studentBatch(newRand(81), s, []float64{0.1, 0, -0.1, 0.3}, 3)
	o := &ShuffleCoordinate{}
	o.SetRand(newRand(82))
	ref, _ := run(t, o, batch, tau, noPrivacy(o), newRand(1))
	b := ledger.Cost{Eps: 1, Delta: 1e-5}
	r := newRand(83)
	var mse float64
	for range N {
		out, call := run(t, o, batch, tau, b, r)
		if call.Sigma <= 0 {
			t.Fatal("no Sigma")
		}
		for j := range out {
			mse += (out[j] - ref[j]) * (out[j] - ref[j]) / (N * d)
		}
	}
	m := o.Groups()
	if m != DefaultGroups(d, s) || m != 102 {
		t.Fatalf("m = %d, want ⌈20 ln 160⌉ = 102", m)
	}
	var sumVar, f0 float64
	for g := range m {
		q := &o.proto[1]
		if g < o.lay.r {
			q = &o.proto[0]
		}
		n := float64(o.lay.size(g))
		v := (q.noiseVar() + q.roundVarMax()) / (n * n)
		sumVar += v
		f0 += 1 / math.Sqrt(2*math.Pi*q.noiseVar()/(n*n))
	}
	if lim := float64(m) * sumVar; mse > lim {
		t.Errorf("mean square %g above the proof's m·Σ_g Var_g = %g", mse, lim)
	}
	f0 /= float64(m)
	pred := 1 / (4 * float64(m) * f0 * f0)
	ratio := mse / pred
	if ratio < 0.85 || ratio > 1.2 {
		t.Errorf("mean square %g = %.3f × the median's asymptotic variance %g", mse, ratio, pred)
	}
	t.Logf("m = %d: mean square %.4g = %.3f × the median's asymptotic variance; proof's bound %.4g", m, mse, ratio, float64(m)*sumVar)
}
