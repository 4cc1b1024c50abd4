package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"dpso/internal/audit"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// AuditJSON is the document of `dpso audit --json`: the headline keys
// first (oracle … violation), then the details. null where a
// value does not apply or does not exist: delta for a zCDP claim, mu_* for
// a shuffle claim's Gaussian bounds when no threshold bounds them,
// eps_lower for a zCDP oracle audit, mu_hat and mu_upper for a one-run
// audit (which has no repeated sample).
type AuditJSON struct {
	// Citation is what reproduces the document (WriteCitedJSON sets it).
	Citation  *CitationJSON `json:"citation,omitempty"`
	Oracle    string        `json:"oracle"`
	Eps       float64       `json:"eps"`
	Delta     *float64      `json:"delta"`
	Trials    int           `json:"trials"`
	MuHat     *float64      `json:"mu_hat"`
	MuLower   *float64      `json:"mu_lower"`
	MuUpper   *float64      `json:"mu_upper"`
	EpsLower  *float64      `json:"eps_lower"`
	Violation bool          `json:"violation"`

	// Audit is "oracle", "run" (a whole solver run) or "one-run".
	Audit string `json:"audit"`
	// Claim is "zcdp" (ρ = ε²/2, μ = ε GDP) or "shuffle" ((ε, δ)-DP).
	Claim string `json:"claim"`
	// Confidence is the level of every bound (1 − audit.Alpha).
	Confidence float64 `json:"confidence"`
	// MuSE is μ̂'s standard error; MuClaim the GDP μ the claim allows a
	// Gaussian mechanism; NoiseWaste = MuClaim/μ̂; EpsGauss the (ε, δ) of
	// a Gaussian mechanism with μ = μ̂ at the claimed δ (shuffle claims).
	MuSE       *float64 `json:"mu_se"`
	MuClaim    *float64 `json:"mu_claim"`
	NoiseWaste *float64 `json:"noise_waste"`
	EpsGauss   *float64 `json:"eps_gauss"`
	// NegativeControl is F (the mechanism ran at budget F·ε); 1: none.
	NegativeControl float64 `json:"negative_control"`
	// Solver is the audited solver of a whole-run audit, else null.
	Solver *string `json:"solver"`
	D      int     `json:"d"`
	// S is the batch size of an oracle audit, the samples n of a whole
	// run, the canaries m of a one-run audit.
	S      int `json:"s"`
	Groups int `json:"groups,omitempty"`
	// Pilot is the runs per input that chose the thresholds (0: none).
	Pilot int     `json:"pilot"`
	Rand  string  `json:"rand"`
	Seed  *uint64 `json:"seed"` // null with secure randomness
	// Sensitivity and Shift: the ℓ2 sensitivity the noise is calibrated to
	// and the noiseless outputs' distance (oracle audits; null otherwise).
	Sensitivity *float64 `json:"sensitivity"`
	Shift       *float64 `json:"shift"`
	// Mean0, Mean1, SD0, SD1: the projected outputs on the two inputs.
	Mean0 *float64 `json:"mean0"`
	Mean1 *float64 `json:"mean1"`
	SD0   *float64 `json:"sd0"`
	SD1   *float64 `json:"sd1"`
	// Thresholds are the tests tried; Histogram the projected outputs.
	Thresholds []AuditThresholdJSON `json:"thresholds,omitempty"`
	Histogram  *AuditHistogramJSON  `json:"histogram,omitempty"`
	// EpsClaim and Guesses are a one-run audit's (ε', δ) claim and its
	// guessing rules.
	EpsClaim *float64         `json:"eps_claim,omitempty"`
	Guesses  []AuditGuessJSON `json:"guesses,omitempty"`
	Notes    []string         `json:"notes"`
}

// AuditThresholdJSON is one threshold test and its error counts and
// bounds (see audit.Threshold).
type AuditThresholdJSON struct {
	T        float64  `json:"t"`
	FP       int64    `json:"fp"`
	FN       int64    `json:"fn"`
	FPR      float64  `json:"fpr"`
	FNR      float64  `json:"fnr"`
	FPRUpper float64  `json:"fpr_upper"`
	FNRUpper float64  `json:"fnr_upper"`
	MuLower  *float64 `json:"mu_lower"`
	MuUpper  *float64 `json:"mu_upper"`
	EpsLower *float64 `json:"eps_lower"`
}

// AuditHistogramJSON is the histogram of the projected outputs: Bins equal
// bins over [lo, hi), counts of D0 and D1, and the outputs outside.
type AuditHistogramJSON struct {
	Lo     float64  `json:"lo"`
	Hi     float64  `json:"hi"`
	Count0 []int64  `json:"count0"`
	Count1 []int64  `json:"count1"`
	Under  [2]int64 `json:"under"`
	Over   [2]int64 `json:"over"`
}

