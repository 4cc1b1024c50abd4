package screens

import (
	"context"
	"math"
	"testing"

	"dpso/internal/engine"
)

// TestPresetConstantsCost pins the numbers the preset "What the constants
// cost" quotes, measured by the search its loading runs (tuneSpecOf: what
// dpso tune runs for its flags): the prescribed parameters, nothing
// clipped, the prescribed run no better than doing nothing (its mean above
// w₀), the tuned run below it by more than 3 standard errors of the
// difference of independent means and 51 times lower, the oracle's pick,
// the accounting (the whole search at the exact ε' of ρ = ½, one
// candidate's ε' and the overhead), and at n = 10³ (← on n three times)
// a tuned run that is not clearly below the prescribed one.
func TestPresetConstantsCost(t *testing.T) {
	p := presetByTitle(t, "What the constants cost")
	if p.Screen != TuneKind {
		t.Fatalf("the preset opens on %q, not the tuning screen", p.Screen)
	}
	tune := func(n int) *engine.TuneReport {
		s := p.Spec
		s.N = n
		res := mustResolve(t, s)
		rep, err := engine.Tune(context.Background(), res, tuneSpecOf(res), nil)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := tune(p.Spec.N)
	ts := rep.Solvers[0]
	pres, tuned, orc := ts.Prescribed, ts.Tuned, ts.Oracle
	pv := rep.Privacy
	t.Logf("prescribed %g ± %g (C %g, step %g, T %d, clipped %g), tuned %g ± %g, oracle %g ± %g, w₀ %g; ε' %g (candidate %g, ρ_Q %g, overhead %g)",
		pres.Excess.Mean, pres.Excess.SE, pres.Params.Clip, pres.Params.Step, pres.Params.Iters, pres.Clipped,
		tuned.Excess.Mean, tuned.Excess.SE, orc.Excess.Mean, orc.Excess.SE, rep.W0.Mean, pv.Eps, pv.CandidateEps, pv.CandidateRho, pv.Overhead)
	if !near(pres.Params.Clip, 788) || !near(pres.Params.Step, 0.667) || pres.Params.Iters != 20 || pres.Clipped != 0 ||
		!near(pres.Excess.Mean, 0.31) || !near(pres.Excess.SE, 0.08) || !near(rep.W0.Mean, 0.19) ||
		!near(tuned.Excess.Mean, 0.0062) || !near(tuned.Excess.SE, 0.0005) || !near(orc.Excess.Mean, 0.0018) || !near(orc.Excess.SE, 0.00055) {
		t.Error("the runs' numbers quoted in the preset changed")
	}
	if rep.NTrain != 9000 || rep.NValid != 1000 || !near(pv.CandidateRho, 0.123) || !near(pv.CandidateEps, 1.97) || !near(pv.Overhead, 2.41) ||
		!near(pv.Eps, 4.38) || !(pv.Eps <= pv.Target.EpsDelta) || math.Abs(pv.Target.EpsDelta-4.37718) > 1e-5 {
		t.Error("the accounting quoted in the preset changed")
	}
	if !(pres.Excess.Mean > rep.W0.Mean) {
		t.Error("the prescribed run is better than doing nothing: the text says it is not")
	}
	if f := pres.Excess.Mean / tuned.Excess.Mean; f < 50.5 || f >= 51.5 || pres.Excess.Mean-tuned.Excess.Mean < 3*math.Hypot(pres.Excess.SE, tuned.Excess.SE) {
		t.Errorf("tuned is not clearly (3 s.e.) 51× below prescribed: %g×", f)
	}

	small := tune(1000)
	ts = small.Solvers[0]
	t.Logf("n = 10³: prescribed %g ± %g, tuned %g ± %g, oracle %g", ts.Prescribed.Excess.Mean, ts.Prescribed.Excess.SE, ts.Tuned.Excess.Mean, ts.Tuned.Excess.SE, ts.Oracle.Excess.Mean)
	if small.NValid != 100 || !near(ts.Prescribed.Excess.Mean, 0.34) || !near(ts.Prescribed.Excess.SE, 0.064) ||
		!near(ts.Tuned.Excess.Mean, 0.14) || !near(ts.Tuned.Excess.SE, 0.016) || !near(ts.Oracle.Excess.Mean, 0.016) {
		t.Error("the numbers quoted for n = 10³ changed")
	}
	if ts.Prescribed.Excess.Mean-ts.Tuned.Excess.Mean > 3*math.Hypot(ts.Prescribed.Excess.SE, ts.Tuned.Excess.SE) {
		t.Error("at n = 10³ tuning is clearly better: the text says the search can barely tell candidates apart")
	}
}
