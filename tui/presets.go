package tui

import (
	"fmt"

	"strings"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// Preset is a Spec for teaching and demos, with what to look at: its
// Title and Spec are what `dpso explore --preset` opens (PresetIndex).
type Preset struct {
	Title string
	Spec  spec.Spec
	// focus is the field focused after loading (the one to play with).
	focus fieldID
	// screen is the screen loading the preset shows and runs ("": the
	// chart); compare: on the chart, the comparison with the baselines
	// (c) rather than the form's solver alone (r).
	screen  screenKind
	compare bool
	// text says what to look at, with numbers measured by the tests
	// (presets_test.go).
	text string
	// action is what loading starts, for the list ("run (r)", "compare
	// (c)"); one that starts with "none" starts nothing.
	action string
}

// starts reports whether loading the preset from the list starts its
// screen's run.
func (p Preset) starts() bool { return p.action != "" && !strings.HasPrefix(p.action, "none") }

// summary is the preset's parameters in one line.
func (p Preset) summary() string {
	r, err := resolve(p.Spec)
	if err != nil {
		return "invalid: " + err.Error()
	}
	rs := r.Spec
	parts := []string{rs.Scenario, string(rs.Class), rs.Solver, "k = " + fmtK(rs.K), "ε = " + fmtNum(rs.Eps), "n = " + fmtN(rs.N), fmt.Sprintf("d = %d", rs.D)}
	if info, ok := scenarios.Lookup(rs.Scenario); ok && info.Tail != nil {
		parts = append(parts, info.Tail.Symbol+" = "+fmtNum(rs.Tail))
	}
	parts = append(parts, trialCount(rs.Trials))
	return strings.Join(parts, " · ")
}

// Presets are the explorer's presets, in order; the first opens the
// explorer: the flagship comparison (what the paper is about, with the
// start line and the certificate on the chart), then the clipping
// trade-off, then Example 1 — whose start is its optimum, so that its
// curves can only rise: one key away, not the first screen. Sizes are chosen to run in a few seconds on 2 cores and to
// show the phenomenon; the numbers in the texts were measured with the
// presets' own Specs (seed 0) and presets_test.go checks them.
var Presets = []Preset{
	{
		Title:   "Lipschitz DP-SGD breaks, clipping does not",
		Spec:    spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, Lf: 1e6, N: 200000, Trials: 8},
		focus:   fSolver,
		compare: true,
		action:  "compare (c)",
		text: "Heavy-tailed linear regression (multivariate t, ν = 10) with a declared bound L_f = 10⁶ on the gradient norms: the data are unbounded, so without it Lipschitz DP-SGD refuses outright (L_f = ∞). " +
			"Calibrated to L_f it adds noise σ = 10 and ends at excess risk 0.68, four times worse than the start w = 0 (0.16); noisy clipped AC-SA clips at C ≈ 3400 ≪ L_f and ends at 0.029. " +
			"The multi-pass baselines do better at the same (ε', δ) = (4.38, 10⁻⁵): klz-gd, the prior state of the art (Kamath–Liu–Zhang's coordinate-wise median of means, T = 19 full-batch steps, with the scenario's exact coordinate-wise moment γ_k), ends at 0.0020, and dp-sgd (5 epochs of Poisson batches, its noise calibrated by a PLD accountant) at 0.00094 — they read every sample many times, AC-SA once. Every method runs on the same draws (common random numbers).",
	},
	{
		Title:  "Clipping trades bias for noise: the U-shape",
		Spec:   spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, N: 10000, Trials: 5},
		focus:  fN,
		screen: clipKind,
		action: "clipping sweep (x)",
		text: "Noisy clipped SGD on heavy-tailed linear regression (multivariate t, ν = 6, n = 10⁴). Loading sweeps the clip threshold C from 10⁻⁴ to 1 times the prescribed C = 790 (9 points, 5 trials each, the step and T held at the prescription's). " +
			"At the prescribed C nothing is clipped (0%) and the noise σ ∝ C leaves the excess risk at 0.31, no better than doing nothing (0.19 at w₀); at C = 2.5 half the gradients are clipped (46%) and it falls to 0.0024, a hundred times lower; at C = 0.079, 98% are clipped and the bias leaves 0.13. " +
			"The noise-off curve (the same runs without noise) is the clipping bias alone: at most 0.003 from C = 2.5 up, so the rise on the right is noise. " +
			"The theorem's C guards against the worst case its constants allow (r̃_k over the whole ball W), not these data; its certificate says so: at the prescribed parameters it is 271 (r runs them and the theorem panel shows it), vacuous here, far above the start line.",
	},
	{
		Title:   "Example 1: one outlier makes L_f ≥ 10²⁰",
		Spec:    spec.Spec{Scenario: scenarios.Example1, Class: theory.SmoothConvex, N: 100000, Trials: 8},
		focus:   fK,
		compare: true,
		action:  "compare (c)",
		text: "The paper's Example 1: 1-d linear regression on normal data truncated only at ±10¹⁰, so the worst-case Lipschitz constant is L_f = 2·10²⁰ while r̃₂ ≈ 2.6. " +
			"The bound of prior work for Lipschitz losses, L_f·D·(1/√n + √d/(εn)) ≈ 1.3·10¹⁸, is far off the chart (the arrow in the legend); the paper's upper and lower bounds, with r̃_k instead of L_f, are 0.062 and 0.035. " +
			"The optimum w* = 0 is also the start, so the curves show how far each method's noise pushes w away. " +
			"Loading runs the comparison on the same draws: noisy clipped AC-SA ends at excess risk 2.4·10⁻³, Lipschitz DP-SGD — noise calibrated to L_f — at 0.32, over a hundred times higher.",
	},
	{
		Title:  "Heavy tails: a larger k buys a lower C and less noise",
		Spec:   spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, N: 200000, Trials: 8},
		focus:  fK,
		action: "run (r)",
		text: "Linear regression with multivariate-t data, ν = 10: r̃_k exists for k < 5 only. The clip threshold C = r̃_k·(εn/√(dT))^{1/k} is where the analysis balances clipping bias (at most r̃_k^k/((k−1)C^{k−1})) against noise (σ ∝ C/(εn)); a larger k — a stronger assumption on the tails — puts it lower. " +
			"Step k with ← → and press r: from k = 2 to k = 4, C falls from 3400 to 470, σ from 0.17 to 0.028 (six times less noise), and the excess risk from 0.029 to 0.0013. " +
			"The clipping panel shows why the bias is affordable: C sits above every gradient norm of the batches (0.0% clipped) — by Markov's inequality the prescription clips a fraction at most √(dT)/(εn) ≈ 4·10⁻⁵ whatever k. " +
			"k = 6 is refused: r̃₆ = ∞ for ν = 10, the assumption would be false.",
	},
	{
		Title:  "k → ∞ recovers the Lipschitz rate",
		Spec:   spec.Spec{Scenario: scenarios.AffineHard, Class: theory.NonsmoothConvex, K: 2, N: 10000, Trials: 4},
		focus:  fK,
		action: "none (bounds only)",
		text: "The convex lower-bound instance, scaled so that r̃_k = 1 for the k it is built for. Step k with → and read the theorem panel: at k = 2 the paper's upper bound is 0.62, its privacy term (√(d ln n)/(εn))^{1/2} dominating; " +
			"at k = ∞, where r̃_∞ = L_f, it is L_f·D·(1/√n + √(d ln n)/(εn)) = 0.024 — the rate of Lipschitz DP-SCO, whose bound L_f·D·(1/√n + √d/(εn)) = 0.021 is on the chart, up to the factor √(ln n) in the privacy term. " +
			"Nothing runs on loading (the bounds are the point). r runs the localized method, but at n = 10⁴ its full schedule is 9.4·10⁹ gradient evaluations, about 470 times the work budget: the run is budget-capped and ends where it started (0.0299, the start line F(w₀) − F*) — at this n the theorem's guarantee needs far more work than a demo can spend.",
	},
	{
		Title:  "Non-smooth: hinge loss with localization",
		Spec:   spec.Spec{Scenario: scenarios.HingeT, Class: theory.NonsmoothConvex, K: 4, Tail: 10, N: 1024, Trials: 4},
		focus:  fN,
		action: "run (r)",
		text: "A linear SVM on Student-t features (ν = 10). The localized noisy clipped subgradient method runs ⌊log₂ n⌋ = 10 phases on halving batches, each a regularized problem solved by noisy clipped subgradient steps inside a shrinking ball, clipping the loss part only and calibrated with r̃_{2k} (so 2k < ν). " +
			"Its work grows like n^{2+1/k}·ln n: at n = 1024 and k = 4 the theorem's full schedule (5.7·10⁶ gradient evaluations per trial) fits the work budget (2·10⁷), and the excess risk falls from 0.80 at w = 0 to 0.15 — close to the non-private baseline on the same schedule (sgd: 0.14). " +
			"Both bounds (1.9 and 1.1, constants set to 1) lie above the start here. A larger n makes the budget bind: the theorem panel then says so.",
	},
	{
		Title:  "LASSO under proximal-PL",
		Spec:   spec.Spec{Scenario: scenarios.LassoT, Class: theory.PPL, N: 1000000, Trials: 8},
		focus:  fEps,
		action: "run (r)",
		text: "Sparse linear regression with an ℓ1 penalty: not strongly convex, but proximal-PL. Noisy clipped proximal SGD (12 steps on disjoint batches) soft-thresholds after each noisy clipped gradient step: " +
			"the excess risk falls geometrically from 0.15 at w = 0 to the noise floor, 0.014 on average over 8 trials, between the upper bound 0.034 and the lower bound 0.0032. " +
			"Step ε with ← → to move the floor: the privacy term scales like (√d·κ·ln n/(εn))^{(2k−2)/k}.",
	},
	{
		Title:  "The lower bound's hard instance",
		Spec:   spec.Spec{Scenario: scenarios.MeanHard, Class: theory.SmoothSC, N: 10000, Trials: 8},
		focus:  fN,
		screen: sweepNKind,
		action: "sweep of n (s)",
		text: "The distribution behind the strongly convex lower bound (eq:harddist): x = 0 with probability 1 − p and a large point otherwise, p = min(1, √d/(n√ρ)). " +
			"Loading sweeps n from 625 to 10⁴ (5 points, 8 trials each): noisy clipped SGD's excess risk falls with slope −1.00 (95% interval −1.02 … −0.98), the lower bound's rate (its slope over the grid: −1.01); the upper bound's slope is −0.95 (its log factor). " +
			"Bounds carry constants set to 1, so a run may sit below the lower bound's value: the rate is the claim. " +
			"Doing nothing is near-optimal here too: the domain shrinks with n, so the start line w₀ also falls like 1/n, and the private run ends 13–16% above it at every n (1.30·10⁻⁴ against 1.12·10⁻⁴ at n = 10⁴) — no private algorithm can beat it by more than a constant factor on this instance, which is what the lower bound says.",
	},
}

// presetSpecsValid is used by tests: every preset resolves.
func presetSpecsValid() error {
	for _, p := range Presets {
		if _, err := resolve(p.Spec); err != nil {
			return fmt.Errorf("preset %q: %w", p.Title, err)
		}
	}
	return nil
}
