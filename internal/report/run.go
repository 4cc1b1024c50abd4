package report

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// RunJSON is the document of `dpso run --json` (and of `--dry-run --json`,
// with no trials and no excess risk); null where a value is infinite or
// does not exist. The explorer exports the same document for a run.
type RunJSON struct {
	// Citation is what reproduces the document (absent in a comparison's
	// runs and in the explorer's export).
	Citation *CitationJSON `json:"citation,omitempty"`
	Scenario *string       `json:"scenario"`
	Data     string        `json:"data,omitempty"`
	Loss     string        `json:"loss,omitempty"`
	Class    theory.Class  `json:"class"`
	Solver   string        `json:"solver"`
	Oracle   string        `json:"oracle"`
	N        int           `json:"n"`
	D        int           `json:"d"`
	K        *float64      `json:"k"`
	Eps      *float64      `json:"eps"`
	// Seed is null with secure randomness (no seed is read).
	Seed *uint64 `json:"seed"`
	// Moments is the moment assumption the prescription reads and the
	// values it uses (r_k, or the lemma's bound from γ_k); absent for the
	// default ass:tilde.
	Moments *MomentsUsedJSON `json:"moments,omitempty"`
	// Rand is the randomness: "seeded" or "secure".
	Rand string `json:"rand"`
	// Private: the solver's output is covered by its privacy guarantee;
	// NotPrivate says why not, in words, when it is not (ε = ∞, the
	// baseline nonprivate-schedule, seeded noise or estimated constants on user data).
	Private    bool             `json:"private"`
	NotPrivate []string         `json:"not_private,omitempty"`
	Params     ParamsJSON       `json:"params"`
	Privacy    PrivacyBlockJSON `json:"privacy"`
	ExcessRisk *ExcessJSON      `json:"excess_risk"`
	Trials     []TrialJSON      `json:"trials"`
	// W0Excess is F(w₀) − F*, the excess risk of doing nothing.
	W0Excess *W0JSON `json:"w0_excess"`
	// Geometry is where the empirical minimizer of user data lies
	// relative to W, Estimated the constants estimated from the rows
	// (both non-private; absent on a scenario).
	Geometry  *GeometryJSON  `json:"geometry,omitempty"`
	Estimated *EstimatedJSON `json:"estimated_constants,omitempty"`
	// Reference is the non-private reference, the empirical risk
	// minimizer's excess risk on the same draws (absent for a
	// prescription).
	Reference *ReferenceJSON `json:"nonprivate_reference,omitempty"`
	// Clipped is the fraction of per-sample gradients clipped (absent for
	// a prescription and for a solver that does not clip).
	Clipped *DiagJSON `json:"clipped,omitempty"`
	// Certificate is the paper's explicit-constant bound at the run's
	// parameters (null when none applies: the notes say why).
	Certificate *CertificateJSON `json:"certificate"`
	// Constants are the private estimates of the constants (--constants
	// private; absent otherwise).
	Constants *ConstantsJSON `json:"constants,omitempty"`
	// Holdout is the loss on user data's held-out rows (--holdout; absent
	// otherwise).
	Holdout *HoldoutJSON `json:"holdout,omitempty"`
	// BudgetCapped: the work budget cut the prescribed schedule.
	BudgetCapped bool           `json:"budget_capped,omitempty"`
	Bounds       []theory.Bound `json:"bounds"`
	Notes        []string       `json:"notes"`
	// Refused is a solver's refusal in a comparison's export (the CLI
	// reports a refusal as an error instead).
	Refused string `json:"refused,omitempty"`
}

// ParamsJSON is a prescription's parameters.
type ParamsJSON struct {
	Iters int      `json:"iters"`
	Batch int      `json:"batch"`
	Clip  *float64 `json:"clip"`
	Sigma *float64 `json:"sigma"`
	Step  *float64 `json:"step"`
	// Prescribed: the theorem's prescription is in force — false when
	// a parameter is overridden (Overridden) or the work budget cut the
	// schedule (RunJSON.BudgetCapped).
	Prescribed bool     `json:"prescribed"`
	Overridden []string `json:"overridden"`
}

