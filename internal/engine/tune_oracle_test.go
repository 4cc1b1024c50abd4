package engine

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"dpso/internal/spec"
	"dpso/theory"
)

// TestCoarseGrid: the coarse grid keeps, on every axis of m distinct
// values, max(2, ⌈m/2⌉) of them evenly spread, both ends included; on
// the clip axis, of the C's of each T (acsa's axis of noise sets a C per
// T: with C = 2^j·400/T, 24 distinct C's, it keeps the same 12 points as
// with one C axis).
func TestCoarseGrid(t *testing.T) {
	acsa := func() []Candidate { // 6 C × 3 steps × 4 T, in gridFor's order
		var g []Candidate
		for _, c := range powers(2, -6, -1) {
			for _, s := range []float64{0.5, 1, 2} {
				for _, it := range []int{5, 10, 20, 40} {
					g = append(g, Candidate{Clip: c, Step: s, Iters: it})
				}
			}
		}
		return g
	}
	perT := func() []Candidate { // acsa's, each C scaled by 400/T
		g := acsa()
		for i := range g {
			g[i].Clip *= 400 / float64(g[i].Iters)
		}
		return g
	}
	dpsgd := func() []Candidate { // 2 C × 4 steps × 3 epochs × 3 batches
		var g []Candidate
		for _, c := range []float64{1, 2} {
			for _, s := range powers(4, -3, 0) {
				for _, e := range []float64{1, 2, 5} {
					for _, b := range []int{10, 80, 320} {
						g = append(g, Candidate{Clip: c, Step: s, Epochs: e, Batch: b})
					}
				}
			}
		}
		return g
	}
	acsaCoarse := func(c Candidate) bool {
		return slices.Contains([]float64{1.0 / 64, 1.0 / 8, 0.5}, c.Clip) && c.Step != 1 && (c.Iters == 5 || c.Iters == 40)
	}
	for _, c := range []struct {
		name string
		grid []Candidate
		want func(Candidate) bool
		n    int
	}{
		{"acsa's default", acsa(), acsaCoarse, 12},
		{"a C per T", perT(), func(c Candidate) bool {
			c.Clip *= float64(c.Iters) / 400
			return acsaCoarse(c)
		}, 12},
		{"dp-sgd's", dpsgd(), func(c Candidate) bool {
			return (c.Step == 1 || c.Step == 1.0/64) && c.Epochs != 2 && c.Batch != 80
		}, 16},
		{"one point", []Candidate{{Clip: 1, Step: 1, Iters: 3}}, func(Candidate) bool { return true }, 1},
		{"a point dropped", acsa()[1:], acsaCoarse, 11},
		{"five values", func() []Candidate {
			var g []Candidate
			for _, c := range []float64{1, 2, 3, 4, 5} {
				g = append(g, Candidate{Clip: c, Step: 1, Iters: 1})
			}
			return g
		}(), func(c Candidate) bool { return c.Clip != 2 && c.Clip != 4 }, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			keep := coarseGrid(c.grid)
			n := 0
			for i, cd := range c.grid {
				if keep[i] != c.want(cd) {
					t.Errorf("point %+v: kept %v", cd, keep[i])
				}
				if keep[i] {
					n++
				}
			}
			if n != c.n {
				t.Errorf("%d points kept, want %d", n, c.n)
			}
		})
	}
}

