package theory

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// The bounds in their limits (k = 2, k = ∞, infinite moments) and their
// shape in n and ε (monotone, the local rate d log/d log n); the test
// points and helpers are in bounds_test.go.

func TestRemarkK2SpecialCase(t *testing.T) {
	// Discussion after rem: affine optimal: k = 2, β = D = 1, r̃_k = √d gives
	// √(d/n) + d^(3/4)/√(εn) + min{d^(2/3)/(εn)^(4/9), d^(3/4)/√(εn)·(n/d)^(1/16)}.
	for _, n := range []float64{10, 1e3, 1e6, 1e9} {
		for _, d := range []float64{1, 30, 1e4} {
			for _, eps := range []float64{0.2, 1, 5} {
				b := mustEval(t, SmoothConvexACSA, Figure1Params(n, d, eps))
				p := math.Pow(d, 0.75) / math.Sqrt(eps*n)
				want := math.Sqrt(d/n) + p + math.Min(math.Pow(d, 2.0/3)/math.Pow(eps*n, 4.0/9), p*math.Pow(n/d, 1.0/16))
				if e := relErr(b.Value, want); e > 1e-13 {
					t.Errorf("n=%g d=%g ε=%g: %.17g, remark %.17g", n, d, eps, b.Value, want)
				}
			}
		}
	}
}

