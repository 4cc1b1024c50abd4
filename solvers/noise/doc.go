// Package noise draws the Gaussian privacy noise of dpso's mechanisms, in
// one of two ways ([Sampler]):
//
//   - floating point (the zero value): v + σ·Z with Z from math/rand/v2's
//     ziggurat NormFloat64, what seeded runs draw. Its law is not exactly
//     Gaussian and the low-order bits of v + σ·Z depend on v, so a
//     released value can reveal v (Mironov 2012, "On Significance of the
//     Least Significant Bits for Differential Privacy", for Laplace noise;
//     the same holds for floating-point Gaussian samplers).
//   - exact ([Sampler.SetExact], what secure runs draw): the release is the
//     point of a lattice γℤ nearest to v + σ̃·Z, computed without error.
//
// An exact draw releases
//
//	round_γ(v + σ̃·Z),  Z ~ N(0, 1) exactly,  σ̃ = S·γ ≥ σ,
//
// where γ = 2^e is a power of two with S = ⌈σ/γ⌉ ∈ [2²⁰, 2²¹] ([Grid]): σ̃
// exceeds σ by less than one part in 2²⁰ and the rounding moves a value by
// at most γ/2 ≤ σ·2⁻²⁰. Z is sampled by Karney's algorithm ("Sampling
// exactly from the normal distribution", ACM TOMS 42(1), 2016, Algorithm
// N): an integer part k ≥ 0 with probability ∝ e^{−k²/2} and a fraction x
// uniform on [0, 1) accepted with probability e^{−x(x+2k)/2}, every
// probability realized by von Neumann's comparisons of uniform deviates
// drawn digit by digit (16-bit digits of the stream, generated only as far
// as a comparison needs), so that Z is an exact N(0, 1) variate known to as
// many bits as asked. The rounding reads Z's bits until the lattice point
// is decided, in 128-bit integer arithmetic (math/big past 64 bits of the
// fraction, with probability about S/2⁶⁴).
//
// Why the exact release is covered by the Gaussian mechanism's privacy
// statements, whatever they are (ρ-zCDP, the exact (ε', δ) curve of μ-GDP,
// the Poisson-subsampled accountants): v + σ̃Z is the Gaussian mechanism
// at σ̃, which is the mechanism at σ followed by independent N(0, σ̃² − σ²)
// noise, and rounding to γℤ is a fixed function of its output; both are
// post-processing, which no privacy loss can grow through (the data
// processing inequality, for every Rényi divergence and every
// hockey-stick divergence). So the accounting is the continuous
// mechanism's at σ, unchanged: the rounding adds no sensitivity and no
// correction term. The release is an exact lattice point (a multiple of γ,
// exactly representable while |v| < 2⁵²γ; beyond that, the correctly
// rounded float64 of one, again a fixed function of the exact sample).
//
// What exactness does not cover: v itself is computed in floating point,
// and its sensitivity as computed can exceed the real-arithmetic bound by
// rounding errors of the sum that forms it (Casacuberta, Shoemate, Vadhan &
// Wagaman 2022); the accounting uses the real-arithmetic bound.
package noise
