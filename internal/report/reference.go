package report

import (
	"fmt"
	"math"
	"strings"

	"dpso/internal/engine"
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
	j := &W0JSON{Value: JSONNum(w0.Mean), Stderr: JSONNum(w0.SE), Method: method, Meaning: W0Meaning}
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
	j := &DiagJSON{Value: JSONNum(r.Clipped), Meaning: ClippedMeaning}
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
	j := &CertificateJSON{ID: x.ID, Source: x.Source, SourcePDF: theory.Cite(x.Source), Formula: x.Formula, Quantity: x.Quantity, Value: JSONNum(x.Value),
		Terms: make([]TermJSON, len(x.Terms)), Conditions: x.Conditions, Meaning: CertMeaning,
		Vacuous: c.Vacuous(w0), Notes: nonNil(c.Notes)}
	for i, t := range x.Terms {
		j.Terms[i] = TermJSON{Name: t.Name, Value: JSONNum(t.Value)}
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
	if !math.IsNaN(mean) && mean > x.Value {
		txt += "; the measured mean is ABOVE it"
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
// digits ("0%", "0.09%", "48.2%").
func Percent(f float64) string {
	if math.IsNaN(f) {
		return "—"
	}
	if f == 0 {
		return "0%"
	}
	return theory.NumberFormat{Digits: 3}.Format(100*f) + "%"
}
