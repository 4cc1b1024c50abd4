package report

import (
	"fmt"
	"math"
	"strings"

	"dpso/internal/engine"
	"dpso/scenarios"
	"dpso/theory"
)

// The meanings written beside the reference numbers, in the JSON and the
// tables.
const (
	// W0Meaning says what F(w₀) − F* is.
	W0Meaning = "F(w₀) − F* at the start point w₀ = 0: the excess risk of doing nothing; a run above it did worse than returning w₀"
	// ClippedMeaning says what the clipped fraction is.
	ClippedMeaning = "mean over trials of the fraction of per-sample gradients that clipping changed"
	// CertMeaning says what a certificate is.
	CertMeaning = "certificate: the paper's explicit-constant bound evaluated at this run's own parameters; the measured mean must lie under it"
	// ReferenceMeaning says what the non-private reference is.
	ReferenceMeaning = "non-private reference: F(ŵ) − F* for ŵ the empirical risk minimizer over W on each trial's draw (the same draws as the solvers), certified to within its width; it depends neither on ε nor on any solver, and no private algorithm is promised to reach it"
	// DiagnosticNote is why a diagnostic on user data is marked "private": false.
	DiagnosticNote = "computed on your rows apart from the released output: a non-private diagnostic, not covered by any privacy guarantee"
)

// W0JSON is F(w₀) − F* with its error and how it was computed. Private is
// false (and present) only on user data, where the number is computed on
// the rows outside the mechanism (a non-private diagnostic).
type W0JSON struct {
	Value   *float64 `json:"value"`
	Stderr  *float64 `json:"stderr"`
	Method  string   `json:"method"`
	Meaning string   `json:"meaning"`
	Private *bool    `json:"private,omitempty"`
}

// ReferenceJSON is the non-private reference (engine.Report.Reference):
// its mean ± s.e. over trials, the largest certificate width of the
// minimizations, and, when it was not computed (null value), why. Private
// is always false: it is a reference computed on the draws, not a release.
type ReferenceJSON struct {
	Value   *float64 `json:"value"`
	Stderr  *float64 `json:"stderr"`
	Median  *float64 `json:"median"`
	Q1      *float64 `json:"q1"`
	Q3      *float64 `json:"q3"`
	Width   *float64 `json:"width"`
	Meaning string   `json:"meaning"`
	Note    string   `json:"note,omitempty"`
	Private bool     `json:"private"`
}

// referenceJSON is the reference's document (nil for a prescription or a
// refusal, which ran no trials).
func referenceJSON(r *engine.Report) *ReferenceJSON {
	if len(r.Trials) == 0 {
		return nil
	}
	e := r.Reference
	return &ReferenceJSON{Value: theory.JSONNum(e.Mean), Stderr: theory.JSONNum(e.SE), Median: theory.JSONNum(e.Median), Q1: theory.JSONNum(e.Q1), Q3: theory.JSONNum(e.Q3), Width: theory.JSONNum(r.ReferenceWidth),
		Meaning: ReferenceMeaning, Note: r.ReferenceNote}
}

// referenceRow is the table's reference line (ok false when there is
// none to show: a refusal, or no trials).
func referenceRow(r *engine.Report) ([2]string, bool) {
	if len(r.Trials) == 0 {
		return [2]string{}, false
	}
	if math.IsNaN(r.Reference.Mean) {
		if r.ReferenceNote == "" {
			return [2]string{}, false
		}
		return [2]string{"reference", "none: " + r.ReferenceNote}, true
	}
	txt := n6(r.Reference.Mean)
	if se := r.Reference.SE; !math.IsNaN(se) {
		txt += " ± " + n6(se)
	}
	txt += " = F(ŵ) − F* of the empirical risk minimizer ŵ over W on the same draws (non-private reference: it depends neither on ε nor on any solver"
	if r.ReferenceWidth > 0 {
		txt += "; certified to within " + n4(r.ReferenceWidth)
	}
	return [2]string{"reference", txt + ")"}, true
}

// DiagJSON is a diagnostic number (the clipped fraction); Private as in
// W0JSON.
type DiagJSON struct {
	Value   *float64 `json:"value"`
	Meaning string   `json:"meaning"`
	Private *bool    `json:"private,omitempty"`
}

// TermJSON is a certificate's evaluated term.
type TermJSON struct {
	Name  string   `json:"name"`
	Value *float64 `json:"value"`
}