func TestKInfinityLimits(t *testing.T) {
	// At k = ∞ the exponents are (k−1)/k = 1, (2k−2)/k = 2, 4(k−1)/(5k−1) = 4/5,
	// (k−1)/(4k) = 1/4, (k−1)/(8k) = 1/8, and r̃_k = r̃_2k = L_f.
	for _, n := range []float64{3, 100, 1e5, 1e9} {
		for _, d := range []float64{1, 50, 2e3} {
			for _, eps := range []float64{0.3, 1, 6} {
				L, r2, D, beta, mu := 7.0, 3.0, 2.0, 0.8, 0.1
				// Variant inputs (not identified with L_f at k = ∞).
				r2nc, rnc, r2knc, g2, gk, g2k, emp, emp4, delta := 2.0, 5.0, 6.0, 0.3, 0.4, 0.5, 6.5, 6.8, 1e-7
				p := NewParams()
				p.N, p.Dim, p.Eps, p.K, p.Diam, p.R2, p.Beta, p.Mu, p.Lf, p.KappaF = n, d, eps, math.Inf(1), D, r2, beta, mu, L, 4
				p.R2NC, p.RkNC, p.R2kNC, p.G2, p.Gk, p.G2k, p.R2kEmp, p.R2kEmp4, p.Delta = r2nc, rnc, r2knc, g2, gk, g2k, emp, emp4, delta
				a := math.Sqrt(d) / (eps * n)
				ln := math.Log(n)
				kap := beta / mu
				x := beta * D / L
				et := eps / math.Log(d/delta) // ε̃ of the shuffle bounds
				at := math.Sqrt(d) / (et * n)
				sd := math.Sqrt(d)
				xc := beta * D / (sd * gk)
				loc := math.Sqrt(d*ln) / (eps * n)
				s := math.Sqrt(2*d) / (eps * n) // √d/(√ρ n)
				want := map[string]float64{
					SmoothConvexACSA: r2*D/math.Sqrt(n) + L*D*(a+math.Min(math.Pow(math.Pow(x, 0.25)*a, 0.8),
						math.Pow(x, 0.25)*a*math.Pow(n, 0.125))),
					SmoothSCSGD:              (r2*r2/n + L*L*d*kap*ln/(eps*eps*n*n)) / mu,
					NonsmoothConvexLocalized: L * D * (1/math.Sqrt(n) + math.Sqrt(d*ln)/(eps*n)),
					NonsmoothSCLocalized:     L * L / mu * (1/n + d*ln/(eps*eps*n*n)),
					PPLProxSGD:               (L*L*math.Pow(math.Sqrt(d)*kap*ln/(eps*n), 2) + r2*r2*kap*ln/n) / mu,
					LowerConvex:              D * (r2/math.Sqrt(n) + L*math.Min(1, math.Sqrt(2*d)/(eps*n))),
					LowerSC:                  (r2*r2/n + L*L*math.Min(1, 2*d/(eps*eps*n*n))) / mu,
					PriorKLZ21Convex:         L * D * math.Sqrt(d/n),
					PriorKLZ21SC:             L * L / mu * (64/n + d*64/(eps*eps*n*n)),
					PriorLipschitzConvex:     L * D * (1/math.Sqrt(n) + math.Sqrt(d)/(eps*n)),
					PriorLipschitzSC:         L * L / mu * (1/n + d/(eps*eps*n*n)),
					SmoothConvexACSAOptimal:  r2*D/math.Sqrt(n) + L*D*a,
					SmoothConvexACSAShuffle: r2*D/math.Sqrt(n) + L*D*(at+math.Min(math.Pow(math.Pow(x, 0.25)*at, 0.8),
						math.Pow(x, 0.25)*at*math.Pow(n, 0.125))),
					SmoothSCSGDShuffle: (r2*r2/n + L*L*d*kap*ln/(et*et*n*n)) / mu,
					PPLProxSGDShuffle:  (L*L*math.Pow(math.Sqrt(d)*kap*ln/(et*n), 2) + r2*r2*kap*ln/n) / mu,
					// r̃_k → √d·γ_k^(1/k) (= √d·γ_∞ here, not L_f), r̃₂ → √d·γ₂^(1/2).
					SmoothConvexACSAShuffleCoord: sd*g2*D/math.Sqrt(n) + sd*gk*D*(at+math.Min(math.Pow(math.Pow(xc, 0.25)*at, 0.8),
						math.Pow(xc, 0.25)*at*math.Pow(n, 0.125))),
					SmoothSCSGDShuffleCoord:     (d*g2*g2/n + d*gk*gk*d*kap*ln/(et*et*n*n)) / mu,
					PPLProxSGDShuffleCoord:      (d*gk*gk*math.Pow(math.Sqrt(d)*kap*ln/(et*n), 2) + d*g2*g2*kap*ln/n) / mu,
					NonsmoothConvexLocalizedEmp: emp * D * (1/math.Sqrt(n) + loc),
					NonsmoothSCLocalizedEmp:     emp4 * emp4 / mu * (1/n + loc*loc),
					AsymptoticConvex:            r2knc * D * (1/math.Sqrt(n) + loc),
					AsymptoticSC:                r2knc * r2knc / mu * (1/n + loc*loc),
					AsymptoticConvexCoord:       math.Sqrt(d) * g2k * D * (1/math.Sqrt(n) + loc),
					AsymptoticSCCoord:           d * g2k * g2k / mu * (1/n + loc*loc),
					LowerConvexNC:               D * (r2nc/math.Sqrt(n) + rnc*math.Min(1, s)),
					LowerConvexCoord:            D * (g2*math.Sqrt(d/n) + gk*math.Sqrt(d)*math.Min(1, s)),
					LowerSCNC:                   (r2nc*r2nc/n + rnc*rnc*math.Min(1, s*s)) / mu,
					LowerSCCoord:                (g2*g2*d/n + gk*gk*d*math.Min(1, s*s)) / mu,
				}
				for _, id := range IDs() {
					b := mustEval(t, id, p)
					if e := relErr(b.Value, want[id]); e > 1e-12 {
						t.Errorf("k=∞ %s n=%g d=%g ε=%g: %.17g, limit formula %.17g", id, n, d, eps, b.Value, want[id])
					}
					// Continuity: at k = 10⁹ every exponent is within ~1e−9 of
					// its limit, so the value differs by a relative
					// O(1e−9·|ln(base)|) ≤ 1e−6 for these bases.
					pk := p
					pk.K, pk.Rk, pk.R2k = 1e9, L, L
					bk := mustEval(t, id, pk)
					if e := relErr(bk.Value, b.Value); e > 1e-6 {
						t.Errorf("%s: k=1e9 gives %.12g, k=∞ gives %.12g", id, bk.Value, b.Value)
					}
				}
			}
		}
	}
}

