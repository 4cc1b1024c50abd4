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
// take. An empty axis takes its default (GridRules; the factors of
// defaultAxes), relative to reference values that the search computes from
// the constants its prescription reads (declared, or estimated privately
// on its training rows), never from anything else the data hold:
//
//   - Clip: r̃₂·2^j, j = −6, …, −1 (r̃₂ the scale of the per-sample
//     gradients' norms; the prescribed C balances a bias bound built on
//     r̃_k and sits far above the norms' bulk); acsa: at each T of its
//     grid, the C whose step noise has norm σ√d = r̃₂·2^j, j = −10, …,
//     −5 (noiseClip: C = r̃₂·2^j·sε/(2√d), s = ⌊n/T⌋ the rows of a step,
//     so that a data set with more rows per step clips less at the same
//     noise; docs/tuning.md); dp-sgd, localized and
//     localized-sc: r̃₂·4^j, j = −3, …, 1 (dp-sgd: from r̃₂/64, where a
//     small data set's noise allows little more, to 4r̃₂, where little is
//     clipped and a large data set's noise is small: five points, not
//     nine, so that K ≈ 10 draws still reach both ends);
//   - Iters: the prescribed T times ½, 1, 2, 4 (within [1, n − 1]; the
//     theorems' T balances bounds with constants set to 1, and a few more
//     steps often pay); acsa's times 1, 2, 4, 8 (its T ∝ n^{1/4} at most
//     is a handful of steps at the sizes people run); localized and
//     localized-sc: times 2^j, j = −5, …, 2;
//   - Step: acsa's η = 2β times ½, 1, 2 (2β is the smooth case's floor of
//     η; the prescribed η grows with the clipping bias B(C) and stalls the
//     iterate once C is lowered); clipped-sgd's base step (1/β) times
//     ¼, ½, 1; dp-sgd's each point's own reference η_ref = min{1/β,
//     D/(σ_g√T)} times 1/64, 1/16, ¼, 1, σ_g² = min(C, r̃₂)²/B + d(zC/B)²
//     the variance of its step at its C, batch B and the search's z
//     (dpsgdStepRef: smooth SGD's step, which a small batch's noise
//     shrinks and a large batch's leaves at 1/β); localized's prescribed
//     step times 4^j, j = 0, …, 6 (its prescription is far too cautious:
//     the search's released step lands far above it); localized-sc's times
//     4^j, j = −2, …, 2; any other solver's prescribed step parameter times
//     ¼, 1, 4;
//   - Epochs and Batch (dp-sgd): 1, 2, 5 epochs; batches round(q·n) for
//     q = 1/64, ⅛ (subsampling's amplification; q = ½, where a
//     candidate takes 2 to 10 steps, held a third of the grid and was
//     released in 4 of 32 searches on docs/constants.md's four data sets,
//     3 of them no better than w₀).
//
// The wider axes are the localized methods' (and dp-sgd's clip axis):
// widened for every solver until the oracle-tuned reference landed inside
// them, they made the private search (K ≈ 10 draws of a larger grid) worse
// for acsa, clipped-sgd, prox-sgd and lipschitz-dpsgd, and far better for
// localized; dp-sgd's wider clip axis is what lets its search follow the
// data from a few hundred rows to tens of thousands (docs/tuning.md).
//
// A point a solver refuses at the search's parameters (clipped-sgd's step
// must stay below 2/μ), or that the work budget would cut, is dropped
// (GridDrops).
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

// gridAxes are the factors of a solver's default clip, step and iters
// axes (TuneGrid; GridRules says them in words).
type gridAxes struct{ clip, step, iters []float64 }

// The default axes' factors.
var (
	dpsgdEpochs = []float64{1, 2, 5}
	dpsgdRates  = []float64{1.0 / 64, 1.0 / 8}
)

