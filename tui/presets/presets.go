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
	// text says what to look at, caption is its gist on screen, what it
	// shows and what it does not, under the header while the preset is
	// loaded, and next the step it asks for ("press → on k three times,
	// then r"): templates whose numbers are facts of the preset's pinned
	// runs (story.go; Text, Caption and Next fill them).
	text, caption, next string
	// afterR and afterC are the caption while the chart draws r's run
	// (the form's solver, beside the versus solvers) and c's comparison
	// with every baseline ("": caption): a caption names only what the
	// chart draws, in the legend's names.
	afterR, afterC string
	// nextR is the next step while the chart draws r's run ("": next): a
	// preset whose loading runs r asks for what follows it.
	nextR string
	// step is the preset's Spec after its next step ("← on n three
	// times"; zero: none), stepCaption the caption and stepNext the next
	// step while the form holds it: the caption describes the run on
	// screen, and facts of that run (computed by the test that checks the
	// preset's story) fill it.
	step                  spec.Spec
	stepCaption, stepNext string
	// sweepCaptions are the captions while another sweep than the
	// preset's own is shown (by its screen kind: v's ε sweep after the
	// preset's n sweep): a sweep's caption describes that sweep.
	sweepCaptions map[runs.ScreenKind]string
	// action is what loading starts, for the list ("run (r)", "compare
	// (c)"); one that starts with "none" starts nothing.
	Action string
}

// Starts reports whether loading the preset from the list starts its
// screen's run.
func (p Preset) Starts() bool { return p.Action != "" && !strings.HasPrefix(p.Action, "none") }