// CertificateJSON is a run's certificate (theory.Certificate at its
// parameters): value null when a condition fails (the failed one says
// holds: false) or when the bound is infinite; Vacuous when it is not
// below F(w₀) − F*; Notes qualify it. Source cites the paper by its LaTeX
// labels, SourcePDF the same as the PDF numbers them ("Proposition 30").
type CertificateJSON struct {
	ID         string             `json:"id"`
	Source     string             `json:"source"`
	SourcePDF  string             `json:"source_pdf"`
	Formula    string             `json:"formula"`
	Quantity   string             `json:"quantity"`
	Value      *float64           `json:"value"`
	Terms      []TermJSON         `json:"terms"`
	Conditions []theory.Condition `json:"conditions"`
	Meaning    string             `json:"meaning"`
	Vacuous    bool               `json:"vacuous"`
	Notes      []string           `json:"notes"`
}

func falsePtr() *bool { f := false; return &f }

// w0JSON is the document of F(w₀) − F*.
func w0JSON(w0 engine.Estimate, method string, userRows bool) *W0JSON {
	j := &W0JSON{Value: theory.JSONNum(w0.Mean), Stderr: theory.JSONNum(w0.SE), Method: method, Meaning: W0Meaning}
	if userRows {
		j.Private = falsePtr()
		j.Method += " (" + DiagnosticNote + ")"
	}
	return j
}

// clippedJSON is the clipped fraction's document (nil for a solver that
// does not clip).
func clippedJSON(r *engine.Report) *DiagJSON {
	if math.IsNaN(r.Clipped) {
		return nil
	}
	j := &DiagJSON{Value: theory.JSONNum(r.Clipped), Meaning: ClippedMeaning}
	if r.Spec.Data != "" {
		j.Private = falsePtr()
		j.Meaning += " (" + DiagnosticNote + ")"
	}
	return j
}

// certJSON is the certificate's document, nil when none applies.
func certJSON(c engine.Certified, w0 float64) *CertificateJSON {
	if c.Cert == nil {
		return nil
	}
	x := c.Cert
	j := &CertificateJSON{ID: x.ID, Source: x.Source, SourcePDF: theory.Cite(x.Source), Formula: x.Formula, Quantity: x.Quantity, Value: theory.JSONNum(x.Value),
		Terms: make([]TermJSON, len(x.Terms)), Conditions: x.Conditions, Meaning: CertMeaning,
		Vacuous: c.Vacuous(w0), Notes: nonNil(c.Notes)}
	for i, t := range x.Terms {
		j.Terms[i] = TermJSON{Name: t.Name, Value: theory.JSONNum(t.Value)}
	}
	if j.Conditions == nil {
		j.Conditions = []theory.Condition{}
	}
	return j
}

// w0Row is the table's start-point line.
func w0Row(w0 engine.Estimate, method string, userRows bool) [2]string {
	txt := n6(w0.Mean) + " = F(w₀) − F* at w₀ = 0, the excess risk of doing nothing (" + method
	if w0.SE > 0 {
		txt += ", ± " + n6(w0.SE)
	}
	txt += ")"
	if userRows {
		txt += "; " + DiagnosticNote
	}
	return [2]string{"start point", txt}
}

// certRow is the table's certificate line.
func certRow(c engine.Certified, w0, mean float64) [2]string {
	if c.Cert == nil {
		return [2]string{"certificate", "none: " + c.Why}
	}
	x := c.Cert
	switch {
	case !x.Holds():
		return [2]string{"certificate", fmt.Sprintf("%s: no value, its condition fails: %s", x.ID, strings.Join(x.Failed(), "; "))}
	case math.IsInf(x.Value, 1):
		return [2]string{"certificate", x.ID + " = ∞ (a moment it needs does not exist): vacuous"}
	}
	txt := fmt.Sprintf("%s = %s, certified at these parameters (%s ≤ it)", x.ID, n4(x.Value), x.Quantity)
	if c.Vacuous(w0) {
		txt += fmt.Sprintf("; above F(w₀) − F* = %s: the guarantee is vacuous at this n", n4(w0))
	}
	if MeanAboveCert(c, mean) {
		txt += "; " + AboveCertText
	}
	return [2]string{"certificate", txt}
}

// clippedRow is the table's clipped-fraction line (ok false for a solver
// that does not clip).
func clippedRow(r *engine.Report) ([2]string, bool) {
	if math.IsNaN(r.Clipped) {
		return [2]string{}, false
	}
	txt := Percent(r.Clipped) + " of per-sample gradients clipped (mean over trials)"
	if r.Spec.Data != "" {
		txt += "; " + DiagnosticNote
	}
	return [2]string{"clipped", txt}, true
}

// Percent writes a fraction as a percentage with up to 3 significant
// digits in the Pretty form of every other number a person reads ("0%",
// "0.09%", "48.2%", "6.25·10⁻⁵%").
func Percent(f float64) string {
	if math.IsNaN(f) {
		return "—"
	}
	if f == 0 {
		return "0%"
	}
	return theory.Human.Format(100*f) + "%"
}

