package report

import (
	"math"

	"dpso/internal/engine"
	"dpso/theory"
)

// VacuousTag is what a legend says of a certificate above F(w₀) − F*:
// the guarantee promises no more than doing nothing (the sweeps' and the
// exports' words).
const VacuousTag = "vacuous: above w₀"

// FlaggedNoCert is what every screen says where a run's private estimates
// of the constants are flagged: the certificate computed from them is not
// drawn as a level nor counted as in force (the flag says why: the
// estimates likely lie far below the data, so no guarantee stands on
// them).
const FlaggedNoCert = "private estimates flagged: no certificate stands on them, none is drawn"

// CappedNotCovered is what every screen, table and document says of a
// budget-capped run's certificate: the work budget cut the schedule, and
// the theorem's guarantee assumes the full one, so the certificate does
// not cover the run — it is never a level drawn for it nor counted as in
// force.
const CappedNotCovered = "budget-capped: not covered"

// CertCovers reports whether r's certificate stands for the run r drew,
// so that a chart may draw it as a level: r ran (not refused), has a
// certificate with a value, the work budget did not cut its schedule
// (CappedNotCovered), and its private estimates of the constants are not
// flagged (FlaggedNoCert). Whether it is below w₀ (promises something) is
// another question (Certified.Vacuous).
func CertCovers(r *engine.Report) bool {
	return r != nil && r.Refused == "" && r.Certified.Cert != nil && !math.IsNaN(r.Certified.Value()) &&
		!r.BudgetCapped && !EstimatesFlagged(r)
}

// AboveCertText is what `dpso run`'s certificate line, the explorer's
// theorem panel and its legend say where MeanAboveCert holds.
const AboveCertText = "the measured mean is ABOVE it"

// MeanAboveCert reports whether a run's measured mean excess risk is above
// its certificate c (a certificate that holds and is finite): the mean
// itself against the certified value, no standard-error margin — a
// certificate bounds the expected excess risk, which the mean estimates.
// One rule for every place that says AboveCertText.
func MeanAboveCert(c engine.Certified, mean float64) bool {
	return c.Cert != nil && c.Cert.Holds() && !math.IsInf(c.Cert.Value, 0) && !math.IsNaN(mean) && mean > c.Cert.Value
}

// AboveCertNote is AboveCertText with the two numbers it compares, each
// with as many significant digits (3 to 6) as they need to differ —
// beside "certified ≤ 0.129" a mean of 0.129 reads as no gap — and the
// mean's standard error (se NaN: one trial, none given); "" where
// MeanAboveCert does not hold.
func AboveCertNote(c engine.Certified, mean, se float64) string {
	if !MeanAboveCert(c, mean) {
		return ""
	}
	f := theory.Human
	for f.Digits < 6 && f.Format(mean) == f.Format(c.Cert.Value) {
		f.Digits++
	}
	txt := AboveCertText + " (mean " + f.Format(mean)
	if !math.IsNaN(se) {
		txt += " ± " + theory.Human.Format(se)
	}
	return txt + " > " + f.Format(c.Cert.Value) + ")"
}

// ReportFlags is the flag sentence of r's private estimates of the
// constants (FlagText over its trials, the words `dpso run` prints), ""
// when none is flagged or r read no private estimates.
func ReportFlags(r *engine.Report) string {
	if r == nil || r.ConstantsRho == 0 {
		return ""
	}
	return FlagText(reportEstimates(r))
}

// EstimatesFlagged reports whether any trial of r read private estimates
// of the constants that are flagged (estimate.Estimates.Flags).
func EstimatesFlagged(r *engine.Report) bool {
	return r != nil && r.ConstantsRho > 0 && flagged(reportEstimates(r)) > 0
}
