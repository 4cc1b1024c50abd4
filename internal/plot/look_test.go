package plot

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// TestWriteFiguresToLookAt writes the figures a speaker would export —
// the flagship run and comparison, a non-smooth comparison, sweeps over n and ε,
// the clipping trade-off — as PNGs into $DPSO_FIG_DIR, for a person to
// look at, with their data fill; it is skipped when the variable is
// unset. TestSlideFigures checks the same kinds of figure.
func TestWriteFiguresToLookAt(t *testing.T) {
	dir := os.Getenv("DPSO_FIG_DIR")
	if dir == "" {
		t.Skip("set DPSO_FIG_DIR to write the figures")
	}
	ctx := context.Background()
	save := func(name string, f *Figure, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Save(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		l := f.Layout()
		t.Logf("%s: %d×%d, data fill %.3f of the height", name, l.Width, l.Height, l.DataFill())
	}
	resolve := func(s spec.Spec) spec.Resolved {
		t.Helper()
		rs, err := s.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	flag := resolve(spec.Spec{Scenario: "linreg-t", Class: theory.SmoothConvex, Tail: 10, K: 2, Lf: 1e6, N: 200000, Trials: 8})
	c, err := engine.Compare(ctx, flag, []string{"acsa", "nonprivate-schedule", "lipschitz-dpsgd", "klz-gd", "dp-sgd"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Comparison(c, Options{})
	save("flagship.png", f, err)
	r, err := engine.Run(ctx, flag, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Run(r, Options{})
	save("run.png", f, err)
	hc, err := engine.Compare(ctx, resolve(spec.Spec{Scenario: "hinge-t", Class: theory.NonsmoothConvex, K: 4, Tail: 10, N: 1024, Trials: 4}), []string{"localized", "nonprivate-schedule", "klz-gd"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Comparison(hc, Options{})
	save("hinge.png", f, err)
	sw, err := engine.Sweep(ctx, resolve(spec.Spec{Scenario: "mean-hard", Class: theory.SmoothSC, Trials: 8}), engine.SweepSpec{Param: "n", From: 625, To: 10000, Points: 5, Solvers: []string{"clipped-sgd", "nonprivate-schedule"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Sweep(sw, Options{})
	save("meanhard-n.png", f, err)
	es, err := engine.Sweep(ctx, resolve(spec.Spec{Scenario: "linreg-t", Class: theory.SmoothConvex, Tail: 10, K: 2, N: 50000, Trials: 4}), engine.SweepSpec{Param: "eps", From: 0.1, To: 10, Points: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Sweep(es, Options{})
	save("eps.png", f, err)
	cs, err := engine.Sweep(ctx, resolve(spec.Spec{Scenario: "linreg-t", Class: theory.SmoothSC, N: 10000, Trials: 5}), engine.SweepSpec{Param: spec.SweepClip}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Sweep(cs, Options{})
	save("clip.png", f, err)
	ks, err := engine.Sweep(ctx, resolve(spec.Spec{Scenario: "linreg-t", Class: theory.SmoothConvex, Tail: 10, N: 20000, Trials: 4}),
		engine.SweepSpec{Param: spec.SweepK, From: 2, To: 4.5, Points: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Sweep(ks, Options{})
	save("k.png", f, err)
	tr, err := engine.Tune(ctx, resolve(spec.Spec{Scenario: "linreg-t", Class: theory.SmoothSC, N: 10000, Trials: 5}), engine.TuneSpec{References: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err = Tune(tr, Options{})
	save("tune.png", f, err)
	f, err = Moments(profileOf(t, spec.Spec{Scenario: "linreg-t", Tail: 10, K: 2, Lf: 1e6}), Options{})
	save("moments.png", f, err)
}

// profileOf is the moment profile of s's problem, as report.NewMoments
// reads it from the built instance.
func profileOf(t *testing.T, s spec.Spec) MomentProfile {
	t.Helper()
	s.Solver = "nonprivate-schedule"
	rs, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	in, err := scenarios.Build(context.Background(), rs.Problem)
	if err != nil {
		t.Fatal(err)
	}
	m := MomentProfile{Spec: rs.Spec, D: in.Dim(), Lf: in.Moment(math.Inf(1)), Contradictions: in.Contradictions()}
	for _, e := range in.Profile() {
		if !math.IsInf(e.K, 1) {
			m.Finite = append(m.Finite, e)
			m.Noncentral = append(m.Noncentral, in.Noncentral(e.K))
		}
	}
	return m
}
