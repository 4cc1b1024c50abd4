package engine

import (
	"context"
	"fmt"
	"slices"
	"time"

	"dpso/internal/spec"
	"dpso/theory"
)

// PreparedSweep is a sweep ready to run (PrepareSweep): its grid resolved,
// every point's problem built and every solver prescribed, no trial run.
// Its work is cut into units (SweepUnit: one trial at one grid point,
// every solver on the same draws), each deterministic in (seed, point,
// trial) and independent of the others, so they can run anywhere, in any
// order and any grouping: Run runs any subset here, Merge takes results
// run elsewhere (another process's shard, internal/shard), and Report
// assembles the SweepReport once every unit has its results — the same
// report, bit for bit, however the units were split. A PreparedSweep is
// not safe for concurrent use.
type PreparedSweep struct {
	r      spec.Resolved
	header *SweepReport // Sweep, Solvers, PrescribedClip, NoiseOff, Notes
	grid   []float64
	units  []*unit
	have   [][]bool // [point][trial]: the unit's results are in
	start  time.Time
}

// SweepUnit names one unit of a sweep's work: every solver of grid point
// Point (an index into the grid) on trial Trial's draws.
type SweepUnit struct {
	Point int `json:"point"`
	Trial int `json:"trial"`
}

// UnitResult is a unit's results: Results[i] is solver i's trial (in
// SweepReport.Solvers order); a solver that refuses at the point has a
// zero TrialResult.
type UnitResult struct {
	SweepUnit
	Results []TrialResult
}

// Grid is the grid's values.
func (p *PreparedSweep) Grid() []float64 { return slices.Clone(p.grid) }

// Units lists every unit, point by point, trials in order.
func (p *PreparedSweep) Units() []SweepUnit {
	out := make([]SweepUnit, 0, len(p.units)*p.r.Spec.Trials)
	for i := range p.units {
		for t := range p.r.Spec.Trials {
			out = append(out, SweepUnit{Point: i, Trial: t})
		}
	}
	return out
}

// Cost estimates unit u's work, to balance shards (it changes no
// result): (d + 1)·(n + Σ over the point's solvers that run of their
// planned gradient evaluations, solvers.Params.GradEvals, twice in a
// clip or k sweep, which reruns every trial without noise) — the floats
// drawn and the gradients computed. It is computed from the
// prescriptions, so it is the same on every machine.
func (p *PreparedSweep) Cost(u SweepUnit) float64 {
	if u.Point < 0 || u.Point >= len(p.units) {
		return 0
	}
	return p.units[u.Point].cost()
}

// cost is the work of one trial of u (see PreparedSweep.Cost and Plan).
func (u *unit) cost() float64 {
	reps := 1.0
	if u.noiseOff {
		reps = 2
	}
	work := float64(u.spec.N)
	for si := range u.solvers {
		if u.refused[si] == "" {
			work += reps * float64(max(u.params[si].GradEvals, 1))
		}
	}
	return float64(u.in.Dim()+1) * work
}

// check refuses a unit outside the sweep.
func (p *PreparedSweep) check(u SweepUnit) error {
	if u.Point < 0 || u.Point >= len(p.units) || u.Trial < 0 || u.Trial >= p.r.Spec.Trials {
		return fmt.Errorf("unit (point %d, trial %d) is not in this sweep (%d points × %d trials)", u.Point, u.Trial, len(p.units), p.r.Spec.Trials)
	}
	return nil
}

// Run runs the units which (each once), on up to r.Spec.Workers
// goroutines as Sweep does, and keeps their results.
func (p *PreparedSweep) Run(ctx context.Context, which []SweepUnit, set *Settings) error {
	seen := map[SweepUnit]bool{}
	jobs := make([]job, 0, len(which))
	for _, u := range which {
		if err := p.check(u); err != nil {
			return err
		}
		if seen[u] || p.have[u.Point][u.Trial] {
			return fmt.Errorf("%s is listed twice", p.unitText(u))
		}
		seen[u] = true
		jobs = append(jobs, job{p.units[u.Point], u.Trial})
	}
	if err := runUnits(ctx, jobs, p.r.Spec.Workers, set, p.start); err != nil {
		return err
	}
	for _, u := range which {
		p.have[u.Point][u.Trial] = true
	}
	return nil
}

