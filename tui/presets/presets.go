package presets

import (
	"fmt"
	"strconv"

	"strings"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/runs"
)

// Preset is a Spec for teaching and demos, with what to look at: its
// Title and Spec are what `dpso explore --preset` opens (Index).
type Preset struct {
	Title string
	Spec  spec.Spec
	// focus is the field focused after loading (the one to play with),
	// by its flag's name ("n", "k", "eps").
	Focus string
	// screen is the screen loading the preset shows and runs, by its kind
	// (its name in a state string; "": the chart); compare: on the chart,
	// the comparison with the baselines (c) rather than the form's solver
	// alone (r).
	Screen  runs.ScreenKind
	Compare bool
	// versus are the solvers r runs beside the form's on the chart, on the
	// same draws, while the preset is loaded (its comparison: the paper's
	// solver against prior practice); nil: r runs the form's solver alone.
	Versus []string
	// text says what to look at, with numbers measured by the tests
	// (presets_test.go); caption is its gist on screen, what it shows and
	// what it does not, under the header while the preset is loaded, and
	// next the step it asks for ("press → on k three times, then r").
	Text, Caption, Next string
	// action is what loading starts, for the list ("run (r)", "compare
	// (c)"); one that starts with "none" starts nothing.
	Action string
}

// Starts reports whether loading the preset from the list starts its
// screen's run.
func (p Preset) Starts() bool { return p.Action != "" && !strings.HasPrefix(p.Action, "none") }

