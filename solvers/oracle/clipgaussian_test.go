package oracle

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"dpso/solvers/ledger"
	"dpso/solvers/noise"
)

// lineLaw is a scalar law X ≥ 0 used along a fixed unit vector v (z = Xv),
// so that every quantity of Lemma "lem: bias and variance of bd14" is
// known in closed form: ‖z‖ = X, E‖z‖^k = E X^k, Π_C(z) = min(X, C)v.
type lineLaw struct {
	name     string
	draw     func(r *rand.Rand) float64
	mean     float64                 // E X
	moment   func(k float64) float64 // E X^k
	clipMean func(c float64) float64 // E min(X, C)
	clipSq   func(c float64) float64 // E min(X, C)²
}

// twoPoint: X = a with probability p, else 0. Its clipping bias p(a − C)
// is 1/4 of the lemma's bound p a²/C at a = 2C, k = 2 (the largest ratio
// over two-point laws), so the bound is not vacuous.
func twoPoint(a, p float64) lineLaw {
	return lineLaw{
		name: fmt.Sprintf("two-point a=%g p=%g", a, p),
		draw: func(r *rand.Rand) float64 {
			if r.Float64() < p {
				return a
			}
			return 0
		},
		mean:     p * a,
		moment:   func(k float64) float64 { return p * math.Pow(a, k) },
		clipMean: func(c float64) float64 { return p * math.Min(a, c) },
		clipSq:   func(c float64) float64 { return p * math.Min(a, c) * math.Min(a, c) },
	}
}

// lomax: X = U^{−1/α} − 1 (Pareto II, scale 1), heavy-tailed: E X^k < ∞
// iff k < α. P(X > t) = (1+t)^{−α}, so
// E X = 1/(α−1), E X^k = Γ(k+1)Γ(α−k)/Γ(α),
// E min(X, C) = ∫_0^C (1+t)^{−α} dt = (1 − (1+C)^{1−α})/(α−1),
// E min(X, C)² = 2∫_0^C t(1+t)^{−α} dt
// = 2[((1+C)^{2−α} − 1)/(2−α) − ((1+C)^{1−α} − 1)/(1−α)].
func lomax(alpha float64) lineLaw {
	return lineLaw{
		name: fmt.Sprintf("Lomax α=%g", alpha),
		draw: func(r *rand.Rand) float64 { return math.Pow(1-r.Float64(), -1/alpha) - 1 },
		mean: 1 / (alpha - 1),
		moment: func(k float64) float64 {
			if k >= alpha {
				return math.Inf(1)
			}
			return math.Gamma(k+1) * math.Gamma(alpha-k) / math.Gamma(alpha)
		},
		clipMean: func(c float64) float64 { return (1 - math.Pow(1+c, 1-alpha)) / (alpha - 1) },
		clipSq: func(c float64) float64 {
			u := 1 + c
			return 2 * ((math.Pow(u, 2-alpha)-1)/(2-alpha) - (math.Pow(u, 1-alpha)-1)/(1-alpha))
		},
	}
}

