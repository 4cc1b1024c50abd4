package engine

import (
	"context"
	"errors"
	"fmt"

	"dpso/internal/spec"
	"dpso/solvers/accountant"
	"dpso/theory"
)

// TuneSweepReport is a private search repeated at every n of a grid, to
// show where tuning pays and where the prescription catches up.
type TuneSweepReport struct {
	// Ns are the grid's sample sizes, Points the search at each.
	Ns     []int
	Points []*TuneReport
	// Total composes every point's searches: on user rows they read the
	// same rows (their Rényi curves add); on a scenario each point draws
	// its own data per trial, and the total is a point's.
	Total TuneTotal
}

// TuneOverN runs Tune at each n of the log grid from..to with points
// points (integers, duplicates dropped), every point with the same search
// and budget.
func TuneOverN(ctx context.Context, r spec.Resolved, ts TuneSpec, from, to float64, points int, set *Settings) (*TuneSweepReport, error) {
	if points == 0 {
		points = DefaultSweepPoints
	}
	// The grid is the sweep's (its ends checked in n's range before any
	// integer conversion), and every point is resolved before the first
	// search runs: a point the Spec refuses is said at once, naming the
	// end of the grid it comes from.
	sw := SweepSpec{Param: spec.SweepN, From: from, To: to, Points: points}
	if err := sw.validate(); err != nil {
		return nil, err
	}
	grid := sw.Grid()
	at := make([]spec.Resolved, len(grid))
	ns := make([]int, len(grid))
	for i, v := range grid {
		rn, err := r.At(spec.SweepN, v)
		var se *spec.SpecError
		if errors.As(err, &se) && se.Field == "n" {
			end := "to"
			if i == 0 {
				end = "from"
			}
			return nil, &spec.SpecError{Field: end, Msg: fmt.Sprintf("the grid's point n = %s: %s", theory.FormatNumber(v), se.Msg)}
		}
		if err != nil {
			return nil, err
		}
		at[i], ns[i] = rn, int(v)
	}
	rep := &TuneSweepReport{Ns: ns}
	for _, rn := range at {
		p, err := Tune(ctx, rn, ts, set)
		if err != nil {
			return nil, err
		}
		rep.Points = append(rep.Points, p)
	}
	t := rep.Points[0].Total
	if r.UserRows() {
		m := 0
		for _, p := range rep.Points {
			m += p.Total.Searches
		}
		pv := rep.Points[0].Privacy
		sum := make([]float64, len(pv.RDP))
		for i, v := range pv.RDP {
			sum[i] = float64(m) * v
		}
		t.Searches = m
		t.Eps, t.Order, _ = accountant.EpsFromRDP(pv.Orders, sum, pv.Target.Delta)
		t.PrescribedRho *= float64(len(rep.Points))
		if t.PrescribedRho > 0 {
			// The prescribed runs of every point read the same rows.
			runs := t.PrescribedRho / pv.Target.Rho
			t.WithPrescribedEps, t.WithPrescribedDelta = t.Eps+runs*pv.Target.EpsDelta, (runs+1)*t.Delta
			if !t.WithPrescribedBasic {
				all := make([]float64, len(sum))
				for i, v := range sum {
					all[i] = v + t.PrescribedRho*pv.Orders[i]
				}
				t.WithPrescribedEps, _, _ = accountant.EpsFromRDP(pv.Orders, all, pv.Target.Delta)
				t.WithPrescribedDelta = t.Delta
			}
		}
	}
	rep.Total = t
	return rep, nil
}