// TestTuneCoarseFirst: with Settings.Coarse the reference Tune returns is
// the same bit for bit as without, on 1 and 3 workers, and Coarse is
// given once, after Searched, the reference of the coarse points: each of
// them the final reference's Estimate, every other point empty, the best
// the coarse points' smallest mean.
func TestTuneCoarseFirst(t *testing.T) {
	c := constantsCases()[0] // declared: n = 1000, 2 trials, smooth-convex
	ts := TuneSpec{References: true, Solvers: []string{"acsa", "klz-gd"}}
	plain := referenceSearch(t, c.name, c.s).rep
	for _, w := range []int{1, 3} {
		s := c.s
		s.Workers = w
		var order []string
		var early *TuneReport
		set := &Settings{
			Searched: func(*TuneReport) { order = append(order, "searched") },
			Coarse:   func(r *TuneReport) { order = append(order, "coarse"); early = r },
		}
		rep, err := Tune(context.Background(), resolve(t, s), ts, set)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(order, []string{"searched", "searched", "coarse"}) {
			t.Fatalf("%d workers: callbacks %v, want Searched twice then Coarse", w, order)
		}
		for i, fin := range rep.Solvers {
			if fin.Refused != "" {
				t.Fatalf("%s refused: %s", fin.Solver, fin.Refused)
			}
			if !sameJSON(t, fin.Oracle, plain.Solvers[i].Oracle) || !sameJSON(t, fin.Tuned, plain.Solvers[i].Tuned) {
				t.Errorf("%d workers, %s: the search with its coarse grid first differs from the plain one", w, fin.Solver)
			}
			if fin.Oracle.Coarse || fin.Oracle.Ran != nil {
				t.Errorf("%s: the final reference says it is coarse (%v, %v)", fin.Solver, fin.Oracle.Coarse, fin.Oracle.Ran)
			}
			co := early.Solvers[i].Oracle
			keep := coarseGrid(fin.Tuned.Trials[0].Grid)
			var ran []int
			best := -1
			for p, k := range keep {
				if !k {
					if co.Points[p].N != 0 || !math.IsNaN(co.Points[p].Mean) {
						t.Errorf("%s: point %d is not coarse but has %+v", fin.Solver, p, co.Points[p])
					}
					continue
				}
				ran = append(ran, p)
				if !sameJSON(t, co.Points[p], fin.Oracle.Points[p]) {
					t.Errorf("%s: coarse point %d: %+v, the final reference %+v", fin.Solver, p, co.Points[p], fin.Oracle.Points[p])
				}
				if best < 0 || fin.Oracle.Points[p].Mean < fin.Oracle.Points[best].Mean {
					best = p
				}
			}
			if !co.Coarse || !slices.Equal(co.Ran, ran) || len(ran) == 0 || len(ran) == len(keep) {
				t.Errorf("%s: coarse %v, ran %v, want %v (of %d)", fin.Solver, co.Coarse, co.Ran, ran, len(keep))
			}
			if co.Best != best || co.Candidate != fin.Tuned.Trials[0].Grid[best] {
				t.Errorf("%s: the coarse best is %d, want %d", fin.Solver, co.Best, best)
			}
		}
	}
}

// TestTuneOracleGrid: TuneSpec.Oracle coarse runs the reference of the
// coarse grid alone — the same bits as the coarse reference a full
// search gives Settings.Coarse first, marked Coarse with the points it
// ran —, none runs the prescribed runs alone (no Oracle), the private
// searches the same in all three; another grid is refused naming
// oracle-grid.
func TestTuneOracleGrid(t *testing.T) {
	s := tuneSpec
	s.Class, s.N, s.Trials = theory.SmoothConvex, 1000, 2
	ts := TuneSpec{References: true, Solvers: []string{"acsa"}}
	var early *TuneReport
	full, err := Tune(context.Background(), resolve(t, s), ts, &Settings{Coarse: func(r *TuneReport) { early = r }})
	if err != nil {
		t.Fatal(err)
	}
	for _, grid := range []string{OracleCoarse, OracleNone} {
		t.Run(grid, func(t *testing.T) {
			ts := ts
			ts.Oracle = grid
			rep, err := Tune(context.Background(), resolve(t, s), ts, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, got := range rep.Solvers {
				if !sameJSON(t, got.Tuned, full.Solvers[i].Tuned) || got.Prescribed == nil {
					t.Errorf("%s: the private search differs from the full one's, or no prescribed run", got.Solver)
				}
				switch grid {
				case OracleNone:
					if got.Oracle != nil {
						t.Errorf("%s: an oracle-tuned reference %+v with --oracle-grid none", got.Solver, got.Oracle)
					}
				case OracleCoarse:
					want := early.Solvers[i].Oracle
					if got.Oracle == nil || !got.Oracle.Coarse || !sameJSON(t, got.Oracle, want) {
						t.Errorf("%s: coarse reference %+v, want the full search's first one %+v", got.Solver, got.Oracle, want)
					}
				}
			}
		})
	}
	ts.Oracle = "half"
	var se *spec.SpecError
	if _, err := Tune(context.Background(), resolve(t, s), ts, nil); !errors.As(err, &se) || se.Field != "oracle-grid" {
		t.Errorf("Oracle %q: error %v, want a SpecError on oracle-grid", ts.Oracle, err)
	}
}
