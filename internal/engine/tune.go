package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/accountant"
	privest "dpso/solvers/estimate"
	"dpso/theory"
)

// TuneSpec describes a private hyperparameter search (dpso tune): random
// search over Grid, K ~ Repetitions candidates, each trained on the first
// 1 − Validation of a trial's rows and scored privately on the rest, the
// best candidate released (Papernot & Steinke 2022). Zero fields take the
// defaults below.
type TuneSpec struct {
	// Solvers are tuned under the same procedure and the same total
	// budget, on the same draws; default the run's solver.
	Solvers []string
	Grid    TuneGrid
	// Repetitions is K's law: truncated negative binomial (Shape η ≥ 0)
	// or Poisson (Shape +Inf) with mean Mean; default DefaultRepetitions.
	Repetitions accountant.Repetitions
	// Validation is the fraction of each dataset's rows the candidates are
	// scored on (the rest train them), in (0, ½], at most
	// MaxValidationRows rows; default 0.1.
	Validation float64
	// ScoreQuantile is the quantile of the loss at w₀ over the training
	// rows that clips each candidate's score, in (0, 1); default 0.9.
	ScoreQuantile float64
	// References: also run the prescribed run and the oracle-tuned
	// reference beside the tuned one. Required on scenarios' comparisons;
	// on user data they read the rows (the oracle outside any mechanism).
	References bool
	// SelectionPLD also accounts dp-sgd's search by privacy profiles
	// (accountant.SelectionEpsilon: its candidates' profiles read off
	// their PLDs) and, where that bound allows smaller noise than
	// Papernot & Steinke's, calibrates the noise to it (DPSGDSearch.Accountant
	// says which did); the zCDP solvers' candidates have no exact profile
	// and keep the Rényi accounting.
	SelectionPLD bool
	// Oracle is the grid the oracle-tuned reference runs, with
	// References: OracleFull (the default, ""), OracleCoarse (its coarse
	// points alone, coarseGrid: the explorer's first reference) or
	// OracleNone (the prescribed run alone).
	Oracle string
	// KeepCandidates keeps every candidate's output in its trial
	// (TunedTrial.Ws; dpso tune --emit-candidates): K·d numbers a trial, off by
	// default.
	KeepCandidates bool
}

// The oracle-tuned reference's grids (TuneSpec.Oracle).
const (
	OracleFull   = "full"
	OracleCoarse = "coarse"
	OracleNone   = "none"
)

// Defaults of a TuneSpec.
var (
	// DefaultRepetitions: K geometric (η = 1) with mean 10.
	DefaultRepetitions = accountant.Repetitions{Shape: 1, Mean: 10}
)

// Defaults of a TuneSpec.
const (
	DefaultValidation    = 0.1
	DefaultScoreQuantile = 0.9
	// ScoreShare is ρ_s/ρ: the score clip's private quantile spends a
	// fiftieth of the given ρ, on the training rows (nine times the
	// validation rows: at 144 validation rows the quantile's scan still
	// finds the losses' scale, estimate.LowFail).
	ScoreShare = 0.02
	// MaxScoreClipRows caps the rows the score clip's quantile reads (the
	// first training rows of the trial's dataset, in random order).
	MaxScoreClipRows = 2_000_000
	// MaxValidationRows caps a search's validation rows (held in memory;
	// 10⁶ rows score a candidate far more finely than its noise).
	MaxValidationRows = 1_000_000
)

// TunePrivacy is the accounting of one zCDP solver's search (every such
// solver's search is the same mechanism, on the same rows; dp-sgd's is
// its DPSGDSearch, with the same Target, ScoreRho and ConstantsRho).
type TunePrivacy struct {
	// Target is the budget: the run's ρ = ε²/2 and the exact (ε', δ) of
	// that zCDP, which the whole search — tuning included — must meet.
	Target spec.Privacy
	// CandidateRho is ρ_Q, each candidate's zCDP (training and scoring
	// on disjoint rows: parallel composition); CandidateEps the exact ε'
	// of ρ_Q alone at δ (one run, no tuning).
	CandidateRho, CandidateEps float64
	// ScoreRho is ρ_s, the score clip's quantile; ConstantsRho ρ₀, the
	// private constants' estimate (0 without --constants private). Both
	// read the training rows: the search's RDP adds (ρ_s + ρ₀)·λ.
	ScoreRho, ConstantsRho float64
	// Repetitions is K's law, Gamma its γ (NaN for Poisson).
	Repetitions accountant.Repetitions
	Gamma       float64
	// Orders and RDP are the search's Rényi DP curve: Papernot &
	// Steinke's Theorem 2 (Theorem 6 for Poisson) for K runs of a ρ_Q-zCDP
	// candidate (RDP ρ_Q·λ), plus (ρ_s + ρ₀)·λ.
	Orders, RDP []float64
	// Eps is the search's ε' at δ = Target.Delta (the RDP conversion of
	// Canonne, Kamath & Steinke 2020), at Order; at most Target.EpsDelta.
	Eps, Order float64
	// Overhead is Eps − CandidateEps: what choosing among K random
	// candidates costs above one run at ρ_Q.
	Overhead float64
}

