package accountant

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The calibration's probes answer the bisections' questions from a few
// evaluations; the answer must be, bit for bit, the one the bisections give
// when every point they visit is evaluated (plain), over random questions
// (fixed seed) under both adjacencies: RDP at many, PLD at a few small T
// (a plain PLD calibration evaluates each grid ~15 times). PLD's fast path
// is forced to miss (its point 1% below the prediction), so that the
// default grid's bisection runs after it (and after the second chance,
// which misses too), those points in its model.
func TestCalibrationAnswersAsThePlainBisection(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(26, 4))
	run := func(k Kind, adj Adjacency, q float64, T int, target, delta float64, plain bool) (*calibration, float64, error) {
		c := newCalibration(context.Background(), k, adj, q, T, target, delta)
		c.plain, c.margin = plain, -0.01
		s, err := c.solve()
		return c, s, err
	}
	n := map[Kind]int{RDP: 4, PLD: 1}
	for _, k := range []Kind{RDP, PLD} {
		for i := range 2 * n[k] {
			adj := []Adjacency{ReplaceOne, AddRemove}[i%2]
			q := math.Exp(math.Log(1e-3) + r.Float64()*math.Log(200))
			T := int(math.Exp(math.Log(5) + r.Float64()*math.Log(600)))
			if k == PLD {
				T = 10 + r.IntN(30)
			}
			target := 0.5 + 7*r.Float64()
			delta := math.Pow(10, -4-3*r.Float64())
			c, got, err := run(k, adj, q, T, target, delta, false)
			_, want, werr := run(k, adj, q, T, target, delta, true)
			if got != want || (err == nil) != (werr == nil) {
				t.Errorf("%v %v q = %.4g, T = %d, ε' = %.4g, δ = %.3g: σ = %.17g (%v), the plain bisection's %.17g (%v)", k, adj, q, T, target, delta, got, err, want, werr)
			}
			if k == PLD && (len(c.fine.pts) < 2 || c.fine.pts[1].ok) {
				t.Errorf("%v %v q = %.4g, T = %d: the fast path did not miss (%d evaluations)", k, adj, q, T, len(c.fine.pts))
			}
			if k == PLD && len(c.fine.pts) > 8 {
				t.Errorf("%v %v q = %.4g, T = %d: %d evaluations on the default grid, want at most 8", k, adj, q, T, len(c.fine.pts))
			}
		}
	}
}

// PLD's fast path: over settings from dp-sgd's range (T small enough for
// the plain bisection, which evaluates the default grid ~15 times, to be
// the reference), the answer meets the target on the default grid (a
// fresh PLDEpsilon, not the calibration's own evaluation), lies between
// the plain bisection's answer σ* over 1 + CalibrateTol (the smallest σ
// that meets, to the bisection's width) and σ*·(1 + PredictMargin) times
// 1 + CalibrateTol (the prediction's own error, at most 1.1·10⁻⁵ above σ*
// over the 98 settings PredictMargin cites), and costs one evaluation of
// the default grid besides the one at MaxSigma.
func TestCalibrationFastPathIsNearThePlainBisection(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q             float64
		T             int
		target, delta float64
	}{
		{0.064, 16, 0.5, 1e-5},
		{0.0256, 40, 4.3771780956812245, 1e-5},
		{0.256, 20, 10, 1e-5},
		{0.1, 50, 2, 1e-6},
		{1, 5, 3, 1e-5},
		{0.01, 300, 0.3, 1e-9},
	} {
		for _, adj := range []Adjacency{ReplaceOne, AddRemove} {
			t.Run(fmt.Sprintf("%v/q=%g/T=%d/eps=%g/delta=%g", adj, c.q, c.T, c.target, c.delta), func(t *testing.T) {
				fast := newCalibration(context.Background(), PLD, adj, c.q, c.T, c.target, c.delta)
				got, err := fast.solve()
				if err != nil {
					t.Fatal(err)
				}
				plain := newCalibration(context.Background(), PLD, adj, c.q, c.T, c.target, c.delta)
				plain.plain = true
				want, err := plain.solve()
				if err != nil {
					t.Fatal(err)
				}
				e, err := PLDEpsilon(Mechanism{Sigma: got, Q: c.q, Steps: c.T, Adjacency: adj}, c.delta, PLDOptions{})
				if err != nil || e > c.target {
					t.Errorf("σ = %.9g: ε' = %.9g (%v), over the target %.9g", got, e, err, c.target)
				}
				if hi := want * (1 + PredictMargin) * (1 + CalibrateTol); !(got >= want/(1+CalibrateTol) && got <= hi) {
					t.Errorf("σ = %.9g, the plain bisection's %.9g: ratio − 1 = %.3g, want within [%.3g, %.3g]", got, want, got/want-1, 1/(1+CalibrateTol)-1, hi/want-1)
				}
				if n := len(fast.fine.pts); n != 2 {
					t.Errorf("%d evaluations of the default grid, want 2 (σ = MaxSigma and the fast path's)", n)
				}
			})
		}
	}
}

