package report

import (
	"math"

	"dpso/internal/engine"
	"dpso/internal/spec"
)

// NotPrivateTag is [PrivacyTags]' tag of a release without a guarantee
// (ε = ∞, the baseline nonprivate-schedule).
const NotPrivateTag = "not private"

// PrivacyTags are a comparison's privacy words, one source for the
// explorer's legend and the slide figure: each solver's (ε', δ)-DP
// statement as `dpso run --solvers …` prints it in its ε' column
// (EpsDelta: the exact conversion of its zCDP budget, or for dp-sgd its
// accountant's value, which names the accountant) — "ε' 4.38", "ε' 4.36
// pld", "(ε', δ) = (…, …)" where the solvers' δ differ — "not private"
// for a release without a guarantee, "" for a refusal; and the note that
// says at which δ. format writes the numbers.
func PrivacyTags(reports []*engine.Report, format func(float64) string) (tags []string, note string) {
	tags = make([]string, len(reports))
	deltas := map[float64]bool{}
	for _, rep := range reports {
		if rep == nil {
			continue
		}
		if eps, delta := EpsDelta(rep); rep.Refused == "" && !math.IsInf(eps, 1) && !math.IsNaN(eps) {
			deltas[delta] = true
		}
	}
	var delta float64
	for d := range deltas {
		delta = d
	}
	for i, rep := range reports {
		if rep == nil {
			continue
		}
		eps, d := EpsDelta(rep)
		switch {
		case rep.Refused != "" || math.IsNaN(eps):
			continue
		case math.IsInf(eps, 1):
			tags[i] = NotPrivateTag
			continue
		}
		t := "ε' " + format(eps)
		if len(deltas) > 1 {
			t = "(ε', δ) = (" + format(eps) + ", " + format(d) + ")"
		}
		if rep.Privacy.Model == spec.Accountant {
			t += " " + rep.Privacy.AccountantName
		}
		tags[i] = t
	}
	switch len(deltas) {
	case 0:
		return tags, ""
	case 1:
		note = "ε': each solver's (ε', δ = " + format(delta) + ")-DP"
	default:
		note = "(ε', δ): each solver's (ε', δ)-DP"
	}
	for _, rep := range reports {
		if rep != nil && rep.Refused == "" && rep.Privacy.Model == spec.Accountant {
			note += ", " + rep.Privacy.AccountantName + " = " + rep.Solver + "'s accountant"
			break
		}
	}
	return tags, note
}
