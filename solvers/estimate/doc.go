// Package estimate holds the private estimators dpso uses to read a
// dataset's constants (the moments r̃_k of the per-sample gradients'
// worst-case norms, the smoothness β) and to clip the statistics they
// release, each ρ-zCDP under replace-one adjacency (the paper's), so that
// their costs compose with a run's in its ledger:
//
//   - [Quantile]: AboveThreshold over a geometric grid, scanned upward
//     (Durfee 2023, "Unbounded differentially private quantile and maximum
//     estimation", NeurIPS), with one-sided geometric noise; ρ-zCDP as a
//     √(8ρ)-bounded-range mechanism (below). [QuantileLaw] enumerates its
//     exact output law on given values, [HighFail] and [TopRank] are its
//     data-free failure bounds.
//   - [ClippedMean]: the Gaussian mechanism (Bun & Steinke 2016,
//     Proposition 1.6) on the mean of values clipped to [0, c]: sensitivity
//     c/n, noise σ = c/(n√(2ρ)).
//   - [SecondMoment]: the Gaussian mechanism on the second-moment matrix
//     (1/n)Σ āāᵀ of vectors scaled to ‖ā‖² ≤ c ("Analyze Gauss", Dwork,
//     Talwar, Thakurta & Zhang 2014): the upper triangle's ℓ2 sensitivity
//     is at most ‖aaᵀ − bbᵀ‖_F/n ≤ √2·c/n, noise σ = c/(n√ρ) per entry.
//
// # Why AboveThreshold, not the exponential mechanism
//
// A quantile of losses or gradient norms has no public range: the grid
// must span 2⁻⁴⁰ … 2⁶⁰. The exponential mechanism over such a grid (Smith
// 2011's over the intervals between order statistics, Gillenwater et al.
// 2021's joint version, McSherry & Talwar's over grid points) gives every
// point above the data the same utility, −(1 − q)n; with hundreds of such
// points its mass above the data grows with the grid and, at n = 150 and
// ρ = 0.025, holds most of it (P = 0.72 of releasing above the largest
// loss was measured on daily returns). No utility of sensitivity 1 can
// tell 10⁶ from 10¹² above the data, so any mechanism that weighs the
// points above the data against each other fails with the grid. A scan
// upward from the grid's bottom halts, for certain, soon after the counts
// pass r + ν₀: the points above do not compete. Its failure is the other
// way, halting early where the counts come within a few 1/ε₂ of r, which
// for a clip means clipping more (a bias), not a clip above the data.
//
// # The mechanism and its privacy
//
// Values x_1 … x_n, rank r = ⌈qn⌉, grid points c_0 < c_1 < …, counts
// n_j = #{i: x_i ≤ c_j}. Draw ν₀ once and ν_j for each point, independent
// and geometric on {0, 1, …} with P(ν ≥ m) = e^{−εm}: rate ε₁ for ν₀ and
// ε₂ for the ν_j. Release the first c_k with n_k + ν_k ≥ r + ν₀ (the top
// point if none). With A(m) = P(ν < m), B(m) = P(ν ≥ m) = 1 − A(m) and p₁
// the law of ν₀,
//
//	P(c_k) = Σ_u p₁(u) Π_{j<k} A(r + u − n_j) · B(r + u − n_k).
//
// Replacing one value x by x′ changes the counts by −1 on a contiguous run
// J of points (x′ > x) or by +1 (x′ < x). Take the first case, D′ the
// dataset with the lower counts. Since A is non-decreasing, the product
// under D is at most the one under D′, and B(m) ≤ e^{ε₂}B(m + 1), so
// P_D(c_k) ≤ e^{ε₂}P_D′(c_k) (the factor only for k ∈ J; ≤ 1 at the top).
// Conversely A(r + u − n′_j) ≤ A(r + u + 1 − n_j); substituting w = u + 1
// and using p₁(w − 1) ≤ e^{ε₁}p₁(w) and B(m − 1) ≤ e^{ε₂}B(m) gives
// P_D′(c_k) ≤ e^{ε₁ + ε₂}P_D(c_k) (e^{ε₁} for k ∈ J and at the top). So
// the privacy loss ln P_D/P_D′ lies in [−(ε₁ + ε₂), ε₂] for every output,
// and in [−ε₂, ε₁ + ε₂] in the other case: a range of width β = ε₁ + 2ε₂.
// A β-bounded-range mechanism (Durfee & Rogers 2019) is β²/8-zCDP (Cesar
// & Rogers 2021, "Bounding, Concentrating, and Truncating", Lemma 3.2),
// and ε₁ + ε₂-DP. The geometric laws meet both ratio conditions with
// equality; they need no mass below 0, which is why the noise is
// one-sided: the scan stops for certain once n_j ≥ r + ν₀. At ρ: β =
// √(8ρ), ε₁ = 0.45β, ε₂ = 0.275β (ThresholdShare). TestQuantileBoundedRange
// checks the width on 2000 enumerated neighbouring pairs.
//
// # How it fails, exactly
//
//   - Above, on any data: the release exceeds f·x₍ᵣ₎ only if the scan
//     passed the ≥ ⌊8 log₂ f⌋ grid points of [x₍ᵣ₎, f·x₍ᵣ₎], each with
//     count ≥ r, each passed with probability ≤ A(ν₀):
//     P(release > f·x₍ᵣ₎) ≤ HighFail(ρ, L) = Σ_u p₁(u)·A(u)^L, L = 26 for
//     f = 10: 0.0059 at ρ = 0.025, below 0.0066 at every ρ, for every n,
//     q and dataset (equality where the counts sit at r over the whole
//     factor). Where the counts pass r by m, the factor A(u − m) makes it
//     far smaller: 0.0003 on constant losses at n = 150.
//   - Above the largest value: asked for rank n − m with m = TopRank(ρ,
//     fail), the first grid point at or above the largest value is
//     passed with probability ≤ fail.
//   - Below: P(release < b) = Σ_{c_j < b} P(c_j) ≤ Σ_{c_j < b}
//     P(ν_j ≥ r − n_j + ν₀): it depends on how many grid points lie below
//     b and how close their counts come to r — the data's spread. Points
//     with count 0 each halt with probability about e^{−ε₂r}; at n = 20,
//     ρ = 0.025 (1/ε₂ = 8.1 ranks) the 300-odd points below the data
//     make the release fall below x₍ᵣ₎/10 with probability above 0.99 (its
//     median is 2·10⁻¹²). Values of 0 count below every point.
//
// QuantileLaw computes the law exactly (the sum over ν₀ cut where its tail
// is below 10⁻²⁰); testdata/quantile_golden.py computes it independently
// (scipy.stats.geom) on Student-t losses and norms (ν = 2.5, 3),
// negative-binomial counts with many ties and zeros, and constant losses,
// at n = 20, 150, 1500, q = ½ and 0.9, ρ = 0.025. On all of them
// P(release > 10·x₍ᵣ₎) ≤ 0.0013; at n = 150, q = 0.9 it is 2.7·10⁻⁴ to
// 8.3·10⁻⁴. On constant data (ln 2) at n = 150, q = 0.9 the release is
// the first grid point at or above the value with probability 0.983, one
// of the next two with 0.011, and farther with 0.006; at q = ½ it falls
// below with probability 0.020 (the count-0 points); at n = 1500 it is the
// first point but for 10⁻¹³.
//
// What the estimates are: a clipped mean is biased downward by the mass
// above the clip, and a heavy tail admits no finite-sample upper confidence
// bound on a moment (the mass beyond any sample can carry any moment), so
// none of these is a certified bound. A prescription built on them holds
// the theorem's guarantee only if the true constant is at most the
// estimate.
//
// Randomness is the caller's (dpso's ChaCha8 "noise"-kind streams): the
// Gaussian mechanisms draw through a *noise.Stream, whose noise is exact on
// a lattice under secure randomness (package dpso/solvers/noise: a
// post-processing of the Gaussian mechanism, its ρ unchanged) and the
// floating-point ziggurat when seeded. Quantile's geometric noises are
// drawn by inversion in floating point in either mode: its output is a
// grid point, but the law it samples is QuantileLaw's only up to
// floating-point rounding; it is not an exact sampler.
package estimate
