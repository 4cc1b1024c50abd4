package cli

import (
	"fmt"
	"math"
	"strings"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/solvers/accountant"
	"dpso/theory"

	"github.com/spf13/cobra"
)

// tuneOpts are the tune command's flags.
type tuneOpts struct {
	sf                            *specFlags
	solverList                    []string
	gridClip, gridStep, gridIters []string
	gridEpochs, gridBatch         []string
	candidates                    float64
	law                           string
	selection                     string
	validation, scoreQuantile     float64
	references, asJSON, emitW     bool
	emitCandidates                bool
	vary, oracle                  string
	from, to                      float64
	points                        int
}

func newTuneCmd(e *env) *cobra.Command {
	o := &tuneOpts{}
	cmd := &cobra.Command{
		Use:   "tune",
		Short: "Tune a solver's hyperparameters privately (random search, its cost in the budget) beside the prescribed and the oracle-tuned runs",
		Long: `tune runs a private random search over a grid of hyperparameters (the clip threshold
C, the step, T — or dp-sgd's epochs and batch) and releases the best candidate, with
the search's whole cost inside the budget: --eps is the total, tuning included.

The search (Papernot & Steinke, "Hyperparameter Tuning with Renyi Differential
Privacy", ICLR 2022): each trial's rows are split once (the split does not depend
on their values) into training rows and validation rows (--validation, default
0.1). K candidates are drawn — K random, geometric with mean 10 by default
(--candidates, --candidates-law geometric|logarithmic|poisson|η for the truncated
negative binomial with shape η) — each a grid point drawn uniformly, trained on the
training rows with ρ_Q-zCDP and scored privately on the validation rows (the mean of
the losses, each clipped to a window of width c_s — [0, c_s], or [ℓ₀ − c_s, ℓ₀] on a
row whose loss ℓ₀ at w₀ is above c_s, which then scores its gain over w₀ — plus
Gaussian noise: ρ_Q-zCDP on rows the training never reads, so a candidate is
ρ_Q-zCDP). c_s is the private --score-quantile (default
0.9) of the loss at w₀ on the training rows (ρ_s = ρ/50; AboveThreshold up a
geometric grid: above ten times the quantile with probability below 0.0066 on
any data, docs/privacy.md). The candidate with the best score is released: its
parameters, its output, its score, its excess risk — and nothing else: K and
the other candidates' scores are shown as diagnostics, not private (the
guarantee covers the best of K runs only). The search's Rényi DP is Theorem 2
(Theorem 6 for Poisson K) plus ρ_s·λ (and, with --constants private, the
estimate's ρ₀ on the same rows: (ρ_s + ρ₀)·λ), converted to (ε', δ); ρ_Q is
the largest whose search meets the exact (ε', δ) of ρ = ε²/2 — the (ε', δ)
every run of that ε states (4.37718 at ε = 1, δ = 10⁻⁵). The output gives ρ_Q,
the law of K (its γ), the Rényi curve and the total, so anyone can recompute
it. dp-sgd's search is accounted by its candidates' own Rényi curves; with
--selection-accountant pld also by its privacy profile (the best of K runs has
δ(ε₁ + ε₂) ≤ E[K]·δ_Q(ε₁), δ_Q from the candidates' PLDs; docs/privacy.md),
and its noise is calibrated to whichever bound allows less (the output says
which: search_privacy.accountant).

The grid: --grid-clip, --grid-step, --grid-iters (--grid-epochs, --grid-batch for
dp-sgd), comma-separated values; an axis left out takes its default, computed from
the constants the search reads (declared, or private with --constants private),
never from the rows: C = r̃₂·2^j, j = −6…−1 (dp-sgd r̃₂·4^j, j = −3…1; acsa
at each T the C whose step noise has norm r̃₂·2^j, j = −10…−5: C =
r̃₂·2^j·⌊n_train/T⌋·ε_Q/(2√d), ε_Q = √(2ρ_Q));
step: acsa 2β·{½, 1, 2}, clipped-sgd (1/β)·{¼, ½, 1}, dp-sgd at each point
min{1/β, D/(σ_g√T)}·{1/64, 1/16, ¼, 1} with σ_g² = min(C, r̃₂)²/B + d(zC/B)²,
others the prescribed step ·{¼, 1, 4}; T = the
prescribed T ·{½, 1, 2, 4} (acsa ·{1, 2, 4, 8}); dp-sgd 1, 2, 5 epochs at
batches round(q·n_train) for q = 1/64, ⅛; localized and localized-sc wider:
C = r̃₂·4^j, j = −3…1,
T = the prescribed T ·2^j, j = −5…2, the prescribed step ·4^j, j = 0…6
(localized) or j = −2…2 (localized-sc) (docs/tuning.md). Points a solver refuses, whose batch or T does not fit the
training rows, whose work would exceed --work-budget (their T would be cut), or
at whose batch and T no noise lets dp-sgd's search meet the budget are dropped;
the output says how many and why.

dp-sgd's candidates are not ρ_Q-zCDP: each (batch, T) of its grid runs T
Poisson-subsampled Gaussian steps at q = batch/n_train, and enters the theorem
with its own Rényi curve (replace-one), beside its private score's Gaussian
curve (a candidate draws its grid point independently of the data, so the
candidates' curve is their pointwise maximum). Each mechanism's noise multiplier
is the smallest for a search of it alone, all raised by one factor until the
whole search meets the target; the output lists them (search_privacy). A search
is stated under replace-one adjacency: --adjacency add-remove is refused.

Beside the tuned run (--references, the default on a scenario): the prescribed run
(the theorem's constants, at ρ = ε²/2 on all rows) and the oracle-tuned reference —
every grid point at the full budget on all rows, the one with the smallest mean
excess risk over the trials. The oracle reads the excess risk of every point:
it is NOT private and not attainable, and says so; it shows what the grid could
give. On --data the references read your rows too and are off unless
--references is given (the output then says the whole is not private).
--oracle-grid coarse runs the reference on the coarse grid alone (each axis's two ends
and about half its values: 12 of acsa's 72 points by default), the reference the
explorer's tuning screen shows first, labelled as the coarse grid's; --oracle-grid none
runs the prescribed run alone; --oracle-grid full (the default) every point.

--solvers a,b,c tunes every solver under the same procedure and the same total
budget, on the same draws. --vary n --from A --to B [--points P] repeats the
search at each n of a log grid: where tuning pays, and where the prescription
catches up.

Beneath the table, "best private run" names the private run — a solver's tuned
search or its prescribed run, all at the same (ε', δ) — with the smallest mean
excess risk, and says whether its lead over the next is more than 2 standard
errors of their paired difference (on --data a non-private comparison on your
rows). --emit-w prints each trial's released output w; --emit-candidates (with
--json) adds every candidate's w to the trial's diagnostics, which are not
private. The "clipped" line gives each solver's fraction of per-sample gradients
clipped, prescribed and tuned (its released candidates'; --json: tuned.clipped,
and each trial's clipping with its last batch's norm quantiles): read from the
rows outside the search's mechanism, a non-private diagnostic ("private": false),
not part of the release.

Output: a table; --json gives
  {"citation":{"version","command","rand","seed","data_sha256"},
   "command":"tune","scenario","class","n","n_train","n_validation","d","k","eps","trials","seed","rand",
   "search":{"grid":{"clip":{"values"|"default"},…},"candidates":{"distribution","shape","mean","gamma"},
             "validation","score_quantile"},
   "privacy":{"adjacency","method","target":{"rho","delta","eps_exact"},"candidate":{"rho","eps_exact"},
              "score_clip_rho","constants_rho","rdp":{"orders","values"},"eps","delta","order","overhead_eps",
              "total":{"searches","scope","eps","delta","prescribed_rho","private","not_private"}},
   "solvers":[{"solver",
               "search_privacy":{"method","mechanisms":[{"batch","sampling_rate","steps","noise_multiplier","alone"}],
                                 "score":{"rho","noise_multiplier","alone"},"scale","rdp","eps","delta","order",
                                 "dropped"}|null (dp-sgd's; null for a zCDP solver),
               "tuned":{"private","excess_risk","holdout","clipped":{"value","meaning","private":false},
                        "trials":[{"trial","candidate","params","score","score_clip",
                        "score_sigma","excess_risk","holdout","constants",
                        "clipping":{"private":false,"clipped","fed","fraction","batch":{"phase","size","threshold",
                                    "clipped","non_finite","quantile_levels","norm_quantiles"}},
                        "w" (--emit-w),"grid","dropped","dropped_why",
                        "diagnostics":{"private":false,"note","k","tried","scores","chosen","ws" (--emit-candidates)}}]},
               "oracle_tuned":{"private":false,"note","grid":"full"|"coarse","ran" (coarse),"best","candidate",
                               "excess_risk","points"}|null}],
   "prescribed":[each solver's dpso run --json document] (with the references),
   "oracle":"full"|"coarse"|"none" (the oracle-tuned reference computed),
   "w0_excess","best_private":{"solver","run","excess_risk","next","difference","apart","private"}|null,"notes"}
(with --vary n: {"command":"tune","vary":"n","points":[that document per n],"total"}).

Exit status: 0 ok; 2 invalid input; 130 on Ctrl-C; 1 other failures.`,
		Example: `  dpso tune --scenario linreg-t --class smooth-sc --n 10000 --eps 1
  dpso tune --scenario linreg-t --solvers acsa,sgd --json
  dpso tune --scenario linreg-t --class smooth-sc --grid-clip 1,2,4 --candidates 20 --candidates-law poisson
  dpso tune --scenario linreg-t --class smooth-sc --vary n --from 1000 --to 100000 --points 3
  dpso tune --data examples/linreg-t-d3.csv --class smooth-sc --lambda2 0.1 --constants private --holdout 0.2
  dpso tune --scenario linreg-t --solvers clipped-sgd,dp-sgd --n 2000 --emit-w
  dpso tune --scenario linreg-t --k 4 --n 2000000 --tail 20 --lf 10000 --trials 8 --oracle-grid coarse`,
	}
	fs := cmd.Flags()
	o.sf = addSpecFlags(fs, spec.Problem|spec.Data|spec.Constant|spec.Solver|spec.Runner)
	fs.StringSliceVar(&o.solverList, "solvers", nil, "tune these solvers (comma-separated) under the same procedure and budget, on the same draws (instead of --solver)")
	fs.StringSliceVar(&o.gridClip, "grid-clip", nil, "the grid's clip thresholds C (comma-separated; default r̃₂·2^j, j = −6…−1; acsa at each T the C of step noise r̃₂·2^j, j = −10…−5; dp-sgd, localized, localized-sc r̃₂·4^j, j = −3…1)")
	fs.StringSliceVar(&o.gridStep, "grid-step", nil, "the grid's step parameters (default per solver: see above)")
	fs.StringSliceVar(&o.gridIters, "grid-iters", nil, "the grid's iteration counts T (default the prescribed T ·{½, 1, 2, 4}; acsa ·{1, 2, 4, 8}; localized, localized-sc ·2^j, j = −5…2)")
	fs.StringSliceVar(&o.gridEpochs, "grid-epochs", nil, "dp-sgd: the grid's epochs (default 1, 2, 5)")
	fs.StringSliceVar(&o.gridBatch, "grid-batch", nil, "dp-sgd: the grid's expected batch sizes (default round(q·n_train) for q = 1/64, ⅛)")
	newNumFlag(fs, &o.candidates, "candidates", "the mean of K, the number of candidates (default 10; at least 1, at most 10⁴)")
	fs.StringVar(&o.law, "candidates-law", "geometric", "K's law: geometric (η = 1), logarithmic (η = 0), poisson, or a shape η ≥ 0 of the truncated negative binomial")
	fs.StringVar(&o.selection, "selection-accountant", "rdp", "dp-sgd's search: rdp (Papernot & Steinke's Rényi bound) or pld (also the privacy-profile bound from the candidates' PLDs, docs/privacy.md; the noise is calibrated to whichever allows less, and the output says which)")
	newNumFlag(fs, &o.validation, "validation", "the fraction of each dataset's rows that scores the candidates, in (0, ½] (default 0.1)")
	newNumFlag(fs, &o.scoreQuantile, "score-quantile", "the quantile of the loss at w₀ on the training rows that clips the scores, in (0, 1) (default 0.9)")
	fs.BoolVar(&o.references, "references", true, "run the prescribed and the oracle-tuned references beside the tuned run (default on a scenario; off on --data unless given)")
	fs.StringVar(&o.oracle, "oracle-grid", engine.OracleFull, "the oracle-tuned reference's grid, with --references: full (every point), coarse (the coarse grid's points alone: each axis's ends and about half its values, the explorer's first reference) or none (the prescribed run alone)")
	fs.StringVar(&o.vary, "vary", "", "n: repeat the search at each n of a log grid (--from, --to, --points)")
	newNumFlag(fs, &o.from, "from", "first n of --vary n")
	newNumFlag(fs, &o.to, "to", "last n of --vary n")
	newIntFlag(fs, &o.points, "points", 0, 2, engine.MaxSweepPoints, fmt.Sprintf("grid points of --vary n (default %d)", engine.DefaultSweepPoints))
	fs.Lookup("points").DefValue = ""
	fs.BoolVar(&o.emitW, "emit-w", false, "include each trial's released output w (JSON: solvers[].tuned.trials[].w; table: one line per solver and trial)")
	fs.BoolVar(&o.emitCandidates, "emit-candidates", false, "with --json: every candidate's output w in each trial's diagnostics (ws, in the order of tried) — NOT private: the candidates the selection did not release, a diagnostic for comparing the grid with the selection")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON (shape above)")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return o.run(e, cmd) }
	return cmd
}

