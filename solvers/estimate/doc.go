// Package estimate holds the private estimators dpso uses to read a
// dataset's constants (the moments r̃_k of the per-sample gradients'
// worst-case norms, the smoothness β) and to score tuning candidates,
// each ρ-zCDP under replace-one adjacency (the paper's), so that their
// costs compose with a run's in its ledger:
//
//   - [Quantile]: the exponential mechanism (McSherry & Talwar 2007) over a
//     geometric grid ([Grid]) with utility −|#{x_i ≤ c} − q·n| (sensitivity
//     1), at ε = √(8ρ): an ε-bounded-range mechanism (Durfee & Rogers 2019),
//     hence ε²/8-zCDP (Cesar & Rogers 2021, "Bounding, Concentrating, and
//     Truncating: Unifying Privacy Loss Composition for Data Analytics",
//     Lemma 3.2). The quantile-by-exponential-mechanism approach is Smith's
//     (2011); a grid replaces the data's order statistics so that no data
//     value is released.
//   - [ClippedMean]: the Gaussian mechanism (Bun & Steinke 2016,
//     Proposition 1.6) on the mean of values clipped to [0, c]: sensitivity
//     c/n, noise σ = c/(n√(2ρ)).
//   - [SecondMoment]: the Gaussian mechanism on the second-moment matrix
//     (1/n)Σ āāᵀ of vectors scaled to ‖ā‖² ≤ c ("Analyze Gauss", Dwork,
//     Talwar, Thakurta & Zhang 2014): the upper triangle's ℓ2 sensitivity
//     is at most ‖aaᵀ − bbᵀ‖_F/n ≤ √2·c/n, noise σ = c/(n√ρ) per entry.
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
// floating-point ziggurat when seeded. Quantile's Gumbel-max sampling is
// floating point in either mode: its output is a grid point, but the law
// it samples is the exponential mechanism's only up to floating-point
// rounding; it is not an exact sampler.
package estimate