// PrivacyBlockJSON is a run's privacy: its model, budget and spending.
type PrivacyBlockJSON struct {
	// Model is "zcdp" (ρ = ε²/2), "shuffle" ((ε, δ)-shuffle DP) or
	// "accountant" (dp-sgd: (ε', δ)-DP by a privacy accountant, calibrated
	// to the exact (ε', δ) of ρ = ε²/2).
	Model string `json:"model"`
	// Adjacency is the neighbouring relation of every statement of the
	// block: "replace-one" (the paper's, datasets at Hamming distance 1)
	// or "add-remove" (dp-sgd with --adjacency add-remove); absent for a
	// run that is not private.
	Adjacency  string        `json:"adjacency,omitempty"`
	Accountant string        `json:"accountant,omitempty"`
	EpsDelta   *EpsDeltaJSON `json:"eps_delta,omitempty"`
	// Target is what an accounted run's noise was calibrated to (dp-sgd):
	// the exact (ε', δ) of ρ = ε²/2 zCDP. It is not a zCDP claim, so Rho
	// and EpsExact are null there: the release is (ε', δ)-DP by the
	// accountant (EpsDelta).
	Target *TargetJSON `json:"target,omitempty"`
	// Rho, EpsExact: the zCDP ρ = ε²/2 of the release and its exact
	// (ε', δ) at Delta (null unless the model is "zcdp"; EpsExact is the
	// shuffle model's ε).
	Rho        *float64 `json:"rho"`
	Delta      *float64 `json:"delta"`
	EpsExact   *float64 `json:"eps_exact"`
	SpentRho   *float64 `json:"spent_rho"`
	SpentEps   *float64 `json:"spent_eps,omitempty"`
	SpentDelta *float64 `json:"spent_delta,omitempty"`
	// Total is what the whole call released from the same data (this
	// run's trials, or the sweep's points); a comparison's document
	// states its total once, at its top, and leaves it out of each
	// solver's run document.
	Total *TotalJSON `json:"total,omitempty"`
}

// TargetJSON is the budget an accounted run was calibrated to: ρ = ε²/2
// and the exact ε' of that zCDP at δ (the accountant's ε' is at most it);
// where private estimates of the constants spent ρ₀ first, ρ − ρ₀ and its
// exact ε' (estimate and run compose to the document's total).
type TargetJSON struct {
	Rho      *float64 `json:"rho"`
	Delta    *float64 `json:"delta"`
	EpsExact *float64 `json:"eps_exact"`
}

// EpsDeltaJSON is an accounted (ε', δ); EpsLower is the accountant's
// proved lower bound on the exact ε' (PLD), null when it gives none.
type EpsDeltaJSON struct {
	Eps      *float64 `json:"eps"`
	Delta    *float64 `json:"delta"`
	EpsLower *float64 `json:"eps_lower"`
	// PriorRho is the ρ₀ of the private constants' zCDP release composed
	// into Eps (the steps after it: accountant.AfterZCDPMechanismEpsilon),
	// null when Eps is the steps' alone; EpsLower is then the steps' own.
	PriorRho *float64 `json:"prior_rho"`
}

// ExcessJSON is the excess risk's mean ± standard error, with the median
// and quartiles of the trials beside them (engine.Estimate), and how it is
// measured.
type ExcessJSON struct {
	Mean       *float64 `json:"mean"`
	Stderr     *float64 `json:"stderr"`
	Median     *float64 `json:"median"`
	Q1         *float64 `json:"q1"`
	Q3         *float64 `json:"q3"`
	Kind       string   `json:"kind"`
	Method     string   `json:"method"`
	EvalStderr *float64 `json:"eval_stderr"`
	// Private: the excess risk is a function of the private output alone
	// (a scenario's population risk); false on user data, where it is
	// measured on the private rows (Note says so).
	Private bool   `json:"private"`
	Note    string `json:"note,omitempty"`
	// VsW0 is W0Verdict of the mean against F(w₀) − F* ("" when at or
	// below it).
	VsW0 string `json:"vs_w0"`
}

// TrialJSON is one trial.
type TrialJSON struct {
	Trial      int      `json:"trial"`
	Seed       *uint64  `json:"seed"` // null with secure randomness
	ExcessRisk *float64 `json:"excess_risk"`
	// ExcessPrivate is ExcessJSON.Private for this trial's excess risk
	// (w, the output, is the private release).
	ExcessPrivate bool       `json:"excess_risk_private"`
	W             []*float64 `json:"w,omitempty"`
}

