package report

import "math"

// W0Verdict judges an excess risk, mean ± se over trials, against
// w0 = F(w₀) − F*, the excess risk of doing nothing (returning the start
// point w₀): "" when mean ≤ w0; "ABOVE F(w₀) − F* by more than 2 s.e.:
// worse than doing nothing" when mean − 2·se > w0; "above F(w₀) − F*,
// within 2 s.e.: no better than doing nothing" otherwise; with one trial
// (se NaN) it says there is no standard error to judge the gap by. One
// source for dpso run's, dpso tune's and the explorer's tuning screen's
// verdict; w0 is treated as exact (its evaluation error is far below a
// run's trial-to-trial spread).
func W0Verdict(mean, se, w0 float64) string {
	if math.IsNaN(mean) || math.IsNaN(w0) || !(mean > w0) {
		return ""
	}
	switch {
	case math.IsNaN(se):
		return "above F(w₀) − F* (no standard error to say by how much it is beyond chance)"
	case mean-2*se > w0:
		return "ABOVE F(w₀) − F* by more than 2 s.e.: worse than doing nothing"
	default:
		return "above F(w₀) − F*, within 2 s.e.: no better than doing nothing"
	}
}

// withW0Verdict is txt followed by " — " and W0Verdict's words, when it
// has any.
func withW0Verdict(txt string, mean, se, w0 float64) string {
	if v := W0Verdict(mean, se, w0); v != "" {
		return txt + " — " + v
	}
	return txt
}
