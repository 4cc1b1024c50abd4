package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/theory"
)

// TuneMethod says how a search is accounted, with its citations.
const TuneMethod = "random search with K random candidates, the best released (Papernot & Steinke, \"Hyperparameter Tuning with Renyi Differential Privacy\", ICLR 2022: Theorem 2 for K truncated negative binomial, Theorem 6 for K Poisson), each candidate of a zCDP solver ρ_Q-zCDP (training and private scoring on disjoint rows), composed in Rényi DP with the score clip's quantile (and the private constants' estimate), converted to (ε', δ) by Canonne, Kamath & Steinke 2020, Proposition 12"

// OracleNote says what the oracle-tuned reference is.
const OracleNote = "NOT private and not attainable: every grid point run at the full budget on all rows, the one with the smallest mean excess risk over the trials chosen by that excess risk (which no private procedure can read) — a reference for what the grid could give"

// TuneJSON is the document of `dpso tune --json`: the search, its
// accounting (anyone can recompute the total from candidates.rho, the
// law of K and the orders), and each solver's prescribed, tuned and
// oracle-tuned runs.
type TuneJSON struct {
	// Citation is what reproduces the document (WriteCitedJSON sets it).
	Citation *CitationJSON `json:"citation,omitempty"`
	Command  string        `json:"command"`
	Scenario *string       `json:"scenario"`
	Data     string        `json:"data,omitempty"`
	Loss     string        `json:"loss,omitempty"`
	Class    string        `json:"class"`
	N        int           `json:"n"`
	NTrain   int           `json:"n_train"`
	NValid   int           `json:"n_validation"`
	D        int           `json:"d"`
	K        *float64      `json:"k"`
	Eps      *float64      `json:"eps"`
	Trials   int           `json:"trials"`
	Seed     *uint64       `json:"seed"`
	Rand     string        `json:"rand"`
	// Search is the declared search: the grid's axes (given values, or
	// the default's rule), K's law, the validation share and the score
	// clip's quantile.
	Search  TuneSearchJSON   `json:"search"`
	Privacy TunePrivacyJSON  `json:"privacy"`
	Solvers []TuneSolverJSON `json:"solvers"`
	// Prescribed are the solvers' prescribed runs (dpso run's document,
	// in solvers' order; absent without the references).
	Prescribed []RunJSON `json:"prescribed,omitempty"`
	// Oracle says which oracle-tuned reference was computed: "full" (every
	// grid point), "coarse" (the coarse grid's points alone: dpso tune
	// --oracle-grid coarse) or "none" (without the references, or --oracle-grid
	// none). Whichever ran is NOT private (solvers[].oracle_tuned).
	Oracle string `json:"oracle"`
	// W0Excess is F(w₀) − F*, the excess risk of doing nothing.
	W0Excess *W0JSON `json:"w0_excess"`
	// BestPrivate is the call's private run with the smallest mean excess
	// risk (null when none has one).
	BestPrivate *BestPrivateJSON `json:"best_private"`
	Notes       []string         `json:"notes"`
}

// BestPrivateJSON is the call's best private run (engine.BestPrivate):
// among the solvers' tuned searches and prescribed runs, all meeting the
// same (ε', δ), the smallest mean excess risk; the runner-up and their
// paired difference (runner-up minus best, on the same draws); Apart:
// more than 2 s.e. Private is false where the choice read user rows.
type BestPrivateJSON struct {
	Solver     string          `json:"solver"`
	Run        string          `json:"run"`
	ExcessRisk EstimateJSON    `json:"excess_risk"`
	Next       *PrivateRunJSON `json:"next"`
	Difference *EstimateJSON   `json:"difference"`
	Apart      bool            `json:"apart"`
	Private    bool            `json:"private"`
	// VsW0 is W0Verdict of the best run's excess risk ("" when at or
	// below F(w₀) − F*).
	VsW0 string `json:"vs_w0"`
}

// PrivateRunJSON is one private run of a tuning call.
type PrivateRunJSON struct {
	Solver     string       `json:"solver"`
	Run        string       `json:"run"`
	ExcessRisk EstimateJSON `json:"excess_risk"`
}

