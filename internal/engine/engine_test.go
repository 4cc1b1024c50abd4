package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

// stripTimes zeroes the wall-clock fields of a report.
func stripTimes(r *Report) {
	r.Elapsed = 0
	for i := range r.Trials {
		r.Trials[i].Elapsed = 0
	}
}

func TestRunDeterministicAcrossWorkers(t *testing.T) {
	ctx := context.Background()
	for _, spec := range []spec.Spec{
		{Scenario: scenarios.LinRegT, D: 3, Tail: 8, N: 2000, Trials: 7, Seed: 11},
		{Scenario: scenarios.HingeT, D: 2, N: 1000, Trials: 5, Seed: 3, Class: theory.NonsmoothSC},
	} {
		t.Run(caseName(spec), func(t *testing.T) {
			var reports []*Report
			for _, w := range []int{1, 4} {
				s := spec
				s.Solver, s.Workers = "test-gd", w
				r, err := Run(ctx, resolve(t, s), nil)
				if err != nil {
					t.Fatal(err)
				}
				stripTimes(r)
				r.Spec.Workers = 0
				reports = append(reports, r)
			}
			if !sameJSON(t, reports[0], reports[1]) {
				t.Errorf("%s: 1 and 4 workers differ:\n%+v\n%+v", spec.Scenario, reports[0].Trials[0], reports[1].Trials[0])
			}
			// Distinct trials are distinct draws.
			tr := reports[0].Trials
			if tr[0].Excess == tr[1].Excess {
				t.Errorf("%s: trials 0 and 1 have the same excess risk %g", spec.Scenario, tr[0].Excess)
			}
			// The summary is the mean ± s.e. of the trials.
			xs := make([]float64, len(tr))
			for i, x := range tr {
				xs[i] = x.Excess
			}
			if e := estimate(xs); e != reports[0].Excess {
				t.Errorf("%s: Excess %+v, recomputed %+v", spec.Scenario, reports[0].Excess, e)
			}
		})
	}
}

func TestCompareCommonRandomNumbers(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []string{"seeded", "secure"} {
		t.Run(mode, func(t *testing.T) {
			c, err := Compare(ctx, resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 500, Trials: 4, Rand: mode, Workers: 3}), []string{"test-probe-a", "test-probe-b"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			a, b := c.Reports[0].Trials, c.Reports[1].Trials
			for i := range a {
				if !slices.Equal(a[i].Notes, b[i].Notes) {
					t.Errorf("%s trial %d: solvers saw different data: %v vs %v", mode, i, a[i].Notes, b[i].Notes)
				}
				if i > 0 && slices.Equal(a[i].Notes, a[0].Notes) {
					t.Errorf("%s: trials %d and 0 saw the same data", mode, i)
				}
				if a[i].Notes[0][:4] != "500:" {
					t.Errorf("%s: probe read %s samples, want 500", mode, a[i].Notes[0])
				}
			}
			if d := c.Diff[1]; d.Mean != 0 || d.SE != 0 {
				t.Errorf("%s: paired difference of identical solvers %+v, want 0 ± 0", mode, d)
			}
		})
	}
	// Seeded runs see the same data again; secure runs do not.
	run := func(mode string) string {
		c, err := Compare(ctx, resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 100, Trials: 1, Rand: mode}), []string{"test-probe-a"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return c.Reports[0].Trials[0].Notes[0]
	}
	if a, b := run("seeded"), run("seeded"); a != b {
		t.Error("seeded runs differ")
	}
	if a, b := run("secure"), run("secure"); a == b {
		t.Error("secure runs repeat their data")
	}
}

func TestCompareRefusal(t *testing.T) {
	c, err := Compare(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 400, Trials: 3}), []string{"test-gd", "test-refuse"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Reports[0].Refused != "" || c.Reports[1].Refused == "" || !math.IsNaN(c.Diff[1].Mean) || len(c.Reports[1].Trials) != 0 {
		t.Errorf("refusal: %+v %+v", c.Reports[1], c.Diff)
	}
	_, err = Run(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 400, Trials: 3, Solver: "test-refuse"}), nil)
	var re *solvers.RefusedError
	if in, ok := spec.UserInputOf(err); !errors.As(err, &re) || !ok || in.Refused != "test-refuse" {
		t.Errorf("Run of a refusing solver: %v", err)
	}
	if _, err := Compare(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.LinRegT}), []string{"test-gd", "test-gd"}, nil); err == nil {
		t.Error("a solver listed twice should be an error")
	}
}

