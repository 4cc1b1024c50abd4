package report

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/theory"
)

// TestFlaggedConstantsInTables: on 60 rows of ten features, the private
// estimate of μ for a smooth strongly convex problem fails (the noise of
// the second moment, σ ≈ 0.19 per entry, swamps λ_min), which used to
// abort the run and the search. Both complete — the release is
// post-processed to its fallback μ = β/n — and the flag is in the tables'
// rows, not only in the JSON: the run's constants row, the tuned row and
// the line under the search's table.
func TestFlaggedConstantsInTables(t *testing.T) {
	p := filepath.Join(t.TempDir(), "rows.csv")
	rng := rand.New(rand.NewPCG(60, 10))
	var b strings.Builder
	for range 60 {
		var y float64
		for j := range 10 {
			a := rng.NormFloat64()
			y += a / float64(j+1)
			b.WriteString(theory.Arg.Format(a) + ",")
		}
		b.WriteString(theory.Arg.Format(y+rng.NormFloat64()) + "\n")
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := spec.Spec{Data: p, Class: theory.SmoothSC, Constants: spec.ConstantsPrivate, Eps: 1, Rand: "seeded", Trials: 2}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	run, err := engine.Run(ctx, r, nil)
	if err != nil {
		t.Fatalf("the run aborted: %v", err)
	}
	var out bytes.Buffer
	if err := WriteRunTable(&out, run, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "FLAGGED in 2 of 2 trial(s), trial 0: μ = max(λ_min(S), 0) + λ₂ = 0 ≤ 0") {
		t.Errorf("the run's table does not flag the constants:\n%s", out.String())
	}
	tune, err := engine.Tune(ctx, r, engine.TuneSpec{}, nil)
	if err != nil {
		t.Fatalf("the search aborted: %v", err)
	}
	out.Reset()
	if err := WriteTuneTable(&out, tune, Options{}); err != nil {
		t.Fatal(err)
	}
	var row string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "clipped-sgd  tuned") {
			row = l
		}
	}
	if !strings.Contains(row, "[constants flagged in 2/2]") || !strings.Contains(out.String(), "constants (clipped-sgd, tuned): FLAGGED in 2 of 2 trial(s)") {
		t.Errorf("the search's table does not flag the constants in the tuned row:\n%s", out.String())
	}
}