func TestKInfinityRecoversLipschitzRates(t *testing.T) {
	// With k = ∞ and r̃₂ = r̃_k = r̃_2k = L_f the paper's upper bounds become the
	// uniformly Lipschitz rates, up to the log factors of their statements.
	for _, n := range []float64{3, 100, 1e4, 1e7} {
		for _, d := range []float64{1, 20, 500} {
			for _, eps := range []float64{0.5, 1, 3} {
				p := NewParams()
				L := 4.0
				p.N, p.Dim, p.Eps, p.K, p.Diam, p.R2, p.Beta, p.Mu, p.Lf = n, d, eps, math.Inf(1), 3, L, 0, 0.2, L
				ln := math.Log(n)
				// AC-SA with β = 0 (affine): exactly L_f·D(1/√n + √d/(εn)).
				got := mustEval(t, SmoothConvexACSA, p).Value
				want := mustEval(t, PriorLipschitzConvex, p).Value
				if relErr(got, want) > 1e-14 {
					t.Errorf("acsa(β=0, k=∞) = %.17g, Lipschitz rate %.17g", got, want)
				}
				// Ratios of sums lie between the termwise ratios: statistical
				// terms are equal (ratio 1), privacy terms differ by √ln n
				// (convex) or ln n (strongly convex), by (ln n)² for PPL (whose
				// statistical term carries κ ln n = ln n at κ = 1).
				pk := p
				pk.Beta = pk.Mu // κ = 1
				checks := []struct {
					num, den string
					lo, hi   float64
					p        Params
				}{
					{NonsmoothConvexLocalized, PriorLipschitzConvex, math.Min(1, math.Sqrt(ln)), math.Max(1, math.Sqrt(ln)), p},
					{NonsmoothSCLocalized, PriorLipschitzSC, math.Min(1, ln), math.Max(1, ln), p},
					{SmoothSCSGD, PriorLipschitzSC, math.Min(1, ln), math.Max(1, ln), pk},
					{PPLProxSGD, PriorLipschitzSC, math.Min(ln, ln*ln), math.Max(ln, ln*ln), pk},
				}
				for _, c := range checks {
					r, err := Ratio(c.num, c.den, c.p)
					if err != nil {
						t.Fatal(err)
					}
					if r < c.lo*(1-1e-12) || r > c.hi*(1+1e-12) {
						t.Errorf("n=%g d=%g ε=%g: %s/%s = %g, want in [%g, %g]", n, d, eps, c.num, c.den, r, c.lo, c.hi)
					}
				}
				// The paper: at k → ∞, ε ≈ 1, r̃ = √d, β = D = 1 the bound is
				// O(√(d/n) + (d/n)^(4/5)); with constant 1: ≤ √(d/n) + 2(d/n)^(4/5) for d ≤ n.
				if d <= n {
					q := Figure1Params(n, d, 1)
					q.K = math.Inf(1)
					v := mustEval(t, SmoothConvexACSA, q).Value
					if lim := math.Sqrt(d/n) + 2*math.Pow(d/n, 0.8); v > lim*(1+1e-12) {
						t.Errorf("k=∞ acsa at n=%g d=%g: %g > √(d/n)+2(d/n)^(4/5) = %g", n, d, v, lim)
					}
				}
			}
		}
	}
}

func TestKInfinityResolution(t *testing.T) {
	p := pt{n: 1e4, d: 10, eps: 1, diam: 1, r2: 1, beta: 1, mu: 1, kf: 2,
		r2nc: 1, rknc: 2, r2knc: 3, g2: 0.1, gk: 0.2, g2k: 0.3, emp: 4, emp4: 5, delta: 1e-6}.params()
	p.K = math.Inf(1)
	p.Rk, p.R2k, p.Lf = math.NaN(), math.NaN(), 9
	explicit := p
	explicit.Rk, explicit.R2k = 9, 9
	for _, id := range IDs() {
		got := mustEval(t, id, p)
		want := mustEval(t, id, explicit)
		if got.Value != want.Value {
			t.Errorf("%s: from L_f %g, explicit %g", id, got.Value, want.Value)
		}
	}
	// Finite k: r̃_k is not taken from L_f.
	p.K = 4
	if _, err := Evaluate(SmoothConvexACSA, p); err == nil {
		t.Error("k = 4 without r̃_k evaluated; want a MissingError")
	}
}