// tunePrivacy calibrates ρ_Q: the largest ρ_Q whose search meets the
// exact (ε', δ) of the run's ρ = ε²/2 (accountant.LargestRho).
func tunePrivacy(r spec.Resolved, reps accountant.Repetitions) (TunePrivacy, error) {
	t := TunePrivacy{Target: r.Privacy, Repetitions: reps, Gamma: reps.Gamma(),
		ScoreRho: ScoreShare * r.Privacy.Rho, ConstantsRho: r.ConstantsRho(), Orders: accountant.DefaultOrders()}
	fixed := t.ScoreRho + t.ConstantsRho // both read the training rows
	curve := func(rho float64) ([]float64, error) {
		base := make([]float64, len(t.Orders))
		for i, a := range t.Orders {
			base[i] = rho * a
		}
		out, err := accountant.RepeatAndSelectRDP(t.Orders, base, reps)
		if err != nil {
			return nil, err
		}
		for i, a := range t.Orders {
			out[i] += fixed * a
		}
		return out, nil
	}
	rho, err := accountant.LargestRho(curve, t.Orders, r.Privacy.EpsDelta, r.Privacy.Delta, r.Privacy.Rho)
	switch {
	case errors.Is(err, accountant.ErrNoRho) && r.Privacy.EpsDelta == 0:
		return t, &spec.SpecError{Field: "eps", Msg: fmt.Sprintf("ε = %s meets δ = %s at ε' = 0 already, and choosing among K candidates costs more than nothing: a search has no budget left for its candidates; give a larger --eps",
			theory.FormatNumber(r.Spec.Eps), theory.FormatNumber(r.Privacy.Delta))}
	case errors.Is(err, accountant.ErrNoRho):
		// Blame the law the user chose when the default law would fit.
		field := "eps"
		if reps != DefaultRepetitions {
			if _, derr := tunePrivacy(r, DefaultRepetitions); derr == nil {
				field = "candidates-law"
			}
		}
		return t, &spec.SpecError{Field: field, Msg: fmt.Sprintf("no candidate budget meets ε' = %s at δ = %s with K's law (η = %s, mean %s): choosing among K candidates costs more than the whole budget, even with candidates of ρ_Q = 10⁻¹²·ρ; give a larger --eps or a lighter --candidates-law",
			theory.Sig6.Format(r.Privacy.EpsDelta), theory.FormatNumber(r.Privacy.Delta), theory.FormatNumber(reps.Shape), theory.FormatNumber(reps.Mean))}
	case err != nil:
		return t, err
	}
	t.CandidateRho = rho
	t.CandidateEps = theory.EpsExact(math.Sqrt(2*rho), r.Privacy.Delta)
	if t.RDP, err = curve(rho); err != nil {
		return t, err
	}
	t.Eps, t.Order, err = accountant.EpsFromRDP(t.Orders, t.RDP, r.Privacy.Delta)
	if err != nil {
		return t, err
	}
	t.Overhead = t.Eps - t.CandidateEps
	return t, nil
}

