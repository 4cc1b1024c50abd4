package report

import (
	"fmt"
	"math"
	"strings"

	"dpso/internal/engine"
	"dpso/solvers/estimate"
	"dpso/theory"
)

// EstimatesNote is what private estimates of the constants are, and what
// holds for a prescription built on them.
const EstimatesNote = "estimates, not bounds: each is a zCDP release (its ρ in releases[]) whose clipped means are biased down by the mass above the clip, and a heavy tail admits no finite-sample upper confidence bound on a moment; the theorem's guarantee for the prescription built on them holds only if each true constant is at most its estimate"

// HoldoutNote says what the held-out loss is.
const HoldoutNote = "the mean loss on rows no solver read (the population's stand-in; NOT an excess risk: F* on those rows is unknown), computed on your rows apart from the released output: a non-private diagnostic"

// ConstantsJSON is a run's private estimates of its constants (--constants
// private): ρ₀ per trial, and each trial's estimates with the releases
// that made them.
type ConstantsJSON struct {
	Source string   `json:"source"`
	Rho0   *float64 `json:"rho0"`
	// Share is ρ₀/ρ of the per-release budget.
	Share  *float64             `json:"share"`
	Trials []ConstantsTrialJSON `json:"trials"`
	Note   string               `json:"note"`
}

// ConstantsTrialJSON is one trial's estimates (null where not estimated).
type ConstantsTrialJSON struct {
	Trial    int           `json:"trial"`
	Rows     int           `json:"rows"`
	Quantile *float64      `json:"quantile"`
	Clip     *float64      `json:"clip"`
	R2       *float64      `json:"r2"`
	Rk       *float64      `json:"rk"`
	R2k      *float64      `json:"r2k"`
	Beta     *float64      `json:"beta"`
	Mu       *float64      `json:"mu"`
	Releases []ReleaseJSON `json:"releases"`
	// Flags say which release failed or would have made the prescription
	// impossible, and what was used instead or why nothing could be (empty
	// when none).
	Flags []string `json:"flags"`
}

// ReleaseJSON is one statistic of a private estimate.
type ReleaseJSON struct {
	What   string   `json:"what"`
	Rho    *float64 `json:"rho"`
	Value  *float64 `json:"value"`
	Sigma  *float64 `json:"sigma"`
	Method string   `json:"method"`
}

func constantsJSON(r *engine.Report) *ConstantsJSON {
	if r.ConstantsRho == 0 {
		return nil
	}
	j := &ConstantsJSON{Source: "private", Rho0: theory.JSONNum(r.ConstantsRho), Share: theory.JSONNum(r.ConstantsRho / r.Privacy.Rho), Note: EstimatesNote}
	for _, t := range r.Trials {
		if t.Constants == nil {
			continue
		}
		j.Trials = append(j.Trials, estimatesJSON(t.Trial, t.Constants))
	}
	return j
}

func estimatesJSON(trial int, e *estimate.Estimates) ConstantsTrialJSON {
	tj := ConstantsTrialJSON{Trial: trial, Rows: e.Rows, Quantile: theory.JSONNum(e.Q), Clip: theory.JSONNum(e.Clip),
		R2: theory.JSONNum(e.R2), Rk: theory.JSONNum(e.Rk), R2k: theory.JSONNum(e.R2k), Beta: theory.JSONNum(e.Beta), Mu: theory.JSONNum(e.Mu),
		Flags: append([]string{}, e.Flags...)}
	for _, rel := range e.Releases {
		tj.Releases = append(tj.Releases, ReleaseJSON{What: rel.What, Rho: theory.JSONNum(rel.Rho), Value: theory.JSONNum(rel.Value), Sigma: theory.JSONNum(rel.Sigma), Method: rel.Method})
	}
	return tj
}

// HoldoutJSON is the held-out loss of a run on user data (--holdout).
type HoldoutJSON struct {
	Rows    int      `json:"rows"`
	Mean    *float64 `json:"mean"`
	Stderr  *float64 `json:"stderr"`
	W0      *float64 `json:"w0"`
	W0Err   *float64 `json:"w0_stderr"`
	Private bool     `json:"private"`
	Note    string   `json:"note"`
}

func holdoutJSON(r *engine.Report) *HoldoutJSON {
	if math.IsNaN(r.W0Holdout.Mean) {
		return nil
	}
	return &HoldoutJSON{Rows: r.HoldoutRows, Mean: theory.JSONNum(r.Holdout.Mean), Stderr: theory.JSONNum(r.Holdout.SE), W0: theory.JSONNum(r.W0Holdout.Mean), W0Err: theory.JSONNum(r.W0Holdout.SE), Note: HoldoutNote}
}

