package audit

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"

	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// One-run audit (Steinke, Nasr & Jagielski 2023, "Privacy Auditing with
// One (1) Training Run", NeurIPS): m canaries, each with an independent
// uniform sign S_i ∈ {−1, +1}, go into ONE run of the mechanism; an
// auditor that sees only the output guesses r of the signs and gets v
// right. If the mechanism is (ε, δ)-DP with respect to changing any one
// canary, then (their Theorem 3 with δ > 0, as their published code and
// google-deepmind/jax_privacy's auditing.py compute it)
//
//	P[v or more correct] ≤ β + 2mδ·α,  q = e^ε/(1 + e^ε),
//	β = P[Binomial(r, q) ≥ v],
//	α = max_{i=1..v} P[v − i ≤ Binomial(r, q) < v] / i,
//
// so a run whose p-value at ε is ≤ the significance level refutes
// (ε, δ)-DP. The bound needs no repetition of the mechanism, at the price
// of a much weaker result: it can only refute claims well above what it
// observes, and the Gaussian mechanism's (ε', δ) curve is far from the
// pure-DP randomized response the binomial describes (Mahloujifar et al.
// 2024 tighten this with f-DP; not implemented here).

// Defaults and limits of a one-run audit.
const (
	DefaultCanaries = 1000
	MinCanaries     = 10
)

// OneRunConfig is a one-run audit of an ℓ2-clipping oracle.
type OneRunConfig struct {
	Oracle string  // "clip-gaussian" (default) or "shuffle-clip"
	Eps    float64 // the claimed ε (zCDP ε, or the shuffle oracle's (ε, δ) ε)
	// Delta is the shuffle oracle's claimed δ, and for a zCDP claim the δ
	// at which it is read as (ε', δ)-DP (ε' = theory.EpsExact(ε, δ), the
	// exact curve of a μ = ε Gaussian mechanism). Default
	// spec.DefaultDelta; the bound's 2mδ term needs δ ≪ 1/m.
	Delta           float64
	M               int     // canaries = dimension = batch size, [MinCanaries, MaxD]; default DefaultCanaries
	NegativeControl float64 // F: run at budget F·ε, claim ε (0 or 1: off)
	Seed            uint64
	Rand            solvers.RandMode
}

// OneRunGuess is one guessing rule: sign guesses for the K canaries with
// the largest |output|, of which Correct were right, and the ε lower bound
// it gives (at the Bonferroni-corrected level).
type OneRunGuess struct {
	K, Correct int
	EpsLower   float64
}

// OneRunResult is a one-run audit's outcome.
type OneRunResult struct {
	Oracle          string
	Kind            oracle.Kind
	Eps, Delta      float64
	M               int
	NegativeControl float64
	Rand            solvers.RandMode
	Seed            uint64
	// EpsClaim is the claim as (ε', δ)-DP at Delta: EpsExact(ε, δ) for a
	// zCDP claim, ε itself for a shuffle claim.
	EpsClaim float64
	Guesses  []OneRunGuess
	// EpsLower is the 95% lower bound on ε' at δ: the largest over the
	// guessing rules, each tested at level 0.05/len(Guesses) (Bonferroni).
	EpsLower float64
	// MuLower is, for a zCDP claim, the GDP μ whose exact curve reaches
	// EpsLower at δ (theory.EpsForTarget): a 95% lower bound on μ; NaN for
	// shuffle claims.
	MuLower   float64
	Violation bool // EpsLower > EpsClaim
	Notes     []string
}

// oneRunPValue is the p-value of v correct guesses out of r with m
// canaries under the null hypothesis "(ε, δ)-DP" (see the package's
// one-run section). P[Binomial(r, q) ≥ v] = I_q(v, r − v + 1), the
// regularized incomplete beta function (exact in the tail, unlike
// 1 − CDF).
func oneRunPValue(m, r, v int, eps, delta float64) float64 {
	if v <= 0 {
		return 1
	}
	q := 1 / (1 + math.Exp(-eps))
	beta := mathext.RegIncBeta(float64(v), float64(r-v+1), q)
	if delta == 0 {
		return beta
	}
	b := distuv.Binomial{N: float64(r), P: q}
	var sum, alpha float64
	for i := 1; i <= v; i++ {
		sum += b.Prob(float64(v - i))
		alpha = math.Max(alpha, sum/float64(i))
		// A later i' sums at most the whole law, 1: its sum/i' ≤ 1/(i+1)
		// is below alpha from here on, and alpha is final.
		if float64(i+1)*alpha > 1+1e-9 {
			break
		}
	}
	return math.Min(1, beta+2*float64(m)*delta*alpha)
}

