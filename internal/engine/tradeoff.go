package engine

import (
	"context"
	"fmt"
	"math"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"
)

// tradeOffBase prepares a clip or k sweep from the base run r: it
// prescribes r (the prescribed C is returned, the first phase's for the
// localized methods), fills a clip sweep's default grid (10⁻⁴ to 1 times
// the prescribed C), and in a clip sweep holds each solver's step size
// (and, for the one-pass solvers, T) at the values that solver prescribes
// at its own prescribed C, since a step that follows C (acsa's
// η = max{2β, T^{3/2}√(Σ²+B²)/D} reads B(C) and σ(C); prox-sgd's T reads
// them too) would mix two effects. What is held for a solver is what the
// sweep of that solver alone holds, so that its rows are the same in any
// company. The returned holds are by solver name; the notes say what was
// held.
func tradeOffBase(ctx context.Context, r spec.Resolved, sw *SweepSpec, names []string) (spec.Resolved, float64, []string, map[string]heldSchedule, error) {
	num := theory.Sig4.Format
	if sw.Param == spec.SweepClip && r.Spec.Clip > 0 {
		return r, 0, nil, nil, sweepErr("clip", "a clip sweep sets C at every grid point; leave clip unset")
	}
	if r.PrivateConstants() {
		return r, 0, nil, nil, sweepErr("constants", "a %s sweep is built around the prescribed C, which private constants leave unknown before a run: each trial estimates them from its own rows and pays for them there; declare the constants (--rk, --beta, …) or estimate them from the rows with --estimate-constants (NOT private)", sw.Param)
	}
	p, err := Prescribe(ctx, r)
	if err != nil {
		return r, 0, nil, nil, err
	}
	if p.Refused != "" {
		return r, 0, nil, nil, &solvers.RefusedError{Solver: p.Solver, Reason: p.Refused}
	}
	C := p.Params.Clip
	var notes []string
	if sw.Param == spec.SweepK {
		notes = append(notes, "every point runs the full prescription at its k (its own C, T and step): k trades the clipping bias against the noise through the prescribed C")
		return r, C, notes, nil, nil
	}
	if sw.From == 0 && sw.To == 0 {
		if !(C > 0) || math.IsInf(C, 1) {
			return r, C, nil, nil, sweepErr("from", "the prescription has no finite clip threshold here (C = %s); give from and to", num(C))
		}
		sw.From, sw.To = C*math.Pow(10, -DefaultClipDecades), C
		if sw.Points == 0 {
			sw.Points = DefaultClipPoints
		}
		notes = append(notes, fmt.Sprintf("default grid: C from 10%s to 1 times the prescribed C = %s", theory.Superscript(-DefaultClipDecades), num(C)))
	}
	label := "C"
	if len(p.Params.Phases) > 1 {
		label = "C_1 (the first phase's)"
	}
	notes = append(notes, fmt.Sprintf("prescribed %s = %s (%s's); the sweep sets every phase's C to the grid value", label, num(C), r.Solver.Name()))
	if r.Spec.Step != 0 {
		notes = append(notes, fmt.Sprintf("the step is yours (%s) at every C", num(r.Spec.Step)))
		return r, C, notes, nil, nil
	}
	holds, held, err := clipHolds(ctx, r, names)
	if err != nil {
		return r, C, nil, nil, err
	}
	notes = append(notes, held...)
	return r, C, notes, holds, nil
}

// clipHolds is what a clip sweep holds for each solver of names: its step
// and, when T is not given, its T, as that solver prescribes them at its
// own prescribed C (the base run's Config, whose Clip is unset), except
// for a solver with phases (the localized methods: their step η does not
// read C; their T_i do, by the proof's rule, and one override would
// flatten them) or one that refuses (its rows say why). The notes say what
// is held, solver by solver.
func clipHolds(ctx context.Context, r spec.Resolved, names []string) (map[string]heldSchedule, []string, error) {
	rr, err := r.ForReleases(r.Releases(1, 1))
	if err != nil {
		return nil, nil, err
	}
	in, err := scenarios.Build(ctx, rr.Problem)
	if err != nil {
		return nil, nil, err
	}
	num := theory.Sig4.Format
	holds := map[string]heldSchedule{}
	var notes []string
	for _, name := range names {
		d, ok := solvers.DescriptorOf(name)
		if !ok {
			continue // newUnit names it
		}
		d = rr.Configured(d)
		cfg := rr.Config(0, nil)
		cfg.Context = ctx // dp-sgd's calibration answers Ctrl-C
		par, err := d.Solver.Prescribe(in, in.Def().N, cfg)
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if err != nil {
			continue // refused or not runnable: its rows say so
		}
		if len(par.Phases) > 1 {
			notes = append(notes, name+": the step η is the prescription's, which does not depend on C; each phase's T_i follows the proof's rule at each C")
			continue
		}
		h := heldSchedule{Step: par.Step}
		what := fmt.Sprintf("the step (%s)", num(par.Step))
		if r.Spec.Iters == 0 {
			h.Iters = par.Iters
			what += fmt.Sprintf(" and T = %d", par.Iters)
		}
		holds[name] = h
		notes = append(notes, fmt.Sprintf("%s: %s held at the values it prescribes at its prescribed C = %s for every C of the grid (the prescribed step reads C through the bias and the noise); its points therefore read \"overridden\"", name, what, num(par.Clip)))
	}
	return holds, notes, nil
}