// TestRunCancellation: a run stops once its context is cancelled. No
// clock is read and nothing sleeps: a solver that waits at its second
// iteration for the cancellation (test-gd-slow) runs on 2 workers until its
// first checkpoint arrives, the context is cancelled, Run returns
// context.Canceled (a run that did not stop its trials would never
// return: a guard ends the test), and at most two progress values per worker — the first
// checkpoint of the trial each was in, and its end — arrive after it.
func TestRunCancellation(t *testing.T) {
	const workers = 2
	ctx, cancel := context.WithCancel(context.Background())
	r := resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 2000, Trials: 50, Solver: "test-gd-slow", Workers: workers})
	mb := NewMailbox[Progress](1 << 12)
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, r, &Settings{Progress: mb})
		done <- err
	}()
	<-mb.Ready() // running
	cancel()
	mb.Take() // everything up to the cancellation
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute): // only ends a test that would hang; no assertion reads the time
		t.Fatal("Run did not return after its context was cancelled")
	}
	if after, dropped := mb.Take(); len(after)+dropped > 2*workers {
		t.Errorf("%d progress values after the cancellation, want at most %d", len(after)+dropped, 2*workers)
	}
}

// TestBuildCancellation: cancelling while a Monte Carlo moment sample is
// drawn (linreg-t with two blocks of features, κ_Σ ≠ 1, whose moments have
// no quadrature) returns context.Canceled, and the cancelled computation is
// not cached: a later Build succeeds. The problem's parameters are new to
// this process at every call (the moment cache is process-wide, so a
// repeated test — go test -count=15 — would otherwise find it warm), and
// the context reports the cancellation from its 10th check on, in the
// middle of the sample's 64 chunks (each chunk checks it once), so the
// outcome does not depend on timing.
func TestBuildCancellation(t *testing.T) {
	noise := 0.123 + 1e-6*float64(buildCancellations.Add(1))
	p := resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 7, Tail: 9.25, Params: map[string]float64{"noise": noise, "cond": 4}, Solver: "test-gd"}).Problem
	ctx := &cancelAfter{Context: context.Background()}
	ctx.left.Store(10)
	if _, err := scenarios.Build(ctx, p); !errors.Is(err, context.Canceled) {
		t.Errorf("Build: %v, want context.Canceled", err)
	}
	if n := ctx.left.Load(); n < -8 {
		t.Errorf("Build went on for %d checks after the cancellation", -n)
	}
	if _, err := scenarios.Build(context.Background(), p); err != nil {
		t.Errorf("Build after a cancelled one: %v", err)
	}
}

// buildCancellations makes every TestBuildCancellation's problem new.
var buildCancellations atomic.Int64

// cancelAfter is a context whose Err reports context.Canceled from its
// left-th call on: a cancellation at a deterministic point of a
// computation that polls Err.
type cancelAfter struct {
	context.Context
	left atomic.Int64
}

