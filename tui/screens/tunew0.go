package screens

import (
	"math"

	"dpso/internal/report"
	"dpso/tui/style"
)

// tuneW0Lines says, for each run of the tuning screen whose mean is above
// w0 = F(w₀) − F* (the excess risk of doing nothing) or below it by less
// than 2 s.e., report.W0TuneVerdict's words — the ones dpso tune prints
// for the same run — so that
// a ratio against the prescription is never read without knowing that
// the prescription (or the tuned run, or the oracle) did no better than
// returning w₀.
func tuneW0Lines(st *style.Styles, rows []tuneRow, w0 float64, w int) []string {
	var out []string
	for _, r := range rows {
		if r.why != "" || r.pending || math.IsNaN(r.est.Mean) {
			continue
		}
		if v := report.W0TuneVerdict(r.est.Mean, r.est.SE, w0); v != "" {
			out = append(out, style.WrapLines(st.Warn, r.label()+": "+v, w)...)
		}
	}
	return out
}
