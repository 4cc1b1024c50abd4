package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTuneCandidateOutputs: with --emit-candidates --json each trial's
// diagnostics hold every candidate's output w, one per candidate tried (K
// of them, in the order of tried and scores), d coordinates each, the
// chosen one the released w bit for bit; --emit-w alone (the private
// release) and no flag give none; --emit-candidates without --json is
// refused, naming the flag.
func TestTuneCandidateOutputs(t *testing.T) {
	args := []string{"tune", "--scenario", "linreg-t", "--class", "smooth-sc", "--d", "3", "--n", "2000", "--trials", "2", "--seed", "3", "--solvers", "clipped-sgd,dp-sgd",
		"--grid-clip", "0.5,2", "--grid-step", "0.05,0.2", "--grid-iters", "20", "--grid-epochs", "1,2", "--grid-batch", "50,200", "--references=false", "--json"}
	type doc struct {
		Solvers []struct {
			Solver string
			Tuned  struct {
				Trials []struct {
					W           []float64
					Diagnostics struct {
						K      int
						Tried  []int
						Scores []float64
						Chosen *int
						Ws     [][]float64
					}
				}
			}
		}
	}
	t.Run("--emit-candidates without --json", func(t *testing.T) {
		a := append(append([]string{}, args[:len(args)-1]...), "--emit-candidates")
		code, _, errs := dpsoCLI(a...)
		if code != 2 || !strings.Contains(errs, "--emit-candidates") {
			t.Errorf("status %d, %q: want 2 naming --emit-candidates", code, errs)
		}
	})
	for _, tc := range []struct {
		name  string
		flags []string
		emit  bool
	}{
		{"with --emit-candidates", []string{"--emit-candidates"}, true},
		{"with --emit-w alone", []string{"--emit-w"}, false},
		{"without either", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := append(append([]string{}, args...), tc.flags...)
			code, out, errs := dpsoCLI(a...)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errs)
			}
			var j doc
			if err := json.Unmarshal([]byte(out), &j); err != nil {
				t.Fatal(err)
			}
			if len(j.Solvers) != 2 {
				t.Fatalf("%d solvers, want 2", len(j.Solvers))
			}
			for _, s := range j.Solvers {
				for ti, tr := range s.Tuned.Trials {
					dg := tr.Diagnostics
					if !tc.emit {
						if dg.Ws != nil {
							t.Errorf("%s trial %d: ws without --emit-candidates", s.Solver, ti)
						}
						continue
					}
					if len(dg.Ws) != dg.K || len(dg.Tried) != dg.K || len(dg.Scores) != dg.K {
						t.Fatalf("%s trial %d: %d ws, %d tried, %d scores; want K = %d each", s.Solver, ti, len(dg.Ws), len(dg.Tried), len(dg.Scores), dg.K)
					}
					for c, w := range dg.Ws {
						if len(w) != 3 {
							t.Errorf("%s trial %d candidate %d: %d coordinates, want d = 3", s.Solver, ti, c, len(w))
						}
					}
					if dg.Chosen == nil {
						continue
					}
					chosen := dg.Ws[*dg.Chosen]
					for c := range tr.W {
						if chosen[c] != tr.W[c] {
							t.Errorf("%s trial %d: the chosen candidate's w %v, the released %v", s.Solver, ti, chosen, tr.W)
							break
						}
					}
				}
			}
		})
	}
}
