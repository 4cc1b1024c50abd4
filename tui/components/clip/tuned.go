package clip

import (
	"fmt"
	"math"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
)

// tunedSeen is the batch the panel shows for a search: the released
// candidate's (engine.TunedTrial.Clip) of the tuning screen's solver
// (the report's first) in the first trial whose candidate reported one.
type tunedSeen struct {
	rep   *engine.TuneReport
	trial engine.TunedTrial
}

// tunedBatch is r's tuned batch, from its finished report or from the
// one given as soon as the private searches were done (runs.Run's
// Searched); ok false for a run that is no search, while the searches
// run, and where no trial's released candidate reported a batch (K = 0,
// a solver that does not clip).
func tunedBatch(r *runs.Run) (tunedSeen, bool) {
	if r == nil || r.Kind != backend.Tune {
		return tunedSeen{}, false
	}
	rep := r.Tune
	if rep == nil {
		rep = r.Searched
	}
	if rep == nil || len(rep.Solvers) == 0 || rep.Solvers[0].Refused != "" {
		return tunedSeen{}, false
	}
	for _, tr := range rep.Solvers[0].Tuned.Trials {
		if tr.Clip.Batch.Size > 0 {
			return tunedSeen{rep, tr}, true
		}
	}
	return tunedSeen{}, false
}

// who is the batch line: whose batch it is.
func (s tunedSeen) who() string {
	return fmt.Sprintf("batch of %s · %s · trial %d · tuned run (released)",
		common.FmtInt(int64(s.trial.Clip.Batch.Size)), s.rep.Solvers[0].Solver, s.trial.Trial)
}

// means is the line under it, where the panel has room: the fractions
// clipped over whole runs, mean over the trials whose runs clipped
// anything — the tuned run's released candidates' (engine.Tuned.Clipped)
// and, once it is done, the prescribed run's (engine.Report.Clipped) —
// and what the norms were read from (the user's rows, or the scenario's
// draws: either way outside the search's release).
func (s tunedSeen) means() string {
	ts := s.rep.Solvers[0]
	n := 0
	for _, tr := range ts.Tuned.Trials {
		if tr.Clip.Fed > 0 {
			n++
		}
	}
	txt := fmt.Sprintf("whole runs, mean over %s: tuned %s clipped", common.TrialCount(n), report.Percent(ts.Tuned.Clipped))
	if p := ts.Prescribed; p != nil && p.Refused == "" && !math.IsNaN(p.Clipped) {
		txt += ", prescribed " + report.Percent(p.Clipped)
	}
	if s.rep.UserRows {
		return txt + "; read from your rows"
	}
	return txt + "; read from the draw's training rows"
}
