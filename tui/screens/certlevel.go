package screens

import (
	"math"
	"strings"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/tui/chart"
	"dpso/tui/common"
)

// certBasis is what a run chart's certificate rests on, which its legend
// entry says: whose it is (named where more than one solver is drawn),
// the start line it is compared with, the constants it is computed from
// and whether it covers the run drawn.
type certBasis struct {
	// solver names the certificate's solver; "" where it is the only one.
	solver string
	// w0 is F(w₀) − F* (NaN where unknown): a certificate above it is vacuous.
	w0 float64
	// private: the constants are private estimates (--constants private);
	// estimated: plug-in estimates read from the rows (--estimate-constants,
	// not private). Either way they are estimates, not bounds.
	private, estimated bool
	// flags is the private estimates' flag sentence (report.ReportFlags):
	// no certificate stands on flagged estimates.
	flags string
	// capped: the work budget cut the schedule; the certificate is the
	// full schedule's and does not cover the run.
	capped bool
	// cert and mean are the run's certificate and measured mean excess
	// risk (mean NaN before a run): a mean above the certificate is said
	// in `dpso run`'s words (report.MeanAboveCert).
	cert     engine.Certified
	mean, se float64
}

// Certificate labels of the run chart's legend: what the level rests on.
const (
	certPrivateLabel   = "certified on private estimates ≤"
	certEstimatedLabel = "certified on estimated constants (not bounds; NOT private) ≤"
	// estimatedTag follows a run on constants read from the rows.
	estimatedTag = "not private (constants read from the rows)"
	// cappedNote follows the value of a budget-capped run's certificate,
	// which is not drawn.
	cappedNote = "for the uncapped schedule: this run is budget-capped, not covered (not drawn)"
)

// label rewrites the certificate series among series (RefSeries') to say
// what it rests on: a certificate on flagged private estimates or of a
// budget-capped run is not drawn as a level (the legend says why, whole,
// the flag in the words `dpso run` prints); one above w₀ is tagged
// vacuous, and one below the run's measured mean says so.
func (b certBasis) label(series []chart.Series) {
	for i := range series {
		s := &series[i]
		if s.Kind != chart.Cert || s.Err != "" {
			continue
		}
		who := ""
		if b.solver != "" {
			who = b.solver + " "
		}
		switch {
		case b.flags != "":
			*s = chart.Series{Label: who + "certificate", Kind: chart.Cert, Color: s.Color, Err: report.FlaggedNoCert + " — " + b.flags}
			continue
		case b.capped:
			// Listed, whole (a legend entry wraps, never cut), at no
			// height: Value 0 draws nothing on the log scale.
			*s = chart.Series{Label: who + "certified ≤ " + common.FmtNum(s.Value), Kind: chart.Cert, Color: s.Color, Note: cappedNote}
			continue
		case b.estimated:
			s.Label = certEstimatedLabel
		case b.private:
			s.Label = certPrivateLabel
		}
		s.Label = who + s.Label
		// w₀ = 0 (the start is the optimum, preset 3): every positive
		// certificate is above it. NaN: no run or prescription to read.
		var tags []string
		if b.w0 >= 0 && !math.IsInf(s.Value, 0) && s.Value > b.w0 {
			tags = append(tags, report.VacuousTag)
		}
		if v := report.AboveCertNote(b.cert, b.mean, b.se); v != "" {
			tags = append(tags, v)
		}
		s.Tag = strings.Join(tags, "; ")
	}
}

// runCertBasis is the basis of a run's certificate read from its first
// solver's report (nil before a run: the prescription's p, with the
// form's estimate-constants flag).
func runCertBasis(rep *engine.Report, p *engine.Prescription, names int) certBasis {
	b := certBasis{w0: math.NaN(), mean: math.NaN(), se: math.NaN()}
	switch {
	case rep != nil:
		b = certBasis{w0: rep.W0.Mean, private: rep.ConstantsRho > 0, estimated: rep.Spec.EstimateConstants && rep.UserRows,
			flags: report.ReportFlags(rep), capped: rep.BudgetCapped, solver: rep.Solver, cert: rep.Certified, mean: rep.Excess.Mean, se: rep.Excess.SE}
	case p != nil:
		b = certBasis{w0: p.W0.Mean, estimated: p.Spec.EstimateConstants && p.UserRows, capped: p.Params.BudgetBound, solver: p.Solver, mean: math.NaN()}
	}
	if names < 2 {
		b.solver = ""
	}
	return b
}