// GeometryJSON is where the empirical risk minimizer of user data lies
// relative to W = B(0, radius) (scenarios.Geometry): computed on the rows,
// a non-private diagnostic ("private": false). When it lies outside
// ("inside": false), risk_over_w is the minimum over W every excess risk is
// measured against, risk_unconstrained the minimum over the smallest ball
// B(0, 4^j·radius) whose minimizer is interior (minimizer_norm its norm;
// found false: none up to searched_radius, where the risk still
// decreases), and note says how to choose --diam.
type GeometryJSON struct {
	Radius            *float64 `json:"radius"`
	Inside            bool     `json:"inside"`
	NormOverW         *float64 `json:"norm_over_w"`
	RiskOverW         *float64 `json:"risk_over_w"`
	StartGap          *float64 `json:"start_gap"`
	MinimizerNorm     *float64 `json:"minimizer_norm,omitempty"`
	RiskUnconstrained *float64 `json:"risk_unconstrained,omitempty"`
	Found             *bool    `json:"found,omitempty"`
	SearchedRadius    *float64 `json:"searched_radius,omitempty"`
	Note              string   `json:"note,omitempty"`
	Private           bool     `json:"private"`
}

// geometryJSON is g's document (nil on a scenario).
func geometryJSON(g *scenarios.Geometry) *GeometryJSON {
	if g == nil {
		return nil
	}
	j := &GeometryJSON{Radius: theory.JSONNum(g.Radius), Inside: g.Inside, NormOverW: theory.JSONNum(g.Norm), RiskOverW: theory.JSONNum(g.RiskW), StartGap: theory.JSONNum(g.StartGap)}
	if !g.Inside {
		found := g.Found
		j.MinimizerNorm, j.RiskUnconstrained, j.Found, j.SearchedRadius, j.Note = theory.JSONNum(g.OutNorm), theory.JSONNum(g.RiskOut), &found, theory.JSONNum(g.OutR), g.Note()
	}
	return j
}

// EstimatedJSON is the constants --estimate-constants computed from the
// rows, by flag name (rk absent at k = 2, where it is r2; rk and r2k
// absent at k = ∞), with "private": false: the prescription read the rows
// through them.
type EstimatedJSON struct {
	Values  EstimatedValuesJSON `json:"values"`
	Private bool                `json:"private"`
	Note    string              `json:"note"`
}

// EstimatedValuesJSON are the estimated constants (scenarios.Instance.
// Estimated), each named as its flag.
type EstimatedValuesJSON struct {
	R2    *float64 `json:"r2"`
	Rk    *float64 `json:"rk,omitempty"`
	R2k   *float64 `json:"r2k,omitempty"`
	Lf    *float64 `json:"lf"`
	Beta  *float64 `json:"beta"`
	Mu    *float64 `json:"mu"`
	BetaF *float64 `json:"beta_f"`
}

// EstimatedNote says what estimated constants are.
const EstimatedNote = "estimated from your rows (--estimate-constants): the empirical distribution's constants, which the prescription reads — not private; and a heavy tail admits no upper confidence bound on a moment, so the theorem's guarantee assumes the true constant is at most the estimate"

// estimatedJSON is the estimated constants' document (nil when none).
func estimatedJSON(cs []scenarios.EstimatedConstant) *EstimatedJSON {
	if len(cs) == 0 {
		return nil
	}
	j := &EstimatedJSON{Note: EstimatedNote}
	for _, c := range cs {
		v := theory.JSONNum(c.Value)
		switch c.Name {
		case "r2":
			j.Values.R2 = v
		case "rk":
			j.Values.Rk = v
		case "r2k":
			j.Values.R2k = v
		case "lf":
			j.Values.Lf = v
		case "beta":
			j.Values.Beta = v
		case "mu":
			j.Values.Mu = v
		case "beta_f":
			j.Values.BetaF = v
		}
	}
	return j
}

// estimatedRow is the table's line of estimated constants (ok false when
// none).
func estimatedRow(cs []scenarios.EstimatedConstant) ([2]string, bool) {
	if len(cs) == 0 {
		return [2]string{}, false
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Symbol + " = " + n6(c.Value)
	}
	return [2]string{"estimated", strings.Join(parts, ", ") + " — NOT PRIVATE: " + EstimatedNote}, true
}

// geometryRow is the table's line on where the empirical minimizer lies
// (ok false on a scenario or when it lies inside W).
func geometryRow(g *scenarios.Geometry) ([2]string, bool) {
	if g == nil || g.Inside {
		return [2]string{}, false
	}
	return [2]string{"geometry", g.Note()}, true
}
