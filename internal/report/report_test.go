package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// TestRunDocumentNulls: a value that is infinite or does not exist is null
// in the JSON (the docs' convention), never a string or a huge number;
// a comparison's refused solver says so; MarshalJSON writes what
// WriteJSON writes (no HTML escaping: formulas hold < and >).
func TestRunDocumentNulls(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	r := &engine.Report{
		Spec:    spec.Spec{Scenario: "linreg-t", Class: theory.SmoothConvex, K: inf, Eps: inf, Trials: 1},
		Solver:  "nonprivate-schedule",
		Oracle:  "clip-gaussian",
		Privacy: spec.Privacy{Model: spec.ZCDP, Eps: inf, Rho: inf},
		Excess:  engine.Estimate{Mean: 0.5, SE: nan, N: 1},
		Theory:  scenarios.TheoryInputs{N: 100, D: 2},
		Trials:  []engine.TrialResult{{Excess: 0.5, W: []float64{1, inf}}},
		Bounds:  []theory.Bound{{ID: "x", Formula: "a < b", Value: inf}},
		Risk:    scenarios.RiskInfo{Kind: scenarios.Population, Method: "closed form"},
	}
	r.Params.Clip = inf
	doc := Run(r, Options{EmitW: true})
	if doc.K != nil || doc.Eps != nil || doc.Params.Clip != nil || doc.ExcessRisk.Stderr != nil || doc.Trials[0].W[1] != nil {
		t.Errorf("infinite or missing values are not null: %+v", doc)
	}
	if doc.Privacy.Model != "none" {
		t.Errorf("ε = ∞: privacy model %q, want none", doc.Privacy.Model)
	}
	var w bytes.Buffer
	if err := WriteJSON(&w, doc); err != nil {
		t.Fatal(err)
	}
	m, err := MarshalJSON(doc)
	if err != nil || !bytes.Equal(m, w.Bytes()) || !strings.Contains(w.String(), `"a < b"`) || strings.Contains(w.String(), "Inf") {
		t.Errorf("MarshalJSON differs from WriteJSON, escapes HTML or writes Inf (%v):\n%s", err, w.String())
	}
	var back map[string]any
	if err := json.Unmarshal(w.Bytes(), &back); err != nil || back["k"] != nil {
		t.Errorf("the document does not decode with k null: %v", err)
	}

	refused := &engine.Report{Spec: r.Spec, Solver: "lipschitz-dpsgd", Refused: "L_f = ∞", Excess: engine.Estimate{Mean: nan, SE: nan}}
	doc2 := Comparison(&engine.Comparison{Reports: []*engine.Report{r, refused}, Diff: []engine.Estimate{{}, {Mean: nan, SE: nan}}}, Options{})
	docs := doc2.Runs
	if len(docs) != 2 || docs[0].Refused != "" || docs[1].Refused != "L_f = ∞" || docs[1].ExcessRisk.Mean != nil ||
		len(doc2.PairedDifferences) != 2 || doc2.PairedDifferences[1].Mean != nil || doc2.Solvers[1] != "lipschitz-dpsgd" {
		t.Errorf("comparison document %+v", doc2)
	}
}

// TestWriteRunJSONStreamsTheSameBytes: the streamed document of --emit-w
// is byte for byte WriteJSON's of Run(r) (the trials are written one by
// one, so that --trials × --d cannot exhaust memory).
func TestWriteRunJSONStreamsTheSameBytes(t *testing.T) {
	for _, trials := range []int{1, 3} {
		t.Run(fmt.Sprintf("trials=%d", trials), func(t *testing.T) {
			rs, err := spec.Spec{Scenario: "linreg-t", D: 4, N: 400, Trials: trials}.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			r, err := engine.Run(context.Background(), rs, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, emit := range []bool{false, true} {
				t.Run(fmt.Sprintf("emit-w=%v", emit), func(t *testing.T) {
					opt := Options{EmitW: emit}
					var want, got bytes.Buffer
					if err := WriteJSON(&want, Run(r, opt)); err != nil {
						t.Fatal(err)
					}
					if err := WriteRunJSON(&got, r, opt); err != nil {
						t.Fatal(err)
					}
					if got.String() != want.String() {
						t.Errorf("%d trials, emit %v: streamed document differs:\n--- got\n%s\n--- want\n%s", trials, emit, got.String(), want.String())
					}
				})
			}
		})
	}
}

// TestComparisonNotesPrefix: in a comparison's notes a solver's own note
// is prefixed with its name once — "dp-sgd: T = …", which names its
// solver already, is not made "dp-sgd: dp-sgd: T = …" — and a note every
// solver has stands once, unprefixed.
func TestComparisonNotesPrefix(t *testing.T) {
	c := &engine.Comparison{Reports: []*engine.Report{
		{Solver: "dp-sgd", Notes: []string{"dp-sgd: T = 3907 steps", "shared"}},
		{Solver: "acsa", Notes: []string{"shared", "its own"}, RefNotes: []string{"certificate"}},
	}}
	want := []string{"dp-sgd: T = 3907 steps", "shared", "acsa: its own", "acsa: certificate"}
	if got := Notes(c); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("notes %q, want %q", got, want)
	}
}
