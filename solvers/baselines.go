package solvers

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// scheduler is a paper solver whose schedule the baselines reuse: plan
// prescribes it (as the paper solver would, at the given Config), exec runs
// it, privately or not.
type scheduler interface {
	Solver
	schedule(p Problem, n int, cfg Config) (any, Params, error)
	execute(ctx context.Context, p Problem, data Samples, cfg Config, plan any, pr Params, private bool, solver string) (Result, error)
}

func (s ACSA) schedule(p Problem, n int, cfg Config) (any, Params, error) { return s.plan(p, n, cfg) }
func (s ACSA) execute(ctx context.Context, p Problem, data Samples, cfg Config, pl any, pr Params, private bool, solver string) (Result, error) {
	return s.exec(ctx, p, data, cfg, pl.(acsaPlan), pr, private, solver)
}
func (s ClippedSGD) schedule(p Problem, n int, cfg Config) (any, Params, error) {
	return s.plan(p, n, cfg)
}
func (s ClippedSGD) execute(ctx context.Context, p Problem, data Samples, cfg Config, pl any, pr Params, private bool, solver string) (Result, error) {
	return s.exec(ctx, p, data, cfg, pl.(sgdPlan), pr, private, solver)
}
func (s ProxSGD) schedule(p Problem, n int, cfg Config) (any, Params, error) {
	return s.plan(p, n, cfg)
}
func (s ProxSGD) execute(ctx context.Context, p Problem, data Samples, cfg Config, pl any, pr Params, private bool, solver string) (Result, error) {
	return s.exec(ctx, p, data, cfg, pl.(proxPlan), pr, private, solver)
}
func (s Localized) schedule(p Problem, n int, cfg Config) (any, Params, error) {
	return s.plan(p, n, cfg)
}
func (s Localized) execute(ctx context.Context, p Problem, data Samples, cfg Config, pl any, pr Params, private bool, solver string) (Result, error) {
	return locExec(ctx, p, data, cfg, pl.(locPlan), pr, private, solver)
}
func (s LocalizedSC) schedule(p Problem, n int, cfg Config) (any, Params, error) {
	return s.plan(p, n, cfg)
}
func (s LocalizedSC) execute(ctx context.Context, p Problem, data Samples, cfg Config, pl any, pr Params, private bool, solver string) (Result, error) {
	return locExec(ctx, p, data, cfg, pl.(locPlan), pr, private, solver)
}

// lookupSchedule is the registered paper solver named name ("" is acsa)
// whose schedule a baseline borrows.
func lookupSchedule(name string) (scheduler, error) {
	if name == "" {
		name = ACSA{}.Name()
	}
	var names []string
	for _, d := range Descriptors() {
		s, ok := d.Solver.(scheduler)
		if d.Baseline() || !ok {
			continue
		}
		if s.Name() == name {
			return s, nil
		}
		names = append(names, s.Name())
	}
	return nil, &ConfigError{"schedule", fmt.Sprintf("%q is not a paper solver; want one of %s", name, strings.Join(names, ", "))}
}

// SGD is "nonprivate-schedule" ("sgd" is accepted as its former name):
// the schedule of the paper solver Config.Schedule ("" → "acsa")
// prescribed at the same Config — the same T, batches, step sizes,
// averaging and phases — run without clipping (C = ∞) and without noise,
// on the same data. It spends no privacy (ρ = ∞ per sample; Result.Budget
// is ρ = ∞). Non-finite per-sample gradients are still zeroed and counted.
//
// It isolates what privacy costs one schedule, and it is not a floor: the
// schedule is the private one's at the run's ε (T, batches and steps are
// prescribed from ε), so it moves with ε. The non-private reference that
// does not is the engine's empirical risk minimizer on the same draws.
type SGD struct{}

// NonPrivateScheduleName is SGD's registry name.
const NonPrivateScheduleName = "nonprivate-schedule"

// Name implements Solver.
func (SGD) Name() string { return NonPrivateScheduleName }

// Describe implements Solver.
func (SGD) Describe() string {
	return "non-private run of a paper solver's schedule at this ε: the same T, batches and steps without clipping or noise (it moves with ε; not a floor)"
}

