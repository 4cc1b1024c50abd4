package audit

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/combin"
	"gonum.org/v1/gonum/stat/distuv"

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

// TestOneRunEpsJaxPrivacy holds oneRunEps to jax_privacy's published
// one-run estimates: google-deepmind/jax_privacy, tests/auditing_test.py
// (commit 8967688), test_epsilon_one_run_close (not its fdp variant):
// 10 000 held-in and 10 000 held-out canaries whose scores are the normal
// quantiles at (i + ½)/n, the held-in shifted by 0, 1, 2 and 4;
// significance 0.05, δ = 10⁻⁶; ε = 0, 1.13346, 2.311945 and 4.395568 to
// a relative 10⁻⁵ (the file's own tolerance). Its auditor (jax_privacy/
// auditing.py, epsilon_one_run with the default Bonferroni strategy)
// guesses "held in" above a threshold, for every threshold on the upper
// hull of the (false negative, true negative) counts (_get_tn_fn_counts,
// _pareto_frontier, written again here), at significance 0.05 over the
// number of those thresholds, with m = all 20 000 canaries, and keeps the
// largest ε refuted: the ε of oneRunEps at each threshold's guesses and
// correct guesses.
func TestOneRunEpsJaxPrivacy(t *testing.T) {
	const n, level, delta = 10000, 0.05, 1e-6
	normal := func(shift float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = distuv.UnitNormal.Quantile(float64(i)/n+1/(2.0*n)) + shift
		}
		return s
	}
	for _, c := range []struct{ shift, want float64 }{{0, 0}, {1, 1.13346}, {2, 2.311945}, {4, 4.395568}} {
		t.Run(fmt.Sprintf("shift=%g", c.shift), func(t *testing.T) {
			in, out := normal(c.shift), normal(0)
			thr := append(append([]float64(nil), in...), out...)
			slices.Sort(thr)
			thr = append(slices.Compact(thr), math.Inf(1))
			below := func(s []float64, x float64) int { i, _ := slices.BinarySearch(s, x); return i } // sorted s: #s < x
			fn, tn := make([]int, len(thr)), make([]int, len(thr))
			for i, x := range thr {
				fn[i], tn[i] = below(in, x), below(out, x)
			}
			// _pareto_frontier: drop, pass after pass, every point whose
			// neighbours' segment passes on or above it.
			idx := make([]int, len(thr))
			for i := range idx {
				idx[i] = i
			}
			for len(idx) > 2 {
				keep := []int{idx[0]}
				for k := 1; k < len(idx)-1; k++ {
					a, b, d := idx[k-1], idx[k], idx[k+1]
					dx1, dy1 := fn[b]-fn[a], tn[b]-tn[a]
					dx2, dy2 := fn[d]-fn[b], tn[d]-tn[b]
					if dy1*dx2-dy2*dx1 > 0 {
						keep = append(keep, b)
					}
				}
				keep = append(keep, idx[len(idx)-1])
				if len(keep) == len(idx) {
					break
				}
				idx = keep
			}
			alpha := level / float64(len(idx))
			// As the auditor does, the thresholds in decreasing order of
			// their precision's Clopper–Pearson lower bound, so that the
			// best is found early and the rest ruled out cheaply: one
			// whose precision is at most σ(ε) of the best ε so far, or
			// that does not refute that ε even at δ = 0, refutes no more.
			prec := func(i int) float64 { return 1 - cpUpper(int64(n-tn[i]), int64(2*n-fn[i]-tn[i]), level) }
			slices.SortStableFunc(idx, func(a, b int) int { return -cmp.Compare(prec(a), prec(b)) })
			best := 0.0
			for _, i := range idx {
				tp, fp := n-fn[i], n-tn[i]
				if tp+fp == 0 || float64(tp)/float64(tp+fp) <= 1/(1+math.Exp(-best)) || oneRunPValue(2*n, tp+fp, tp, best, 0) > alpha {
					continue
				}
				best = math.Max(best, oneRunEps(2*n, tp+fp, tp, delta, alpha))
			}
			if math.Abs(best-c.want) > 1e-5*c.want {
				t.Errorf("ε = %.7g over %d thresholds, jax_privacy's %.7g", best, len(idx), c.want)
			}
		})
	}
}

// TestOneRunPValueStopsWhenFinal: oneRunPValue stops its running maximum
// of P[v − i ≤ X < v]/i once no later i can exceed it; its p-value is,
// bit for bit, the one that sums every i ≤ v, from a few guesses to
// 20 000, with v below, at and above r·q.
func TestOneRunPValueStopsWhenFinal(t *testing.T) {
	full := func(m, r, v int, eps, delta float64) float64 {
		q := 1 / (1 + math.Exp(-eps))
		beta := mathext.RegIncBeta(float64(v), float64(r-v+1), q)
		b := distuv.Binomial{N: float64(r), P: q}
		var sum, alpha float64
		for i := 1; i <= v; i++ {
			sum += b.Prob(float64(v - i))
			alpha = math.Max(alpha, sum/float64(i))
		}
		return math.Min(1, beta+2*float64(m)*delta*alpha)
	}
	for _, c := range []struct{ m, r, v int }{{10, 3, 2}, {100, 40, 30}, {1000, 200, 120}, {20000, 20000, 9000}, {20000, 20000, 10400}, {20000, 5000, 4990}} {
		for _, eps := range []float64{0, 0.3, 1, 4} {
			got, want := oneRunPValue(c.m, c.r, c.v, eps, 1e-6), full(c.m, c.r, c.v, eps, 1e-6)
			if got != want {
				t.Errorf("m = %d, r = %d, v = %d, ε = %g: p = %.17g, summing every i %.17g", c.m, c.r, c.v, eps, got, want)
			}
		}
	}
}