// Results returns the kept results of the units which (run by Run, or
// given to Merge).
func (p *PreparedSweep) Results(which []SweepUnit) ([]UnitResult, error) {
	out := make([]UnitResult, 0, len(which))
	for _, u := range which {
		if err := p.check(u); err != nil {
			return nil, err
		}
		if !p.have[u.Point][u.Trial] {
			return nil, fmt.Errorf("%s has not run", p.unitText(u))
		}
		un := p.units[u.Point]
		res := make([]TrialResult, len(un.solvers))
		for si := range un.solvers {
			res[si] = un.results[si][u.Trial]
		}
		out = append(out, UnitResult{SweepUnit: u, Results: res})
	}
	return out, nil
}

// Merge takes results of units run elsewhere (another process's Run of the
// same sweep). A unit outside the sweep, a unit whose results are already
// in, and results for another number of solvers are refused.
func (p *PreparedSweep) Merge(results []UnitResult) error {
	for _, r := range results {
		if err := p.check(r.SweepUnit); err != nil {
			return err
		}
		if p.have[r.Point][r.Trial] {
			return fmt.Errorf("%s has results twice", p.unitText(r.SweepUnit))
		}
		un := p.units[r.Point]
		if len(r.Results) != len(un.solvers) {
			return fmt.Errorf("%s has results for %d solvers; the sweep runs %d", p.unitText(r.SweepUnit), len(r.Results), len(un.solvers))
		}
		for si := range un.solvers {
			if un.refused[si] == "" && r.Results[si].Trial != r.Trial {
				return fmt.Errorf("%s: %s's result is trial %d's", p.unitText(r.SweepUnit), un.solvers[si].Name(), r.Results[si].Trial)
			}
		}
		for si := range un.solvers {
			un.results[si][r.Trial] = r.Results[si]
		}
		p.have[r.Point][r.Trial] = true
	}
	return nil
}

// missing lists the units without results.
func (p *PreparedSweep) missing() []SweepUnit {
	var out []SweepUnit
	for _, u := range p.Units() {
		if !p.have[u.Point][u.Trial] {
			out = append(out, u)
		}
	}
	return out
}

// unitText names a unit for messages: its grid value and trial.
func (p *PreparedSweep) unitText(u SweepUnit) string {
	v := "?"
	if u.Point >= 0 && u.Point < len(p.grid) {
		v = theory.FormatNumber(p.grid[u.Point])
	}
	return fmt.Sprintf("the unit at %s = %s, trial %d", p.header.Sweep.Param, v, u.Trial)
}

// taskCost estimates solver si's time on one trial of u, to start a
// job's longest tasks first: its planned gradient evaluations
// (solvers.Params.GradEvals), four times as many for a solver that reads
// its rows at random (solvers.Descriptor.RandomRows: a row is a cache
// miss, where a streamed row is read at the memory's bandwidth; dp-sgd
// at preset 1's n = 2·10⁶, d = 10 takes about 60 ns a gradient, klz-gd
// 16 ns).
func (u *unit) taskCost(si int) float64 {
	c := float64(max(u.params[si].GradEvals, 1))
	if u.solvers[si].RandomRows {
		c *= 4
	}
	return c
}

// PlanReads is one solver's planned row reads in a Plan: Rows is the sum
// over the jobs it runs of its planned gradient evaluations
// (solvers.Params.GradEvals: one row read a gradient, twice in a clip or
// k sweep, which reruns every trial without noise), Drawn the rows those
// jobs draw (n each), so that Rows/Drawn is its passes over the data, and
// Random whether it reads its rows at random (solvers.Descriptor.RandomRows,
// a cache miss a row where a streamed row comes at the memory's
// bandwidth).
type PlanReads struct {
	Solver string
	Rows   float64
	Drawn  float64
	Random bool
}

// planReads adds each solver's planned row reads of one trial of u to
// reads (by solver name, in order of first appearance).
func (u *unit) planReads(reads []PlanReads) []PlanReads {
	reps := 1.0
	if u.noiseOff {
		reps = 2
	}
	for si, d := range u.solvers {
		if u.refused[si] != "" {
			continue
		}
		name := d.Name()
		i := slices.IndexFunc(reads, func(r PlanReads) bool { return r.Solver == name })
		if i < 0 {
			reads = append(reads, PlanReads{Solver: name, Random: d.RandomRows})
			i = len(reads) - 1
		}
		reads[i].Rows += reps * float64(max(u.params[si].GradEvals, 1))
		reads[i].Drawn += float64(u.spec.N)
	}
	return reads
}