// TestClipGaussianBiasVarianceExact checks Lemma "lem: bias and variance
// of bd14" on laws along a line where the bias and the variance are known
// exactly: the measured bias and variance match the exact values within
// 4.5 Monte Carlo standard errors, and the exact values respect the
// lemma's bounds r^{(k)}/((k−1)C^{k−1}) and dσ² + r^{(2)}/s.
//
// Tolerances: the estimate's component along v averages N independent
// calls, each with variance Var(min(X, C))/s + σ², so its standard error
// is √((Var(min(X,C))/s + σ²)/N); the variance estimate averages N
// independent ‖ν̃ − E ν̃‖² (E ν̃ is known), whose standard error is their
// sample standard deviation over √N. 4.5 s.e. leave a two-sided normal
// tail of 7e−6.
func TestClipGaussianBiasVarianceExact(t *testing.T) {
	const (
		d   = 4
		s   = 50
		N   = 4000
		rho = 2.0 // σ = Δ/√(2ρ) = (2C/s)/2 = C/s
	)
	v := []float64{0.5, 0.5, 0.5, 0.5}
	tests := []struct {
		law      lineLaw
		k, c     float64
		minRatio float64 // exact bias / bound at least this
	}{
		{twoPoint(2, 0.3), 2, 1, 0.25},
		{twoPoint(2, 0.3), 3, 1, 0.25}, // p(a−C) / (p a³/(2C²)) = 2C²(a−C)/a³
		{lomax(3), 2, 0.5, 0.11},
		{lomax(3), 2, 1, 0.125},
		{lomax(3), 2, 4, 0.08},
		{lomax(2.5), 2, 1, 0.088},
		{lomax(2.5), 2.2, 1, 0.05},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprintf("%s k=%g C=%g", tc.law.name, tc.k, tc.c), func(t *testing.T) {
			r := newRand(uint64(100 + i))
			o := newOracle(t, "clip-gaussian", 1)
			batch := make([][]float64, s)
			for i := range batch {
				batch[i] = make([]float64, d)
			}
			sigma := tc.c / s
			wantMean := tc.law.clipMean(tc.c) // E ν̃ = E min(X, C) v
			varClip := tc.law.clipSq(tc.c) - wantMean*wantMean
			exactVar := varClip/s + d*sigma*sigma // E‖ν̃ − E ν̃‖²
			var sumAlong float64
			sq := make([]float64, N)
			for n := range N {
				for _, z := range batch {
					x := tc.law.draw(r)
					for j := range z {
						z[j] = x * v[j]
					}
				}
				out, call := run(t, o, batch, tc.c, ledger.Cost{Rho: rho}, r)
				if n == 0 && math.Abs(call.Sigma-sigma) > 1e-15*sigma {
					t.Fatalf("Sigma = %g, want C/s = %g", call.Sigma, sigma)
				}
				var along, dev float64
				for j := range out {
					along += out[j] * v[j]
					e := out[j] - wantMean*v[j]
					dev += e * e
				}
				sumAlong += along
				sq[n] = dev
			}
			bias := tc.law.mean - tc.law.clipMean(tc.c) // exact ‖E ν̃ − ν‖
			bound := tc.law.moment(tc.k) / ((tc.k - 1) * math.Pow(tc.c, tc.k-1))
			measured := tc.law.mean - sumAlong/N
			se := math.Sqrt((varClip/s + sigma*sigma) / N) // along v
			if math.Abs(measured-bias) > 4.5*se {
				t.Errorf("bias along v: measured %.5g, exact %.5g (s.e. %.2g)", measured, bias, se)
			}
			if bias > bound {
				t.Errorf("exact bias %.5g exceeds the lemma's bound %.5g", bias, bound)
			}
			if ratio := bias / bound; ratio < tc.minRatio*(1-1e-9) {
				t.Errorf("bias/bound = %.4f, want ≥ %.4f (the bound should not be vacuous)", ratio, tc.minRatio)
			}
			mv, varSq, _ := meanVar(sq)
			seV := math.Sqrt(varSq / N)
			if math.Abs(mv-exactVar) > 4.5*seV {
				t.Errorf("variance: measured %.5g, exact %.5g (s.e. %.2g)", mv, exactVar, seV)
			}
			if lim := d*sigma*sigma + tc.law.moment(2)/s; exactVar > lim {
				t.Errorf("exact variance %.5g exceeds the lemma's bound %.5g", exactVar, lim)
			}
		})
	}
}

// TestClipGaussianStudentT checks the lemma's two bounds on a genuinely
// d-dimensional heavy-tailed law: z = ν + t₃ noise (iid Student-t
// coordinates, 3 degrees of freedom: finite variance 3, infinite third
// moment). With k = 2 the moment is analytic: r^{(2)} = E‖z‖² = ‖ν‖² + 3d.
// The bias E ν̃ − ν is estimated by the mean of N calls, whose error has
// norm at most about √(tr Cov/N) (a 4.5 s.e. allowance is added to the
// bound); the variance estimate's standard error comes from the sample's
// fourth moment (meanVar).
func TestClipGaussianStudentT(t *testing.T) {
	const (
		s   = 100
		N   = 3000
		rho = 0.5
	)
	nu := []float64{1, -1, 0.5, 2, 0}
	d := len(nu)
	r2 := 6.25 + 3*float64(d) // ‖ν‖² + d·Var(t₃)
	for i, c := range []float64{1, 4, 20} {
		t.Run(fmt.Sprintf("C=%g", c), func(t *testing.T) {
			r := newRand(uint64(200 + i))
			o := newOracle(t, "clip-gaussian", 1)
			outs := make([][]float64, N)
			for n := range N {
				batch := studentBatch(r, s, nu, 3)
				outs[n], _ = run(t, o, batch, c, ledger.Cost{Rho: rho}, r)
			}
			mean := make([]float64, d)
			for _, out := range outs {
				for j := range out {
					mean[j] += out[j] / N
				}
			}
			sq := make([]float64, N)
			for n, out := range outs {
				sq[n] = diffNorm(out, mean) * diffNorm(out, mean)
			}
			v, varSq, _ := meanVar(sq)
			v *= float64(N) / (N - 1) // the mean was estimated
			seV := math.Sqrt(varSq / N)
			sigma := 2 * c / (s * math.Sqrt(2*rho))
			biasBound := r2 / c
			if got := diffNorm(mean, nu); got > biasBound+4.5*math.Sqrt(v/N) {
				t.Errorf("C = %g: ‖mean − ν‖ = %.4g > r²/C = %.4g + 4.5 s.e.", c, got, biasBound)
			}
			if lim := float64(d)*sigma*sigma + r2/s; v > lim+4.5*seV {
				t.Errorf("C = %g: variance %.4g > dσ² + r²/s = %.4g", c, v, lim)
			}
		})
	}
}

