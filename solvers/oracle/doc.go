// Package oracle implements the private mean oracles of Lowy & Razaviyayn
// that every algorithm in dpso calls once per iteration to estimate a mean
// gradient from a batch of per-sample gradients:
//
//   - "clip-gaussian": MeanOracle1 (Barber & Duchi 2014),
//     ν̃ = (1/s)Σ Π_C(z_i) + N(0, σ²I) with σ = 2C/(s√(2ρ)); ρ-zCDP, ℓ2
//     sensitivity 2C/s under replace-one (Algorithm "MeanOracle1", Lemma "bias and variance of bd14").
//   - "coordinate": MeanOracle2 (Kamath et al. 2020/2022), per coordinate the
//     median of m group means of values clipped to [−τ, τ], plus Gaussian
//     noise with σ² = 4τ²m²d/(s²ε²) (Algorithm "KLZ MeanOracle"; groups
//     of unequal size use the smallest, see [Coordinate]).
//   - "shuffle-clip": ShuffleMeanOracle1 through Cheu et al.'s P_vec,
//     (ε, δ)-shuffle DP (Algorithms "sdp clip MeanOracle" and "Pvec").
//   - "shuffle-coordinate": ShuffleMeanOracle2 through P_1D (Algorithms "CSDP
//     MeanOracle" and "P1D").
//
// The shuffle oracles are simulated exactly in distribution: each user's
// randomized rounding is drawn in Add and the shuffled noise bits' count is
// one Binomial draw in Finish; the g + b bit messages are never
// materialized. Their local randomizers need a random stream before Begin
// ([SetRand]; a no-op for the other oracles).
//
// The Gaussian oracles' noise (and NoisySum's) is σ·NormFloat64() by
// default; [SetExactNoise] makes it exact lattice noise (package
// dpso/solvers/noise), what secure runs release.
//
// Oracles are fed one per-sample vector at a time ([Oracle.Add]), so a batch
// never has to be held in memory, and they allocate nothing per sample. A
// per-sample vector that is not finite contributes the zero vector and still
// counts in s, so sensitivity is unchanged and nothing turns into NaN. Every
// call also measures its batch ([BatchStats]): how many vectors were clipped,
// how many were not finite, and the distribution of their norms, so clipping
// bias can be shown rather than asserted.
package oracle