func TestInfiniteMoments(t *testing.T) {
	p := P2.params()
	p.Rk, p.R2k, p.Lf, p.KappaF = math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)
	p.RkNC, p.R2kNC, p.Gk, p.G2k, p.R2kEmp, p.R2kEmp4 = math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)
	for _, id := range IDs() {
		b := mustEval(t, id, p)
		for _, tm := range b.Terms {
			if math.IsNaN(tm.Value) {
				t.Errorf("%s: term %q is NaN", id, tm.Name)
			}
		}
		if math.IsNaN(b.Value) {
			t.Errorf("%s: value NaN", id)
		}
		if !math.IsInf(b.Value, 1) {
			t.Errorf("%s = %g with r̃_k = r̃_2k = L_f = κ_f = ∞, want +Inf", id, b.Value)
		}
		if !math.IsNaN(b.RateN) {
			t.Errorf("%s: rate %g for an infinite bound, want NaN", id, b.RateN)
		}
		js, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(js), `"value":null`) || !strings.Contains(string(js), `"rate_n":null`) {
			t.Errorf("%s JSON %s: want value and rate_n null", id, js)
		}
	}
	// β = 0 with r̃_k = ∞: the smoothness term is 0 (0·∞ = 0), not NaN.
	p.Beta = 0
	b := mustEval(t, SmoothConvexACSA, p)
	if b.Terms[2].Value != 0 || !math.IsInf(b.Terms[1].Value, 1) || !math.IsInf(b.Value, 1) {
		t.Errorf("β=0, r̃_k=∞: terms %+v", b.Terms)
	}
	// L_f = ∞: the Lipschitz condition fails.
	for _, id := range []string{PriorLipschitzConvex, PriorLipschitzSC} {
		t.Run(id, func(t *testing.T) {
			if b := mustEval(t, id, p); b.ConditionsHold() {
				t.Errorf("%s with L_f = ∞: conditions hold: %+v", id, b.Conditions)
			}
		})
	}
	// Only r̃_k infinite: r̃₂ terms stay finite, the bound is infinite.
	q := P1.params()
	q.Rk = math.Inf(1)
	b = mustEval(t, LowerConvex, q)
	if b.Terms[0].Value != 0.01 || !math.IsInf(b.Value, 1) || !strings.Contains(b.Dominant, "r̃_k") {
		t.Errorf("lower-convex with r̃_k = ∞: %+v", b)
	}
}

func TestMonotoneInNAndEps(t *testing.T) {
	// Every bound is non-increasing in n for n ≥ 3 (each ln n factor appears
	// as (ln n)^q/n^p with p ≥ q, and ln n/n decreases for n > e) and in ε.
	ns := []float64{3, 5, 10, 30, 100, 1e3, 1e4, 1e5, 1e6, 1e8, 1e10}
	epss := []float64{0.01, 0.1, 0.5, 1, 2, 5, 10, 100}
	for _, q := range grid() {
		for _, id := range IDs() {
			prev := math.Inf(1)
			for _, n := range ns {
				q.n = n
				v := mustEval(t, id, q.params()).Value
				if v > prev*(1+1e-14) {
					t.Errorf("%s increases in n at n=%g: %g > %g (%+v)", id, n, v, prev, q)
				}
				prev = v
			}
			q.n = 1e4
			prev = math.Inf(1)
			for _, eps := range epss {
				q.eps = eps
				v := mustEval(t, id, q.params()).Value
				if v > prev*(1+1e-14) {
					t.Errorf("%s increases in ε at ε=%g: %g > %g", id, eps, v, prev)
				}
				prev = v
			}
		}
	}
}