// paramsOf is the JSON of a prescription.
func paramsOf(p solvers.Params) ParamsJSON {
	ov := p.Overridden
	if ov == nil {
		ov = []string{}
	}
	return ParamsJSON{Iters: p.Iters, Batch: p.Batch, Clip: theory.JSONNum(p.Clip), Sigma: theory.JSONNum(p.Sigma), Step: theory.JSONNum(p.Step),
		Prescribed: p.Prescribed, Overridden: ov}
}

// privacyOf is the privacy block of a run: its model (zcdp, shuffle,
// accountant, or none for a run that is not private: ε = ∞ or the
// non-private baseline nonprivate-schedule, whose ledger budget is infinite), the budget
// and, for a run, the largest spent cost over trials (nil for a
// prescription). The (ε', δ) equivalent is stated at the run's δ
// (pv.Delta; conv when the budget has none).
func privacyOf(pv spec.Privacy, conv float64, private bool, spent *privacySpent, rho0 float64) PrivacyBlockJSON {
	if pv.Model != spec.Shuffle && pv.Delta > 0 {
		conv = pv.Delta
	}
	switch {
	case !private:
		return PrivacyBlockJSON{Model: "none", Delta: theory.JSONNum(conv)}
	case pv.Model == spec.Shuffle:
		j := PrivacyBlockJSON{Model: "shuffle", Adjacency: pv.Adjacency, Delta: theory.JSONNum(pv.Delta), EpsExact: theory.JSONNum(pv.Eps)}
		if spent != nil {
			j.SpentEps, j.SpentDelta = theory.JSONNum(spent.eps), theory.JSONNum(spent.delta)
		}
		return j
	}
	j := PrivacyBlockJSON{Model: "zcdp", Adjacency: pv.Adjacency, Rho: theory.JSONNum(pv.Rho), Delta: theory.JSONNum(conv), EpsExact: theory.JSONNum(theory.EpsExact(pv.Eps, conv))}
	if pv.Model == spec.Accountant {
		// An accounted run (dp-sgd): its accounted (ε', δ) is eps_delta,
		// calibrated to the exact ε' of ρ at δ (target); it claims no ρ.
		j.Model, j.Accountant = "accountant", pv.AccountantName
		j.Target = &TargetJSON{Rho: j.Rho, Delta: j.Delta, EpsExact: j.EpsExact}
		j.Rho, j.EpsExact = nil, nil
		if spent != nil && spent.ev != nil {
			j.Accountant, j.Adjacency = spent.ev.Accountant, spent.ev.Adjacency
			j.EpsDelta = &EpsDeltaJSON{Eps: theory.JSONNum(spent.eps), Delta: theory.JSONNum(spent.delta), EpsLower: theory.JSONNum(spent.epsLower)}
			if spent.ev.PriorRho > 0 {
				j.EpsDelta.PriorRho = theory.JSONNum(spent.ev.PriorRho)
			}
		}
		return j
	}
	if spent != nil {
		j.SpentRho = theory.JSONNum(spent.rho)
	}
	return j
}

// privacySpent is the maximum per-sample cost over trials (the ledger's);
// ev is an accounted event of the run (dp-sgd), nil for the others, and
// epsLower the smallest accountant lower bound over trials.
type privacySpent struct {
	rho, eps, delta float64
	epsLower        float64
	ev              *ledger.Event
}

func spentOf(r *engine.Report) *privacySpent {
	sp := privacySpent{epsLower: math.NaN()}
	for _, t := range r.Trials {
		sp.rho = math.Max(sp.rho, t.Spent.Rho)
		sp.eps = math.Max(sp.eps, t.Spent.Eps)
		sp.delta = math.Max(sp.delta, t.Spent.Delta)
		for i := range t.Events {
			e := t.Events[i]
			sp.ev = &e
			if !math.IsNaN(e.EpsLower) && !(e.EpsLower >= sp.epsLower) {
				sp.epsLower = e.EpsLower
			}
		}
	}
	return &sp
}

