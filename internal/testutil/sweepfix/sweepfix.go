package sweepfix

import (
	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/theory"
)

// Capped is an n sweep of the solver localized over len(capped) points,
// n = 1000, 10⁴, 10⁵, …, whose certificates are all 0.05, below w₀ = 0.1,
// each point's excess risk 0.08/(i+1) ± 0.001 over 4 trials, and point i
// budget-capped where capped[i] (the work budget cut its schedule: its
// certificate is the uncapped schedule's and covers nothing).
func Capped(capped ...bool) *engine.SweepReport {
	rep := &engine.SweepReport{Sweep: engine.SweepSpec{Param: spec.SweepN, From: 1000, To: 100000, Points: len(capped)}, Solvers: []string{"localized"}}
	v := 1000.0
	for i, c := range capped {
		r := &engine.Report{Solver: "localized", W0: engine.Estimate{Mean: 0.1}, Excess: engine.Estimate{Mean: 0.08 / float64(i+1), SE: 0.001, N: 4},
			Certified: engine.Certified{Cert: &theory.Certificate{ID: "c", Value: 0.05}}, BudgetCapped: c}
		rep.Points = append(rep.Points, engine.SweepPoint{Value: v, Reports: []*engine.Report{r}})
		v *= 10
	}
	return rep
}
