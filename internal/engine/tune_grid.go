package engine

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

// TuneGrid is a search's declared grid: the values each hyperparameter may
// take. An empty axis takes its default, relative to reference values that
// the search computes from the constants its prescription reads (declared,
// or estimated privately on its training rows), never from anything else
// the data hold:
//
//   - Clip: r̃₂·2^j, j = −6, …, −1 (r̃₂ the scale of the per-sample gradients'
//     worst-case norms; the prescribed C balances a bias bound built on
//     r̃_k and sits far above the norms' bulk);
//   - Iters: the prescribed T times ½, 1, 2, 4 (within [1, n − 1]; the
//     theorems' T balances bounds with constants set to 1, and a few more
//     steps often pay); acsa's times 1, 2, 4, 8 (its T ∝ n^{1/4} at most
//     is a handful of steps at the sizes people run);
//   - Step: acsa's η = 2β times ½, 1, 2 (2β is the smooth case's floor of
//     η; the prescribed η grows with the clipping bias B(C) and stalls the
//     iterate once C is lowered);
//     clipped-sgd's base step (1/β) times ¼, ½, 1; dp-sgd's η = 1/β times
//     1/64, 1/16, ¼, 1 (its prescribed η is set by the noise of its
//     prescribed C); any other solver's prescribed step parameter times
//     ¼, 1, 4;
//   - Epochs and Batch (dp-sgd): 1, 2, 5 epochs; the prescribed batch.
//
// A point a solver refuses at the search's parameters (clipped-sgd's step
// must stay below 2/μ) is dropped from that solver's grid.
type TuneGrid struct {
	Clip   []float64
	Step   []float64
	Iters  []int
	Epochs []float64
	Batch  []int
}

// Candidate is one point of a grid: the overrides it gives a run (0 =
// the prescription's, for an axis the solver does not read).
type Candidate struct {
	Clip   float64
	Step   float64
	Iters  int
	Epochs float64
	Batch  int
}

// apply sets the candidate's overrides in cfg, and in d's solver value
// those that are the solver's own settings (dp-sgd's epochs and batch, and
// z > 0 its noise multiplier), returning the solver to run.
func (c Candidate) apply(cfg *solvers.Config, d solvers.Descriptor, z float64) solvers.Solver {
	cfg.Clip, cfg.Step, cfg.Iters = c.Clip, c.Step, c.Iters
	dp, ok := d.Solver.(solvers.DPSGD)
	if !ok {
		return d.Solver
	}
	if c.Epochs > 0 {
		dp.Epochs = c.Epochs
	}
	if c.Batch > 0 {
		dp.Batch, dp.SamplingRate = c.Batch, 0
	}
	if z > 0 {
		dp.Multiplier = z
	}
	return dp
}

// Text is the candidate as flags would write it ("C = 1.85, step = 0.33,
// T = 20").
func (c Candidate) Text(num func(float64) string) string {
	s := fmt.Sprintf("C = %s, step = %s", num(c.Clip), num(c.Step))
	if c.Iters > 0 {
		s += fmt.Sprintf(", T = %d", c.Iters)
	}
	if c.Epochs > 0 {
		s += ", epochs = " + num(c.Epochs)
	}
	if c.Batch > 0 {
		s += fmt.Sprintf(", batch = %d", c.Batch)
	}
	return s
}

// MaxTuneGrid caps a solver's grid: the oracle-tuned reference runs every
// point in every trial.
const MaxTuneGrid = 512

// readsEpochs reports whether solver d's grid has dp-sgd's axes (epochs and
// batch) rather than T.
func readsEpochs(d solvers.Descriptor) bool { return d.Accounted }