func (c *cancelAfter) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func TestTracesAligned(t *testing.T) {
	r, err := Run(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.LinRegPareto, D: 3, N: 3000, Trials: 4, Solver: "test-gd", Iters: 15}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Trace) != 15 {
		t.Fatalf("mean trace has %d points, want 15", len(r.Trace))
	}
	for i, p := range r.Trace {
		xs := make([]float64, len(r.Trials))
		for j, tr := range r.Trials {
			if len(tr.Trace) != 15 || tr.Trace[i].GradEvals != p.GradEvals {
				t.Fatalf("trial %d checkpoint %d: %+v vs %+v", j, i, tr.Trace, p)
			}
			xs[j] = tr.Trace[i].Excess
		}
		if e := estimate(xs); e.Mean != p.Excess || e.SE != p.SE {
			t.Errorf("checkpoint %d: mean %g ± %g, recomputed %+v", i, p.Excess, p.SE, e)
		}
	}
	if last := r.Trace[len(r.Trace)-1]; last.GradEvals != r.Trials[0].GradEvals || last.Excess != r.Excess.Mean {
		t.Errorf("last checkpoint %+v, result %d evals, mean %g", last, r.Trials[0].GradEvals, r.Excess.Mean)
	}

	// Misaligned traces keep the common checkpoints, with a note.
	trials := []TrialResult{
		{Trace: []TracePoint{{GradEvals: 1, Excess: 1}, {GradEvals: 2, Excess: 2}, {GradEvals: 4, Excess: 4}}},
		{Trace: []TracePoint{{GradEvals: 1, Excess: 3}, {GradEvals: 4, Excess: 6}}},
	}
	tr, note := meanTrace(trials)
	if len(tr) != 2 || tr[0].Excess != 2 || tr[1].Excess != 5 || tr[1].GradEvals != 4 || note == "" {
		t.Errorf("misaligned mean trace %+v (%q)", tr, note)
	}
	// Same iterations, different gradient counts (Poisson batches): the
	// mean by iteration, at the mean count — not just the common start.
	trials = []TrialResult{
		{Trace: []TracePoint{{Iter: 0, GradEvals: 0, Excess: 1}, {Iter: 3, GradEvals: 700, Excess: 0.5}, {Iter: 9, GradEvals: 2300, Excess: 0.1}}},
		{Trace: []TracePoint{{Iter: 0, GradEvals: 0, Excess: 1}, {Iter: 3, GradEvals: 800, Excess: 0.3}, {Iter: 9, GradEvals: 2200, Excess: 0.3}}},
	}
	tr, note = meanTrace(trials)
	if len(tr) != 3 || tr[1].Iter != 3 || tr[1].GradEvals != 750 || tr[1].Excess != 0.4 || tr[2].GradEvals != 2250 || tr[2].Excess != 0.2 ||
		!strings.Contains(note, "random batch sizes") {
		t.Errorf("mean trace by iteration %+v (%q)", tr, note)
	}
}

func TestProgressNeverBlocks(t *testing.T) {
	// Nobody reads this mailbox: the run must still finish, and the
	// mailbox keeps only its capacity.
	mb := NewMailbox[Progress](4)
	r, err := Run(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 1000, Trials: 6, Solver: "test-gd"}), &Settings{Progress: mb})
	if err != nil {
		t.Fatal(err)
	}
	vals, dropped := mb.Take()
	// 6 trials × (20 checkpoints + 1 completion) reports.
	if len(vals) != 4 || dropped != 6*21-4 {
		t.Errorf("mailbox holds %d, dropped %d; want 4 and %d", len(vals), dropped, 6*21-4)
	}
	last := vals[len(vals)-1]
	if !last.Done || last.TrialsDone != 6 || last.Total != 6 || r.Trials[last.Trial].Excess != last.Excess {
		t.Errorf("last progress %+v", last)
	}
	// A reader sees every checkpoint in order when it keeps up.
	mb = NewMailbox[Progress](1 << 12)
	if _, err := Run(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 1000, Trials: 1, Solver: "test-gd"}), &Settings{Progress: mb}); err != nil {
		t.Fatal(err)
	}
	vals, dropped = mb.Take()
	if len(vals) != 21 || dropped != 0 || vals[0].Iter != 1 || vals[19].Iter != 20 || !vals[20].Done {
		t.Errorf("progress %d values, dropped %d", len(vals), dropped)
	}
	for i := 1; i < 20; i++ {
		if vals[i].GradEvals <= vals[i-1].GradEvals {
			t.Errorf("progress out of order at %d", i)
		}
	}
}

