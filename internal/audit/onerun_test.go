package audit

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/combin"

	"dpso/solvers/oracle"
)

// binomPMF is C(r, j) q^j (1 − q)^{r−j}, computed directly for small r.
func binomPMF(r, j int, q float64) float64 {
	return float64(combin.Binomial(r, j)) * math.Pow(q, float64(j)) * math.Pow(1-q, float64(r-j))
}

// TestOneRunPValue checks the bound of Steinke, Nasr & Jagielski against a
// direct evaluation for small r: β = Σ_{j ≥ v} pmf(j) and
// α = max_i Σ_{j=v−i}^{v−1} pmf(j)/i, p = min(1, β + 2mδα); and at δ = 0,
// v = r: p = q^r (every guess right).
func TestOneRunPValue(t *testing.T) {
	for _, tc := range []struct {
		m, r, v    int
		eps, delta float64
	}{
		{100, 5, 4, 1, 1e-3},
		{100, 7, 7, 0.5, 1e-4},
		{50, 10, 3, 2, 1e-2},
		{20, 6, 6, 0, 0},
	} {
		t.Run(fmt.Sprintf("m=%d r=%d v=%d eps=%g delta=%g", tc.m, tc.r, tc.v, tc.eps, tc.delta), func(t *testing.T) {
			q := 1 / (1 + math.Exp(-tc.eps))
			var beta float64
			for j := tc.v; j <= tc.r; j++ {
				beta += binomPMF(tc.r, j, q)
			}
			var alpha float64
			for i := 1; i <= tc.v; i++ {
				var s float64
				for j := tc.v - i; j < tc.v; j++ {
					s += binomPMF(tc.r, j, q)
				}
				alpha = math.Max(alpha, s/float64(i))
			}
			want := math.Min(1, beta+2*float64(tc.m)*tc.delta*alpha)
			if got := oneRunPValue(tc.m, tc.r, tc.v, tc.eps, tc.delta); math.Abs(got-want) > 1e-12 {
				t.Errorf("%+v: p = %.15g, want %.15g", tc, got, want)
			}
		})
	}
	if got, want := oneRunPValue(10, 8, 8, 1, 0), math.Pow(1/(1+math.Exp(-1)), 8); math.Abs(got-want) > 1e-14 {
		t.Errorf("all 8 right at ε = 1, δ = 0: p = %g, want q⁸ = %g", got, want)
	}
}

// TestOneRunEps: the returned ε is refuted at the level and a slightly
// larger one is not (the bisection's tolerance is 1e−9).
func TestOneRunEps(t *testing.T) {
	for _, tc := range []struct{ m, r, v int }{{1000, 100, 92}, {1000, 1000, 698}, {10000, 3333, 3330}} {
		t.Run(fmt.Sprintf("m=%d r=%d v=%d", tc.m, tc.r, tc.v), func(t *testing.T) {
			e := oneRunEps(tc.m, tc.r, tc.v, 1e-6, 0.01)
			if !(e > 0) || oneRunPValue(tc.m, tc.r, tc.v, e, 1e-6) > 0.01 || oneRunPValue(tc.m, tc.r, tc.v, e+1e-8, 1e-6) <= 0.01 {
				t.Errorf("%+v: ε = %g is not the boundary", tc, e)
			}
		})
	}
	if e := oneRunEps(1000, 100, 50, 1e-6, 0.01); e != 0 {
		t.Errorf("a coin-flip accuracy refutes ε = %g", e)
	}
}

// TestOneRun: one call of clip-gaussian with m = 1000 canaries does not
// refute its claim (read as (EpsExact(ε, δ), δ)-DP) at several ε, nor
// does shuffle-clip; a negative control at F = 10 (μ = 10: all 1000 sign
// guesses right with probability ≈ 1 − 1000·Φ(−5) ≈ 0.9997, which refutes
// ε' = 5.37 > EpsExact(1, 10⁻⁶) = 4.89) is caught. The one-run bound is
// weak: at ε = 1 it reaches μ ≥ 0.37 only.
func TestOneRun(t *testing.T) {
	for _, tc := range []struct {
		oracle string
		eps, f float64
		viol   bool
	}{
		{"clip-gaussian", 0.5, 1, false},
		{"clip-gaussian", 1, 1, false},
		{"clip-gaussian", 3, 1, false},
		{"shuffle-clip", 1, 1, false},
		{"shuffle-clip", 4, 1, false},
		{"clip-gaussian", 1, 10, true},
	} {
		t.Run(fmt.Sprintf("%s eps=%g f=%g", tc.oracle, tc.eps, tc.f), func(t *testing.T) {
			r, err := OneRun(OneRunConfig{Oracle: tc.oracle, Eps: tc.eps, NegativeControl: tc.f, Seed: 31})
			if err != nil {
				t.Fatal(err)
			}
			if r.Violation != tc.viol {
				t.Errorf("%s ε=%g F=%g: violation %v (EpsLower %.4g, claim %.4g)", tc.oracle, tc.eps, tc.f, r.Violation, r.EpsLower, r.EpsClaim)
			}
			if r.Kind == oracle.ZCDP && r.MuLower > tc.eps*tc.f {
				t.Errorf("%s ε=%g F=%g: MuLower %.4g above the true μ", tc.oracle, tc.eps, tc.f, r.MuLower)
			}
		})
	}
	if _, err := OneRun(OneRunConfig{Oracle: "coordinate", Eps: 1}); err == nil {
		t.Error("coordinate: no error")
	}
}
