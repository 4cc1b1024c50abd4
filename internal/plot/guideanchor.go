package plot

import (
	"fmt"
	"math"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/theory"
)

// GuideAnchor is the sweep point through which every slope guide — the
// paper's upper and lower bounds' shapes over the grid, constants set to
// 1 — is drawn, by the figure and the explorer's chart alike: each guide
// is the bound's values times the one factor that puts it on the first
// solver's measured mean at this point. One anchor for all, so that the
// guides differ only in slope; and the point is the one where the upper
// bound's ratio to the lower is smallest (ln U − ln L least, the least
// violation over all upper–lower pairs where there are several), so that
// an upper bound's shape, which leaves the anchor at its ratio's lowest,
// is never drawn under a lower bound's: a rate is read as a slope, never
// as a level. Ties go to the first point; with no upper–lower pair, the
// first point with a measured mean. −1 where no point has a positive
// finite measured mean and every guide's value.
func GuideAnchor(s *engine.SweepReport) int {
	var uppers, lowers [][]float64
	for _, bs := range s.Bounds {
		if bs.Kind != theory.Upper && bs.Kind != theory.Lower {
			continue
		}
		vals, n := make([]float64, len(s.Points)), 0
		for i, p := range s.Points {
			vals[i] = math.NaN()
			if v, ok := boundAt(p, bs.ID); ok && drawable(v) && drawable(p.Value) {
				vals[i] = math.Log(v)
				n++
			}
		}
		if n < 2 {
			continue // not drawn: no guide to anchor
		}
		if bs.Kind == theory.Upper {
			uppers = append(uppers, vals)
		} else {
			lowers = append(lowers, vals)
		}
	}
	best, bestV := -1, math.Inf(1)
	for a, p := range s.Points {
		if len(p.Reports) == 0 || p.Reports[0] == nil || p.Reports[0].Refused != "" || !drawable(p.Reports[0].Excess.Mean) {
			continue
		}
		ok := true
		for _, g := range append(append([][]float64{}, uppers...), lowers...) {
			ok = ok && !math.IsNaN(g[a])
		}
		if !ok {
			continue
		}
		v := 0.0 // how far a lower guide rises above an upper one
		for _, u := range uppers {
			for _, l := range lowers {
				for i := range s.Points {
					if !math.IsNaN(u[i]) && !math.IsNaN(l[i]) {
						v = math.Max(v, (u[a]-l[a])-(u[i]-l[i]))
					}
				}
			}
		}
		if v < bestV {
			best, bestV = a, v
		}
	}
	return best
}

// slopeOnly is what a slope guide's legend entry says of its height.
const slopeOnly = "slope only: its height is not a claim"

// guideNoteAt says what the guides are and the point they all pass
// through (GuideAnchor): a k sweep's are shapes, k being no power law's
// parameter.
func guideNoteAt(s *engine.SweepReport) string {
	at := GuideAnchor(s)
	where := ""
	if at >= 0 {
		where = fmt.Sprintf(" at %s = %s", sweepSymbol(s.Sweep.Param), num(s.Points[at].Value))
	}
	if s.Sweep.Param == spec.SweepK || s.Sweep.Param == spec.SweepClip {
		return fmt.Sprintf("shape guides: all through %s's mean%s: shape only, not a height", s.Solvers[0], where)
	}
	return fmt.Sprintf("slope guides: all through %s's mean%s: slope only, not a height", s.Solvers[0], where)
}