// TuneSearchJSON is a search's declaration.
type TuneSearchJSON struct {
	Grid          TuneGridJSON    `json:"grid"`
	Candidates    RepetitionsJSON `json:"candidates"`
	Validation    float64         `json:"validation"`
	ScoreQuantile float64         `json:"score_quantile"`
}

// TuneGridJSON is a search's grid, axis by axis.
type TuneGridJSON struct {
	Clip   GridAxisJSON `json:"clip"`
	Step   GridAxisJSON `json:"step"`
	Iters  GridAxisJSON `json:"iters"`
	Epochs GridAxisJSON `json:"epochs"`
	Batch  GridAxisJSON `json:"batch"`
}

// GridAxisJSON is one axis: the values given, or the default's rule
// (each trial's values are in solvers[].tuned.trials[].grid).
type GridAxisJSON struct {
	Values  []float64 `json:"values,omitempty"`
	Default string    `json:"default,omitempty"`
}

// RepetitionsJSON is K's law.
type RepetitionsJSON struct {
	Distribution string   `json:"distribution"`
	Shape        *float64 `json:"shape"`
	Mean         float64  `json:"mean"`
	Gamma        *float64 `json:"gamma"`
}

// TunePrivacyJSON is a search's accounting.
type TunePrivacyJSON struct {
	Adjacency string `json:"adjacency"`
	Method    string `json:"method"`
	// Target is the budget the search (tuning included) meets: ρ = ε²/2
	// and the exact ε' of that zCDP at δ.
	Target TargetJSON `json:"target"`
	// Candidate is each candidate's ρ_Q and the exact ε' of one run at ρ_Q
	// (a zCDP solver's; dp-sgd's are its solvers[].search_privacy).
	Candidate RhoEpsJSON `json:"candidate"`
	// ScoreClipRho and ConstantsRho are the search's other releases, both
	// on the training rows: the curve adds their sum times λ.
	ScoreClipRho *float64 `json:"score_clip_rho"`
	ConstantsRho *float64 `json:"constants_rho"`
	// RDP is the search's curve; Eps its ε' at Delta (Order attains it),
	// OverheadEps = Eps − Candidate.EpsExact, the tuning's own line.
	RDP         RDPJSON       `json:"rdp"`
	Eps         *float64      `json:"eps"`
	Delta       *float64      `json:"delta"`
	Order       *float64      `json:"order"`
	OverheadEps *float64      `json:"overhead_eps"`
	Total       TuneTotalJSON `json:"total"`
}

// RhoEpsJSON is a zCDP ρ with its exact ε' at the search's δ.
type RhoEpsJSON struct {
	Rho      *float64 `json:"rho"`
	EpsExact *float64 `json:"eps_exact"`
}

// RDPJSON is a Rényi DP curve.
type RDPJSON struct {
	Orders []float64  `json:"orders"`
	Values []*float64 `json:"values"`
}

// TuneTotalJSON is the call's composition.
type TuneTotalJSON struct {
	Searches      int      `json:"searches"`
	Scope         string   `json:"scope"`
	Eps           *float64 `json:"eps"`
	Delta         *float64 `json:"delta"`
	Accountant    string   `json:"accountant"`
	PrescribedRho *float64 `json:"prescribed_rho"`
	Private       bool     `json:"private"`
	NotPrivate    []string `json:"not_private,omitempty"`
	// WithPrescribed is the searches and the prescribed runs composed on
	// the same data (absent without the references): accountant "rdp"
	// (their Rényi curves add) or "basic" (ε' and δ add). The
	// oracle-tuned reference is outside it (NotPrivate).
	WithPrescribed *WithPrescribedJSON `json:"with_prescribed,omitempty"`
}

// TuneSolverJSON is one solver's tuned and oracle-tuned runs (its
// prescribed run is TuneJSON.Prescribed's, at the same position).
type TuneSolverJSON struct {
	Solver  string `json:"solver"`
	Refused string `json:"refused,omitempty"`
	// SearchPrivacy is dp-sgd's search's accounting, each candidate by its
	// own curve (null for a zCDP solver, whose search is privacy's).
	SearchPrivacy *DPSGDSearchJSON `json:"search_privacy"`
	Tuned         *TunedJSON       `json:"tuned"`
	OracleTuned   *OracleTunedJSON `json:"oracle_tuned"`
}

