// Package audit checks dpso's privacy claims black-box: it runs a
// mechanism many times on two neighbouring inputs, projects every output on
// the direction in which the inputs pull it apart, and bounds from those
// numbers alone how well any threshold test can tell the inputs apart.
//
// # What is audited
//
// [Oracle] audits one mean oracle (oracle.New by name) on worst-case
// neighbouring batches ([NewNeighbours]): one row flips between −C·e₁ and
// +C·e₁ (ℓ2-clipping oracles), or between −τ·1 and +τ·1 with the other
// groups placed so that the median of group means moves by its full range
// (coordinate-wise oracles). The noiseless outputs then differ by exactly
// the sensitivity the noise is calibrated to, so a Gaussian oracle is
// exactly μ = ε GDP on them (ρ = ε²/2 zCDP; Bun & Steinke 2016), and the
// audit is tight. For even m the median of group means moves by at most
// half a group's change; the Gaussian coordinate oracle is calibrated to
// that (Δ = τ√d/q), the shuffle one adds its noise per group before the
// median (the result says so).
//
// [Run] audits a complete run of a solver (solvers.Lookup by name) on n
// zero rows with one canary row far outside W, black-box on the run's
// output w (projected on the canary's direction).
//
// # Statistics (confidence 95% overall)
//
// A pilot sample (max(2000, N/10) runs per input; 1000 for whole runs)
// chooses up to 17 thresholds (quantiles of the pooled pilot outputs) and
// the histogram's range; the main sample (N runs per input) counts, for
// each threshold t, FP = #{D0 outputs > t} and FN = #{D1 outputs ≤ t}.
// Each rate gets one-sided Clopper–Pearson bounds, upper and lower, at
// level 0.05/(4K) for K thresholds, so all hold together with probability
// ≥ 95% (union bound; the thresholds come from the independent pilot).
//
//   - μ_lower = max_t Φ⁻¹(1 − FPR_u) − Φ⁻¹(FNR_u): a lower bound on the
//     GDP μ of any mechanism, whatever its output distribution (Dong, Roth
//     & Su 2019). A zCDP claim ε is violated when μ_lower > ε.
//   - μ_upper = min_t Φ⁻¹(1 − FPR_l) − Φ⁻¹(FNR_l): an upper bound when the
//     outputs are a Gaussian shift (then every threshold implies μ).
//   - μ̂ = (ȳ − x̄)/s_p with s_p the pooled standard deviation, and its
//     standard error √(2/N + μ̂²/(4(N−1))) (delta method): the point
//     estimate, and for shuffle oracles the Gaussian-equivalent ε of their
//     observed noise.
//   - ε_lower (shuffle oracles, at the claimed δ) = max_t max{ln((1 − δ −
//     FNR_u)/FPR_u), ln((1 − δ − FPR_u)/FNR_u)} (the hypothesis-testing
//     characterization of (ε, δ)-DP, Kairouz, Oh & Viswanath 2015): a
//     claim (ε, δ) is violated when ε_lower > ε. We chose threshold tests
//     over a histogram estimate of the hockey-stick divergence because
//     their confidence bound is exact (Clopper–Pearson) with no binning or
//     smoothing error to bound.
//
// Randomness is solvers.NewRand per fixed chunk of runs (seeded:
// reproducible bit for bit for any number of workers; secure: keyed from
// crypto/rand). Gaussian quantiles and Beta quantiles are gonum's
// (distuv.UnitNormal, distuv.Beta).
//
// # Negative control
//
// NegativeControl = F runs the mechanism at budget F·ε while the claim
// stays ε. For the Gaussian oracles σ ∝ 1/ε, so this is exactly their
// noise divided by F; the audit must then report a violation. The oracles
// themselves are not changed — no hook exists that a solver could reach —
// only this option misreports the budget.
//
// # What an audit proves
//
// See [Explanation].
package audit

// Explanation says what an audit's result does and does not prove, for
// `dpso audit --help` and the explorer's audit view.
const Explanation = `An audit is a statistical test of a privacy claim, not a proof of it.

It runs the mechanism many times on two neighbouring inputs (one row
changed, chosen so the change moves the output as far as the claim allows)
and measures how well a threshold on the output tells them apart. From the
error rates it computes, with 95% confidence, a LOWER bound on the privacy
loss: μ_lower for zCDP claims (ρ = ε²/2, i.e. μ = ε Gaussian DP), ε_lower at
the claimed δ for the shuffle oracles.

What a result proves:
  - violation (lower bound > claimed ε): with 95% confidence the mechanism,
    as implemented, does not keep its claim. This is a finding.
  - the negative control (--negative-control F runs the mechanism with its
    budget multiplied by F, i.e. its Gaussian noise divided by F): a
    violation there shows the audit has the power to catch that much.

What it does not prove:
  - no violation does NOT prove the claim: only these two inputs, this
    test statistic (a projection and a threshold) and this many trials were
    tried; a stronger attack could find more. The claim rests on the
    proof; the audit can only fail to refute it.
  - mu_hat ≈ ε shows the noise is calibrated for these inputs (no noise is
    wasted), mu_hat ≪ ε shows noise the claim does not need — neither is a
    privacy proof.
  - seeded randomness is reproducible, not secure; floating-point attacks
    on the Gaussian sampler (Mironov 2012) are outside what is tested.
  - a whole-run audit (--solver) observes only the final w; the run's other
    oracle calls add noise, so its bound is usually far below ε.`
