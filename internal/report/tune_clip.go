package report

import (
	"fmt"
	"io"
	"math"

	"dpso/internal/engine"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// TunedClipMeaning says what a search's clipped fraction is and why it
// is not part of the search's release.
const TunedClipMeaning = "mean over trials of the fraction of per-sample gradients that clipping changed in each trial's released candidate, read from its training rows outside the search's mechanism: not part of the search's release, whose guarantee covers the chosen candidate's parameters, output and score only"

// tunedClipWhere says whose rows a search's clipping statistics were
// read from, the user's (DiagnosticNote) or a scenario's draws, and what
// that makes them.
func tunedClipWhere(userRows bool) string {
	if userRows {
		return DiagnosticNote
	}
	return "computed on each trial's draw (from the scenario's public distribution) apart from the released output: a non-private diagnostic, not covered by any privacy guarantee"
}

// TunedClipJSON is what clipping did in one trial's released candidate
// (engine.ClipSeen): Clipped of Fed per-sample gradients over its whole
// run (Fraction their ratio) and its latest batch worth a histogram.
// Private is false: a non-private diagnostic (TunedClipMeaning); null
// where nothing was released (K = 0).
type TunedClipJSON struct {
	Private  bool       `json:"private"`
	Clipped  int64      `json:"clipped"`
	Fed      int64      `json:"fed"`
	Fraction *float64   `json:"fraction"`
	Batch    *BatchJSON `json:"batch"`
}

// BatchJSON is one batch of per-sample gradient norms
// (oracle.BatchStats): its size, the threshold C (τ for a coordinate
// oracle), the vectors clipping changed and the non-finite ones zeroed,
// its phase (1-based for multi-phase solvers, else 0), and the norms' quantiles
// at QuantileLevels (null where no norm was finite).
type BatchJSON struct {
	Phase          int        `json:"phase"`
	Size           int        `json:"size"`
	Threshold      *float64   `json:"threshold"`
	Clipped        int        `json:"clipped"`
	NonFinite      int        `json:"non_finite"`
	QuantileLevels []float64  `json:"quantile_levels"`
	NormQuantiles  []*float64 `json:"norm_quantiles"`
}

// tunedClipJSON is c's document (nil when the trial released nothing).
func tunedClipJSON(c engine.ClipSeen) *TunedClipJSON {
	if c.Fed == 0 && c.Batch.Size == 0 {
		return nil
	}
	j := &TunedClipJSON{Clipped: c.Clipped, Fed: c.Fed, Fraction: theory.JSONNum(c.Fraction())}
	if b := c.Batch; b.Size > 0 {
		j.Batch = &BatchJSON{Phase: c.Phase, Size: b.Size, Threshold: theory.JSONNum(b.Threshold), Clipped: b.Clipped, NonFinite: b.NonFinite,
			QuantileLevels: oracle.QuantileLevels[:], NormQuantiles: make([]*float64, len(b.Quantiles))}
		for i, q := range b.Quantiles {
			j.Batch.NormQuantiles[i] = theory.JSONNum(q)
		}
	}
	return j
}

// tunedClippedJSON is a search's mean fraction clipped (nil for a
// solver that does not clip).
func tunedClippedJSON(t engine.Tuned, userRows bool) *DiagJSON {
	if math.IsNaN(t.Clipped) {
		return nil
	}
	return &DiagJSON{Value: theory.JSONNum(t.Clipped), Meaning: TunedClipMeaning + "; " + tunedClipWhere(userRows), Private: falsePtr()}
}

// writeTunedClipped writes each solver's fractions clipped, prescribed
// and tuned, under the table: a line a solver, none for one that clips
// nothing.
func writeTunedClipped(w io.Writer, r *engine.TuneReport) {
	for _, ts := range r.Solvers {
		if ts.Refused != "" || math.IsNaN(ts.Tuned.Clipped) {
			continue
		}
		pres := ""
		if p := ts.Prescribed; p != nil && p.Refused == "" && !math.IsNaN(p.Clipped) {
			pres = "prescribed " + Percent(p.Clipped) + ", "
		}
		fmt.Fprintf(w, "clipped (%s): %stuned %s of per-sample gradients (its released candidates'), mean over trials — %s\n",
			ts.Solver, pres, Percent(ts.Tuned.Clipped), tunedClipWhere(r.UserRows))
	}
}