// numbers parses a grid axis.
func numbers(flag string, vals []string) ([]float64, error) {
	var out []float64
	for _, v := range vals {
		x, err := theory.ParseNumber(strings.TrimSpace(v))
		if err != nil {
			return nil, usageErrorf("--%s: %s is not a number", flag, theory.Quote(v))
		}
		out = append(out, x)
	}
	return out, nil
}

func integers(flag string, vals []string) ([]int, error) {
	var out []int
	for _, v := range vals {
		x, err := spec.ParseInt(v)
		if err != nil {
			return nil, usageErrorf("--%s: %s is not an integer", flag, theory.Quote(v))
		}
		out = append(out, int(x))
	}
	return out, nil
}

// tuneRename maps the search's error fields to its flags.
var tuneRename = map[string]string{"candidates": "candidates", "validation": "validation"}

func (o *tuneOpts) validated(cmd *cobra.Command) (spec.Resolved, engine.TuneSpec, map[string]string, error) {
	var ts engine.TuneSpec
	fs := cmd.Flags()
	rename := tuneRename
	if fs.Changed("solvers") {
		if fs.Changed("solver") {
			return spec.Resolved{}, ts, rename, usageErrorf("--solver and --solvers exclude each other: give one solver, or the list")
		}
		if len(o.solverList) == 0 {
			return spec.Resolved{}, ts, rename, usageErrorf("--solvers: an empty list; give comma-separated solver names")
		}
		for i, n := range o.solverList {
			o.solverList[i] = strings.TrimSpace(n)
			if o.solverList[i] == "" {
				return spec.Resolved{}, ts, rename, usageErrorf("--solvers: an empty name in %s", theory.Quote(strings.Join(o.solverList, ",")))
			}
		}
		o.sf.spec.Solver = o.solverList[0]
		rename = map[string]string{"candidates": "candidates", "validation": "validation", "solver": "solvers"}
	}
	var err error
	if ts.Grid.Clip, err = numbers("grid-clip", o.gridClip); err != nil {
		return spec.Resolved{}, ts, rename, err
	}
	if ts.Grid.Step, err = numbers("grid-step", o.gridStep); err != nil {
		return spec.Resolved{}, ts, rename, err
	}
	if ts.Grid.Epochs, err = numbers("grid-epochs", o.gridEpochs); err != nil {
		return spec.Resolved{}, ts, rename, err
	}
	if ts.Grid.Iters, err = integers("grid-iters", o.gridIters); err != nil {
		return spec.Resolved{}, ts, rename, err
	}
	if ts.Grid.Batch, err = integers("grid-batch", o.gridBatch); err != nil {
		return spec.Resolved{}, ts, rename, err
	}
	mean := o.candidates
	if !fs.Changed("candidates") {
		mean = engine.DefaultRepetitions.Mean
	}
	var shape float64
	switch o.law {
	case "geometric":
		shape = 1
	case "logarithmic":
		shape = 0
	case "poisson":
		shape = math.Inf(1)
	default:
		x, err := theory.ParseNumber(o.law)
		if err != nil || !(x >= 0) || math.IsInf(x, 1) {
			return spec.Resolved{}, ts, rename, usageErrorf("--candidates-law: %s; want geometric, logarithmic, poisson or a finite shape η ≥ 0", theory.Quote(o.law))
		}
		shape = x
	}
	ts.Repetitions = accountant.Repetitions{Shape: shape, Mean: mean}
	ts.KeepCandidates = o.emitCandidates
	switch o.selection {
	case "rdp":
	case "pld":
		ts.SelectionPLD = true
	default:
		return spec.Resolved{}, ts, rename, usageErrorf("--selection-accountant: %s; want rdp or pld", theory.Quote(o.selection))
	}
	if err := ts.Repetitions.Check(); err != nil || mean > accountant.MaxRepetitionsMean {
		return spec.Resolved{}, ts, rename, usageErrorf("--candidates: K's mean %s; want a mean in [1, %s] (in (0, %s] for poisson)", theory.FormatNumber(mean), theory.FormatNumber(accountant.MaxRepetitionsMean), theory.FormatNumber(accountant.MaxRepetitionsMean))
	}
	if fs.Changed("validation") && !(o.validation > 0 && o.validation <= 0.5) {
		return spec.Resolved{}, ts, rename, usageErrorf("--validation: %s is outside (0, ½]", theory.FormatNumber(o.validation))
	}
	ts.Validation = o.validation
	if fs.Changed("score-quantile") && !(o.scoreQuantile > 0 && o.scoreQuantile < 1) {
		return spec.Resolved{}, ts, rename, usageErrorf("--score-quantile: %s is outside (0, 1)", theory.FormatNumber(o.scoreQuantile))
	}
	ts.ScoreQuantile = o.scoreQuantile
	ts.Solvers = o.solverList
	switch {
	case fs.Changed("vary") && o.vary != "n":
		return spec.Resolved{}, ts, rename, usageErrorf("--vary: a search is repeated over n only (want --vary n)")
	case o.vary == "n" && (!fs.Changed("from") || !fs.Changed("to")):
		return spec.Resolved{}, ts, rename, usageErrorf("--vary n needs --from and --to (2 ≤ from < to)")
	case o.vary == "n" && fs.Changed("n"):
		return spec.Resolved{}, ts, rename, usageErrorf("--n: cannot be given with --vary n, which sets it at every grid point")
	case o.vary == "" && (fs.Changed("from") || fs.Changed("to") || fs.Changed("points")):
		return spec.Resolved{}, ts, rename, usageErrorf("--from, --to and --points belong to --vary n")
	case o.oracle != engine.OracleFull && o.oracle != engine.OracleCoarse && o.oracle != engine.OracleNone:
		return spec.Resolved{}, ts, rename, usageErrorf("--oracle-grid: %s; want full, coarse or none", theory.Quote(o.oracle))
	case fs.Changed("oracle-grid") && fs.Changed("references") && !o.references:
		return spec.Resolved{}, ts, rename, usageErrorf("--oracle-grid: the oracle-tuned reference is one of the references, which --references=false leaves out")
	case o.emitCandidates && !o.asJSON:
		return spec.Resolved{}, ts, rename, usageErrorf("--emit-candidates: the candidates' outputs are written in the JSON only (add --json)")
	case o.vary != "" && o.emitCandidates:
		return spec.Resolved{}, ts, rename, usageErrorf("--emit-candidates: keeps the candidates of one search; --vary n runs one per n")
	case o.vary != "" && o.emitW:
		return spec.Resolved{}, ts, rename, usageErrorf("--emit-w: prints the released w of one search; --vary n runs one per n (run dpso tune --n N --emit-w at the n you want)")
	}
	r, _, err := resolveFlags(o.sf, rename, o.solverList)
	if err != nil {
		return r, ts, rename, err
	}
	ts.References = o.references
	if r.UserRows() && !fs.Changed("references") {
		ts.References = false
	}
	ts.Oracle = o.oracle
	return r, ts, rename, nil
}