// TunedJSON is the private search's result.
type TunedJSON struct {
	Private    bool          `json:"private"`
	NotPrivate []string      `json:"not_private,omitempty"`
	ExcessRisk *ExcessJSON   `json:"excess_risk"`
	Holdout    *EstimateJSON `json:"holdout,omitempty"`
	// Clipped is the released candidates' mean fraction clipped, a
	// non-private diagnostic (null for a solver that clips nothing).
	Clipped *DiagJSON        `json:"clipped"`
	Trials  []TunedTrialJSON `json:"trials"`
}

// EstimateJSON is a mean ± standard error over the trials, with the
// median and quartiles of the trials' values.
type EstimateJSON struct {
	Mean   *float64 `json:"mean"`
	Stderr *float64 `json:"stderr"`
	Median *float64 `json:"median"`
	Q1     *float64 `json:"q1"`
	Q3     *float64 `json:"q3"`
}

// CandidateJSON is a grid point (null axes are the prescription's).
type CandidateJSON struct {
	Clip   *float64 `json:"clip"`
	Step   *float64 `json:"step"`
	Iters  *int     `json:"iters"`
	Epochs *float64 `json:"epochs"`
	Batch  *int     `json:"batch"`
}

// TunedTrialJSON is one trial's search: what it released (the chosen
// candidate, its parameters and score; the score clip c_s and the private
// constants, whose releases the accounting composes; the grid, their
// post-processing) and, apart, its diagnostics.
type TunedTrialJSON struct {
	Trial      int                 `json:"trial"`
	Candidate  *CandidateJSON      `json:"candidate"`
	Params     ParamsJSON          `json:"params"`
	Score      *float64            `json:"score"`
	ScoreClip  *float64            `json:"score_clip"`
	ScoreSigma *float64            `json:"score_sigma"`
	ExcessRisk *float64            `json:"excess_risk"`
	Holdout    *float64            `json:"holdout,omitempty"`
	Constants  *ConstantsTrialJSON `json:"constants,omitempty"`
	// Clipping is what clipping did in the released candidate's run, a
	// non-private diagnostic (null where nothing was released).
	Clipping *TunedClipJSON `json:"clipping"`
	// W is the released output (--emit-w; w₀ where a Poisson search
	// released nothing).
	W       []*float64      `json:"w,omitempty"`
	Grid    []CandidateJSON `json:"grid"`
	Dropped int             `json:"dropped"`
	// DroppedWhy says why the dropped points were dropped.
	DroppedWhy []string `json:"dropped_why"`
	// Diagnostics are K, every candidate drawn and its score: the search
	// releases the best candidate only, and its guarantee covers nothing
	// more, so these are not private.
	Diagnostics SearchDiagnosticsJSON `json:"diagnostics"`
}

// SearchDiagnosticsJSON is what a search computed but does not release.
type SearchDiagnosticsJSON struct {
	Private bool       `json:"private"`
	Note    string     `json:"note"`
	K       int        `json:"k"`
	Tried   []int      `json:"tried"`
	Scores  []*float64 `json:"scores"`
	Chosen  *int       `json:"chosen"`
	// Ws are every candidate's output w in the order of Tried
	// (--emit-candidates: TuneJSON.EmitCandidates), for measuring what the selection chose among.
	Ws [][]*float64 `json:"ws,omitempty"`
}

// DiagnosticsNote says why a search's diagnostics are not private.
const DiagnosticsNote = "not released by the search, whose guarantee covers the chosen candidate only (Papernot & Steinke: the best of K runs): K and every candidate's score together are K compositions — shown for study, not private"

// OracleCoarseNote says what the coarse oracle-tuned reference is.
const OracleCoarseNote = "NOT private and not attainable: the coarse grid's points alone (each axis's ends and about half its values: ran) run at the full budget on all rows, the one with the smallest mean excess risk over the trials chosen by that excess risk (which no private procedure can read) — a reference for what the coarse grid could give; the whole grid's (--oracle-grid full) may be lower"

