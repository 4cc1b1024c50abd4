package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"dpso/internal/spec"
	"dpso/solvers"
	"dpso/theory"
)

// Options shape the documents of a run.
type Options struct {
	// ConvDelta is the δ at which a zCDP run's (ε', δ)-DP equivalent is
	// given (0: spec.DefaultConversionDelta).
	ConvDelta float64
	// EmitW includes each trial's output w.
	EmitW bool
	// Citation, when set, is the document's "citation" (its first key)
	// and its CSV's trailing columns.
	Citation *Citation
}

func (o Options) convDelta() float64 {
	if o.ConvDelta == 0 {
		return spec.DefaultConversionDelta
	}
	return o.ConvDelta
}

// SeedJSON is the seed a document states: nil (null) with secure
// randomness (rand is "secure"), where every stream is keyed from
// crypto/rand and no seed is read — a seed there would suggest a
// reproducibility the run does not have.
func SeedJSON(rand string, seed uint64) *uint64 {
	if rand == solvers.Secure.String() {
		return nil
	}
	return &seed
}

// RandText is the randomness as the tables state it: "seed S, LABEL"
// when seeded, the mode's label alone when secure (no seed is read).
func RandText(rand string, seed uint64) string {
	mode, err := solvers.ParseRandMode(rand)
	if err != nil {
		return rand
	}
	if mode == solvers.Secure {
		return mode.Label()
	}
	return fmt.Sprintf("seed %d, %s", seed, mode.Label())
}

// WriteJSON writes v as indented JSON, without HTML escaping (formulas
// contain <, >).
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// MarshalJSON is the bytes WriteJSON writes (the explorer's export
// files), byte for byte.
func MarshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := WriteJSON(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// The number formats of the tables and CSV files (theory's presets; the
// explorer writes theory.Human).
var (
	n6      = theory.Sig6.Format // 6 significant digits
	n4      = theory.Sig4.Format // 4 significant digits: bound values, progress
	rate    = theory.Rate.Format // exponents, 3 decimals, "—" where none exists
	csvCell = theory.CSV.Format  // exact, "inf", "" where none exists
)