// EpsDelta is the (ε', δ) a report's privacy block states, so that
// solvers compared side by side are visibly on equal privacy: for an
// accounted run (dp-sgd) the accountant's ε' (the largest over trials), for
// zCDP the exact ε' of ρ = ε²/2 at the run's δ, for the shuffle model its
// (ε, δ); ε' = +Inf for a run that is not private, NaN for a refusal.
func EpsDelta(r *engine.Report) (eps, delta float64) {
	pv := r.Privacy
	switch {
	case r.Refused != "":
		return math.NaN(), pv.Delta
	case !r.Private():
		return math.Inf(1), pv.Delta
	case pv.Model == spec.Accountant:
		if sp := spentOf(r); sp.ev != nil {
			return sp.eps, sp.delta
		}
	}
	return pv.EpsDelta, pv.Delta
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

func boundsOrEmpty(b []theory.Bound) []theory.Bound {
	if b == nil {
		return []theory.Bound{}
	}
	return b
}

// headerJSON is the JSON's problem part; n and d are the instance's
// (those of user data are its rows and columns).
func headerJSON(s spec.Spec, t scenarios.TheoryInputs, solver, oracleName string) RunJSON {
	j := RunJSON{Class: s.Class, Solver: solver, Oracle: oracleName, N: t.N, D: t.D,
		K: theory.JSONNum(s.K), Eps: theory.JSONNum(s.Eps), Seed: SeedJSON(s.Rand, s.Seed), Rand: s.Rand, Moments: momentsUsed(t)}
	if s.Data != "" {
		j.Data, j.Loss = s.Data, s.Loss
	} else {
		name := s.Scenario
		j.Scenario = &name
	}
	return j
}

// Run is the document of `dpso run --json` for r.
func Run(r *engine.Report, opt Options) RunJSON {
	s := r.Spec
	j := headerJSON(s, r.Theory, r.Solver, r.Oracle)
	j.Citation = opt.Citation.JSON()
	j.Params = paramsOf(r.Params)
	j.Privacy = privacyOf(r.Privacy, opt.convDelta(), r.Private(), spentOf(r), r.ConstantsRho)
	j.Privacy.Total = totalJSON(r.Total, opt.convDelta())
	j.NotPrivate = notPrivate(r)
	j.Private = len(j.NotPrivate) == 0
	dp := diagnosticPrivate(r)
	j.ExcessRisk = &ExcessJSON{Mean: theory.JSONNum(r.Excess.Mean), Stderr: theory.JSONNum(r.Excess.SE), Median: theory.JSONNum(r.Excess.Median),
		Q1: theory.JSONNum(r.Excess.Q1), Q3: theory.JSONNum(r.Excess.Q3), Kind: r.Risk.Kind,
		Method: r.Risk.Method, EvalStderr: theory.JSONNum(r.EvalSE), Private: dp, VsW0: W0Verdict(r.Excess.Mean, r.Excess.SE, r.W0.Mean)}
	if r.UserRows {
		j.ExcessRisk.Note = DiagnosticNote
	}
	j.Trials = make([]TrialJSON, len(r.Trials))
	for i, t := range r.Trials {
		tj := TrialJSON{Trial: t.Trial, Seed: SeedJSON(s.Rand, s.Seed), ExcessRisk: theory.JSONNum(t.Excess), ExcessPrivate: dp}
		if opt.EmitW {
			tj.W = make([]*float64, len(t.W))
			for c, x := range t.W {
				tj.W[c] = theory.JSONNum(x)
			}
		}
		j.Trials[i] = tj
	}
	j.W0Excess = w0JSON(r.W0, r.Risk.Method, s.Data != "")
	j.Geometry, j.Estimated = geometryJSON(r.Geometry), estimatedJSON(r.Estimated)
	j.Reference = referenceJSON(r)
	j.Clipped = clippedJSON(r)
	j.Certificate = certJSON(r.Certified, r.W0.Mean)
	j.Constants, j.Holdout = constantsJSON(r), holdoutJSON(r)
	j.BudgetCapped = r.BudgetCapped
	j.Params.Prescribed = j.Params.Prescribed && !j.BudgetCapped
	j.Bounds = boundsOrEmpty(r.Bounds)
	j.Notes = nonNil(append(append([]string{}, r.Notes...), r.RefNotes...))
	j.Refused = r.Refused
	return j
}

// Prescription is the document of `dpso run --dry-run --json` for p.
func Prescription(p *engine.Prescription, opt Options) RunJSON {
	j := headerJSON(p.Spec, p.Theory, p.Solver, p.Oracle)
	j.Citation = opt.Citation.JSON()
	j.Params = paramsOf(p.Params)
	j.Privacy = privacyOf(p.Privacy, opt.convDelta(), p.Private(), nil, 0)
	j.Privacy.Total = totalJSON(p.Total, opt.convDelta())
	j.NotPrivate = PrescriptionNotPrivate(p)
	j.Private = len(j.NotPrivate) == 0
	j.Trials = []TrialJSON{}
	j.W0Excess = w0JSON(p.W0, p.Risk.Method, p.Spec.Data != "")
	j.Geometry, j.Estimated = geometryJSON(p.Geometry), estimatedJSON(p.Estimated)
	j.Certificate = certJSON(p.Certified, p.W0.Mean)
	j.BudgetCapped = p.Params.BudgetBound
	j.Params.Prescribed = j.Params.Prescribed && !j.BudgetCapped
	j.Bounds = boundsOrEmpty(p.Bounds)
	j.Notes = nonNil(append(append([]string{}, p.Notes...), p.RefNotes...))
	return j
}

// WriteTraceCSV writes every trial's trace (`dpso run --csv`):
// trial,grad_evals,excess_risk and the citation's columns (cit nil: none).
func WriteTraceCSV(w io.Writer, r *engine.Report, cit *Citation) error {
	cw := csv.NewWriter(w)
	cw.Write(cit.csvHead([]string{"trial", "grad_evals", "excess_risk"}))
	for _, t := range r.Trials {
		for _, p := range t.Trace {
			cw.Write(cit.csvRow([]string{strconv.Itoa(t.Trial), strconv.FormatInt(p.GradEvals, 10), csvCell(p.Excess)}))
		}
	}
	cw.Flush()
	return cw.Error()
}

// problemRows are the table rows naming the problem.
func problemRows(s spec.Spec, t scenarios.TheoryInputs, solver, describe, oracleName string) [][2]string {
	name := s.Scenario
	if s.Data != "" {
		name = theory.Name(s.Data) + " (user data, " + s.Loss + " loss)"
	}
	rows := [][2]string{
		{"scenario", name},
		{"class", string(s.Class) + " (" + s.Class.Title() + ")"},
		{"solver", solver + " — " + describe},
		{"oracle", oracleText(oracleName)},
		{"n, d", fmt.Sprintf("%d, %d", t.N, t.D)},
		{"k, ε", kEpsText(s, t)},
	}
	if a := t.Assumption; a != "" && a != theory.Tilde {
		rows = append(rows, [2]string{"moments", momentsUsedText(t)})
	}
	return rows
}

// oracleText is the header's oracle: its name, and what it is when it is
// a solver's own estimate rather than a registered oracle (dp-sgd's).
func oracleText(name string) string {
	if name == oracle.NoisySumName {
		return name + " — " + oracle.NoisySumDescription
	}
	return name
}

// kEpsText is the k and privacy budget of the header: the zCDP ε, or the
// shuffle model's (ε, δ).
func kEpsText(s spec.Spec, t scenarios.TheoryInputs) string {
	if t.Shuffle {
		return fmt.Sprintf("k = %s, (ε, δ) = (%s, %s)-shuffle", n6(s.K), n6(s.Eps), n6(t.Delta))
	}
	return fmt.Sprintf("k = %s, zCDP ε = %s", n6(s.K), n6(s.Eps))
}

// momentsUsedText says which assumption's constants the prescription
// reads, and their values.
func momentsUsedText(t scenarios.TheoryInputs) string {
	k := n6(t.K)
	// At k = 2 the k-th and the second moment are one: named once.
	two := func(format string, a ...any) string {
		if t.K == 2 {
			return ""
		}
		return fmt.Sprintf(format, a...)
	}
	switch t.Assumption {
	case theory.Noncentral:
		txt := fmt.Sprintf("ass:boundednoncentral: r_%s = %s%s (sup_w (E‖∇f‖^k)^(1/k), in place of r̃_%s = %s%s)",
			k, n6(t.UsedRk), two(", r₂ = %s", n6(t.UsedR2)), k, n6(t.Rk), two(", r̃₂ = %s", n6(t.R2)))
		if t.UsedRk == t.Rk && t.UsedR2 == t.R2 {
			txt += "; the same numbers: r_k = r̃_k for this problem, or only r̃_k is a certified bound on it (dpso moments says which)"
		}
		return txt
	case theory.Coordinatewise:
		return fmt.Sprintf("ass:coordinatewise: γ_%s^(1/%s) = %s%s → r_%s ≤ %s%s (lem: comparing assumptions; in place of r̃_%s = %s%s)",
			k, k, n6(t.Gk), two(", γ₂^(1/2) = %s", n6(t.G2)), k, n6(t.UsedRk), two(", r₂ ≤ %s", n6(t.UsedR2)), k, n6(t.Rk), two(", r̃₂ = %s", n6(t.R2)))
	}
	return fmt.Sprintf("ass:tilde: r̃_%s = %s%s", k, n6(t.Rk), two(", r̃₂ = %s", n6(t.R2)))
}

// MomentsUsedJSON is the assumption a run's prescription reads and the
// values it uses in place of r̃_k and r̃₂ (absent for ass:tilde, the
// default, whose r̃_k the bounds show).
type MomentsUsedJSON struct {
	Assumption string `json:"assumption"`
	Label      string `json:"label"`
	// LabelPDF is Label as the paper's PDF numbers it ("Assumption 2").
	LabelPDF string   `json:"label_pdf"`
	Rk       *float64 `json:"rk"`
	R2       *float64 `json:"r2"`
}

func momentsUsed(t scenarios.TheoryInputs) *MomentsUsedJSON {
	if t.Assumption == "" || t.Assumption == theory.Tilde {
		return nil
	}
	return &MomentsUsedJSON{Assumption: string(t.Assumption), Label: t.Assumption.Label(), LabelPDF: theory.Cite(t.Assumption.Label()), Rk: theory.JSONNum(t.UsedRk), R2: theory.JSONNum(t.UsedR2)}
}

func writeRows(w io.Writer, rows [][2]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", r[0], r[1])
	}
	return tw.Flush()
}