// AuditGuessJSON is one guessing rule of a one-run audit.
type AuditGuessJSON struct {
	K        int     `json:"k"`
	Correct  int     `json:"correct"`
	EpsLower float64 `json:"eps_lower"`
}

func claimName(k oracle.Kind) string {
	if k == oracle.Shuffle {
		return "shuffle"
	}
	return "zcdp"
}

// Audit is the document of an oracle or whole-run audit.
func Audit(r *audit.Result) AuditJSON {
	doc := AuditJSON{
		Oracle: r.Oracle, Eps: r.Eps, Delta: theory.JSONNum(r.Delta), Trials: r.Trials,
		MuHat: theory.JSONNum(r.MuHat), MuLower: theory.JSONNum(r.MuLower), MuUpper: theory.JSONNum(r.MuUpper),
		EpsLower: theory.JSONNum(r.EpsLower), Violation: r.Violation,
		Audit: "oracle", Claim: claimName(r.Kind), Confidence: 1 - audit.Alpha,
		MuSE: theory.JSONNum(r.MuSE), MuClaim: theory.JSONNum(r.MuClaim), NoiseWaste: theory.JSONNum(r.NoiseWaste), EpsGauss: theory.JSONNum(r.EpsGauss),
		NegativeControl: r.NegativeControl, D: r.D, S: r.S, Groups: r.Groups, Pilot: r.Pilot,
		Rand: r.Rand.String(), Seed: SeedJSON(r.Rand.String(), r.Seed), Sensitivity: theory.JSONNum(r.Sensitivity), Shift: theory.JSONNum(r.Shift),
		Mean0: theory.JSONNum(r.Mean0), Mean1: theory.JSONNum(r.Mean1), SD0: theory.JSONNum(r.SD0), SD1: theory.JSONNum(r.SD1),
		Notes: nonNil(r.Notes),
	}
	if r.Solver != "" {
		doc.Audit = "run"
		s := r.Solver
		doc.Solver = &s
	}
	for _, t := range r.Thresholds {
		doc.Thresholds = append(doc.Thresholds, AuditThresholdJSON{
			T: t.T, FP: t.FP, FN: t.FN, FPR: t.FPR, FNR: t.FNR, FPRUpper: t.FPRUpper, FNRUpper: t.FNRUpper,
			MuLower: theory.JSONNum(t.MuLower), MuUpper: theory.JSONNum(t.MuUpper), EpsLower: theory.JSONNum(t.EpsLower),
		})
	}
	if h := r.Hist; h.Bins > 0 {
		doc.Histogram = &AuditHistogramJSON{Lo: h.Lo, Hi: h.Hi, Count0: h.Count0, Count1: h.Count1, Under: h.Under, Over: h.Over}
	}
	return doc
}

// AuditOneRun is the document of a one-run audit: trials 1, no μ̂ and no
// upper bound (one run has no sample of outputs to estimate them from).
func AuditOneRun(r *audit.OneRunResult) AuditJSON {
	return AuditJSON{
		Oracle: r.Oracle, Eps: r.Eps, Delta: theory.JSONNum(r.Delta), Trials: 1,
		MuLower: theory.JSONNum(r.MuLower), EpsLower: theory.JSONNum(r.EpsLower), Violation: r.Violation,
		Audit: "one-run", Claim: claimName(r.Kind), Confidence: 1 - audit.Alpha,
		NegativeControl: r.NegativeControl, D: r.M, S: r.M, Rand: r.Rand.String(), Seed: SeedJSON(r.Rand.String(), r.Seed),
		EpsClaim: theory.JSONNum(r.EpsClaim), Guesses: guessesOf(r.Guesses), Notes: nonNil(r.Notes),
	}
}

func guessesOf(gs []audit.OneRunGuess) []AuditGuessJSON {
	out := make([]AuditGuessJSON, len(gs))
	for i, g := range gs {
		out[i] = AuditGuessJSON{K: g.K, Correct: g.Correct, EpsLower: g.EpsLower}
	}
	return out
}

// claimText is the claim in words.
func claimText(k oracle.Kind, eps, delta float64) string {
	if k == oracle.Shuffle {
		return fmt.Sprintf("(ε, δ) = (%s, %s)-DP (shuffle model)", n6(eps), n6(delta))
	}
	return fmt.Sprintf("ρ = ε²/2 = %s zCDP, i.e. μ = ε = %s Gaussian DP", n6(theory.Rho(eps)), n6(eps))
}

// pm is "x ± se".
func pm(x, se float64) string {
	if math.IsNaN(se) || math.IsInf(x, 0) {
		return n4(x)
	}
	return n4(x) + " ± " + n4(se)
}