func (SGD) plan(p Problem, n int, cfg Config) (scheduler, any, Params, error) {
	sch, err := lookupSchedule(cfg.Schedule)
	if err != nil {
		return nil, nil, Params{}, err
	}
	pl, pr, err := sch.schedule(p, n, cfg)
	if err != nil {
		return nil, nil, Params{}, err
	}
	pr.Clip, pr.Sigma = inf, 0
	for i := range pr.Phases {
		pr.Phases[i].Clip, pr.Phases[i].Sigma = inf, 0
	}
	note := fmt.Sprintf("non-private baseline: the schedule of %s at ε = %s, k = %s, without clipping or noise", sch.Name(), formatOrder(cfg.Eps), formatOrder(cfg.K))
	pr.Notes = append([]string{note}, pr.Notes...)
	return sch, pl, pr, nil
}

// Prescribe implements Solver.
func (s SGD) Prescribe(p Problem, n int, cfg Config) (Params, error) {
	_, _, pr, err := s.plan(p, n, cfg)
	return pr, err
}

// Run implements Solver.
func (s SGD) Run(ctx context.Context, p Problem, data Samples, cfg Config) (Result, error) {
	sch, pl, pr, err := s.plan(p, data.Len(), cfg)
	if err != nil {
		return Result{Solver: s.Name()}, err
	}
	return sch.execute(ctx, p, data, cfg, pl, pr, false, s.Name())
}

// LipschitzDPSGD is "lipschitz-dpsgd", prior practice: the paper solver
// Config.Schedule ("" → "acsa") prescribed at k = ∞, i.e. calibrated to the
// worst-case Lipschitz parameter L_f = r̃_∞ (clip threshold C = L_f, noise
// σ from it), as DP-SGD analyses for L_f-Lipschitz losses do. When L_f = ∞
// it refuses: no finite noise level makes it private.
type LipschitzDPSGD struct{}

// Name implements Solver.
func (LipschitzDPSGD) Name() string { return "lipschitz-dpsgd" }

// Describe implements Solver.
func (LipschitzDPSGD) Describe() string {
	return "DP-SGD calibrated to the worst-case Lipschitz parameter L_f (prior practice): a paper solver's schedule at k = ∞"
}

func (s LipschitzDPSGD) plan(p Problem, n int, cfg Config) (scheduler, any, Params, Config, error) {
	if err := validateConfig(cfg); err != nil {
		return nil, nil, Params{}, cfg, err
	}
	sch, err := lookupSchedule(cfg.Schedule)
	if err != nil {
		return nil, nil, Params{}, cfg, err
	}
	if p == nil {
		return nil, nil, Params{}, cfg, &ConfigError{"problem", "no problem"}
	}
	lf := p.Constants().Lf
	switch {
	case math.IsInf(lf, 1):
		return nil, nil, Params{}, cfg, &RefusedError{Solver: s.Name(), Reason: "the worst-case Lipschitz parameter L_f is infinite for this problem, " +
			"so no finite noise level makes Lipschitz-calibrated DP-SGD private; this is the paper's point: " +
			"clip at a threshold set by the k-th moment instead (acsa, clipped-sgd, localized, localized-sc, prox-sgd)"}
	case math.IsNaN(lf) || lf <= 0:
		return nil, nil, Params{}, cfg, &ConfigError{"lf", "lipschitz-dpsgd is calibrated to the worst-case Lipschitz parameter L_f, which the problem does not declare"}
	}
	c := cfg
	c.K = inf
	pl, pr, err := sch.schedule(p, n, c)
	if err != nil {
		return nil, nil, Params{}, cfg, err
	}
	note := fmt.Sprintf("prior practice: the schedule of %s calibrated to the worst-case L_f = %s (k = ∞, C = L_f)", sch.Name(), num4(lf))
	pr.Notes = append([]string{note}, pr.Notes...)
	return sch, pl, pr, c, nil
}

// Prescribe implements Solver.
func (s LipschitzDPSGD) Prescribe(p Problem, n int, cfg Config) (Params, error) {
	_, _, pr, _, err := s.plan(p, n, cfg)
	return pr, err
}

// Run implements Solver.
func (s LipschitzDPSGD) Run(ctx context.Context, p Problem, data Samples, cfg Config) (Result, error) {
	sch, pl, pr, c, err := s.plan(p, data.Len(), cfg)
	if err != nil {
		return Result{Solver: s.Name()}, err
	}
	return sch.execute(ctx, p, data, c, pl, pr, true, s.Name())
}