// TunedTrial is one trial of one solver's private search.
type TunedTrial struct {
	Trial int
	// K is the number of candidates drawn; Tried their grid indices in
	// order and Scores their private scores (noisy windowed validation
	// losses: scoreShifts); Chosen the position in Tried of the released one (−1 when
	// K = 0: a Poisson search released nothing, and the trial counts the
	// start point w₀). The search releases the chosen candidate (its
	// parameters, output and score) only: K, Tried and the other Scores are
	// diagnostics its guarantee does not cover, to be shown as not
	// private.
	K      int
	Tried  []int
	Scores []float64
	Chosen int
	// Ws are the candidates' outputs in the order of Tried, with
	// TuneSpec.KeepCandidates: diagnostics too (the search releases
	// Ws[Chosen] only).
	Ws [][]float64
	// Candidate and Params are the released candidate's overrides and
	// parameters.
	Candidate Candidate
	Params    solvers.Params
	// ScoreClip is the private quantile c_s, the width of the scores'
	// windows (scoreShifts), ScoreSigma the scores' noise.
	ScoreClip, ScoreSigma float64
	// Excess is F(w) − F* of the released output (on user data a
	// non-private diagnostic), Holdout its held-out loss (NaN without).
	Excess, ExcessSE, Holdout float64
	// Clip is what clipping did in the released candidate's run: its
	// fraction clipped and its latest batch's gradient norms, read from
	// the training rows outside the search's mechanism — a non-private
	// diagnostic the search's guarantee does not cover, as the prescribed
	// run's are (zero when K = 0).
	Clip ClipSeen
	// Constants are the private estimates the search read (nil unless
	// --constants private).
	Constants *privest.Estimates
	// Grid is the trial's grid (its default axes scale with the
	// constants the search read), Dropped the points dropped from it
	// (Drops: why).
	Grid    []Candidate
	Dropped int
	Drops   GridDrops
	W       []float64
}

// Tuned is one solver's private search over the trials.
type Tuned struct {
	Excess  Estimate
	Holdout Estimate
	// EvalSE is the mean over trials of the evaluation sample's Monte
	// Carlo error of the released outputs' excess risks (Report.EvalSE).
	EvalSE float64
	// Clipped is the mean over trials of the released candidates'
	// fractions clipped (TunedTrial.Clip; NaN when none clips): a
	// non-private diagnostic, as Report.Clipped is.
	Clipped float64
	Trials  []TunedTrial
}

// OracleTuned is the non-private reference: every grid point run at the
// full budget on all n rows in every trial, and the point whose mean
// excess risk over the trials is smallest. Its choice reads the excess
// risk of full-budget runs (on user data the rows themselves): it is not
// private and not attainable.
type OracleTuned struct {
	// Best is the chosen grid index, Candidate its overrides (trial 0's
	// grid's values), Excess its mean ± s.e. over trials.
	Best      int
	Candidate Candidate
	Excess    Estimate
	Holdout   Estimate
	// Trials are the chosen point's excess risk in each trial, in trial
	// order (the draws the tuned and prescribed runs of the same trial
	// read: Paired compares them).
	Trials []float64
	// Points are every grid point's mean ± s.e. over trials (the grids of
	// all trials have the same points in the same order where their
	// default axes are relative to the same constants).
	Points []Estimate
	// Coarse marks the early reference of the coarse grid alone
	// (Settings.Coarse): Ran are the grid indices run in every trial
	// (coarseGrid), every other point's Estimate has N = 0 and NaN
	// values, and Best is the best of those run. A reference Tune
	// returns has run every point (Coarse false, Ran nil).
	Coarse bool
	Ran    []int
}

// TuneSolver is one solver's three runs: prescribed (the theorem's
// constants; nil without References), tuned (private, its full cost in
// TuneReport.Privacy), oracle-tuned (nil without References).
type TuneSolver struct {
	Solver     string
	Prescribed *Report
	Tuned      Tuned
	Oracle     *OracleTuned
	// DPSGD is dp-sgd's search's accounting (nil for a zCDP solver,
	// whose is TuneReport.Privacy).
	DPSGD *DPSGDSearch
	// Refused is the solver's sentence when it cannot be tuned here.
	Refused string
}

// TuneReport is a private search's result for every solver of the call.
type TuneReport struct {
	// Spec is the run (its ε the total budget); Tune the search as run
	// (defaults filled in).
	Spec    spec.Spec
	Tune    TuneSpec
	Solvers []TuneSolver
	Privacy TunePrivacy
	// N is the rows of a trial's dataset, NTrain and NValid the search's
	// split.
	N, NTrain, NValid int
	// W0 is F(w₀) − F* (see Report.W0); Risk says how excess risk is
	// measured.
	W0   Estimate
	Risk scenarios.RiskInfo
	// UserRows: the data are the user's rows. Total is what the call
	// released, composed: the searches' RDP curves add (one per solver and,
	// on user rows, per trial), converted at δ; References adds the
	// prescribed runs (ρ each) and makes it "not private" (the oracle).
	UserRows bool
	// NotPrivate says why the searches' outputs are not covered by their
	// guarantee (spec.Resolved.NotPrivate: seeded noise on user rows).
	NotPrivate []string
	Total      TuneTotal
	Notes      []string
	Elapsed    time.Duration
}

