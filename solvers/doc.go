// Package solvers is dpso's private optimization engine: the algorithms of
// Lowy & Razaviyayn, "Private Stochastic Optimization with Large Worst-Case
// Lipschitz Parameter", and the baselines they are compared with.
//
// A solver consumes a [Problem] (the loss, the domain W = B(0, D/2) and the
// declared constants of Assumption 1) and a [Samples] (one trial's dataset,
// streamed for one-pass algorithms, materialized for multi-pass ones, whose
// copies share the process-wide [MaxMaterializedAtOnce]). It
// estimates gradients through a private mean oracle from package
// [dpso/solvers/oracle] and records every oracle call in a privacy ledger from
// package [dpso/solvers/ledger]; a run ends by checking that the maximum
// per-sample privacy spent does not exceed the requested budget.
//
// Privacy is ρ-zCDP with ρ = ε²/2 for the Gaussian oracles, and (ε, δ)-shuffle
// DP for the shuffle oracles. The DP-SGD baseline ("dp-sgd") is (ε', δ)-DP by
// a privacy accountant (package [dpso/solvers/accountant]), calibrated to the
// exact (ε', δ) of the same ρ. Parameters the theorems prescribe (iterations
// T, clip threshold C, step sizes, noise σ) are computed from the problem's
// declared constants, never from the private sample; every one of them can be
// overridden, and the result then says that the prescription is not in force.
// The one-pass prescriptions read r̃_k (Assumption "ass:tilde"), or under
// Config.Assumption r_k (Constants.Noncentral) or the bound of "lem:
// comparing assumptions" from γ_k (Constants.Coord); with a shuffle oracle
// they are the zCDP formulas at ε̃ = ε/ln(d/δ) (Lemma "lem: pvec"). An
// affine loss (Constants.Affine, β = 0) gets acsa's T = 1.
//
// Every solver starts at w₀ = 0, the centre of W, so that F(w₀) − F* (the
// excess risk of doing nothing) is the reference every run is compared
// with. A Result counts the per-sample gradients clipping changed
// (Result.Clipped of Result.Fed); Config.NoNoise runs the same schedule
// with the noise switched off, which removes the noise's share of the error
// (clipping, sampling and optimization remain).
//
// Randomness is either seeded (reproducible bit for bit from (seed, trial),
// whatever the number of goroutines) or secure (seeded from crypto/rand); see
// [NewRand].
//
// A run may use Config.Workers goroutines: an oracle call cuts its batch at
// the data's fixed chunks ([Chunked], [ChunkLenFor]), accumulates each chunk
// in its own oracle part and merges the parts in chunk order, so the output
// is the same bits for any number of workers. [ParallelSum] is the same
// pattern for any other full-batch sum. A [LinearLoss] problem is fed to the
// oracle a block of samples at a time, without forming its gradients.
//
// Every fact about one solver that the rest of dpso reads (its class, legend
// name, certificate, settings, default oracle, data access) is in its
// [Descriptor], in the registry of all.go.
//
// This package imports, of dpso's, only its own sub-packages and package
// theory (the number formatter of its messages, the ε → ρ conversions, the
// loss classes), and contains no user-interface types.
package solvers
