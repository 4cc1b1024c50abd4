package theory

import (
	"bytes"
	"encoding/json"
	"math"
)

// Kind says what a bound is: the paper's upper bound (an algorithm's
// guarantee), the paper's lower bound (no ρ-zCDP algorithm does better), or
// a prior work's upper bound the paper compares with.
type Kind string

// The kinds of bound.
const (
	Upper Kind = "upper"
	Lower Kind = "lower"
	Prior Kind = "prior"
)

// Term is one additive term of a bound, evaluated.
type Term struct {
	// Name is the term as readable Unicode text, with its role, e.g.
	// "r̃₂·D/√n (statistical)".
	Name string `json:"name"`
	// Value is the term's value; +Inf when it involves a moment that does
	// not exist (JSON null).
	Value float64 `json:"value"`
	// RateN is d log(term)/d log n at these parameters (+Inf at n = 1 for
	// a term with a fractional power of ln n, NaN when Value is 0 or +Inf).
	RateN float64 `json:"-"`
}

// Condition is a hypothesis of the bound's theorem, checked at the
// parameters. The bound's value is computed by its formula whether or not
// its conditions hold.
type Condition struct {
	// Text states the hypothesis and the numbers it was checked with, e.g.
	// "ε ≤ √d (ε = 1, √d = 3.1623)".
	Text string `json:"text"`
	// Holds reports whether it holds at these parameters.
	Holds bool `json:"holds"`
}

// Bound is one bound evaluated at one set of parameters.
//
// Bounds written with ≲ or Ω are evaluated with every hidden absolute
// constant set to 1 and log factors exactly as the theorem states them
// (natural log), so Value is a rate, not a certified number: compare shapes
// and slopes, not one upper bound with one lower bound at one point.
type Bound struct {
	// ID is the stable id, e.g. "smooth-convex-acsa" (see IDs).
	ID string `json:"id"`
	// Kind is upper, lower or prior.
	Kind Kind `json:"kind"`
	// Title is a short human name, e.g. "noisy clipped AC-SA".
	Title string `json:"-"`
	// Label is the LaTeX \label of the theorem in the paper's source.
	Label string `json:"-"`
	// Source cites the theorem (by its \label) or the prior work.
	Source string `json:"source"`
	// Classes are the loss classes on whose chart the bound belongs
	// (see ForClass).
	Classes []Class `json:"-"`
	// Formula is the bound as readable Unicode text.
	Formula string `json:"formula"`
	// Value is the bound's value, the sum of Terms; +Inf (JSON null) when
	// a moment it needs does not exist.
	Value float64 `json:"value"`
	// Terms are the additive terms, evaluated (a min{·,·} is one term,
	// evaluated at its smaller branch).
	Terms []Term `json:"terms"`
	// Dominant is the Name of the largest term.
	Dominant string `json:"dominant"`
	// Conditions are the theorem's hypotheses, checked.
	Conditions []Condition `json:"conditions"`
	// RateN is the local rate exponent d log(Value)/d log n at these
	// parameters, computed analytically (each term is c·n^p·(ln n)^q, so
	// its own rate is p + q/ln n, and RateN is their Value-weighted mean;
	// a min{·,·} contributes its smaller branch, at a tie the branch with
	// the smaller rate, i.e. the right derivative). NaN (JSON null) when
	// Value is +Inf.
	RateN float64 `json:"rate_n"`
}

// ConditionsHold reports whether every condition holds.
func (b Bound) ConditionsHold() bool {
	for _, c := range b.Conditions {
		if !c.Holds {
			return false
		}
	}
	return true
}

type termJSON struct {
	Name  string   `json:"name"`
	Value *float64 `json:"value"`
}

type boundJSON struct {
	ID         string      `json:"id"`
	Kind       Kind        `json:"kind"`
	Source     string      `json:"source"`
	SourcePDF  string      `json:"source_pdf"`
	Formula    string      `json:"formula"`
	Value      *float64    `json:"value"`
	Terms      []termJSON  `json:"terms"`
	Dominant   string      `json:"dominant"`
	Conditions []Condition `json:"conditions"`
	RateN      *float64    `json:"rate_n"`
	Meaning    string      `json:"meaning"`
}

// RateMeaning is what a bound's value is, said wherever one is shown: a
// rate with the hidden constants set to 1, not a certified number (for
// that, see Certificate).
const RateMeaning = "rate, constants = 1: compare slopes, not levels"

// MarshalJSON writes {"id", "kind", "source", "source_pdf", "formula",
// "value", "terms": [{"name", "value"}], "dominant", "conditions": [{"text",
// "holds"}], "rate_n", "meaning"} ("source" cites the paper by its LaTeX
// labels, "source_pdf" as its PDF numbers them: Cite; "meaning" is
// RateMeaning), with null for an infinite value (and for a rate that does
// not exist).
func (b Bound) MarshalJSON() ([]byte, error) {
	return marshalUnescaped(boundJSON{ID: b.ID, Kind: b.Kind, Source: b.Source, SourcePDF: Cite(b.Source), Formula: b.Formula,
		Value: JSONNum(b.Value), Dominant: b.Dominant, RateN: JSONNum(b.RateN), Meaning: RateMeaning,
		Terms: termsJSON(b.Terms), Conditions: conditionsJSON(b.Conditions)})
}