// checkGridAxes refuses axes that no solver of the call reads.
func checkGridAxes(g TuneGrid, ds []solvers.Descriptor) error {
	epochs, iters := false, false
	for _, d := range ds {
		if readsEpochs(d) {
			epochs = true
		} else {
			iters = true
		}
	}
	switch {
	case len(g.Iters) > 0 && !iters:
		return &spec.SpecError{Field: "grid-iters", Msg: "dp-sgd's length is its epochs (--grid-epochs); no solver of this search reads T"}
	case (len(g.Epochs) > 0 || len(g.Batch) > 0) && !epochs:
		f := "grid-epochs"
		if len(g.Epochs) == 0 {
			f = "grid-batch"
		}
		return &spec.SpecError{Field: f, Msg: "epochs and batch are dp-sgd's; no solver of this search reads them"}
	}
	for _, x := range g.Clip {
		if !(x > 0) || math.IsInf(x, 1) {
			return &spec.SpecError{Field: "grid-clip", Msg: fmt.Sprintf("C = %s; each clip threshold must be a finite C > 0", theory.FormatNumber(x))}
		}
	}
	for _, x := range g.Step {
		if !(x > 0) || x > scenarios.MaxConstant {
			return &spec.SpecError{Field: "grid-step", Msg: fmt.Sprintf("step = %s; each step must lie in (0, %s]", theory.FormatNumber(x), theory.FormatNumber(scenarios.MaxConstant))}
		}
	}
	for _, x := range g.Iters {
		if x < 1 || x > spec.MaxIters {
			return &spec.SpecError{Field: "grid-iters", Msg: fmt.Sprintf("T = %d; each T must lie in [1, %s]", x, theory.FormatCount(spec.MaxIters))}
		}
	}
	for _, x := range g.Epochs {
		if !(x > 0) || x > spec.MaxEpochs {
			return &spec.SpecError{Field: "grid-epochs", Msg: fmt.Sprintf("E = %s; each number of epochs must lie in (0, %s]", theory.FormatNumber(x), theory.FormatNumber(spec.MaxEpochs))}
		}
	}
	for _, x := range g.Batch {
		if x < 1 || x > scenarios.MaxN {
			return &spec.SpecError{Field: "grid-batch", Msg: fmt.Sprintf("B = %d; each batch must lie in [1, %s]", x, theory.FormatCount(scenarios.MaxN))}
		}
	}
	return nil
}

