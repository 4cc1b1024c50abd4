package screens

import (
	"fmt"
	"math"

	"dpso/internal/engine"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// stoppedSearch is what a search stopped before its private searches all
// ended (dpso serve's --max-run-time) released: each finished trial's
// tuned point, whose measured excess risk is drawn as one bar, the mean ±
// s.e. over those trials (runs.Run.SearchedTrials); ok false where no
// trial finished (nothing was released) or the search was not stopped
// there.
func (s *TuneScreen) stoppedSearch() (est engine.Estimate, done int, ok bool) {
	r := s.Run
	if r == nil || r.Phase != runs.Stopped || r.Searched != nil {
		return est, 0, false
	}
	xs := r.SearchedTrials(0)
	if len(xs) == 0 {
		return est, 0, false
	}
	return engine.EstimateOf(xs), len(xs), true
}

// stoppedText is the stopped search's state line: what the stop cut and
// what the bar, if any, is.
func stoppedText(r *runs.Run, done int) string {
	head := "■ the search was " + r.StopText() + ": "
	switch {
	case r.Searched != nil && (len(r.Searched.Solvers) == 0 || r.Searched.Solvers[0].Prescribed == nil):
		return head + "no bar is drawn — this screen draws the tuned run beside the prescribed one, and the stop cut the prescribed runs (the private searches had ended). " + r.Err.Error()
	case r.Searched != nil:
		return head + "no bar is drawn — this screen draws the means over every trial of the prescribed, tuned and oracle-tuned runs side by side, and the stop cut the oracle-tuned reference (the private searches and the prescribed runs had ended). " + r.Err.Error()
	case done == 0:
		return head + "no trial's search finished, so none released a point and no bar is drawn. " + r.Err.Error()
	}
	return head + fmt.Sprintf("%s finished their private search before the stop, each releasing its tuned point; the bar is the mean ± s.e. of those points' measured excess risk. The prescribed runs and the oracle-tuned reference had not run: nothing to compare it with. ", stoppedCount(r, done)) + r.Err.Error()
}

// stoppedCount is "3 of 8 trials" of a stopped search.
func stoppedCount(r *runs.Run, done int) string {
	return fmt.Sprintf("%d of %s", done, common.TrialCount(r.Spec.Spec.Trials))
}

// stoppedLayout is the screen of a search stopped part way: the state
// line, the bar of the trials it finished (stoppedSearch) labelled as
// partial, and the screen's intro.
func (s *TuneScreen) stoppedLayout(title, right string, w int) (common.Layout, bool) {
	est, done, ok := s.stoppedSearch()
	if !ok {
		return common.Layout{}, false
	}
	st := s.Styles
	lines := []string{""}
	lines = append(lines, style.WrapLines(st.Warn, stoppedText(s.Run, done), w)...)
	lines = append(lines, "", style.FitWords(st.Muted.Render("excess risk (log axis), mean ± s.e. over "+stoppedCount(s.Run, done)+": stopped"), w))
	rows := []tuneRow{{name: "tuned", est: est}}
	// No w₀ line: the stop came before the report that holds it.
	lines = append(lines, tuneBars(st, rows, math.NaN(), w, s.narrow())...)
	lines = append(lines, "")
	lines = append(lines, style.WrapLines(st.Muted, tuneIntro(tuneSpecOf(s.Spec).References), w)...)
	return common.Layout{Title: title, Right: right, Lines: lines}, true
}