func TestFitSlope(t *testing.T) {
	// An exact line: slope 0.5, zero-width interval.
	xs := []float64{0, 1, 2, 3, 4}
	ys := make([]float64, len(xs))
	for i, x := range xs {
		ys[i] = -1 + 0.5*x
	}
	s := fitSlope(xs, ys)
	if math.Abs(s.Slope-0.5) > 1e-14 || math.Abs(s.Intercept+1) > 1e-14 || math.Abs(s.Hi-s.Lo) > 1e-12 {
		t.Errorf("exact line: %+v", s)
	}
	// By hand: x̄ = ȳ = 1.5, Sxy = 4.7, Sxx = 5, slope 0.94, intercept 0.09,
	// residuals 0.01, −0.13, 0.23, −0.11, SSR = 0.082, se = √(0.082/2/5),
	// t_{0.975, 2} = 4.302652729911275.
	s = fitSlope([]float64{0, 1, 2, 3}, []float64{0.1, 0.9, 2.2, 2.8})
	se := math.Sqrt(0.082 / 2 / 5)
	if math.Abs(s.Slope-0.94) > 1e-12 || math.Abs(s.Intercept-0.09) > 1e-12 ||
		math.Abs(s.Lo-(0.94-4.302652729911275*se)) > 1e-9 || math.Abs(s.Hi-(0.94+4.302652729911275*se)) > 1e-9 {
		t.Errorf("hand example: %+v, want 0.94 ± %g", s, 4.302652729911275*se)
	}
	if s := fitSlope([]float64{0, 1}, []float64{0, 1}); s.Slope != 1 || !math.IsNaN(s.Lo) || s.Note == "" {
		t.Errorf("two points: %+v", s)
	}
}

func TestSweep(t *testing.T) {
	ctx := context.Background()
	base := spec.Spec{Scenario: scenarios.LinRegT, D: 2, Trials: 3, Solver: "test-gd"}
	sw := SweepSpec{Param: "n", From: 400, To: 6400, Points: 5, Solvers: []string{"test-gd", "test-probe-a"}}
	if g := sw.Grid(); !slices.Equal(g, []float64{400, 800, 1600, 3200, 6400}) {
		t.Errorf("grid %v", g)
	}
	var reps []*SweepReport
	for _, w := range []int{1, 3} {
		s := base
		s.Workers = w
		rep, err := Sweep(ctx, resolve(t, s), sw, nil)
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	rep := reps[0]
	if len(rep.Points) != 5 || len(rep.Slopes) != 2 {
		t.Fatalf("%d points, %d slopes", len(rep.Points), len(rep.Slopes))
	}
	for i, p := range rep.Points {
		if p.Reports[0].Spec.N != int(p.Value) || p.Reports[1].Trials[0].GradEvals != int64(p.Value) {
			t.Errorf("point %d: n = %d, probe read %d", i, p.Reports[0].Spec.N, p.Reports[1].Trials[0].GradEvals)
		}
		for si := range 2 {
			a, b := p.Reports[si], reps[1].Points[i].Reports[si]
			stripTimes(a)
			stripTimes(b)
			if !sameJSON(t, a.Trials, b.Trials) || !sameJSON(t, a.Trace, b.Trace) {
				t.Errorf("point %d solver %d: 1 vs 3 workers differ", i, si)
			}
		}
	}
	// The slope is the OLS fit of the log means.
	var xs, ys []float64
	for _, p := range rep.Points {
		xs = append(xs, math.Log(p.Value))
		ys = append(ys, math.Log(p.Reports[0].Excess.Mean))
	}
	if want := fitSlope(xs, ys); rep.Slopes[0].Slope != want.Slope || rep.Slopes[0].Solver != "test-gd" {
		t.Errorf("slope %+v, want %+v", rep.Slopes[0], want)
	}
	// The probe outputs w = 0 whatever n: its excess risk is constant, so
	// its slope is 0.
	if s := rep.Slopes[1]; math.Abs(s.Slope) > 1e-12 {
		t.Errorf("constant excess risk: slope %+v", s)
	}

	for _, c := range []struct {
		spec  spec.Spec
		sw    SweepSpec
		field string
	}{
		{base, SweepSpec{Param: "q", From: 2, To: 4}, "sweep"},
		{base, SweepSpec{Param: "k", From: 1.5, To: 4}, "from"},
		{base, SweepSpec{Param: "n", From: 400, To: 400}, "to"},
		{base, SweepSpec{Param: "n", From: 0, To: 400}, "from"},
		{base, SweepSpec{Param: "n", From: 400.5, To: 800}, "from"},
		{base, SweepSpec{Param: "n", From: 400, To: 800, Points: 1}, "points"},
		{base, SweepSpec{Param: "eps", From: 0.1, To: math.Inf(1)}, "to"},
		{spec.Spec{Scenario: scenarios.Example1, Solver: "test-gd"}, SweepSpec{Param: "d", From: 1, To: 4}, "sweep"},
		{base, SweepSpec{Param: "n", From: 400, To: 1e9}, "to"},
	} {
		t.Run(fmt.Sprintf("%s %g..%g: %s", c.sw.Param, c.sw.From, c.sw.To, c.field), func(t *testing.T) {
			_, err := Sweep(ctx, resolve(t, c.spec), c.sw, nil)
			var se *spec.SpecError
			if !errors.As(err, &se) || se.Field != c.field {
				t.Errorf("%+v: %v, want field %s", c.sw, err, c.field)
			}
		})
	}
}

func TestPrescribe(t *testing.T) {
	p, err := Prescribe(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 1000, Solver: "test-gd", K: 2.5}))
	if err != nil {
		t.Fatal(err)
	}
	in := build(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 1000, Solver: "test-gd", K: 2.5})
	rk := in.Constants().R(2.5)
	if p.Params.Iters != 20 || p.Params.Clip != rk || p.Theory.Rk != rk || p.Theory.K != 2.5 || p.Theory.N != 1000 || p.Theory.D != 2 {
		t.Errorf("prescription %+v, theory %+v, r̃_k %g", p.Params, p.Theory, rk)
	}
	if math.IsInf(p.Theory.R2, 0) || !math.IsInf(p.Theory.R2k, 1) || !math.IsInf(p.Theory.Lf, 1) {
		t.Errorf("theory inputs %+v", p.Theory)
	}
	p, err = Prescribe(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.LinRegT, Solver: "test-refuse"}))
	if err != nil || p.Refused == "" {
		t.Errorf("refusing prescription %+v, %v", p, err)
	}
}