// TestSensitivity: replacing one vector of a batch by an adversarial one
// (huge, NaN, ±Inf, or the opposite of a clipped vector) moves the
// pre-noise estimate (the non-private call) by at most the reported
// sensitivity, which is the stated formula; the tight neighbours reach it.
func TestSensitivity(t *testing.T) {
	const s, d, C = 40, 5, 2.0
	nan, inf := math.NaN(), math.Inf(1)
	fill := func(x float64) []float64 {
		z := make([]float64, d)
		for j := range z {
			z[j] = x
		}
		return z
	}
	alt := make([]float64, d)
	for j := range alt {
		alt[j] = 1e300 * float64(1-2*(j%2))
	}
	adversaries := [][]float64{fill(1e300), fill(-1e300), fill(nan), fill(inf), fill(-inf), alt, fill(0), {nan, 1, 1, 1, 1}, {1e6, 0, 0, 0, -1e6}}
	base := studentBatch(newRand(5), s, []float64{3, -3, 0, 1, 0}, 2.5)
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			for _, m := range []int{0, 1, 7} {
				mk := func() Oracle {
					o, _ := newOracleGroups(t, name, 1, m)
					return o
				}
				o := mk()
				if _, ok := o.(interface{ Groups() int }); !ok && m != 0 {
					continue
				}
				thr := o.Threshold(C, d)
				ref, call := run(t, o, base, thr, noPrivacy(o), newRand(1))
				want := 2 * C / s
				if g, ok := o.(interface{ Groups() int }); ok {
					q := s / g.Groups()
					want = 2 * thr * math.Sqrt(d) / float64(q)
					if _, gauss := o.(*Coordinate); gauss && g.Groups()%2 == 0 {
						// An even median moves by half a group's change
						// (Coordinate's doc); the shuffle oracle's noise is
						// per group, before the median, so its Δ is the odd one.
						want /= 2
					}
				}
				if math.Abs(call.Sensitivity-want) > 1e-12*want {
					t.Errorf("%s (M=%d): Sensitivity = %g, want %g", name, m, call.Sensitivity, want)
				}
				for _, k := range []int{0, 17, s - 1} {
					for _, adv := range adversaries {
						nb := append([][]float64(nil), base...)
						nb[k] = adv
						got, _ := run(t, mk(), nb, thr, noPrivacy(o), newRand(1))
						if dn := diffNorm(got, ref); !(dn <= call.Sensitivity*(1+1e-12)) {
							t.Errorf("%s (M=%d): replacing vector %d by %v moves the estimate by %g > %g", name, m, k, adv, dn, call.Sensitivity)
						}
					}
				}
			}
		})
	}

	// Tight neighbours.
	type pair struct {
		name  string
		m, s  int
		a, b  func(i int) []float64 // the two batches
		reach float64
	}
	tight := []pair{
		{"clip-gaussian", 0, 10,
			func(i int) []float64 { return oneHot(d, i == 0, C) },
			func(i int) []float64 { return oneHot(d, i == 0, -C) }, 2 * C / 10},
		{"shuffle-clip", 0, 10,
			func(i int) []float64 { return oneHot(d, i == 0, C) },
			func(i int) []float64 { return oneHot(d, i == 0, -1e9) }, 2 * C / 10},
	}
	tau := C / math.Sqrt(d)
	// s = 10, m = 3: groups {0,3,6,9}, {1,4,7}, {2,5,8} with means −τ,
	// −τ/3, τ; moving vector 1 from −τ to τ moves the middle mean, the
	// median, by 2τ/3 = 2τ/q in every coordinate.
	groupVal := func(flip bool) func(i int) []float64 {
		return func(i int) []float64 {
			switch {
			case i%3 == 0:
				return fill(-tau)
			case i%3 == 2:
				return fill(tau)
			case i == 1 && flip:
				return fill(tau)
			case i == 1:
				return fill(-tau)
			}
			return fill(0)
		}
	}
	for _, name := range []string{"coordinate", "shuffle-coordinate"} {
		tight = append(tight,
			// One group: the mean; vector 0 from +τ·1 to −τ·1 moves every
			// coordinate by 2τ/s.
			pair{name, 1, 10,
				func(i int) []float64 { return ifFill(d, i == 0, tau) },
				func(i int) []float64 { return ifFill(d, i == 0, -tau) },
				2 * tau * math.Sqrt(d) / 10},
			pair{name, 3, 10, groupVal(false), groupVal(true), 2 * tau * math.Sqrt(d) / 3})
	}
	for _, tc := range tight {
		t.Run(fmt.Sprintf("%s m=%d s=%d", tc.name, tc.m, tc.s), func(t *testing.T) {
			mk := func() Oracle {
				o := newOracle(t, tc.name, 1)
				switch c := o.(type) {
				case *Coordinate:
					c.M = tc.m
				case *ShuffleCoordinate:
					c.M = tc.m
				}
				return o
			}
			ba, bb := make([][]float64, tc.s), make([][]float64, tc.s)
			for i := range ba {
				ba[i], bb[i] = tc.a(i), tc.b(i)
			}
			o := mk()
			thr := o.Threshold(C, d)
			ga, call := run(t, o, ba, thr, noPrivacy(o), newRand(1))
			gb, _ := run(t, mk(), bb, thr, noPrivacy(o), newRand(1))
			dn := diffNorm(ga, gb)
			if math.Abs(dn-tc.reach) > 1e-12*tc.reach || math.Abs(call.Sensitivity-tc.reach) > 1e-12*tc.reach {
				t.Errorf("%s (M=%d): tight neighbours move the estimate by %g, sensitivity %g, want both %g", tc.name, tc.m, dn, call.Sensitivity, tc.reach)
			}
		})
	}
}