// termsJSON is ts as JSON terms, null for a value that is not finite.
func termsJSON(ts []Term) []termJSON {
	out := make([]termJSON, len(ts))
	for i, t := range ts {
		out[i] = termJSON{Name: t.Name, Value: JSONNum(t.Value)}
	}
	return out
}

// termsOf reads termsJSON back: a null value is +Inf; RateN is NaN (it is
// not written).
func termsOf(js []termJSON) []Term {
	out := make([]Term, len(js))
	for i, t := range js {
		out[i] = Term{Name: t.Name, Value: orInf(t.Value), RateN: math.NaN()}
	}
	return out
}

// conditionsJSON is cs, written [] rather than null when there are none.
func conditionsJSON(cs []Condition) []Condition {
	if cs == nil {
		return []Condition{}
	}
	return cs
}

// marshalUnescaped is v's JSON with &, <, > unescaped (formulas and
// sources contain them; an encoder that escapes HTML will still escape
// them when it compacts this), without encoding/json's trailing newline.
func marshalUnescaped(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads what MarshalJSON writes: a null value is +Inf, a null
// rate_n is NaN.
func (b *Bound) UnmarshalJSON(data []byte) error {
	var j boundJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*b = Bound{ID: j.ID, Kind: j.Kind, Source: j.Source, Formula: j.Formula,
		Value: orInf(j.Value), Dominant: j.Dominant, Conditions: j.Conditions,
		RateN: math.NaN(), Terms: termsOf(j.Terms)}
	if j.RateN != nil {
		b.RateN = *j.RateN
	}
	return nil
}

func orInf(p *float64) float64 {
	if p == nil {
		return math.Inf(1)
	}
	return *p
}

// mul multiplies with the convention 0·∞ = 0: a factor that is exactly
// zero (β = 0, ln 1 = 0) makes the term vanish identically in the other
// factors, so its limit as a moment grows to ∞ is 0, not NaN.
func mul(xs ...float64) float64 {
	r := 1.0
	for _, x := range xs {
		if x == 0 {
			return 0
		}
		r *= x
	}
	return r
}

// powTerm is an additive term c·n^p·(ln n)^q, with the coefficient c ≥ 0
// (possibly +Inf) independent of n.
type powTerm struct {
	name string
	c    float64
	p, q float64
}

// at is the term's value at n, with lnN = ln n.
func (t powTerm) at(n, lnN float64) float64 {
	return mul(t.c, math.Pow(n, t.p), lnPow(lnN, t.q))
}

// lnPow is (ln n)^q with (ln n)^0 = 1 even at n = 1.
func lnPow(lnN, q float64) float64 {
	if q == 0 {
		return 1
	}
	return math.Pow(lnN, q)
}

// deriv is d(term)/d log n = c·n^p·(p·(ln n)^q + q·(ln n)^(q−1)).
func (t powTerm) deriv(n, lnN float64) float64 {
	if t.c == 0 {
		return 0
	}
	d := t.p * lnPow(lnN, t.q)
	if t.q != 0 {
		d += t.q * math.Pow(lnN, t.q-1) // +Inf at ln n = 0 when q < 1
	}
	if d == 0 {
		return 0
	}
	return mul(t.c, math.Pow(n, t.p), d)
}

// slope is the term's own rate d log(term)/d log n.
func (t powTerm) slope(n, lnN float64) float64 {
	v := t.at(n, lnN)
	if v == 0 || math.IsInf(v, 0) {
		return math.NaN()
	}
	return t.deriv(n, lnN) / v
}

// minOf returns the branch of min{a, b} that is smaller at n; at a tie the
// one with the smaller rate (so that the rate is the right derivative).
func minOf(a, b powTerm, n, lnN float64) powTerm {
	va, vb := a.at(n, lnN), b.at(n, lnN)
	switch {
	case va < vb:
		return a
	case vb < va:
		return b
	}
	if b.p+safeDiv(b.q, lnN) < a.p+safeDiv(a.q, lnN) {
		return b
	}
	return a
}

func safeDiv(q, l float64) float64 {
	if q == 0 {
		return 0
	}
	return q / l
}

// assemble fills Value, Terms, Dominant and RateN of b from its terms.
func assemble(b *Bound, terms []powTerm, n float64) {
	lnN := math.Log(n)
	total, dsum := 0.0, 0.0
	b.Terms = make([]Term, len(terms))
	best := -1.0
	for i, t := range terms {
		v := t.at(n, lnN)
		b.Terms[i] = Term{Name: t.name, Value: v, RateN: t.slope(n, lnN)}
		total += v
		dsum += t.deriv(n, lnN)
		if v > best {
			best, b.Dominant = v, t.name
		}
	}
	b.Value = total
	switch {
	case math.IsInf(total, 1) || total == 0:
		b.RateN = math.NaN()
	default:
		b.RateN = dsum / total
	}
}
