package plot

import (
	"strings"

	"dpso/internal/engine"
)

// privacyLabels are a figure's words about privacy: a title
// prefix "NOT PRIVATE (why)" when a run's outputs are not covered by a
// guarantee (seeded noise or estimated constants on user data, ε = ∞), and
// a legend note when the curves are measured on the user's rows (a
// non-private diagnostic).
func privacyLabels(reports []*engine.Report) (title string, notes []string) {
	var why []string
	seen := map[string]bool{}
	user := false
	for _, r := range reports {
		if r == nil || r.Refused != "" {
			continue
		}
		user = user || r.UserRows
		for _, w := range r.NotPrivate {
			if !seen[w] {
				seen[w] = true
				why = append(why, w)
			}
		}
	}
	if len(why) > 0 {
		title = "NOT PRIVATE: " + short(strings.Join(why, "; ")) + "\n"
	}
	if user {
		notes = append(notes, "excess risk measured on the private rows: a non-private diagnostic, not part of the private release")
	}
	return title, notes
}

// yLabel is the excess-risk axis's label, saying when it is a diagnostic.
func yLabel(reports []*engine.Report, label string) string {
	for _, r := range reports {
		if r != nil && r.UserRows {
			return strings.Replace(label, "(loss units", "on the rows — non-private diagnostic (loss units", 1)
		}
	}
	return label
}

// sweepReports are every report of a sweep.
func sweepReports(s *engine.SweepReport) []*engine.Report {
	var out []*engine.Report
	for _, p := range s.Points {
		out = append(out, p.Reports...)
	}
	return out
}