// All are the explorer's presets, in order; the first opens the
// explorer: the paper's point at a size where its theorem holds (r runs
// the paper's solver beside Lipschitz DP-SGD on the same draws; the
// certificate is below the start line), then the clipping trade-off, then
// Example 1 — whose start is its optimum, so that its curves can only
// rise: one key away, not the first screen. Sizes are chosen to run in a
// few seconds on 2 cores and to show the phenomenon; the numbers in the
// texts were measured with the presets' own Specs (seed 0) and
// presets_test.go checks them.
var All = []Preset{
	{
		Title:   "Moment clipping beats Lipschitz DP-SGD",
		Spec:    spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 20, K: 4, Lf: 1e4, N: 2000000, Trials: 8},
		Focus:   "n",
		Versus:  []string{"lipschitz-dpsgd"},
		Action:  "run (r): acsa beside lipschitz-dpsgd",
		Next:    "press r; then c adds every baseline, ← on n shrinks n",
		Caption: "AC-SA clips at C = 456, set by the moment r̃₄; Lipschitz DP-SGD calibrates its noise to a declared L_f = 10⁴ (these data have L_f = ∞). r: AC-SA 7.8·10⁻⁵ under its certificate 0.129 (in force at this n) and w₀ 0.139; Lipschitz DP-SGD 0.078. Not shown: c's multi-pass klz-gd ends lower; nothing here is tuned.",
		Text: "Heavy-tailed linear regression (multivariate t, ν = 20, d = 10): the gradient norms have moments of every order below 10 but no bound, L_f = ∞. The paper's solver, noisy clipped AC-SA, clips at C = 456, set by the fourth moment r̃₄ (k = 4). Lipschitz DP-SGD must assume a bound: given L_f = 10⁴ (which clips none of these gradients, 0%) it calibrates its noise to it, and its prescription at k = ∞ takes a single step (T = 1). " +
			"r runs both on the same draws at n = 2·10⁶ (8 trials; each solver's release is (4.38, 10⁻⁵)-DP, the two together (6.57, 10⁻⁵)): AC-SA ends at 7.8·10⁻⁵ ± 1.3·10⁻⁵, below its certificate 0.129 — the theorem's explicit-constant bound at these parameters, below the start line here, so the guarantee is in force — and below w₀ (0.139, doing nothing); Lipschitz DP-SGD ends at 0.078 ± 0.0004, a thousand times higher. " +
			"What it does not show: c adds the baselines that read every sample many times — klz-gd (10 full-batch steps, coordinate-wise medians) ends at 1.9·10⁻⁵, clearly below AC-SA's single pass, and dp-sgd (5 epochs of Poisson batches, PLD accountant) at 3.8·10⁻⁵ ± 0.6·10⁻⁵, lower on average but within 3 standard errors of AC-SA at 8 trials; and every method runs its prescribed parameters, none is tuned (a tuned clip threshold may do better still). " +
			"At smaller n (← on n) AC-SA's certificate rises above w₀: the guarantee is then vacuous, though the run may still beat Lipschitz DP-SGD.",
	},
	{
		Title:   "Clipping trades bias for noise: the U-shape",
		Spec:    spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, N: 10000, Trials: 5},
		Focus:   "n",
		Screen:  "clip",
		Action:  "clipping sweep (x)",
		Next:    "the sweep runs on loading; then ← on n and r, or x for another run",
		Caption: "At the prescribed C = 788 nothing is clipped and the noise leaves 0.31, worse than w₀ (0.19); at C = 2.5 half the gradients are clipped and the excess risk falls to 0.0024; at C = 0.079 clipping leaves 0.13 (clipped steps are short; the clipped fixed point itself is w*, bias 0). The prescription guards against the worst case its constants allow, not these data.",
		Text: "Noisy clipped SGD on heavy-tailed linear regression (multivariate t, ν = 6, n = 10⁴). Loading sweeps the clip threshold C from 10⁻⁴ to 1 times the prescribed C = 788 (9 points, 5 trials each, the step and T held at the prescription's). " +
			"At the prescribed C nothing is clipped (0%) and the noise σ ∝ C leaves the excess risk at 0.31, no better than doing nothing (0.19 at w₀); at C = 2.5 half the gradients are clipped (46%) and it falls to 0.0024, a hundred times lower; at C = 0.079, 98% are clipped and the excess risk is 0.13: with so small a C every step is short and T steps do not reach the optimum — the clipping bias itself, F(w_C) − F* at the clipped population fixed point, is 0 at every C here (the noise is symmetric, so clipping leaves the fixed point at w*). " +
			"The noise-off curve (the same runs without noise: clipping, sampling and optimization error) stays at most 0.003 from C = 2.5 up, so the rise on the right is noise. " +
			"The theorem's C guards against the worst case its constants allow (r̃_k over the whole ball W), not these data; its certificate says so: at the prescribed parameters it is 271 (r runs them and the theorem panel shows it), vacuous here, far above the start line.",
	},
	{
		Title:   "Example 1: one outlier makes L_f ≥ 10²⁰",
		Spec:    spec.Spec{Scenario: scenarios.Example1, Class: theory.SmoothConvex, N: 100000, Trials: 8},
		Focus:   "k",
		Compare: true,
		Action:  "compare (c)",
		Next:    "the comparison runs on loading; then → on k and c",
		Caption: "One outlier makes L_f = 2·10²⁰ while r̃₂ ≈ 2.6: Lipschitz DP-SGD's noise pushes w to 0.32, clipped AC-SA stays at 2.4·10⁻³. The start is the optimum (w₀ = w*), so every curve can only rise from 0.",
		Text: "The paper's Example 1: 1-d linear regression on normal data truncated only at ±10¹⁰, so the worst-case Lipschitz constant is L_f = 2·10²⁰ while r̃₂ ≈ 2.6. " +
			"The bound of prior work for Lipschitz losses, L_f·D·(1/√n + √d/(εn)) ≈ 1.3·10¹⁸, is far off the chart (the arrow in the legend); the paper's upper and lower bounds, with r̃_k instead of L_f, are 0.062 and 0.035. " +
			"The optimum w* = 0 is also the start, so the curves show how far each method's noise pushes w away. " +
			"Loading runs the comparison on the same draws: noisy clipped AC-SA ends at excess risk 2.4·10⁻³, Lipschitz DP-SGD — noise calibrated to L_f — at 0.32, over a hundred times higher.",
	},
	{
		Title:   "Heavy tails: a larger k buys a lower C and less noise",
		Spec:    spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, N: 200000, Trials: 8},
		Focus:   "k",
		Action:  "run (r)",
		Next:    "press → on k three times (k = 4), then r",
		Caption: "A larger k, a stronger assumption on the tails, puts the clip threshold lower: from k = 2 to k = 4, C falls from 3400 to 470, σ from 0.17 to 0.028 and the excess risk from 0.029 to 0.0013; nothing is clipped at either k.",
		Text: "Linear regression with multivariate-t data, ν = 10: r̃_k exists for k < 5 only. The clip threshold C = r̃_k·(εn/√(dT))^{1/k} is where the analysis balances clipping bias (at most r̃_k^k/((k−1)C^{k−1})) against noise (σ ∝ C/(εn)); a larger k — a stronger assumption on the tails — puts it lower. " +
			"Step k with ← → and press r: from k = 2 to k = 4, C falls from 3400 to 470, σ from 0.17 to 0.028 (six times less noise), and the excess risk from 0.029 to 0.0013. " +
			"The clipping panel shows why the bias is affordable: C sits above every gradient norm of the batches (0.0% clipped) — by Markov's inequality the prescription clips a fraction at most √(dT)/(εn) ≈ 4·10⁻⁵ whatever k. " +
			"k = 6 is refused: r̃₆ = ∞ for ν = 10, the assumption would be false.",
	},
	{
		Title:   "k → ∞ recovers the Lipschitz rate",
		Spec:    spec.Spec{Scenario: scenarios.AffineHard, Class: theory.NonsmoothConvex, K: 2, N: 10000, Trials: 4},
		Focus:   "k",
		Action:  "none (bounds only)",
		Next:    "press → on k until k = ∞, read the theorem panel (t)",
		Caption: "At k = ∞ the paper's rate is the Lipschitz rate L_f·D·(1/√n + √(d ln n)/(εn)). Nothing runs on loading: the bounds are the point (theorem panel, t); a run at this n is budget-capped and ends at the start line.",
		Text: "The convex lower-bound instance, scaled so that r̃_k = 1 for the k it is built for. Step k with → and read the theorem panel: at k = 2 the paper's upper bound is 0.62, its privacy term (√(d ln n)/(εn))^{1/2} dominating; " +
			"at k = ∞, where r̃_∞ = L_f, it is L_f·D·(1/√n + √(d ln n)/(εn)) = 0.024 — the rate of Lipschitz DP-SCO, whose bound L_f·D·(1/√n + √d/(εn)) = 0.021 is on the chart, up to the factor √(ln n) in the privacy term. " +
			"Nothing runs on loading (the bounds are the point). r runs the localized method, but at n = 10⁴ its full schedule is 9.4·10⁹ gradient evaluations, about 470 times the work budget: the run is budget-capped and ends where it started (0.0299, the start line F(w₀) − F*) — at this n the theorem's guarantee needs far more work than a demo can spend.",
	},
	{
		Title:   "Non-smooth: hinge loss with localization",
		Spec:    spec.Spec{Scenario: scenarios.HingeT, Class: theory.NonsmoothConvex, K: 4, Tail: 10, N: 1024, Trials: 4},
		Focus:   "n",
		Action:  "run (r)",
		Next:    "press r; then → on n (the budget then binds)",
		Caption: "The localized method's full schedule fits the work budget at n = 1024: the excess risk falls from 0.80 at w = 0 to 0.15, close to non-private sgd on the same schedule (0.14).",
		Text: "A linear SVM on Student-t features (ν = 10). The localized noisy clipped subgradient method runs ⌊log₂ n⌋ = 10 phases on halving batches, each a regularized problem solved by noisy clipped subgradient steps inside a shrinking ball, clipping the loss part only and calibrated with r̃_{2k} (so 2k < ν). " +
			"Its work grows like n^{2+1/k}·ln n: at n = 1024 and k = 4 the theorem's full schedule (5.7·10⁶ gradient evaluations per trial) fits the work budget (2·10⁷), and the excess risk falls from 0.80 at w = 0 to 0.15 — close to the non-private run of the same schedule (nonprivate-schedule: 0.14). " +
			"Both bounds (1.9 and 1.1, constants set to 1) lie above the start here. A larger n makes the budget bind: the theorem panel then says so.",
	},
	{
		Title:   "LASSO under proximal-PL",
		Spec:    spec.Spec{Scenario: scenarios.LassoT, Class: theory.PPL, N: 1000000, Trials: 8},
		Focus:   "eps",
		Action:  "run (r)",
		Next:    "press r, then ← or → on ε and r again",
		Caption: "Noisy clipped proximal SGD falls geometrically to the noise floor, 0.014 over 8 trials; ε moves the floor like ε^(−(2k−2)/k).",
		Text: "Sparse linear regression with an ℓ1 penalty: not strongly convex, but proximal-PL. Noisy clipped proximal SGD (12 steps on disjoint batches) soft-thresholds after each noisy clipped gradient step: " +
			"the excess risk falls geometrically from 0.15 at w = 0 to the noise floor, 0.014 on average over 8 trials, between the upper bound 0.034 and the lower bound 0.0032. " +
			"Step ε with ← → to move the floor: the privacy term scales like (√d·κ·ln n/(εn))^{(2k−2)/k}.",
	},
	{
		Title:   "The lower bound's hard instance",
		Spec:    spec.Spec{Scenario: scenarios.MeanHard, Class: theory.SmoothSC, N: 10000, Trials: 8},
		Focus:   "n",
		Screen:  "sweep",
		Action:  "sweep of n (s)",
		Next:    "the n sweep runs on loading; then v sweeps ε",
		Caption: "On the lower bound's instance the excess risk falls like 1/n (slope −1.00), the lower bound's rate; doing nothing falls as fast here, and the private run ends 13–16% above it at every n: no private method can do much better.",
		Text: "The distribution behind the strongly convex lower bound (" + theory.Cite("eq:harddist") + "): x = 0 with probability 1 − p and a large point otherwise, p = min(1, √d/(n√ρ)). " +
			"Loading sweeps n from 625 to 10⁴ (5 points, 8 trials each): noisy clipped SGD's excess risk falls with slope −1.00 (95% interval −1.02 … −0.98), the lower bound's rate (its slope over the grid: −1.01); the upper bound's slope is −0.95 (its log factor). " +
			"Bounds carry constants set to 1, so a run may sit below the lower bound's value: the rate is the claim. " +
			"The slope table's verdict flags every point: the certificate and the upper rate are at or above w₀ here, so the upper bound promises nothing at these n — the slope is this instance's. Doing nothing is near-optimal here too: the domain shrinks with n, so the start line w₀ also falls like 1/n, and the private run ends 13–16% above it at every n (1.30·10⁻⁴ against 1.12·10⁻⁴ at n = 10⁴) — no private algorithm can beat it by more than a constant factor on this instance, which is what the lower bound says.",
	},
	{
		Title:   "What the constants cost: prescribed, tuned, oracle",
		Spec:    spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, N: 10000, Trials: 5},
		Focus:   "n",
		Screen:  "tune",
		Action:  "private tuning (g)",
		Next:    "the search runs on loading; then ← on n three times (n = 10³)",
		Caption: "The theorem's constants leave clipped SGD at 0.31, no better than doing nothing (w₀ 0.19); a private search over C, step and T, its whole cost inside ε' = 4.38, ends at 0.0062, 51× lower; the oracle's pick (not private) 0.0018.",
		Text: "Noisy clipped SGD on heavy-tailed linear regression (multivariate t, ν = 6, n = 10⁴, ε = 1, 5 trials). The theorem prescribes C = 788, step 0.667, T = 20 from constants that guard the worst case (r̃_k over the whole ball W): nothing is clipped, and the noise leaves the excess risk at 0.31 ± 0.08, no better than doing nothing (0.19 at w₀). " +
			"Loading runs what dpso tune runs: a private random search — K random candidates (geometric, mean 10) from a grid of C, step and T, each trained on 9000 rows with ρ_Q = 0.123 and scored privately on the other 1000 — and releases the best; Papernot & Steinke's accounting puts the whole search at ε' = 4.38 (δ = 10⁻⁵), the budget itself: one candidate alone is ε' = 1.97, the tuning overhead + 2.41. " +
			"It ends at 0.0062 ± 0.0005, 51 times lower than the prescription; the oracle-tuned reference — the grid's best point by the true excess risk at the full budget, which no private procedure can read — ends at 0.0018 ± 0.00055. " +
			"The panel lists each trial's choice and trial 0's candidates with their noisy scores (diagnostics, not private). " +
			"At n = 10³ (← on n) the search scores on 100 rows and can barely tell candidates apart: 0.14 ± 0.02 against the prescription's 0.34 ± 0.06, while the oracle's pick reaches 0.016.",
	},
}