// oneRunEps is the largest ε found (by bisection, to 1e−9) whose p-value
// is at most level: the run refutes (ε, δ)-DP at that level, and with it
// every smaller ε (an (ε”, δ)-DP mechanism with ε” < ε is (ε, δ)-DP).
// 0 when even ε = 0 is not refuted.
func oneRunEps(m, r, v int, delta, level float64) float64 {
	if oneRunPValue(m, r, v, 0, delta) > level {
		return 0
	}
	lo, hi := 0.0, 1.0
	for oneRunPValue(m, r, v, hi, delta) <= level {
		lo, hi = hi, 2*hi
		if hi > 1e3 {
			return lo
		}
	}
	for hi-lo > 1e-9 {
		mid := (lo + hi) / 2
		if oneRunPValue(m, r, v, mid, delta) <= level {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// OneRun audits an ℓ2-clipping oracle in one call: s = d = m rows, row i
// the canary S_i·C·e_i with independent uniform signs, so that changing
// one canary moves the clipped mean by the full sensitivity 2C/m in its
// own coordinate. The auditor guesses sign(output_i) for the K canaries
// with the largest |output_i|, for K in {m, m/3, m/10, m/30, m/100} (those
// ≥ 1). Signs are drawn from solvers.NewRand(Rand, Seed, 0,
// "audit/onerun/signs"), the oracle's randomness from
// "audit/onerun/noise".
func OneRun(cfg OneRunConfig) (*OneRunResult, error) {
	if cfg.Oracle == "" {
		cfg.Oracle = defaultOracle
	}
	if cfg.Oracle != "clip-gaussian" && cfg.Oracle != "shuffle-clip" {
		return nil, specErr("oracle", "%q; the one-run audit needs an ℓ2-clipping oracle (clip-gaussian or shuffle-clip): a coordinate-wise median is not moved by a lone canary in its coordinate", cfg.Oracle)
	}
	o, _ := oracle.New(cfg.Oracle)
	kind := o.Kind()
	if !(cfg.Eps > 0) || math.IsInf(cfg.Eps, 1) {
		return nil, specErr("eps", "ε = %s; want a finite ε > 0", theory.FormatNumber(cfg.Eps))
	}
	if cfg.Delta == 0 {
		cfg.Delta = spec.DefaultDelta
	}
	if !(cfg.Delta > 0 && cfg.Delta < 0.5) {
		return nil, specErr("delta", "δ = %s; want δ in (0, 1/2)", theory.FormatNumber(cfg.Delta))
	}
	if cfg.M == 0 {
		cfg.M = DefaultCanaries
	}
	if cfg.M < MinCanaries || cfg.M > MaxD {
		return nil, specErr("canaries", "m = %s; want m in [%s, %s]", theory.FormatCount(cfg.M), theory.FormatCount(MinCanaries), theory.FormatCount(MaxD))
	}
	var err error
	if cfg.NegativeControl, err = negativeControl(cfg.NegativeControl); err != nil {
		return nil, err
	}
	m := cfg.M
	res := &OneRunResult{Oracle: cfg.Oracle, Kind: kind, Eps: cfg.Eps, Delta: cfg.Delta, M: m, NegativeControl: cfg.NegativeControl, Rand: cfg.Rand, Seed: cfg.Seed, MuLower: math.NaN()}
	if kind == oracle.Shuffle {
		res.EpsClaim = cfg.Eps
	} else {
		res.EpsClaim = theory.EpsExact(cfg.Eps, cfg.Delta)
	}
	b := solvers.Config{Eps: cfg.Eps * cfg.NegativeControl, Delta: cfg.Delta}.Budget(kind)

	signs := solvers.NewRand(cfg.Rand, cfg.Seed, 0, "audit/onerun/signs")
	noise := solvers.NewRand(cfg.Rand, cfg.Seed, 0, "audit/onerun/noise")
	oracle.SetRand(o, noise)
	oracle.SetExactNoise(o, cfg.Rand == solvers.Secure)
	if err := o.Begin(m, m, 1, b); err != nil {
		return nil, specErr("eps", "%v", err)
	}
	s := make([]float64, m)
	row := make([]float64, m)
	for i := range m {
		s[i] = 1
		if signs.IntN(2) == 0 {
			s[i] = -1
		}
		clear(row)
		row[i] = s[i]
		o.Add(row)
	}
	out := make([]float64, m)
	o.Finish(out, noise)

	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch x, y := math.Abs(out[a]), math.Abs(out[b]); {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return 0
	})
	var ks []int
	for _, div := range []int{1, 3, 10, 30, 100} {
		if k := m / div; k >= 1 {
			ks = append(ks, k)
		}
	}
	ks = slices.Compact(ks)
	level := Alpha / float64(len(ks))
	res.EpsLower = 0
	for _, k := range ks {
		correct := 0
		for _, i := range order[:k] {
			if (out[i] > 0) == (s[i] > 0) {
				correct++
			}
		}
		e := oneRunEps(m, k, correct, cfg.Delta, level)
		res.Guesses = append(res.Guesses, OneRunGuess{K: k, Correct: correct, EpsLower: e})
		res.EpsLower = math.Max(res.EpsLower, e)
	}
	if kind == oracle.ZCDP {
		res.MuLower = 0
		if res.EpsLower > 0 {
			res.MuLower = theory.EpsForTarget(res.EpsLower, cfg.Delta)
		}
	}
	res.Violation = res.EpsLower > res.EpsClaim
	if res.Violation {
		res.Notes = append(res.Notes, fmt.Sprintf("VIOLATION: one run refutes (%s, %s)-DP with 95%% confidence; the claim allows %s.", theory.Sig4.Format(res.EpsLower), theory.Sig4.Format(cfg.Delta), theory.Sig4.Format(res.EpsClaim)))
	} else {
		res.Notes = append(res.Notes, fmt.Sprintf("No violation: one run shows ε' ≥ %s at δ = %s; the claim allows %s (a one-run bound is weak by design).", theory.Sig4.Format(res.EpsLower), theory.Sig4.Format(cfg.Delta), theory.Sig4.Format(res.EpsClaim)))
	}
	return res, nil
}
