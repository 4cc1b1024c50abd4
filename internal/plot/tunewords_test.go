package plot

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// TestTuneFigureNamesWhatItDraws: the tuning figure names its bars as one
// solver's procedures, not as solvers; labels no slot of a run that did
// not happen (references off); and promises no standard error on a
// one-trial bar.
func TestTuneFigureNamesWhatItDraws(t *testing.T) {
	est := func(m, se float64) engine.Estimate { return engine.Estimate{Mean: m, SE: se, N: 8} }
	base := func(trials int, refs bool) *engine.TuneReport {
		ts := engine.TuneSolver{Solver: "acsa", Tuned: engine.Tuned{Excess: est(2.849e-4, 1.2e-4)}}
		if refs {
			ts.Prescribed = &engine.Report{Excess: est(7.825e-5, 1.3e-5)}
			ts.Oracle = &engine.OracleTuned{Excess: est(3.011e-5, 5.9e-6)}
		}
		return &engine.TuneReport{Spec: spec.Spec{Scenario: "linreg-t", Class: theory.SmoothConvex, K: 2, Eps: 1, Trials: trials},
			N: 1000, W0: engine.Estimate{Mean: 0.1389}, Solvers: []engine.TuneSolver{ts}}
	}
	t.Run("references", func(t *testing.T) {
		tr := base(8, true)
		f, err := Tune(tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if n := f.namesNote(); strings.HasPrefix(n, "solvers:") || !strings.Contains(n, "procedures of acsa") {
			t.Errorf("names note %q calls the procedures solvers", n)
		}
	})
	t.Run("user data, one trial", func(t *testing.T) {
		tr := base(1, false)
		tr.Spec.Scenario, tr.Spec.Data, tr.UserRows = "", "rows.csv", true
		f, err := Tune(tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var labels []string
		for _, tk := range f.Plot.X.Tick.Marker.Ticks(f.Plot.X.Min, f.Plot.X.Max) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if len(labels) != 1 || labels[0] != tuneKinds[1].short {
			t.Errorf("x axis slots %q, want only %q", labels, tuneKinds[1].short)
		}
		if l := f.Plot.X.Label.Text; strings.Contains(l, "standard error") && !strings.Contains(l, "no standard error") {
			t.Errorf("x label %q promises a standard error on a one-trial bar", l)
		}
		if !slices.Contains(f.notes, "no prescribed or oracle-tuned bar: "+report.NoReferencesOnRows) {
			t.Errorf("no note says why the tuned bar stands alone: %q", f.notes)
		}
	})
}

// TestTuneFigureCarriesTheScreensVerdicts: the tuning figure prints what
// the tuning screen prints beside its bars, from the screen's functions
// computed here for the same run: the ratios of the means judged by the
// paired difference over the same draws at 2 s.e.
// (report.TuneSolverVerdict, the test dpso tune names), and for each run
// above F(w₀) − F* (or below it by less than 2 s.e.) that it did no
// better than doing nothing (report.W0TuneVerdict) — on a small tuning
// with references, and on a user's one-trial search above w₀.
func TestTuneFigureCarriesTheScreensVerdicts(t *testing.T) {
	rs, err := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothSC, D: 3, N: 2000, Trials: 2}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	run, err := engine.Tune(context.Background(), rs, engine.TuneSpec{References: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	est := func(m, se float64) engine.Estimate { return engine.Estimate{Mean: m, SE: se, N: 1} }
	user := &engine.TuneReport{Spec: spec.Spec{Data: "rows.csv", Class: theory.SmoothConvex, K: 2, Eps: 1, Trials: 1}, UserRows: true,
		N: 430, W0: engine.Estimate{Mean: 0.177}, Solvers: []engine.TuneSolver{{Solver: "acsa", Tuned: engine.Tuned{Excess: est(0.825, math.NaN())}}}}
	for _, c := range []struct {
		name string
		rep  *engine.TuneReport
		want []string // words some verdict must have
	}{
		{"references", run, []string{"paired test over the same 2 draws at 2 s.e.", "oracle-tuned"}},
		{"user rows, one trial", user, []string{"tuned: above F(w₀) − F* in its one trial"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Tune(c.rep, Options{})
			if err != nil {
				t.Fatal(err)
			}
			ts := c.rep.Solvers[0]
			none := engine.Estimate{Mean: math.NaN()}
			pres, orc := none, none
			if ts.Prescribed != nil {
				pres = ts.Prescribed.Excess
			}
			if ts.Oracle != nil {
				orc = ts.Oracle.Excess
			}
			var want []string
			if v := report.TuneSolverVerdict(ts, "oracle-tuned"); v != "" {
				want = append(want, v)
			}
			for _, r := range []struct {
				name string
				e    engine.Estimate
			}{{"prescribed", pres}, {"tuned", ts.Tuned.Excess}, {"oracle-tuned", orc}} {
				if math.IsNaN(r.e.Mean) {
					continue
				}
				if v := report.W0TuneVerdict(r.e.Mean, r.e.SE, c.rep.W0.Mean); v != "" {
					want = append(want, r.name+": "+v)
				}
			}
			joined := strings.Join(want, "\n")
			for _, w := range c.want {
				if !strings.Contains(joined, w) {
					t.Fatalf("the screen's verdicts %q lack %q: the case does not test what it says", want, w)
				}
			}
			svg := figureSVG(t, f, "verdict-tune-"+strings.ReplaceAll(c.name, " ", "-"))
			for _, w := range want {
				if !slices.Contains(f.Verdicts(), w) {
					t.Errorf("the figure's verdicts %q lack %q", f.Verdicts(), w)
				}
				if !strings.Contains(squash(svg), squash(w)) {
					t.Errorf("the SVG's text lacks %q", w)
				}
			}
			// With its verdicts the slide keeps every note and entry and,
			// with more than one bar (one value has no extent), its data
			// fill.
			bars := 0
			for _, s := range f.Series() {
				if s.Role == RoleSolver {
					bars++
				}
			}
			if lay := f.Layout(); bars > 1 && lay.DataFill() < 0.5 || lay.NotesDrawn != lay.NotesTotal || lay.LegendDrawn != lay.LegendEntries {
				t.Errorf("with its verdicts the figure's data fill %.3f (want ≥ 0.5), notes %d of %d, legend %d of %d", lay.DataFill(), lay.NotesDrawn, lay.NotesTotal, lay.LegendDrawn, lay.LegendEntries)
			}
		})
	}
}