// constantsRow is the table's row of private estimates (trial 0's, with
// the range over trials when there are several).
func constantsRow(r *engine.Report) ([2]string, bool) {
	if r.ConstantsRho == 0 || len(r.Trials) == 0 || r.Trials[0].Constants == nil {
		return [2]string{}, false
	}
	e := r.Trials[0].Constants
	var rel []string
	for _, x := range e.Releases {
		what := x.What
		if what == "c_a" { // named nowhere else in the table
			what = "c_a (the clip of the features' ‖a‖² in β's estimate)"
		}
		rel = append(rel, fmt.Sprintf("%s (ρ = %s)", what, n6(x.Rho)))
	}
	txt := fmt.Sprintf("private estimates, ρ₀ = %s (%s of ρ = %s; the run gets ρ − ρ₀ = %s, so the spent ρ is their sum) from %d rows: %s; clip c = %s (the %s-quantile of sup_w ‖∇f‖); releases %s",
		n6(r.ConstantsRho), n6(r.ConstantsRho/r.Privacy.Rho), n6(r.Privacy.Rho), n6(r.Privacy.Rho-r.ConstantsRho), e.Rows, e.Summary(n6), n6(e.Clip), n6(e.Q), strings.Join(rel, ", "))
	if len(r.Trials) > 1 {
		txt += fmt.Sprintf(" (trial 0's; each of the %d trials estimates on its own data)", len(r.Trials))
	}
	txt += " — estimates, not bounds: the guarantee assumes each true constant is at most its estimate"
	if f := FlagText(reportEstimates(r)); f != "" {
		txt += "; " + f
	}
	return [2]string{"constants", txt}, true
}

// FlagText is what a table says of the private estimates' flags
// (estimate.Estimates.Flags: fallbacks and failed releases) over a call's
// trials: trial 0's in full, and how many trials have any; empty when none
// does.
func FlagText(ests []*estimate.Estimates) string {
	k := flagged(ests)
	if k == 0 {
		return ""
	}
	txt := fmt.Sprintf("FLAGGED in %d of %d trial(s)", k, len(ests))
	if e := ests[0]; e != nil && len(e.Flags) > 0 {
		txt += ", trial 0: " + strings.Join(e.Flags, "; ")
	}
	return txt + " (--json: constants.trials[].flags)"
}

// holdoutRow is the table's row of the held-out loss.
func holdoutRow(r *engine.Report) ([2]string, bool) {
	if math.IsNaN(r.W0Holdout.Mean) {
		return [2]string{}, false
	}
	txt := n6(r.Holdout.Mean)
	if !math.IsNaN(r.Holdout.SE) {
		txt += " ± " + n6(r.Holdout.SE) + " (over trials)"
	}
	txt += fmt.Sprintf(" on %d held-out rows; w₀ = 0 there: %s ± %s (over rows) — %s", r.HoldoutRows, n6(r.W0Holdout.Mean), n6(r.W0Holdout.SE), HoldoutNote)
	return [2]string{"held-out loss", txt}, true
}

// flagged is how many of ests have flags.
func flagged(ests []*estimate.Estimates) int {
	k := 0
	for _, e := range ests {
		if e != nil && len(e.Flags) > 0 {
			k++
		}
	}
	return k
}

// FlagMark is a table cell's mark for the trials whose private constants
// are flagged (" [constants flagged in k/m]"), empty when none is.
func FlagMark(ests []*estimate.Estimates) string {
	if k := flagged(ests); k > 0 {
		return fmt.Sprintf(" [constants flagged in %d/%d]", k, len(ests))
	}
	return ""
}

// reportEstimates are a run's trials' private estimates, in trial order
// (nil where none).
func reportEstimates(r *engine.Report) []*estimate.Estimates {
	out := make([]*estimate.Estimates, len(r.Trials))
	for i, t := range r.Trials {
		out[i] = t.Constants
	}
	return out
}

// tunedEstimates are a search's trials' private estimates, in trial order.
func tunedEstimates(t engine.Tuned) []*estimate.Estimates {
	out := make([]*estimate.Estimates, len(t.Trials))
	for i, tr := range t.Trials {
		out[i] = tr.Constants
	}
	return out
}
