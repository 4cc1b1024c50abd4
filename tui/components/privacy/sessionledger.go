package privacy

import (
	"fmt"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/tui/common"
	"dpso/tui/runs"
)

// SessionLedger composes what the explorer's finished runs released of
// each user data file over the whole session: every run, comparison and
// sweep on the rows is a release (or several) of the same rows, and their
// budgets add (zCDP's ρ, and basic composition of (ε, δ)), however the
// form changed between them. An export re-shows a finished run's released
// outputs (post-processing) and costs nothing more.
type SessionLedger struct {
	counted map[int]bool // run ids already composed
	files   map[string]*sessionTotal
}

// sessionTotal is one data file's composed releases.
type sessionTotal struct {
	calls int
	total engine.PrivacyTotal // Composition.Releases summed, Spent composed
	// shuffle, accounted: what the ε part of total is made of (epsKinds).
	shuffle, accounted bool
}

// Add composes run r, once, when it has finished on the user's rows.
func (l *SessionLedger) Add(r *runs.Run) {
	if r == nil || r.Phase != runs.Done || l.counted[r.ID] {
		return
	}
	var t engine.PrivacyTotal
	switch {
	case r.Comparison != nil && len(r.Comparison.Reports) > 0:
		t = r.Comparison.Reports[0].Total
	case r.Sweep != nil:
		t = r.Sweep.Total
	case r.Tune != nil:
		t = tunePrivacyTotal(r.Tune)
	default:
		return
	}
	if !t.UserRows {
		return
	}
	if l.counted == nil {
		l.counted, l.files = map[int]bool{}, map[string]*sessionTotal{}
	}
	l.counted[r.ID] = true
	key := r.Spec.Spec.Data
	s := l.files[key]
	if s == nil {
		s = &sessionTotal{total: engine.PrivacyTotal{UserRows: true, ConvDelta: t.ConvDelta}}
		l.files[key] = s
	}
	s.calls++
	if t.Spent.Eps > 0 {
		sh, ac := epsKinds(r)
		s.shuffle, s.accounted = s.shuffle || sh, s.accounted || ac
	}
	s.total.Composition.Releases += t.Composition.Releases
	s.total.Spent = s.total.Spent.Add(t.Spent)
}

// Line is the session's total on data (empty before a second call on it:
// the latest call's own total says the same).
func (l *SessionLedger) Line(data string) string {
	s := l.files[data]
	if s == nil || s.calls < 2 {
		return ""
	}
	cost := costShort(s.total, epsName(s.shuffle, s.accounted))
	if s.total.Private() && s.total.Mixed() {
		// One (ε', δ) for the whole, as the CLI's total states a mixture:
		// the zCDP part's exact conversion plus the rest, by basic
		// composition (report.TotalEpsDelta).
		eps, delta := report.TotalEpsDelta(s.total, spec.DefaultConversionDelta)
		cost += fmt.Sprintf(", together (ε', δ) = (%s, %s) by basic composition", common.FmtNum(eps), common.FmtNum(delta))
	}
	return fmt.Sprintf("this session: %d calls on your rows (runs, comparisons, sweeps and searches, each finished one) made %d release%s of them: %s in all (they compose; exports cost nothing more)",
		s.calls, s.total.Composition.Releases, common.Plural(s.total.Composition.Releases), cost)
}