// At dp-sgd's defaults (n = 10⁵: q = 256/10⁵, T = 1954; ε = 1, so
// ε' = 4.37718 at δ = 10⁻⁵) the PLD calibration evaluates the default grid
// once (and once at σ = MaxSigma), and keeps the answer's composed
// distribution for the run's accounting: PLDBounds then reads it, and it
// is the one a fresh composition gives.
func TestCalibrationAtTheDefaultsEvaluatesOnce(t *testing.T) {
	const q, T, target, delta = 256.0 / 100000, 1954, 4.3771780956812245, 1e-5
	c := newCalibration(context.Background(), PLD, ReplaceOne, q, T, target, delta)
	s, err := c.solve()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(c.fine.pts); got != 2 {
		t.Errorf("%d evaluations of the default grid, want 2 (σ = MaxSigma and the fast path's)", got)
	}
	if c.kept == nil || c.kept.s != s {
		t.Fatalf("the answer's composed distribution was not kept (σ = %g)", s)
	}
	fresh, _, err := composedPLDWith(c.mech(s), PLDOptions{}.withDefaults(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range fresh {
		k := c.kept.ps[i]
		if k.lower != p.lower || k.inf != p.inf || len(k.probs) != len(p.probs) {
			t.Fatalf("kept distribution differs from a fresh composition: lower %d/%d, inf %g/%g, %d/%d masses", k.lower, p.lower, k.inf, p.inf, len(k.probs), len(p.probs))
		}
		for j := range p.probs {
			if k.probs[j] != p.probs[j] {
				t.Fatalf("kept mass %d = %g, fresh %g", j, k.probs[j], p.probs[j])
			}
		}
	}
}

// epsForDelta's running-ratio scan is the logarithmic scan's ε' up to
// rounding (10⁻⁹ relative): on composed distributions (dp-sgd's at a small
// T, both adjacencies, and q = 1 at σ = 0.3, losses up to ~50), and on
// hand-made ones whose top masses are near float64's underflow (10⁻³⁰⁰,
// where the scan falls back to logarithms) or at losses past 745 (e^{−ℓ}
// underflows).
func TestEpsForDeltaMatchesTheLogScan(t *testing.T) {
	var ps []*pmf
	for _, m := range []Mechanism{
		{Sigma: 0.9, Q: 0.0256, Steps: 50},
		{Sigma: 2, Q: 0.1, Steps: 50, Adjacency: AddRemove},
		{Sigma: 0.3, Q: 1, Steps: 1},
	} {
		c, _, err := composedPLD(m, PLDOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, c...)
	}
	ps = append(ps,
		&pmf{h: 0.01, lower: -3, probs: []float64{0.4, 0.3, 0.2, 0.1 - 2e-300, 1e-300, 1e-300}},
		&pmf{h: 1, lower: 700, probs: []float64{0.5, 0.3, 0.1, 0.05, 0.05}, inf: 1e-12},
	)
	for _, p := range ps {
		for _, d := range []float64{1e-3, 1e-5, 1e-9, 1e-12, 1e-301} {
			a, b := p.epsForDeltaLog(d), p.epsForDelta(d)
			if !(math.Abs(a-b) <= 1e-9*math.Abs(a)) && a != b {
				t.Errorf("pmf at %d·%g (%d masses) δ = %g: ε' %.17g, the logarithmic scan's %.17g", p.lower, p.h, len(p.probs), d, b, a)
			}
		}
	}
}

// pldComputable says, without composing, what composedPLD's success says:
// mechanisms from easy to past every grid's cap.
func TestPLDComputableAgreesWithComposition(t *testing.T) {
	for _, m := range []Mechanism{
		{Sigma: 2, Q: 0.1, Steps: 50, Adjacency: AddRemove},
		{Sigma: 0.9, Q: 0.0256, Steps: 196},
		{Sigma: 0.002, Q: 1, Steps: 1}, // every grid past the one-step cap
		{Sigma: 1e-9, Q: 0.5, Steps: 10},
	} {
		t.Run(fmt.Sprintf("sigma=%g q=%g steps=%d", m.Sigma, m.Q, m.Steps), func(t *testing.T) {
			_, _, err := composedPLD(m, PLDOptions{})
			if got, want := pldComputable(m, PLDOptions{}), err == nil; got != want {
				t.Errorf("%+v: pldComputable %v, composition %v (%v)", m, got, want, err)
			}
		})
	}
}

// The Chernoff window is valid: on a one-step distribution small enough
// to convolve exactly (direct convolution, T = 6), the mass outside
// [lo, hi] is at most τ/2 on each side, for τ from 10⁻³ to 10⁻¹²; and it
// is no wider than the window of λ = ±1/n, …, ±20/n alone
// (dp_accounting's).
func TestChernoffWindowHoldsItsMass(t *testing.T) {
	p, err := newSGLoss(0.8, 0.2, replace).connectDots(0.05, -50)
	if err != nil {
		t.Fatal(err)
	}
	const T = 6
	conv := []float64{1}
	for range T {
		next := make([]float64, len(conv)+len(p.probs)-1)
		for i, a := range conv {
			for j, b := range p.probs {
				next[i+j] += a * b
			}
		}
		conv = next
	}
	n := len(p.probs)
	for _, tau := range []float64{1e-3, 1e-6, 1e-9, 1e-12} {
		t.Run(fmt.Sprintf("tau=%g", tau), func(t *testing.T) {
			lo, hi := chernoffWindowHint(p.probs, T, tau, nil)
			var below, above float64
			for i, v := range conv {
				if i < lo {
					below += v
				}
				if i > hi {
					above += v
				}
			}
			if below > tau/2 || above > tau/2 {
				t.Errorf("τ = %g: window [%d, %d] leaves %g below and %g above, want ≤ %g", tau, lo, hi, below, above, tau/2)
			}
			// dp_accounting's window: λ = k/n, k = ±1..±20.
			dlo, dhi := 0, (n-1)*T
			for k := -20; k <= 20; k++ {
				if k == 0 {
					continue
				}
				lam := float64(k) / float64(n)
				var s float64
				for i, pr := range p.probs {
					s += pr * math.Exp(lam*float64(i))
				}
				b := (float64(T)*math.Log(s) + math.Log(2/tau)) / lam
				if k > 0 {
					dhi = min(dhi, int(math.Ceil(b)))
				} else {
					dlo = max(dlo, int(math.Floor(b)))
				}
			}
			if lo < dlo || hi > dhi {
				t.Errorf("τ = %g: window [%d, %d] wider than dp_accounting's [%d, %d]", tau, lo, hi, dlo, dhi)
			}
		})
	}
}

// chernoffWindowAll is chernoffWindowHint's bound at every one of its λ (the
// search's reference).
func chernoffWindowAll(probs []float64, T int, tau float64) (lo, hi int) {
	n := len(probs)
	hi = (n - 1) * T
	lt, top := math.Log(2/tau), float64(n-1)
	for j := range chernoffOrders {
		m := math.Exp2(float64(j-4)/2) / top
		var up, down float64
		for i, pr := range probs {
			up += pr * math.Exp(-m*(top-float64(i)))
			down += pr * math.Exp(-m*float64(i))
		}
		if b := (float64(T)*(m*top+math.Log(up)) + lt) / m; !math.IsNaN(b) && !math.IsInf(b, 0) {
			hi = min(hi, int(math.Ceil(b)))
		}
		if b := -(float64(T)*math.Log(down) + lt) / m; !math.IsNaN(b) && !math.IsInf(b, 0) {
			lo = max(lo, int(math.Floor(b)))
		}
	}
	return min(lo, hi), hi
}

// The search over λ finds the window of the least bound over all of
// chernoffWindowHint's λ (the bound is quasiconvex in λ), with or without a
// hint, a good one (the previous σ's) or a bad one (either end of the
// grid), on one-step distributions from dp-sgd's defaults (q = 0.00256,
// T = 1954, both adjacencies, the coarse grid) to a large q and a small T.
// The reference evaluates every λ with its own sums (math.Exp a term),
// whose rounding differs from the search's, so the ends may differ by one
// index where a bound lands within rounding of an integer.
func TestChernoffSearchFindsTheLeast(t *testing.T) {
	for _, c := range []struct {
		sigma, q float64
		T        int
		adj      adjacency
		h        float64
	}{
		{0.56, 0.00256, 1954, replace, 1e-3},
		{0.55, 0.00256, 1954, remove, 1e-3},
		{0.55, 0.00256, 1954, add, 1e-3},
		{0.8, 0.2, 6, replace, 0.05},
		{2, 0.5, 100, remove, 1e-3},
		{1, 0.01, 10000, add, 1e-2},
	} {
		p, err := newSGLoss(c.sigma, c.q, c.adj).connectDots(c.h, -50)
		if err != nil {
			t.Fatal(err)
		}
		wantLo, wantHi := chernoffWindowAll(p.probs, c.T, 1e-15)
		var good [2]int
		chernoffWindowHint(p.probs, c.T, 1e-15, &good)
		for name, hint := range map[string]*[2]int{"none": nil, "previous": &good, "low end": {1, 1}, "high end": {32, 32}} {
			t.Run(fmt.Sprintf("%+v/hint=%s", c, name), func(t *testing.T) {
				lo, hi := chernoffWindowHint(p.probs, c.T, 1e-15, hint)
				if lo < wantLo-1 || lo > wantLo+1 || hi < wantHi-1 || hi > wantHi+1 {
					t.Errorf("window [%d, %d], every λ gives [%d, %d]", lo, hi, wantLo, wantHi)
				}
			})
		}
	}
}
