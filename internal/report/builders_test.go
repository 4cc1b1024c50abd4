package report

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// The documents' builders, in process: each document states what the
// engine's report holds, every number to the bit (a float64 survives
// encoding/json's shortest form exactly), null where a value does not
// exist, and its privacy block what the conversions of theory give.

// roundTrip is v written as JSON and read back into a value of its type:
// what a program reading the document gets.
func roundTrip[T any](t *testing.T, v T) T {
	t.Helper()
	b, err := MarshalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	var back T
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("the document does not read back: %v\n%s", err, b)
	}
	return back
}

// same reports whether a document's number is x: equal bits, or null
// where x is not finite.
func same(p *float64, x float64) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return p == nil
	}
	return p != nil && math.Float64bits(*p) == math.Float64bits(x)
}

func resolvedSpec(t *testing.T, s spec.Spec) spec.Resolved {
	t.Helper()
	r, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRunJSONStatesTheRun: the run document's header is the run's spec, its
// parameters the prescription, each trial's excess risk and w that
// trial's, the summary the engine's, the bounds the engine's (by id), and
// the privacy block the zCDP budget: ρ = ε²/2 (theory.Rho) and its exact
// (ε', δ) at the run's δ (theory.EpsExact), spent ρ at most ρ.
func TestRunJSONStatesTheRun(t *testing.T) {
	rs := resolvedSpec(t, spec.Spec{Scenario: "linreg-t", D: 3, N: 600, Trials: 3, Seed: 5, Eps: 0.7})
	r, err := engine.Run(context.Background(), rs, nil)
	if err != nil {
		t.Fatal(err)
	}
	j := roundTrip(t, Run(r, Options{EmitW: true}))
	if j.Scenario == nil || *j.Scenario != "linreg-t" || j.Solver != r.Solver || j.Oracle != r.Oracle || j.N != 600 || j.D != 3 ||
		!same(j.Eps, 0.7) || !same(j.K, r.Spec.K) || j.Seed == nil || *j.Seed != 5 || !j.Private || len(j.NotPrivate) != 0 {
		t.Errorf("header %+v does not state the run (solver %s, oracle %s, k %v)", j, r.Solver, r.Oracle, r.Spec.K)
	}
	p := r.Params
	if j.Params.Iters != p.Iters || j.Params.Batch != p.Batch || !same(j.Params.Clip, p.Clip) || !same(j.Params.Step, p.Step) || !same(j.Params.Sigma, p.Sigma) {
		t.Errorf("params %+v, prescription %+v", j.Params, p)
	}
	if len(j.Trials) != 3 {
		t.Fatalf("%d trials, want 3", len(j.Trials))
	}
	var sum float64
	for i, tr := range j.Trials {
		want := r.Trials[i]
		if tr.Trial != want.Trial || !same(tr.ExcessRisk, want.Excess) || len(tr.W) != 3 || tr.Seed == nil {
			t.Errorf("trial %d: %+v, the run's %+v", i, tr, want)
		}
		for c, w := range tr.W {
			if !same(w, want.W[c]) {
				t.Errorf("trial %d: w[%d] = %v, the run's %v", i, c, w, want.W[c])
			}
		}
		sum += want.Excess
	}
	if !same(j.ExcessRisk.Mean, r.Excess.Mean) || !same(j.ExcessRisk.Stderr, r.Excess.SE) || math.Abs(r.Excess.Mean-sum/3) > 1e-15*math.Abs(sum) {
		t.Errorf("excess risk %+v, the run's %+v (mean of the trials %v)", j.ExcessRisk, r.Excess, sum/3)
	}
	pv := j.Privacy
	rho := theory.Rho(0.7)
	if pv.Model != "zcdp" || pv.Adjacency != "replace-one" || !same(pv.Rho, rho) || pv.Delta == nil ||
		!same(pv.EpsExact, theory.EpsExact(0.7, *pv.Delta)) || pv.SpentRho == nil || *pv.SpentRho > rho*(1+1e-12) {
		t.Errorf("privacy block %+v; want zcdp, ρ = %v and its exact ε' at δ, spent ≤ ρ", pv, rho)
	}
	var ids, want []string
	for _, b := range j.Bounds {
		ids = append(ids, b.ID)
	}
	for _, b := range r.Bounds {
		want = append(want, b.ID)
	}
	if len(ids) == 0 || !slices.Equal(ids, want) {
		t.Errorf("bounds %v, the run's %v", ids, want)
	}
	if c := r.Certified.Cert; c == nil || j.Certificate == nil || j.Certificate.ID != c.ID || !same(j.Certificate.Value, c.Value) {
		t.Errorf("certificate %+v, the run's %+v: acsa's run states its certificate", j.Certificate, r.Certified)
	}
}

// TestPrescriptionJSONIsTheRunWithoutTrials: the dry run's document is
// the run's header and parameters, with no trials and no spent budget.
func TestPrescriptionJSONIsTheRunWithoutTrials(t *testing.T) {
	rs := resolvedSpec(t, spec.Spec{Scenario: "linreg-t", D: 3, N: 600, Trials: 3, Seed: 5, Eps: 0.7})
	p, err := engine.Prescribe(context.Background(), rs)
	if err != nil {
		t.Fatal(err)
	}
	j := roundTrip(t, Prescription(p, Options{}))
	if j.Solver != p.Solver || j.N != 600 || len(j.Trials) != 0 || j.Params.Iters != p.Params.Iters || !same(j.Params.Clip, p.Params.Clip) ||
		j.Privacy.SpentRho != nil || !same(j.Privacy.Rho, theory.Rho(0.7)) {
		t.Errorf("prescription document %+v, prescription %+v", j, p.Params)
	}
}

// TestComparisonJSONPairsTheRuns: a comparison states its solvers in
// order, each one's run document as Run writes it (but for the total
// budget, which the comparison states once, at its top), and the paired
// differences against the first solver: 0 for the first, and for each
// other the engine's mean and standard error of its trials' differences
// (the mean is the difference of the two runs' means, to rounding).
func TestComparisonJSONPairsTheRuns(t *testing.T) {
	rs := resolvedSpec(t, spec.Spec{Scenario: "linreg-t", D: 3, N: 600, Trials: 3, Seed: 5})
	names := []string{"acsa", "dp-sgd", "nonprivate-schedule"}
	c, err := engine.Compare(context.Background(), rs, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	j := roundTrip(t, Comparison(c, Options{}))
	if !slices.Equal(j.Solvers, names) || len(j.Runs) != 3 || len(j.PairedDifferences) != 3 {
		t.Fatalf("solvers %v, %d runs, %d differences", j.Solvers, len(j.Runs), len(j.PairedDifferences))
	}
	for i, rep := range c.Reports {
		got, err := MarshalJSON(j.Runs[i])
		if err != nil {
			t.Fatal(err)
		}
		alone := Run(rep, Options{})
		if alone.Privacy.Total == nil || j.Total == nil {
			t.Errorf("%s: no total budget alone (%v) or in the comparison (%v)", names[i], alone.Privacy.Total, j.Total)
		}
		alone.Privacy.Total = nil
		want, err := MarshalJSON(roundTrip(t, alone))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: the comparison's run document differs from Run's", names[i])
		}
		d := j.PairedDifferences[i]
		if !same(d.Mean, c.Diff[i].Mean) || !same(d.Stderr, c.Diff[i].SE) {
			t.Errorf("%s: paired difference %+v, the engine's %+v", names[i], d, c.Diff[i])
		}
		if i > 0 && math.Abs(c.Diff[i].Mean-(rep.Excess.Mean-c.Reports[0].Excess.Mean)) > 1e-12*math.Max(1, math.Abs(rep.Excess.Mean)) {
			t.Errorf("%s: paired mean %v, difference of the means %v", names[i], c.Diff[i].Mean, rep.Excess.Mean-c.Reports[0].Excess.Mean)
		}
	}
	if !same(j.PairedDifferences[0].Mean, 0) {
		t.Errorf("the first solver's difference with itself is %v, want 0", j.PairedDifferences[0].Mean)
	}
	if j.Private {
		t.Error("a comparison with nonprivate-schedule says it is private")
	}
}

// TestSweepJSONRowsArePoints: a sweep's grid is the points' values, and
// its rows are one per point and solver, in that order, each with its
// point's value, the solver, and that report's mean, standard error and
// trials.
func TestSweepJSONRowsArePoints(t *testing.T) {
	rs := resolvedSpec(t, spec.Spec{Scenario: "linreg-t", D: 3, N: 600, Trials: 2, Seed: 5})
	sw := engine.SweepSpec{Param: spec.SweepEps, From: 0.5, To: 2, Points: 3, Solvers: []string{"acsa", "dp-sgd"}}
	rep, err := engine.Sweep(context.Background(), rs, sw, nil)
	if err != nil {
		t.Fatal(err)
	}
	j := roundTrip(t, Sweep(rep))
	if j.Sweep != "eps" || len(j.Grid) != 3 || !slices.Equal(j.Solvers, rep.Solvers) || len(j.Rows) != 3*len(rep.Solvers) {
		t.Fatalf("sweep %q, grid %v, solvers %v, %d rows", j.Sweep, j.Grid, j.Solvers, len(j.Rows))
	}
	k := 0
	for pi, pt := range rep.Points {
		if j.Grid[pi] != pt.Value {
			t.Errorf("grid[%d] = %v, point %v", pi, j.Grid[pi], pt.Value)
		}
		for si, r := range pt.Reports {
			row := j.Rows[k]
			k++
			if row.X != pt.Value || row.Solver != rep.Solvers[si] || !same(row.Mean, r.Excess.Mean) || !same(row.Stderr, r.Excess.SE) || len(row.Trials) != len(r.Trials) {
				t.Errorf("row %d: %+v, point %v solver %s excess %+v", k-1, row, pt.Value, rep.Solvers[si], r.Excess)
				continue
			}
			for ti, tr := range r.Trials {
				if !same(row.Trials[ti], tr.Excess) {
					t.Errorf("row %d trial %d: %v, the run's %v", k-1, ti, row.Trials[ti], tr.Excess)
				}
			}
		}
	}
}

// TestPrivacyJSONIsTheConversion: dpso privacy's document is theory's
// conversions of ε at δ, null where a value is not finite.
func TestPrivacyJSONIsTheConversion(t *testing.T) {
	pr, err := theory.Convert(1.3, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	j := roundTrip(t, Privacy(pr))
	if !same(j.Eps, 1.3) || !same(j.Delta, 1e-6) || !same(j.Rho, theory.Rho(1.3)) || !same(j.GDPMu, pr.GDPMu) ||
		!same(j.EpsBunSteinke, pr.EpsBunSteinke) || !same(j.EpsCKS, pr.EpsCKS) || !same(j.EpsExact, theory.EpsExact(1.3, 1e-6)) {
		t.Errorf("document %+v, conversions %+v", j, pr)
	}
	inf := math.Inf(1)
	if j := roundTrip(t, Privacy(theory.Privacy{Eps: inf, Delta: 1e-6, Rho: inf, GDPMu: inf, EpsBunSteinke: inf, EpsCKS: inf, EpsExact: inf})); j.Eps != nil || j.Rho != nil || j.EpsExact != nil || !same(j.Delta, 1e-6) {
		t.Errorf("ε = ∞: %+v, want null ε, ρ and ε' beside δ", j)
	}
}

// TestListJSONIsTheRegistries: dpso list's document lists the catalogue's
// scenarios, the solvers' registry and the oracles, in their orders, each
// oracle with its privacy model, and the classes theory knows.
func TestListJSONIsTheRegistries(t *testing.T) {
	j := roundTrip(t, List())
	var sc, so, or, cl []string
	for _, s := range j.Scenarios {
		sc = append(sc, s.Name)
	}
	for _, s := range j.Solvers {
		so = append(so, s.Name)
	}
	for _, o := range j.Oracles {
		or = append(or, o.Name)
		want := "zcdp"
		if k, _ := oracle.KindOf(o.Name); k == oracle.Shuffle {
			want = "shuffle"
		}
		if o.Privacy != want {
			t.Errorf("oracle %s: privacy %q, want %q", o.Name, o.Privacy, want)
		}
	}
	for _, c := range j.Classes {
		cl = append(cl, c.Name)
	}
	var classes []string
	for _, c := range theory.Classes {
		classes = append(classes, string(c))
	}
	if !slices.Equal(sc, scenarios.ScenarioNames()) || !slices.Equal(so, solvers.Names()) || !slices.Equal(or, oracle.Names()) || !slices.Equal(cl, classes) {
		t.Errorf("listed scenarios %v, solvers %v, oracles %v, classes %v", sc, so, or, cl)
	}
}