// defaultAxes are name's default factors: the clip's of r̃₂ (acsa's: of
// the step noise's norm, in units of r̃₂; noiseClip), the step's of
// its reference (2β for acsa, 1/β for clipped-sgd and dp-sgd, the
// prescribed step otherwise), the iters' of the prescribed T.
func defaultAxes(name string) gridAxes {
	a := gridAxes{clip: powers(2, -6, -1), step: []float64{0.25, 1, 4}, iters: []float64{0.5, 1, 2, 4}}
	switch name {
	case solvers.ACSA{}.Name():
		a.clip, a.step, a.iters = powers(2, -10, -5), []float64{0.5, 1, 2}, powers(2, 0, 3)
	case solvers.ClippedSGD{}.Name():
		a.step = []float64{0.25, 0.5, 1}
	case solvers.DPSGD{}.Name():
		a.clip, a.step = powers(4, -3, 1), powers(4, -3, 0)
	case solvers.Localized{}.Name():
		a = gridAxes{clip: powers(4, -3, 1), step: powers(4, 0, 6), iters: powers(2, -5, 2)}
	case solvers.LocalizedSC{}.Name():
		a = gridAxes{clip: powers(4, -3, 1), step: powers(4, -2, 2), iters: powers(2, -5, 2)}
	}
	return a
}

// powers are b^j for j = lo, …, hi.
func powers(b float64, lo, hi int) []float64 {
	var out []float64
	for j := lo; j <= hi; j++ {
		out = append(out, math.Pow(b, float64(j)))
	}
	return out
}

// noiseClip is the clip threshold at which acsa's step on s rows of d
// features, at the candidates' ε, has Gaussian noise of norm ν = σ√d:
// the clip-gaussian oracle's per-coordinate σ = 2C/(sε) (sensitivity 2C/s
// of a mean of s clipped gradients under replace-one, ρ = ε²/2) gives
//
//	C = ν·sε/(2√d).
//
// Its default clip axis is ν = r̃₂·2^j (defaultAxes): the noise a step
// adds, on the scale of the gradients' norms, whatever the rows; the clip
// grows with the rows a step reads (s = ⌊n/T⌋), where the clipping bias
// can be traded for noise that more rows make small. Every input is
// public (n, d, T, ε) or already released (r̃₂).
func noiseClip(nu float64, s, d int, eps float64) float64 {
	return nu * float64(s) * eps / (2 * math.Sqrt(float64(d)))
}

// GridRules are the default axes' rules in words, by axis (the JSON's
// names), as TuneGrid states them.
var GridRules = map[string]string{
	"clip":   "r̃₂·2^j, j = −6, …, −1 (acsa: at each T, the C whose step noise has norm σ√d = r̃₂·2^j, j = −10, …, −5: C = r̃₂·2^j·⌊n/T⌋·ε/(2√d); dp-sgd, localized, localized-sc: r̃₂·4^j, j = −3, …, 1; r̃₂ as the search reads it)",
	"step":   "acsa: 2β·{½, 1, 2}; clipped-sgd: (1/β)·{¼, ½, 1}; dp-sgd: min{1/β, D/(σ_g√T)}·{1/64, 1/16, ¼, 1} at each point, σ_g² = min(C, r̃₂)²/B + d(zC/B)² its step's variance; localized: the prescribed step ·4^j, j = 0, …, 6; localized-sc: ·4^j, j = −2, …, 2; others: the prescribed step ·{¼, 1, 4}",
	"iters":  "the prescribed T ·{½, 1, 2, 4} (acsa: ·{1, 2, 4, 8}; localized, localized-sc: ·2^j, j = −5, …, 2), within [1, n − 1]",
	"epochs": "{1, 2, 5} (dp-sgd)",
	"batch":  "round(q·n_train) for q = 1/64, ⅛ (dp-sgd)",
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
			return &spec.SpecError{Field: "grid-iters", Msg: fmt.Sprintf("T = %s; each T must lie in [1, %s]", theory.FormatCount(x), theory.FormatCount(spec.MaxIters))}
		}
	}
	for _, x := range g.Epochs {
		if !(x > 0) || x > spec.MaxEpochs {
			return &spec.SpecError{Field: "grid-epochs", Msg: fmt.Sprintf("E = %s; each number of epochs must lie in (0, %s]", theory.FormatNumber(x), theory.FormatNumber(spec.MaxEpochs))}
		}
	}
	for _, x := range g.Batch {
		if x < 1 || x > scenarios.MaxN {
			return &spec.SpecError{Field: "grid-batch", Msg: fmt.Sprintf("B = %s; each batch must lie in [1, %s]", theory.FormatCount(x), theory.FormatCount(scenarios.MaxN))}
		}
	}
	for _, d := range ds {
		if err := checkGridSize(g, d); err != nil {
			return err
		}
	}
	return nil
}