// writeTail prints the bounds and the notes.
// eps is the run's ε (+Inf: not private), which says why no bound applies
// where none does (theory.NoBoundWhy).
func writeTail(w io.Writer, bounds []theory.Bound, notes []string, eps float64) error {
	fmt.Fprintln(w)
	if len(bounds) > 0 {
		if err := WriteBoundsTable(w, bounds); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(w, "No theory bound at these parameters: "+theory.NoBoundWhy(eps)+".")
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Notes:")
		for _, n := range notes {
			fmt.Fprintln(w, "  - "+n)
		}
	}
	return nil
}

// WriteRunTable writes the table of `dpso run`.
func WriteRunTable(w io.Writer, r *engine.Report, opt Options) (err error) {
	cw := citing(w)
	defer func() { err = cw.close(err) }()
	w = cw
	conv := opt.convDelta()
	s := r.Spec
	rows := problemRows(s, r.Theory, r.Solver, r.Describe, r.Oracle)
	rows = append(rows,
		[2]string{"trials", fmt.Sprintf("%d (%s)", s.Trials, RandText(s.Rand, s.Seed))},
		paramsRow(r.Params, r.BudgetCapped),
		privacyRow(s, r.Privacy, conv, r.Private(), spentOf(r), r.ConstantsRho),
		[2]string{"total", totalText(r.Total, conv)},
	)
	if row, ok := constantsRow(r); ok {
		rows = append(rows, row)
	}
	rows = append(rows, notPrivateRows(notPrivate(r))...)
	rows = append(rows, [2]string{"excess risk", excessText(r)},
		w0Row(r.W0, r.Risk.Method, s.Data != ""),
	)
	if row, ok := geometryRow(r.Geometry); ok {
		rows = append(rows, row)
	}
	if row, ok := estimatedRow(r.Estimated); ok {
		rows = append(rows, row)
	}
	if row, ok := referenceRow(r); ok {
		rows = append(rows, row)
	}
	if row, ok := holdoutRow(r); ok {
		rows = append(rows, row)
	}
	rows = append(rows, certRow(r.Certified, r.W0.Mean, r.Excess.Mean))
	if row, ok := clippedRow(r); ok {
		rows = append(rows, row)
	}
	if err := writeRows(w, rows); err != nil {
		return err
	}
	if opt.EmitW {
		for _, t := range r.Trials {
			parts := make([]string, len(t.W))
			for i, x := range t.W {
				parts[i] = theory.Plain.Format(x)
			}
			fmt.Fprintf(w, "w (trial %d) = [%s]\n", t.Trial, strings.Join(parts, ", "))
		}
	}
	return writeTail(w, r.Bounds, append(withoutGeometry(r.Notes, r.Geometry), r.RefNotes...), s.Eps)
}

