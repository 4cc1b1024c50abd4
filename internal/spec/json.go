package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"dpso/theory"
)

// jsonFloat is a float for a Spec's JSON: a number, or "+Inf", "-Inf",
// "NaN", which encoding/json cannot write as numbers.
func jsonFloat(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return f
}

// MarshalJSON encodes the Spec as an object of its set fields (those that
// are not zero; a λ when not nil; Params when not nil) under their Field
// names, keys in alphabetical order, non-finite values as "+Inf", "-Inf",
// "NaN".
func (s Spec) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	for _, f := range fields {
		switch f.Kind {
		case String:
			if v := *f.str(&s); v != "" {
				m[f.Name] = v
			}
		case Bool:
			if *f.bl(&s) {
				m[f.Name] = true
			}
		case Uint:
			if v := *f.u64(&s); v != 0 {
				m[f.Name] = v
			}
		case OptFloat:
			if p := *f.opt(&s); p != nil {
				m[f.Name] = jsonFloat(*p)
			}
		case ParamMap:
			if s.Params != nil {
				pm := make(map[string]any, len(s.Params))
				for k, v := range s.Params {
					pm[k] = jsonFloat(v)
				}
				m[f.Name] = pm
			}
		case Int:
			if f.i != nil {
				if v := *f.i(&s); v != 0 {
					m[f.Name] = v
				}
			} else if v := *f.i64(&s); v != 0 {
				m[f.Name] = v
			}
		case Float:
			if v := *f.f64(&s); v != 0 {
				m[f.Name] = jsonFloat(v)
			}
		}
	}
	return json.Marshal(m)
}

// specAlias has Spec's fields without its methods.
type specAlias Spec

// UnmarshalJSON decodes a Spec, accepting "inf", "+Inf", "∞" (any case)
// for infinite values, and rejecting unknown fields with an error that
// names them. Values are not range-checked here: Resolve does that.
func (s *Spec) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return &SpecError{Field: "spec", Msg: "not a JSON object: " + err.Error()}
	}
	// encoding/json cannot hold ±Inf: decode them as 0 and set them after.
	infs := map[string]float64{}
	for _, f := range fields {
		if f.Kind != Float && f.Kind != OptFloat {
			continue
		}
		m, ok := raw[f.Name]
		if !ok {
			continue
		}
		var str string
		if json.Unmarshal(m, &str) != nil {
			continue // a number (or a type error reported below)
		}
		x, err := theory.ParseNumber(str)
		if err != nil {
			return &SpecError{Field: f.Name, Msg: err.Error()}
		}
		if math.IsInf(x, 0) {
			infs[f.Name] = x
			x = 0
		}
		raw[f.Name] = json.RawMessage(strconv.FormatFloat(x, 'g', -1, 64))
	}
	if p, ok := raw["params"]; ok {
		var pm map[string]json.RawMessage
		if err := json.Unmarshal(p, &pm); err != nil {
			return &SpecError{Field: "params", Msg: "want an object of numbers: " + err.Error()}
		}
		for k, m := range pm {
			var str string
			if json.Unmarshal(m, &str) == nil {
				x, err := theory.ParseNumber(str)
				if err != nil || math.IsInf(x, 0) {
					return &SpecError{Field: k, Msg: fmt.Sprintf("%s is not a finite number", theory.Quote(str))}
				}
				pm[k] = json.RawMessage(strconv.FormatFloat(x, 'g', -1, 64))
			}
		}
		raw["params"], _ = json.Marshal(pm)
	}
	clean, _ := json.Marshal(raw)
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.DisallowUnknownFields()
	var a specAlias
	if err := dec.Decode(&a); err != nil {
		msg := err.Error()
		if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
			return &SpecError{Field: strings.Trim(f, `"`), Msg: "unknown field"}
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &SpecError{Field: te.Field, Msg: fmt.Sprintf("want a %s, got a JSON %s", te.Type, te.Value)}
		}
		return &SpecError{Field: "spec", Msg: msg}
	}
	*s = Spec(a)
	for name, v := range infs {
		f, _ := FieldByName(name)
		if f.Kind == OptFloat {
			x := v
			*f.opt(s) = &x
		} else {
			*f.f64(s) = v
		}
	}
	return nil
}
