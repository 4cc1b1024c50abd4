// Package scenarios is dpso's problem library: loss functions × heavy-tailed
// data distributions × domain, each with the paper's constants declared
// (D, β, μ, L_f and the moment profile r̃_k of Assumption 1, ass:tilde) and
// the excess risk F(w) − F* measured exactly where a closed form exists;
// and user CSV data.
//
// # Problems
//
// [List] is the catalogue: example1, linreg-t,
// linreg-pareto, logreg-t, hinge-t, absreg-t, lasso-t, contaminated,
// mean-hard, affine-hard. A [ProblemDef] chooses one (or a data file and a
// [Loss]) with its class, sizes, parameters and any constants the user
// declares; package internal/spec fills it in from a run's Spec.
// [ProblemDef.Resolve] makes every default explicit and checks every rule
// that depends on the scenario (errors are [*FieldError] naming the field,
// which is the CLI's flag); it reads no file. [Build] turns a resolved
// ProblemDef into an [*Instance], which implements solvers.Problem (W =
// B(0, D/2), allocation-free Grad, Regularizer for class ppl, Constants
// with the moment profile for any k ≥ 2) and provides the trial datasets
// ([Instance.Dataset]: a stream regenerated in O(d) memory from dist.Rand
// generators keyed by solvers.StreamKey(mode, seed, trial, "data"), one per
// fixed chunk of samples so that chunks can be drawn in parallel, or the
// user's rows in the order of the stream "perm"), the excess risk ([Instance.Excess]) and the theory
// inputs at the same parameters ([Instance.Theory], [TheoryInputs.Params],
// [Instance.Bounds]). User data are read by Build ([LoadCSV]: comma, tab,
// semicolon or space separated, detected; a BOM removed; a line at most
// [MaxLineBytes]; only regular files, [CheckDataFile]): a file that cannot
// be read or parsed, or a row whose loss overflows on W, is a [*DataError]
// with its line and column.
//
// # Losses
//
// Each loss is its own type in its own file (as gonum's stat/distuv has
// one type per distribution), with its formulas in its doc comment: the
// (a, y) family's [Squared], [Logistic], [Hinge] and [Absolute]
// (loss_*.go: value, slope, Hessian bound, smoothed surrogate, the
// potential of the clipped gradient, the sup over W of the gradient), each
// a line of the one registry that [Losses] and [ParseLoss] read (loss.go;
// TestLossRegistryComplete checks every entry's formulas), and the hard
// instances' two objectives (objective_hard.go). An (a, y) loss becomes a
// per-sample objective with its in-loss ℓ2 term through glm
// (objective.go).
//
// Declared constants come from the distribution (public knowledge), never
// from a run's sample. Moment profiles are exact where a closed form or a
// quadrature exists (Example 1 by a 1-d quadrature, the multivariate-t
// norm, the two-point laws of the lower-bound instances, and the linear
// regressions' Gaussian factor with one block of features — linreg-t,
// linreg-pareto and lasso-t at κ_Σ = 1, contaminated — by a 2-d quadrature
// on the sphere, gaussmoment.go), and otherwise an exact tail factor times
// a Monte Carlo mean, or a Monte Carlo mean, over [MCDraws] draws of the
// stream keyed by StreamKey(Seeded, 0, 0, "moments"), kept once per
// distribution and reused for every k, with its standard error
// ([MomentEntry]); r̃_k is +Inf exactly when the tail index says the
// moment does not exist.
//
// The constants of the paper's other two assumptions, with the sup over W
// outside the expectation — r_k = sup_w (E‖∇f(w, x)‖^k)^{1/k}
// ("ass:boundednoncentral", [Instance.Noncentral]) and γ_k = sup_w max_j
// E|∂_j f(w, x) − ∂_j F(w)|^k ("ass:coordinatewise", [Instance.Coordinate])
// — with L = sup_w ‖∇F(w)‖ ([Instance.GradSup]), are computed for every
// scenario (supbuild.go): the sup over W located by the convexity of
// E|affine in w|^k and the scenario's symmetries (a point, or a certified
// branch-and-bound over an arc of W, arcMax), the expectation exact where a
// closed form exists (every affine-gradient scenario at k = 2, the hard
// instances) and otherwise a Monte Carlo mean on column samples of the
// streams StreamKey(Seeded, 0, 0, "moments/<purpose>"), cached like r̃_k's
// ([SupEntry]); where ‖∇f(·, x)‖ is not convex in w (logistic, and the hinge
// and absolute losses with an ℓ2 term) the sup is bracketed. [Instance.AssumptionChecks]
// decides the inequalities of Lemma "lem: comparing assumptions" on them with
// the Monte Carlo errors; [Instance.TheoryUnder] and [BoundsOf] restate a
// run's theory inputs and bounds under its assumption and privacy model.
//
// The excess risk is closed form for example1, linreg-t, linreg-pareto,
// lasso-t, contaminated, absreg-t, mean-hard and affine-hard (F* from the
// KKT conditions, exactly); logreg-t and hinge-t use a fixed evaluation
// sample ([EvalSizeFor]: 40000 draws for d ≤ 99) on which F* is minimized
// over W and certified by a Frank–Wolfe gap ([RiskInfo].FStarErr), and each
// excess risk carries the sample's Monte Carlo error. For the hinge-t
// samples of the hinge preset and its sweep over d, minima.txt holds the
// point and smoothing level the minimization reaches: F* and its
// certificate are computed at it, the same bits, without the search
// (knownminima.go; one test runs every search again). User data report the
// empirical-risk gap over all rows ([Empirical]).
//
// The clipping bias of a threshold C, F(w_C) − F* at the clipped
// population fixed point w_C (where projected steps along
// E[clip_C(∇f(w, x))] stop), is [Instance.ClipBias]: exactly 0 where the
// gradients' law at an interior w* is symmetric, in closed form on the
// hard instances' two-point laws, and otherwise minimized (the clipped
// field is the gradient of a convex function for these losses) on the
// sample F is measured on, or on an evaluation sample of the law with a
// batch-means standard error (clipbias.go).
//
// The engine that runs solvers on these problems is package
// internal/engine; the run's description is package internal/spec; the
// JSON, CSV and table shapes of every output are package internal/report.
package scenarios