func TestRateNMatchesFiniteDifference(t *testing.T) {
	// Central difference of log(value) in log n with step h = 1e−4: the
	// truncation error is h²/6·|third derivative| ≲ 1e−8·O(1) for these
	// power-and-log terms, and the rounding error ~1e−16/h = 1e−12, so 1e−6
	// is a safe tolerance. (No grid point sits within e^{±h} of a min{·,·}
	// switch; one that did would fail deterministically.)
	const h = 1e-4
	for _, q := range grid() {
		for _, id := range IDs() {
			b := mustEval(t, id, q.params())
			up, dn := q, q
			up.n, dn.n = q.n*math.Exp(h), q.n*math.Exp(-h)
			vu := mustEval(t, id, up.params()).Value
			vd := mustEval(t, id, dn.params()).Value
			num := (math.Log(vu) - math.Log(vd)) / (2 * h)
			if b.Value == 0 { // e.g. proximal-PL with β = 0: no rate
				if !math.IsNaN(b.RateN) {
					t.Errorf("%s: zero bound with rate %g, want NaN", id, b.RateN)
				}
				continue
			}
			if math.IsNaN(b.RateN) || math.Abs(num-b.RateN) > 1e-6 {
				t.Errorf("%s at %+v: analytic rate %.9g, central difference %.9g", id, q, b.RateN, num)
			}
		}
	}
}

func TestRateNExact(t *testing.T) {
	// A pure power: the rate is the exponent.
	if r := mustEval(t, PriorKLZ21Convex, P2.params()).RateN; r != -0.5 {
		t.Errorf("prior-klz21-convex rate %.17g, want −1/2", r)
	}
	// lower-sc at n = 2, d = 100, ε = 1: √d/(√ρ n) = 10/(0.7071·2) = 7.07 > 1, so
	// the min is at 1 (slope 0) and the rate is −1 times the weight of the
	// statistical term r̃₂²/(μn).
	q := P1.params()
	q.N = 2
	b := mustEval(t, LowerSC, q)
	if want := -b.Terms[0].Value / b.Value; math.Abs(b.RateN-want) > 1e-15 {
		t.Errorf("lower-sc rate %.17g, want %.17g", b.RateN, want)
	}
	// At n = 1, ln n = 0: a privacy term carrying (ln n)^(1/2) has infinite slope.
	q.N = 1
	if r := mustEval(t, SmoothSCSGD, q).RateN; !math.IsInf(r, 1) {
		t.Errorf("smooth-sc-sgd rate at n=1: %g, want +Inf", r)
	}
	// Term slope: the k = 2 privacy term of smooth-sc-sgd is ∝ n^(−1)·(ln n)^(1/2),
	// slope −1 + 1/(2 ln n).
	q.N = 1e4
	tm := mustEval(t, SmoothSCSGD, q).Terms[1]
	if want := -1 + 0.5/math.Log(1e4); math.Abs(tm.RateN-want) > 1e-14 {
		t.Errorf("term slope %.17g, want %.17g", tm.RateN, want)
	}
}

// TestLipschitzHypothesisAgainstTheData: prior work's uniformly Lipschitz
// bounds assume L_f < ∞; where the user gives L_f in place of the data's
// own (LfData), the hypothesis is met only if the given value bounds it —
// the formula is evaluated at the given L_f either way.
func TestLipschitzHypothesisAgainstTheData(t *testing.T) {
	for _, c := range []struct {
		name       string
		lf, lfData float64
		holds      bool
	}{
		{"declared finite", 10, math.NaN(), true},
		{"declared infinite", math.Inf(1), math.NaN(), false},
		{"given over infinite data", 1e4, math.Inf(1), false},
		{"given below the data's", 1e4, 2e4, false},
		{"given above the data's", 1e4, 5e3, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := NewParams()
			p.N, p.Dim, p.Eps, p.K, p.Diam, p.Lf, p.LfData = 1e4, 10, 1, 4, 1, c.lf, c.lfData
			p.R2, p.Rk, p.R2k = 1, 1, 1
			b := mustEval(t, PriorLipschitzConvex, p)
			if b.ConditionsHold() != c.holds {
				t.Errorf("conditions %+v: hold %v, want %v", b.Conditions, b.ConditionsHold(), c.holds)
			}
			if want := c.lf * (1/math.Sqrt(1e4) + math.Sqrt(10)/1e4); !math.IsInf(c.lf, 1) && relErr(b.Value, want) > 1e-12 {
				t.Errorf("value %g, want L_f·D·(1/√n + √d/(εn)) = %g at the given L_f", b.Value, want)
			}
		})
	}
}
