package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"slices"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
)

// TestSweepRowIsWhatItsSolverAloneGives: a solver's rows of a sweep are
// what the sweep of that solver alone gives, byte for byte (its CSV rows and
// its JSON rows), in company of other solvers, for every sweep kind. In a
// clip sweep each solver holds its own step (and T) at its own prescribed
// C, as alone (were the steps to follow C, acsa at C = 14.1 would give
// 0.0503 alone and 0.219 beside dp-sgd).
func TestSweepRowIsWhatItsSolverAloneGives(t *testing.T) {
	base := spec.Spec{Scenario: "linreg-t", Class: "smooth-convex", N: 2000, D: 3, Trials: 2, Seed: 11}
	company := []string{"acsa", "klz-gd", "dp-sgd"}
	for _, c := range []struct {
		name string
		sw   engine.SweepSpec
	}{
		{"n", engine.SweepSpec{Param: spec.SweepN, From: 1000, To: 2000, Points: 2}},
		{"eps", engine.SweepSpec{Param: spec.SweepEps, From: 0.5, To: 2, Points: 2}},
		{"d", engine.SweepSpec{Param: spec.SweepD, From: 2, To: 4, Points: 2}},
		{"clip", engine.SweepSpec{Param: spec.SweepClip, From: 0.5, To: 20, Points: 3}},
		{"k", engine.SweepSpec{Param: spec.SweepK, From: 2, To: 2.8, Points: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sweep := func(solver string, names []string) *engine.SweepReport {
				s := base.Clone()
				s.Solver = solver
				r, err := s.Resolve()
				if err != nil {
					t.Fatal(err)
				}
				sw := c.sw
				sw.Solvers = names
				rep, err := engine.Sweep(context.Background(), r, sw, nil)
				if err != nil {
					t.Fatal(err)
				}
				return rep
			}
			together := sweep(company[0], company)
			for _, name := range company {
				t.Run(name, func(t *testing.T) {
					alone := sweep(name, []string{name})
					if a, b := csvRowsOf(t, alone, name), csvRowsOf(t, together, name); !slices.Equal(a, b) {
						t.Errorf("%s's CSV rows alone and in company differ:\n alone    %q\n together %q", name, a, b)
					}
					if a, b := jsonRowsOf(t, alone, name), jsonRowsOf(t, together, name); !slices.Equal(a, b) {
						t.Errorf("%s's JSON rows alone and in company differ:\n alone    %s\n together %s", name, a, b)
					}
				})
			}
		})
	}
}

// csvRowsOf is solver's rows of the sweep's CSV, each joined into one
// string.
func csvRowsOf(t *testing.T, rep *engine.SweepReport, solver string) []string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteSweepCSV(&b, rep, nil); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(recs[0], "solver")
	var out []string
	for _, r := range recs[1:] {
		if r[col] == solver {
			var line bytes.Buffer
			w := csv.NewWriter(&line)
			w.Write(r)
			w.Flush()
			out = append(out, line.String())
		}
	}
	if len(out) == 0 {
		t.Fatalf("no CSV rows of %s", solver)
	}
	return out
}

// jsonRowsOf is solver's rows of the sweep's JSON document, each encoded.
func jsonRowsOf(t *testing.T, rep *engine.SweepReport, solver string) []string {
	t.Helper()
	var out []string
	for _, r := range Sweep(rep).Rows {
		if r.Solver == solver {
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(b))
		}
	}
	return out
}

// TestSweepNoiseOffIsTheNoiseFreeRun: the NOISE OFF column is a run of the
// same schedule without noise on the same draws. For dp-sgd that is the
// run at ε = ∞ (noise multiplier 0) with the point's C, step and T given
// and the same seed: the two means agree bit for bit. (dp-sgd once ignored
// the noise switch, and its noise-off value equalled its MEAN.)
func TestSweepNoiseOffIsTheNoiseFreeRun(t *testing.T) {
	s := spec.Spec{Scenario: "linreg-t", Class: "smooth-convex", Solver: "dp-sgd", N: 2000, D: 3, Trials: 2, Seed: 5}
	r, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := engine.Sweep(context.Background(), r, engine.SweepSpec{Param: spec.SweepClip, From: 1, To: 200, Points: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Points {
		row := p.Reports[0]
		z := s.Clone()
		z.Eps, z.Clip, z.Step, z.Iters = math.Inf(1), p.Value, row.Params.Step, row.Params.Iters
		rz, err := z.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		free, err := engine.Run(context.Background(), rz, nil)
		if err != nil {
			t.Fatal(err)
		}
		if row.NoiseOff.Mean != free.Excess.Mean {
			t.Errorf("C = %g: NOISE OFF %v, the noise-free run %v", p.Value, row.NoiseOff.Mean, free.Excess.Mean)
		}
		if row.NoiseOff.Mean == row.Excess.Mean {
			t.Errorf("C = %g: NOISE OFF equals MEAN (%v): the noise was not switched off", p.Value, row.Excess.Mean)
		}
	}
}