// WritePrescriptionTable writes the table of `dpso run --dry-run`.
func WritePrescriptionTable(w io.Writer, p *engine.Prescription, opt Options) (err error) {
	cw := citing(w)
	defer func() { err = cw.close(err) }()
	w = cw
	conv := opt.convDelta()
	s := p.Spec
	desc := ""
	if d, ok := solvers.DescriptorOf(p.Solver); ok {
		desc = d.Solver.Describe()
	}
	rows := problemRows(s, p.Theory, p.Solver, desc, p.Oracle)
	rows = append(rows, paramsRow(p.Params, p.Params.BudgetBound), privacyRow(s, p.Privacy, conv, p.Private(), nil, 0),
		[2]string{"total", totalText(p.Total, conv)})
	rows = append(rows, notPrivateRows(PrescriptionNotPrivate(p))...)
	rows = append(rows, [2]string{"excess risk", "not run (--dry-run); " + p.Risk.Kind + ", " + p.Risk.Method},
		w0Row(p.W0, p.Risk.Method, s.Data != ""))
	if row, ok := geometryRow(p.Geometry); ok {
		rows = append(rows, row)
	}
	if row, ok := estimatedRow(p.Estimated); ok {
		rows = append(rows, row)
	}
	rows = append(rows, certRow(p.Certified, p.W0.Mean, math.NaN()))
	if err := writeRows(w, rows); err != nil {
		return err
	}
	return writeTail(w, p.Bounds, append(withoutGeometry(p.Notes, p.Geometry), p.RefNotes...), s.Eps)
}