// TestOverrides: user-given constants replace the declared ones, reach the
// solver, and are noted.
func TestOverrides(t *testing.T) {
	r, err := Run(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 1000, Trials: 2, Solver: "test-gd", Rk: 7, Beta: 3}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Params.Clip != 7 || r.Theory.Rk != 7 || r.Theory.Beta != 3 || !r.Theory.UserConstants {
		t.Errorf("params %+v theory %+v", r.Params, r.Theory)
	}
	found := false
	for _, n := range r.Notes {
		found = found || strings.Contains(n, "user-given constants")
	}
	if !found {
		t.Errorf("notes %q", r.Notes)
	}
	// Overrides must keep moments ordered against the declared ones.
	_, err = scenarios.Build(context.Background(), resolve(t, spec.Spec{Scenario: scenarios.LinRegT, D: 2, R2: 1e6, Solver: "test-gd", K: 2.5}).Problem)
	var se *spec.SpecError
	if !errors.As(err, &se) || se.Field != "r2" {
		t.Errorf("r2 above the declared r̃_2.5: %v", err)
	}
}

func TestDatasets(t *testing.T) {
	for _, name := range scenarios.ScenarioNames() {
		t.Run(name, func(t *testing.T) {
			for _, mode := range []string{"seeded", "secure"} {
				t.Run(mode, func(t *testing.T) {
					s := spec.Spec{Scenario: name, N: 50, Rand: mode, D: 2}
					if name == scenarios.Example1 {
						s.D = 0
					}
					r := resolve(t, s)
					in := build(t, s)
					ds := in.Dataset(r.Rand, r.Spec.Seed, 2)
					a := solvers.Materialize(ds)
					b := solvers.Materialize(ds)
					if a.Len() != 50 || !slices.Equal(a.Data, b.Data) {
						t.Errorf("%s %s: two Opens of one dataset differ (or length %d)", name, mode, a.Len())
					}
					for _, v := range a.Data {
						if math.IsNaN(v) || math.IsInf(v, 0) {
							t.Errorf("%s: non-finite sample value %g", name, v)
							break
						}
					}
					rd := ds.Open()
					x := make([]float64, in.SampleDim())
					if allocs := testing.AllocsPerRun(40, func() { rd.Next(x) }); allocs != 0 {
						t.Errorf("%s: Next allocates %g times", name, allocs)
					}
				})
			}
		})
	}
}