// TheoremKeys are the keys that bring the theorem panel's lines to the
// scroll keys at every size: t moves them along a ring of panels (on a
// wide terminal the first t gives them to the privacy panel, on a small
// one it shows the next side tab), so a text names "t until", not "t".
const TheoremKeys = "t until the Theorem panel has the scroll keys, then j"

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
		Title:  "Moment clipping beats Lipschitz DP-SGD",
		Spec:   spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 20, K: 4, Lf: 1e4, N: 2000000, Trials: 8},
		Focus:  "n",
		Versus: []string{"lipschitz-dpsgd"},
		Action: "run (r): acsa beside lipschitz-dpsgd",
		next:   "press r; then c adds every baseline, ← on n shrinks n",
		nextR:  "c adds every baseline, ← on n shrinks n (then r)",
		caption: "acsa clips at C = {clip}, set by the moment r̃_k (k = {k}); lipschitz-dpsgd calibrates its noise to a declared L_f = {lf} (these data have L_f = ∞). " +
			"r: acsa ends at {acsa}, under its certificate {cert}, which is below w₀ = {w0}: the guarantee is in force at this n; lipschitz-dpsgd ends at {lip}. " +
			"Not shown: c's multi-pass klz-gd ends lower ({klz}); nothing here is tuned.",
		afterC: "AC-SA (acsa) clips at C = {clip}, set by the moment r̃_k (k = {k}); lipschitz-dpsgd calibrates its noise to a declared L_f = {lf} (these data have L_f = ∞). " +
			"c: acsa ends at {acsa}, under its certificate {cert}, which is below w₀ = {w0}; lipschitz-dpsgd ends at {lip}; klz-gd, which reads every sample many times, ends lower ({klz}); dp-sgd ends at {dpsgd}, below acsa too (clear by the paired test over these draws that the tuning screen makes). Nothing here is tuned.",
		text: "Heavy-tailed linear regression (multivariate t, ν = {nu}, d = {d}): the gradient norms have moments of every order below ν/2 but no bound, L_f = ∞. The paper's solver, noisy clipped AC-SA (acsa), clips at C = {clip}, set by the moment r̃_k (k = {k}). Lipschitz DP-SGD (lipschitz-dpsgd) must assume a bound: given L_f = {lf} (which clips {lip_clipped%} of these gradients) it calibrates its noise to it, and its prescription at k = ∞ takes T = {lip_iters#} step. " +
			"r runs both on the same draws at n = {n} ({trials#} trials; each solver's release is (ε', δ) = ({eps1}, {delta})-DP, the two together ({eps2}, {delta})): AC-SA ends at {acsa±}, below its certificate {cert} — the theorem's explicit-constant bound at these parameters, below the start line here, so the guarantee is in force — and below w₀ ({w0}, doing nothing); Lipschitz DP-SGD ends at {lip±}, {lip_ratio×} AC-SA's. " +
			"What it does not show: c adds the baselines that read every sample many times — klz-gd ({klz_iters#} full-batch steps, coordinate-wise medians) ends at {klz±}, and dp-sgd (epochs of Poisson batches, PLD accountant) at {dpsgd±}, each beside AC-SA's single pass on the same draws; and every method runs its prescribed parameters, none is tuned (a tuned clip threshold may do better still). " +
			"At smaller n (← on n) AC-SA's certificate rises above w₀: the guarantee is then vacuous, though the run may still beat Lipschitz DP-SGD.",
	},
	{
		Title:  "Clipping trades bias for noise: the U-shape",
		Spec:   spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, N: 10000, Trials: 5},
		Focus:  "n",
		Screen: "clip",
		Action: "clipping sweep (x)",
		next:   "the sweep runs on loading; then ← on n and r, or x for another run",
		caption: "At the prescribed C = {top_c} nothing is clipped and the noise leaves {top}, worse than w₀ ({w0}); at C = {best_c}, {best_clipped%} of the gradients are clipped and the excess risk falls to {best}; " +
			"at C = {low_c}, {low_clipped%} are clipped, every step is shortened and the T steps end at {low} — though the clipping bias itself, F(w_C) − F*, is {bias_max} at every C here (symmetric noise). The prescription guards against the worst case its constants allow, not these data.",
		text: "Noisy clipped SGD (clipped-sgd) on heavy-tailed linear regression (multivariate t, ν = {nu}, n = {n}). Loading sweeps the clip threshold C from {low_c} to the prescribed C = {top_c} ({points#} points, {trials#} trials each, the step and T held at the prescription's). " +
			"At the prescribed C nothing is clipped ({top_clipped%}) and the noise σ ∝ C leaves the excess risk at {top}, no better than doing nothing ({w0} at w₀); at C = {best_c}, {best_clipped%} of the gradients are clipped and it falls to {best}; at C = {low_c}, {low_clipped%} are clipped and it is {low}. " +
			"The noise-off curve (the same runs without noise) is clipping, sampling and optimization error together, at most {noiseoff_max} from C = {best_c} up, so the rise on the right is noise. On the left, clipping shortens every step (the clipped mean gradient is biased towards 0 far from the optimum), so T steps do not get there; the clipping bias itself — F(w_C) − F* at the clipped population fixed point w_C, where steps along the clipped mean gradient stop — is {bias_max} at every C here: the noise is symmetric, so clipping leaves the fixed point at w*. " +
			"The theorem's C guards against the worst case its constants allow (r̃_k over the whole ball W), not these data; its certificate says so: at the prescribed parameters it is {cert} (r runs them and the theorem panel shows it), vacuous here, far above the start line.",
	},
	{
		Title:   "Example 1: L_f ≥ 10²⁰ on light-tailed data",
		Spec:    spec.Spec{Scenario: scenarios.Example1, Class: theory.SmoothConvex, N: 100000, Trials: 8},
		Focus:   "k",
		Compare: true,
		Action:  "compare (c)",
		next:    "the comparison runs on loading; then → on k and c",
		caption: "Normal data truncated only at a far edge have L_f = {lf}, set by that edge, while r̃₂ = {r2}: lipschitz-dpsgd's noise pushes the excess risk to {lip}; acsa, which clips, ends at {acsa}. The start is the optimum (w₀ = w*: its excess risk is {w0}), so every curve can only rise.",
		afterR:  "Normal data truncated only at a far edge have L_f = {lf}, set by that edge, while r̃₂ = {r2}: r runs clipped AC-SA (acsa) alone, which stays at {acsa}; c runs lipschitz-dpsgd beside it on the same draws. The start is the optimum (w₀ = w*: its excess risk is {w0}), so every curve can only rise.",
		text: "The paper's Example 1: 1-d linear regression on normal data truncated only at a huge bound, so the worst-case Lipschitz constant is L_f = {lf} while r̃₂ = {r2}. " +
			"Prior work's bound for Lipschitz losses reads L_f, the paper's upper and lower bounds read r̃_k instead: the theorem panel shows them (" + TheoremKeys + "), rates with their constants set to 1, to be compared by their slopes (the sweeps), not with the curves. " +
			"The optimum w* = 0 is also the start, so the curves show how far each method's noise pushes w away. " +
			"Loading runs the comparison on the same draws ({trials#} trials at n = {n}): noisy clipped AC-SA (acsa) ends at excess risk {acsa±}, Lipschitz DP-SGD (lipschitz-dpsgd) — noise calibrated to L_f — at {lip±}, {ratio×} AC-SA's.",
	},
	{
		Title:    "Heavy tails: a larger k buys a lower C and less noise",
		Spec:     spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 2, N: 200000, Trials: 8},
		Focus:    "k",
		Action:   "run (r)",
		next:     "press → on k three times (k = {kb}), then r",
		step:     spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, Tail: 10, K: 4, N: 200000, Trials: 8},
		stepNext: "r runs it; ← on k three times goes back to k = {ka}",
		stepCaption: "At k = {kb} the clip threshold is C = {clip_b} and σ = {sigma_b}, and the excess risk ends at {excess_b} — at the preset's k = {ka} they were {clip_a}, {sigma_a} and {excess_a}: " +
			"a larger k, a stronger assumption on the tails, puts C lower; {clipped%} of the gradients are clipped at either k.",
		caption: "A larger k, a stronger assumption on the tails, puts the clip threshold lower: from k = {ka} to k = {kb}, C falls from {clip_a} to {clip_b}, σ from {sigma_a} to {sigma_b} and the excess risk from {excess_a} to {excess_b}; " +
			"{clipped%} of the gradients are clipped at either k.",
		text: "Linear regression with multivariate-t data, ν = {nu}: r̃_k exists for k < ν/2 only. The clip threshold C = r̃_k·(εn/√(dT))^{1/k} is where the analysis balances clipping bias (at most r̃_k^k/((k−1)C^{k−1})) against noise (σ ∝ C/(εn)); a larger k — a stronger assumption on the tails — puts it lower. " +
			"Step k with ← → and press r: from k = {ka} to k = {kb}, C falls from {clip_a} to {clip_b}, σ from {sigma_a} to {sigma_b} ({sigma_ratio×} less noise), and the excess risk from {excess_a±} to {excess_b±} ({trials#} trials at n = {n}). " +
			"The clipping panel shows why the bias is affordable: C sits above every gradient norm of the batches ({clipped%} clipped) — by Markov's inequality the prescription clips a fraction at most √(dT)/(εn) = {markov} whatever k. " +
			"k = {kc#} is refused: r̃_k = ∞ for k ≥ ν/2 = {kmax}, the assumption would be false.",
	},
	{
		Title:   "k → ∞ recovers the Lipschitz rate",
		Spec:    spec.Spec{Scenario: scenarios.AffineHard, Class: theory.NonsmoothConvex, K: 2, N: 10000, Trials: 4},
		Focus:   "k",
		Action:  "none (bounds only)",
		next:    "press → on k until k = ∞, then read the theorem panel: " + TheoremKeys,
		caption: "At k = ∞ the paper's rate is the Lipschitz rate L_f·D·(1/√n + √(d ln n)/(εn)): the theorem panel shows it (" + TheoremKeys + "). Nothing runs on loading (the bounds are the point); a run at this n is budget-capped and ends at the start line.",
		text: "The convex lower-bound instance, scaled so that r̃_k = 1 for the k it is built for. Step k with → and read the theorem panel (" + TheoremKeys + "), whose rates have their constants set to 1 (shapes, not levels): at k = 2 the paper's upper rate is {upper_k2}, its privacy term (√(d ln n)/(εn))^{1/2} dominating; " +
			"at k = ∞, where r̃_∞ = L_f, it is L_f·D·(1/√n + √(d ln n)/(εn)) = {upper_inf} — the rate of Lipschitz DP-SCO, L_f·D·(1/√n + √d/(εn)), which the theorem panel lists as prior work's ({prior_inf}), up to the factor √(ln n) in the privacy term. " +
			"Nothing runs on loading (the bounds are the point). r runs the localized method, but at n = {n} its full schedule is {full} gradient evaluations, {budget_ratio×} the work budget: the run is budget-capped and ends where it started ({excess}, the start line F(w₀) − F* = {w0}) — at this n the theorem's guarantee needs far more work than a demo can spend.",
	},
	{
		Title:   "Non-smooth: hinge loss with localization",
		Spec:    spec.Spec{Scenario: scenarios.HingeT, Class: theory.NonsmoothConvex, K: 4, Tail: 10, N: 1024, Trials: 4},
		Focus:   "n",
		Action:  "run (r)",
		next:    "press r; then → on n (the budget then binds)",
		nextR:   "c runs the baselines; → on n and r: the budget then binds",
		caption: "The localized method's full schedule fits the work budget at n = {n}: localized's excess risk falls from {w0} at the start to {loc}. c runs the baselines beside it on the same draws.",
		afterC: "The localized method's full schedule fits the work budget at n = {n}: localized falls from {w0} at the start to {loc}, close to nonprivate-schedule, the same schedule without clipping or noise ({sgd}); " +
			"dp-sgd, epochs of Poisson batches, ends at {dpsgd}, {dpsgd_ratio×} below localized: on these data the paper's method is not the best private one. lipschitz-dpsgd and klz-gd refuse (the legend says why).",
		text: "A linear SVM on Student-t features (ν = {nu}). The localized noisy clipped subgradient method runs ⌊log₂ n⌋ = {phases#} phases on halving batches, each a regularized problem solved by noisy clipped subgradient steps inside a shrinking ball, clipping the loss part only and calibrated with r̃_{2k} (so 2k < ν). " +
			"Its work grows like n^{2+1/k}·ln n: at n = {n} and k = {k} the theorem's full schedule ({evals} gradient evaluations per trial) fits the work budget ({budget}), and the excess risk falls from {w0} at w = 0 to {loc±} — close to the non-private run of the same schedule (nonprivate-schedule: {sgd±}). " +
			"c runs the baselines on the same draws: dp-sgd (epochs of Poisson batches, PLD accountant) ends at {dpsgd±}, {dpsgd_ratio×} below localized — on these data the paper's method is not the best private one; lipschitz-dpsgd (L_f = ∞) and klz-gd refuse. " +
			"A larger n makes the budget bind: the theorem panel then says so.",
	},
	{
		Title:  "LASSO under proximal-PL",
		Spec:   spec.Spec{Scenario: scenarios.LassoT, Class: theory.PPL, N: 1000000, Trials: 8},
		Focus:  "eps",
		Action: "run (r)",
		next:   "press r, then ← or → on ε and r again",
		nextR:  "← or → on ε and r again, or v to sweep ε",
		caption: "prox-sgd (noisy clipped proximal SGD) falls geometrically to the noise floor, {excess} over {trials#} trials. " +
			"The theorem's bound has a privacy term that moves like ε^(−(2k−2)/k): a rate of the bound, not a law of the floor — v sweeps ε and measures the floor's own slope.",
		text: "Sparse linear regression with an ℓ1 penalty: not strongly convex, but proximal-PL. prox-sgd, noisy clipped proximal SGD ({iters#} steps on disjoint batches), soft-thresholds after each noisy clipped gradient step: " +
			"the excess risk falls geometrically from {w0} at w = 0 to the noise floor, {excess±} on average over {trials#} trials. " +
			"Step ε with ← → to move the floor: the privacy term of the theorem's rate scales like (√d·κ·ln n/(εn))^{(2k−2)/k} (the theorem panel — " + TheoremKeys + " — shows its rates with their constants set to 1: shapes, not levels).",
	},
	{
		Title:   "The lower bound's hard instance",
		Spec:    spec.Spec{Scenario: scenarios.MeanHard, Class: theory.SmoothSC, N: 10000, Trials: 8},
		Focus:   "n",
		Screen:  "sweep",
		Action:  "sweep of n (s)",
		next:    "the n sweep runs on loading; then v sweeps ε",
		caption: "On the lower bound's instance the excess risk falls with slope {slope} in n, the lower bound's rate ({lower_slope}); doing nothing falls as fast here, and the private run ends {above_lo%}–{above_hi%} above it at every n: no private method can do much better.",
		sweepCaptions: map[runs.ScreenKind]string{"sweep-eps": "The ε sweep rebuilds the hard instance at each ε — its p = √d/(n√ρ), capped at one, grows as ε falls — so doing nothing moves too: w₀ falls from {eps_w0_from} at ε = {eps_from} to {eps_w0_to} at ε = {eps_to}. " +
			"The private run's mean ends {eps_above_lo%}–{eps_above_hi%} above w₀ at every ε, no better than doing nothing; its slope in ε is {eps_slope}, the lower bound's {eps_lower_slope}: this instance's slope, as in n."},
		text: "The distribution behind the strongly convex lower bound (" + theory.Cite("eq:harddist") + "): x = 0 with probability 1 − p and a large point otherwise, p = min(1, √d/(n√ρ)). " +
			"Loading sweeps n from {n_from#} to {n} ({points#} points, {trials#} trials each): the excess risk of noisy clipped SGD (clipped-sgd) falls with slope {slope} (95% interval {slope_lo} … {slope_hi}), the lower bound's rate (its slope over the grid: {lower_slope}); the upper bound's slope is {upper_slope} (its log factor). " +
			"Bounds carry constants set to 1, so a run may sit below the lower bound's value: the rate is the claim. " +
			"The slope table's verdict flags every point: the certificate is at or above w₀ here, so the upper bound promises nothing at these n — the slope is this instance's. Doing nothing is near-optimal here too: the domain shrinks with n, so the start line w₀ also falls like 1/n, and the private run ends {above_lo%}–{above_hi%} above it at every n ({last} against {last_w0} at n = {n}) — no private algorithm can beat it by more than a constant factor on this instance, which is what the lower bound says.",
	},
	{
		Title:    "What the constants cost: prescribed, tuned, oracle",
		Spec:     spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, N: 10000, Trials: 5},
		Focus:    "n",
		Screen:   "tune",
		Action:   "private tuning (g)",
		next:     "the search runs on loading; then ← on n three times (n = {n_small})",
		step:     spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, N: 1000, Trials: 5},
		stepNext: "→ on n three times goes back to n = {n}",
		stepCaption: "At n = {n_small} the search scores on {nvalid_small#} rows: it ends at {tuned_small}, {small_ratio×} below the prescription's {prescribed_small} (by more than two standard errors of their paired difference; the prescription is no better than doing nothing, w₀ {w0_small}), " +
			"and {small_oracle_ratio×} above the oracle's pick (not private) {oracle_small}: tuning still pays, but with so few rows to score on it tells candidates apart only coarsely.",
		caption: "The theorem's constants leave clipped-sgd at {prescribed}, no better than doing nothing (w₀ {w0}); a private search over C, step and T, its whole cost inside ε' = {eps}, ends at {tuned}, {w0_ratio×} below w₀; the oracle's pick (not private) {oracle}.",
		text: "Noisy clipped SGD (clipped-sgd) on heavy-tailed linear regression (multivariate t, ν = {nu}, n = {n}, ε = {epsilon}, {trials#} trials). The theorem prescribes C = {clip}, step {step}, T = {iters#} from constants that guard the worst case (r̃_k over the whole ball W): nothing is clipped, and the noise leaves the excess risk at {prescribed±}, no better than doing nothing ({w0} at w₀). " +
			"Loading runs what dpso tune runs: a private random search — K random candidates (geometric, mean {k_mean}) from a grid of C, step and T, each trained on {ntrain#} rows with ρ_Q = {rho_q} and scored privately on the other {nvalid#} — and releases the best; Papernot & Steinke's accounting puts the whole search at ε' = {eps} (δ = {delta}), the budget itself: one candidate alone is ε' = {eps1}, the whole search's ε' {overhead} above it. " +
			"It ends at {tuned±}, {w0_ratio×} below w₀ — the yardstick here, since the prescription does no better than doing nothing; the oracle-tuned reference — the grid's best point by the true excess risk at the full budget, which no private procedure can read — ends at {oracle±}. " +
			"The panel lists each trial's choice and trial 0's candidates with their noisy scores (diagnostics, not private). " +
			"At n = {n_small} (← on n) the search scores on {nvalid_small#} rows and tells candidates apart only coarsely: {tuned_small±}, below the prescription's {prescribed_small±} and w₀'s {w0_small}, while the oracle's pick reaches {oracle_small}.",
	},
	{
		Title:   "A rate in force: the certificate below w₀ at every ε",
		Spec:    spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, D: 1, Tail: 20, K: 4, N: 400000, Trials: 8},
		Focus:   "eps",
		Screen:  "sweep-eps",
		Action:  "sweep of ε (v)",
		next:    "the ε sweep runs on loading; read the slope table's verdict",
		caption: "At d = {d} and n = {n} acsa's certificate stays below w₀ ({w0}) at every ε from {eps_from} to {eps_to} (at most {cert_max}): the theorem is in force across the sweep, and the measured slope in ε is {slope} beside the upper bound's {upper_slope}.",
		text: "Heavy-tailed linear regression (multivariate t, ν = {nu}) in d = {d}, at n = {n}: a size where the paper's explicit-constant bound for noisy clipped AC-SA (acsa), the certificate, is below the start line w₀ = {w0} — doing nothing — at every ε of the sweep (from {cert_min} to {cert_max}), so the theorem promises something at each point and the slope table's verdict is that it is in force. " +
			"Loading sweeps ε from {eps_from} to {eps_to} ({points#} points, {trials#} trials each): the excess risk falls with slope {slope} (95% interval {slope_lo} … {slope_hi}); the upper bound's slope over the same grid is {upper_slope} — a ceiling's shape, its statistical term flat in ε — and the lower bound's {lower_slope}. " +
			"The runs end far below the certificate (the bound guards the worst case its constants allow): in force means promised, not attained.",
	},
}

// IndexOfTitle is the index of the preset titled exactly title (−1:
// none), as a state string names it.
func IndexOfTitle(title string) int {
	for i, p := range All {
		if p.Title == title {
			return i
		}
	}
	return -1
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
