package engine

import (
	"context"
	"fmt"
	"math"
	"slices"

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
	if !(from >= 2 && to > from) || points < 2 || points > MaxSweepPoints {
		return nil, &spec.SpecError{Field: "from", Msg: fmt.Sprintf("a sweep over n needs 2 ≤ from < to and 2 to %d points (from = %s, to = %s, %d points)", MaxSweepPoints, theory.FormatNumber(from), theory.FormatNumber(to), points)}
	}
	var ns []int
	for i := range points {
		v := int(math.Round(math.Exp(math.Log(from) + float64(i)/float64(points-1)*(math.Log(to)-math.Log(from)))))
		if !slices.Contains(ns, v) {
			ns = append(ns, v)
		}
	}
	rep := &TuneSweepReport{Ns: ns}
	for _, n := range ns {
		rn, err := r.At(spec.SweepN, float64(n))
		if err != nil {
			return nil, err
		}
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
	}
	rep.Total = t
	return rep, nil
}