// WriteRunJSON writes the document of `dpso run --json` for r (that of
// Run(r, opt)) byte for byte as WriteJSON would, but with --emit-w it
// streams the trials one by one: memory stays O(d) beyond the report's
// own outputs, whatever --trials × --d (10⁴ × 10⁴ numbers make gigabytes
// of JSON text).
func WriteRunJSON(w io.Writer, r *engine.Report, opt Options) error {
	if !opt.EmitW {
		return WriteJSON(w, Run(r, opt))
	}
	head := opt
	head.EmitW = false
	j := Run(r, head)
	trials := j.Trials
	j.Trials = []TrialJSON{}
	doc, err := MarshalJSON(j)
	if err != nil {
		return err
	}
	const slot = "\n  \"trials\": [],\n"
	i := bytes.Index(doc, []byte(slot))
	if i < 0 || bytes.Count(doc, []byte(slot)) != 1 {
		return fmt.Errorf("report: cannot place the trials in the run document")
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(doc[:i])
	if len(trials) == 0 {
		bw.WriteString(slot)
	} else {
		bw.WriteString("\n  \"trials\": [\n")
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("    ", "  ")
		for k, tj := range trials {
			t := r.Trials[k]
			tj.W = make([]*float64, len(t.W))
			for c, x := range t.W {
				tj.W[c] = theory.JSONNum(x)
			}
			buf.Reset()
			if err := enc.Encode(tj); err != nil {
				return err
			}
			bw.WriteString("    ")
			bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
			if k < len(trials)-1 {
				bw.WriteString(",")
			}
			bw.WriteString("\n")
			if bw.Buffered() > 1<<15 {
				if err := bw.Flush(); err != nil {
					return err
				}
			}
		}
		bw.WriteString("  ],\n")
	}
	bw.Write(doc[i+len(slot):])
	return bw.Flush()
}