// WriteAuditTable writes the table of `dpso audit` (an oracle or a whole
// run): what was audited, the claim, the sample, the estimates and bounds
// (each saying what it is), the verdict and the notes.
func WriteAuditTable(w io.Writer, r *audit.Result) (err error) {
	cw := citing(w)
	defer func() { err = cw.close(err) }()
	w = cw
	pct := fmt.Sprintf("%g%%", 100*(1-audit.Alpha))
	what := fmt.Sprintf("%s mean oracle, black-box on worst-case neighbouring batches (d = %d, s = %d", r.Oracle, r.D, r.S)
	if r.Groups > 0 {
		what += fmt.Sprintf(", m = %d groups", r.Groups)
	}
	what += ")"
	if r.Solver != "" {
		what = fmt.Sprintf("a complete run of %s with the %s oracle on n = %d rows (d = %d), one of them the canary; black-box on its output w", r.Solver, r.Oracle, r.S, r.D)
	}
	runs := fmt.Sprintf("%d per input (thresholds chosen on a separate pilot of %d per input); %s", r.Trials, r.Pilot, r.Rand)
	if r.Rand.String() == "seeded" {
		runs += fmt.Sprintf(" with seed %d (reproducible)", r.Seed)
	}
	rows := [][2]string{
		{"audit", what},
		{"claim", claimText(r.Kind, r.Eps, r.Delta)},
	}
	if r.NegativeControl != 1 {
		rows = append(rows, [2]string{"negative control", fmt.Sprintf("the mechanism ran at budget %s·ε (its Gaussian noise ÷ %s) while the claim stays ε: the audit must find a violation", n4(r.NegativeControl), n4(r.NegativeControl))})
	}
	rows = append(rows, [2]string{"runs", runs})
	if !math.IsNaN(r.Sensitivity) {
		rows = append(rows, [2]string{"neighbours", fmt.Sprintf("noiseless outputs %s apart; the noise is calibrated to sensitivity %s", n6(r.Shift), n6(r.Sensitivity))})
	}
	rows = append(rows,
		[2]string{"outputs (projected)", fmt.Sprintf("D0 mean %s sd %s · D1 mean %s sd %s (measured)", n4(r.Mean0), n4(r.SD0), n4(r.Mean1), n4(r.SD1))},
	)
	// On a whole run, μ below the claim is headroom at the canary's
	// position (the run's other calls add noise), not wasted noise.
	waste, wasteWhy := "noise waste", "Gaussian noise this much smaller would still keep the claim"
	if r.Solver != "" {
		waste, wasteWhy = "claim headroom", "at this canary position; not by itself wasted noise (see the notes)"
	}
	if r.Kind == oracle.Shuffle {
		rows = append(rows,
			[2]string{"ε lower bound", fmt.Sprintf("%s (one-sided %s confidence lower bound on ε at δ = %s, from %d threshold tests, Clopper–Pearson)", n4(r.EpsLower), pct, n6(r.Delta), len(r.Thresholds))},
			[2]string{"μ estimate", fmt.Sprintf("μ̂ = %s (point estimate ± s.e.: the observed noise as a Gaussian shift, its Gaussian-equivalent μ; the claim allows μ = %s)", pm(r.MuHat, r.MuSE), n4(r.MuClaim))},
		)
		if r.MuHat > 2*r.MuSE || math.IsNaN(r.MuUpper) {
			rows = append(rows,
				[2]string{"Gaussian-equivalent ε", fmt.Sprintf("%s (the ε at δ = %s of a Gaussian mechanism with μ = μ̂: what the noise actually buys; claimed %s)", n4(r.EpsGauss), n6(r.Delta), n6(r.Eps))},
				[2]string{waste, fmt.Sprintf("%s× (the claim's μ / μ̂: %s)", n4(r.NoiseWaste), wasteWhy)},
			)
		} else {
			// μ̂ cannot be told from 0: state what the upper bound proves.
			rows = append(rows,
				[2]string{"Gaussian-equivalent ε", fmt.Sprintf("≤ %s (the ε at δ = %s of a Gaussian mechanism with μ = the 95%% upper bound %s; μ̂ cannot be told from 0; claimed %s)", n4(theory.EpsExact(r.MuUpper, r.Delta)), n6(r.Delta), n4(r.MuUpper), n6(r.Eps))},
				[2]string{waste, fmt.Sprintf("≥ %s× (the claim's μ / the 95%% upper bound on μ: %s)", n4(r.MuClaim/r.MuUpper), wasteWhy)},
			)
		}
	} else {
		rows = append(rows,
			[2]string{"μ estimate", fmt.Sprintf("μ̂ = %s (point estimate ± s.e.: mean difference / pooled sd, the μ of a Gaussian shift; calibrated noise gives ≈ ε = %s)", pm(r.MuHat, r.MuSE), n6(r.Eps))},
		)
	}
	rows = append(rows,
		[2]string{"μ lower bound", fmt.Sprintf("%s (one-sided %s confidence lower bound on μ, any output distribution, from %d threshold tests, Clopper–Pearson)", n4(r.MuLower), pct, len(r.Thresholds))},
		[2]string{"μ upper bound", fmt.Sprintf("%s (one-sided %s confidence upper bound, valid when the outputs are a Gaussian shift)", n4(r.MuUpper), pct)},
		[2]string{"verdict", verdictText(r.Violation, r.Kind, r.MuLower, r.EpsLower, r.Eps)},
	)
	if err := writeRows(w, rows); err != nil {
		return err
	}
	return writeNotes(w, r.Notes)
}

