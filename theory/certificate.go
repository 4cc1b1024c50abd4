package theory

import (
	"encoding/json"
	"fmt"
	"math"
)

// Certificate is one of the paper's explicit-constant propositions
// evaluated at a run's actual parameters (prescribed or overridden): a
// number that the stated Quantity (an expected excess risk, or a distance)
// provably does not exceed, when every condition holds. It is not a rate:
// no constant is set to 1, and nothing is hidden. When a condition fails
// the proposition says nothing about the run, so Value is NaN (JSON null)
// and Terms is empty; Conditions say which failed. Value is +Inf (JSON
// null too, with every condition holding) when a moment it needs does not
// exist: the certificate is then vacuous.
type Certificate struct {
	// ID is the stable id, e.g. "acsa-generic" (see CertificateIDs).
	ID string `json:"id"`
	// Title is a short human name.
	Title string `json:"-"`
	// Label is the LaTeX \label of the proposition.
	Label string `json:"-"`
	// Source cites the proposition (by its \label) and how it is applied.
	Source string `json:"source"`
	// Formula is the bound as readable Unicode text.
	Formula string `json:"formula"`
	// Quantity is what is bounded, e.g. "E F(w_T^ag) − F*".
	Quantity string `json:"quantity"`
	// Value is the certified bound: the sum of Terms; NaN when a condition
	// fails, +Inf when a needed moment is infinite.
	Value float64 `json:"value"`
	// Terms are the additive terms, evaluated (empty when a condition
	// fails).
	Terms []Term `json:"terms"`
	// Conditions are the proposition's hypotheses that depend on the
	// parameters, checked.
	Conditions []Condition `json:"conditions"`
}

// Holds reports whether every condition holds (and so Value is a number or
// +Inf).
func (c Certificate) Holds() bool {
	for _, x := range c.Conditions {
		if !x.Holds {
			return false
		}
	}
	return true
}

// Failed lists the texts of the conditions that fail.
func (c Certificate) Failed() []string {
	var out []string
	for _, x := range c.Conditions {
		if !x.Holds {
			out = append(out, x.Text)
		}
	}
	return out
}

type certJSON struct {
	ID         string      `json:"id"`
	Source     string      `json:"source"`
	SourcePDF  string      `json:"source_pdf"`
	Formula    string      `json:"formula"`
	Quantity   string      `json:"quantity"`
	Value      *float64    `json:"value"`
	Terms      []termJSON  `json:"terms"`
	Conditions []Condition `json:"conditions"`
}

// MarshalJSON writes {"id", "source", "source_pdf" (Cite of "source"),
// "formula", "quantity", "value",
// "terms": [{"name", "value"}], "conditions": [{"text", "holds"}]}, with
// null for a value that is not a finite number (a failed condition, or a
// vacuous +Inf: "conditions" tells which).
func (c Certificate) MarshalJSON() ([]byte, error) {
	return marshalUnescaped(certJSON{ID: c.ID, Source: c.Source, SourcePDF: Cite(c.Source), Formula: c.Formula, Quantity: c.Quantity,
		Value: JSONNum(c.Value), Terms: termsJSON(c.Terms), Conditions: conditionsJSON(c.Conditions)})
}

// UnmarshalJSON reads what MarshalJSON writes: a null value is NaN when a
// condition fails and +Inf otherwise (a null term value is +Inf).
func (c *Certificate) UnmarshalJSON(data []byte) error {
	var j certJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*c = Certificate{ID: j.ID, Source: j.Source, Formula: j.Formula, Quantity: j.Quantity,
		Conditions: j.Conditions, Terms: termsOf(j.Terms)}
	switch {
	case j.Value != nil:
		c.Value = *j.Value
	case c.Holds():
		c.Value = math.Inf(1)
	default:
		c.Value = math.NaN()
	}
	return nil
}

// The certificate ids.
const (
	// CertACSA is Proposition "prop: ACSA generic", its second claim (the
	// schedule α_t = 2/(t+1), η_t = 4η/(t(t+1)) with η ≥ 2β).
	CertACSA = "acsa-generic"
	// CertACSASum is Proposition "prop: ACSA generic", its first claim
	// summed exactly over the same schedule (needs only η_t > βα_t²).
	CertACSASum = "acsa-generic-sum"
	// CertSCSGD is Proposition "prop: strongly convex biased sgd".
	CertSCSGD = "sc-biased-sgd"
	// CertProxPL is Proposition "lemma:extendsAS21Thm6".
	CertProxPL = "prox-pl"
	// CertSubgradERM is Lemma "lem: subgrad ERM bound" (one phase).
	CertSubgradERM = "subgrad-erm"
	// CertRegERM is Proposition "cor: reg ERM excess risk" (one phase).
	CertRegERM = "reg-erm"
	// CertLocalized is the composition of the proof of "thm: localization
	// convex" over the phases of Algorithm "localization".
	CertLocalized = "localized-convex"
	// CertLocalizedSC is the reduction of "app: localization strongly"
	// composed over its stages with CertLocalized.
	CertLocalizedSC = "localized-sc"
)

// finish sets Value and Terms: the sum of terms when every condition holds,
// else NaN and no terms.
func finish(c Certificate, terms []Term) Certificate {
	if c.Conditions == nil {
		c.Conditions = []Condition{}
	}
	if !c.Holds() {
		c.Value, c.Terms = math.NaN(), []Term{}
		return c
	}
	c.Terms = terms
	c.Value = 0
	for i := range c.Terms {
		c.Terms[i].RateN = math.NaN()
		c.Value += c.Terms[i].Value
	}
	return c
}

// CertError is an input of a certificate outside its domain (a count below
// 1, a negative scale): the caller's mistake, not a failed hypothesis.
type CertError struct {
	Cert, Field, Msg string
}

func (e *CertError) Error() string { return fmt.Sprintf("%s: %s %s", e.Cert, e.Field, e.Msg) }

// need returns a *CertError unless ok.
func need(ok bool, cert, field, format string, a ...any) error {
	if ok {
		return nil
	}
	return &CertError{Cert: cert, Field: field, Msg: fmt.Sprintf(format, a...)}
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func pos(x float64) bool    { return x > 0 && !math.IsNaN(x) }
func nonneg(x float64) bool { return x >= 0 }
func finitePos(x float64) bool {
	return x > 0 && !math.IsInf(x, 1)
}
