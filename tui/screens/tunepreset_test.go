package screens

import (
	"context"
	"math"
	"reflect"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/presets"
)

// TestPresetConstantsCost: the search the preset "What the constants
// cost" runs on loading (tuneSpecOf: what dpso tune runs for its flags):
// nothing clipped at the prescription, the prescribed run no better than
// doing nothing (its mean above w₀), the tuned run below w₀ by more than
// 3 standard errors, the accounting (the whole search within the exact ε'
// of ρ = ε²/2), and at n = 10³ (← on n three times) a tuned run that is
// not clearly below the prescribed one; the facts its texts quote.
func TestPresetConstantsCost(t *testing.T) {
	p := presetByTitle(t, "What the constants cost")
	if p.Screen != TuneKind {
		t.Fatalf("the preset opens on %q, not the tuning screen", p.Screen)
	}
	tune := func(s spec.Spec) *engine.TuneReport {
		res := mustResolve(t, s)
		rep, err := engine.Tune(context.Background(), res, tuneSpecOf(res), nil)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := tune(p.Spec)
	ts := rep.Solvers[0]
	pres, tuned, orc := ts.Prescribed, ts.Tuned, ts.Oracle
	pv := rep.Privacy
	t.Logf("prescribed %g ± %g (C %g, step %g, T %d, clipped %g), tuned %g ± %g, oracle %g ± %g, w₀ %g; ε' %g (candidate %g, ρ_Q %g, overhead %g)",
		pres.Excess.Mean, pres.Excess.SE, pres.Params.Clip, pres.Params.Step, pres.Params.Iters, pres.Clipped,
		tuned.Excess.Mean, tuned.Excess.SE, orc.Excess.Mean, orc.Excess.SE, rep.W0.Mean, pv.Eps, pv.CandidateEps, pv.CandidateRho, pv.Overhead)
	if pres.Clipped != 0 || !(pv.Eps <= pv.Target.EpsDelta) {
		t.Error("the prescription clips, or the search spends more than its budget")
	}
	if !(pres.Excess.Mean > rep.W0.Mean) {
		t.Error("the prescribed run is better than doing nothing: the text says it is not")
	}
	if rep.W0.Mean-tuned.Excess.Mean < 3*tuned.Excess.SE {
		t.Error("the tuned run is not clearly below w₀")
	}
	// The preset's next step (← on n three times): its own caption.
	step, ok := p.Step()
	if ok && (step.N != 1000 || !reflect.DeepEqual(withN(p.Spec, step.N), step)) {
		t.Fatalf("the preset's step is %+v, not the preset at n = 10³ (← on n three times)", step)
	}
	small := tune(step)
	sts := small.Solvers[0]
	// The paired difference over the same draws, the test the screen's
	// verdict and dpso tune's name.
	var d []float64
	for i, tr := range sts.Tuned.Trials {
		d = append(d, sts.Prescribed.Trials[i].Excess-tr.Excess)
	}
	diff := meanSE(d)
	t.Logf("n = 10³: prescribed %g ± %g, tuned %g ± %g, oracle %g; paired difference %g ± %g", sts.Prescribed.Excess.Mean, sts.Prescribed.Excess.SE, sts.Tuned.Excess.Mean, sts.Tuned.Excess.SE, sts.Oracle.Excess.Mean, diff.Mean, diff.SE)
	if !(diff.Mean > 2*diff.SE) || !(sts.Prescribed.Excess.Mean > small.W0.Mean) ||
		!(sts.Tuned.Excess.Mean < small.W0.Mean) || !(sts.Tuned.Excess.Mean > 3*sts.Oracle.Excess.Mean) {
		t.Error("at n = 10³ the caption says the search pays (its paired difference with the prescription more than 2 s.e.; the prescription above w₀, the tuned run below) and tells candidates apart only coarsely (above 3× the oracle's pick)")
	}
	checkFacts(t, p, presets.Facts{
		"nu": pres.Spec.Tail, "n": float64(pres.Spec.N), "epsilon": pres.Spec.Eps, "trials": float64(pres.Spec.Trials),
		"clip": pres.Params.Clip, "step": pres.Params.Step, "iters": float64(pres.Params.Iters),
		"prescribed": pres.Excess.Mean, "prescribed_se": pres.Excess.SE, "w0": rep.W0.Mean,
		"k_mean": pv.Repetitions.Mean, "ntrain": float64(rep.NTrain), "nvalid": float64(rep.NValid), "rho_q": pv.CandidateRho,
		"eps": pv.Eps, "delta": pv.Target.Delta, "eps1": pv.CandidateEps, "overhead": pv.Overhead,
		"tuned": tuned.Excess.Mean, "tuned_se": tuned.Excess.SE, "w0_ratio": rep.W0.Mean / tuned.Excess.Mean,
		"oracle": orc.Excess.Mean, "oracle_se": orc.Excess.SE,
		"n_small": 1000, "nvalid_small": float64(small.NValid), "tuned_small": sts.Tuned.Excess.Mean, "tuned_small_se": sts.Tuned.Excess.SE,
		"prescribed_small": sts.Prescribed.Excess.Mean, "prescribed_small_se": sts.Prescribed.Excess.SE, "w0_small": small.W0.Mean,
		"oracle_small": sts.Oracle.Excess.Mean, "small_ratio": sts.Prescribed.Excess.Mean / sts.Tuned.Excess.Mean,
		"small_oracle_ratio": sts.Tuned.Excess.Mean / sts.Oracle.Excess.Mean,
	}, true)
}

// withN is s at n.
func withN(s spec.Spec, n int) spec.Spec {
	s.N = n
	return s
}

// meanSE is the mean of xs and its standard error.
func meanSE(xs []float64) engine.Estimate {
	var m, v float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return engine.Estimate{Mean: m, SE: math.Sqrt(v / float64(len(xs)-1) / float64(len(xs))), N: len(xs)}
}