// TestSweepFixed: the parameters a sweep held fixed, as the table and the
// figure state them — n, d and k where not swept, the shuffle oracles'
// (ε, δ) rather than a zCDP ε, a moment assumption other than the
// default — with n and d the instance's (Theory), not the Spec's zeros.
func TestSweepFixed(t *testing.T) {
	num := theory.Plain.Format
	for _, c := range []struct {
		param   string
		shuffle bool
		assume  theory.Assumption
		want    string
	}{
		{"n", false, "", "d = 3, k = 2, zCDP ε = 1"},
		{"eps", false, "", "n = 100, d = 3, k = 2"},
		{"n", true, "", "d = 3, k = 2, (ε, δ) = (1, 1e-06)-shuffle"},
		{"eps", true, "", "n = 100, d = 3, k = 2, (ε, δ)-shuffle with δ = 1e-06"},
		{"k", false, theory.Noncentral, "n = 100, d = 3, zCDP ε = 1, prescribed with " + theory.Noncentral.Symbol() + " (" + theory.Noncentral.Label() + ")"},
	} {
		t.Run(fmt.Sprintf("%s shuffle=%v %s", c.param, c.shuffle, c.assume), func(t *testing.T) {
			rep := &SweepReport{Sweep: SweepSpec{Param: c.param}, Points: []SweepPoint{{Reports: []*Report{{
				Spec:   spec.Spec{K: 2, Eps: 1, Delta: 1e-6},
				Theory: scenarios.TheoryInputs{N: 100, D: 3, Shuffle: c.shuffle, Assumption: c.assume},
			}}}}}
			if got := strings.Join(rep.Fixed(num), ", "); got != c.want {
				t.Errorf("%s sweep, shuffle %v: fixed %q, want %q", c.param, c.shuffle, got, c.want)
			}
		})
	}
	if f := (&SweepReport{}).Fixed(num); f != nil {
		t.Errorf("no points: %q, want nil", f)
	}
}

// TestPlanIsThePrescribedWork: Settings.Plan is called once, before the
// first trial, with the work of the model (d + 1)·(n + GradEvals) per
// trial — test-gd reads its n = 1000 samples once at d = 2: 3·(1000 +
// 1000) = 6,000 floats per trial, three trials — the figure Prescribe
// gives for the same call; its reads are its 3·1000 rows, one pass over
// the rows drawn, streamed.
func TestPlanIsThePrescribedWork(t *testing.T) {
	s := spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 1000, Trials: 3, Workers: 2, Solver: "test-gd"}
	p, err := Prescribe(context.Background(), resolve(t, s))
	if err != nil {
		t.Fatal(err)
	}
	var plans []Plan
	if _, err := Run(context.Background(), resolve(t, s), &Settings{Plan: func(pl Plan) { plans = append(plans, pl) }}); err != nil {
		t.Fatal(err)
	}
	want := Plan{Jobs: 3, Workers: 2, Work: 3 * 3 * (1000 + float64(p.Params.GradEvals)),
		Reads: []PlanReads{{Solver: "test-gd", Rows: 3 * 1000, Drawn: 3 * 1000}}}
	if p.Params.GradEvals != 1000 || !reflect.DeepEqual(p.Plan, want) {
		t.Errorf("prescription's plan %+v (%d evaluations), want %+v", p.Plan, p.Params.GradEvals, want)
	}
	if len(plans) != 1 || !reflect.DeepEqual(plans[0], want) {
		t.Errorf("Settings.Plan called with %+v, want once with %+v", plans, want)
	}
}