func oneHot(d int, on bool, x float64) []float64 {
	z := make([]float64, d)
	if on {
		z[0] = x
	}
	return z
}

func ifFill(d int, on bool, x float64) []float64 {
	z := make([]float64, d)
	if on {
		for j := range z {
			z[j] = x
		}
	}
	return z
}

// TestGaussianNoiseSigma: the noise the zCDP oracles add (private output
// minus the pre-noise estimate of the same batch) has standard deviation
// σ = Δ/√(2ρ): the sum of the K squared standardized noises is χ²_K, and
// must fall inside its central 1 − 2e−6 interval. With K = 10⁵ that
// interval is about ±2.2% of K, so a noise standard deviation off by 3%
// (6% in variance) is caught. With exact noise (SetExactNoise) the noise is
// σ̃Z rounded to a lattice of spacing γ ≤ σ̃·2⁻²⁰, standardized by the σ̃
// the call reports: the rounding moves a squared standardized noise by at
// most 2|Z|·2⁻²¹ + 2⁻⁴², far inside the band.
func TestGaussianNoiseSigma(t *testing.T) {
	const s, d, N = 60, 20, 5000
	nu := make([]float64, d)
	for j := range nu {
		nu[j] = float64(j%5) - 2
	}
	batch := studentBatch(newRand(9), s, nu, 3)
	for i, tc := range []struct {
		name  string
		rho   float64
		exact bool
	}{{"clip-gaussian", 0.5, false}, {"clip-gaussian", 0.02, false}, {"coordinate", 0.5, false}, {"coordinate", 3, false},
		{"clip-gaussian", 0.5, true}, {"coordinate", 3, true}} {
		t.Run(fmt.Sprintf("%s ρ=%g exact=%v", tc.name, tc.rho, tc.exact), func(t *testing.T) {
			o := newOracle(t, tc.name, 1)
			SetExactNoise(o, tc.exact)
			thr := o.Threshold(1.5, d)
			pre, _ := run(t, o, batch, thr, noPrivacy(o), newRand(1))
			r := newRand(77 + uint64(i))
			var sum float64
			var sigma float64
			for range N {
				out, call := run(t, o, batch, thr, ledger.Cost{Rho: tc.rho}, r)
				sigma = call.Sigma
				for j := range out {
					e := (out[j] - pre[j]) / sigma
					sum += e * e
				}
			}
			want := 2 * 1.5 / s / math.Sqrt(2*tc.rho)
			if c, ok := o.(*Coordinate); ok {
				want = 2 * thr * math.Sqrt(d) / float64(s/c.Groups()) / math.Sqrt(2*tc.rho)
				if c.Groups()%2 == 0 {
					want /= 2 // Δ = τ√d/q for even m
				}
			}
			if tc.exact {
				want = noise.Tilde(want)
			}
			if math.Abs(sigma-want) > 1e-12*want {
				t.Errorf("%s ρ=%g: Sigma = %g, want %g", tc.name, tc.rho, sigma, want)
			}
			lo, hi := chiSquareBand(N * d)
			if sum < lo || sum > hi {
				t.Errorf("%s ρ=%g: Σ(noise/σ)² = %.1f outside the χ²_%d band [%.1f, %.1f]", tc.name, tc.rho, sum, N*d, lo, hi)
			}
		})
	}
}