// TuneTotal is a tuning call's composed privacy.
type TuneTotal struct {
	// Searches is how many searches read the same data (solvers × trials
	// on user rows; solvers per trial on a scenario).
	Searches int
	// Eps is their composed ε' at Delta (RDP curves added, then
	// converted); Order the order attaining it. Profile: one search,
	// dp-sgd's, whose privacy-profile bound (DPSGDSearch.Eps) is below
	// its Rényi one, and Eps is that bound.
	Eps, Delta, Order float64
	Profile           bool
	// PrescribedRho is what the prescribed references spent on the same
	// data (ρ each), 0 without them; NotPrivate says why the call's
	// output as a whole is not private (the oracle-tuned reference),
	// empty when it is.
	PrescribedRho float64
	NotPrivate    []string
	// WithPrescribedEps, WithPrescribedDelta: the searches and the
	// prescribed runs composed on the same data (0 without the
	// references): their Rényi curves add (a prescribed run at ρ is
	// ρ·λ at order λ), converted at Delta; with a dp-sgd search, basic
	// composition instead (ε' and δ add: Eps + m·ε'(ρ), (m+1)·Delta for
	// m prescribed runs), WithPrescribedBasic says so. The oracle-tuned
	// reference is outside any ε (NotPrivate).
	WithPrescribedEps, WithPrescribedDelta float64
	WithPrescribedBasic                    bool
}

// resolveTune fills ts's defaults and checks it.
func resolveTune(r spec.Resolved, ts TuneSpec) (TuneSpec, []solvers.Descriptor, error) {
	if len(ts.Solvers) == 0 {
		ts.Solvers = []string{r.Solver.Name()}
	}
	if ts.Repetitions == (accountant.Repetitions{}) {
		ts.Repetitions = DefaultRepetitions
	}
	if err := ts.Repetitions.Check(); err != nil || ts.Repetitions.Mean > accountant.MaxRepetitionsMean {
		return ts, nil, &spec.SpecError{Field: "candidates", Msg: fmt.Sprintf("K's mean %s and shape %s: want a mean in [1, %s] (> 0 for Poisson) and a shape η ≥ 0",
			theory.FormatNumber(ts.Repetitions.Mean), theory.FormatNumber(ts.Repetitions.Shape), theory.FormatNumber(accountant.MaxRepetitionsMean))}
	}
	if ts.Validation == 0 {
		ts.Validation = DefaultValidation
	}
	if !(ts.Validation > 0 && ts.Validation <= 0.5) {
		return ts, nil, &spec.SpecError{Field: "validation", Msg: fmt.Sprintf("the validation fraction %s is outside (0, ½]", theory.FormatNumber(ts.Validation))}
	}
	if ts.ScoreQuantile == 0 {
		ts.ScoreQuantile = DefaultScoreQuantile
	}
	if ts.Oracle == "" {
		ts.Oracle = OracleFull
	}
	if !slices.Contains([]string{OracleFull, OracleCoarse, OracleNone}, ts.Oracle) {
		return ts, nil, &spec.SpecError{Field: "oracle-grid", Msg: fmt.Sprintf("the oracle-tuned reference's grid %s: want none, coarse or full", theory.Quote(ts.Oracle))}
	}
	if !(ts.ScoreQuantile > 0 && ts.ScoreQuantile < 1) {
		return ts, nil, &spec.SpecError{Field: "score-quantile", Msg: fmt.Sprintf("the score quantile %s is outside (0, 1)", theory.FormatNumber(ts.ScoreQuantile))}
	}
	s := r.Spec
	switch {
	case !r.Privacy.Private():
		return ts, nil, &spec.SpecError{Field: "eps", Msg: "a private search needs a finite budget (ε = ∞ tunes nothing privately)"}
	case r.Privacy.Model == spec.Shuffle:
		return ts, nil, &spec.SpecError{Field: "oracle", Msg: "a private search composes zCDP candidates in Rényi DP; the shuffle oracles state (ε, δ), which it cannot compose"}
	case s.Clip > 0 || s.Step > 0 || s.Iters > 0:
		return ts, nil, &spec.SpecError{Field: "clip", Msg: "a search sets C, the step and T from its grid: give --grid-clip, --grid-step, --grid-iters instead of --clip, --step, --iters"}
	case s.SplitBudget:
		return ts, nil, &spec.SpecError{Field: "split-budget", Msg: "a search's budget is already its total (tuning included); --split-budget does not apply"}
	}
	var ds []solvers.Descriptor
	for _, name := range ts.Solvers {
		d, ok := solvers.DescriptorOf(name)
		if !ok {
			return ts, nil, &spec.SpecError{Field: "solvers", Msg: fmt.Sprintf("unknown solver %s", theory.Quote(name))}
		}
		if slices.ContainsFunc(ds, func(e solvers.Descriptor) bool { return e.Name() == name }) {
			return ts, nil, &spec.SpecError{Field: "solvers", Msg: fmt.Sprintf("solver %s is listed twice", name)}
		}
		if !d.Baseline() && d.Class != s.Class {
			return ts, nil, &spec.SpecError{Field: "solvers", Msg: fmt.Sprintf("%s is the paper's algorithm for class %s, not %s", name, d.Class, s.Class)}
		}
		d = r.Configured(d)
		if dp, ok := d.Solver.(solvers.DPSGD); ok && dp.Adjacency != "" && dp.Adjacency != accountant.ReplaceOne.String() {
			return ts, nil, &spec.SpecError{Field: "adjacency", Msg: fmt.Sprintf("a private search states one guarantee under replace-one adjacency, the paper's (its score, score clip and constants are replace-one releases); %s is for reproducing a single dp-sgd run's published figures", theory.Quote(dp.Adjacency))}
		}
		ds = append(ds, d)
	}
	if err := checkGridAxes(ts.Grid, ds); err != nil {
		return ts, nil, err
	}
	return ts, ds, nil
}

