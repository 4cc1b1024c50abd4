// Package engine runs what a spec.Resolved describes: [Run] (one solver),
// [Compare] (several solvers on the same draws), [Sweep] (a log grid of n,
// ε or d, with log-log slope fits against the theory bounds' own slopes) and
// [Prescribe] (a run's parameters, bounds and constants without running),
// [PlanCompare] (a comparison's planned work, the [Plan] it would report,
// without running) and [FitN] (the largest n whose plan fits a work).
// It builds the problem with the problem library (scenarios.Build), runs
// the solvers of package solvers on each trial's dataset and returns the
// report structs ([Report], [Comparison], [SweepReport], [Prescription])
// that package internal/report turns into JSON, CSV and tables.
//
// Work runs in parallel on an errgroup limited to Spec.Workers goroutines
// (default GOMAXPROCS), one task per (solver, point, trial), the solvers of
// a trial sharing its draw, each with its own streams, results stored by
// index and summed in trial order: the output is the same bit for bit
// whatever the number of workers. Every
// solver of a comparison (and of a sweep point) runs on the same dataset
// value of each trial (common random numbers, also in secure mode). All of
// them stop soon after their context is cancelled (the solvers promise
// 50 ms; Monte Carlo and F* computations check the context every few
// milliseconds) and then return the context's error.
//
// The outside world connects through [Settings], in the style of gonum's
// optimize.Settings: a [Mailbox] that receives [Progress] and never blocks
// the solvers, and a [Gate] that pauses them at their next checkpoint.
//
// Sweeps of n, ε and d fit the log-log slope of each solver's mean excess
// risk by ordinary least squares with a t-interval ([Slope]) and the slope
// of each theory bound over the same grid ([BoundSlope]), withholding a
// bound's analytic local rate where the instance's constants change with n
// and contradict it. Sweeps of the clip threshold and of k trace the
// clipping trade-off instead: every trial also runs with the noise
// switched off (solvers.Config.NoNoise; Report.NoiseOff: clipping,
// sampling and optimization), every point's clipping bias itself is
// computed (Report.ClipBias: scenarios.Instance.ClipBias, F(w_C) − F* of
// the clipped population fixed point), a clip sweep holds the step (and T
// for one-pass solvers) at the prescription's, and the report names the
// prescribed C and the empirical best point.
//
// A sweep is [PrepareSweep] (every point resolved, built and prescribed),
// then [PreparedSweep.Run] of its units ([SweepUnit]: one trial at one
// point, every solver), then [PreparedSweep.Report], which computes every
// summary from all the units' results. The units are independent and
// deterministic in (seed, point, trial), so a sweep can be run in pieces
// in other processes and their results handed back by
// [PreparedSweep.Merge]: the report is the same bit for bit (package
// internal/shard does this with files).
//
// Every report carries its reference numbers: F(w₀) − F* at the common
// start w₀ = 0 (Report.W0: doing nothing), the fraction of per-sample
// gradients clipped, and the certificate ([Certify]): the paper's
// explicit-constant proposition at the run's own T, C, σ and steps, with
// the oracle's bias and variance from its lemma; Report.RefNotes say when
// a run did worse than doing nothing or a certificate is vacuous.
//
// Everything a call releases from the same data composes: each report's
// [PrivacyTotal] is the call's (on user rows the sum of every trial's,
// solver's and sweep point's ledger; on a scenario per draw), and with
// --split-budget each release got its share (spec.Resolved.ForReleases).
// A prescription whose σ, C or step leaves float64's range is refused on
// the flag that caused it, and a call whose results would pass
// [MaxResultBytes] up front.
package engine
