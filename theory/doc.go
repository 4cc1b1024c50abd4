// Package theory evaluates every excess-risk bound of Lowy & Razaviyayn,
// "Private Stochastic Optimization with Large Worst-Case Lipschitz
// Parameter", and of the prior work it compares with, together with the
// privacy conversions dpso shows (zCDP ρ = ε²/2, Gaussian DP μ = ε, and
// (ε', δ)-DP by Bun–Steinke, by Canonne–Kamath–Steinke and exactly).
//
// Everything here is a pure function of numbers: no I/O, no randomness.
// Bounds written with ≲ or Ω are evaluated with every hidden absolute
// constant set to 1 and log factors exactly as the theorem states them
// (natural log). A quantity that does not exist (a moment past the tail
// index) is +Inf and is reported as infinite, never as a large number.
//
// # Bounds
//
// [Params] holds the inputs (n, d, ε, k, D, r̃₂, r̃_k, r̃_2k, β, μ, L_f, κ_f,
// and for the variant bounds r₂, r_k, r_2k, γ₂^{1/2}, γ_k^{1/k},
// γ_2k^{1/(2k)}, R̃_{2k,n}, R̃_{2k,n/4}, δ); NaN means "not given"
// ([NewParams] starts with all NaN). [Evaluate] gives one [Bound] by id;
// [IDs] lists them, the paper's upper bounds, its lower bounds, then prior
// work. The chart bounds ([SmoothConvexACSA] … [PriorLipschitzSC]) are
// those [ForClass] puts on a chart of a loss [Class] (its upper bound, the
// lower bound that applies, prior work); the variants ([SmoothConvexACSAOptimal] … [LowerSCCoord]) restate them
// under Assumption "ass:boundednoncentral" (r_k) or "ass:coordinatewise"
// (γ_k), with the empirical moments R̃ of the precise localization
// theorems, asymptotically ("thm: asymptotic optimality"), in the shuffle
// model (ε → [ShuffleEps]) and in the regime of "rem: affine optimal";
// [Variant] finds a chart bound's variant; [Needs] lists a bound's inputs.
// A Bound carries its kind (upper, lower, prior), source (the theorem's
// \label), formula, value, additive terms, dominant term, the theorem's
// conditions checked at the parameters, and the local rate
// d log(bound)/d log n (analytic) for slope overlays; it marshals to the
// JSON bounds documents, with null for an infinite value. Kamath, Liu &
// Zhang's Theorem 5.2 is not among them: the paper restates their
// algorithm and lemmas, not the theorem's explicit statement.
//
// # Assumptions
//
// [Assumption] names the three moment assumptions; [PrescriptionAllows]
// says which precise theorems let a prescription use r_k or γ_k in place
// of r̃_k (the smooth classes; not the localized ones), [RkFromCoordinatewise]
// converts γ_k to r_k ("lem: comparing assumptions"), and
// [AssumptionInequalities] states the inequalities between the constants
// as [Inequality] values a scenario can check against its Monte Carlo
// error.
//
// # Certificates
//
// A [Certificate] is one of the paper's explicit-constant propositions
// evaluated at a run's actual parameters — a number, not a rate: [ACSAGeneric]
// and [ACSAGenericSum] ("prop: ACSA generic"), [SCSGD] ("prop: strongly convex
// biased sgd"), [ProxPL] ("lemma:extendsAS21Thm6"), and the compositions
// over the phases and stages of the localized methods ([LocalizedConvex],
// [LocalizedSC]) of Lemma "lem: subgrad ERM bound" and Proposition "cor:
// reg ERM excess risk". The oracle's bias and variance come from
// [MeanOracle1Bound] ("lem: bias and variance of bd14"). A failed
// condition gives no value (NaN, JSON null). The type is in
// certificate.go, the propositions by family: certificate_oracle.go (the
// oracle), certificate_smooth.go (ACSA, SGD, proximal SGD),
// certificate_localized.go (the localized methods).
//
// # The rate map
//
// [NewRateMap] evaluates a class's upper, lower and prior bounds over a log
// grid of two of n, ε, d, k and says in each cell which upper bound is
// smaller, its gap to the lower bound, and (smooth convex) the regime of
// the discussion after "rem: affine optimal" ([ACSAGapAt]);
// [RateMap.Render] draws a layer as a shaded text grid. The tests hold the
// bounds to the paper's own comparisons (compare_test.go) and its summary
// table ("table: sum", figure1_table_test.go, which the README prints).
//
// # Privacy
//
// [Rho] (ρ = ε²/2), [GDPMu] (μ = ε), [EpsBunSteinke], [EpsCKS],
// [DeltaGaussian] (the exact privacy profile of a μ-GDP mechanism),
// [EpsExact] (its inverse in ε'), [EpsForTarget] and
// [EpsForTargetBunSteinke] (the zCDP ε that meets a target (ε', δ)), and
// [Convert], which computes them all for one ε and δ.
//
// # Text
//
// [Quote] is the one way any message of dpso repeats a value the user
// gave (quoted, escaped, cut to [MaxEcho] characters); numbers are
// written by [NumberFormat]'s presets, and into JSON by [JSONNum] (null
// where a value does not exist: the documents) or as an [ExactNum] (every
// value to the bit, NaN and ±Inf as strings: a file dpso reads back).
package theory