func (o *tuneOpts) run(e *env, cmd *cobra.Command) error {
	r, ts, rename, err := o.validated(cmd)
	if err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	pctx, set, stopProgress := e.progress(ctx, "dpso tune")
	if o.vary == "n" {
		sw, err := engine.TuneOverN(pctx, r, ts, o.from, o.to, o.points, set)
		stopProgress()
		if ctx.Err() != nil {
			return errInterrupted(ctx, "dpso tune")
		}
		if err != nil {
			return userError(err, rename)
		}
		if o.asJSON {
			return report.WriteCitedJSON(e.stdout, report.TuneSweep(sw), e.citation(r.Spec, true))
		}
		return report.WriteTuneSweepTable(e.stdout, sw)
	}
	rep, err := engine.Tune(pctx, r, ts, set)
	stopProgress()
	if ctx.Err() != nil {
		return errInterrupted(ctx, "dpso tune")
	}
	if err != nil {
		return userError(err, rename)
	}
	if o.asJSON {
		j := report.Tune(rep)
		if o.emitW {
			j.EmitW(rep)
		}
		if o.emitCandidates {
			j.EmitCandidates(rep)
		}
		return report.WriteCitedJSON(e.stdout, j, e.citation(r.Spec, true))
	}
	return report.WriteTuneTable(e.stdout, rep, report.Options{EmitW: o.emitW})
}
