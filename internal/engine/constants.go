package engine

import (
	"context"
	"fmt"
	"math"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	privest "dpso/solvers/estimate"
	"dpso/solvers/ledger"
	"dpso/theory"
)

// trialProblem is the problem a trial's solvers read: the unit's instance,
// or with --constants private that instance with the constants estimated
// privately from the trial's own dataset (scenarios.Instance.
// EstimatePrivately at ρ₀ = spec.Resolved.ConstantsRho, from the trial's
// "constants" noise stream), and the estimates (nil without).
func (u *unit) trialProblem(ctx context.Context, data solvers.Samples, trial int) (*scenarios.Instance, *privest.Estimates, error) {
	if !u.run.PrivateConstants() {
		return u.in, nil, nil
	}
	rng := solvers.NewNoise(u.run.Rand, u.run.Spec.Seed, trial, "constants")
	e, err := u.in.EstimatePrivately(ctx, data, u.in.PrivateNeeds(u.readsR2k()), u.run.ConstantsRho(), rng)
	if err != nil {
		return nil, nil, err
	}
	return u.in.WithEstimates(e), &e, nil
}

// readsR2k reports whether a solver of the unit reads r̃_2k (the localized
// methods, or a baseline on their schedule).
func (u *unit) readsR2k() bool {
	return u.run.Problem.Needs.R2k
}

// runConfig is trial's solver configuration: the run's, with ε lowered to
// √(2(ρ − ρ₀)) when a private estimate spent ρ₀ of the per-release ρ (so
// that estimate and a zCDP run compose to ρ), and ρ₀ as the prior release
// that a solver accounted as a whole (dp-sgd) composes with its steps to
// the exact ε' of ρ (solvers.Config.PriorRho).
func (u *unit) runConfig(trial int, observe func(solvers.Checkpoint)) solvers.Config {
	cfg := u.run.Config(trial, observe)
	if rho0 := u.run.ConstantsRho(); rho0 > 0 {
		cfg.Eps = math.Sqrt(2 * (u.run.Privacy.Rho - rho0))
		cfg.PriorRho = rho0
	}
	return cfg
}

// withEstimateCost adds a private estimate's ρ₀ to a trial's spent and
// budget (the estimate and the run compose: ρ's add), unless the run's
// accountant already composed it into its (ε', δ) (an event with
// PriorRho = ρ₀: dp-sgd), which counting it again would overstate.
func withEstimateCost(c ledger.Cost, e *privest.Estimates, events []ledger.Event) ledger.Cost {
	if e == nil {
		return c
	}
	for _, ev := range events {
		if ev.PriorRho > 0 && ev.PriorRho == e.Rho {
			return c
		}
	}
	c.Rho += e.Rho
	return c
}

// placeholderEstimates stand in for a unit's private estimates where the
// unit checks its solvers' configuration before any trial ran (refusals,
// invalid overrides): every estimated moment 1, β the larger of 1 and the
// declared μ, μ 1. The parameters reported are each trial's own,
// prescribed from its estimates.
func placeholderEstimates(in *scenarios.Instance, r2k bool) privest.Estimates {
	nd := in.PrivateNeeds(r2k)
	e := privest.Estimates{R2: 1, Rk: math.NaN(), R2k: math.NaN(), Beta: math.NaN(), Mu: math.NaN(), K: nd.K}
	if nd.Rk {
		e.Rk = 1
	}
	if nd.R2k {
		e.R2k = 1
	}
	if nd.Beta {
		e.Beta = math.Max(1, in.Constants().Mu)
	}
	if nd.Mu {
		e.Mu = 1
	}
	return e
}

// checkPrivateConstants refuses a prescription that needs private
// constants before any data are read (a dry run): the prescription is a
// function of the private estimates, which only a run makes (and pays for).
func checkPrivateConstants(r spec.Resolved) error {
	if !r.PrivateConstants() {
		return nil
	}
	return &spec.SpecError{Field: "constants", Msg: fmt.Sprintf(
		"with private constants the prescription reads estimates made from the data when the run starts (%s); a prescription without running has none to show — run it, or give the constants",
		RhoShare(r.ConstantsRho(), r.Privacy.Rho))}
}

// RhoShare says ρ₀, the private estimates' share of the budget ρ, as a
// fraction a reader cannot take for a percentage: "ρ₀ = 0.05, a tenth of
// ρ = 0.5" (a unit fraction 1/2 … 1/10 in words, any other share in per
// cent: "ρ₀ = 0.15, 30% of ρ = 0.5").
func RhoShare(rho0, rho float64) string {
	words := []string{"", "", "half", "a third", "a quarter", "a fifth", "a sixth", "a seventh", "an eighth", "a ninth", "a tenth"}
	share := fmt.Sprintf("%s%%", theory.Sig4.Format(100*rho0/rho))
	if k := math.Round(rho / rho0); k >= 2 && k <= 10 && math.Abs(rho/rho0-k) < 1e-9*k {
		share = words[int(k)]
	}
	return fmt.Sprintf("ρ₀ = %s, %s of ρ = %s", theory.Sig6.Format(rho0), share, theory.Sig6.Format(rho))
}