// gridFor is solver d's grid for a search on n rows at configuration cfg
// (its ε the candidates'), with the defaults of TuneGrid computed from ref's
// constants and d's prescription there; points d refuses are dropped
// (their count returned). An axis whose default needs a constant ref does
// not have (user data without it) is refused, naming its flag.
func gridFor(g TuneGrid, ref *scenarios.Instance, d solvers.Descriptor, n int, cfg solvers.Config, search *DPSGDSearch) ([]Candidate, GridDrops, error) {
	var drops GridDrops
	// A dp-sgd candidate's z is set by the search (tuner.multiplier); a
	// placeholder z = 1 spares each point a calibration that T, the batch
	// and the point's validity do not depend on.
	base, err := Candidate{}.apply(&cfg, d, 1).Prescribe(ref, n, cfg)
	var refused *solvers.RefusedError
	if errors.As(err, &refused) {
		return nil, drops, err // a refusal on principle (L_f = ∞): no grid changes it
	}
	if err != nil && (len(g.Clip) == 0 || len(g.Step) == 0 || (len(g.Iters) == 0 && !readsEpochs(d)) || (len(g.Batch) == 0 && readsEpochs(d))) {
		return nil, drops, fmt.Errorf("the default grid starts from %s's prescription, which fails here (%w); give every axis (--grid-clip, --grid-step, --grid-iters or --grid-epochs)", d.Name(), err)
	}
	c := ref.Constants()
	finite := func(x float64) bool { return x > 0 && !math.IsInf(x, 1) && !math.IsNaN(x) }
	scale := func(ref float64, fs ...float64) []float64 {
		out := make([]float64, len(fs))
		for i, f := range fs {
			out[i] = ref * f
		}
		return out
	}
	clips := g.Clip
	if len(clips) == 0 {
		r2 := c.R(2)
		if !finite(r2) {
			r2 = c.Lf
		}
		if !finite(r2) {
			return nil, drops, &spec.SpecError{Field: "grid-clip", Msg: "the default clip grid is r̃₂·2^j, and r̃₂ is not known here (give --grid-clip, or --r2, or --constants private)"}
		}
		clips = scale(r2, 1.0/64, 1.0/32, 1.0/16, 1.0/8, 1.0/4, 1.0/2)
	}
	steps := g.Step
	if len(steps) == 0 {
		switch d.Name() {
		case solvers.ACSA{}.Name():
			if !finite(c.Beta) {
				return nil, drops, &spec.SpecError{Field: "grid-step", Msg: "acsa's default step grid is 2β·{½, 1, 2}, and β is not known here (give --grid-step, or --beta, or --constants private)"}
			}
			steps = scale(2*c.Beta, 0.5, 1, 2)
		case solvers.ClippedSGD{}.Name():
			if !finite(c.Beta) {
				return nil, drops, &spec.SpecError{Field: "grid-step", Msg: "clipped-sgd's default step grid is (1/β)·{¼, ½, 1}, and β is not known here (give --grid-step, or --beta, or --constants private)"}
			}
			steps = scale(1/c.Beta, 0.25, 0.5, 1)
		case (solvers.DPSGD{}).Name():
			if !finite(c.Beta) {
				if !finite(base.Step) {
					return nil, drops, &spec.SpecError{Field: "grid-step", Msg: "dp-sgd's default step grid is (1/β)·{1/64, 1/16, ¼, 1}, and β is not known here (give --grid-step, or --beta, or --constants private)"}
				}
				steps = scale(base.Step, 0.25, 1, 4)
				break
			}
			// dp-sgd's prescribed η = min{1/β, D/(G√T)} is set by the
			// noise of its prescribed C and shrinks with it.
			steps = scale(1/c.Beta, 1.0/64, 1.0/16, 1.0/4, 1)
		default:
			if !finite(base.Step) {
				return nil, drops, &spec.SpecError{Field: "grid-step", Msg: fmt.Sprintf("the default step grid is %s's prescribed step times ¼, 1, 4, which is not finite here (give --grid-step)", d.Name())}
			}
			steps = scale(base.Step, 0.25, 1, 4)
		}
	}
	var iters []int
	var epochs []float64
	var batches []int
	if readsEpochs(d) {
		epochs, batches = dpsgdAxes(g, n)
	} else {
		iters = g.Iters
		if len(iters) == 0 {
			fs := []float64{0.5, 1, 2, 4}
			if d.Name() == (solvers.ACSA{}).Name() {
				fs = []float64{1, 2, 4, 8}
			}
			for _, f := range fs {
				t := int(math.Round(f * float64(base.Iters)))
				t = max(1, min(t, n-1))
				if !slices.Contains(iters, t) {
					iters = append(iters, t)
				}
			}
		}
	}
	var out []Candidate
	add := func(cd Candidate) error {
		cfg := cfg
		par, err := cd.apply(&cfg, d, 1).Prescribe(ref, n, cfg)
		var ce *solvers.ConfigError
		var re *solvers.RefusedError
		switch {
		case errors.As(err, &ce), errors.As(err, &re):
			drops.Refused++
			return nil
		case err != nil:
			return err
		case par.BudgetBound:
			drops.Work++
			return nil
		}
		if search != nil {
			if _, ok := search.multiplier(par.Batch, par.Iters); !ok {
				drops.Calibration++
				return nil
			}
		}
		out = append(out, cd)
		if len(out) > MaxTuneGrid {
			return &spec.SpecError{Field: "grid-clip", Msg: fmt.Sprintf("%s's grid has more than %d points; the oracle-tuned reference runs each of them in every trial: give fewer values per axis", d.Name(), MaxTuneGrid)}
		}
		return nil
	}
	for _, C := range clips {
		for _, s := range steps {
			if readsEpochs(d) {
				for _, e := range epochs {
					for _, b := range batches {
						if b > n {
							drops.Size++
							continue
						}
						if err := add(Candidate{Clip: C, Step: s, Epochs: e, Batch: b}); err != nil {
							return nil, drops, err
						}
					}
				}
				continue
			}
			for _, t := range iters {
				if t >= n {
					drops.Size++
					continue
				}
				if err := add(Candidate{Clip: C, Step: s, Iters: t}); err != nil {
					return nil, drops, err
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, drops, &spec.SpecError{Field: "grid-clip", Msg: fmt.Sprintf("%s accepts no point of the grid at n = %d: %s", d.Name(), n, strings.Join(drops.Notes(), "; "))}
	}
	return out, drops, nil
}

// GridDrops counts the points a solver's grid dropped, by why.
type GridDrops struct {
	// Refused: the solver refuses the point at the search's parameters
	// (clipped-sgd's step at or above 2/μ); Size: its batch exceeds, or its
	// T reaches, the training rows; Work: its work would exceed the work
	// budget (its T would be cut, so it would not run as drawn);
	// Calibration: no noise lets dp-sgd's search meet the target with its
	// (batch, T) (DPSGDSearch.Dropped).
	Refused, Size, Work, Calibration int
}

// Total is the number of points dropped.
func (g GridDrops) Total() int { return g.Refused + g.Size + g.Work + g.Calibration }

// Notes says why points were dropped, one sentence per reason.
func (g GridDrops) Notes() []string {
	var out []string
	for _, c := range []struct {
		n    int
		what string
	}{
		{g.Refused, "the solver refuses at these parameters"},
		{g.Size, "their batch or T does not fit the training rows"},
		{g.Work, "their work would exceed the work budget (--work-budget), which would cut their T"},
		{g.Calibration, "no noise lets the search meet the budget at their batch and T"},
	} {
		if c.n > 0 {
			out = append(out, fmt.Sprintf("%d point(s) dropped: %s", c.n, c.what))
		}
	}
	return out
}