// verdictText is the verdict line of a table.
func verdictText(violation bool, k oracle.Kind, muLower, epsLower, eps float64) string {
	switch {
	case violation && k == oracle.Shuffle:
		return fmt.Sprintf("VIOLATION: ε lower bound %s > claimed ε = %s (exit status 1)", n4(epsLower), n6(eps))
	case violation:
		return fmt.Sprintf("VIOLATION: μ lower bound %s > claimed ε = %s (exit status 1)", n4(muLower), n6(eps))
	case k == oracle.Shuffle:
		return fmt.Sprintf("no violation: ε lower bound %s ≤ claimed ε = %s (this does not prove the claim)", n4(epsLower), n6(eps))
	}
	return fmt.Sprintf("no violation: μ lower bound %s ≤ claimed ε = %s (this does not prove the claim)", n4(muLower), n6(eps))
}

// WriteOneRunTable writes the table of `dpso audit --one-run`.
func WriteOneRunTable(w io.Writer, r *audit.OneRunResult) (err error) {
	cw := citing(w)
	defer func() { err = cw.close(err) }()
	w = cw
	pct := fmt.Sprintf("%g%%", 100*(1-audit.Alpha))
	runs := "one run; " + r.Rand.String()
	if r.Rand.String() == "seeded" {
		runs += fmt.Sprintf(" with seed %d (reproducible)", r.Seed)
	}
	claim := claimText(r.Kind, r.Eps, r.Delta)
	if r.Kind != oracle.Shuffle {
		claim += fmt.Sprintf("; as (ε', δ)-DP at δ = %s: ε' = %s (exact, Gaussian mechanism)", n6(r.Delta), n4(r.EpsClaim))
	}
	rows := [][2]string{
		{"audit", fmt.Sprintf("one-run audit (Steinke, Nasr & Jagielski 2023) of the %s oracle: m = %d canaries with random signs in one call, d = s = m", r.Oracle, r.M)},
		{"claim", claim},
	}
	if r.NegativeControl != 1 {
		rows = append(rows, [2]string{"negative control", fmt.Sprintf("the mechanism ran at budget %s·ε while the claim stays ε: the audit should find a violation", n4(r.NegativeControl))})
	}
	rows = append(rows, [2]string{"runs", runs})
	var gs []string
	for _, g := range r.Guesses {
		gs = append(gs, fmt.Sprintf("%d/%d right → ε' ≥ %s", g.Correct, g.K, n4(g.EpsLower)))
	}
	rows = append(rows, [2]string{"sign guesses", strings.Join(gs, "; ") + " (the K largest |outputs|, each rule at level 0.05/rules)"})
	rows = append(rows, [2]string{"ε' lower bound", fmt.Sprintf("%s (one-sided %s confidence lower bound on ε' at δ = %s; the claim allows %s)", n4(r.EpsLower), pct, n6(r.Delta), n4(r.EpsClaim))})
	if !math.IsNaN(r.MuLower) {
		rows = append(rows, [2]string{"μ lower bound", fmt.Sprintf("%s (the Gaussian μ whose exact curve reaches ε' at δ: a %s lower bound on μ)", n4(r.MuLower), pct)})
	}
	v := fmt.Sprintf("no violation: ε' lower bound %s ≤ %s (this does not prove the claim)", n4(r.EpsLower), n4(r.EpsClaim))
	if r.Violation {
		v = fmt.Sprintf("VIOLATION: ε' lower bound %s > %s (exit status 1)", n4(r.EpsLower), n4(r.EpsClaim))
	}
	rows = append(rows, [2]string{"verdict", v})
	if err := writeRows(w, rows); err != nil {
		return err
	}
	return writeNotes(w, r.Notes)
}

func writeNotes(w io.Writer, notes []string) error {
	if len(notes) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Notes:")
	for _, n := range notes {
		fmt.Fprintln(w, "  - "+n)
	}
	return nil
}