// CheckTune reports why ts cannot run on r (a *spec.SpecError naming the
// field: ε = ∞, a shuffle oracle, a fixed C, step or T, --split-budget,
// an unknown solver or a grid axis no solver reads), or nil: what Tune
// refuses before it reads any data.
func CheckTune(r spec.Resolved, ts TuneSpec) error {
	_, _, err := resolveTune(r, ts)
	return err
}

// Tune runs the private search ts for every solver of the call on r's
// trials, on the same draws, and — with ts.References — the prescribed run
// (Compare) and the oracle-tuned reference beside it, last: set.Searched
// is given the report as soon as the private searches are done, and again
// with the prescribed runs, before the reference runs. r's budget is each
// search's total, tuning included: the candidates' ρ_Q is calibrated so
// that the search's (ε', δ) meets the exact (ε', δ) of ρ = ε²/2
// (TunePrivacy). With set.Coarse the reference runs its coarse grid first
// and set.Coarse is given that early reference (tuner.oracles); the
// report returned is the same. Progress goes to set (each candidate and
// oracle point is one step of a (solver, trial)); the context cancels.
func Tune(ctx context.Context, r spec.Resolved, ts TuneSpec, set *Settings) (*TuneReport, error) {
	start := time.Now()
	ts, ds, err := resolveTune(r, ts)
	if err != nil {
		return nil, err
	}
	pv, err := tunePrivacy(r, ts.Repetitions)
	if err != nil {
		return nil, err
	}
	in, err := scenarios.Build(ctx, r.Problem)
	if err != nil {
		return nil, err
	}
	if err := spec.CheckSamplingRate(r.Spec, in.Def().N); err != nil {
		return nil, err
	}
	n := in.Def().N
	nv := min(MaxValidationRows, max(1, int(math.Round(ts.Validation*float64(n)))))
	if n-nv < 2 {
		// On user data n is the file's rows (after --holdout), not --n.
		field := "n"
		if r.UserRows() {
			field = "data"
		}
		return nil, &spec.SpecError{Field: field, Msg: fmt.Sprintf("n = %s rows leave %s to train on after %s validation rows; a search needs at least 2", theory.FormatCount(int64(n)), theory.FormatCount(int64(n-nv)), theory.FormatCount(int64(nv)))}
	}
	rep := &TuneReport{Spec: specOf(r, in), Tune: ts, Privacy: pv, N: n, NTrain: n - nv, NValid: nv,
		W0: startExcess(in), Risk: in.RiskInfo(), UserRows: r.UserRows(), NotPrivate: r.NotPrivate(), Notes: append(slices.Clone(r.DefaultNotes), in.Notes()...)}
	rep.Notes = append(rep.Notes, givenNotes(in, ds, r.Spec.K)...)
	rep.Spec.D = in.Dim()
	t := &tuner{r: r, ts: ts, in: in, pv: pv, ds: ds, n: n, nv: nv, set: set, start: start, dpsgd: make([]*DPSGDSearch, len(ds))}
	for si, d := range ds {
		if !d.Accounted {
			continue
		}
		cfg := r.Config(0, nil)
		cfg.Context = ctx
		if t.dpsgd[si], err = dpsgdSearch(ctx, ts.Grid, in, d, n-nv, cfg, ts.Repetitions, pv, ts.SelectionPLD); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
	}
	outs, err := t.search(ctx, rep)
	if err != nil {
		return nil, err
	}
	rep.Total = tuneTotal(r, ts, pv, t.dpsgd)
	searched := func() {
		if set != nil && set.Searched != nil {
			early := *rep
			early.Solvers = slices.Clone(rep.Solvers)
			early.Elapsed = time.Since(start)
			set.Searched(&early)
		}
	}
	if ts.References {
		searched()
		cmp, err := Compare(ctx, r, ts.Solvers, set)
		if err != nil {
			return nil, err
		}
		for i := range rep.Solvers {
			rep.Solvers[i].Prescribed = cmp.Reports[i]
		}
		searched()
		if ts.Oracle != OracleNone {
			if err := t.oracles(ctx, rep, outs); err != nil {
				return nil, err
			}
		}
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// tuneTotal composes the call's searches: their RDP curves add (a zCDP
// solver's is pv's, dp-sgd's its own, on the same orders; per trial on
// user rows), converted at the run's δ.
func tuneTotal(r spec.Resolved, ts TuneSpec, pv TunePrivacy, dpsgd []*DPSGDSearch) TuneTotal {
	per := 1
	if r.UserRows() {
		per = r.Spec.Trials
	}
	m := len(dpsgd) * per
	t := TuneTotal{Searches: m, Delta: pv.Target.Delta}
	sum := make([]float64, len(pv.RDP))
	for _, s := range dpsgd {
		curve := pv.RDP
		if s != nil {
			curve = s.RDP
		}
		for i, v := range curve {
			sum[i] += float64(per) * v
		}
	}
	t.Eps, t.Order, _ = accountant.EpsFromRDP(pv.Orders, sum, pv.Target.Delta)
	if m == 1 && dpsgd[0] != nil && dpsgd[0].Eps < t.Eps {
		t.Eps, t.Profile = dpsgd[0].Eps, true
	}
	if ts.References {
		t.PrescribedRho = float64(m) * pv.Target.Rho
		t.WithPrescribedEps, t.WithPrescribedDelta = t.Eps+float64(m)*pv.Target.EpsDelta, float64(m+1)*t.Delta
		t.WithPrescribedBasic = true
		if !slices.ContainsFunc(dpsgd, func(s *DPSGDSearch) bool { return s != nil }) {
			all := make([]float64, len(sum))
			for i, v := range sum {
				all[i] = v + t.PrescribedRho*pv.Orders[i]
			}
			t.WithPrescribedEps, _, _ = accountant.EpsFromRDP(pv.Orders, all, pv.Target.Delta)
			t.WithPrescribedDelta, t.WithPrescribedBasic = t.Delta, false
		}
		what := "the draw"
		if r.UserRows() {
			what = "your rows"
		}
		oracle := "and the oracle-tuned reference chooses by the excess risk of every grid point's full-budget run"
		if ts.Oracle == OracleCoarse {
			oracle = "and the oracle-tuned reference chooses by the excess risk of its coarse grid's points' full-budget runs"
		}
		t.NotPrivate = []string{fmt.Sprintf("the references are not covered by the search's ε: each prescribed run spends its own ρ = %s on %s, %s — not private (an unattainable reference)",
			theory.Sig6.Format(pv.Target.Rho), what, oracle)}
		if ts.Oracle == OracleNone {
			t.NotPrivate = []string{fmt.Sprintf("the prescribed runs are not covered by the search's ε: each spends its own ρ = %s on %s (no oracle-tuned reference was run)", theory.Sig6.Format(pv.Target.Rho), what)}
		}
	}
	return t
}
