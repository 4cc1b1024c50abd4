package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"dpso/internal/spec"
	"dpso/theory"
)

// GridReport is a sweep over two parameters: for each value of the outer
// parameter Param (Outer), the sweep of the inner one (Inner[i], a
// SweepReport of its own: its slopes or trade-off summaries are the inner
// parameter's at that outer value). Every point of every row releases
// from the same data as the others, so Total composes all of them (and
// every inner report carries it).
type GridReport struct {
	Param string
	Outer []float64
	Inner []*SweepReport
	Total PrivacyTotal
	// Elapsed is the wall time of the whole grid.
	Elapsed time.Duration
}

// GridSpec is a two-parameter sweep: the outer parameter's log grid
// (Outer: its Param, From, To, Points) and the inner sweep (Inner, with
// the solvers); the inner parameter is the one a trade-off needs inside
// (clip: its default grid and its held steps are those of each outer
// value's base run).
type GridSpec struct {
	Outer SweepSpec
	Inner SweepSpec
}

// SweepGrid runs the inner sweep at every value of the outer parameter,
// each row's base run being r at that value (Resolved.At), on the same
// draws (the seed's), and composes the privacy of all rows together. The
// two parameters must differ; a clip sweep is always the inner one (its
// grid and held steps are relative to each row's prescription).
func SweepGrid(ctx context.Context, r spec.Resolved, g GridSpec, set *Settings) (*GridReport, error) {
	start := time.Now()
	if g.Outer.Param == g.Inner.Param {
		return nil, sweepErr("vary", "the two swept parameters are the same (%s)", theory.Quote(g.Outer.Param))
	}
	if g.Outer.Param == spec.SweepClip {
		return nil, sweepErr("vary", "clip must be the second of the two parameters (--vary %s,clip): its grid and held steps are relative to each row's prescription", g.Inner.Param)
	}
	if r.Spec.SplitBudget && (g.Outer.Param == spec.SweepEps || g.Inner.Param == spec.SweepEps) {
		return nil, sweepErr("split-budget", "a sweep of eps varies the budget itself, so there is no one total to split; leave --split-budget out (the output states the total)")
	}
	if err := g.Outer.validate(); err != nil {
		return nil, err
	}
	outer := g.Outer.Grid()
	rep := &GridReport{Param: g.Outer.Param, Outer: outer}
	var units []*unit
	for _, v := range outer {
		at := fmt.Sprintf("at %s = %s: ", g.Outer.Param, theory.FormatNumber(v))
		rv, err := r.At(g.Outer.Param, v)
		if err != nil {
			var se *spec.SpecError
			if errors.As(err, &se) {
				return nil, sweepErr("to", "%s%s", at, se.Error())
			}
			return nil, err
		}
		p, err := prepareSweep(ctx, rv, g.Inner, len(outer))
		if err != nil {
			var se *spec.SpecError
			if errors.As(err, &se) {
				return nil, &spec.SpecError{Field: se.Field, Msg: at + se.Msg}
			}
			return nil, fmt.Errorf("%s%w", at, err)
		}
		if err := p.Run(ctx, p.Units(), set); err != nil {
			return nil, err
		}
		inner, err := p.Report(ctx)
		if err != nil {
			return nil, err
		}
		units = append(units, p.units...)
		rep.Inner = append(rep.Inner, inner)
	}
	rep.Total = totalOf(r, units)
	for _, in := range rep.Inner {
		in.Total = rep.Total
		for _, pt := range in.Points {
			for _, rr := range pt.Reports {
				rr.Total = rep.Total
			}
		}
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}