// Index finds a preset by its number in the list (1 is the first,
// as the explorer numbers them) or by a case-insensitive part of its title
// that only one preset has ("lipschitz", "hard instance"). The error
// lists the presets.
func Index(name string) (int, error) {
	t := strings.TrimSpace(name)
	if n, err := strconv.Atoi(t); err == nil {
		if n >= 1 && n <= len(All) {
			return n - 1, nil
		}
		return 0, fmt.Errorf("no preset %d (there are %d): %s", n, len(All), presetTitles())
	}
	var hits []int
	for i, p := range All {
		if t != "" && strings.Contains(strings.ToLower(p.Title), strings.ToLower(t)) {
			hits = append(hits, i)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return 0, fmt.Errorf("no preset's title contains %s: %s", theory.Quote(t), presetTitles())
	}
	titles := make([]string, len(hits))
	for i, h := range hits {
		titles[i] = strconv.Itoa(h+1) + " " + All[h].Title
	}
	return 0, fmt.Errorf("%s is in the titles of %d presets (%s); give more of the title, or its number", theory.Quote(t), len(hits), strings.Join(titles, "; "))
}

// presetTitles is "1 Example 1: …; 2 Heavy tails: …; …".
func presetTitles() string {
	parts := make([]string, len(All))
	for i, p := range All {
		parts[i] = strconv.Itoa(i+1) + " " + p.Title
	}
	return strings.Join(parts, "; ")
}
