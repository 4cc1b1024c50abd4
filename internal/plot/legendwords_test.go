package plot

import (
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/theory"
)

// TestSweepLegendShortWords: a sweep figure's short legend entries say
// what the screen says — a bound's guide is its shape, its height not a
// claim (not "slope −0.953 only", which reads as "the slope is only
// −0.953"), and w₀ has its value, with where it is taken where it moves
// over the grid ("w₀ 0.156 at the last k", as the explorer's legend).
func TestSweepLegendShortWords(t *testing.T) {
	sweep := func(param string, w0s ...float64) *engine.SweepReport {
		rep := &engine.SweepReport{Sweep: engine.SweepSpec{Param: param, From: 2, To: 8, Points: len(w0s)}, Solvers: []string{"acsa"}}
		v := 2.0
		for i, w0 := range w0s {
			r := &engine.Report{Solver: "acsa", W0: engine.Estimate{Mean: w0}, Excess: engine.Estimate{Mean: 0.05 / float64(i+1), SE: 0.001, N: 4},
				Bounds: []theory.Bound{{ID: "u", Kind: theory.Upper, Value: 1 / v}}}
			rep.Points = append(rep.Points, engine.SweepPoint{Value: v, Reports: []*engine.Report{r}})
			v *= 2
		}
		rep.Bounds = []engine.BoundSlope{{ID: "u", Kind: theory.Upper, Title: "upper", Slope: -1}}
		return rep
	}
	for _, c := range []struct {
		name string
		rep  *engine.SweepReport
		want []string
	}{
		{"w₀ moves over k", sweep("k", 0.2, 0.18, 0.156), []string{"w₀ 0.156 at the last k: doing nothing"}},
		{"w₀ constant over n", sweep("n", 0.187, 0.187, 0.187), []string{"w₀ 0.187: doing nothing", "upper bound's shape (slope −1.000), height not a claim"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Sweep(c.rep, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var shorts []string
			for _, r := range f.refs {
				shorts = append(shorts, r.short)
			}
			for _, l := range f.legend {
				shorts = append(shorts, l.short)
			}
			all := strings.Join(shorts, "\n")
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("the short entries lack %q:\n%s", w, all)
				}
			}
			if strings.Contains(all, " only") {
				t.Errorf("a short entry says \"only\":\n%s", all)
			}
		})
	}
}
