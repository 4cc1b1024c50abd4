package plot

import (
	"context"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// TestTuneNotesFileOnlyTheOracleAsNotPrivate: the tuning figure's note on
// the references says what it says — the prescribed runs are private,
// each at its own ρ outside the search's ε; the oracle-tuned reference is
// not private — and is not filed whole under "not private:", which put
// the prescribed bar (a private run) there.
func TestTuneNotesFileOnlyTheOracleAsNotPrivate(t *testing.T) {
	rs, err := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, D: 3, N: 2000, Trials: 2}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := engine.Tune(context.Background(), rs, engine.TuneSpec{References: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Tune(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range f.notes {
		if strings.Contains(n, "prescribed run") {
			found = true
			if strings.HasPrefix(n, "not private") {
				t.Errorf("the prescribed runs' note is filed under not private: %q", n)
			}
		}
	}
	if !found {
		t.Errorf("no note says what the prescribed runs spend: %q", f.notes)
	}
}