// gridFlagOf is the grid flag of a solver's configuration field, "" for
// a field no grid axis sets.
func gridFlagOf(field string) string {
	switch field {
	case "clip", "step", "iters", "epochs", "batch":
		return "grid-" + field
	}
	return ""
}

// checkGridSize refuses a grid of d's with more than MaxTuneGrid points
// before any work: the product of its axes' lengths, each the values given
// or the default's length (an upper bound on the points that gridFor
// keeps), names the given axis with the most values.
func checkGridSize(g TuneGrid, d solvers.Descriptor) error {
	ax := defaultAxes(d.Name())
	type axis struct {
		flag, what string
		n          int
		given      bool
	}
	pick := func(flag, what string, given, def int) axis {
		if given > 0 {
			return axis{flag, what, given, true}
		}
		return axis{flag, what, def, false}
	}
	axes := []axis{pick("grid-clip", "C", len(g.Clip), len(ax.clip)), pick("grid-step", "steps", len(g.Step), len(ax.step))}
	if readsEpochs(d) {
		axes = append(axes, pick("grid-epochs", "epochs", len(g.Epochs), len(dpsgdEpochs)), pick("grid-batch", "batches", len(g.Batch), len(dpsgdRates)))
	} else {
		axes = append(axes, pick("grid-iters", "T", len(g.Iters), len(ax.iters)))
	}
	total, field, most := 1, "grid-clip", 0
	var parts []string
	for _, a := range axes {
		total *= a.n
		parts = append(parts, fmt.Sprintf("%d %s", a.n, a.what))
		if a.given && a.n > most {
			field, most = a.flag, a.n
		}
	}
	if total <= MaxTuneGrid {
		return nil
	}
	return &spec.SpecError{Field: field, Msg: fmt.Sprintf("%s's grid would hold up to %d points (%s), more than %d: the oracle-tuned reference runs each of them in every trial; give fewer values per axis", d.Name(), total, strings.Join(parts, " × "), MaxTuneGrid)}
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
	ax := defaultAxes(d.Name())
	clips := g.Clip
	// acsa's default clip axis is of its step noise's norm (noiseClip),
	// set at each T below.
	noiseAxis := len(clips) == 0 && d.Name() == (solvers.ACSA{}).Name()
	if len(clips) == 0 {
		r2 := c.R(2)
		if !finite(r2) {
			r2 = c.Lf
		}
		if !finite(r2) {
			return nil, drops, &spec.SpecError{Field: "grid-clip", Msg: "the default clip grid is relative to r̃₂, and r̃₂ is not known here (give --grid-clip, or --r2, or --constants private)"}
		}
		clips = scale(r2, ax.clip...)
	}
	steps := g.Step
	stepRef := false // dp-sgd's default: steps are factors of dpsgdStepRef
	if len(steps) == 0 {
		switch d.Name() {
		case solvers.ACSA{}.Name():
			if !finite(c.Beta) {
				return nil, drops, &spec.SpecError{Field: "grid-step", Msg: "acsa's default step grid is relative to 2β, and β is not known here (give --grid-step, or --beta, or --constants private)"}
			}
			steps = scale(2*c.Beta, ax.step...)
		case solvers.ClippedSGD{}.Name():
			if !finite(c.Beta) {
				return nil, drops, &spec.SpecError{Field: "grid-step", Msg: "clipped-sgd's default step grid is relative to 1/β, and β is not known here (give --grid-step, or --beta, or --constants private)"}
			}
			steps = scale(1/c.Beta, ax.step...)
		case (solvers.DPSGD{}).Name():
			if !finite(c.Beta) {
				if !finite(base.Step) {
					return nil, drops, &spec.SpecError{Field: "grid-step", Msg: "dp-sgd's default step grid is relative to 1/β, and neither β nor its prescribed step is known here (give --grid-step, or --beta, or --constants private)"}
				}
				steps = scale(base.Step, defaultAxes("").step...)
				break
			}
			// The factors of each point's own reference step
			// (dpsgdStepRef), set below once its B, T and z are known.
			steps, stepRef = ax.step, true
		default:
			if !finite(base.Step) {
				return nil, drops, &spec.SpecError{Field: "grid-step", Msg: fmt.Sprintf("the default step grid is relative to %s's prescribed step, which is not finite here (give --grid-step)", d.Name())}
			}
			steps = scale(base.Step, ax.step...)
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
			for _, f := range ax.iters {
				t := int(math.Round(f * float64(base.Iters)))
				t = max(1, min(t, n-1))
				if !slices.Contains(iters, t) {
					iters = append(iters, t)
				}
			}
		}
	}
	var out []Candidate
	// why counts the dropped points by the grid flag whose value refused
	// them ("" when no one flag did): a grid with no point left blames the
	// flag that emptied it.
	why := map[string]int{}
	add := func(cd Candidate) error {
		if cfg.Context != nil && cfg.Context.Err() != nil {
			return cfg.Context.Err() // a cancelled search stops between points
		}
		cfg := cfg
		par, err := cd.apply(&cfg, d, 1).Prescribe(ref, n, cfg)
		var ce *solvers.ConfigError
		var re *solvers.RefusedError
		switch {
		case errors.As(err, &ce):
			drops.Refused++
			why[gridFlagOf(ce.Field)]++
			return nil
		case errors.As(err, &re):
			drops.Refused++
			why[""]++
			return nil
		case err != nil:
			return err
		case par.BudgetBound:
			drops.Work++
			why[""]++
			return nil
		}
		if search != nil {
			if _, ok := search.multiplier(par.Batch, par.Iters); !ok {
				drops.Calibration++
				why[""]++
				return nil
			}
		}
		out = append(out, cd)
		return nil
	}
	// points are dp-sgd's (B, T, z) by (epochs, batch), planned once for
	// every C and step (dpsgdPointNoise).
	type epochsBatch struct {
		e float64
		b int
	}
	points := map[epochsBatch]dpsgdPoint{}
	for _, C := range clips {
		for _, s := range steps {
			if readsEpochs(d) {
				for _, e := range epochs {
					for _, b := range batches {
						if b > n {
							drops.Size++
							why["grid-batch"]++
							continue
						}
						step := s
						if stepRef {
							key := epochsBatch{e, b}
							pt, seen := points[key]
							if !seen {
								var err error
								if pt, err = dpsgdPointNoise(ref, d, n, cfg, search, e, b); err != nil {
									return nil, drops, err
								}
								points[key] = pt
							}
							step = s * pt.step(ref, C)
						}
						if err := add(Candidate{Clip: C, Step: step, Epochs: e, Batch: b}); err != nil {
							return nil, drops, err
						}
					}
				}
				continue
			}
			for _, t := range iters {
				if t >= n {
					drops.Size++
					why["grid-iters"]++
					continue
				}
				clip := C
				if noiseAxis {
					// C is a step noise's norm: its clip at this T.
					clip = noiseClip(C, n/t, ref.Dim(), cfg.Eps)
				}
				if err := add(Candidate{Clip: clip, Step: s, Iters: t}); err != nil {
					return nil, drops, err
				}
			}
		}
	}
	if len(out) == 0 {
		dropped := theory.FormatCount(int64(drops.Total()))
		if len(why) == 1 {
			for flag := range why {
				switch flag {
				case "grid-batch":
					return nil, drops, &spec.SpecError{Field: flag, Msg: fmt.Sprintf("every batch of the grid is larger than the n = %s rows a candidate trains on: %s accepts no point of it (%s refused)", theory.FormatCount(int64(n)), d.Name(), dropped)}
				case "grid-iters":
					return nil, drops, &spec.SpecError{Field: flag, Msg: fmt.Sprintf("every T of the grid is at least the n = %s rows a candidate trains on (one sample per step at least): %s accepts no point of it (%s refused)", theory.FormatCount(int64(n)), d.Name(), dropped)}
				case "":
				default:
					return nil, drops, &spec.SpecError{Field: flag, Msg: fmt.Sprintf("%s refuses every value of this axis at n = %s: it accepts no point of the grid (%s refused)", d.Name(), theory.FormatCount(int64(n)), dropped)}
				}
			}
		}
		return nil, drops, &spec.SpecError{Field: "grid-clip", Msg: fmt.Sprintf("%s accepts no point of the grid at n = %s: %s", d.Name(), theory.FormatCount(n), strings.Join(drops.Notes(), "; "))}
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