// OracleTunedJSON is the non-private reference.
type OracleTunedJSON struct {
	Private bool   `json:"private"`
	Note    string `json:"note"`
	// Grid is the grid it ran: "full" or "coarse" (then Ran lists the
	// grid indices run; the other points are null).
	Grid       string         `json:"grid"`
	Ran        []int          `json:"ran,omitempty"`
	Best       int            `json:"best"`
	Candidate  CandidateJSON  `json:"candidate"`
	ExcessRisk EstimateJSON   `json:"excess_risk"`
	Holdout    *EstimateJSON  `json:"holdout,omitempty"`
	Points     []EstimateJSON `json:"points"`
	// VsW0 is W0Verdict of its excess risk ("" when at or below
	// F(w₀) − F*).
	VsW0 string `json:"vs_w0"`
}

func candidateJSON(c engine.Candidate) CandidateJSON {
	j := CandidateJSON{Clip: theory.JSONNum(c.Clip), Step: theory.JSONNum(c.Step)}
	if c.Iters > 0 {
		v := c.Iters
		j.Iters = &v
	}
	if c.Epochs > 0 {
		j.Epochs = theory.JSONNum(c.Epochs)
	}
	if c.Batch > 0 {
		v := c.Batch
		j.Batch = &v
	}
	return j
}

func estJSON(e engine.Estimate) EstimateJSON {
	return EstimateJSON{Mean: theory.JSONNum(e.Mean), Stderr: theory.JSONNum(e.SE), Median: theory.JSONNum(e.Median), Q1: theory.JSONNum(e.Q1), Q3: theory.JSONNum(e.Q3)}
}

func runName(tuned bool) string {
	if tuned {
		return "tuned"
	}
	return "prescribed"
}

func bestPrivateJSON(r *engine.TuneReport) *BestPrivateJSON {
	b, ok := r.BestPrivate()
	if !ok {
		return nil
	}
	j := &BestPrivateJSON{Solver: b.Best.Solver, Run: runName(b.Best.Tuned), ExcessRisk: estJSON(b.Best.Excess), Apart: b.Apart(), Private: !r.UserRows,
		VsW0: W0Verdict(b.Best.Excess.Mean, b.Best.Excess.SE, r.W0.Mean)}
	if b.HasNext {
		j.Next = &PrivateRunJSON{Solver: b.Next.Solver, Run: runName(b.Next.Tuned), ExcessRisk: estJSON(b.Next.Excess)}
		d := estJSON(b.Diff)
		j.Difference = &d
	}
	return j
}

func axis(name string, given []float64) GridAxisJSON {
	if len(given) > 0 {
		return GridAxisJSON{Values: given}
	}
	return GridAxisJSON{Default: engine.GridRules[name]}
}

