// Package accountant is dpso's privacy accountant for the mechanism that
// DP-SGD runs: T steps of the Poisson-subsampled Gaussian mechanism (each
// sample enters a step's batch independently with probability q; the sum of
// the batch's clipped vectors, sensitivity 1 after scaling, gets N(0, σ²)
// noise per coordinate; σ is the noise multiplier), under either of two
// neighbouring relations ([Adjacency]):
//
//   - ReplaceOne (the zero value): datasets of the same size at Hamming
//     distance 1, the relation of Lowy & Razaviyayn's DP and of every
//     other solver in dpso. One record's clipped vector g becomes g', so a
//     step that samples its slot (probability q) moves the sum by g − g',
//     up to 2 (in units of the clip threshold), and a step that does not
//     moves nothing: the pair (1−q)N(0, σ²) + qN(−1, σ²) against
//     (1−q)N(0, σ²) + qN(1, σ²), symmetric, the pair dp_accounting's PLD
//     code takes for AdjacencyType.REPLACE with sampling_prob q and
//     Koskela, Jälkö & Honkela (AISTATS 2020, Section 5.2) for the
//     substitution relation. Note that it is not add/remove at sensitivity
//     2: the unsampled component sits between the two sampled ones.
//   - AddRemove: one dataset is the other plus one record, as in Opacus,
//     TF Privacy and dp_accounting's ADD_OR_REMOVE_ONE: the pairs
//     (1−q)N(0, σ²) + qN(±1, σ²) against N(0, σ²), in both directions.
//
// Two accountants, both upper bounds on the true (ε', δ):
//
//   - RDP (Mironov 2017; Mironov, Talwar & Zhang 2019): the Rényi divergence
//     of order α of one step, ln A_α/(α − 1), by the log-space series of
//     MTZ19 Section 3.3 as dp_accounting computes it (exact at integer
//     orders; at fractional orders the series' absolute values plus a proved
//     bound on the omitted tail, see [LogA]) under add/remove, and under
//     replace-one the Rényi divergence of the replace pair by a trapezoid
//     rule with proved error terms ([LogAReplace]; dp_accounting has no RDP
//     rule for Poisson sampling under replace-one); composition multiplies T; the
//     conversion to (ε', δ) is the improved one of Canonne, Kamath & Steinke
//     2020 / Asoodeh et al. 2020 over an order grid ([EpsFromRDP]).
//   - PLD (privacy loss distributions; Koskela et al. 2020, Gopi et al.
//     2021, Doroshenko et al. 2022): the privacy loss of one step (under
//     add/remove for both directions, remove and add; under replace-one of
//     its symmetric pair), discretised pessimistically by
//     connect-the-dots on a grid of width h, composed T times by FFT with
//     the truncated tails moved to +∞, read off as ε'(δ) or δ(ε'). An
//     optimistic discretisation (losses rounded down) computed the same way
//     gives a lower bound, so the true ε' lies in [lower, upper] and the
//     reported discretisation error is upper − lower ([PLDBounds]).
//
// Private hyperparameter search is accounted by [RepeatAndSelectRDP]:
// Papernot & Steinke's bounds (ICLR 2022, Theorems 2 and 6) on the Rényi DP
// of running a mechanism K times, K random ([Repetitions]: truncated
// negative binomial or Poisson), and releasing the best run. They hold
// under whatever adjacency the base mechanism's RDP curve is stated in
// (dpso's: replace-one). [LargestRho] calibrates the candidates' zCDP ρ to
// a target (ε', δ) of the whole search; [CalibrateSearch] calibrates the
// noise of candidates that run different mechanisms (dp-sgd's grid points,
// each T Poisson-subsampled Gaussian steps at its own rate, and a Gaussian
// score), each accounted by its own Rényi curve ([SearchEpsilon]: the
// candidates' curve is the mechanisms' pointwise maximum). The same
// search is accounted through privacy profiles by [SelectionEpsilon]
// (after Koskela, Redberg & Wang, ICML 2024): the selection's δ(ε) from
// the candidates' profiles, read off their PLDs, which at dpso's settings
// allows noise multipliers about a sixth smaller; [CalibrateSelection]
// scales the noise to it.
//
// [CalibrateContext] inverts either accountant: the smallest noise
// multiplier whose accounted ε' meets a target (PLD: to within about
// [PredictMargin]), never one that misses it.
//
// The package imports nothing of dpso's: the target it calibrates to (the
// exact ε' of a zCDP budget, the full-batch Gaussian curve) is theory's
// EpsExact, which the caller passes in, so the curve is written once. Its numbers are checked against
// the published test values of dp_accounting, Opacus and TF Privacy under
// add/remove (see the tests, which cite file and test name beside each
// value), and under replace-one against values computed independently by
// testdata/replace_one_golden.py.
package accountant
