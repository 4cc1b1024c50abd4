package theory

import (
	"encoding/json"
	"math"
)

// The two ways dpso writes a float64 into JSON. A document a person or a
// program reads (every --json output, a Bound) writes a number that does
// not exist as null: JSONNum. A file dpso reads back to the bit (a sweep's
// shard) carries every value exactly, NaN and ±Inf included: ExactNum.

// JSONNum is x for a JSON document: nil (null) where x is infinite or does
// not exist (NaN), as the documents' conventions say.
func JSONNum(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// ExactNum is a float64 that JSON carries exactly: encoding/json writes a
// finite float64 in the shortest form that parses back to the same bits
// (−0 as -0); JSON has no number for NaN, +Inf and −Inf, which ExactNum
// writes as the strings "NaN", "+Inf" and "-Inf".
type ExactNum float64

// MarshalJSON implements json.Marshaler.
func (x ExactNum) MarshalJSON() ([]byte, error) {
	switch f := float64(x); {
	case math.IsNaN(f):
		return []byte(`"NaN"`), nil
	case math.IsInf(f, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-Inf"`), nil
	default:
		return json.Marshal(f)
	}
}

// UnmarshalJSON implements json.Unmarshaler: a JSON number, or one of the
// three strings MarshalJSON writes; anything else is an error.
func (x *ExactNum) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"NaN"`:
		*x = ExactNum(math.NaN())
	case `"+Inf"`:
		*x = ExactNum(math.Inf(1))
	case `"-Inf"`:
		*x = ExactNum(math.Inf(-1))
	default:
		var f float64
		if err := json.Unmarshal(b, &f); err != nil {
			return err
		}
		*x = ExactNum(f)
	}
	return nil
}