func ints(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// lawName names K's law.
func lawName(shape float64) string {
	switch {
	case math.IsInf(shape, 1):
		return "poisson"
	case shape == 0:
		return "logarithmic"
	case shape == 1:
		return "geometric"
	}
	return "truncated-negative-binomial"
}

// Tune is the document of `dpso tune --json`, without the outputs w
// (TuneJSON.EmitW sets them) and the citation (WriteCitedJSON sets it).
func Tune(r *engine.TuneReport) TuneJSON {
	s := r.Spec
	g := r.Tune.Grid
	j := TuneJSON{Command: "tune", Class: string(s.Class), N: r.N, NTrain: r.NTrain, NValid: r.NValid, D: s.D,
		K: theory.JSONNum(s.K), Eps: theory.JSONNum(s.Eps), Trials: s.Trials, Seed: SeedJSON(s.Rand, s.Seed), Rand: s.Rand,
		W0Excess: w0JSON(r.W0, r.Risk.Method, r.UserRows), Notes: nonNil(r.Notes), BestPrivate: bestPrivateJSON(r), Oracle: OracleRan(r)}
	if s.Data != "" {
		j.Data, j.Loss = s.Data, s.Loss
	} else {
		name := s.Scenario
		j.Scenario = &name
	}
	reps := r.Tune.Repetitions
	j.Search = TuneSearchJSON{
		Grid: TuneGridJSON{Clip: axis("clip", g.Clip), Step: axis("step", g.Step), Iters: axis("iters", ints(g.Iters)),
			Epochs: axis("epochs", g.Epochs), Batch: axis("batch", ints(g.Batch))},
		Candidates: RepetitionsJSON{Distribution: lawName(reps.Shape), Shape: theory.JSONNum(reps.Shape), Mean: reps.Mean, Gamma: theory.JSONNum(r.Privacy.Gamma)},
		Validation: r.Tune.Validation, ScoreQuantile: r.Tune.ScoreQuantile,
	}
	pv := r.Privacy
	j.Privacy = TunePrivacyJSON{Adjacency: "replace-one", Method: TuneMethod,
		Target:       TargetJSON{Rho: theory.JSONNum(pv.Target.Rho), Delta: theory.JSONNum(pv.Target.Delta), EpsExact: theory.JSONNum(pv.Target.EpsDelta)},
		Candidate:    RhoEpsJSON{Rho: theory.JSONNum(pv.CandidateRho), EpsExact: theory.JSONNum(pv.CandidateEps)},
		ScoreClipRho: theory.JSONNum(pv.ScoreRho), ConstantsRho: theory.JSONNum(pv.ConstantsRho),
		RDP: rdpJSON(pv.Orders, pv.RDP),
		Eps: theory.JSONNum(pv.Eps), Delta: theory.JSONNum(pv.Target.Delta), Order: theory.JSONNum(pv.Order), OverheadEps: theory.JSONNum(pv.Overhead),
		Total: TuneTotalJSON{Searches: r.Total.Searches, Scope: tuneScope(r), Eps: theory.JSONNum(r.Total.Eps), Delta: theory.JSONNum(r.Total.Delta), Accountant: totalAccountant(r.Total),
			PrescribedRho: theory.JSONNum(r.Total.PrescribedRho), Private: len(r.Total.NotPrivate) == 0, NotPrivate: r.Total.NotPrivate, WithPrescribed: withPrescribedJSON(r.Total)}}
	if pv.ConstantsRho == 0 {
		j.Privacy.ConstantsRho = nil
	}
	for _, ts := range r.Solvers {
		sj := TuneSolverJSON{Solver: ts.Solver, Refused: ts.Refused, SearchPrivacy: dpsgdSearchJSON(ts.DPSGD, pv.Target.Delta)}
		if ts.Prescribed != nil {
			rj := Run(ts.Prescribed, Options{ConvDelta: pv.Target.Delta})
			rj.Privacy.Total = nil
			if rj.ExcessRisk != nil {
				rj.ExcessRisk.VsW0 = W0Verdict(ts.Prescribed.Excess.Mean, ts.Prescribed.Excess.SE, r.W0.Mean)
			}
			j.Prescribed = append(j.Prescribed, rj)
		}
		if ts.Refused == "" {
			sj.Tuned = tunedJSON(r, ts.Tuned)
			if o := ts.Oracle; o != nil && o.Best >= 0 {
				oj := &OracleTunedJSON{Private: false, Note: OracleNote, Grid: engine.OracleFull, Best: o.Best, Candidate: candidateJSON(o.Candidate), ExcessRisk: estJSON(o.Excess), Points: []EstimateJSON{},
					VsW0: W0Verdict(o.Excess.Mean, o.Excess.SE, r.W0.Mean)}
				if o.Coarse {
					oj.Note, oj.Grid, oj.Ran = OracleCoarseNote, engine.OracleCoarse, o.Ran
				}
				if !math.IsNaN(o.Holdout.Mean) {
					h := estJSON(o.Holdout)
					oj.Holdout = &h
				}
				for _, p := range o.Points {
					oj.Points = append(oj.Points, estJSON(p))
				}
				sj.OracleTuned = oj
			}
		}
		j.Solvers = append(j.Solvers, sj)
	}
	return j
}

// OracleRan is which oracle-tuned reference r computed: "full",
// "coarse" or "none" (TuneJSON.Oracle).
func OracleRan(r *engine.TuneReport) string {
	if !r.Tune.References || r.Tune.Oracle == engine.OracleNone {
		return engine.OracleNone
	}
	if r.Tune.Oracle == engine.OracleCoarse {
		return engine.OracleCoarse
	}
	return engine.OracleFull
}

func tuneScope(r *engine.TuneReport) string {
	if r.UserRows {
		return fmt.Sprintf("the user's rows: %d searches (solvers × trials) read them; their RDP curves add", r.Total.Searches)
	}
	return fmt.Sprintf("per trial (each draws fresh data from the scenario's public distribution): %d searches (one per solver) read each draw; their RDP curves add", r.Total.Searches)
}

func tunedJSON(r *engine.TuneReport, t engine.Tuned) *TunedJSON {
	j := &TunedJSON{Private: len(r.NotPrivate) == 0, NotPrivate: r.NotPrivate, ExcessRisk: &ExcessJSON{Mean: theory.JSONNum(t.Excess.Mean), Stderr: theory.JSONNum(t.Excess.SE),
		Median: theory.JSONNum(t.Excess.Median), Q1: theory.JSONNum(t.Excess.Q1), Q3: theory.JSONNum(t.Excess.Q3), EvalStderr: theory.JSONNum(t.EvalSE),
		Kind: r.Risk.Kind, Method: r.Risk.Method, Private: !r.UserRows, VsW0: W0Verdict(t.Excess.Mean, t.Excess.SE, r.W0.Mean)}}
	if r.UserRows {
		j.ExcessRisk.Note = DiagnosticNote
	}
	if !math.IsNaN(t.Holdout.Mean) {
		h := estJSON(t.Holdout)
		j.Holdout = &h
	}
	j.Clipped = tunedClippedJSON(t, r.UserRows)
	for _, tr := range t.Trials {
		tj := TunedTrialJSON{Trial: tr.Trial, Params: paramsOf(tr.Params),
			ScoreClip: theory.JSONNum(tr.ScoreClip), ScoreSigma: theory.JSONNum(tr.ScoreSigma), ExcessRisk: theory.JSONNum(tr.Excess), Dropped: tr.Dropped, DroppedWhy: nonNil(tr.Drops.Notes()),
			Diagnostics: SearchDiagnosticsJSON{Note: DiagnosticsNote, K: tr.K, Tried: nonNilInts(tr.Tried), Scores: []*float64{}}, Clipping: tunedClipJSON(tr.Clip)}
		for _, s := range tr.Scores {
			tj.Diagnostics.Scores = append(tj.Diagnostics.Scores, theory.JSONNum(s))
		}
		if tr.Chosen >= 0 {
			c := tr.Chosen
			tj.Diagnostics.Chosen = &c
			tj.Score = theory.JSONNum(tr.Scores[c])
			cj := candidateJSON(tr.Candidate)
			tj.Candidate = &cj
		}
		if !math.IsNaN(tr.Holdout) {
			tj.Holdout = theory.JSONNum(tr.Holdout)
		}
		if tr.Constants != nil {
			cj := estimatesJSON(tr.Trial, tr.Constants)
			tj.Constants = &cj
		}
		for _, c := range tr.Grid {
			tj.Grid = append(tj.Grid, candidateJSON(c))
		}
		j.Trials = append(j.Trials, tj)
	}
	return j
}

func nonNilInts(xs []int) []int {
	if xs == nil {
		return []int{}
	}
	return xs
}

// WriteTuneTable writes the table of `dpso tune` (with opt.EmitW, each
// trial's released w after it).
func WriteTuneTable(w io.Writer, r *engine.TuneReport, opt Options) error {
	s := r.Spec
	pv := r.Privacy
	name := s.Scenario
	if s.Data != "" {
		name = s.Data + " (user data, " + s.Loss + " loss)"
	}
	reps := r.Tune.Repetitions
	law := fmt.Sprintf("%s (η = %s), mean %s", lawName(reps.Shape), n6(reps.Shape), n6(reps.Mean))
	if !math.IsNaN(pv.Gamma) {
		law += fmt.Sprintf(", γ = %s", n6(pv.Gamma))
	}
	if reps.Poisson() {
		law = fmt.Sprintf("Poisson, mean %s (K = 0 releases nothing: that trial counts w₀)", n6(reps.Mean))
	}
	var axes []string
	g := r.Tune.Grid
	for _, a := range []struct {
		name  string
		given []float64
	}{{"clip", g.Clip}, {"step", g.Step}, {"iters", ints(g.Iters)}, {"epochs", g.Epochs}, {"batch", ints(g.Batch)}} {
		if len(a.given) > 0 {
			parts := make([]string, len(a.given))
			for i, x := range a.given {
				parts[i] = n6(x)
			}
			axes = append(axes, a.name+" {"+strings.Join(parts, ", ")+"}")
		}
	}
	gridText := "default axes (see --help)"
	if len(axes) > 0 {
		gridText = strings.Join(axes, "; ") + "; other axes default"
	}
	rows := [][2]string{
		{"scenario", name},
		{"class", string(s.Class) + " (" + s.Class.Title() + ")"},
		{"n, d", fmt.Sprintf("%d (a search trains on %d, scores on %d), %d", r.N, r.NTrain, r.NValid, s.D)},
		{"k, ε", fmt.Sprintf("k = %s, zCDP ε = %s: the total budget of each search, tuning included", n6(s.K), n6(s.Eps))},
		{"trials", fmt.Sprintf("%d (%s)", s.Trials, RandText(s.Rand, s.Seed))},
		{"search", fmt.Sprintf("random search: K candidates, K ~ %s, each a grid point drawn uniformly (%s); the best private score released: the mean validation loss, each row's clipped to a window of width c_s ([0, c_s], or [ℓ₀ − c_s, ℓ₀] where its loss ℓ₀ at w₀ is above c_s; c_s the private %s-quantile of the loss at w₀), plus Gaussian noise",
			law, gridText, n6(r.Tune.ScoreQuantile))},
	}
	if zcdp, dpsgd := searchKinds(r); zcdp {
		whose := ""
		if dpsgd {
			whose = " (a zCDP solver's search; dp-sgd's below)"
		}
		rows = append(rows, [][2]string{
			{"candidate", fmt.Sprintf("ρ_Q = %s zCDP each%s (one run alone: ε' = %s at δ = %s, exact)", n6(pv.CandidateRho), whose, n6(pv.CandidateEps), n6(pv.Target.Delta))},
			{"tuning", fmt.Sprintf("the whole search's ε' is %s above one candidate's %s (a difference of two conversions at δ = %s: (ε', δ) values do not add) — the cost of choosing among K random candidates (Papernot & Steinke 2022, Thm %s) and of the score clip (ρ_s = %s)%s",
				n6(pv.Overhead), n6(pv.CandidateEps), n6(pv.Target.Delta), thmOf(reps.Poisson()), n6(pv.ScoreRho), constantsPart(pv.ConstantsRho))},
			{"privacy", fmt.Sprintf("ε' = %s at δ = %s for the whole search (Rényi DP, order %s), at most %s, the exact ε' of ρ = ε²/2 = %s: the budget given, tuning included",
				n6(pv.Eps), n6(pv.Target.Delta), n6(pv.Order), n6(pv.Target.EpsDelta), n6(pv.Target.Rho))},
		}...)
	}
	rows = append(rows, dpsgdRows(r)...)
	rows = append(rows, [2]string{"total", TuneTotalText(r)})
	rows = append(rows, notPrivateRows(r.NotPrivate)...)
	rows = append(rows, [2]string{"start point", w0Row(r.W0, r.Risk.Method, r.UserRows)[1]})
	if err := writeRows(w, rows); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SOLVER\tRUN\tEXCESS RISK\tPARAMETERS\tPRIVACY")
	for _, ts := range r.Solvers {
		if ts.Refused != "" {
			fmt.Fprintf(tw, "%s\trefused\t—\t%s\t—\n", ts.Solver, ts.Refused)
			continue
		}
		if p := ts.Prescribed; p != nil {
			if p.Refused != "" {
				fmt.Fprintf(tw, "%s\tprescribed\t—\trefused: %s\t—\n", ts.Solver, p.Refused)
			} else {
				priv := fmt.Sprintf("ρ = %s (ε' = %s)", n6(p.Privacy.Rho), n6(p.Privacy.EpsDelta))
				if p.Privacy.Model == spec.Accountant {
					e, _ := EpsDelta(p)
					priv = fmt.Sprintf("ε' = %s by its accountant (target %s)", n6(e), n6(p.Privacy.EpsDelta))
				}
				fmt.Fprintf(tw, "%s\tprescribed\t%s\t%s\t%s\n", ts.Solver, estVsW0(p.Excess, r.W0.Mean), paramsShort(p.Params.Iters, p.Params.Clip, p.Params.Step), priv)
			}
		}
		t := ts.Tuned
		chosen := "—"
		if len(t.Trials) > 0 && t.Trials[0].Chosen >= 0 {
			tr := t.Trials[0]
			chosen = tr.Candidate.Text(n6) + " (trial 0's)"
		}
		chosen += FlagMark(tunedEstimates(t))
		fmt.Fprintf(tw, "%s\ttuned\t%s\t%s\tε' = %s, tuning included\n", ts.Solver, estVsW0(t.Excess, r.W0.Mean), chosen, n6(searchEps(r, ts)))
		if o := ts.Oracle; o != nil && o.Best >= 0 {
			name := "oracle-tuned"
			if o.Coarse {
				name = fmt.Sprintf("coarse oracle (%d of %d points)", len(o.Ran), len(o.Points))
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\tNOT private: unattainable reference\n", ts.Solver, name, estVsW0(o.Excess, r.W0.Mean), o.Candidate.Text(n6))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if line := bestPrivateLine(r); line != "" {
		fmt.Fprintln(w, line)
	}
	for _, ts := range r.Solvers {
		name := "oracle-tuned"
		if ts.Oracle != nil && ts.Oracle.Coarse {
			name = "coarse oracle"
		}
		if v := TuneSolverVerdict(ts, name); ts.Refused == "" && v != "" {
			fmt.Fprintf(w, "%s %s\n", ts.Solver, v)
		}
	}
	writeTunedClipped(w, r)
	for _, ts := range r.Solvers {
		if len(ts.Tuned.Trials) > 0 && ts.Tuned.Trials[0].Dropped > 0 {
			fmt.Fprintf(w, "%s's grid (trial 0's): %s\n", ts.Solver, strings.Join(ts.Tuned.Trials[0].Drops.Notes(), "; "))
		}
	}
	if r.UserRows {
		fmt.Fprintln(w, "excess risks on your rows: "+DiagnosticNote)
	}
	for _, ts := range r.Solvers {
		if !math.IsNaN(ts.Tuned.Holdout.Mean) {
			fmt.Fprintf(w, "held-out loss (%s, tuned): %s — %s\n", ts.Solver, estText(ts.Tuned.Holdout), HoldoutNote)
		}
	}
	for _, ts := range r.Solvers {
		if txt := FlagText(tunedEstimates(ts.Tuned)); txt != "" {
			fmt.Fprintf(w, "constants (%s, tuned): %s\n", ts.Solver, txt)
		}
	}
	if opt.EmitW {
		writeTunedW(w, r)
	}
	notes := []string{"tuned: each trial's released candidate (its parameters: trial 0's); the excess risk is its mean ± s.e. over trials; the search releases that candidate only — K and the other candidates' scores (--json: diagnostics) are " + "not private"}
	if slices.ContainsFunc(r.Solvers, func(ts engine.TuneSolver) bool { return ts.Oracle != nil }) {
		if OracleRan(r) == engine.OracleCoarse {
			notes = append(notes, "coarse oracle: "+OracleCoarseNote)
		} else {
			notes = append(notes, "oracle-tuned: "+OracleNote)
		}
	}
	notes = append(notes, r.Notes...)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Notes:")
	for _, n := range notes {
		fmt.Fprintln(w, "  - "+n)
	}
	return nil
}

// searchKinds says whether the call has a zCDP solver's search (a
// refused solver's counts: the total composes it) and dp-sgd's.
func searchKinds(r *engine.TuneReport) (zcdp, dpsgd bool) {
	for _, ts := range r.Solvers {
		if ts.DPSGD != nil {
			dpsgd = true
		} else {
			zcdp = true
		}
	}
	return zcdp, dpsgd
}

func thmOf(poisson bool) string {
	if poisson {
		return "6"
	}
	return "2"
}

func constantsPart(rho0 float64) string {
	if rho0 == 0 {
		return ""
	}
	return fmt.Sprintf(" and the private constants (ρ₀ = %s; both read the training rows: the curve adds (ρ_s + ρ₀)·λ)", n6(rho0))
}

// totalAccountant names the bound of the total: "rdp" (the searches'
// Rényi curves added) or "pld" (one dp-sgd search's privacy profile).
func totalAccountant(t engine.TuneTotal) string {
	if t.Profile {
		return "pld"
	}
	return "rdp"
}

func estText(e engine.Estimate) string {
	if math.IsNaN(e.SE) {
		return n6(e.Mean)
	}
	return n6(e.Mean) + " ± " + n6(e.SE)
}

func paramsShort(T int, C, step float64) string {
	return fmt.Sprintf("C = %s, step = %s, T = %d", n6(C), n6(step), T)
}
