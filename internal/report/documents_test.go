package report

import (
	"context"
	"math"
	"slices"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// The moments, rate-map and grid documents' builders, in process (as
// builders_test.go does for the run, comparison and sweep documents).

// sameSup reports whether a document's r_k or γ_k^{1/k} entry states e:
// its order (null for ∞), its value, and its error and lower end where
// the moment exists (null beyond).
func sameSup(j SupJSON, e scenarios.SupEntry) bool {
	ok := same(j.K, e.K) && same(j.Value, e.V) && j.Method == e.Method
	if math.IsInf(e.V, 1) {
		return ok && j.Stderr == nil && j.Lower == nil
	}
	return ok && same(j.Stderr, e.SE) && same(j.Lower, e.Lo)
}

// TestMomentsJSONIsTheProfile: dpso moments' document states the
// instance's own profile — r̃_k at every finite order of Profile, to the
// bit, null where the moment does not exist (hinge-t at ν = 6: k ≥ 6),
// L_f null (heavy tails), r_k and γ_k^{1/k} at the same orders then at
// k = null (∞), L = sup‖∇F‖, each inequality with the PDF's number for
// its label, and the empirical moment R̃_{2k,n} that the non-smooth
// convex class's theorem reads, at 2k and the resolved n; no "private"
// key on a scenario (it is not a diagnostic of user rows).
func TestMomentsJSONIsTheProfile(t *testing.T) {
	rs := resolvedSpec(t, spec.Spec{Scenario: "hinge-t", Class: "nonsmooth-convex", Tail: 6, D: 3, N: 2000, K: 2})
	in, err := scenarios.Build(context.Background(), rs.Problem)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMoments(context.Background(), rs.Spec, in)
	if err != nil {
		t.Fatal(err)
	}
	j := roundTrip(t, m.JSON())
	if j.Scenario != "hinge-t" || j.Private != nil || j.Data != "" || j.Lf != nil {
		t.Errorf("header: scenario %q, private %v, data %q, lf %v; want hinge-t, no private key, no data, lf null", j.Scenario, j.Private, j.Data, j.Lf)
	}
	var finite []scenarios.MomentEntry
	for _, e := range in.Profile() {
		if !math.IsInf(e.K, 1) {
			finite = append(finite, e)
		}
	}
	if len(j.Moments) != len(finite) {
		t.Fatalf("%d moments, the profile's finite orders %d", len(j.Moments), len(finite))
	}
	nulls := 0
	for i, e := range finite {
		mj := j.Moments[i]
		if mj.K != e.K || !same(mj.Value, e.R) || mj.Method != e.Method {
			t.Errorf("moment %d: %+v, the profile's %+v", i, mj, e)
		}
		if mj.Value == nil {
			nulls++
			if e.K < 6 {
				t.Errorf("r̃_%g null below ν = 6", e.K)
			}
		} else if e.K >= 6 {
			t.Errorf("r̃_%g = %v at or above ν = 6, where it does not exist", e.K, *mj.Value)
		}
	}
	if nulls == 0 {
		t.Error("no order at or above ν = 6 reads null")
	}
	if len(j.Noncentral) != len(finite)+1 || len(j.Coordinate) != len(finite)+1 {
		t.Fatalf("%d r_k and %d γ_k entries for %d finite orders and ∞", len(j.Noncentral), len(j.Coordinate), len(finite))
	}
	for i, e := range finite {
		if !sameSup(j.Noncentral[i], in.Noncentral(e.K)) || !sameSup(j.Coordinate[i], in.Coordinate(e.K)) {
			t.Errorf("order %g: r_k %+v, γ_k %+v; the instance's %+v, %+v", e.K, j.Noncentral[i], j.Coordinate[i], in.Noncentral(e.K), in.Coordinate(e.K))
		}
	}
	if last := len(finite); j.Noncentral[last].K != nil || !sameSup(j.Noncentral[last], in.Noncentral(math.Inf(1))) || !sameSup(j.Coordinate[last], in.Coordinate(math.Inf(1))) {
		t.Errorf("k = ∞: r_∞ %+v, γ_∞ %+v", j.Noncentral[last], j.Coordinate[last])
	}
	l, exact, method := in.GradSup()
	if !same(j.GradSup.Value, l) || j.GradSup.Exact != exact || j.GradSup.Method != method {
		t.Errorf("grad_sup %+v, the instance's L = %v (exact %v, %s)", j.GradSup, l, exact, method)
	}
	checks := in.AssumptionChecks(scenarios.CheckOrders(rs.Spec.K))
	if len(checks) == 0 || len(j.Checks) != len(checks) {
		t.Fatalf("%d checks, the instance's %d", len(j.Checks), len(checks))
	}
	for i, c := range checks {
		cj := j.Checks[i]
		if cj.Text != c.Text || cj.Label != c.Label || cj.LabelPDF != theory.Cite(c.Label) || cj.LabelPDF == "" ||
			!same(cj.Lhs, c.Lhs) || !same(cj.Rhs, c.Rhs) || cj.Verdict != c.Verdict {
			t.Errorf("check %d: %+v, the instance's %+v", i, cj, c)
		}
	}
	e, sym, ok := in.ClassEmpirical(theory.NonsmoothConvex, 2, 2000)
	em := j.Empirical
	if !ok || em == nil || em.Symbol != sym || em.K != 4 || em.N != 2000 || em.M != e.N || em.L != e.L ||
		!same(em.Value, e.V) || em.Exact != e.Exact || em.Method != e.Method {
		t.Errorf("empirical %+v, the class's %s = %+v", em, sym, e)
	}
	if j.Contradictions == nil || len(j.Contradictions) != 0 {
		t.Errorf("contradictions %v, want [] (no constant given)", j.Contradictions)
	}
}

// TestRateMapJSONIsTheGrid: the rate map's document is theory's grid,
// cell (i, j) at (xs[i], ys[j]) in row j, every bound to the bit and null
// where it is infinite or does not exist; at finite r̃_k the paper's
// upper and lower bounds are finite in every cell.
func TestRateMapJSONIsTheGrid(t *testing.T) {
	p := theory.Params{N: 1e5, Dim: 10, Eps: 1, Delta: 1e-6, K: 4, Rk: 3, R2k: 4, R2: 2, Lf: math.Inf(1), Beta: 1, Mu: 1, Diam: 2}
	m, err := theory.NewRateMap(theory.MapSpec{Class: theory.SmoothConvex, Base: p, X: theory.AxisN, Y: theory.AxisEps,
		XMin: 1e3, XMax: 1e7, NX: 4, YMin: 0.1, YMax: 10, NY: 3})
	if err != nil {
		t.Fatal(err)
	}
	j := roundTrip(t, RateMap(m, "fixed d = 10"))
	if j.Class != string(theory.SmoothConvex) || j.X != string(theory.AxisN) || j.Y != string(theory.AxisEps) || j.UpperID != m.UpperID ||
		j.LowerID != m.LowerID || j.Fixed != "fixed d = 10" || !slices.Equal(j.Xs, m.Xs) || !slices.Equal(j.Ys, m.Ys) || len(j.Cells) != 3 {
		t.Fatalf("header %+v, the map's %v × %v", j, m.Xs, m.Ys)
	}
	for r, row := range m.Cells {
		if len(j.Cells[r]) != 4 {
			t.Fatalf("row %d has %d cells", r, len(j.Cells[r]))
		}
		for i, c := range row {
			cj := j.Cells[r][i]
			if cj.X != m.Xs[i] || cj.Y != m.Ys[r] || !same(cj.Upper, c.Upper) || !same(cj.Lower, c.Lower) || !same(cj.Prior, c.Prior) ||
				!same(cj.Gap, c.Gap) || !same(cj.ACSAGap, c.ACSAGap) || cj.PriorID != c.PriorID || cj.Best != c.Best ||
				cj.UpperHolds != c.UpperHolds || cj.LowerHolds != c.LowerHolds || cj.PriorHolds != c.PriorHolds {
				t.Errorf("cell (%d, %d): %+v, the map's %+v", i, r, cj, c)
			}
			if cj.Upper == nil || cj.Lower == nil {
				t.Errorf("cell (%d, %d): the paper's bounds are finite at L_f = ∞, the document says %v, %v", i, r, cj.Upper, cj.Lower)
			}
		}
	}
}

// TestGridJSONIsItsSweeps: a two-parameter sweep's document is the outer
// grid and, for each of its values, the inner sweep's document as Sweep
// writes it; its total composes every point of every row on the one draw
// of each trial: releases = outer × inner points × solvers, and ρ the sum
// of the points' ρ = ε²/2 (zCDP composes by adding ρ); every row states
// that total.
func TestGridJSONIsItsSweeps(t *testing.T) {
	rs := resolvedSpec(t, spec.Spec{Scenario: "linreg-t", D: 3, N: 600, Trials: 2, Seed: 5})
	g := engine.GridSpec{
		Outer: engine.SweepSpec{Param: spec.SweepN, From: 400, To: 800, Points: 2},
		Inner: engine.SweepSpec{Param: spec.SweepEps, From: 0.5, To: 2, Points: 3, Solvers: []string{"acsa"}},
	}
	rep, err := engine.SweepGrid(context.Background(), rs, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	j := roundTrip(t, Grid(rep))
	if j.Sweep != "n,eps" || j.Outer != "n" || !slices.Equal(j.Grid, rep.Outer) || len(j.Grid) != 2 || len(j.Sweeps) != 2 {
		t.Fatalf("sweep %q outer %q grid %v, %d sweeps", j.Sweep, j.Outer, j.Grid, len(j.Sweeps))
	}
	for i, in := range rep.Inner {
		if jsonText(t, j.Sweeps[i]) != jsonText(t, Sweep(in)) {
			t.Errorf("row n = %v: its sweep is not Sweep's document of the row", j.Grid[i])
		}
	}
	inner := j.Sweeps[0].Grid
	var rho float64
	for range j.Grid {
		for _, eps := range inner {
			rho += eps * eps / 2
		}
	}
	tot := j.Total
	if tot == nil || tot.Scope != "per-draw" || tot.Releases != 2*3 || tot.Composition != "zcdp" || !tot.Private ||
		tot.Rho == nil || math.Abs(*tot.Rho-rho) > 1e-12*rho {
		t.Errorf("total %+v; want per-draw, 6 releases composed by zCDP, ρ = Σ ε²/2 = %v", tot, rho)
	}
	for i, sw := range j.Sweeps {
		if a, b := jsonText(t, sw.Total), jsonText(t, tot); a != b {
			t.Errorf("row n = %v states the total %s, the grid's %s: every row carries the whole grid's", j.Grid[i], a, b)
		}
	}
}

// jsonText is v's document.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := MarshalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
